#include "models/kube/poddisruptionbudget.h"

#include "models/kube/jsonfield.h"
#include "models/kube/timeutil.h"

#include <limits>

namespace kube {

namespace {

ApiStatus fieldError(const std::string &path, const std::string &detail)
{
    return ApiStatus::badRequest("PodDisruptionBudget field " + path + ": " + detail);
}

Result<int> int32Field(const Json &v, const std::string &path)
{
    if (v.is_null())
        return 0;
    if (!v.is_number_integer())
        return fieldError(path, "expected a 32-bit integer");
    const bool fits = v.is_number_unsigned()
                          ? v.get<std::uint64_t>() <= std::uint64_t{std::numeric_limits<int>::max()}
                          : v.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                v.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits)
        return fieldError(path, "expected a 32-bit integer");
    return v.get<int>();
}

Result<std::string> stringField(const Json &v, const std::string &path)
{
    if (v.is_null())
        return std::string();
    if (!v.is_string())
        return fieldError(path, "expected a string");
    return v.get<std::string>();
}

Result<Timestamp> timeField(const Json &v, const std::string &path)
{
    auto text = stringField(v, path);
    if (!text)
        return text.error();
    auto t = parseRfc3339(*text);
    if (!t)
        return fieldError(path, "expected an RFC 3339 time, got \"" + *text + "\"");
    return *t;
}

Result<std::optional<IntOrString>> intOrStringField(const Json &spec, const char *name)
{
    const Json *v = member(spec, name);
    if (!v || v->is_null())
        return std::optional<IntOrString>();
    auto parsed = IntOrString::fromJson(*v);
    if (!parsed)
        return fieldError(std::string("spec.") + name, parsed.error().message);
    return std::optional<IntOrString>(*parsed);
}

Result<PodDisruptionBudgetSpec> specFromJson(const Json &j)
{
    PodDisruptionBudgetSpec spec;
    if (j.is_null())
        return spec;
    if (!j.is_object())
        return fieldError("spec", "expected an object");
    auto minAvailable = intOrStringField(j, "minAvailable");
    if (!minAvailable)
        return minAvailable.error();
    spec.minAvailable = *minAvailable;
    auto maxUnavailable = intOrStringField(j, "maxUnavailable");
    if (!maxUnavailable)
        return maxUnavailable.error();
    spec.maxUnavailable = *maxUnavailable;
    if (const Json *s = member(j, "selector"); s && !s->is_null()) {
        auto sel = LabelSelector::fromJson(*s);
        if (!sel)
            return fieldError("spec.selector", sel.error().message);
        spec.selector = std::move(*sel);
    }
    if (const Json *p = member(j, "unhealthyPodEvictionPolicy")) {
        auto policy = stringField(*p, "spec.unhealthyPodEvictionPolicy");
        if (!policy)
            return policy.error();
        spec.unhealthyPodEvictionPolicy = *policy;
    }
    return spec;
}

Result<StatusCondition> conditionFromJson(const Json &j, const std::string &path)
{
    if (!j.is_object())
        return fieldError(path, "expected an object");
    StatusCondition c;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        const std::string at = path + "." + k;
        if (k == "observedGeneration") {
            if (!it->is_null() && !it->is_number_integer())
                return fieldError(at, "expected an integer");
            c.observedGeneration = it->is_null() ? 0 : it->get<std::int64_t>();
            continue;
        }
        if (k == "lastTransitionTime") {
            if (it->is_null())
                continue;
            auto t = timeField(*it, at);
            if (!t)
                return t.error();
            c.lastTransitionTime = *t;
            continue;
        }
        std::string *target = k == "type"      ? &c.type
                              : k == "status"  ? &c.status
                              : k == "reason"  ? &c.reason
                              : k == "message" ? &c.message
                                               : nullptr;
        if (!target)
            continue;
        auto s = stringField(*it, at);
        if (!s)
            return s.error();
        *target = *s;
    }
    return c;
}

Result<PodDisruptionBudgetStatus> statusFromJson(const Json &j)
{
    PodDisruptionBudgetStatus st;
    if (j.is_null())
        return st;
    if (!j.is_object())
        return fieldError("status", "expected an object");
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        const std::string at = "status." + k;
        if (k == "observedGeneration") {
            if (!it->is_null() && !it->is_number_integer())
                return fieldError(at, "expected an integer");
            st.observedGeneration = it->is_null() ? 0 : it->get<std::int64_t>();
        } else if (k == "disruptedPods") {
            if (it->is_null())
                continue;
            if (!it->is_object())
                return fieldError(at, "expected an object");
            for (auto p = it->begin(); p != it->end(); ++p) {
                auto t = timeField(*p, at + "." + p.key());
                if (!t)
                    return t.error();
                st.disruptedPods[p.key()] = *t;
            }
        } else if (k == "conditions") {
            if (it->is_null())
                continue;
            if (!it->is_array())
                return fieldError(at, "expected a list");
            for (std::size_t i = 0; i < it->size(); ++i) {
                auto c = conditionFromJson((*it)[i], at + "[" + std::to_string(i) + "]");
                if (!c)
                    return c.error();
                st.conditions.push_back(std::move(*c));
            }
        } else {
            int *target = k == "disruptionsAllowed" ? &st.disruptionsAllowed
                          : k == "currentHealthy"   ? &st.currentHealthy
                          : k == "desiredHealthy"   ? &st.desiredHealthy
                          : k == "expectedPods"     ? &st.expectedPods
                                                    : nullptr;
            if (!target)
                continue;
            auto n = int32Field(*it, at);
            if (!n)
                return n.error();
            *target = *n;
        }
    }
    return st;
}

} // namespace

const StatusCondition *PodDisruptionBudgetStatus::condition(const std::string &type) const
{
    for (const auto &c : conditions)
        if (c.type == type)
            return &c;
    return nullptr;
}

bool PodDisruptionBudget::covers(const StringMap &podLabels) const
{
    return spec.selector && spec.selector->matches(podLabels);
}

Json PodDisruptionBudget::toJson() const
{
    Json spec_ = Json::object();
    if (spec.minAvailable)
        spec_["minAvailable"] = spec.minAvailable->toJson();
    if (spec.maxUnavailable)
        spec_["maxUnavailable"] = spec.maxUnavailable->toJson();
    if (spec.selector)
        spec_["selector"] = spec.selector->toJson();
    if (!spec.unhealthyPodEvictionPolicy.empty())
        spec_["unhealthyPodEvictionPolicy"] = spec.unhealthyPodEvictionPolicy;
    Json st = {{"disruptionsAllowed", status.disruptionsAllowed},
               {"currentHealthy", status.currentHealthy},
               {"desiredHealthy", status.desiredHealthy},
               {"expectedPods", status.expectedPods}};
    if (status.observedGeneration)
        st["observedGeneration"] = status.observedGeneration;
    if (!status.disruptedPods.empty()) {
        Json pods = Json::object();
        for (const auto &[name, t] : status.disruptedPods)
            pods[name] = formatRfc3339(t);
        st["disruptedPods"] = std::move(pods);
    }
    if (!status.conditions.empty()) {
        Json conds = Json::array();
        for (const auto &c : status.conditions) {
            Json cj = {{"type", c.type},
                       {"status", c.status},
                       {"lastTransitionTime", formatRfc3339(c.lastTransitionTime)},
                       {"reason", c.reason},
                       {"message", c.message}};
            if (c.observedGeneration)
                cj["observedGeneration"] = c.observedGeneration;
            conds.push_back(std::move(cj));
        }
        st["conditions"] = std::move(conds);
    }
    return {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", metadata.toJson()},
            {"spec", std::move(spec_)},
            {"status", std::move(st)}};
}

Result<PodDisruptionBudget> PodDisruptionBudget::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("PodDisruptionBudget: expected an object");
    PodDisruptionBudget pdb;
    if (const Json *m = member(j, "metadata")) {
        auto meta = ObjectMeta::fromJson(*m);
        if (!meta)
            return meta.error();
        pdb.metadata = std::move(*meta);
    }
    if (const Json *s = member(j, "spec")) {
        auto spec = specFromJson(*s);
        if (!spec)
            return spec.error();
        pdb.spec = std::move(*spec);
    }
    if (const Json *s = member(j, "status")) {
        auto st = statusFromJson(*s);
        if (!st)
            return st.error();
        pdb.status = std::move(*st);
    }
    return pdb;
}

} // namespace kube
