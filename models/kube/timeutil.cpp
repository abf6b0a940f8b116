#include "models/kube/timeutil.h"

#include <cctype>
#include <cstdio>

namespace kube {

namespace {

// Days since 1970-01-01 for a civil date (Howard Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civilFromDays(std::int64_t z, std::int64_t &y, unsigned &m, unsigned &d)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

} // namespace

std::string formatRfc3339(Timestamp t)
{
    const std::int64_t secs = floorDiv(t, 1000);
    const std::int64_t days = floorDiv(secs, 86400);
    const std::int64_t rem = secs - days * 86400;
    std::int64_t y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    if (y >= 0 && y <= 9999) {
        // The common case without printf: written at every object's encoding.
        std::string out = "0000-00-00T00:00:00Z";
        auto put = [&out](std::size_t at, std::int64_t v, int width) {
            for (int i = width - 1; i >= 0; --i, v /= 10)
                out[at + static_cast<std::size_t>(i)] = static_cast<char>('0' + v % 10);
        };
        put(0, y, 4);
        put(5, m, 2);
        put(8, d, 2);
        put(11, rem / 3600, 2);
        put(14, (rem / 60) % 60, 2);
        put(17, rem % 60, 2);
        return out;
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ", static_cast<long long>(y), m, d,
                  static_cast<long long>(rem / 3600), static_cast<long long>((rem / 60) % 60),
                  static_cast<long long>(rem % 60));
    return buf;
}

std::string formatMicroTime(std::int64_t unixSeconds, std::int64_t micros)
{
    std::string out = formatRfc3339(unixSeconds * 1000);
    out.pop_back(); // 'Z'
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%06lldZ", static_cast<long long>(micros));
    return out + frac;
}

std::string formatMicroTime(Timestamp t)
{
    const std::int64_t seconds = floorDiv(t, 1000);
    return formatMicroTime(seconds, (t - seconds * 1000) * 1000);
}

Result<Timestamp> parseRfc3339(const std::string &text)
{
    auto bad = [&] { return ApiStatus::badRequest("invalid RFC 3339 time \"" + text + "\""); };
    int Y, M, D, h, mi, s;
    int consumed = 0;
    // The canonical form (every digit present) is read directly; anything else goes through
    // sscanf, which reads the same numbers from it.
    const auto digitsAt = [&text](std::size_t at, int width, int &out) {
        out = 0;
        for (int k = 0; k < width; ++k) {
            const char c = text[at + static_cast<std::size_t>(k)];
            if (c < '0' || c > '9')
                return false;
            out = out * 10 + (c - '0');
        }
        return true;
    };
    if (text.size() >= 19 && text[4] == '-' && text[7] == '-' &&
        (text[10] == 'T' || text[10] == 't' || text[10] == ' ') && text[13] == ':' && text[16] == ':' &&
        digitsAt(0, 4, Y) && digitsAt(5, 2, M) && digitsAt(8, 2, D) && digitsAt(11, 2, h) &&
        digitsAt(14, 2, mi) && digitsAt(17, 2, s) &&
        (text.size() == 19 || !std::isdigit(static_cast<unsigned char>(text[19])))) {
        consumed = 19;
    } else if (std::sscanf(text.c_str(), "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d%n", &Y, &M, &D, &h, &mi, &s,
                           &consumed) != 6 ||
               consumed < 19) {
        return bad();
    }
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || mi > 59 || s > 60)
        return bad();
    std::size_t i = static_cast<std::size_t>(consumed);
    std::int64_t ms = 0;
    if (i < text.size() && text[i] == '.') {
        ++i;
        int digits = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            if (digits < 3)
                ms = ms * 10 + (text[i] - '0');
            ++digits;
            ++i;
        }
        if (digits == 0)
            return bad();
        for (int k = digits; k < 3; ++k)
            ms *= 10;
    }
    std::int64_t offset = 0;
    if (i < text.size() && (text[i] == 'Z' || text[i] == 'z')) {
        ++i;
    } else if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        int oh, om;
        if (std::sscanf(text.c_str() + i + 1, "%2d:%2d", &oh, &om) != 2)
            return bad();
        offset = (text[i] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        i += 6;
    } else {
        return bad();
    }
    if (i != text.size())
        return bad();
    const std::int64_t days = daysFromCivil(Y, static_cast<unsigned>(M), static_cast<unsigned>(D));
    return Timestamp{((days * 86400 + h * 3600 + mi * 60 + s) - offset) * 1000 + ms};
}

Result<Duration> parseDuration(const std::string &text)
{
    auto bad = [&] {
        return ApiStatus::badRequest("invalid duration \"" + text +
                                     "\" (expected e.g. 500ms, 30s, 5m, 1h30m)");
    };
    auto outOfRange = [&] {
        return ApiStatus{422, "Invalid",
                         "invalid duration \"" + text + "\": out of range (at most 36500d, 100 years)"};
    };
    if (text.empty())
        return bad();
    if (text == "0")
        return Duration{0};
    // Integer arithmetic throughout, as Go's time.ParseDuration: a double would lose digits and
    // its conversion back is undefined once the value leaves the integer range. Every component
    // is checked against the limit before it is scaled, so nothing can overflow.
    std::size_t i = 0;
    Duration total = 0;
    bool tooLong = false;
    while (i < text.size()) {
        const std::size_t start = i;
        std::int64_t whole = 0;
        bool wholeTooLong = false;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            if (whole > kMaxDuration)
                wholeTooLong = true; // keep reading: a bad unit still makes it a syntax error
            else
                whole = whole * 10 + (text[i] - '0');
            ++i;
        }
        bool seenDigit = i > start;
        // Ten fraction digits are kept: the rest changes the value by less than a hundredth
        // of a millisecond, even for days.
        std::int64_t fraction = 0;
        std::int64_t fractionScale = 1;
        if (i < text.size() && text[i] == '.') {
            ++i;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
                if (fractionScale < 10'000'000'000) {
                    fraction = fraction * 10 + (text[i] - '0');
                    fractionScale *= 10;
                }
                ++i;
                seenDigit = true;
            }
        }
        if (!seenDigit)
            return bad();
        std::string unit;
        while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i])))
            unit += text[i++];
        std::int64_t factor;
        if (unit == "ms")
            factor = 1;
        else if (unit == "s")
            factor = 1000;
        else if (unit == "m")
            factor = 60'000;
        else if (unit == "h")
            factor = 3'600'000;
        else if (unit == "d")
            factor = 86'400'000;
        else
            return bad();
        if (wholeTooLong || whole > kMaxDuration / factor) {
            tooLong = true;
            continue;
        }
        // The fraction in milliseconds, rounded half up (fraction < 10^10, factor < 10^8).
        const std::int64_t scaled = fraction * factor;
        const std::int64_t fractionMs =
            scaled / fractionScale + (scaled % fractionScale * 2 >= fractionScale ? 1 : 0);
        total += whole * factor + fractionMs;
        if (total > kMaxDuration)
            tooLong = true;
    }
    if (tooLong)
        return outOfRange();
    return total;
}

namespace {

std::string formatMagnitude(std::uint64_t d)
{
    if (d < 1000)
        return std::to_string(d) + "ms";
    std::uint64_t s = d / 1000;
    std::string out;
    if (s >= 3600) {
        out += std::to_string(s / 3600) + "h";
        s %= 3600;
        out += std::to_string(s / 60) + "m";
        s %= 60;
        out += std::to_string(s) + "s";
        return out;
    }
    if (s >= 60) {
        out += std::to_string(s / 60) + "m";
        s %= 60;
    }
    const std::uint64_t ms = d % 1000;
    out += std::to_string(s);
    if (ms && d < 60'000) {
        std::string frac = std::to_string(ms);
        frac.insert(0, 3 - frac.size(), '0');
        while (!frac.empty() && frac.back() == '0')
            frac.pop_back();
        out += "." + frac;
    }
    out += "s";
    return out;
}

} // namespace

std::string formatDuration(Duration d)
{
    // The magnitude is taken in unsigned arithmetic: -INT64_MIN does not exist as an int64.
    if (d < 0)
        return "-" + formatMagnitude(std::uint64_t{0} - static_cast<std::uint64_t>(d));
    return formatMagnitude(static_cast<std::uint64_t>(d));
}

std::string humanAge(Duration d)
{
    const std::int64_t s = d / 1000;
    if (s < 0)
        return "0s";
    if (s < 120)
        return std::to_string(s) + "s";
    if (s < 600)
        return std::to_string(s / 60) + "m" + (s % 60 ? std::to_string(s % 60) + "s" : "");
    if (s < 3 * 3600)
        return std::to_string(s / 60) + "m";
    if (s < 8 * 3600)
        return std::to_string(s / 3600) + "h" + ((s / 60) % 60 ? std::to_string((s / 60) % 60) + "m" : "");
    if (s < 2 * 86400)
        return std::to_string(s / 3600) + "h";
    if (s < 8 * 86400)
        return std::to_string(s / 86400) + "d" +
               ((s / 3600) % 24 ? std::to_string((s / 3600) % 24) + "h" : "");
    return std::to_string(s / 86400) + "d";
}

} // namespace kube
