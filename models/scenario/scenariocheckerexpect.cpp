// The scenario checker's expect step: the fields each part of an expect may name and their types,
// and the checks of expect.sync, daemonset, revisions, pods, rollback, node, upgrade, events and
// history.

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

const std::map<std::string, std::string> kDaemonSetExpectFields = {
    // field -> expected type: i = integer, n = integer or null, b = boolean, s = string
    {"desiredNumberScheduled", "i"},
    {"currentNumberScheduled", "i"},
    {"numberMisscheduled", "i"},
    {"numberReady", "i"},
    {"updatedNumberScheduled", "i"},
    {"numberAvailable", "i"},
    {"numberUnavailable", "i"},
    {"observedGeneration", "i"},
    {"generation", "i"},
    {"templateGeneration", "i"},
    {"collisionCount", "n"},
    {"paused", "b"},
    {"updateStrategy", "s"},
    {"rolloutComplete", "b"},
    {"rolloutStatus", "s"},
    {"exists", "b"},
};

// expect.node / expect.upgrade field -> expected type: s string, b boolean, i integer,
// l list of strings. The keys are the ones NodeUpgradeRuntime's checks understand.
const std::map<std::string, char> kNodeExpectFields = {
    {"phase", 's'},   {"cordoned", 'b'}, {"held", 'b'},         {"blocked", 'b'},
    {"reason", 's'},  {"attempt", 'i'},  {"agentVersion", 's'}, {"cordonedByController", 'b'},
    {"tainted", 'b'},
};
const std::map<std::string, char> kUpgradeExpectFields = {
    {"phase", 's'},
    {"nodes", 'i'},
    {"upToDate", 'i'},
    {"upgraded", 'i'},
    {"inFlight", 'i'},
    {"pending", 'i'},
    {"held", 'i'},
    {"blocked", 'i'},
    {"failed", 'i'},
    {"skipped", 'i'},
    {"unavailable", 'i'},
    {"maxUnavailable", 'i'},
    {"maxUnavailableClamped", 'b'},
    {"observedGeneration", 'i'},
    {"headline", 's'},
    {"queue", 'l'},
};

} // namespace

// A map NAME: {field: value} for expect.node (NAME a node) or expect.upgrade (NAME a rollout
// started by an earlier step). Returns the checked map; fields with errors are left out.
Json Checker::expectUpgradeState(const Json &v, const std::string &ptr, const std::string &what,
                                 const std::map<std::string, char> &fields)
{
    Json out = Json::object();
    const std::string full = "expect." + what;
    const bool isNode = what == "node";
    if (!expectMap(v, ptr, full + " (a map NAME: {field: value})"))
        return out;
    for (const auto &[name, entry] : v.items()) {
        const auto np = child(ptr, name);
        if (isNode && !m_nodes.count(name)) {
            error(atKey(np), full + ": unknown node \"" + name + "\"");
            continue;
        }
        if (!isNode && !m_rollouts.count(name)) {
            error(atKey(np), full + ": unknown rollout \"" + name + "\" (no earlier upgrade step starts it)");
            continue;
        }
        if (!expectMap(entry, np, full + "." + name))
            continue;
        Json checked = Json::object();
        for (const auto &[field, value] : entry.items()) {
            const auto vp = child(np, field);
            const auto t = fields.find(field);
            if (t == fields.end()) {
                std::string names;
                for (const auto &[n, ty] : fields)
                    names += (names.empty() ? "" : ", ") + n;
                error(atKey(vp),
                      "unknown key \"" + field + "\" in " + full + " (expected one of: " + names + ")");
                continue;
            }
            bool ok = true;
            switch (t->second) {
            case 's':
                ok = str(value, vp, field).has_value();
                break;
            case 'b':
                ok = boolean(value, vp, field).has_value();
                break;
            case 'i':
                ok = integer(value, vp, field, 0).has_value();
                break;
            default:
                ok = value.is_array() &&
                     std::all_of(value.begin(), value.end(), [](const Json &e) { return e.is_string(); });
                if (!ok)
                    error(at(vp), field + " must be a list of node names, got " + typeName(value));
                break;
            }
            if (ok)
                checked[field] = value;
        }
        out[name] = std::move(checked);
    }
    return out;
}

void Checker::expectSync(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    const auto sp = child(ptr, "sync");
    const Json &s = arg["sync"];
    ex.syncWhere = at(sp);
    if (expectMap(s, sp, "expect.sync")) {
        checkKeys(s, sp, "expect.sync", {"creates", "deletes"});
        if (s.contains("creates"))
            ex.syncCreates = smallInt(s["creates"], child(sp, "creates"), "creates");
        if (s.contains("deletes"))
            ex.syncDeletes = smallInt(s["deletes"], child(sp, "deletes"), "deletes");
    }
}

void Checker::expectDaemonSets(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    const auto dp = child(ptr, "daemonset");
    const Json &d = arg["daemonset"];
    if (expectMap(d, dp, "expect.daemonset (a map NS/NAME: {field: value})")) {
        for (const auto &[key, fields] : d.items()) {
            const auto fp = child(dp, key);
            auto r = daemonSetRef(Json(key), fp, "a DaemonSet key");
            if (!r || !expectMap(fields, fp, "expect.daemonset." + key))
                continue;
            ex.daemonSetWhere[*r] = at(fp);
            for (const auto &[field, value] : fields.items()) {
                const auto vp = child(fp, field);
                auto t = kDaemonSetExpectFields.find(field);
                if (t == kDaemonSetExpectFields.end()) {
                    std::string names;
                    for (const auto &[n, ty] : kDaemonSetExpectFields)
                        names += (names.empty() ? "" : ", ") + n;
                    error(atKey(vp), "unknown key \"" + field +
                                         "\" in expect.daemonset (expected one of: " + names + ")");
                    continue;
                }
                bool ok = true;
                if (t->second == "i" || t->second == "n") {
                    ok = value.is_number_integer() || value.is_number_unsigned() ||
                         (t->second == "n" && value.is_null());
                    if (!ok)
                        error(at(vp), field + " must be an integer" + (t->second == "n" ? " or null" : "") +
                                          ", got " + typeName(value));
                } else if (t->second == "b") {
                    ok = boolean(value, vp, field).has_value();
                } else {
                    ok = str(value, vp, field).has_value();
                }
                if (ok)
                    ex.daemonSets[*r][field] = value;
            }
        }
    }
}

void Checker::expectRevisions(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    const auto rp = child(ptr, "revisions");
    const Json &revs = arg["revisions"];
    if (expectMap(revs, rp, "expect.revisions (a map NS/NAME: [revisions, ascending])")) {
        for (const auto &[key, list] : revs.items()) {
            const auto lp = child(rp, key);
            auto r = daemonSetRef(Json(key), lp, "a DaemonSet key");
            if (!r)
                continue;
            if (!list.is_array()) {
                error(at(lp), "expect.revisions." + key +
                                  " must be a list of {revision, image, current, ...}, got " +
                                  typeName(list));
                continue;
            }
            ex.revisionsWhere[*r] = at(lp);
            auto &out = ex.revisions[*r];
            for (std::size_t i = 0; i < list.size(); ++i) {
                const auto ep = child(lp, i);
                const Json &e = list[i];
                if (!expectMap(e, ep, "a revision"))
                    continue;
                checkKeys(e, ep, "a revision",
                          {"revision", "image", "name", "hash", "changeCause", "current"});
                ScenarioExpectRevision er;
                er.where = at(ep);
                if (e.contains("revision"))
                    er.revision = integer(e["revision"], child(ep, "revision"), "revision", 1);
                for (auto [k, field] :
                     {std::pair{"image", &er.image}, std::pair{"name", &er.name}, std::pair{"hash", &er.hash},
                      std::pair{"changeCause", &er.changeCause}})
                    if (e.contains(k))
                        *field = str(e[k], child(ep, k), k);
                if (e.contains("current"))
                    er.current = boolean(e["current"], child(ep, "current"), "current");
                out.push_back(er);
            }
        }
    }
}

void Checker::expectEvents(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    const auto ep = child(ptr, "events");
    const Json &e = arg["events"];
    if (expectMap(e, ep, "expect.events")) {
        checkKeys(e, ep, "expect.events", {"contains", "notContains"});
        for (auto [k, out] :
             {std::pair{"contains", &ex.eventsContain}, std::pair{"notContains", &ex.eventsNotContain}}) {
            if (!e.contains(k))
                continue;
            const auto lp = child(ep, k);
            if (!e[k].is_array()) {
                error(at(lp), std::string(k) + " must be a list of {reason, object, type, message}, got " +
                                  typeName(e[k]));
                continue;
            }
            for (std::size_t i = 0; i < e[k].size(); ++i)
                if (auto ev = expectEvent(e[k][i], child(lp, i)))
                    out->push_back(*ev);
        }
    }
}

bool Checker::expectStep(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "expect"))
        return false;
    checkKeys(arg, ptr, "expect",
              {"sync", "daemonset", "revisions", "pods", "rollback", "node", "upgrade", "events", "history"});
    if (arg.contains("sync"))
        expectSync(ex, arg, ptr);
    if (arg.contains("daemonset"))
        expectDaemonSets(ex, arg, ptr);
    if (arg.contains("revisions"))
        expectRevisions(ex, arg, ptr);
    if (arg.contains("pods")) {
        const auto pp = child(ptr, "pods");
        const Json &p = arg["pods"];
        if (p.is_array()) {
            for (std::size_t i = 0; i < p.size(); ++i)
                if (auto e = expectPods(p[i], child(pp, i)))
                    ex.pods.push_back(*e);
        } else if (auto e = expectPods(p, pp)) {
            ex.pods.push_back(*e);
        }
    }
    if (arg.contains("rollback")) {
        ex.rollbackWhere = at(child(ptr, "rollback"));
        ex.rollback = str(arg["rollback"], child(ptr, "rollback"), "expect.rollback");
    }
    if (arg.contains("node")) {
        ex.expectNodeWhere = at(child(ptr, "node"));
        ex.expectNode = expectUpgradeState(arg["node"], child(ptr, "node"), "node", kNodeExpectFields);
    }
    if (arg.contains("upgrade")) {
        ex.expectUpgradeWhere = at(child(ptr, "upgrade"));
        ex.expectUpgrade =
            expectUpgradeState(arg["upgrade"], child(ptr, "upgrade"), "upgrade", kUpgradeExpectFields);
    }
    if (arg.contains("events"))
        expectEvents(ex, arg, ptr);
    if (arg.contains("history")) {
        const auto hp = child(ptr, "history");
        const Json &h = arg["history"];
        if (h.is_array()) {
            for (std::size_t i = 0; i < h.size(); ++i)
                if (auto e = expectHistory(h[i], child(hp, i)))
                    ex.history.push_back(*e);
        } else if (auto e = expectHistory(h, hp)) {
            ex.history.push_back(*e);
        }
    }
    return true;
}

std::optional<ScenarioExpectPods> Checker::expectPods(const Json &v, const std::string &ptr)
{
    auto sel = podSelector(v, ptr,
                           "expect.pods (a pod selector with count, ready, onCurrentRevision, labels)", true);
    if (!sel)
        return std::nullopt;
    const std::size_t before = errors.size();
    ScenarioExpectPods e;
    e.where = at(ptr);
    e.selector = *sel;
    if (v.contains("count"))
        e.count = smallInt(v["count"], child(ptr, "count"), "count");
    if (v.contains("ready") && !v["ready"].is_boolean())
        e.ready = smallInt(v["ready"], child(ptr, "ready"), "ready");
    if (v.contains("onCurrentRevision")) {
        e.onCurrentRevision =
            smallInt(v["onCurrentRevision"], child(ptr, "onCurrentRevision"), "onCurrentRevision");
        if (e.selector.daemonSet.empty())
            error(atKey(child(ptr, "onCurrentRevision")),
                  "onCurrentRevision needs daemonset: NS/NAME in the selector");
    }
    if (v.contains("labels"))
        if (auto m = stringMap(v["labels"], child(ptr, "labels"), "labels"))
            e.labels = *m;
    if (!e.count && !e.ready && !e.onCurrentRevision && e.labels.empty())
        error(at(ptr),
              "expect.pods needs at least one of count, ready (a number), onCurrentRevision, labels");
    if (errors.size() != before)
        return std::nullopt;
    return e;
}

std::optional<ScenarioExpectEvent> Checker::expectEvent(const Json &v, const std::string &ptr)
{
    if (!expectMap(v, ptr, "an event"))
        return std::nullopt;
    const std::size_t before = errors.size();
    checkKeys(v, ptr, "an event", {"reason", "object", "type", "message"});
    ScenarioExpectEvent e;
    e.where = at(ptr);
    for (auto [k, field] : {std::pair{"reason", &e.reason}, std::pair{"object", &e.object},
                            std::pair{"type", &e.type}, std::pair{"message", &e.message}})
        if (v.contains(k))
            *field = str(v[k], child(ptr, k), k);
    if (v.empty())
        error(at(ptr), "an event needs at least one of reason, object, type, message");
    if (errors.size() != before)
        return std::nullopt;
    return e;
}

std::optional<ScenarioExpectHistory> Checker::expectHistory(const Json &v, const std::string &ptr)
{
    if (!expectMap(v, ptr, "expect.history"))
        return std::nullopt;
    const std::size_t before = errors.size();
    checkKeys(v, ptr, "expect.history", {"daemonset", "revision", "output"});
    ScenarioExpectHistory h;
    h.where = at(ptr);
    if (require(v, ptr, "expect.history", "daemonset", "NAMESPACE/NAME"))
        if (auto r = daemonSetRef(v["daemonset"], child(ptr, "daemonset"), "daemonset"))
            h.daemonSet = *r;
    if (v.contains("revision"))
        h.revision = integer(v["revision"], child(ptr, "revision"), "revision");
    if (require(v, ptr, "expect.history", "output",
                "kubectl rollout history's exact output, or its error message"))
        if (auto s = str(v["output"], child(ptr, "output"), "output"))
            h.output = *s;
    if (errors.size() != before)
        return std::nullopt;
    return h;
}

} // namespace scenario::scenariocheck
