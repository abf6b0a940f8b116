// The steps of a scenario other than `expect`, executed on the simulated cluster: one function per
// step kind or group of kinds, dispatched from execute().

#include "models/scenario/scenariosteps.h"

#include "models/kube/timeutil.h"
#include "models/sim/nodeupgraderuntime.h"

#include <functional>

namespace scenario {

using kube::Json;

namespace {

int exitCodeFor(const kube::ApiStatus &e)
{
    return e.reason == "Invalid" || e.reason == "BadRequest" ? 2 : 1;
}

std::optional<StepError> containerImagePatch(sim::Cluster &cluster, const ScenarioStep &st, Json &patch)
{
    const auto *ds = cluster.daemonSet(st.target.namespace_, st.target.name);
    if (!ds)
        return StepError{1, "DaemonSet \"" + st.target.text() + "\" not found"};
    const Json &tmpl = ds->podTemplate();
    std::vector<std::string> names;
    bool found = false;
    for (const char *list : {"containers", "initContainers"}) {
        const Json::json_pointer p(std::string("/spec/") + list);
        if (!tmpl.is_object() || !tmpl.contains(p) || !tmpl[p].is_array())
            continue;
        for (const auto &c : tmpl[p]) {
            const auto name = c.value("name", std::string());
            names.push_back(name);
            if (name == st.container) {
                found = true;
                patch = {{"spec",
                          {{"template",
                            {{"spec", {{list, Json::array({{{"name", name}, {"image", st.image}}})}}}}}}}};
            }
        }
    }
    if (!found) {
        std::string all;
        for (const auto &n : names)
            all += (all.empty() ? "" : ", ") + n;
        return StepError{2, "unable to find container named \"" + st.container + "\" in DaemonSet \"" +
                                st.target.text() + "\" (its containers: " + all + ")"};
    }
    return std::nullopt;
}

kube::Result<std::vector<std::string>> podKeys(sim::Cluster &cluster, const sim::PodSelector &selector)
{
    std::vector<std::string> keys;
    for (const auto *p : cluster.selectPods(selector))
        keys.push_back(p->metadata.namespace_ + "/" + p->metadata.name);
    if (keys.empty())
        return kube::ApiStatus{404, "NotFound", "the pod selector matched no pod"};
    return keys;
}

api::Kind kindOf(const std::string &kind)
{
    auto k = api::kindFromString(kind);
    return k ? *k : api::Kind::Pod;
}
StepError apiError(const kube::ApiStatus &e)
{
    return StepError{exitCodeFor(e), e.message};
}

std::optional<StepError> check(const kube::Result<void> &r)
{
    if (r.ok())
        return std::nullopt;
    return apiError(r.error());
}

std::optional<StepError> syncStep(sim::Cluster &cluster, const ScenarioStep &st, ScenarioRunner::State &state,
                                  OJson &record)
{
    const auto r = cluster.syncDaemonSet(st.target.namespace_, st.target.name);
    OJson sync;
    sync["daemonset"] = st.target.text();
    OJson creates = OJson::array();
    for (const auto &c : r.creates)
        creates.push_back(OJson{{"node", c.node}});
    OJson deletes = OJson::array();
    for (const auto &d : r.deletes) {
        OJson j;
        j["pod"] = d.pod;
        j["node"] = d.node;
        deletes.push_back(std::move(j));
    }
    sync["creates"] = std::move(creates);
    sync["deletes"] = std::move(deletes);
    if (!r.ok)
        sync["error"] = r.error.message;
    record["sync"] = std::move(sync);
    state.lastSync = {static_cast<int>(r.creates.size()), static_cast<int>(r.deletes.size())};
    return std::nullopt;
}

std::optional<StepError> runUntilStep(sim::Cluster &cluster, const ScenarioStep &st,
                                      ScenarioRunner::State &state)
{
    const auto &rc = st.run;
    std::function<bool()> done;
    std::string what;
    switch (rc.kind) {
    case RunConditionKind::RolloutComplete:
        done = [&] { return cluster.rolloutComplete(rc.daemonSet.namespace_, rc.daemonSet.name); };
        what = "rolloutComplete " + rc.daemonSet.text();
        break;
    case RunConditionKind::PodsReady:
        done = [&] { return cluster.podsReady(rc.podsReady); };
        what = "podsReady " + std::to_string(rc.podsReady);
        break;
    case RunConditionKind::Time:
        if (rc.time > cluster.now())
            cluster.advance(rc.time - cluster.now());
        return std::nullopt;
    case RunConditionKind::UpgradeComplete:
        done = [&] { return state.upgrade && state.upgrade->upgradeComplete(rc.upgrade); };
        what = "upgradeComplete " + rc.upgrade;
        break;
    }
    if (!cluster.runUntil(done, rc.timeout))
        return StepError{1, "\"" + what + "\" did not hold within " + kube::formatDuration(rc.timeout) +
                                " (virtual time now " + kube::formatRfc3339(cluster.now()) + ")"};
    return std::nullopt;
}

std::optional<StepError> applyStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    for (const auto &m : st.manifests) {
        auto r = cluster.apply(m.object);
        if (!r)
            return StepError{exitCodeFor(r.error()), r.error().message, m.where};
    }
    return std::nullopt;
}

std::optional<StepError> patchStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    const api::PatchType type = st.patchType == "merge"  ? api::PatchType::Merge
                                : st.patchType == "json" ? api::PatchType::Json
                                                         : api::PatchType::Strategic;
    auto r = cluster.patch(kindOf(st.targetKind), st.target.namespace_, st.target.name, type, st.patch);
    if (!r)
        return apiError(r.error());
    return std::nullopt;
}

std::optional<StepError> setImageStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    Json patch;
    if (auto e = containerImagePatch(cluster, st, patch))
        return e;
    auto r = cluster.patch(api::Kind::DaemonSet, st.target.namespace_, st.target.name,
                           api::PatchType::Strategic, patch);
    if (!r)
        return apiError(r.error());
    return std::nullopt;
}

std::optional<StepError> setStrategyStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    Json strategy = {{"type", st.strategyType}};
    if (st.strategyType == "RollingUpdate") {
        Json ru = Json::object();
        if (st.maxUnavailable)
            ru["maxUnavailable"] = *st.maxUnavailable;
        if (st.maxSurge)
            ru["maxSurge"] = *st.maxSurge;
        strategy["rollingUpdate"] = ru;
    } else {
        strategy["rollingUpdate"] = nullptr;
    }
    auto r = cluster.patch(api::Kind::DaemonSet, st.target.namespace_, st.target.name, api::PatchType::Merge,
                           {{"spec", {{"updateStrategy", strategy}}}});
    if (!r)
        return apiError(r.error());
    return std::nullopt;
}

std::optional<StepError> deleteStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    if (st.pods) {
        auto keys = podKeys(cluster, *st.pods);
        if (!keys)
            return apiError(keys.error());
        for (const auto &key : *keys) {
            const auto slash = key.find('/');
            if (auto e = check(cluster.remove(api::Kind::Pod, key.substr(0, slash), key.substr(slash + 1))))
                return e;
        }
        return std::nullopt;
    }
    return check(cluster.remove(kindOf(st.targetKind), st.target.namespace_, st.target.name));
}

std::optional<StepError> setPodPhaseStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    // What a kubelet reports through the status subresource (e.g. a container that exited).
    auto keys = podKeys(cluster, *st.pods);
    if (!keys)
        return apiError(keys.error());
    for (const auto &key : *keys) {
        const auto slash = key.find('/');
        auto pod = cluster.get(api::Kind::Pod, key.substr(0, slash), key.substr(slash + 1));
        if (!pod)
            return apiError(pod.error());
        Json manifest = std::move(*pod);
        manifest["status"]["phase"] = st.phase;
        auto r = cluster.updateStatus(manifest);
        if (!r)
            return apiError(r.error());
    }
    return std::nullopt;
}

std::optional<StepError> markReadyStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    auto keys = podKeys(cluster, *st.pods);
    if (!keys)
        return apiError(keys.error());
    return check(cluster.markReady(*keys, st.kind == StepKind::MarkReady));
}

std::optional<StepError> setPodLabelsStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    auto keys = podKeys(cluster, *st.pods);
    if (!keys)
        return apiError(keys.error());
    return check(cluster.setPodLabels(*keys, st.labels));
}

std::optional<StepError> addNodesStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    for (const auto &spec : st.nodes)
        for (const auto &name : spec.names)
            if (auto e = check(cluster.addNode(makeNode(spec, name, cluster.now()))))
                return e;
    return std::nullopt;
}

std::optional<StepError> untaintNodeStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    if (st.taint.effect.empty())
        return check(cluster.untaint(st.node, st.taint.key));
    // Only the taint with this key and effect goes; the facade's untaint removes every effect.
    const auto *node = cluster.node(st.node);
    if (!node)
        return StepError{1, "node \"" + st.node + "\" not found"};
    Json taints = Json::array();
    bool removed = false;
    for (const auto &t : node->taints) {
        if (t.key == st.taint.key && t.effect == st.taint.effect)
            removed = true;
        else
            taints.push_back(t.toJson());
    }
    if (!removed)
        return std::nullopt;
    auto r =
        cluster.patch(api::Kind::Node, "", st.node, api::PatchType::Merge, {{"spec", {{"taints", taints}}}});
    if (!r)
        return apiError(r.error());
    return std::nullopt;
}

std::optional<StepError> faultStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    const auto kind = sim::faultKindFromString(st.faultKind);
    if (!kind)
        return StepError{2, "unknown fault kind \"" + st.faultKind + "\""};
    return check(cluster.fault(st.node, *kind));
}

std::optional<StepError> rollbackStep(sim::Cluster &cluster, const ScenarioStep &st,
                                      ScenarioRunner::State &state, OJson &record)
{
    const auto outcome = cluster.rollback(st.target.namespace_, st.target.name, st.toRevision);
    state.lastRollback = outcome.message;
    record["rollback"] = outcome.message;
    return std::nullopt;
}

std::optional<StepError> upgradeStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    // A rollout the API server refuses (e.g. an invalid spec) is invalid input.
    if (auto r = cluster.nodeUpgrade().upgradeStep(st.upgradeArgs); !r)
        return StepError{2, r.error().message};
    return std::nullopt;
}

std::optional<StepError> upgradeControlStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    if (auto r = cluster.nodeUpgrade().upgradeControlStep(st.upgradeArgs); !r)
        return StepError{r.error().reason == "NotFound" ? 2 : 1, r.error().message};
    return std::nullopt;
}

std::optional<StepError> restartNodeStep(sim::Cluster &cluster, const ScenarioStep &st)
{
    if (auto r = cluster.nodeUpgrade().restartNodeStep(st.upgradeArgs); !r)
        return StepError{r.error().reason == "NotFound" ? 2 : 1, r.error().message};
    return std::nullopt;
}

} // namespace

kube::Node makeNode(const ScenarioNodeSpec &spec, const std::string &name, kube::Timestamp now)
{
    kube::Node n;
    n.metadata.name = name;
    n.metadata.labels = spec.labels;
    n.metadata.labels.emplace("kubernetes.io/hostname", name);
    n.metadata.labels.emplace("kubernetes.io/os", "linux");
    n.unschedulable = spec.unschedulable;
    n.taints = spec.taints;
    n.kubeletVersion = spec.agentVersion;
    n.allocatablePods = spec.allocatablePods;
    n.setCondition({"Ready", "True", "KubeletReady", "kubelet is posting ready status", now});
    return n;
}

std::optional<StepError> execute(sim::Cluster &cluster, const ScenarioStep &st, ScenarioRunner::State &state,
                                 OJson &record)
{
    switch (st.kind) {
    case StepKind::Sync:
        return syncStep(cluster, st, state, record);
    case StepKind::Advance:
        cluster.advance(st.duration);
        return std::nullopt;
    case StepKind::SetTime:
        cluster.setTime(st.time);
        return std::nullopt;
    case StepKind::Run:
        return runUntilStep(cluster, st, state);
    case StepKind::Apply:
        return applyStep(cluster, st);
    case StepKind::Patch:
        return patchStep(cluster, st);
    case StepKind::SetImage:
        return setImageStep(cluster, st);
    case StepKind::SetStrategy:
        return setStrategyStep(cluster, st);
    case StepKind::Delete:
        return deleteStep(cluster, st);
    case StepKind::MarkReady:
    case StepKind::MarkNotReady:
        return markReadyStep(cluster, st);
    case StepKind::SetPodLabels:
        return setPodLabelsStep(cluster, st);
    case StepKind::SetPodPhase:
        return setPodPhaseStep(cluster, st);
    case StepKind::AddNodes:
        return addNodesStep(cluster, st);
    case StepKind::TaintNode:
        return check(cluster.taint(st.node, st.taint));
    case StepKind::UntaintNode:
        return untaintNodeStep(cluster, st);
    case StepKind::Cordon:
        return check(cluster.cordon(st.node));
    case StepKind::Uncordon:
        return check(cluster.uncordon(st.node));
    case StepKind::Fault:
        return faultStep(cluster, st);
    case StepKind::Rollback:
        return rollbackStep(cluster, st, state, record);
    case StepKind::Pause:
        return check(cluster.pause(st.target.namespace_, st.target.name));
    case StepKind::Resume:
        return check(cluster.resume(st.target.namespace_, st.target.name));
    case StepKind::Upgrade:
        return upgradeStep(cluster, st);
    case StepKind::UpgradeControl:
        return upgradeControlStep(cluster, st);
    case StepKind::RestartController:
        cluster.nodeUpgrade().restartController();
        return std::nullopt;
    case StepKind::RestartNode:
        return restartNodeStep(cluster, st);
    case StepKind::Expect:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace scenario
