#include "models/kube/quantity.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

namespace kube {

namespace {

__extension__ typedef __int128 Int; // 38 significant digits and the 1024 powers of Ei

constexpr Int kLimit = static_cast<Int>(1) << 120; // stay far from overflow

enum class Format { BinarySI, DecimalSI, DecimalExponent };

std::string toText(Int v)
{
    if (v == 0)
        return "0";
    const bool negative = v < 0;
    std::string out;
    for (Int x = negative ? -v : v; x > 0; x /= 10)
        out.push_back(static_cast<char>('0' + static_cast<int>(x % 10)));
    if (negative)
        out.push_back('-');
    std::reverse(out.begin(), out.end());
    return out;
}

bool times(Int &v, Int factor)
{
    if (v > kLimit / factor || v < -kLimit / factor)
        return false;
    v *= factor;
    return true;
}

const char *siSuffix(int exponent)
{
    switch (exponent) {
    case -9:
        return "n";
    case -6:
        return "u";
    case -3:
        return "m";
    case 0:
        return "";
    case 3:
        return "k";
    case 6:
        return "M";
    case 9:
        return "G";
    case 12:
        return "T";
    case 15:
        return "P";
    case 18:
        return "E";
    default:
        return nullptr;
    }
}

// ParseQuantity: the value as mantissa * 10^scale, rounded up to nano precision, and the suffix
// family it was written in; null when the text is no quantity.
struct Parsed
{
    Int mantissa = 0;
    int scale = 0;
    Format format = Format::DecimalSI;
};

std::optional<Parsed> parse(std::string_view text)
{
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        negative = text[i++] == '-';
    Int mantissa = 0;
    int scale = 0; // value = mantissa * 10^scale
    int digits = 0, significant = 0;
    auto digit = [&](char c) {
        if (significant > 0 || c != '0')
            ++significant;
        mantissa = mantissa * 10 + (c - '0');
        ++digits;
    };
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        digit(text[i++]);
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            digit(text[i++]);
            --scale;
        }
    }
    if (digits == 0 || significant > 38)
        return std::nullopt;

    Format format = Format::DecimalSI;
    const std::string_view suffix = text.substr(i);
    static constexpr std::pair<std::string_view, int> kBinary[] = {{"Ki", 1}, {"Mi", 2}, {"Gi", 3},
                                                                   {"Ti", 4}, {"Pi", 5}, {"Ei", 6}};
    static constexpr std::pair<std::string_view, int> kDecimal[] = {
        {"n", -9}, {"u", -6}, {"m", -3}, {"", 0},   {"k", 3},
        {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
    bool known = false;
    for (const auto &[s, k] : kBinary)
        if (suffix == s) {
            format = Format::BinarySI;
            for (int n = 0; n < k; ++n)
                if (!times(mantissa, 1024))
                    return std::nullopt;
            known = true;
        }
    for (const auto &[s, e] : kDecimal)
        if (!known && suffix == s) {
            scale += e;
            known = true;
        }
    if (!known && (suffix.front() == 'e' || suffix.front() == 'E')) {
        std::size_t j = 1;
        bool negativeExponent = false;
        if (j < suffix.size() && (suffix[j] == '+' || suffix[j] == '-'))
            negativeExponent = suffix[j++] == '-';
        if (j == suffix.size())
            return std::nullopt;
        int exponent = 0;
        for (; j < suffix.size(); ++j) {
            if (!std::isdigit(static_cast<unsigned char>(suffix[j])) || exponent > 100000)
                return std::nullopt;
            exponent = exponent * 10 + (suffix[j] - '0');
        }
        scale += negativeExponent ? -exponent : exponent;
        format = Format::DecimalExponent;
        known = true;
    }
    if (!known)
        return std::nullopt;
    if (mantissa == 0)
        return Parsed{0, 0, format};
    if (scale > 60 || scale < -60)
        return std::nullopt;

    // Round up (away from zero) to nano precision.
    if (scale < -9) {
        bool remainder = false;
        while (scale < -9) {
            remainder = remainder || mantissa % 10 != 0;
            mantissa /= 10;
            ++scale;
        }
        if (remainder)
            ++mantissa;
    }
    if (negative)
        mantissa = -mantissa;
    return Parsed{mantissa, scale, format};
}

} // namespace

std::optional<std::string> canonicalQuantity(std::string_view text)
{
    const auto parsed = parse(text);
    if (!parsed)
        return std::nullopt;
    Int mantissa = parsed->mantissa;
    int scale = parsed->scale;
    Format format = parsed->format;
    if (mantissa == 0)
        return std::string("0");

    if (format == Format::BinarySI) {
        Int whole = mantissa;
        bool exact = true;
        for (int s = scale; s < 0; ++s) {
            exact = exact && whole % 10 == 0;
            whole /= 10;
        }
        for (int s = 0; s < scale && exact; ++s)
            exact = times(whole, 10);
        if (!exact || (whole > -1024 && whole < 1024)) {
            format = Format::DecimalSI;
        } else {
            int k = 0;
            while (whole % 1024 == 0 && k < 6) {
                whole /= 1024;
                ++k;
            }
            static const char *kNames[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            return toText(whole) + kNames[k];
        }
    }
    // Decimal: no trailing zeros in the mantissa, then the exponent down to a multiple of 3.
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        ++scale;
    }
    const int rest = ((scale % 3) + 3) % 3;
    for (int n = 0; n < rest; ++n) {
        if (!times(mantissa, 10))
            return std::nullopt;
        --scale;
    }
    if (format == Format::DecimalSI)
        if (const char *s = siSuffix(scale))
            return toText(mantissa) + s;
    return toText(mantissa) + (scale == 0 ? std::string() : "e" + std::to_string(scale));
}

std::optional<long long> quantityMilli(std::string_view text)
{
    const auto parsed = parse(text);
    if (!parsed)
        return std::nullopt;
    Int value = parsed->mantissa < 0 ? -parsed->mantissa : parsed->mantissa;
    int exponent = parsed->scale + 3; // thousandths
    for (; exponent > 0; --exponent)
        if (!times(value, 10))
            return std::nullopt;
    bool remainder = false;
    for (; exponent < 0; ++exponent) {
        remainder = remainder || value % 10 != 0;
        value /= 10;
    }
    if (remainder)
        ++value;
    if (value > static_cast<Int>(INT64_MAX))
        return std::nullopt;
    const long long v = static_cast<long long>(value);
    return parsed->mantissa < 0 ? -v : v;
}

} // namespace kube
