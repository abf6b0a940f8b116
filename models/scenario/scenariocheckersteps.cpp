// The scenario checker's steps: the step table, each step's arguments, the run condition and the
// patch, delete and node-upgrade steps (the expect step is in scenariocheckerexpect.cpp).

#include "models/scenario/scenariochecker.h"

#include "models/api/kind.h"
#include "models/api/nodeupgraderollout.h"
#include "models/kube/daemonset.h"
#include "models/kube/labelselector.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/yamldocument.h"
#include "models/sim/faultkind.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>

namespace scenario::scenariocheck {

namespace {

// Every step, in the order the format's documentation lists them: one table for the lookup
// and for the list an unknown step's message offers.
const std::pair<const char *, StepKind> kSteps[] = {
    {"sync", StepKind::Sync},
    {"advance", StepKind::Advance},
    {"setTime", StepKind::SetTime},
    {"run", StepKind::Run},
    {"apply", StepKind::Apply},
    {"patch", StepKind::Patch},
    {"setImage", StepKind::SetImage},
    {"setStrategy", StepKind::SetStrategy},
    {"delete", StepKind::Delete},
    {"markReady", StepKind::MarkReady},
    {"markNotReady", StepKind::MarkNotReady},
    {"setPodLabels", StepKind::SetPodLabels},
    {"setPodPhase", StepKind::SetPodPhase},
    {"addNodes", StepKind::AddNodes},
    {"taintNode", StepKind::TaintNode},
    {"untaintNode", StepKind::UntaintNode},
    {"cordon", StepKind::Cordon},
    {"uncordon", StepKind::Uncordon},
    {"fault", StepKind::Fault},
    {"rollback", StepKind::Rollback},
    {"pause", StepKind::Pause},
    {"resume", StepKind::Resume},
    {"upgrade", StepKind::Upgrade},
    {"upgradeControl", StepKind::UpgradeControl},
    {"restartController", StepKind::RestartController},
    {"restartNode", StepKind::RestartNode},
    {"expect", StepKind::Expect},
};

std::optional<StepKind> stepKind(const std::string &name)
{
    for (const auto &[n, kind] : kSteps)
        if (name == n)
            return kind;
    return std::nullopt;
}

std::string stepNames()
{
    std::string out;
    for (const auto &[n, kind] : kSteps)
        out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

} // namespace

void Checker::step(const Json &v, const std::string &ptr, int index)
{
    if (!v.is_object() || v.size() != 1) {
        std::string got = typeName(v);
        if (v.is_object()) {
            got = v.empty() ? "an empty map" : "a map with " + std::to_string(v.size()) + " keys (";
            if (!v.empty()) {
                bool first = true;
                for (const auto &[k, val] : v.items()) {
                    got += (first ? "" : ", ") + k;
                    first = false;
                }
                got += ")";
            }
        }
        error(at(ptr), "step " + std::to_string(index) +
                           " must be a map with exactly one key, the action (one of: " + stepNames() +
                           "); got " + got);
        return;
    }
    // Copy out of the iterator: items() is a temporary proxy.
    const auto first = v.begin();
    const std::string action = first.key();
    const Json &arg = first.value();
    const auto argPtr = child(ptr, action);
    const auto kind = stepKind(action);
    if (!kind) {
        error(atKey(argPtr), "unknown step \"" + action + "\" (expected one of: " + stepNames() + ")");
        return;
    }
    ScenarioStep st;
    st.kind = *kind;
    st.action = action;
    st.where = atKey(argPtr);
    st.index = index;
    if (stepArgs(st, arg, argPtr))
        m_s.steps.push_back(std::move(st));
}

void Checker::applyStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    std::vector<std::pair<const Json *, std::string>> items;
    if (arg.is_array()) {
        for (std::size_t i = 0; i < arg.size(); ++i)
            items.push_back({&arg[i], child(ptr, i)});
    } else if (arg.is_object()) {
        items.push_back({&arg, ptr});
    } else {
        error(at(ptr), "apply must be a manifest or a list of manifests, got " + typeName(arg));
    }
    for (const auto &[item, p] : items)
        if (auto m = manifest(*item, p)) {
            registerManifest(*m);
            st.manifests.push_back(std::move(*m));
        }
}

void Checker::setImageStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "setImage"))
        return;
    checkKeys(arg, ptr, "setImage", {"daemonset", "container", "image"});
    if (require(arg, ptr, "setImage", "daemonset", "NAMESPACE/NAME"))
        if (auto r = daemonSetRef(arg["daemonset"], child(ptr, "daemonset"), "daemonset"))
            st.target = *r;
    if (require(arg, ptr, "setImage", "container", "the container's name"))
        if (auto s = nonEmpty(arg["container"], child(ptr, "container"), "container")) {
            st.container = *s;
            auto c = m_containers.find(st.target);
            if (c != m_containers.end() && !c->second.count(*s)) {
                std::string names;
                for (const auto &n : c->second)
                    names += (names.empty() ? "" : ", ") + n;
                error(at(child(ptr, "container")), "DaemonSet \"" + st.target.text() +
                                                       "\" has no container \"" + *s +
                                                       "\" (its containers: " + names + ")");
            }
        }
    if (require(arg, ptr, "setImage", "image", "e.g. nginx:1.27"))
        if (auto s = nonEmpty(arg["image"], child(ptr, "image"), "image"))
            st.image = *s;
}

void Checker::setStrategyStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "setStrategy"))
        return;
    checkKeys(arg, ptr, "setStrategy", {"daemonset", "type", "maxUnavailable", "maxSurge"});
    if (require(arg, ptr, "setStrategy", "daemonset", "NAMESPACE/NAME"))
        if (auto r = daemonSetRef(arg["daemonset"], child(ptr, "daemonset"), "daemonset"))
            st.target = *r;
    st.strategyType = "RollingUpdate";
    if (arg.contains("type"))
        if (auto s = str(arg["type"], child(ptr, "type"), "type")) {
            if (*s != "RollingUpdate" && *s != "OnDelete")
                error(at(child(ptr, "type")), "type must be RollingUpdate or OnDelete, got \"" + *s + "\"");
            st.strategyType = *s;
        }
    for (const char *k : {"maxUnavailable", "maxSurge"}) {
        if (!arg.contains(k))
            continue;
        if (st.strategyType == "OnDelete")
            error(atKey(child(ptr, k)), std::string(k) + " applies to type RollingUpdate only");
        if (intOrPercent(arg[k], child(ptr, k), k))
            (std::string(k) == "maxSurge" ? st.maxSurge : st.maxUnavailable) = arg[k];
    }
}

void Checker::setPodLabelsStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "setPodLabels"))
        return;
    checkKeys(arg, ptr, "setPodLabels", {"pods", "labels"});
    if (require(arg, ptr, "setPodLabels", "pods", "a pod selector"))
        st.pods = podSelector(arg["pods"], child(ptr, "pods"), "pods (a pod selector)", false);
    if (require(arg, ptr, "setPodLabels", "labels", "a map of label values"))
        if (auto m = stringMap(arg["labels"], child(ptr, "labels"), "labels"))
            st.labels = *m;
}

void Checker::setPodPhaseStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "setPodPhase"))
        return;
    checkKeys(arg, ptr, "setPodPhase", {"pods", "phase"});
    if (require(arg, ptr, "setPodPhase", "pods", "a pod selector"))
        st.pods = podSelector(arg["pods"], child(ptr, "pods"), "pods (a pod selector)", false);
    if (require(arg, ptr, "setPodPhase", "phase", "Pending, Running, Succeeded or Failed"))
        if (auto ph = str(arg["phase"], child(ptr, "phase"), "phase")) {
            if (*ph != "Pending" && *ph != "Running" && *ph != "Succeeded" && *ph != "Failed")
                error(at(child(ptr, "phase")),
                      "phase must be Pending, Running, Succeeded or Failed, got \"" + *ph + "\"");
            st.phase = *ph;
        }
}

void Checker::taintNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "taintNode"))
        return;
    checkKeys(arg, ptr, "taintNode", {"node", "key", "value", "effect"});
    if (require(arg, ptr, "taintNode", "node", "the node's name"))
        if (auto n = nodeRef(arg["node"], child(ptr, "node"), "node"))
            st.node = *n;
    if (auto taint = this->taint(arg, ptr, "taintNode", false))
        st.taint = *taint;
}

void Checker::untaintNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "untaintNode"))
        return;
    checkKeys(arg, ptr, "untaintNode", {"node", "key", "effect"});
    if (require(arg, ptr, "untaintNode", "node", "the node's name"))
        if (auto n = nodeRef(arg["node"], child(ptr, "node"), "node"))
            st.node = *n;
    if (require(arg, ptr, "untaintNode", "key", "the taint key"))
        if (auto s = nonEmpty(arg["key"], child(ptr, "key"), "key"))
            st.taint.key = *s;
    if (arg.contains("effect"))
        if (auto s = str(arg["effect"], child(ptr, "effect"), "effect")) {
            if (!kTaintEffects.count(*s))
                error(at(child(ptr, "effect")),
                      "effect must be NoSchedule, PreferNoSchedule or NoExecute, got \"" + *s + "\"");
            st.taint.effect = *s;
        }
}

void Checker::faultStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "fault"))
        return;
    checkKeys(arg, ptr, "fault", {"node", "kind"});
    if (require(arg, ptr, "fault", "node", "the node's name"))
        if (auto n = nodeRef(arg["node"], child(ptr, "node"), "node"))
            st.node = *n;
    if (require(arg, ptr, "fault", "kind", "NotReady, Ready, Unreachable, AgentUnresponsive, ..."))
        if (auto s = str(arg["kind"], child(ptr, "kind"), "kind")) {
            if (!sim::faultKindFromString(*s)) {
                std::string all;
                for (sim::FaultKind k : sim::allFaultKinds())
                    all += (all.empty() ? "" : ", ") + std::string(sim::faultKindName(k));
                error(at(child(ptr, "kind")), "fault kind must be one of " + all + "; got \"" + *s + "\"");
            }
            st.faultKind = *s;
        }
}

void Checker::rollbackStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "rollback"))
        return;
    checkKeys(arg, ptr, "rollback", {"daemonset", "toRevision"});
    if (require(arg, ptr, "rollback", "daemonset", "NAMESPACE/NAME"))
        if (auto r = daemonSetRef(arg["daemonset"], child(ptr, "daemonset"), "daemonset")) {
            st.target = *r;
            m_containers.erase(*r);
        }
    if (arg.contains("toRevision"))
        if (auto n = integer(arg["toRevision"], child(ptr, "toRevision"), "toRevision"))
            st.toRevision = *n;
}

void Checker::restartNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "restartNode"))
        return;
    checkKeys(arg, ptr, "restartNode", {"node", "version"});
    if (require(arg, ptr, "restartNode", "node", "the node's name"))
        if (auto n = nodeRef(arg["node"], child(ptr, "node"), "node"))
            st.node = *n;
    if (require(arg, ptr, "restartNode", "version", "the agent version it returns on, e.g. v2.0.0"))
        nonEmpty(arg["version"], child(ptr, "version"), "version");
    st.upgradeArgs = arg;
}

void Checker::modeOnly(const ScenarioStep &st, bool wantStepped)
{
    const bool stepped = m_s.mode == ScenarioMode::Stepped;
    if (stepped != wantStepped)
        error(st.where, st.action + " is only available in " + (wantStepped ? "stepped" : "continuous") +
                            " mode (this scenario's mode is " + (stepped ? "stepped" : "continuous") + ")");
}

// The steps on nodes and those of the node-agent upgrade.
void Checker::nodeStepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    switch (st.kind) {
    case StepKind::AddNodes:
        nodeSpecs(arg, ptr, st.nodes, "addNodes");
        break;
    case StepKind::TaintNode:
        taintNodeStep(st, arg, ptr);
        break;
    case StepKind::UntaintNode:
        untaintNodeStep(st, arg, ptr);
        break;
    case StepKind::Cordon:
    case StepKind::Uncordon:
        if (auto n = nodeRef(arg, ptr, st.action))
            st.node = *n;
        break;
    case StepKind::Fault:
        faultStep(st, arg, ptr);
        break;
    case StepKind::Upgrade:
        if (upgradeStep(arg, ptr)) {
            st.upgradeArgs = arg;
            m_rollouts.insert(arg["name"].get<std::string>());
        }
        break;
    case StepKind::UpgradeControl:
        if (upgradeControlStep(arg, ptr))
            st.upgradeArgs = arg;
        break;
    case StepKind::RestartController:
        if (auto s = str(arg, ptr, "restartController")) {
            if (*s != "nodeUpgrade")
                error(at(ptr), "restartController must be nodeUpgrade, got \"" + *s + "\"");
            st.upgradeArgs = *s;
        }
        break;
    case StepKind::RestartNode:
        restartNodeStep(st, arg, ptr);
        break;
    default:
        break;
    }
}

bool Checker::stepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    const std::size_t before = errors.size();
    switch (st.kind) {
    case StepKind::Sync:
        modeOnly(st, true);
        if (auto r = daemonSetRef(arg, ptr, "sync"))
            st.target = *r;
        break;
    case StepKind::Pause:
    case StepKind::Resume:
        if (auto r = daemonSetRef(arg, ptr, st.action))
            st.target = *r;
        break;
    case StepKind::Advance:
        if (auto d = duration(arg, ptr, "advance"))
            st.duration = *d;
        break;
    case StepKind::SetTime:
        modeOnly(st, true);
        if (auto t = timePoint(arg, ptr, "setTime"))
            st.time = *t;
        break;
    case StepKind::Run:
        modeOnly(st, false);
        runCondition(st, arg, ptr);
        break;
    case StepKind::Apply:
        applyStep(st, arg, ptr);
        break;
    case StepKind::Patch:
        patchStep(st, arg, ptr);
        break;
    case StepKind::SetImage:
        setImageStep(st, arg, ptr);
        break;
    case StepKind::SetStrategy:
        setStrategyStep(st, arg, ptr);
        break;
    case StepKind::Delete:
        deleteStep(st, arg, ptr);
        break;
    case StepKind::MarkReady:
    case StepKind::MarkNotReady:
        st.pods = podSelector(arg, ptr, st.action + " (a pod selector)", false);
        break;
    case StepKind::SetPodLabels:
        setPodLabelsStep(st, arg, ptr);
        break;
    case StepKind::SetPodPhase:
        setPodPhaseStep(st, arg, ptr);
        break;
    case StepKind::AddNodes:
    case StepKind::TaintNode:
    case StepKind::UntaintNode:
    case StepKind::Cordon:
    case StepKind::Uncordon:
    case StepKind::Fault:
    case StepKind::Upgrade:
    case StepKind::UpgradeControl:
    case StepKind::RestartController:
    case StepKind::RestartNode:
        nodeStepArgs(st, arg, ptr);
        break;
    case StepKind::Rollback:
        rollbackStep(st, arg, ptr);
        break;
    case StepKind::Expect:
        expectStep(st.expect, arg, ptr);
        break;
    }
    return errors.size() == before;
}

bool Checker::runCondition(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "run"))
        return false;
    checkKeys(arg, ptr, "run", {"until", "timeout"});
    auto &rc = st.run;
    if (arg.contains("timeout"))
        if (auto d = duration(arg["timeout"], child(ptr, "timeout"), "timeout"))
            rc.timeout = *d;
    if (!require(arg, ptr, "run", "until",
                 "rolloutComplete NS/NAME, upgradeComplete NAME, podsReady N or time T"))
        return false;
    const auto up = child(ptr, "until");
    auto text = str(arg["until"], up, "until");
    if (!text)
        return false;
    const auto space = text->find(' ');
    const std::string what = text->substr(0, space);
    const std::string rest = space == std::string::npos ? "" : text->substr(space + 1);
    const std::string expected =
        "until must be one of: rolloutComplete NS/NAME, upgradeComplete NAME, podsReady N, time T; got \"" +
        *text + "\"";
    if (what == "rolloutComplete") {
        rc.kind = RunConditionKind::RolloutComplete;
        if (auto r = daemonSetRef(Json(rest), up, "rolloutComplete"))
            rc.daemonSet = *r;
    } else if (what == "upgradeComplete") {
        rc.kind = RunConditionKind::UpgradeComplete;
        if (rest.empty())
            error(at(up), expected);
        else if (!m_rollouts.count(rest))
            error(at(up),
                  "upgradeComplete names the rollout \"" + rest + "\", which no earlier upgrade step starts");
        else
            rc.upgrade = rest;
    } else if (what == "podsReady") {
        rc.kind = RunConditionKind::PodsReady;
        if (rest.empty() ||
            !std::all_of(rest.begin(), rest.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
            rest.size() > 9)
            error(at(up), "podsReady needs a pod count, got \"" + rest + "\"");
        else
            rc.podsReady = std::stoi(rest);
    } else if (what == "time") {
        rc.kind = RunConditionKind::Time;
        if (auto t = timePoint(Json(rest), up, "run until time"))
            rc.time = *t;
    } else {
        error(at(up), expected);
    }
    return true;
}

bool Checker::patchStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "patch"))
        return false;
    checkKeys(arg, ptr, "patch", {"target", "type", "patch"});
    if (require(arg, ptr, "patch", "target", "KIND/NAMESPACE/NAME, or node/NAME")) {
        const auto tp = child(ptr, "target");
        if (auto s = str(arg["target"], tp, "target")) {
            std::vector<std::string> parts;
            std::size_t pos = 0;
            while (true) {
                const auto slash = s->find('/', pos);
                parts.push_back(s->substr(pos, slash - pos));
                if (slash == std::string::npos)
                    break;
                pos = slash + 1;
            }
            const KindInfo *info = parts.empty() ? nullptr : kindInfo(parts[0]);
            const bool emptyPart =
                std::any_of(parts.begin(), parts.end(), [](const auto &p) { return p.empty(); });
            if (!info) {
                error(at(tp), "target must be KIND/NAMESPACE/NAME (kind one of: daemonset, pod, replicaset, "
                              "controllerrevision) or node/NAME or namespace/NAME; got \"" +
                                  *s + "\"");
            } else if (emptyPart || parts.size() != (info->namespaced ? 3u : 2u)) {
                error(at(tp), std::string("target of a ") + info->kind + " must be " +
                                  (info->namespaced ? parts[0] + "/NAMESPACE/NAME" : parts[0] + "/NAME") +
                                  ", got \"" + *s + "\"");
            } else {
                st.targetKind = info->kind;
                st.target = info->namespaced ? ScenarioRef{parts[1], parts[2]} : ScenarioRef{"", parts[1]};
                if (st.targetKind == "DaemonSet") {
                    if (!m_daemonSets.count(st.target))
                        error(at(tp),
                              "unknown DaemonSet \"" + st.target.text() + "\" (" + known(m_daemonSets) + ")");
                    m_containers.erase(st.target);
                } else if (st.targetKind == "ReplicaSet" && !m_replicaSets.count(st.target)) {
                    error(at(tp),
                          "unknown ReplicaSet \"" + st.target.text() + "\" (" + known(m_replicaSets) + ")");
                } else if (st.targetKind == "Node" && !m_nodes.count(st.target.name)) {
                    error(at(tp), "unknown node \"" + st.target.name + "\"");
                }
            }
        }
    }
    st.patchType = "strategic";
    if (arg.contains("type"))
        if (auto s = str(arg["type"], child(ptr, "type"), "type")) {
            if (*s != "merge" && *s != "json" && *s != "strategic")
                error(at(child(ptr, "type")),
                      "patch type must be merge, json or strategic, got \"" + *s + "\"");
            st.patchType = *s;
        }
    if (require(arg, ptr, "patch", "patch", "the patch document")) {
        const Json &p = arg["patch"];
        const auto pp = child(ptr, "patch");
        if (st.patchType == "json") {
            if (!p.is_array()) {
                error(at(pp), "a json patch must be a list of operations, got " + typeName(p));
            } else {
                for (std::size_t i = 0; i < p.size(); ++i) {
                    const auto op = child(pp, i);
                    if (!expectMap(p[i], op, "a json patch operation"))
                        continue;
                    checkKeys(p[i], op, "a json patch operation", {"op", "path", "value", "from"});
                    if (require(p[i], op, "a json patch operation", "op",
                                "add, remove, replace, move, copy or test"))
                        if (auto o = str(p[i]["op"], child(op, "op"), "op")) {
                            static const std::set<std::string> ops = {"add",  "remove", "replace",
                                                                      "move", "copy",   "test"};
                            if (!ops.count(*o))
                                error(at(child(op, "op")),
                                      "op must be add, remove, replace, move, copy or test, got \"" + *o +
                                          "\"");
                            else if ((*o == "add" || *o == "replace" || *o == "test") &&
                                     !p[i].contains("value"))
                                error(at(op), "a json patch " + *o + " operation needs \"value\"");
                            else if ((*o == "move" || *o == "copy") && !p[i].contains("from"))
                                error(at(op), "a json patch " + *o + " operation needs \"from\"");
                        }
                    if (require(p[i], op, "a json patch operation", "path",
                                "a JSON pointer such as /spec/minReadySeconds"))
                        if (auto path = str(p[i]["path"], child(op, "path"), "path"))
                            if (!path->empty() && (*path)[0] != '/')
                                error(at(child(op, "path")),
                                      "path must be a JSON pointer starting with /, got \"" + *path + "\"");
                }
            }
        } else if (!p.is_object()) {
            error(at(pp), "a " + st.patchType + " patch must be a map, got " + typeName(p));
        }
        st.patch = p;
    }
    return true;
}

bool Checker::deleteStep(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "delete"))
        return false;
    if (arg.contains("pods")) {
        checkKeys(arg, ptr, "delete (with a pod selector)", {"pods"});
        st.targetKind = "Pod";
        st.pods = podSelector(arg["pods"], child(ptr, "pods"), "pods (a pod selector)", false);
        return true;
    }
    checkKeys(arg, ptr, "delete", {"kind", "name", "namespace", "pods"});
    const KindInfo *info = nullptr;
    if (require(arg, ptr, "delete", "kind", kindList() + "; or pods: <pod selector>"))
        if (auto k = str(arg["kind"], child(ptr, "kind"), "kind")) {
            info = kindInfo(*k);
            if (!info)
                error(at(child(ptr, "kind")),
                      "unsupported kind \"" + *k + "\" (expected one of: " + kindList() + ")");
        }
    if (require(arg, ptr, "delete", "name", "the object's name"))
        if (auto n = nonEmpty(arg["name"], child(ptr, "name"), "name"))
            st.target.name = *n;
    if (arg.contains("namespace")) {
        if (auto n = nonEmpty(arg["namespace"], child(ptr, "namespace"), "namespace"))
            st.target.namespace_ = *n;
        if (info && !info->namespaced)
            error(atKey(child(ptr, "namespace")), std::string("a ") + info->kind + " has no namespace");
    } else if (info && info->namespaced) {
        st.target.namespace_ = "default";
    }
    if (!info || st.target.name.empty())
        return false;
    st.targetKind = info->kind;
    if (st.targetKind == "DaemonSet" && !m_daemonSets.count(st.target))
        error(at(child(ptr, "name")),
              "unknown DaemonSet \"" + st.target.text() + "\" (" + known(m_daemonSets) + ")");
    else if (st.targetKind == "ReplicaSet" && !m_replicaSets.count(st.target))
        error(at(child(ptr, "name")),
              "unknown ReplicaSet \"" + st.target.text() + "\" (" + known(m_replicaSets) + ")");
    else if (st.targetKind == "Node" && !m_nodes.count(st.target.name))
        error(at(child(ptr, "name")), "unknown node \"" + st.target.name + "\"");
    return true;
}

bool Checker::upgradeStep(const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "upgrade"))
        return false;
    const std::size_t before = errors.size();
    // The step is the rollout's name and its spec. The spec's fields, their values and bounds
    // are the NodeUpgradeRollout schema's (api::NodeUpgradeRolloutSpec), checked below by the
    // schema itself; only a misspelt key is caught here, against the schema's own field list.
    std::vector<std::string> keys = api::NodeUpgradeRolloutSpec::fieldNames();
    keys.insert(keys.begin(), "name");
    checkKeys(arg, ptr, "upgrade", keys);
    if (require(arg, ptr, "upgrade", "name", "the rollout's name"))
        nonEmpty(arg["name"], child(ptr, "name"), "name");
    if (require(arg, ptr, "upgrade", "targetVersion", "e.g. v2.0.0"))
        nonEmpty(arg["targetVersion"], child(ptr, "targetVersion"), "targetVersion");
    if (arg.contains("timeouts") && arg["timeouts"].is_object())
        checkKeys(arg["timeouts"], child(ptr, "timeouts"), "timeouts",
                  api::NodeUpgradeRolloutSpec::timeoutFieldNames());
    if (errors.size() == before) {
        // The schema's reader decides (types, enumerations, bounds), as the API server's and
        // the controller's do when the step runs; its first complaint is reported at the field
        // it names.
        Json spec = arg;
        spec.erase("name");
        if (auto parsed = api::NodeUpgradeRolloutSpec::fromJson(spec); !parsed) {
            api::SpecError e = api::splitSpecError(parsed.error().message);
            if (e.field.rfind("spec.", 0) == 0) // the step holds the spec's fields
                e.field.erase(0, 5);
            std::string where = ptr;
            for (std::size_t i = 0; !e.field.empty() && i <= e.field.size();) {
                const auto dot = e.field.find('.', i);
                const std::string key =
                    e.field.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
                if (!spec.contains(key) && where == ptr)
                    break;
                where = child(where, key);
                if (dot == std::string::npos)
                    break;
                i = dot + 1;
            }
            error(at(where), "upgrade: " + parsed.error().message);
        }
    }
    return errors.size() == before;
}

bool Checker::upgradeControlStep(const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "upgradeControl"))
        return false;
    const std::size_t before = errors.size();
    checkKeys(arg, ptr, "upgradeControl", {"name", "action", "node", "note"});
    if (require(arg, ptr, "upgradeControl", "name", "the rollout's name"))
        if (auto n = nonEmpty(arg["name"], child(ptr, "name"), "name"); n && !m_rollouts.count(*n))
            error(at(child(ptr, "name")),
                  "upgradeControl names the rollout \"" + *n + "\", which no earlier upgrade step starts");
    if (require(arg, ptr, "upgradeControl", "action",
                "pause, resume, abort, acknowledge, hold, release, skip, retry or force"))
        if (auto a = str(arg["action"], child(ptr, "action"), "action")) {
            static const std::set<std::string> rollout = {"pause", "resume", "abort", "acknowledge"};
            static const std::set<std::string> perNode = {"hold", "release", "skip", "retry", "force"};
            if (!rollout.count(*a) && !perNode.count(*a))
                error(at(child(ptr, "action")),
                      "action must be pause, resume, abort, acknowledge, hold, release, skip, "
                      "retry or force; got \"" +
                          *a + "\"");
            else if (perNode.count(*a) && !arg.contains("node"))
                error(at(ptr), "action " + *a + " needs node: NAME");
            else if (rollout.count(*a) && arg.contains("node") && *a != "abort")
                error(atKey(child(ptr, "node")),
                      "action " + *a + " applies to the whole rollout; remove node");
        }
    if (arg.contains("node"))
        nodeRef(arg["node"], child(ptr, "node"), "node");
    if (arg.contains("note"))
        str(arg["note"], child(ptr, "note"), "note");
    return errors.size() == before;
}

} // namespace scenario::scenariocheck
