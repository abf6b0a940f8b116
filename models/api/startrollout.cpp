#include "models/api/startrollout.h"

#include "models/api/kubectlrollout.h"
#include "models/api/validation.h"
#include "models/kube/jsonfield.h"
#include "models/kube/jsonlimits.h"

#include <charconv>
#include <set>

namespace api {

using kube::Json;

std::string kubectlResourceLine(const std::string &dsName, const std::string &verb)
{
    return "daemonset.apps/" + dsName + " " + verb;
}

kube::Result<std::optional<Json>> setImagePatch(const kube::DaemonSet &ds,
                                                const std::map<std::string, std::string> &images)
{
    if (images.empty())
        return kube::ApiStatus::badRequest("at least one image update is required");
    for (const auto &[name, image] : images)
        if (image.empty())
            return kube::ApiStatus::badRequest("invalid image update: \"" + name + "=\"");
    const Json &tpl = ds.podTemplate();
    const Json *spec = kube::member(tpl, "spec");
    std::set<std::string> found;
    Json patchSpec = Json::object();
    // kubectl's two-way merge patch lists, per list, the containers whose image changes, in the
    // template's order, each by its merge key.
    for (const char *list : {"containers", "initContainers"}) {
        const Json *containers = spec ? kube::member(*spec, list) : nullptr;
        if (!containers || !containers->is_array())
            continue;
        Json changed = Json::array();
        for (const Json &c : *containers) {
            const std::string name = kube::stringOr(c, "name");
            auto it = images.find(name);
            if (it == images.end())
                it = images.find("*");
            if (it == images.end())
                continue;
            found.insert(it->first);
            if (kube::stringOr(c, "image") != it->second)
                changed.push_back(Json{{"image", it->second}, {"name", name}});
        }
        if (!changed.empty())
            patchSpec[list] = std::move(changed);
    }
    for (const auto &[name, image] : images)
        if (!found.count(name))
            return kube::ApiStatus::badRequest("unable to find container named \"" + name + "\"");
    if (patchSpec.empty())
        return std::optional<Json>();
    return std::optional<Json>(Json{{"spec", {{"template", {{"spec", std::move(patchSpec)}}}}}});
}

kube::Result<Json> restartPatch(const kube::DaemonSet &ds, const std::string &now)
{
    if (isPaused(ds))
        return kube::ApiStatus::badRequest("can't restart paused daemonset (run rollout resume first)");
    const Json *meta = kube::member(ds.podTemplate(), "metadata");
    const Json *annotations = meta ? kube::member(*meta, "annotations") : nullptr;
    if (annotations && kube::stringOr(*annotations, kRestartedAtAnnotation) == now)
        return kube::ApiStatus::badRequest(
            "failed to create patch for " + ds.metadata.name +
            ": if restart has already been triggered within the past second, please wait before "
            "attempting to trigger another");
    return Json{{"spec", {{"template", {{"metadata", {{"annotations", {{kRestartedAtAnnotation, now}}}}}}}}}};
}

kube::IntOrString intOrStringFromText(const std::string &text)
{
    if (text.empty())
        return kube::IntOrString::fromInt(0);
    int value = 0;
    const char *first = text.data();
    const char *last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && end == last)
        return kube::IntOrString::fromInt(value);
    return kube::IntOrString::fromString(text);
}

kube::Result<StrategyPatch> strategyPatch(const kube::DaemonSet &ds, const kube::IntOrString &maxUnavailable,
                                          const kube::IntOrString &maxSurge)
{
    const Json rollingUpdate = {{"maxSurge", maxSurge.toJson()}, {"maxUnavailable", maxUnavailable.toJson()}};
    if (auto check = invalidIfAny("DaemonSet.apps", ds.metadata.name, rollingUpdateErrors(rollingUpdate));
        !check)
        return check.error();
    StrategyPatch out;
    out.strategy = {{"rollingUpdate", rollingUpdate}, {"type", "RollingUpdate"}};
    if (!isPaused(ds)) {
        out.patch = {{"spec", {{"updateStrategy", out.strategy}}}};
        return out;
    }
    // Paused: the strategy to resume with changes; the DaemonSet stays on OnDelete. What the
    // saved strategy holds besides the budget (nothing today) is kept.
    auto saved = kube::JsonLimits::parse(ds.metadata.annotation(kPausedStrategyAnnotation));
    Json strategy = saved && saved->is_object() ? std::move(saved).value() : Json::object();
    strategy["type"] = "RollingUpdate";
    strategy["rollingUpdate"] = rollingUpdate;
    out.editsSavedStrategy = true;
    out.strategy = strategy;
    out.patch = {{"metadata", {{"annotations", {{kPausedStrategyAnnotation, kube::goJson(strategy)}}}}}};
    return out;
}

} // namespace api
