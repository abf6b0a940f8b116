#include "models/kube/replicaset.h"

#include "models/kube/jsonfield.h"

namespace kube {

int ReplicaSet::replicas() const
{
    auto it = spec.find("replicas");
    return it != spec.end() ? integerOr(spec, "replicas", 1) : 1;
}

Result<LabelSelector> ReplicaSet::selector() const
{
    auto it = spec.find("selector");
    if (it == spec.end())
        return LabelSelector{};
    return LabelSelector::fromJson(*it);
}

Json ReplicaSet::toJson() const
{
    Json j = extra.is_object() ? extra : Json::object();
    j["apiVersion"] = "apps/v1";
    j["kind"] = "ReplicaSet";
    j["metadata"] = metadata.toJson();
    j["spec"] = spec;
    Json st = {{"replicas", status.replicas}};
    if (status.readyReplicas)
        st["readyReplicas"] = status.readyReplicas;
    if (status.availableReplicas)
        st["availableReplicas"] = status.availableReplicas;
    if (status.observedGeneration)
        st["observedGeneration"] = status.observedGeneration;
    j["status"] = std::move(st);
    return j;
}

Result<ReplicaSet> ReplicaSet::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("ReplicaSet: expected an object");
    ReplicaSet rs;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        if (k == "apiVersion" || k == "kind")
            continue;
        if (k == "metadata") {
            auto m = ObjectMeta::fromJson(it.value());
            if (!m)
                return m.error();
            rs.metadata = std::move(*m);
        } else if (k == "spec") {
            if (!it.value().is_object())
                return ApiStatus::badRequest("ReplicaSet field spec: expected an object");
            rs.spec = it.value();
        } else if (k == "status") {
            const Json &s = it.value();
            if (s.is_object()) {
                rs.status.replicas = integerOr(s, "replicas", 0);
                rs.status.readyReplicas = integerOr(s, "readyReplicas", 0);
                rs.status.availableReplicas = integerOr(s, "availableReplicas", 0);
                rs.status.observedGeneration = integerOr(s, "observedGeneration", std::int64_t{0});
            }
        } else {
            rs.extra[k] = it.value();
        }
    }
    if (auto r = rs.spec.find("replicas");
        r != rs.spec.end() && (!r->is_number_integer() || integerOr(rs.spec, "replicas", -1) < 0))
        return ApiStatus::badRequest(
            "ReplicaSet field spec.replicas: expected a non-negative 32-bit integer");
    if (auto sel = rs.selector(); !sel)
        return sel.error();
    return rs;
}

} // namespace kube
