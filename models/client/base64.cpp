#include "models/client/base64.h"

#include <array>

namespace client {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int decodeChar(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

} // namespace

std::string encodeBase64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                           (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                           static_cast<unsigned char>(bytes[i + 2]);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest == 1) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += "==";
    } else if (rest == 2) {
        const unsigned v =
            (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

std::optional<std::string> decodeBase64(std::string_view text, std::size_t *badOffset)
{
    std::string out;
    out.reserve(text.size() / 4 * 3);
    std::array<int, 4> quad{};
    int n = 0;       // characters collected in the current quantum
    int padding = 0; // '=' seen in the current quantum
    std::size_t quantumStart = 0;
    auto fail = [&](std::size_t at) -> std::optional<std::string> {
        if (badOffset)
            *badOffset = at;
        return std::nullopt;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r' || c == '\n')
            continue;
        if (n == 0)
            quantumStart = i;
        if (c == '=') {
            if (n < 2)
                return fail(i);
            ++padding;
            quad[n++] = 0;
        } else {
            if (padding > 0) // data after padding
                return fail(i);
            const int d = decodeChar(c);
            if (d < 0)
                return fail(i);
            quad[n++] = d;
        }
        if (n == 4) {
            const unsigned v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6) | quad[3];
            out += static_cast<char>((v >> 16) & 0xff);
            if (padding < 2)
                out += static_cast<char>((v >> 8) & 0xff);
            if (padding < 1)
                out += static_cast<char>(v & 0xff);
            if (padding > 0) {
                // Padding ends the data: only line breaks may follow.
                for (std::size_t j = i + 1; j < text.size(); ++j)
                    if (text[j] != '\r' && text[j] != '\n')
                        return fail(j);
                return out;
            }
            n = 0;
        }
    }
    if (n != 0)
        return fail(quantumStart);
    return out;
}

} // namespace client
