#pragma once
// Result<T> — a value or an ApiStatus. Result<void> carries only success or an error.

#include "models/kube/apistatus.h"

#include <optional>
#include <utility>
#include <variant>

namespace kube {

template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(ApiStatus error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T &value() & { return std::get<0>(m_v); }
    const T &value() const & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    T *operator->() { return &std::get<0>(m_v); }
    const T *operator->() const { return &std::get<0>(m_v); }
    T &operator*() & { return std::get<0>(m_v); }
    const T &operator*() const & { return std::get<0>(m_v); }
    const ApiStatus &error() const { return std::get<1>(m_v); }

private:
    std::variant<T, ApiStatus> m_v;
};

template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(ApiStatus error) : m_error(std::move(error)) {}
    static Result success() { return {}; }
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const ApiStatus &error() const { return *m_error; }

private:
    std::optional<ApiStatus> m_error;
};

} // namespace kube
