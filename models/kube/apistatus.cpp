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

ApiStatus ApiStatus::tooManyRequests(const std::string &message, int retryAfterSeconds)
{
    ApiStatus s{429, "TooManyRequests", message};
    s.retryAfterSeconds = retryAfterSeconds;
    return s;
}

nlohmann::json ApiStatus::toJson() const
{
    nlohmann::json j = {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
                        {"status", "Failure"}, {"message", message}, {"reason", reason},
                        {"code", code}};
    if (!causes.empty() || retryAfterSeconds > 0) {
        nlohmann::json details = nlohmann::json::object();
        if (!causes.empty()) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto &c : causes) {
                nlohmann::json cj = nlohmann::json::object();
                if (!c.type.empty())
                    cj["reason"] = c.type;
                if (!c.message.empty())
                    cj["message"] = c.message;
                if (!c.field.empty())
                    cj["field"] = c.field;
                list.push_back(std::move(cj));
            }
            details["causes"] = std::move(list);
        }
        if (retryAfterSeconds > 0)
            details["retryAfterSeconds"] = retryAfterSeconds;
        j["details"] = std::move(details);
    }
    return j;
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
        if (auto d = status.find("details"); d != status.end() && d->is_object()) {
            if (auto c = d->find("causes"); c != d->end() && c->is_array())
                for (const auto &cause : *c) {
                    if (!cause.is_object())
                        continue;
                    auto text = [&cause](const char *key) {
                        auto v = cause.find(key);
                        return v != cause.end() && v->is_string() ? v->get<std::string>() : std::string();
                    };
                    StatusCause sc;
                    sc.type = text("reason");
                    sc.message = text("message");
                    sc.field = text("field");
                    s.causes.push_back(std::move(sc));
                }
            if (auto r = d->find("retryAfterSeconds"); r != d->end() && r->is_number_integer())
                s.retryAfterSeconds = r->get<int>();
        }
    }
    if (s.message.empty())
        s.message = "the server responded with HTTP status " + std::to_string(httpCode);
    return s;
}

} // namespace kube
