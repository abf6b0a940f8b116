#include "models/kube/gojson.h"

#include <cmath>
#include <cstdio>

namespace kube {

namespace {

const char kHex[] = "0123456789abcdef";

void appendUnicodeEscape(std::string &out, unsigned cp)
{
    out += "\\u";
    out += kHex[(cp >> 12) & 0xF];
    out += kHex[(cp >> 8) & 0xF];
    out += kHex[(cp >> 4) & 0xF];
    out += kHex[cp & 0xF];
}

void appendNumber(std::string &out, const Json &v)
{
    if (v.is_number_integer()) {
        out += v.is_number_unsigned() ? std::to_string(v.get<std::uint64_t>())
                                      : std::to_string(v.get<std::int64_t>());
        return;
    }
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e21) {
        // Go prints integral floats without exponent below 1e21.
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.0f", d);
        out += buf;
        return;
    }
    // Shortest round-trip form, as Go's strconv.FormatFloat(f, 'g'-ish, -1, 64).
    for (int precision = 1; precision <= 17; ++precision) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", precision, d);
        if (std::strtod(buf, nullptr) == d) {
            out += buf;
            return;
        }
    }
    out += v.dump();
}

void appendValue(std::string &out, const Json &v)
{
    switch (v.type()) {
    case Json::value_t::null:
        out += "null";
        break;
    case Json::value_t::boolean:
        out += v.get<bool>() ? "true" : "false";
        break;
    case Json::value_t::string:
        appendGoString(out, v.get_ref<const std::string &>());
        break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        appendNumber(out, v);
        break;
    case Json::value_t::array: {
        out += '[';
        bool first = true;
        for (const auto &e : v) {
            if (!first)
                out += ',';
            first = false;
            appendValue(out, e);
        }
        out += ']';
        break;
    }
    case Json::value_t::object: {
        // nlohmann::json keeps objects in a std::map<std::string>: already byte-order sorted.
        out += '{';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            appendGoString(out, it.key());
            out += ':';
            appendValue(out, it.value());
        }
        out += '}';
        break;
    }
    case Json::value_t::binary:
    case Json::value_t::discarded:
        out += "null";
        break;
    }
}

} // namespace

void appendGoString(std::string &out, const std::string &s)
{
    out += '"';
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char c = p[i];
        switch (c) {
        case '"':
            out += "\\\"";
            continue;
        case '\\':
            out += "\\\\";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\r':
            out += "\\r";
            continue;
        case '\t':
            out += "\\t";
            continue;
        case '<':
        case '>':
        case '&':
            appendUnicodeEscape(out, c);
            continue;
        default:
            break;
        }
        if (c < 0x20) {
            appendUnicodeEscape(out, c);
            continue;
        }
        // U+2028 / U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
        if (c == 0xE2 && i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) {
            appendUnicodeEscape(out, p[i + 2] == 0xA8 ? 0x2028 : 0x2029);
            i += 2;
            continue;
        }
        out += static_cast<char>(c);
    }
    out += '"';
}

std::string goJson(const Json &value)
{
    std::string out;
    out.reserve(256);
    appendValue(out, value);
    return out;
}

void appendGoJson(std::string &out, const Json &value)
{
    appendValue(out, value);
}

std::string goQuote(const std::string &s)
{
    static const char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 0xf];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

} // namespace kube
