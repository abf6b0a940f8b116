#pragma once
// Reads of optional members that never throw. nlohmann's `value(key, fallback)` throws
// type_error when the object is not an object or the member has another type, and the const
// `operator[]` on a missing key is undefined behaviour; objects from files and HTTP bodies can
// hold anything, so decoders use these instead: a missing member, null or a value of another
// type gives nullptr or the fallback.

#include "models/kube/gojson.h"

#include <cstdint>
#include <limits>
#include <string>

namespace kube {

// The member `key` of `object` when `object` is an object holding it with a non-null value.
inline const Json *member(const Json &object, const char *key)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

inline std::string stringOr(const Json &object, const char *key, const std::string &fallback = {})
{
    const Json *v = member(object, key);
    return v && v->is_string() ? v->get<std::string>() : fallback;
}

inline bool boolOr(const Json &object, const char *key, bool fallback)
{
    const Json *v = member(object, key);
    return v && v->is_boolean() ? v->get<bool>() : fallback;
}

// An integer member that fits T; anything else (a fraction, a string, out of range) gives the
// fallback.
template <typename T> T integerOr(const Json &object, const char *key, T fallback)
{
    const Json *v = member(object, key);
    if (!v || !v->is_number_integer())
        return fallback;
    if (v->is_number_unsigned())
        return v->get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                   ? static_cast<T>(v->get<std::uint64_t>())
                   : fallback;
    const std::int64_t i = v->get<std::int64_t>();
    return i >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                   i <= static_cast<std::int64_t>(std::numeric_limits<T>::max())
               ? static_cast<T>(i)
               : fallback;
}

} // namespace kube
