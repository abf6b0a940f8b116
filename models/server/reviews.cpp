#include "models/server/reviews.h"

namespace server {

using kube::ApiStatus;
using kube::Json;

namespace {

constexpr const char *kAdmin = "daemonscope-admin";
constexpr const char *kViewer = "daemonscope-viewer";
constexpr const char *kReason = "the embedded API server allows every request it authenticates";
constexpr const char *kViewerAllowed = "the viewer may get, list and watch";
constexpr const char *kViewerDenied = "the viewer may only get, list and watch";

Json userInfo(Identity identity)
{
    if (identity == Identity::Admin)
        return {{"username", kAdmin}, {"groups", Json::array({"system:masters", "system:authenticated"})}};
    if (identity == Identity::Viewer)
        return {{"username", kViewer}, {"groups", Json::array({"system:authenticated"})}};
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

bool Reviews::allows(Identity identity, const std::string &verb)
{
    if (identity != Identity::Viewer)
        return true;
    return verb == "get" || verb == "list" || verb == "watch";
}

std::string Reviews::userName(Identity identity)
{
    return identity == Identity::Admin ? kAdmin : identity == Identity::Viewer ? kViewer : "system:anonymous";
}

std::string Reviews::verbOf(const std::string &method, bool collection, bool watch)
{
    if (method == "GET" || method == "HEAD")
        return watch ? "watch" : collection ? "list" : "get";
    if (method == "POST")
        return "create";
    if (method == "PUT")
        return "update";
    if (method == "PATCH")
        return "patch";
    if (method == "DELETE")
        return collection ? "deletecollection" : "delete";
    return "";
}

ApiStatus Reviews::forbidden(Identity identity, const std::string &verb, const std::string &group,
                             const std::string &resource, const std::string &subresource,
                             const std::string &ns, const std::string &name)
{
    // RBAC's forbidden message (apiserver/pkg/endpoints/handlers/responsewriters.forbiddenMessage).
    const std::string qualified = group.empty() ? resource : resource + "." + group;
    std::string message = qualified + (name.empty() ? "" : " \"" + name + "\"") + " is forbidden: User \"" +
                          userName(identity) + "\" cannot " + verb + " resource \"" + resource + "\"";
    if (!subresource.empty())
        message += " subresource \"" + subresource + "\"";
    message += " in API group \"" + group + "\"";
    message += ns.empty() ? std::string(" at the cluster scope") : " in the namespace \"" + ns + "\"";
    ApiStatus st{403, "Forbidden", message};
    return st;
}

kube::Result<Json> Reviews::answer(const ReviewResource &review, const Json &body, bool authenticated)
{
    return answer(review, body, authenticated ? Identity::Admin : Identity::Anonymous);
}

kube::Result<Json> Reviews::answer(const ReviewResource &review, const Json &body, Identity identity)
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
        out["status"] = {{"userInfo", userInfo(identity)}};
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
        if (identity == Identity::Viewer) {
            const Json &attrs = hasResource ? spec["resourceAttributes"] : spec["nonResourceAttributes"];
            const std::string verb =
                attrs.contains("verb") && attrs["verb"].is_string() ? attrs["verb"].get<std::string>() : "";
            const bool allowed = allows(identity, verb);
            out["status"] = {{"allowed", allowed}, {"reason", allowed ? kViewerAllowed : kViewerDenied}};
            if (!allowed)
                out["status"]["denied"] = false; // RBAC: no opinion, not an explicit deny
            return out;
        }
        out["status"] = {{"allowed", true}, {"reason", kReason}};
        return out;
    }
    if (identity == Identity::Viewer) {
        out["status"] = {{"resourceRules", Json::array({{{"verbs", Json::array({"get", "list", "watch"})},
                                                         {"apiGroups", Json::array({"*"})},
                                                         {"resources", Json::array({"*"})}}})},
                         {"nonResourceRules", Json::array({{{"verbs", Json::array({"get"})},
                                                            {"nonResourceURLs", Json::array({"*"})}}})},
                         {"incomplete", false}};
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
