#pragma once
// ApiStatus — the one error vocabulary of engine, client and UI: an HTTP code, a Kubernetes
// StatusReason and a human message (metav1.Status). Expected failures are values, never
// exceptions across library boundaries.

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <utility>
#include <vector>

namespace kube {

// metav1.StatusCause: one reason a request failed ("FieldValueInvalid" at "spec.selector",
// "DisruptionBudget" …).
struct StatusCause
{
    std::string type;
    std::string message;
    std::string field;
    bool operator==(const StatusCause &) const = default;
};

struct ApiStatus
{
    ApiStatus() = default;
    ApiStatus(int code_, std::string reason_, std::string message_)
        : code(code_), reason(std::move(reason_)), message(std::move(message_))
    {}

    int code = 500;
    std::string reason;              // NotFound, Conflict, AlreadyExists, Invalid, BadRequest, Gone, ...
    std::string message;             // what a user reads; never contains credentials
    std::vector<StatusCause> causes; // details.causes
    int retryAfterSeconds = 0;       // details.retryAfterSeconds (and Retry-After), 0: none

    static ApiStatus notFound(const std::string &resource, const std::string &name);
    static ApiStatus alreadyExists(const std::string &resource, const std::string &name);
    static ApiStatus conflict(const std::string &resource, const std::string &name, const std::string &why);
    static ApiStatus invalid(const std::string &kind, const std::string &name, const std::string &why);
    static ApiStatus badRequest(const std::string &message);
    static ApiStatus gone(const std::string &message);
    static ApiStatus internal(const std::string &message);
    static ApiStatus tooManyRequests(const std::string &message, int retryAfterSeconds);

    // Status object as an API server sends it ({"kind":"Status","apiVersion":"v1",...}); the
    // causes and retry hint go into details.
    nlohmann::json toJson() const;
    static ApiStatus fromJson(const nlohmann::json &status, int httpCode);

    bool operator==(const ApiStatus &) const = default;
};

} // namespace kube
