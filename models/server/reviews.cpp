#include "models/server/reviews.h"

namespace server {

using kube::ApiStatus;
using kube::Json;

namespace {

constexpr const char *kAdmin = "daemonscope-admin";
constexpr const char *kReason = "the embedded API server allows every request it authenticates";

Json userInfo(bool authenticated)
{
    if (authenticated)
        return {{"username", kAdmin}, {"groups", Json::array({"system:masters", "system:authenticated"})}};
    return {{"username", "system:anonymous"}, {"groups", Json::array({"system:unauthenticated"})}};
}

} // namespace

const std::vector<ReviewResource> &Reviews::resources()
{
    static const std::vector<ReviewResource> r = {
        {"authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview"},
        {"authorization.k8s.io", "v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview"},
        {"authorization.k8s.io", "v1", "selfsubjectrulesreviews", "SelfSubjectRulesReview"},
    };
    return r;
}

std::vector<std::string> Reviews::groups()
{
    std::vector<std::string> out;
    for (const auto &r : resources())
        if (out.empty() || out.back() != r.group)
            out.push_back(r.group);
    return out;
}

const ReviewResource *Reviews::match(const std::string &path)
{
    for (const auto &r : resources()) {
        const std::string p = std::string("/apis/") + r.group + "/" + r.version + "/" + r.resource;
        if (path == p || path == p + "/")
            return &r;
    }
    return nullptr;
}

kube::Result<Json> Reviews::answer(const ReviewResource &review, const Json &body, bool authenticated)
{
    if (!body.is_object())
        return ApiStatus::badRequest(std::string("the body must be a ") + review.kind + " object");
    const std::string kind =
        body.contains("kind") && body["kind"].is_string() ? body["kind"].get<std::string>() : "";
    if (!kind.empty() && kind != review.kind)
        return ApiStatus::badRequest(std::string("the body is a ") + kind + ", not a " + review.kind);
    Json out = body;
    out["kind"] = review.kind;
    out["apiVersion"] = std::string(review.group) + "/" + review.version;
    if (!out.contains("metadata") || !out["metadata"].is_object())
        out["metadata"] = Json::object();
    out["metadata"]["creationTimestamp"] = nullptr;
    const std::string resource = review.resource;
    if (resource == "selfsubjectreviews") {
        out["status"] = {{"userInfo", userInfo(authenticated)}};
        return out;
    }
    const Json spec = out.value("spec", Json::object());
    if (!spec.is_object())
        return ApiStatus::badRequest(std::string(review.kind) + ".spec must be an object");
    if (resource == "selfsubjectaccessreviews") {
        // ValidateSelfSubjectAccessReviewSpec: exactly one of the two attribute sets.
        const bool hasResource =
            spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object();
        const bool hasNonResource =
            spec.contains("nonResourceAttributes") && spec["nonResourceAttributes"].is_object();
        if (hasResource == hasNonResource) {
            ApiStatus st = ApiStatus::invalid(
                "SelfSubjectAccessReview.authorization.k8s.io", "",
                hasResource
                    ? "spec.nonResourceAttributes: Invalid value: \"\": cannot be specified in combination "
                      "with resourceAttributes"
                    : "spec.resourceAttributes: Invalid value: \"null\": exactly one of "
                      "nonResourceAttributes "
                      "or resourceAttributes must be specified");
            return st;
        }
        out["status"] = {{"allowed", true}, {"reason", kReason}};
        return out;
    }
    // selfsubjectrulesreviews: everything, everywhere.
    out["status"] = {{"resourceRules", Json::array({{{"verbs", Json::array({"*"})},
                                                     {"apiGroups", Json::array({"*"})},
                                                     {"resources", Json::array({"*"})}}})},
                     {"nonResourceRules", Json::array({{{"verbs", Json::array({"*"})},
                                                        {"nonResourceURLs", Json::array({"*"})}}})},
                     {"incomplete", false}};
    return out;
}

} // namespace server
