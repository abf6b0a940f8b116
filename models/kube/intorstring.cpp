#include "models/kube/intorstring.h"

#include <cctype>
#include <cstdint>

namespace kube {

IntOrString IntOrString::fromInt(int v)
{
    IntOrString x;
    x.m_isInt = true;
    x.m_int = v;
    return x;
}

IntOrString IntOrString::fromString(std::string s)
{
    IntOrString x;
    x.m_isInt = false;
    x.m_str = std::move(s);
    return x;
}

Result<int> IntOrString::scaledValue(int total, bool roundUp) const
{
    if (m_isInt)
        return m_int;
    const std::string &s = m_str;
    if (s.size() < 2 || s.back() != '%')
        return ApiStatus::badRequest(
            "invalid value for IntOrString: invalid type: string is not a percentage");
    long long p = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return ApiStatus::badRequest("invalid value \"" + s +
                                         "\": must be an integer or percentage (e.g. '5%')");
        p = p * 10 + (s[i] - '0');
        if (p > 1'000'000)
            return ApiStatus::badRequest("invalid value \"" + s + "\": percentage too large");
    }
    const long long num = p * static_cast<long long>(total);
    const long long v = roundUp ? (num + 99) / 100 : num / 100;
    return static_cast<int>(v);
}

Json IntOrString::toJson() const
{
    return m_isInt ? Json(m_int) : Json(m_str);
}

Result<IntOrString> IntOrString::fromJson(const Json &j)
{
    if (j.is_number_integer()) {
        // intstr.IntOrString holds an int32.
        const bool fits = j.is_number_unsigned()
                              ? j.get<std::uint64_t>() <= std::uint64_t{INT32_MAX}
                              : j.get<std::int64_t>() >= INT32_MIN && j.get<std::int64_t>() <= INT32_MAX;
        if (!fits)
            return ApiStatus::badRequest("invalid value " + j.dump() + ": an integer must fit in 32 bits");
        return fromInt(j.get<int>());
    }
    if (j.is_string())
        return fromString(j.get<std::string>());
    return ApiStatus::badRequest("expected an integer or a percentage string");
}

} // namespace kube
