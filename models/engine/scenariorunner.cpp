#include "models/engine/scenariorunner.h"

#include "models/engine/nodeupgraderuntime.h"
#include "models/engine/scenarioparser.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

namespace engine {

using kube::Json;
using OJson = nlohmann::ordered_json; // the trace keeps the documented key order

struct ScenarioRunner::State
{
    ScenarioRunOptions options;
    std::vector<std::string> trace;
    std::vector<EmittedEvent> events; // every event so far, in emission order
    std::optional<std::string> lastRollback;
    std::optional<std::pair<int, int>> lastSync; // creates, deletes
    ScenarioRunResult result;
    // The cluster's node-upgrade runtime, started before step 1 when the scenario uses it (so
    // its controller passes from the same instant on as in tests/upgrade's driver); null else.
    NodeUpgradeRuntime *upgrade = nullptr;
};

namespace {

// A step that could not complete: exit 1 for runtime failures, 2 for input the API rejected.
struct StepError
{
    StepError(int code, std::string text, std::string at = {})
        : exitCode(code), message(std::move(text)), where(std::move(at))
    {}
    int exitCode = 1;
    std::string message;
    std::string where; // a position inside the step (an apply's manifest), if more precise
};

int exitCodeFor(const kube::ApiStatus &e)
{
    return e.reason == "Invalid" || e.reason == "BadRequest" ? 2 : 1;
}

std::string stepName(const ScenarioStep &st, const std::string &where = {})
{
    return (where.empty() ? st.where : where) + ": step " + std::to_string(st.index) + " (" + st.action + ")";
}

const char *boolText(bool b)
{
    return b ? "true" : "false";
}

std::string revisionHash(const kube::ControllerRevision &cr)
{
    const auto h = cr.metadata.label(kube::kRevisionHashLabel);
    return h;
}

std::string revisionImage(const kube::ControllerRevision &cr)
{
    const Json data = Json::parse(cr.data, nullptr, false);
    if (data.is_discarded())
        return {};
    const Json::json_pointer p("/spec/template/spec/containers/0/image");
    return data.contains(p) && data[p].is_string() ? data[p].get<std::string>() : std::string();
}

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

OJson eventJson(const EmittedEvent &e)
{
    OJson j;
    j["time"] = kube::formatRfc3339(e.time);
    j["object"] = e.object;
    j["type"] = e.type;
    j["reason"] = e.reason;
    j["message"] = e.message;
    return j;
}

template <typename T> bool byNamespaceName(const T *a, const T *b)
{
    if (a->metadata.namespace_ != b->metadata.namespace_)
        return a->metadata.namespace_ < b->metadata.namespace_;
    return a->metadata.name < b->metadata.name;
}

OJson stateJson(Cluster &cluster, const NodeUpgradeRuntime *upgrade)
{
    OJson state;
    auto dss = cluster.daemonSets();
    std::sort(dss.begin(), dss.end(), byNamespaceName<kube::DaemonSet>);
    OJson dsList = OJson::array();
    for (const auto *ds : dss) {
        OJson j;
        j["namespace"] = ds->metadata.namespace_;
        j["name"] = ds->metadata.name;
        j["generation"] = ds->metadata.generation;
        j["observedGeneration"] = ds->status.observedGeneration;
        j["updateStrategy"] = ds->updateStrategyType();
        j["paused"] = Cluster::isPaused(*ds);
        j["currentRevision"] = cluster.currentRevisionName(ds->metadata.namespace_, ds->metadata.name);
        j["desiredNumberScheduled"] = ds->status.desiredNumberScheduled;
        j["currentNumberScheduled"] = ds->status.currentNumberScheduled;
        j["updatedNumberScheduled"] = ds->status.updatedNumberScheduled;
        j["numberReady"] = ds->status.numberReady;
        j["numberAvailable"] = ds->status.numberAvailable;
        j["numberUnavailable"] = ds->status.numberUnavailable;
        j["numberMisscheduled"] = ds->status.numberMisscheduled;
        j["collisionCount"] = ds->status.collisionCount ? OJson(*ds->status.collisionCount) : OJson();
        dsList.push_back(std::move(j));
    }
    state["daemonsets"] = std::move(dsList);

    auto crs = cluster.controllerRevisions();
    std::sort(crs.begin(), crs.end(), byNamespaceName<kube::ControllerRevision>);
    OJson crList = OJson::array();
    for (const auto *cr : crs) {
        OJson j;
        const auto *owner = cr->metadata.controllerRef();
        const std::string dsName = owner && owner->kind == "DaemonSet" ? owner->name : std::string();
        j["daemonset"] = dsName.empty() ? std::string() : cr->metadata.namespace_ + "/" + dsName;
        j["name"] = cr->metadata.name;
        j["revision"] = cr->revision;
        j["hash"] = revisionHash(*cr);
        j["current"] = !dsName.empty() &&
                       cluster.currentRevisionName(cr->metadata.namespace_, dsName) == cr->metadata.name;
        crList.push_back(std::move(j));
    }
    state["revisions"] = std::move(crList);

    auto pods = cluster.pods();
    std::sort(pods.begin(), pods.end(), byNamespaceName<kube::Pod>);
    OJson podList = OJson::array();
    for (const auto *p : pods) {
        OJson j;
        j["namespace"] = p->metadata.namespace_;
        j["name"] = p->metadata.name;
        j["node"] = p->node();
        j["hash"] = p->metadata.label(kube::kRevisionHashLabel);
        j["phase"] = p->phase;
        j["ready"] = p->ready;
        j["deleting"] = p->isDeleting();
        podList.push_back(std::move(j));
    }
    state["pods"] = std::move(podList);

    auto nodes = cluster.nodes();
    std::sort(nodes.begin(), nodes.end(),
              [](const kube::Node *a, const kube::Node *b) { return a->metadata.name < b->metadata.name; });
    OJson nodeList = OJson::array();
    for (const auto *n : nodes) {
        OJson j;
        j["name"] = n->metadata.name;
        j["agentVersion"] = n->kubeletVersion;
        j["ready"] = n->isReady();
        j["unschedulable"] = n->unschedulable;
        if (upgrade) {
            j["upgradePhase"] = upgrade->nodePhase(n->metadata.name);
        } else {
            const auto phase = n->metadata.annotation("upgrade/phase");
            j["upgradePhase"] = phase.empty() ? std::string("UpToDate") : phase;
        }
        nodeList.push_back(std::move(j));
    }
    state["nodes"] = std::move(nodeList);
    return state;
}

// Expectation checks collect every mismatch of one expect step.
class ExpectChecker
{
public:
    ExpectChecker(Cluster &cluster, const ScenarioRunner::State &state, const ScenarioStep &step)
        : m_cluster(cluster), m_state(state), m_step(step)
    {}

    std::vector<std::string> failures;

    void check();

private:
    Cluster &m_cluster;
    const ScenarioRunner::State &m_state;
    const ScenarioStep &m_step;

    void fail(const std::string &where, const std::string &path, const std::string &expected,
              const std::string &actual)
    {
        failures.push_back(where + ": step " + std::to_string(m_step.index) + " (" + m_step.action +
                           ") failed: " + path + ": expected " + expected + ", got " + actual);
    }
    static std::string quoted(const std::string &s) { return Json(s).dump(); }

    std::string currentHash(const ScenarioRef &ds) const
    {
        const auto name = m_cluster.currentRevisionName(ds.namespace_, ds.name);
        for (const auto *cr : m_cluster.controllerRevisionsOf(ds.namespace_, ds.name))
            if (cr->metadata.name == name)
                return revisionHash(*cr);
        return {};
    }

    void checkSync();
    void checkDaemonSets();
    void checkRevisions();
    void checkPods();
    void checkEvents();
    void checkHistory();
    void checkUpgrade();
};

void ExpectChecker::check()
{
    checkSync();
    checkDaemonSets();
    checkRevisions();
    checkPods();
    const auto &ex = m_step.expect;
    if (ex.rollback) {
        const std::string actual =
            m_state.lastRollback ? quoted(*m_state.lastRollback) : "no rollback so far";
        if (!m_state.lastRollback || *m_state.lastRollback != *ex.rollback)
            fail(ex.rollbackWhere, "expect.rollback", quoted(*ex.rollback), actual);
    }
    checkEvents();
    checkHistory();
    checkUpgrade();
}

void ExpectChecker::checkUpgrade()
{
    const auto &ex = m_step.expect;
    if (ex.expectNode.empty() && ex.expectUpgrade.empty())
        return;
    const std::string prefix = ": step " + std::to_string(m_step.index) + " (" + m_step.action + ") failed: ";
    if (!m_state.upgrade) {
        failures.push_back((ex.expectNodeWhere.empty() ? ex.expectUpgradeWhere : ex.expectNodeWhere) +
                           prefix + "no node-agent upgrade has started");
        return;
    }
    // The runtime names paths "node/NAME.field"; the runner's are "expect.node.NAME.field".
    auto path = [](std::string m) {
        if (const auto slash = m.find('/'); slash != std::string::npos)
            m[slash] = '.';
        return "expect." + m;
    };
    if (!ex.expectNode.empty())
        for (const auto &m : m_state.upgrade->checkExpectNode(ex.expectNode))
            failures.push_back(ex.expectNodeWhere + prefix + path(m));
    if (!ex.expectUpgrade.empty())
        for (const auto &m : m_state.upgrade->checkExpectUpgrade(ex.expectUpgrade))
            failures.push_back(ex.expectUpgradeWhere + prefix + path(m));
}

void ExpectChecker::checkSync()
{
    const auto &ex = m_step.expect;
    if (!ex.syncCreates && !ex.syncDeletes)
        return;
    if (!m_state.lastSync) {
        fail(ex.syncWhere, "expect.sync", "a sync", "no sync so far");
        return;
    }
    if (ex.syncCreates && *ex.syncCreates != m_state.lastSync->first)
        fail(ex.syncWhere, "expect.sync.creates", std::to_string(*ex.syncCreates),
             std::to_string(m_state.lastSync->first));
    if (ex.syncDeletes && *ex.syncDeletes != m_state.lastSync->second)
        fail(ex.syncWhere, "expect.sync.deletes", std::to_string(*ex.syncDeletes),
             std::to_string(m_state.lastSync->second));
}

void ExpectChecker::checkDaemonSets()
{
    for (const auto &[ref, fields] : m_step.expect.daemonSets) {
        const auto where = m_step.expect.daemonSetWhere.at(ref);
        const kube::DaemonSet *ds = m_cluster.daemonSet(ref.namespace_, ref.name);
        for (const auto &[field, expected] : fields) {
            const std::string path = "expect.daemonset." + ref.text() + "." + field;
            if (field == "exists") {
                if (expected.get<bool>() != (ds != nullptr))
                    fail(where, path, expected.dump(), boolText(ds != nullptr));
                continue;
            }
            if (!ds) {
                fail(where, path, expected.dump(), "no such DaemonSet");
                continue;
            }
            const auto &s = ds->status;
            Json actual;
            if (field == "desiredNumberScheduled")
                actual = s.desiredNumberScheduled;
            else if (field == "currentNumberScheduled")
                actual = s.currentNumberScheduled;
            else if (field == "numberMisscheduled")
                actual = s.numberMisscheduled;
            else if (field == "numberReady")
                actual = s.numberReady;
            else if (field == "updatedNumberScheduled")
                actual = s.updatedNumberScheduled;
            else if (field == "numberAvailable")
                actual = s.numberAvailable;
            else if (field == "numberUnavailable")
                actual = s.numberUnavailable;
            else if (field == "observedGeneration")
                actual = s.observedGeneration;
            else if (field == "generation")
                actual = ds->metadata.generation;
            else if (field == "templateGeneration")
                actual = ds->templateGeneration() ? Json(*ds->templateGeneration()) : Json();
            else if (field == "collisionCount")
                actual = s.collisionCount ? Json(*s.collisionCount) : Json();
            else if (field == "paused")
                actual = Cluster::isPaused(*ds);
            else if (field == "updateStrategy")
                actual = ds->updateStrategyType();
            else if (field == "rolloutComplete")
                actual = m_cluster.rolloutComplete(ref.namespace_, ref.name);
            else if (field == "rolloutStatus") {
                auto st = m_cluster.rolloutStatusOf(ref.namespace_, ref.name);
                actual = st ? st->message : st.error().message;
            }
            if (actual != expected)
                fail(where, path, expected.dump(), actual.dump());
        }
    }
}

void ExpectChecker::checkRevisions()
{
    for (const auto &[ref, expected] : m_step.expect.revisions) {
        const auto where = m_step.expect.revisionsWhere.at(ref);
        const auto crs = m_cluster.controllerRevisionsOf(ref.namespace_, ref.name);
        const auto current = m_cluster.currentRevisionName(ref.namespace_, ref.name);
        auto describe = [&] {
            std::string out = "[";
            for (const auto *cr : crs)
                out += (out.size() > 1 ? ", " : "") + std::string("{revision: ") +
                       std::to_string(cr->revision) + ", name: " + cr->metadata.name +
                       ", image: " + revisionImage(*cr) +
                       (cr->metadata.name == current ? ", current: true" : "") + "}";
            return out + "]";
        };
        const std::string base = "expect.revisions." + ref.text();
        if (crs.size() != expected.size()) {
            fail(where, base, std::to_string(expected.size()) + " revisions",
                 std::to_string(crs.size()) + " revisions " + describe());
            continue;
        }
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const auto &e = expected[i];
            const auto &cr = *crs[i];
            const std::string path = base + "[" + std::to_string(i) + "]";
            if (e.revision && *e.revision != cr.revision)
                fail(e.where, path + ".revision", std::to_string(*e.revision),
                     std::to_string(cr.revision) + " (all: " + describe() + ")");
            if (e.image && *e.image != revisionImage(cr))
                fail(e.where, path + ".image", quoted(*e.image), quoted(revisionImage(cr)));
            if (e.name && *e.name != cr.metadata.name)
                fail(e.where, path + ".name", quoted(*e.name), quoted(cr.metadata.name));
            if (e.hash && *e.hash != revisionHash(cr))
                fail(e.where, path + ".hash", quoted(*e.hash), quoted(revisionHash(cr)));
            if (e.changeCause) {
                auto cause = cr.metadata.annotation(kube::kChangeCauseAnnotation);
                if (cause.empty())
                    cause = "<none>";
                if (cause != *e.changeCause)
                    fail(e.where, path + ".changeCause", quoted(*e.changeCause), quoted(cause));
            }
            if (e.current && *e.current != (cr.metadata.name == current))
                fail(e.where, path + ".current", boolText(*e.current), boolText(cr.metadata.name == current));
        }
    }
}

void ExpectChecker::checkPods()
{
    for (const auto &e : m_step.expect.pods) {
        const auto pods = m_cluster.selectPods(e.selector);
        std::string what = e.selector.all                  ? std::string("all")
                           : !e.selector.daemonSet.empty() ? "daemonset " + e.selector.daemonSet
                                                           : "replicaset " + e.selector.replicaSet;
        const std::string base = "expect.pods(" + what + ")";
        auto names = [&] {
            std::string out;
            for (const auto *p : pods)
                out += (out.empty() ? "" : ", ") + p->metadata.name + "@" + p->node() +
                       (p->ready ? "(ready)" : "");
            return "[" + out + "]";
        };
        if (e.count && *e.count != static_cast<int>(pods.size()))
            fail(e.where, base + ".count", std::to_string(*e.count),
                 std::to_string(pods.size()) + " " + names());
        if (e.ready) {
            const int ready =
                static_cast<int>(std::count_if(pods.begin(), pods.end(), [](auto *p) { return p->ready; }));
            if (ready != *e.ready)
                fail(e.where, base + ".ready", std::to_string(*e.ready),
                     std::to_string(ready) + " " + names());
        }
        if (e.onCurrentRevision) {
            const auto slash = e.selector.daemonSet.find('/');
            const auto hash =
                currentHash({e.selector.daemonSet.substr(0, slash), e.selector.daemonSet.substr(slash + 1)});
            const int n =
                hash.empty() ? 0 : static_cast<int>(std::count_if(pods.begin(), pods.end(), [&](auto *p) {
                    return p->metadata.label(kube::kRevisionHashLabel) == hash;
                }));
            if (n != *e.onCurrentRevision)
                fail(e.where, base + ".onCurrentRevision", std::to_string(*e.onCurrentRevision),
                     std::to_string(n) + " (current hash " + (hash.empty() ? "<none>" : hash) + ")");
        }
        for (const auto &[key, value] : e.labels) {
            for (const auto *p : pods) {
                const auto it = p->metadata.labels.find(key);
                const std::string actual =
                    it == p->metadata.labels.end() ? "no such label" : quoted(it->second);
                if (it == p->metadata.labels.end() || it->second != value) {
                    fail(e.where, base + ".labels." + key + " of pod " + p->metadata.name, quoted(value),
                         actual);
                    break;
                }
            }
        }
    }
}

bool eventMatches(const ScenarioExpectEvent &e, const EmittedEvent &ev)
{
    return (!e.reason || *e.reason == ev.reason) && (!e.object || *e.object == ev.object) &&
           (!e.type || *e.type == ev.type) &&
           (!e.message || ev.message.find(*e.message) != std::string::npos);
}

std::string describeEvent(const ScenarioExpectEvent &e)
{
    std::string out;
    auto add = [&](const char *k, const std::optional<std::string> &v) {
        if (v)
            out += (out.empty() ? "" : ", ") + std::string(k) + ": " + *v;
    };
    add("reason", e.reason);
    add("object", e.object);
    add("type", e.type);
    add("message", e.message);
    return "{" + out + "}";
}

void ExpectChecker::checkEvents()
{
    const auto &evs = m_state.events;
    for (const auto &e : m_step.expect.eventsContain) {
        if (std::none_of(evs.begin(), evs.end(), [&](const auto &ev) { return eventMatches(e, ev); })) {
            std::string seen;
            std::set<std::string> reasons;
            for (const auto &ev : evs)
                reasons.insert(ev.reason + " " + ev.object);
            for (const auto &r : reasons)
                seen += (seen.empty() ? "" : "; ") + r;
            fail(e.where, "expect.events.contains", "an event " + describeEvent(e),
                 "none among " + std::to_string(evs.size()) + " events (" + seen + ")");
        }
    }
    for (const auto &e : m_step.expect.eventsNotContain) {
        auto it = std::find_if(evs.begin(), evs.end(), [&](const auto &ev) { return eventMatches(e, ev); });
        if (it != evs.end())
            fail(e.where, "expect.events.notContains", "no event " + describeEvent(e),
                 it->reason + " " + it->object + " at " + kube::formatRfc3339(it->time) + ": " + it->message);
    }
}

void ExpectChecker::checkHistory()
{
    for (const auto &h : m_step.expect.history) {
        auto text = m_cluster.historyText(h.daemonSet.namespace_, h.daemonSet.name, h.revision);
        const std::string actual = text ? *text : text.error().message;
        if (actual != h.output)
            fail(h.where,
                 "expect.history." + h.daemonSet.text() +
                     (h.revision ? " --revision=" + std::to_string(*h.revision) : ""),
                 "\n" + h.output + "\n(end)", "\n" + actual + "\n(end)");
    }
}

std::optional<StepError> containerImagePatch(Cluster &cluster, const ScenarioStep &st, Json &patch)
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

kube::Result<std::vector<std::string>> podKeys(Cluster &cluster, const PodSelector &selector)
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

// Executes one step (not expect). Returns the error that stops it, if any.
std::optional<StepError> execute(Cluster &cluster, const ScenarioStep &st, ScenarioRunner::State &state,
                                 OJson &record)
{
    auto apiError = [&](const kube::ApiStatus &e) { return StepError{exitCodeFor(e), e.message}; };
    auto check = [&](const kube::Result<void> &r) -> std::optional<StepError> {
        if (r.ok())
            return std::nullopt;
        return apiError(r.error());
    };
    switch (st.kind) {
    case StepKind::Sync: {
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
    case StepKind::Advance:
        cluster.advance(st.duration);
        return std::nullopt;
    case StepKind::SetTime:
        cluster.setTime(st.time);
        return std::nullopt;
    case StepKind::Run: {
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
    case StepKind::Apply:
        for (const auto &m : st.manifests) {
            auto r = cluster.apply(m.object);
            if (!r)
                return StepError{exitCodeFor(r.error()), r.error().message, m.where};
        }
        return std::nullopt;
    case StepKind::Patch: {
        const api::PatchType type = st.patchType == "merge"  ? api::PatchType::Merge
                                    : st.patchType == "json" ? api::PatchType::Json
                                                             : api::PatchType::Strategic;
        auto r = cluster.patch(kindOf(st.targetKind), st.target.namespace_, st.target.name, type, st.patch);
        if (!r)
            return apiError(r.error());
        return std::nullopt;
    }
    case StepKind::SetImage: {
        Json patch;
        if (auto e = containerImagePatch(cluster, st, patch))
            return e;
        auto r = cluster.patch(api::Kind::DaemonSet, st.target.namespace_, st.target.name,
                               api::PatchType::Strategic, patch);
        if (!r)
            return apiError(r.error());
        return std::nullopt;
    }
    case StepKind::SetStrategy: {
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
        auto r = cluster.patch(api::Kind::DaemonSet, st.target.namespace_, st.target.name,
                               api::PatchType::Merge, {{"spec", {{"updateStrategy", strategy}}}});
        if (!r)
            return apiError(r.error());
        return std::nullopt;
    }
    case StepKind::Delete: {
        if (st.pods) {
            auto keys = podKeys(cluster, *st.pods);
            if (!keys)
                return apiError(keys.error());
            for (const auto &key : *keys) {
                const auto slash = key.find('/');
                if (auto e =
                        check(cluster.remove(api::Kind::Pod, key.substr(0, slash), key.substr(slash + 1))))
                    return e;
            }
            return std::nullopt;
        }
        return check(cluster.remove(kindOf(st.targetKind), st.target.namespace_, st.target.name));
    }
    case StepKind::MarkReady:
    case StepKind::MarkNotReady: {
        auto keys = podKeys(cluster, *st.pods);
        if (!keys)
            return apiError(keys.error());
        return check(cluster.markReady(*keys, st.kind == StepKind::MarkReady));
    }
    case StepKind::SetPodLabels: {
        auto keys = podKeys(cluster, *st.pods);
        if (!keys)
            return apiError(keys.error());
        return check(cluster.setPodLabels(*keys, st.labels));
    }
    case StepKind::SetPodPhase: {
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
    case StepKind::AddNodes:
        for (const auto &spec : st.nodes)
            for (const auto &name : spec.names)
                if (auto e = check(cluster.addNode(makeNode(spec, name, cluster.now()))))
                    return e;
        return std::nullopt;
    case StepKind::TaintNode:
        return check(cluster.taint(st.node, st.taint));
    case StepKind::UntaintNode: {
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
        auto r = cluster.patch(api::Kind::Node, "", st.node, api::PatchType::Merge,
                               {{"spec", {{"taints", taints}}}});
        if (!r)
            return apiError(r.error());
        return std::nullopt;
    }
    case StepKind::Cordon:
        return check(cluster.cordon(st.node));
    case StepKind::Uncordon:
        return check(cluster.uncordon(st.node));
    case StepKind::Fault: {
        const auto kind = faultKindFromString(st.faultKind);
        if (!kind)
            return StepError{2, "unknown fault kind \"" + st.faultKind + "\""};
        return check(cluster.fault(st.node, *kind));
    }
    case StepKind::Rollback: {
        const auto outcome = cluster.rollback(st.target.namespace_, st.target.name, st.toRevision);
        state.lastRollback = outcome.message;
        record["rollback"] = outcome.message;
        return std::nullopt;
    }
    case StepKind::Pause:
        return check(cluster.pause(st.target.namespace_, st.target.name));
    case StepKind::Resume:
        return check(cluster.resume(st.target.namespace_, st.target.name));
    case StepKind::Upgrade:
        // A rollout the API server refuses (e.g. an invalid spec) is invalid input.
        if (auto r = cluster.nodeUpgrade().upgradeStep(st.upgradeArgs); !r)
            return StepError{2, r.error().message};
        return std::nullopt;
    case StepKind::UpgradeControl:
        if (auto r = cluster.nodeUpgrade().upgradeControlStep(st.upgradeArgs); !r)
            return StepError{r.error().reason == "NotFound" ? 2 : 1, r.error().message};
        return std::nullopt;
    case StepKind::RestartController:
        cluster.nodeUpgrade().restartController();
        return std::nullopt;
    case StepKind::RestartNode:
        if (auto r = cluster.nodeUpgrade().restartNodeStep(st.upgradeArgs); !r)
            return StepError{r.error().reason == "NotFound" ? 2 : 1, r.error().message};
        return std::nullopt;
    case StepKind::Expect:
        return std::nullopt;
    }
    return std::nullopt;
}

bool usesNodeUpgrade(const Scenario &scenario)
{
    return std::any_of(scenario.steps.begin(), scenario.steps.end(), [](const ScenarioStep &st) {
        return st.kind == StepKind::Upgrade || st.kind == StepKind::UpgradeControl ||
               st.kind == StepKind::RestartController || st.kind == StepKind::RestartNode ||
               (st.kind == StepKind::Run && st.run.kind == RunConditionKind::UpgradeComplete) ||
               !st.expect.expectNode.empty() || !st.expect.expectUpgrade.empty();
    });
}

} // namespace

ScenarioRunner::ScenarioRunner(Scenario scenario)
    : m_scenario(std::move(scenario)), m_state(std::make_unique<State>())
{}

ScenarioRunner::~ScenarioRunner() = default;

NodeUpgradeRuntime *ScenarioRunner::upgradeRuntime()
{
    return m_cluster ? m_cluster->nodeUpgradeIfStarted() : nullptr;
}

ClusterOptions ScenarioRunner::clusterOptions(const Scenario &scenario)
{
    ClusterOptions o;
    o.seed = scenario.seed;
    o.mode = scenario.mode == ScenarioMode::Stepped ? Mode::Stepped : Mode::Continuous;
    o.start = scenario.start;
    const auto &k = scenario.kubelet;
    if (k.startDelay)
        o.kubelet.startDelay = *k.startDelay;
    if (k.readyDelay)
        o.kubelet.readyDelay = *k.readyDelay;
    if (k.terminationGrace)
        o.kubelet.terminationGrace = *k.terminationGrace;
    if (k.jitter)
        o.kubelet.jitter = *k.jitter;
    o.kubelet.failingImages = k.failingImages;
    return o;
}

ScenarioRunResult ScenarioRunner::run(const ScenarioRunOptions &options)
{
    State &state = *m_state;
    state.options = options;
    m_cluster = std::make_unique<Cluster>(clusterOptions(m_scenario));
    Cluster &cluster = *m_cluster;
    if (options.onClusterCreated)
        options.onClusterCreated(cluster);
    auto &result = state.result;

    // Without a trace file the step lines are never written, and the emitted events are only
    // kept for `expect.events`: at cluster scale both would cost more than the cluster itself.
    const bool tracing = !options.tracePath.empty();
    const bool keepEvents =
        options.checkExpects &&
        std::any_of(m_scenario.steps.begin(), m_scenario.steps.end(), [](const ScenarioStep &st) {
            return !st.expect.eventsContain.empty() || !st.expect.eventsNotContain.empty();
        });
    auto finishRecord = [&](OJson &record) {
        OJson events = OJson::array();
        // Rollout events are recorded by the cluster like every other kind's, in emission order;
        // the runtime's own copy is drained only so that it does not grow unread.
        std::vector<EmittedEvent> emitted = cluster.takeEvents();
        if (state.upgrade)
            (void)state.upgrade->takeRolloutEvents();
        if (tracing)
            for (const auto &e : emitted)
                events.push_back(eventJson(e));
        if (keepEvents)
            state.events.insert(state.events.end(), std::make_move_iterator(emitted.begin()),
                                std::make_move_iterator(emitted.end()));
        emitted = {};
        const auto activity = cluster.takeActivity();
        if (!tracing) {
            if (!record.contains("sync") && !activity.empty()) {
                const auto creates = std::count_if(activity.begin(), activity.end(), [](const Activity &a) {
                    return a.op == Activity::Op::Create;
                });
                state.lastSync = {static_cast<int>(creates), static_cast<int>(activity.size() - creates)};
            }
            return;
        }
        if (!record.contains("sync") && !activity.empty()) {
            OJson creates = OJson::array();
            OJson deletes = OJson::array();
            for (const auto &a : activity) {
                OJson j;
                j["time"] = kube::formatRfc3339(a.time);
                j["daemonset"] = a.daemonSet;
                if (a.op == Activity::Op::Delete)
                    j["pod"] = a.pod;
                j["node"] = a.node;
                (a.op == Activity::Op::Create ? creates : deletes).push_back(std::move(j));
            }
            state.lastSync = {static_cast<int>(creates.size()), static_cast<int>(deletes.size())};
            OJson sync;
            sync["creates"] = std::move(creates);
            sync["deletes"] = std::move(deletes);
            record["sync"] = std::move(sync);
        }
        // Fixed key order: step, action, time, sync, rollback, events, state.
        OJson line;
        for (const char *k : {"step", "action", "time", "sync"})
            if (record.contains(k))
                line[k] = record[k];
        line["rollback"] = record.contains("rollback") ? record["rollback"] : OJson();
        line["events"] = std::move(events);
        if (record.contains("failures"))
            line["failures"] = record["failures"];
        if (options.traceState)
            line["state"] = stateJson(cluster, state.upgrade);
        state.trace.push_back(line.dump());
    };

    auto writeTrace = [&]() {
        if (options.tracePath.empty())
            return;
        const std::string tmp = options.tracePath + ".tmp";
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            for (const auto &l : state.trace)
                out << l << '\n';
            out.flush();
            if (!out) {
                result.messages.push_back(options.tracePath + ": cannot write the trace");
                result.exitCode = 2; // the invocation, not the scenario, is at fault
                std::remove(tmp.c_str());
                return;
            }
        }
        if (std::rename(tmp.c_str(), options.tracePath.c_str()) != 0) {
            result.messages.push_back(options.tracePath + ": cannot write the trace");
            result.exitCode = 2; // the invocation, not the scenario, is at fault
            std::remove(tmp.c_str());
        }
    };

    // Step 0: the cluster as the file describes it.
    for (const auto &spec : m_scenario.nodes)
        for (const auto &name : spec.names) {
            auto r = cluster.addNode(makeNode(spec, name, cluster.now()));
            if (!r.ok()) {
                result.exitCode = 2;
                result.messages.push_back(spec.where + ": node " + name + ": " + r.error().message);
                return result;
            }
        }
    for (const auto &m : m_scenario.objects) {
        auto r = cluster.apply(m.object);
        if (!r) {
            result.exitCode = 2;
            result.messages.push_back(m.where + ": " + r.error().message);
            return result;
        }
    }
    if (usesNodeUpgrade(m_scenario))
        state.upgrade = &cluster.nodeUpgrade();
    {
        OJson record;
        record["step"] = 0;
        record["action"] = "cluster";
        record["time"] = kube::formatRfc3339(cluster.now());
        finishRecord(record);
    }

    for (const auto &st : m_scenario.steps) {
        OJson record;
        record["step"] = st.index;
        record["action"] = st.action;
        std::optional<StepError> error;
        if (st.kind == StepKind::Expect) {
            // Events emitted by earlier steps are all recorded already; drain before checking.
            record["time"] = kube::formatRfc3339(cluster.now());
            if (options.checkExpects) {
                ExpectChecker checker(cluster, state, st);
                checker.check();
                if (!checker.failures.empty()) {
                    record["failures"] = checker.failures;
                    finishRecord(record);
                    result.exitCode = 1;
                    result.messages.insert(result.messages.end(), checker.failures.begin(),
                                           checker.failures.end());
                    writeTrace();
                    return result;
                }
            }
            finishRecord(record);
            continue;
        }
        error = execute(cluster, st, state, record);
        record["time"] = kube::formatRfc3339(cluster.now());
        if (error) {
            const std::string message = stepName(st, error->where) + ": " + error->message;
            if (error->exitCode == 2) {
                // Invalid input: nothing is written, as if validation had caught it.
                result.exitCode = 2;
                result.messages.push_back(message);
                return result;
            }
            record["failures"] = std::vector<std::string>{message};
            finishRecord(record);
            result.messages.push_back(message);
            if (options.checkExpects) {
                result.exitCode = 1;
                writeTrace();
                return result;
            }
            continue;
        }
        finishRecord(record);
    }
    writeTrace();
    return result;
}

namespace {

struct Loaded
{
    std::unique_ptr<ScenarioRunner> runner;
    ScenarioCommandOutput failure;
};

std::string joinLines(const std::vector<std::string> &lines)
{
    std::string out;
    for (const auto &l : lines)
        out += l + "\n";
    return out;
}

// Parses and runs a scenario for the kubectl-like commands: expects are not checked.
Loaded loadAndRun(const std::string &file)
{
    Loaded l;
    auto scenario = ScenarioParser::parseFile(file);
    if (!scenario) {
        l.failure = {2, {}, scenario.error().message + "\n"};
        return l;
    }
    l.runner = std::make_unique<ScenarioRunner>(std::move(*scenario));
    ScenarioRunOptions options;
    options.checkExpects = false;
    const auto r = l.runner->run(options);
    if (r.exitCode == 2) {
        l.failure = {2, {}, joinLines(r.messages)};
        l.runner.reset();
    }
    return l;
}

} // namespace

namespace {

kube::Result<std::unique_ptr<Cluster>> runToCluster(Scenario scenario)
{
    ScenarioRunner runner(std::move(scenario));
    ScenarioRunOptions options;
    options.checkExpects = false;
    const auto r = runner.run(options);
    if (r.exitCode == 2) {
        std::string message = joinLines(r.messages);
        if (!message.empty())
            message.pop_back(); // no trailing newline in an ApiStatus message
        return kube::ApiStatus::badRequest(message);
    }
    return runner.takeCluster();
}

} // namespace

kube::Result<std::unique_ptr<Cluster>> ScenarioRunner::buildCluster(const std::string &text,
                                                                    const std::string &fileName)
{
    auto scenario = ScenarioParser::parseText(text, fileName);
    if (!scenario)
        return scenario.error();
    return runToCluster(std::move(*scenario));
}

kube::Result<std::unique_ptr<Cluster>> ScenarioRunner::buildClusterEndingAt(const std::string &text,
                                                                            const std::string &fileName,
                                                                            kube::Timestamp end)
{
    auto scenario = ScenarioParser::parseText(text, fileName);
    if (!scenario)
        return scenario.error();
    const kube::Timestamp start = scenario->start;
    auto first = runToCluster(*scenario);
    if (!first)
        return first.error();
    const kube::Duration took = (*first)->now() - start;
    first->reset(); // free the first cluster before the second is built
    // Steps that name an absolute instant (setTime, run until time T) move with the start.
    const kube::Duration shift = (end - took) - start;
    scenario->start += shift;
    for (auto &step : scenario->steps) {
        if (step.kind == StepKind::SetTime)
            step.time += shift;
        if (step.kind == StepKind::Run && step.run.kind == RunConditionKind::Time)
            step.run.time += shift;
    }
    return runToCluster(std::move(*scenario));
}

ScenarioCommandOutput ScenarioRunner::simRun(const std::string &file, const std::string &tracePath,
                                             bool traceState)
{
    auto scenario = ScenarioParser::parseFile(file);
    if (!scenario)
        return {2, {}, scenario.error().message + "\n"};
    const auto steps = scenario->steps.size();
    const auto expects = std::count_if(scenario->steps.begin(), scenario->steps.end(),
                                       [](const ScenarioStep &st) { return st.kind == StepKind::Expect; });
    const kube::Timestamp start = scenario->start;
    const std::uint64_t seed = scenario->seed;
    ScenarioRunner runner(std::move(*scenario));
    ScenarioRunOptions options;
    options.tracePath = tracePath;
    options.traceState = traceState;
    const auto r = runner.run(options);
    std::string out;
    if (r.exitCode == 0) {
        // One line on success, so that a run that did nothing is told from one that passed.
        out = file + ": " + std::to_string(steps) + (steps == 1 ? " step" : " steps") + " ran, " +
              std::to_string(expects) + (expects == 1 ? " expect" : " expects") + " held, " +
              kube::formatDuration(runner.cluster()->now() - start) + " of virtual time (seed " +
              std::to_string(seed) + ")";
        if (!tracePath.empty())
            out += "; trace in " + tracePath;
        out += "\n";
    }
    return {r.exitCode, std::move(out), joinLines(r.messages)};
}

ScenarioCommandOutput ScenarioRunner::history(const std::string &file, const std::string &ns,
                                              const std::string &name, std::optional<std::int64_t> revision)
{
    auto l = loadAndRun(file);
    if (!l.runner)
        return l.failure;
    Cluster &cluster = *l.runner->cluster();
    if (!cluster.daemonSet(ns, name))
        return {1, {}, "Error from server (NotFound): daemonsets.apps \"" + name + "\" not found\n"};
    auto text = cluster.historyText(ns, name, revision);
    if (!text)
        return {1, {}, "error: " + text.error().message + "\n"};
    return {0, *text, {}};
}

ScenarioCommandOutput ScenarioRunner::rollback(const std::string &file, const std::string &ns,
                                               const std::string &name, std::int64_t toRevision)
{
    auto l = loadAndRun(file);
    if (!l.runner)
        return l.failure;
    Cluster &cluster = *l.runner->cluster();
    if (!cluster.daemonSet(ns, name))
        return {1, {}, "Error from server (NotFound): daemonsets.apps \"" + name + "\" not found\n"};
    const auto outcome = cluster.rollback(ns, name, toRevision);
    if (!outcome.ok())
        return {1, {}, outcome.kubectlOutput(name) + "\n"};
    return {0, outcome.kubectlOutput(name) + "\n", {}};
}

} // namespace engine
