#include "models/engine/validation.h"

#include <cctype>

namespace engine {

using kube::Json;

namespace {

std::string goQuote(const std::string &s)
{
    std::string out;
    kube::appendGoString(out, s);
    return out;
}

std::string goMap(const Json &labels)
{
    if (!labels.is_object() || labels.empty())
        return "map[string]string(nil)";
    std::string out = "map[string]string{";
    bool first = true;
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        if (!first)
            out += ", ";
        first = false;
        out += goQuote(it.key()) + ":" +
               goQuote(it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    }
    return out + "}";
}

std::string goIntOrString(const Json &v)
{
    if (v.is_string())
        return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + goQuote(v.get<std::string>()) + "}";
    const long long i = v.is_number_integer() ? v.get<long long>() : 0;
    return "intstr.IntOrString{Type:0, IntVal:" + std::to_string(i) + ", StrVal:\"\"}";
}

std::string goSelector(const Json &sel)
{
    std::string out =
        "v1.LabelSelector{MatchLabels:" + goMap(sel.is_object() ? sel.value("matchLabels", Json()) : Json());
    out += ", MatchExpressions:";
    const Json me = sel.is_object() ? sel.value("matchExpressions", Json()) : Json();
    if (!me.is_array() || me.empty()) {
        out += "[]v1.LabelSelectorRequirement(nil)";
    } else {
        out += "[]v1.LabelSelectorRequirement{";
        bool first = true;
        for (const auto &r : me) {
            if (!first)
                out += ", ";
            first = false;
            out += "v1.LabelSelectorRequirement{Key:" + goQuote(r.value("key", "")) +
                   ", Operator:" + goQuote(r.value("operator", "")) + ", Values:[]string{";
            bool f2 = true;
            for (const auto &v : r.value("values", Json::array())) {
                if (!f2)
                    out += ", ";
                f2 = false;
                out += goQuote(v.is_string() ? v.get<std::string>() : v.dump());
            }
            out += "}}";
        }
        out += "}";
    }
    return out + "}";
}

bool isPercent(const std::string &s)
{
    if (s.size() < 2 || s.back() != '%')
        return false;
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
    return true;
}

// getIntOrPercentValue: the int, or the number before '%' (0 when unparsable).
long long intOrPercentValue(const Json &v)
{
    if (v.is_number_integer())
        return v.get<long long>();
    if (v.is_string() && isPercent(v.get<std::string>()))
        return std::stoll(v.get<std::string>().substr(0, v.get<std::string>().size() - 1));
    return 0;
}

struct Errors
{
    std::vector<std::string> list;
    void add(std::string e) { list.push_back(std::move(e)); }
    void nonNegative(const Json &spec, const char *field, const std::string &path)
    {
        if (spec.contains(field) && spec[field].is_number_integer() && spec[field].get<long long>() < 0)
            add(path + ": Invalid value: " + std::to_string(spec[field].get<long long>()) +
                ": must be greater than or equal to 0");
    }
    void intOrPercent(const Json &v, const std::string &path)
    {
        if (v.is_string()) {
            if (!isPercent(v.get<std::string>()))
                add(path + ": Invalid value: " + goIntOrString(v) +
                    ": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', "
                    " or "
                    "'93%', regex used for validation is '[0-9]+%')");
        } else if (v.is_number_integer() && v.get<long long>() < 0) {
            add(path + ": Invalid value: " + std::to_string(v.get<long long>()) +
                ": must be greater than or equal to 0");
        }
        if (v.is_string() && isPercent(v.get<std::string>()) && intOrPercentValue(v) > 100)
            add(path + ": Invalid value: " + goIntOrString(v) + ": must not be greater than 100%");
    }
};

} // namespace

kube::Result<void> validateDaemonSet(const kube::DaemonSet &ds, const kube::DaemonSet *old)
{
    Errors e;
    const Json &spec = ds.spec;
    if (ds.metadata.name.empty())
        e.add("metadata.name: Required value: name or generateName is required");
    const Json sel = spec.contains("selector") ? spec["selector"] : Json();
    const Json &tpl = ds.podTemplate();
    const Json tplLabels = tpl.is_object() && tpl.contains("metadata") && tpl["metadata"].is_object()
                               ? tpl["metadata"].value("labels", Json())
                               : Json();
    if (sel.is_null()) {
        e.add("spec.selector: Required value");
        e.add("spec.template.metadata.labels: Invalid value: " + goMap(tplLabels) +
              ": `selector` does not match template `labels`");
    } else {
        auto selector = ds.selector();
        kube::StringMap labels;
        if (auto l = kube::stringMapFromJson(tplLabels, "labels"))
            labels = *l;
        if (selector && !selector->matches(labels))
            e.add("spec.template.metadata.labels: Invalid value: " + goMap(tplLabels) +
                  ": `selector` does not match template `labels`");
        if (selector && selector->empty())
            e.add("spec.selector: Invalid value: " + goSelector(sel) +
                  ": empty selector is invalid for daemonset");
    }
    const Json podSpec = tpl.is_object() && tpl.contains("spec") ? tpl["spec"] : Json::object();
    const Json containers = podSpec.value("containers", Json());
    if (!containers.is_array() || containers.empty()) {
        e.add("spec.template.spec.containers: Required value");
    } else {
        for (std::size_t i = 0; i < containers.size(); ++i) {
            const std::string p = "spec.template.spec.containers[" + std::to_string(i) + "]";
            if (containers[i].value("name", "").empty())
                e.add(p + ".name: Required value");
            if (containers[i].value("image", "").empty())
                e.add(p + ".image: Required value");
        }
    }
    const std::string restart = podSpec.value("restartPolicy", "Always");
    if (restart != "Always")
        e.add("spec.template.spec.restartPolicy: Unsupported value: " + goQuote(restart) +
              ": supported values: \"Always\"");
    if (podSpec.contains("activeDeadlineSeconds") && !podSpec["activeDeadlineSeconds"].is_null())
        e.add("spec.template.spec.activeDeadlineSeconds: Invalid value: " +
              podSpec["activeDeadlineSeconds"].dump() +
              ": activeDeadlineSeconds in DaemonSet is not Supported");
    e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
    const Json us = spec.value("updateStrategy", Json::object());
    const std::string type = us.value("type", "");
    if (type == "RollingUpdate") {
        const Json ru = us.value("rollingUpdate", Json());
        if (!ru.is_object()) {
            e.add("spec.updateStrategy.rollingUpdate: Required value");
        } else {
            const Json mu = ru.value("maxUnavailable", Json(0));
            const Json ms = ru.value("maxSurge", Json(0));
            e.intOrPercent(mu, "spec.updateStrategy.rollingUpdate.maxUnavailable");
            e.intOrPercent(ms, "spec.updateStrategy.rollingUpdate.maxSurge");
            const bool hasUnavailable = intOrPercentValue(mu) != 0;
            const bool hasSurge = intOrPercentValue(ms) != 0;
            if (hasUnavailable && hasSurge)
                e.add("spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: " + goIntOrString(ms) +
                      ": may not be set when maxUnavailable is non-zero");
            else if (!hasUnavailable && !hasSurge)
                e.add("spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when "
                      "maxSurge is 0");
        }
    } else if (type != "OnDelete") {
        std::string ru = "(*apps.RollingUpdateDaemonSet)(nil)";
        e.add("spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:" + goQuote(type) +
              ", RollingUpdate:" + ru + "}: supported values: \"RollingUpdate\", \"OnDelete\"");
    }
    e.nonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
    if (old) {
        const Json oldSel = old->spec.contains("selector") ? old->spec["selector"] : Json();
        if (oldSel != sel)
            e.add("spec.selector: Invalid value: " + goSelector(sel) + ": field is immutable");
    }
    if (e.list.empty())
        return {};
    std::string why;
    if (e.list.size() == 1) {
        why = e.list.front();
    } else {
        why = "[";
        for (std::size_t i = 0; i < e.list.size(); ++i)
            why += (i ? ", " : "") + e.list[i];
        why += "]";
    }
    return kube::ApiStatus::invalid("DaemonSet.apps", ds.metadata.name, why);
}

kube::Result<void> validateDaemonSetStatus(const kube::DaemonSet &ds, const kube::DaemonSet &old)
{
    std::vector<std::string> errs;
    const auto &s = ds.status;
    const std::pair<const char *, long long> counters[] = {
        {"currentNumberScheduled", s.currentNumberScheduled},
        {"numberMisscheduled", s.numberMisscheduled},
        {"desiredNumberScheduled", s.desiredNumberScheduled},
        {"numberReady", s.numberReady},
        {"observedGeneration", s.observedGeneration},
        {"updatedNumberScheduled", s.updatedNumberScheduled},
        {"numberAvailable", s.numberAvailable},
        {"numberUnavailable", s.numberUnavailable}};
    for (const auto &[name, v] : counters)
        if (v < 0)
            errs.push_back(std::string("status.") + name + ": Invalid value: " + std::to_string(v) +
                           ": must be greater than or equal to 0");
    if (s.collisionCount && *s.collisionCount < 0)
        errs.push_back("status.collisionCount: Invalid value: " + std::to_string(*s.collisionCount) +
                       ": must be greater than or equal to 0");
    if (old.status.collisionCount && (!s.collisionCount || *s.collisionCount < *old.status.collisionCount))
        errs.push_back("status.collisionCount: Invalid value: " +
                       (s.collisionCount ? std::to_string(*s.collisionCount) : std::string("null")) +
                       ": cannot be decremented");
    if (errs.empty())
        return {};
    std::string why = errs.size() == 1 ? errs.front() : "[";
    if (errs.size() > 1) {
        for (std::size_t i = 0; i < errs.size(); ++i)
            why += (i ? ", " : "") + errs[i];
        why += "]";
    }
    return kube::ApiStatus::invalid("DaemonSet.apps", ds.metadata.name, why);
}

} // namespace engine
