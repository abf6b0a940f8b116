#include "models/scenario/nodeupgradescenario.h"
#include "models/kube/jsonfield.h"

#include "models/scenario/scenario.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace scenario {

using kube::ApiStatus;
using kube::Json;

namespace {

std::string child(const std::string &ptr, const std::string &key)
{
    return kube::appendPointer(ptr, key);
}
std::string child(const std::string &ptr, std::size_t i)
{
    return ptr + "/" + std::to_string(i);
}

kube::Result<kube::Duration> durationOf(const Json &j)
{
    if (j.is_string())
        return kube::parseDuration(j.get<std::string>());
    if (j.is_number_integer()) {
        // Seconds, as a bare number; negative or longer than parseDuration allows is refused.
        if (j.is_number_unsigned()
                ? j.get<std::uint64_t>() > std::uint64_t(kube::kMaxDuration / 1000)
                : (j.get<std::int64_t>() < 0 || j.get<std::int64_t>() > kube::kMaxDuration / 1000))
            return ApiStatus::badRequest("a duration must be between 0 and " +
                                         kube::formatDuration(kube::kMaxDuration) + ", got " + j.dump() +
                                         " seconds");
        return j.get<kube::Duration>() * 1000;
    }
    return ApiStatus::badRequest("expected a duration such as 30s");
}

// "20%" as 20; nothing for anything else (digits and one optional decimal point before the sign).
std::optional<double> percentage(const Json &j)
{
    if (!j.is_string())
        return std::nullopt;
    const std::string s = j.get<std::string>();
    if (s.size() < 2 || s.size() > 8 || s.back() != '%')
        return std::nullopt;
    const std::string digits = s.substr(0, s.size() - 1);
    if (digits.find_first_not_of("0123456789.") != std::string::npos || digits.front() == '.' ||
        std::count(digits.begin(), digits.end(), '.') > 1)
        return std::nullopt;
    return std::strtod(digits.c_str(), nullptr);
}

std::string text(const Json &j)
{
    return j.is_string() ? j.get<std::string>() : j.dump();
}

ApiStatus badAt(const kube::YamlDocument &doc, const std::string &ptr, const std::string &msg)
{
    return ApiStatus::badRequest(doc.where(ptr) + ": " + msg);
}

// cluster.kubelet: the kubelet timings, jitter and failing images.
kube::Result<void> readKubelet(const kube::YamlDocument &doc, const Json &k, sim::KubeletTimings &kubelet)
{
    for (auto [key, out] :
         {std::pair{"startDelay", &kubelet.startDelay}, std::pair{"readyDelay", &kubelet.readyDelay},
          std::pair{"terminationGrace", &kubelet.terminationGrace}})
        if (k.contains(key)) {
            auto d = durationOf(k[key]);
            if (!d)
                return badAt(doc, child("/cluster/kubelet", key), d.error().message);
            *out = *d;
        }
    if (k.contains("jitter")) {
        const Json &j = k["jitter"];
        if (j.is_number() && j.get<double>() >= 0 && j.get<double>() <= 1)
            kubelet.jitter = j.get<double>();
        else if (auto pct = percentage(j))
            kubelet.jitter = *pct / 100.0;
        else
            return badAt(doc, "/cluster/kubelet/jitter",
                         "jitter must be a percentage such as 20% (or a fraction from 0 to 1)");
    }
    for (const auto &f : k.value("failingImages", Json::array()))
        kubelet.failingImages.push_back(text(f));
    return {};
}

// cluster.nodes: the nodes by count and prefix or by name, Ready at `start`.
kube::Result<void> addNodes(const kube::YamlDocument &doc, sim::Cluster &cluster, const Json &nodes,
                            kube::Timestamp start)
{
    std::map<std::string, int> numbering;
    std::int64_t totalNodes = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Json &spec = nodes[i];
        const std::string ptr = child("/cluster/nodes", i);
        std::vector<std::string> names;
        if (spec.contains("count")) {
            const std::string prefix = kube::stringOr(spec, "namePrefix", "node-");
            const Json &count = spec["count"];
            if (!count.is_number_integer() || count.get<std::int64_t>() < 0 ||
                count.get<std::int64_t>() > kMaxScenarioNodes - totalNodes)
                return badAt(doc, child(ptr, "count"),
                             "count must be a whole number of nodes from 0 to " +
                                 std::to_string(kMaxScenarioNodes - totalNodes) + " (at most " +
                                 std::to_string(kMaxScenarioNodes) + " nodes in all), got " + count.dump());
            totalNodes += count.get<int>();
            for (int c = 0; c < count.get<int>(); ++c)
                names.push_back(prefix + std::to_string(numbering[prefix]++));
        } else if (spec.contains("name")) {
            names.push_back(text(spec["name"]));
        } else {
            return badAt(doc, ptr, "a node spec needs count or name");
        }
        for (const auto &name : names) {
            kube::Node n;
            n.metadata.name = name;
            if (spec.contains("labels"))
                if (auto l = kube::stringMapFromJson(spec["labels"], "labels"))
                    n.metadata.labels = *l;
            n.metadata.labels.emplace("kubernetes.io/hostname", name);
            n.metadata.labels.emplace("kubernetes.io/os", "linux");
            n.kubeletVersion = kube::stringOr(spec, "agentVersion", "v1.0.0");
            n.allocatablePods = kube::integerOr<int>(spec, "allocatablePods", 110);
            n.unschedulable = kube::boolOr(spec, "unschedulable", false);
            for (const auto &t : spec.value("taints", Json::array()))
                if (auto taint = kube::Taint::fromJson(t))
                    n.taints.push_back(*taint);
            n.setCondition({"Ready", "True", "KubeletReady", "kubelet is posting ready status", start});
            if (auto r = cluster.addNode(n); !r)
                return badAt(doc, ptr, r.error().message);
        }
    }
    return {};
}

// A step that failed: its exit code and message (without the step's position).
struct StepFailure
{
    int code;
    std::string message;
};

// run: until upgradeComplete NAME, podsReady N or time T, within the timeout.
std::optional<StepFailure> runUntil(sim::Cluster &c, sim::NodeUpgradeRuntime &runtime, kube::Timestamp start,
                                    const Json &arg)
{
    const std::string until = kube::stringOr(arg, "until");
    kube::Duration timeout = 10 * 60 * 1000;
    if (arg.contains("timeout")) {
        auto d = durationOf(arg["timeout"]);
        if (!d)
            return StepFailure{2, d.error().message};
        timeout = *d;
    }
    std::function<bool()> done;
    if (until.rfind("upgradeComplete ", 0) == 0) {
        const std::string name = until.substr(16);
        done = [&runtime, name] { return runtime.upgradeComplete(name); };
    } else if (until.rfind("podsReady ", 0) == 0) {
        const int n = std::atoi(until.substr(10).c_str());
        done = [&c, n] { return c.podsReady(n); };
    } else if (until.rfind("time ", 0) == 0) {
        const std::string when = until.substr(5);
        kube::Timestamp t = 0;
        if (auto d = kube::parseDuration(when))
            t = start + *d;
        else if (auto abs = kube::parseRfc3339(when))
            t = *abs;
        else
            return StepFailure{2, "time must be a duration from the start or an RFC 3339 time"};
        done = [&c, t] { return c.now() >= t; };
    } else {
        return StepFailure{2, "until must be upgradeComplete NAME, podsReady N or time T"};
    }
    if (!c.runUntil(done, timeout))
        return StepFailure{1,
                           "condition \"" + until + "\" not reached within " + kube::formatDuration(timeout)};
    return std::nullopt;
}

// patch: target KIND/NAME or KIND/NS/NAME, type merge (the default), json or strategic.
std::optional<StepFailure> patchTarget(sim::Cluster &c, const Json &arg)
{
    const std::string target = kube::stringOr(arg, "target");
    const auto first = target.find('/');
    const auto kind = api::kindFromString(target.substr(0, first));
    if (!kind || first == std::string::npos)
        return StepFailure{2, "target must be KIND/NAME or KIND/NS/NAME"};
    std::string rest = target.substr(first + 1), ns;
    if (api::isNamespaced(*kind)) {
        const auto slash = rest.find('/');
        ns = slash == std::string::npos ? "default" : rest.substr(0, slash);
        rest = slash == std::string::npos ? rest : rest.substr(slash + 1);
    }
    const std::string type = kube::stringOr(arg, "type", "merge");
    const api::PatchType pt = type == "json"        ? api::PatchType::Json
                              : type == "strategic" ? api::PatchType::Strategic
                                                    : api::PatchType::Merge;
    if (auto r = c.patch(*kind, ns, rest, pt, arg.value("patch", Json::object())); !r)
        return StepFailure{2, r.error().message};
    return std::nullopt;
}

std::optional<StepFailure> deleteObject(sim::Cluster &c, const Json &arg)
{
    const auto kind = api::kindFromString(kube::stringOr(arg, "kind"));
    if (!kind)
        return StepFailure{2, "unknown kind"};
    if (auto r = c.remove(*kind, api::isNamespaced(*kind) ? kube::stringOr(arg, "namespace", "default") : "",
                          kube::stringOr(arg, "name"));
        !r)
        return StepFailure{1, r.error().message};
    return std::nullopt;
}

// markReady / markNotReady: the pods a selector (all, owner, daemonset, nodes, limit) matches.
std::optional<StepFailure> markPodsReady(sim::Cluster &c, const Json &arg, const std::string &action)
{
    sim::PodSelector sel;
    sel.all = kube::boolOr(arg, "all", false);
    const std::string owner = kube::stringOr(arg, "owner");
    if (owner.rfind("replicaset/", 0) == 0)
        sel.replicaSet = owner.substr(11);
    sel.daemonSet = kube::stringOr(arg, "daemonset");
    for (const auto &n : arg.value("nodes", Json::array()))
        sel.nodes.push_back(text(n));
    if (arg.contains("limit"))
        sel.limit = arg["limit"].get<int>();
    std::vector<std::string> keys;
    for (const auto *p : c.selectPods(sel))
        keys.push_back(p->metadata.namespace_ + "/" + p->metadata.name);
    if (keys.empty())
        return StepFailure{1, "the pod selector matched no pod"};
    if (auto r = c.markReady(keys, action == "markReady"); !r)
        return StepFailure{1, r.error().message};
    return std::nullopt;
}

} // namespace

NodeUpgradeScenario::NodeUpgradeScenario(kube::YamlDocument doc) : m_doc(std::move(doc)) {}

kube::Result<std::unique_ptr<NodeUpgradeScenario>> NodeUpgradeScenario::load(const std::string &path)
{
    auto docs = kube::loadYamlFile(path);
    if (!docs)
        return docs.error();
    return std::unique_ptr<NodeUpgradeScenario>(new NodeUpgradeScenario(std::move(docs->front())));
}

kube::Result<std::unique_ptr<NodeUpgradeScenario>> NodeUpgradeScenario::fromText(const std::string &t,
                                                                                 const std::string &fileName)
{
    auto docs = kube::parseYamlDocuments(t, fileName);
    if (!docs)
        return docs.error();
    if (docs->empty())
        return ApiStatus::badRequest(fileName + ": empty scenario");
    return std::unique_ptr<NodeUpgradeScenario>(new NodeUpgradeScenario(std::move(docs->front())));
}

kube::Result<void> NodeUpgradeScenario::build()
{
    const Json &root = m_doc.value;
    auto bad = [&](const std::string &ptr, const std::string &msg) {
        return ApiStatus::badRequest(m_doc.where(ptr) + ": " + msg);
    };
    if (!root.is_object())
        return bad("", "a scenario must be a map");
    sim::ClusterOptions o;
    o.mode = sim::Mode::Continuous;
    if (root.contains("mode") && root["mode"] != "continuous")
        return bad("/mode", "node-upgrade scenarios run in continuous mode");
    if (root.contains("seed")) {
        if (!root["seed"].is_number_integer())
            return bad("/seed", "seed must be an integer");
        o.seed = root["seed"].get<std::uint64_t>();
    }
    o.start = kDefaultScenarioStart;
    if (root.contains("start")) {
        auto t = kube::parseRfc3339(text(root["start"]));
        if (!t)
            return bad("/start", t.error().message);
        o.start = *t;
    }
    const Json cluster = root.value("cluster", Json::object());
    if (cluster.contains("kubelet"))
        if (auto r = readKubelet(m_doc, cluster["kubelet"], o.kubelet); !r)
            return r;
    m_start = o.start;
    m_cluster = std::make_unique<sim::Cluster>(o);
    m_cluster->setTime(o.start);

    if (auto r = addNodes(m_doc, *m_cluster, cluster.value("nodes", Json::array()), o.start); !r)
        return r;
    const Json objects = cluster.value("objects", Json::array());
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (auto r = m_cluster->apply(objects[i]); !r)
            return bad(child("/cluster/objects", i), r.error().message);
    m_runtime = std::make_unique<sim::NodeUpgradeRuntime>(*m_cluster, m_runtimeOptions);
    return {};
}

void NodeUpgradeScenario::collectEvents()
{
    // Rollout events are in the cluster's log (Kind::NodeUpgradeRollout) with the node events.
    std::vector<sim::EmittedEvent> merged = m_cluster->takeEvents();
    (void)m_runtime->takeRolloutEvents();
    for (auto &e : merged)
        m_events.push_back(std::move(e));
}

NodeUpgradeScenarioResult NodeUpgradeScenario::run(bool checkExpects)
{
    NodeUpgradeScenarioResult result;
    kube::Result<void> built = ApiStatus::internal("not built");
    try {
        built = build();
    } catch (const std::exception &e) {
        built = ApiStatus::badRequest(m_doc.file + ": " + e.what());
    }
    if (auto &b = built; !b) {
        result.exitCode = 2;
        result.messages.push_back(b.error().message);
        return result;
    }
    collectEvents();
    const Json steps = m_doc.value.value("steps", Json::array());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string ptr = child("/steps", i);
        std::pair<int, std::string> outcome;
        try {
            outcome = step(steps[i], ptr, static_cast<int>(i) + 1, checkExpects);
        } catch (const std::exception &e) {
            outcome = {2, m_doc.where(ptr) + ": step " + std::to_string(i + 1) + ": " + e.what()};
        }
        auto [code, message] = outcome;
        collectEvents();
        if (code != 0) {
            result.exitCode = code;
            result.messages.push_back(message);
            return result;
        }
    }
    return result;
}

std::pair<int, std::string> NodeUpgradeScenario::step(const Json &st, const std::string &ptr, int index,
                                                      bool checkExpects)
{
    if (!st.is_object() || st.size() != 1)
        return {2, m_doc.where(ptr) + ": a step is a map with one key"};
    const std::string action = st.begin().key();
    const Json &arg = st.begin().value();
    const std::string argPtr = child(ptr, action);
    const std::string where = m_doc.where(argPtr) + ": step " + std::to_string(index) + " (" + action + ")";
    auto failed = [&](int code, const std::string &msg) {
        return std::pair<int, std::string>{code, where + ": " + msg};
    };
    sim::Cluster &c = *m_cluster;

    if (action == "advance") {
        auto d = durationOf(arg);
        if (!d)
            return failed(2, d.error().message);
        c.advance(*d);
    } else if (action == "run") {
        if (auto f = runUntil(c, *m_runtime, m_start, arg))
            return failed(f->code, f->message);
    } else if (action == "apply") {
        const Json list = arg.is_array() ? arg : Json::array({arg});
        for (const auto &m : list)
            if (auto r = c.apply(m); !r)
                return failed(2, r.error().message);
    } else if (action == "patch") {
        if (auto f = patchTarget(c, arg))
            return failed(f->code, f->message);
    } else if (action == "delete") {
        if (auto f = deleteObject(c, arg))
            return failed(f->code, f->message);
    } else if (action == "cordon" || action == "uncordon") {
        auto r = action == "cordon" ? c.cordon(text(arg)) : c.uncordon(text(arg));
        if (!r)
            return failed(2, r.error().message);
    } else if (action == "fault") {
        const auto kind = sim::faultKindFromString(kube::stringOr(arg, "kind"));
        if (!kind)
            return failed(2, "unknown fault kind");
        if (auto r = c.fault(kube::stringOr(arg, "node"), *kind); !r)
            return failed(2, r.error().message);
    } else if (action == "markReady" || action == "markNotReady") {
        if (auto f = markPodsReady(c, arg, action))
            return failed(f->code, f->message);
    } else if (action == "upgrade") {
        if (auto r = m_runtime->upgradeStep(arg); !r)
            return failed(2, r.error().message);
    } else if (action == "upgradeControl") {
        if (auto r = m_runtime->upgradeControlStep(arg); !r)
            return failed(r.error().reason == "NotFound" ? 2 : 1, r.error().message);
    } else if (action == "restartNode") {
        if (auto r = m_runtime->restartNodeStep(arg); !r)
            return failed(r.error().reason == "NotFound" ? 2 : 1, r.error().message);
    } else if (action == "restartController") {
        if (text(arg) != "nodeUpgrade")
            return failed(2, "only restartController: nodeUpgrade is supported here");
        m_runtime->restartController();
    } else if (action == "expect") {
        if (!checkExpects)
            return {0, {}};
        collectEvents();
        auto problems = checkExpect(arg, argPtr);
        if (!problems.empty()) {
            std::string msg;
            for (const auto &p : problems)
                msg += (msg.empty() ? "" : "\n  ") + p;
            return failed(1, msg);
        }
    } else {
        return failed(2, "step " + action + " is not supported by the node-upgrade scenario driver");
    }
    return {0, {}};
}

std::vector<std::string> NodeUpgradeScenario::checkExpect(const Json &expect, const std::string &ptr)
{
    std::vector<std::string> out;
    if (expect.contains("node"))
        for (auto &m : m_runtime->checkExpectNode(expect["node"]))
            out.push_back(std::move(m));
    if (expect.contains("upgrade"))
        for (auto &m : m_runtime->checkExpectUpgrade(expect["upgrade"]))
            out.push_back(std::move(m));
    if (expect.contains("events")) {
        const Json &e = expect["events"];
        auto matchesEvent = [](const sim::EmittedEvent &ev, const Json &want) {
            if (want.contains("reason") && ev.reason != text(want["reason"]))
                return false;
            if (want.contains("object") && ev.object != text(want["object"]))
                return false;
            if (want.contains("type") && ev.type != text(want["type"]))
                return false;
            if (want.contains("message") && ev.message.find(text(want["message"])) == std::string::npos)
                return false;
            return true;
        };
        for (const auto &want : e.value("contains", Json::array())) {
            bool found = false;
            for (const auto &ev : m_events)
                found = found || matchesEvent(ev, want);
            if (!found)
                out.push_back("events: no event matching " + want.dump());
        }
        for (const auto &want : e.value("notContains", Json::array()))
            for (const auto &ev : m_events)
                if (matchesEvent(ev, want)) {
                    out.push_back("events: unexpected " + ev.object + " " + ev.reason + ": " + ev.message);
                    break;
                }
    }
    const Json podsExpect = !expect.contains("pods")    ? Json::array()
                            : expect["pods"].is_array() ? expect["pods"]
                                                        : Json::array({expect["pods"]});
    for (const Json &p : podsExpect) {
        sim::PodSelector sel;
        sel.all = kube::boolOr(p, "all", false);
        const std::string owner = kube::stringOr(p, "owner");
        if (owner.rfind("replicaset/", 0) == 0)
            sel.replicaSet = owner.substr(11);
        sel.daemonSet = kube::stringOr(p, "daemonset");
        for (const auto &n : p.value("nodes", Json::array()))
            sel.nodes.push_back(text(n));
        const auto pods = m_cluster->selectPods(sel);
        if (p.contains("count") && static_cast<int>(pods.size()) != p["count"].get<int>())
            out.push_back("pods.count: expected " + p["count"].dump() + ", got " +
                          std::to_string(pods.size()));
        if (p.contains("ready")) {
            int ready = 0;
            for (const auto *pod : pods)
                ready += pod->ready ? 1 : 0;
            if (ready != p["ready"].get<int>())
                out.push_back("pods.ready: expected " + p["ready"].dump() + ", got " + std::to_string(ready));
        }
    }
    (void)ptr;
    return out;
}

} // namespace scenario
