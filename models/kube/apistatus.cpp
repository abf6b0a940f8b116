#include "models/kube/apistatus.h"

#include <nlohmann/json.hpp>

namespace kube {

ApiStatus ApiStatus::notFound(const std::string &resource, const std::string &name)
{
    return {404, "NotFound", resource + " \"" + name + "\" not found"};
}

ApiStatus ApiStatus::alreadyExists(const std::string &resource, const std::string &name)
{
    return {409, "AlreadyExists", resource + " \"" + name + "\" already exists"};
}

ApiStatus ApiStatus::conflict(const std::string &resource, const std::string &name, const std::string &why)
{
    return {409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + why};
}

ApiStatus ApiStatus::invalid(const std::string &kind, const std::string &name, const std::string &why)
{
    return {422, "Invalid", kind + " \"" + name + "\" is invalid: " + why};
}

ApiStatus ApiStatus::badRequest(const std::string &message)
{
    return {400, "BadRequest", message};
}

ApiStatus ApiStatus::gone(const std::string &message)
{
    return {410, "Expired", message};
}

ApiStatus ApiStatus::internal(const std::string &message)
{
    return {500, "InternalError", message};
}

nlohmann::json ApiStatus::toJson() const
{
    return {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
            {"status", "Failure"}, {"message", message}, {"reason", reason},
            {"code", code}};
}

ApiStatus ApiStatus::fromJson(const nlohmann::json &status, int httpCode)
{
    ApiStatus s;
    s.code = httpCode;
    if (status.is_object()) {
        if (auto it = status.find("code"); it != status.end() && it->is_number_integer())
            s.code = it->get<int>();
        if (auto it = status.find("reason"); it != status.end() && it->is_string())
            s.reason = it->get<std::string>();
        if (auto it = status.find("message"); it != status.end() && it->is_string())
            s.message = it->get<std::string>();
    }
    if (s.message.empty())
        s.message = "the server responded with HTTP status " + std::to_string(httpCode);
    return s;
}

} // namespace kube
