#pragma once
// ApiStatus — the one error vocabulary of engine, client and UI: an HTTP code, a Kubernetes
// StatusReason and a human message (metav1.Status). Expected failures are values, never
// exceptions across library boundaries.

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace kube {

struct ApiStatus
{
    int code = 500;
    std::string reason;  // NotFound, Conflict, AlreadyExists, Invalid, BadRequest, Gone, ...
    std::string message; // what a user reads; never contains credentials

    static ApiStatus notFound(const std::string &resource, const std::string &name);
    static ApiStatus alreadyExists(const std::string &resource, const std::string &name);
    static ApiStatus conflict(const std::string &resource, const std::string &name, const std::string &why);
    static ApiStatus invalid(const std::string &kind, const std::string &name, const std::string &why);
    static ApiStatus badRequest(const std::string &message);
    static ApiStatus gone(const std::string &message);
    static ApiStatus internal(const std::string &message);

    // Status object as an API server sends it ({"kind":"Status","apiVersion":"v1",...}).
    nlohmann::json toJson() const;
    static ApiStatus fromJson(const nlohmann::json &status, int httpCode);

    bool operator==(const ApiStatus &) const = default;
};

} // namespace kube
