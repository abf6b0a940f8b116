#include "models/kube/jsonsax.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <locale.h>

namespace kube {

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

namespace {

class Reader
{
public:
    Reader(std::string_view text, nlohmann::json_sax<Json> &sax)
        : m_p(text.data()), m_end(text.data() + text.size()), m_sax(sax)
    {}

    SaxResult run();

private:
    enum class Frame : char { Object, Array };
    // What the next token must be.
    enum class Want { Value, FirstOrEnd, Key, Colon, CommaOrEnd };

    void skipSpace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool literal(const char *word, std::size_t n)
    {
        if (static_cast<std::size_t>(m_end - m_p) < n || std::memcmp(m_p, word, n) != 0)
            return false;
        m_p += n;
        return true;
    }
    bool string(std::string &out); // at the opening quote; false: invalid
    bool utf8(std::string &out);   // at a byte >= 0x80
    bool escape(std::string &out); // after the backslash
    bool hex4(unsigned &out);
    SaxResult number();
    SaxResult value(); // a scalar, or the start of a container
    // At the bracket that ends the innermost container; close() reads it and reports the end.
    bool atClose() const { return *m_p == (m_stack.back() == Frame::Object ? '}' : ']'); }
    bool close()
    {
        ++m_p;
        const Frame f = m_stack.back();
        m_stack.pop_back();
        return f == Frame::Object ? m_sax.end_object() : m_sax.end_array();
    }

    const char *m_p;
    const char *m_end;
    nlohmann::json_sax<Json> &m_sax;
    std::vector<Frame> m_stack;
    std::string m_text;
};

bool Reader::hex4(unsigned &out)
{
    if (m_end - m_p < 4)
        return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = *m_p++;
        out <<= 4;
        if (c >= '0' && c <= '9')
            out |= static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f')
            out |= static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            out |= static_cast<unsigned>(c - 'A' + 10);
        else
            return false;
    }
    return true;
}

bool Reader::escape(std::string &out)
{
    if (m_p == m_end)
        return false;
    switch (*m_p++) {
    case '"':
        out += '"';
        return true;
    case '\\':
        out += '\\';
        return true;
    case '/':
        out += '/';
        return true;
    case 'b':
        out += '\b';
        return true;
    case 'f':
        out += '\f';
        return true;
    case 'n':
        out += '\n';
        return true;
    case 'r':
        out += '\r';
        return true;
    case 't':
        out += '\t';
        return true;
    case 'u': {
        unsigned cp = 0;
        if (!hex4(cp))
            return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return false; // a low surrogate first
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            unsigned low = 0;
            if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u')
                return false;
            m_p += 2;
            if (!hex4(low) || low < 0xDC00 || low > 0xDFFF)
                return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, cp);
        return true;
    }
    default:
        return false;
    }
}

// One UTF-8 sequence, checked as Unicode's well-formed byte sequences (Table 3-7).
bool Reader::utf8(std::string &out)
{
    const auto byte = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(m_p[i]); };
    const unsigned char b0 = byte(0);
    int n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 1;
    } else if (b0 == 0xE0) {
        n = 2;
        lo = 0xA0;
    } else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) {
        n = 2;
    } else if (b0 == 0xED) {
        n = 2;
        hi = 0x9F;
    } else if (b0 == 0xF0) {
        n = 3;
        lo = 0x90;
    } else if (b0 >= 0xF1 && b0 <= 0xF3) {
        n = 3;
    } else if (b0 == 0xF4) {
        n = 3;
        hi = 0x8F;
    } else {
        return false;
    }
    if (m_end - m_p < n + 1)
        return false;
    if (byte(1) < lo || byte(1) > hi)
        return false;
    for (int i = 2; i <= n; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF)
            return false;
    out.append(m_p, static_cast<std::size_t>(n + 1));
    m_p += n + 1;
    return true;
}

bool Reader::string(std::string &out)
{
    out.clear();
    ++m_p; // the opening quote
    for (;;) {
        const char *run = m_p;
        while (m_p != m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                break;
            ++m_p;
        }
        out.append(run, static_cast<std::size_t>(m_p - run));
        if (m_p == m_end)
            return false;
        const auto c = static_cast<unsigned char>(*m_p);
        if (c == '"') {
            ++m_p;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c == '\\') {
            ++m_p;
            if (!escape(out))
                return false;
        } else if (!utf8(out)) {
            return false;
        }
    }
}

SaxResult Reader::number()
{
    const char *start = m_p;
    const bool negative = *m_p == '-';
    if (negative)
        ++m_p;
    if (m_p == m_end)
        return SaxResult::Invalid;
    if (*m_p == '0') {
        ++m_p;
    } else if (*m_p >= '1' && *m_p <= '9') {
        while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
    } else {
        return SaxResult::Invalid;
    }
    bool integer = true;
    if (m_p != m_end && *m_p == '.') {
        integer = false;
        ++m_p;
        if (m_p == m_end || *m_p < '0' || *m_p > '9')
            return SaxResult::Invalid;
        while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
    }
    if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
        integer = false;
        ++m_p;
        if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
            ++m_p;
        if (m_p == m_end || *m_p < '0' || *m_p > '9')
            return SaxResult::Invalid;
        while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
    }
    m_text.assign(start, static_cast<std::size_t>(m_p - start));
    if (integer) {
        // Digits only (and the sign): the value, unless it overflows 64 bits.
        std::uint64_t v = 0;
        bool overflow = false;
        for (const char *d = start + (negative ? 1 : 0); d != m_p; ++d) {
            const auto digit = static_cast<std::uint64_t>(*d - '0');
            if (v > (UINT64_MAX - digit) / 10) {
                overflow = true;
                break;
            }
            v = v * 10 + digit;
        }
        if (!overflow && !negative)
            return m_sax.number_unsigned(v) ? SaxResult::Ok : SaxResult::Stopped;
        if (!overflow && v <= static_cast<std::uint64_t>(INT64_MAX) + 1) {
            const auto s =
                v == static_cast<std::uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(v);
            return m_sax.number_integer(s) ? SaxResult::Ok : SaxResult::Stopped;
        }
    }
    // As nlohmann reads it: strtod (here in the C locale, whatever the process's), and a number
    // too large for a double is not valid JSON to it.
    static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", nullptr);
    const double d = strtod_l(m_text.c_str(), nullptr, cLocale);
    if (!std::isfinite(d))
        return SaxResult::Invalid;
    return m_sax.number_float(d, m_text) ? SaxResult::Ok : SaxResult::Stopped;
}

SaxResult Reader::value()
{
    const auto ok = [](bool kept) { return kept ? SaxResult::Ok : SaxResult::Stopped; };
    switch (*m_p) {
    case '{':
        ++m_p;
        m_stack.push_back(Frame::Object);
        return ok(m_sax.start_object(static_cast<std::size_t>(-1)));
    case '[':
        ++m_p;
        m_stack.push_back(Frame::Array);
        return ok(m_sax.start_array(static_cast<std::size_t>(-1)));
    case '"':
        if (!string(m_text))
            return SaxResult::Invalid;
        return ok(m_sax.string(m_text));
    case 't':
        return literal("true", 4) ? ok(m_sax.boolean(true)) : SaxResult::Invalid;
    case 'f':
        return literal("false", 5) ? ok(m_sax.boolean(false)) : SaxResult::Invalid;
    case 'n':
        return literal("null", 4) ? ok(m_sax.null()) : SaxResult::Invalid;
    default:
        if (*m_p == '-' || (*m_p >= '0' && *m_p <= '9'))
            return number();
        return SaxResult::Invalid;
    }
}

SaxResult Reader::run()
{
    if (m_end - m_p >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0)
        m_p += 3; // a UTF-8 byte order mark, which nlohmann's reader skips too
    Want want = Want::Value;
    for (;;) {
        skipSpace();
        if (m_p == m_end)
            return SaxResult::Invalid; // every state here still wants a token
        switch (want) {
        case Want::FirstOrEnd: // just inside a container: it may end at once
            if (atClose()) {
                if (!close())
                    return SaxResult::Stopped;
                want = Want::CommaOrEnd;
                break;
            }
            want = m_stack.back() == Frame::Object ? Want::Key : Want::Value;
            continue; // the same token, read as what the container holds
        case Want::Value: {
            const std::size_t depth = m_stack.size();
            if (const SaxResult r = value(); r != SaxResult::Ok)
                return r;
            want = m_stack.size() > depth ? Want::FirstOrEnd : Want::CommaOrEnd;
            break;
        }
        case Want::Key:
            if (*m_p != '"' || !string(m_text))
                return SaxResult::Invalid;
            if (!m_sax.key(m_text))
                return SaxResult::Stopped;
            want = Want::Colon;
            break;
        case Want::Colon:
            if (*m_p != ':')
                return SaxResult::Invalid;
            ++m_p;
            want = Want::Value;
            break;
        case Want::CommaOrEnd:
            if (m_stack.empty())
                return SaxResult::Invalid; // something after the value
            if (*m_p == ',') {
                ++m_p;
                want = m_stack.back() == Frame::Object ? Want::Key : Want::Value;
            } else if (!atClose()) {
                return SaxResult::Invalid;
            } else if (!close()) {
                return SaxResult::Stopped;
            }
            break;
        }
        if (want == Want::CommaOrEnd && m_stack.empty()) {
            skipSpace();
            // nlohmann's reader takes a NUL byte for the end of the input.
            return m_p == m_end || *m_p == '\0' ? SaxResult::Ok : SaxResult::Invalid;
        }
    }
}

} // namespace

SaxResult parseJsonSax(std::string_view text, nlohmann::json_sax<Json> &sax)
{
    Reader reader(text, sax);
    return reader.run();
}

} // namespace kube
