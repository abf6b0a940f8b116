#include "models/kube/daemonset.h"

#include "models/kube/jsonfield.h"
#include "models/kube/jsonlimits.h"

namespace kube {

namespace {

const Json &nullJson()
{
    static const Json n;
    return n;
}

Result<int> intField(const Json &j, const char *key, const char *ctx)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return 0;
    if (!it->is_number_integer() || integerOr(j, key, -1) != integerOr(j, key, 0))
        return ApiStatus::badRequest(std::string("field ") + ctx + "." + key + ": expected a 32-bit integer");
    return it->get<int>();
}

} // namespace

Json DaemonSetStatus::toJson() const
{
    Json j = {{"currentNumberScheduled", currentNumberScheduled},
              {"numberMisscheduled", numberMisscheduled},
              {"desiredNumberScheduled", desiredNumberScheduled},
              {"numberReady", numberReady}};
    if (observedGeneration)
        j["observedGeneration"] = observedGeneration;
    if (updatedNumberScheduled)
        j["updatedNumberScheduled"] = updatedNumberScheduled;
    if (numberAvailable)
        j["numberAvailable"] = numberAvailable;
    if (numberUnavailable)
        j["numberUnavailable"] = numberUnavailable;
    if (collisionCount)
        j["collisionCount"] = *collisionCount;
    if (!conditions.is_null())
        j["conditions"] = conditions;
    return j;
}

Result<DaemonSetStatus> DaemonSetStatus::fromJson(const Json &j)
{
    DaemonSetStatus s;
    if (j.is_null())
        return s;
    if (!j.is_object())
        return ApiStatus::badRequest("field status: expected an object");
    struct F
    {
        const char *key;
        int *dst;
    } fields[] = {{"currentNumberScheduled", &s.currentNumberScheduled},
                  {"numberMisscheduled", &s.numberMisscheduled},
                  {"desiredNumberScheduled", &s.desiredNumberScheduled},
                  {"numberReady", &s.numberReady},
                  {"updatedNumberScheduled", &s.updatedNumberScheduled},
                  {"numberAvailable", &s.numberAvailable},
                  {"numberUnavailable", &s.numberUnavailable}};
    for (const auto &f : fields) {
        auto v = intField(j, f.key, "status");
        if (!v)
            return v.error();
        *f.dst = *v;
    }
    if (auto it = j.find("observedGeneration"); it != j.end() && !it->is_null()) {
        if (!it->is_number_integer())
            return ApiStatus::badRequest("field status.observedGeneration: expected an integer");
        s.observedGeneration = it->get<std::int64_t>();
    }
    if (auto it = j.find("collisionCount"); it != j.end() && !it->is_null()) {
        if (!it->is_number_integer() ||
            integerOr(j, "collisionCount", -1) != integerOr(j, "collisionCount", 0))
            return ApiStatus::badRequest("field status.collisionCount: expected a 32-bit integer");
        s.collisionCount = it->get<int>();
    }
    if (auto it = j.find("conditions"); it != j.end())
        s.conditions = *it;
    return s;
}

Result<LabelSelector> DaemonSet::selector() const
{
    auto it = spec.find("selector");
    if (it == spec.end())
        return LabelSelector{};
    return LabelSelector::fromJson(*it);
}

const Json &DaemonSet::podTemplate() const
{
    auto it = spec.find("template");
    return it == spec.end() ? nullJson() : *it;
}

std::string DaemonSet::updateStrategyType() const
{
    auto it = spec.find("updateStrategy");
    if (it == spec.end() || !it->is_object())
        return "RollingUpdate";
    return stringOr(*it, "type", "RollingUpdate");
}

static std::optional<IntOrString> rollingField(const Json &spec, const char *key)
{
    auto us = spec.find("updateStrategy");
    if (us == spec.end() || !us->is_object())
        return std::nullopt;
    auto ru = us->find("rollingUpdate");
    if (ru == us->end() || !ru->is_object())
        return std::nullopt;
    auto v = ru->find(key);
    if (v == ru->end() || v->is_null())
        return std::nullopt;
    auto r = IntOrString::fromJson(*v);
    if (!r)
        return std::nullopt;
    return *r;
}

std::optional<IntOrString> DaemonSet::maxUnavailable() const
{
    return rollingField(spec, "maxUnavailable");
}

std::optional<IntOrString> DaemonSet::maxSurge() const
{
    return rollingField(spec, "maxSurge");
}

int DaemonSet::minReadySeconds() const
{
    auto it = spec.find("minReadySeconds");
    return it != spec.end() ? integerOr(spec, "minReadySeconds", 0) : 0;
}

int DaemonSet::revisionHistoryLimit() const
{
    auto it = spec.find("revisionHistoryLimit");
    return it != spec.end() ? integerOr(spec, "revisionHistoryLimit", 10) : 10;
}

std::optional<std::int64_t> DaemonSet::templateGeneration() const
{
    auto it = metadata.annotations.find(kTemplateGenerationAnnotation);
    if (it == metadata.annotations.end() || it->second.empty())
        return std::nullopt;
    std::int64_t v = 0;
    for (char c : it->second) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

Json DaemonSet::toJson() const
{
    Json j = extra.is_object() ? extra : Json::object();
    j["apiVersion"] = "apps/v1";
    j["kind"] = "DaemonSet";
    j["metadata"] = metadata.toJson();
    j["spec"] = spec;
    j["status"] = status.toJson();
    return j;
}

Result<DaemonSet> DaemonSet::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("DaemonSet: expected an object");
    DaemonSet ds;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        if (k == "apiVersion" || k == "kind")
            continue;
        if (k == "metadata") {
            auto m = ObjectMeta::fromJson(it.value());
            if (!m)
                return m.error();
            ds.metadata = std::move(*m);
        } else if (k == "spec") {
            if (!it.value().is_object())
                return ApiStatus::badRequest("DaemonSet field spec: expected an object");
            ds.spec = it.value();
        } else if (k == "status") {
            auto s = DaemonSetStatus::fromJson(it.value());
            if (!s)
                return s.error();
            ds.status = std::move(*s);
        } else {
            ds.extra[k] = it.value();
        }
    }
    if (auto t = ds.spec.find("template"); t != ds.spec.end() && !t->is_object())
        return ApiStatus::badRequest("DaemonSet field spec.template: expected an object");
    if (auto sel = ds.selector(); !sel)
        return sel.error();
    return ds;
}

Json ControllerRevision::toJson() const
{
    Json j = extra.is_object() ? extra : Json::object();
    j["apiVersion"] = "apps/v1";
    j["kind"] = "ControllerRevision";
    j["metadata"] = metadata.toJson();
    j["data"] = data.empty() ? Json() : Json::parse(data, nullptr, false);
    j["revision"] = revision;
    return j;
}

Result<ControllerRevision> ControllerRevision::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("ControllerRevision: expected an object");
    ControllerRevision cr;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        if (k == "apiVersion" || k == "kind")
            continue;
        if (k == "metadata") {
            auto m = ObjectMeta::fromJson(it.value());
            if (!m)
                return m.error();
            cr.metadata = std::move(*m);
        } else if (k == "data") {
            // A manifest may carry data as an object or as its JSON text; either way the stored
            // bytes are the canonical compact form so they can match the engine's own patch.
            if (it.value().is_string()) {
                auto parsed = JsonLimits::parse(it.value().get<std::string>());
                if (!parsed)
                    return ApiStatus::badRequest("ControllerRevision field data: " + parsed.error().message);
                cr.data = goJson(*parsed);
            } else if (!it.value().is_null()) {
                cr.data = goJson(it.value());
            }
        } else if (k == "revision") {
            if (!it.value().is_number_integer())
                return ApiStatus::badRequest("ControllerRevision field revision: expected an integer");
            cr.revision = it.value().get<std::int64_t>();
        } else {
            cr.extra[k] = it.value();
        }
    }
    return cr;
}

} // namespace kube
