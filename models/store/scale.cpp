// The scale subresource (the registry's ScaleREST for ReplicaSets).

#include "models/api/strategicmerge.h"
#include "models/api/validation.h"
#include "models/kube/jsonfield.h"
#include "models/kube/labelselector.h"
#include "models/store/store.h"

namespace store {

namespace {

using kube::ApiStatus;
using kube::Json;

kube::Result<void> scaled(api::Kind kind, const std::string &name)
{
    if (kind != api::Kind::ReplicaSet)
        return ApiStatus::notFound(std::string(api::resourceName(kind)) + "/scale", name);
    return {};
}

// scaleFromReplicaSet: the Scale of a stored ReplicaSet.
Json scaleOf(const Json &rs)
{
    static const Json none = Json::object();
    const Json *meta = kube::member(rs, "metadata");
    const Json *specOf = kube::member(rs, "spec");
    const Json &spec = specOf ? *specOf : none;
    Json m = Json::object();
    for (const char *k : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"})
        if (const Json *v = meta ? kube::member(*meta, k) : nullptr)
            m[k] = *v;
    std::string selector;
    if (const Json *sel = kube::member(spec, "selector"))
        if (auto parsed = kube::LabelSelector::fromJson(*sel))
            selector = parsed->toQueryString();
    const Json *status = kube::member(rs, "status");
    Json scale = {
        {"kind", "Scale"},
        {"apiVersion", "autoscaling/v1"},
        {"metadata", std::move(m)},
        {"spec", Json::object()},
        {"status", {{"replicas", status ? kube::integerOr<std::int64_t>(*status, "replicas", 0) : 0}}}};
    // omitempty: zero replicas wanted is an empty spec, as kube-apiserver writes it.
    if (const auto wanted = kube::integerOr<std::int64_t>(spec, "replicas", 1); wanted != 0)
        scale["spec"]["replicas"] = wanted;
    if (!selector.empty())
        scale["status"]["selector"] = selector;
    return scale;
}

} // namespace

kube::Result<Json> Store::getScale(api::Kind kind, const std::string &ns, const std::string &name) const
{
    if (auto r = scaled(kind, name); !r)
        return r.error();
    auto rs = get(kind, ns, name);
    if (!rs)
        return rs.error();
    return scaleOf(*rs);
}

kube::Result<Json> Store::updateScale(api::Kind kind, const std::string &ns, const std::string &name,
                                      const Json &scale, const WriteOptions &options)
{
    if (auto r = scaled(kind, name); !r)
        return r.error();
    auto rs = get(kind, ns, name);
    if (!rs)
        return rs.error();
    const Json *spec = scale.is_object() ? kube::member(scale, "spec") : nullptr;
    const Json *replicas = spec ? kube::member(*spec, "replicas") : nullptr;
    // ScaleSpec.replicas is omitempty: left out, it is zero.
    if (replicas && !replicas->is_number_integer())
        return ApiStatus::badRequest("Scale in version \"v1\" cannot be handled as a Scale: spec.replicas: "
                                     "expected an integer");
    const std::int64_t wanted = replicas ? replicas->get<std::int64_t>() : 0;
    std::vector<std::string> errors;
    if (wanted < 0)
        errors.push_back("spec.replicas: Invalid value: " + std::to_string(wanted) +
                         ": must be greater than or equal to 0");
    const Json *scaleMeta = scale.is_object() ? kube::member(scale, "metadata") : nullptr;
    const std::string scaleName = scaleMeta ? kube::stringOr(*scaleMeta, "name") : std::string();
    if (!scaleName.empty() && scaleName != name)
        errors.push_back("metadata.name: Invalid value: " + kube::goQuote(scaleName) +
                         ": field is immutable");
    if (auto invalid = api::invalidIfAny("Scale.autoscaling", name, errors); !invalid)
        return invalid.error();
    Json next = *rs;
    const std::string precondition =
        scaleMeta ? kube::stringOr(*scaleMeta, "resourceVersion") : std::string();
    if (!precondition.empty())
        next["metadata"]["resourceVersion"] = precondition;
    next["spec"]["replicas"] = wanted;
    auto updated = update(next, options);
    if (!updated)
        return updated.error();
    return scaleOf(*updated);
}

kube::Result<Json> Store::patchScale(api::Kind kind, const std::string &ns, const std::string &name,
                                     api::PatchType type, const Json &patch, const WriteOptions &options)
{
    auto current = getScale(kind, ns, name);
    if (!current)
        return current.error();
    auto patched = api::patchDocument(*current, type, patch);
    if (!patched)
        return patched.error();
    // The patch is against what was read: its resourceVersion is no precondition unless the
    // patch sets one.
    const Json *patchMeta = patch.is_object() ? kube::member(patch, "metadata") : nullptr;
    if (!patchMeta || !kube::member(*patchMeta, "resourceVersion"))
        if (auto m = patched->find("metadata"); m != patched->end() && m->is_object())
            m->erase("resourceVersion");
    return updateScale(kind, ns, name, *patched, options);
}

} // namespace store
