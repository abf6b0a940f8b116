// ScenarioRunner: builds the cluster, runs the steps in order (execute() in scenariosteps.cpp for
// every step but `expect`, checked here), records the JSON Lines trace and writes it; and the
// headless commands built on it (sim run, history, rollback).

#include "models/scenario/scenariorunner.h"

#include "models/kube/timeutil.h"
#include "models/scenario/scenarioparser.h"
#include "models/scenario/scenariosteps.h"
#include "models/sim/nodeupgraderuntime.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

namespace scenario {

using kube::Json;

namespace {

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

OJson eventJson(const sim::EmittedEvent &e)
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

OJson stateJson(sim::Cluster &cluster, const sim::NodeUpgradeRuntime *upgrade)
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
        j["paused"] = sim::Cluster::isPaused(*ds);
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
    ExpectChecker(sim::Cluster &cluster, const ScenarioRunner::State &state, const ScenarioStep &step)
        : m_cluster(cluster), m_state(state), m_step(step)
    {}

    std::vector<std::string> failures;

    void check();

private:
    sim::Cluster &m_cluster;
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
                actual = sim::Cluster::isPaused(*ds);
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

bool eventMatches(const ScenarioExpectEvent &e, const sim::EmittedEvent &ev)
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

bool usesNodeUpgrade(const Scenario &scenario)
{
    return std::any_of(scenario.steps.begin(), scenario.steps.end(), [](const ScenarioStep &st) {
        return st.kind == StepKind::Upgrade || st.kind == StepKind::UpgradeControl ||
               st.kind == StepKind::RestartController || st.kind == StepKind::RestartNode ||
               (st.kind == StepKind::Run && st.run.kind == RunConditionKind::UpgradeComplete) ||
               !st.expect.expectNode.empty() || !st.expect.expectUpgrade.empty();
    });
}

// Finishes every step's record: drains the events and the sync activity the step caused and, when
// tracing, keeps the trace line; writes the trace at the end.
class StepRecorder
{
public:
    StepRecorder(sim::Cluster &cluster, ScenarioRunner::State &state, bool tracing, bool keepEvents)
        : m_cluster(cluster), m_state(state), m_tracing(tracing), m_keepEvents(keepEvents)
    {}

    void finish(OJson &record);
    void writeTrace();

private:
    sim::Cluster &m_cluster;
    ScenarioRunner::State &m_state;
    const bool m_tracing;
    const bool m_keepEvents;
};

void StepRecorder::finish(OJson &record)
{
    sim::Cluster &cluster = m_cluster;
    ScenarioRunner::State &state = m_state;
    const bool tracing = m_tracing;
    const bool keepEvents = m_keepEvents;
    OJson events = OJson::array();
    // Rollout events are recorded by the cluster like every other kind's, in emission order;
    // the runtime's own copy is drained only so that it does not grow unread.
    std::vector<sim::EmittedEvent> emitted = cluster.takeEvents();
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
            const auto creates = std::count_if(activity.begin(), activity.end(), [](const sim::Activity &a) {
                return a.op == sim::Activity::Op::Create;
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
            if (a.op == sim::Activity::Op::Delete)
                j["pod"] = a.pod;
            j["node"] = a.node;
            (a.op == sim::Activity::Op::Create ? creates : deletes).push_back(std::move(j));
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
    if (state.options.traceState)
        line["state"] = stateJson(cluster, state.upgrade);
    state.trace.push_back(line.dump());
}

void StepRecorder::writeTrace()
{
    const ScenarioRunOptions &options = m_state.options;
    ScenarioRunResult &result = m_state.result;
    if (options.tracePath.empty())
        return;
    const std::string tmp = options.tracePath + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        for (const auto &l : m_state.trace)
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
}

// Step 0: the cluster as the file describes it. False when the API server rejects a node or an
// object (the result says which).
bool addScenarioCluster(sim::Cluster &cluster, const Scenario &scenario, ScenarioRunResult &result)
{
    for (const auto &spec : scenario.nodes)
        for (const auto &name : spec.names) {
            auto r = cluster.addNode(makeNode(spec, name, cluster.now()));
            if (!r.ok()) {
                result.exitCode = 2;
                result.messages.push_back(spec.where + ": node " + name + ": " + r.error().message);
                return false;
            }
        }
    for (const auto &m : scenario.objects) {
        auto r = cluster.apply(m.object);
        if (!r) {
            result.exitCode = 2;
            result.messages.push_back(m.where + ": " + r.error().message);
            return false;
        }
    }
    return true;
}

// Runs one step and finishes its record. False when the run stops at it (the result says why).
bool runStep(sim::Cluster &cluster, const ScenarioStep &st, ScenarioRunner::State &state,
             StepRecorder &recorder)
{
    const ScenarioRunOptions &options = state.options;
    auto &result = state.result;
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
                recorder.finish(record);
                result.exitCode = 1;
                result.messages.insert(result.messages.end(), checker.failures.begin(),
                                       checker.failures.end());
                recorder.writeTrace();
                return false;
            }
        }
        recorder.finish(record);
        return true;
    }
    error = execute(cluster, st, state, record);
    record["time"] = kube::formatRfc3339(cluster.now());
    if (error) {
        const std::string message = stepName(st, error->where) + ": " + error->message;
        if (error->exitCode == 2) {
            // Invalid input: nothing is written, as if validation had caught it.
            result.exitCode = 2;
            result.messages.push_back(message);
            return false;
        }
        record["failures"] = std::vector<std::string>{message};
        recorder.finish(record);
        result.messages.push_back(message);
        if (options.checkExpects) {
            result.exitCode = 1;
            recorder.writeTrace();
            return false;
        }
        return true;
    }
    recorder.finish(record);
    return true;
}

} // namespace

ScenarioRunner::ScenarioRunner(Scenario scenario)
    : m_scenario(std::move(scenario)), m_state(std::make_unique<State>())
{}

ScenarioRunner::~ScenarioRunner() = default;

sim::NodeUpgradeRuntime *ScenarioRunner::upgradeRuntime()
{
    return m_cluster ? m_cluster->nodeUpgradeIfStarted() : nullptr;
}

sim::ClusterOptions ScenarioRunner::clusterOptions(const Scenario &scenario)
{
    sim::ClusterOptions o;
    o.seed = scenario.seed;
    o.mode = scenario.mode == ScenarioMode::Stepped ? sim::Mode::Stepped : sim::Mode::Continuous;
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
    m_cluster = std::make_unique<sim::Cluster>(clusterOptions(m_scenario));
    sim::Cluster &cluster = *m_cluster;
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
    StepRecorder recorder(cluster, state, tracing, keepEvents);
    // Nor is the activity log read but for `expect.sync`: when nothing reads either log (the
    // console and serve build their cluster so), the cluster keeps neither, instead of holding a
    // whole step's worth — a scenario that starts 50,000 pods logs five events for each.
    const bool syncExpects =
        options.checkExpects &&
        std::any_of(m_scenario.steps.begin(), m_scenario.steps.end(),
                    [](const ScenarioStep &st) { return st.expect.syncCreates || st.expect.syncDeletes; });
    if (!tracing && !keepEvents && !syncExpects)
        cluster.stopLogs();

    if (!addScenarioCluster(cluster, m_scenario, result))
        return result;
    if (usesNodeUpgrade(m_scenario))
        state.upgrade = &cluster.nodeUpgrade();
    {
        OJson record;
        record["step"] = 0;
        record["action"] = "cluster";
        record["time"] = kube::formatRfc3339(cluster.now());
        recorder.finish(record);
    }

    for (const auto &st : m_scenario.steps)
        if (!runStep(cluster, st, state, recorder))
            return result;
    recorder.writeTrace();
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

kube::Result<std::unique_ptr<sim::Cluster>> runToCluster(Scenario scenario)
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

kube::Result<std::unique_ptr<sim::Cluster>> ScenarioRunner::buildCluster(const std::string &text,
                                                                         const std::string &fileName)
{
    auto scenario = ScenarioParser::parseText(text, fileName);
    if (!scenario)
        return scenario.error();
    return runToCluster(std::move(*scenario));
}

kube::Result<std::unique_ptr<sim::Cluster>> ScenarioRunner::buildClusterEndingAt(const std::string &text,
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
    sim::Cluster &cluster = *l.runner->cluster();
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
    sim::Cluster &cluster = *l.runner->cluster();
    if (!cluster.daemonSet(ns, name))
        return {1, {}, "Error from server (NotFound): daemonsets.apps \"" + name + "\" not found\n"};
    const auto outcome = cluster.rollback(ns, name, toRevision);
    if (!outcome.ok())
        return {1, {}, outcome.kubectlOutput(name) + "\n"};
    return {0, outcome.kubectlOutput(name) + "\n", {}};
}

} // namespace scenario