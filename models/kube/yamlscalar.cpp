#include "models/kube/yamlscalar.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace kube {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int digitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

// strconv.ParseUint(s, 0, 64): base prefixes 0b/0o/0x, a bare leading 0 means octal.
bool parseGoUint(std::string_view s, std::uint64_t &out)
{
    if (s.empty())
        return false;
    int base = 10;
    if (s[0] == '0') {
        const char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
        if (p == 'b') {
            base = 2;
            s.remove_prefix(2);
        } else if (p == 'o') {
            base = 8;
            s.remove_prefix(2);
        } else if (p == 'x') {
            base = 16;
            s.remove_prefix(2);
        } else {
            base = 8;
            s.remove_prefix(1);
        }
    }
    std::uint64_t n = 0;
    for (char c : s) {
        const int d = digitValue(c);
        if (d >= base)
            return false;
        if (n > (std::numeric_limits<std::uint64_t>::max() - static_cast<unsigned>(d)) /
                    static_cast<unsigned>(base))
            return false;
        n = n * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    }
    out = n;
    return true;
}

// strconv.ParseInt(s, 0, 64).
bool parseGoInt(std::string_view s, std::int64_t &out)
{
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    std::uint64_t u = 0;
    if (!parseGoUint(s, u))
        return false;
    constexpr std::uint64_t limit = std::uint64_t(1) << 63;
    if (negative) {
        if (u > limit)
            return false;
        out = u == limit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(u);
    } else {
        if (u >= limit)
            return false;
        out = static_cast<std::int64_t>(u);
    }
    return true;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ — go-yaml's yamlStyleFloat.
bool isYamlStyleFloat(std::string_view s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i < s.size() && s[i] == '.') {
        ++i;
        const std::size_t start = i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        if (i == start)
            return false;
    } else {
        const std::size_t start = i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        if (i == start)
            return false;
        if (i < s.size() && s[i] == '.') {
            ++i;
            while (i < s.size() && isDigit(s[i]))
                ++i;
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        if (i == start)
            return false;
    }
    return i == s.size();
}

// Locale-independent strconv.ParseFloat for text that passed isYamlStyleFloat. Overflow fails
// (go-yaml then keeps the text as a string); underflow gives a signed zero, as in Go.
bool parseDecimalFloat(std::string_view s, double &out)
{
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc::result_out_of_range) {
        const bool underflow =
            s.find("e-") != std::string_view::npos || s.find("E-") != std::string_view::npos;
        if (!underflow)
            return false;
        out = !s.empty() && s[0] == '-' ? -0.0 : 0.0;
        return true;
    }
    return ec == std::errc() && ptr == s.data() + s.size();
}

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
bool isBase60Float(std::string_view s)
{
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    if (i >= s.size() || !isDigit(s[i]))
        return false;
    ++i;
    while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
        ++i;
    int groups = 0;
    while (i < s.size() && s[i] == ':') {
        ++i;
        // [0-5]?[0-9]
        if (i + 1 < s.size() && s[i] >= '0' && s[i] <= '5' && isDigit(s[i + 1]))
            i += 2;
        else if (i < s.size() && isDigit(s[i]))
            ++i;
        else
            return false;
        ++groups;
    }
    if (groups == 0)
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
            ++i;
    }
    return i == s.size();
}

// Reads 1 or 2 digits (Go's time.Parse for non-padded fields) into out.
bool readNumber(std::string_view s, std::size_t &i, int maxDigits, int &out)
{
    const std::size_t start = i;
    out = 0;
    while (i < s.size() && isDigit(s[i]) && static_cast<int>(i - start) < maxDigits)
        out = out * 10 + (s[i++] - '0');
    return i > start;
}

bool expect(std::string_view s, std::size_t &i, char c)
{
    if (i < s.size() && s[i] == c) {
        ++i;
        return true;
    }
    return false;
}

int daysIn(int month, int year)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month == 2 && ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0))
        return 29;
    return days[month - 1];
}

// go-yaml's allowedTimestampFormats: "2006-1-2T15:4:5.999999999Z07:00" (also with 't'),
// "2006-1-2 15:4:5.999999999" and "2006-1-2", with time.Parse's range checks.
bool isTimestamp(std::string_view s)
{
    std::size_t i = 0;
    int year = 0, month = 0, day = 0;
    if (s.size() < 5 || !readNumber(s, i, 4, year) || i != 4 || !expect(s, i, '-'))
        return false;
    if (!readNumber(s, i, 2, month) || !expect(s, i, '-') || !readNumber(s, i, 2, day))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year))
        return false;
    if (i == s.size())
        return true;
    const char sep = s[i++];
    if (sep != 'T' && sep != 't' && sep != ' ')
        return false;
    int hour = 0, minute = 0, second = 0;
    if (!readNumber(s, i, 2, hour) || !expect(s, i, ':') || !readNumber(s, i, 2, minute) ||
        !expect(s, i, ':') || !readNumber(s, i, 2, second))
        return false;
    if (hour > 23 || minute > 59 || second > 59)
        return false;
    if (i < s.size() && s[i] == '.' && i + 1 < s.size() && isDigit(s[i + 1])) {
        ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    if (sep == ' ')
        return i == s.size();
    if (expect(s, i, 'Z'))
        return i == s.size();
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        ++i;
        int zh = 0, zm = 0;
        const std::size_t hStart = i;
        if (!readNumber(s, i, 2, zh) || i - hStart != 2 || !expect(s, i, ':'))
            return false;
        const std::size_t mStart = i;
        if (!readNumber(s, i, 2, zm) || i - mStart != 2)
            return false;
        return i == s.size() && zh <= 24 && zm <= 59;
    }
    return false;
}

bool isOneOf(std::string_view s, std::initializer_list<std::string_view> words)
{
    for (std::string_view w : words)
        if (s == w)
            return true;
    return false;
}

bool isNullWord(std::string_view text)
{
    return isOneOf(text, {"", "~", "null", "Null", "NULL"});
}

bool isTrueWord(std::string_view text)
{
    return isOneOf(text, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"});
}

bool isFalseWord(std::string_view text)
{
    return isOneOf(text, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"});
}

} // namespace

bool surelyPlainString(std::string_view text)
{
    if (text.empty())
        return false;
    const char c = text[0];
    if (isDigit(c) || c == '+' || c == '-' || c == '.')
        return false;
    if (text.size() > 5 || std::string_view("~nNyYtToOfF<").find(c) == std::string_view::npos)
        return true;
    return !isNullWord(text) && !isTrueWord(text) && !isFalseWord(text) && text != "<<";
}

PlainScalar resolvePlainScalar(std::string_view text)
{
    using K = PlainScalarKind;
    const auto str = [&](K kind) { return PlainScalar{kind, Json(std::string(text))}; };

    if (surelyPlainString(text))
        return str(K::String);
    if (isNullWord(text))
        return {K::Null, Json(nullptr)};
    if (isTrueWord(text))
        return {K::Bool, Json(true)};
    if (isFalseWord(text))
        return {K::Bool, Json(false)};
    if (isOneOf(text, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}))
        return {K::Float, Json(std::numeric_limits<double>::infinity())};
    if (isOneOf(text, {"-.inf", "-.Inf", "-.INF"}))
        return {K::Float, Json(-std::numeric_limits<double>::infinity())};
    if (isOneOf(text, {".nan", ".NaN", ".NAN"}))
        return {K::Float, Json(std::numeric_limits<double>::quiet_NaN())};
    if (text == "<<")
        return str(K::Merge);

    const char first = text[0];
    if (first == '.') {
        double d = 0;
        if (isYamlStyleFloat(text) && parseDecimalFloat(text, d))
            return {K::Float, Json(d)};
        return str(K::String);
    }
    if (!isDigit(first) && first != '+' && first != '-')
        return str(K::String);

    if (isTimestamp(text))
        return str(K::Timestamp);
    std::string plain;
    plain.reserve(text.size());
    for (char c : text)
        if (c != '_')
            plain += c;
    std::int64_t i = 0;
    if (parseGoInt(plain, i))
        return {K::Int, Json(i)};
    std::uint64_t u = 0;
    if (parseGoUint(plain, u))
        return {K::Int, Json(u)};
    double d = 0;
    if (isYamlStyleFloat(plain) && parseDecimalFloat(plain, d))
        return {K::Float, Json(d)};
    if (isBase60Float(text))
        return str(K::Base60);
    return str(K::String);
}

namespace {

template <typename F> std::string formatShortest(F value)
{
    if (std::isnan(value))
        return ".nan";
    if (std::isinf(value))
        return value > 0 ? ".inf" : "-.inf";
    if (value == 0)
        return std::signbit(value) ? "-0" : "0";
    char buf[64];
    const auto sci = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const std::string_view s(buf, static_cast<std::size_t>(sci.ptr - buf));
    const int exponent = std::atoi(std::string(s.substr(s.find('e') + 1)).c_str());
    if (exponent < -4 || exponent >= 6)
        return std::string(s); // to_chars writes "1.5e-07" like Go: a sign and two exponent digits
    const auto fixed = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    return std::string(buf, fixed.ptr);
}

} // namespace

std::string formatGoFloat(double value)
{
    return formatShortest(value);
}

std::string formatGoFloat32(float value)
{
    return formatShortest(value);
}

} // namespace kube
