#include "models/engine/scenarioparser.h"

#include "models/api/kind.h"
#include "models/api/nodeupgraderollout.h"
#include "models/engine/faultkind.h"
#include "models/kube/daemonset.h"
#include "models/kube/labelselector.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/yamldocument.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <set>

namespace engine {

namespace {

using kube::Json;

// The kinds a scenario may create; their names, apiVersions and scopes come from api::Kind.
struct KindInfo
{
    const char *kind;
    const char *apiVersion;
    bool namespaced;
};
const KindInfo kKinds[] = {
    {api::kindName(api::Kind::Namespace), api::apiVersion(api::Kind::Namespace),
     api::isNamespaced(api::Kind::Namespace)},
    {api::kindName(api::Kind::Node), api::apiVersion(api::Kind::Node), api::isNamespaced(api::Kind::Node)},
    {api::kindName(api::Kind::Pod), api::apiVersion(api::Kind::Pod), api::isNamespaced(api::Kind::Pod)},
    {api::kindName(api::Kind::DaemonSet), api::apiVersion(api::Kind::DaemonSet),
     api::isNamespaced(api::Kind::DaemonSet)},
    {api::kindName(api::Kind::ReplicaSet), api::apiVersion(api::Kind::ReplicaSet),
     api::isNamespaced(api::Kind::ReplicaSet)},
    {api::kindName(api::Kind::ControllerRevision), api::apiVersion(api::Kind::ControllerRevision),
     api::isNamespaced(api::Kind::ControllerRevision)},
    {api::kindName(api::Kind::PodDisruptionBudget), api::apiVersion(api::Kind::PodDisruptionBudget),
     api::isNamespaced(api::Kind::PodDisruptionBudget)},
};

// The kind by its name, or (patch targets, delete kinds) by any name kubectl accepts for it:
// plural, lower case, short name (api::kindFromString).
const KindInfo *kindInfo(const std::string &kind)
{
    for (const auto &k : kKinds)
        if (kind == k.kind)
            return &k;
    if (auto k = api::kindFromString(kind))
        for (const auto &info : kKinds)
            if (std::string(info.kind) == api::kindName(*k))
                return &info;
    return nullptr;
}

std::string kindList()
{
    std::string out;
    for (const auto &k : kKinds)
        out += (out.empty() ? "" : ", ") + std::string(k.kind);
    return out;
}

std::string typeName(const Json &v)
{
    switch (v.type()) {
    case Json::value_t::object:
        return "a map";
    case Json::value_t::array:
        return "a list";
    case Json::value_t::string:
        return "the string \"" + v.get<std::string>() + "\"";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::null:
        return "null";
    case Json::value_t::number_float:
        return "the number " + v.dump();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "the number " + v.dump();
    default:
        return "a value";
    }
}

std::string child(const std::string &ptr, const std::string &key)
{
    return kube::appendPointer(ptr, key);
}
std::string child(const std::string &ptr, std::size_t index)
{
    return ptr + "/" + std::to_string(index);
}

bool isDnsName(const std::string &s)
{
    if (s.empty() || s.size() > 253)
        return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
              c == '-' || c == '.'))
            return false;
    return std::isalnum(static_cast<unsigned char>(s.front())) &&
           std::isalnum(static_cast<unsigned char>(s.back()));
}

const std::set<std::string> kTaintEffects = {"NoSchedule", "PreferNoSchedule", "NoExecute"};

// Validation walks the document once, in file order, keeping a table of the objects that
// exist at each step so that references can be checked before anything runs.
class Checker
{
public:
    Checker(const kube::YamlDocument &doc, Scenario &scenario) : m_doc(doc), m_s(scenario) {}

    std::vector<std::string> errors;

    void run();

private:
    const kube::YamlDocument &m_doc;
    Scenario &m_s;
    std::set<ScenarioRef> m_daemonSets;
    std::set<ScenarioRef> m_replicaSets;
    std::set<std::string> m_nodes;
    std::set<std::string> m_rollouts;        // NodeUpgradeRollouts started by an upgrade step so far
    std::map<std::string, int> m_prefixNext; // generated node numbering continues per prefix
    // Container names of DaemonSets whose template the file spelled out, for setImage; a
    // patch or rollback makes the template unknown and the check is left to the run.
    std::map<ScenarioRef, std::set<std::string>> m_containers;

    // --- positions and messages ---
    std::string at(const std::string &ptr) const { return m_doc.where(ptr); }
    // Position of a map entry's key (unknown keys are reported there), else of its value.
    std::string atKey(const std::string &ptr) const
    {
        const auto it = m_doc.keyPositions.find(ptr);
        if (it == m_doc.keyPositions.end() || it->second.line == 0)
            return at(ptr);
        return m_doc.file + ":" + std::to_string(it->second.line) + ":" + std::to_string(it->second.column);
    }
    void error(const std::string &where, const std::string &message)
    {
        errors.push_back(where + ": " + message);
    }

    // --- typed readers: report and return nullopt on a mismatch ---
    bool expectMap(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (v.is_object())
            return true;
        error(at(ptr), what + " must be a map, got " + typeName(v));
        return false;
    }
    // Reports keys outside `allowed` and returns false if there were any.
    bool checkKeys(const Json &v, const std::string &ptr, const std::string &what,
                   std::initializer_list<const char *> allowed)
    {
        return checkKeys(v, ptr, what, std::vector<std::string>(allowed.begin(), allowed.end()));
    }
    bool checkKeys(const Json &v, const std::string &ptr, const std::string &what,
                   const std::vector<std::string> &allowed)
    {
        bool ok = true;
        for (const auto &[key, value] : v.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string names;
                for (const auto &a : allowed)
                    names += (names.empty() ? "" : ", ") + a;
                error(atKey(child(ptr, key)),
                      "unknown key \"" + key + "\" in " + what + " (expected one of: " + names + ")");
                ok = false;
            }
        }
        return ok;
    }
    bool require(const Json &v, const std::string &ptr, const std::string &what, const char *key,
                 const std::string &expected)
    {
        if (v.contains(key))
            return true;
        error(at(ptr), what + " needs \"" + key + "\" (" + expected + ")");
        return false;
    }
    std::optional<std::string> str(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (v.is_string())
            return v.get<std::string>();
        error(at(ptr), what + " must be a string, got " + typeName(v));
        return std::nullopt;
    }
    std::optional<std::string> nonEmpty(const Json &v, const std::string &ptr, const std::string &what)
    {
        auto s = str(v, ptr, what);
        if (s && s->empty()) {
            error(at(ptr), what + " must not be empty");
            return std::nullopt;
        }
        return s;
    }
    std::optional<std::int64_t> integer(const Json &v, const std::string &ptr, const std::string &what,
                                        std::int64_t min = std::numeric_limits<std::int64_t>::min())
    {
        if (!v.is_number_integer() && !v.is_number_unsigned()) {
            error(at(ptr), what + " must be an integer, got " + typeName(v));
            return std::nullopt;
        }
        if (v.is_number_unsigned() &&
            v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            error(at(ptr), what + " is too large");
            return std::nullopt;
        }
        const auto n = v.get<std::int64_t>();
        if (n < min) {
            error(at(ptr), what + " must be at least " + std::to_string(min) + ", got " + std::to_string(n));
            return std::nullopt;
        }
        return n;
    }
    std::optional<int> smallInt(const Json &v, const std::string &ptr, const std::string &what, int min = 0)
    {
        auto n = integer(v, ptr, what, min);
        if (!n)
            return std::nullopt;
        if (*n > 1'000'000'000) {
            error(at(ptr), what + " is too large");
            return std::nullopt;
        }
        return static_cast<int>(*n);
    }
    std::optional<bool> boolean(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (v.is_boolean())
            return v.get<bool>();
        error(at(ptr), what + " must be true or false, got " + typeName(v));
        return std::nullopt;
    }
    std::optional<kube::Duration> duration(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (v.is_string()) {
            auto d = kube::parseDuration(v.get<std::string>());
            if (d)
                return *d;
            if (d.error().reason == "Invalid") { // well-formed, but too long
                error(at(ptr), what + ": " + d.error().message);
                return std::nullopt;
            }
        } else if (v.is_number_integer() && v.get<std::int64_t>() == 0) {
            return kube::Duration{0};
        }
        error(at(ptr), what + " must be a duration such as 30s, 10m or 1h, got " + typeName(v));
        return std::nullopt;
    }
    // A point on the virtual clock: a duration after `start` or an RFC 3339 time.
    std::optional<kube::Timestamp> timePoint(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (v.is_string()) {
            const auto text = v.get<std::string>();
            auto d = kube::parseDuration(text);
            if (d)
                return m_s.start + *d;
            if (d.error().reason == "Invalid") {
                error(at(ptr), what + ": " + d.error().message);
                return std::nullopt;
            }
            if (auto t = kube::parseRfc3339(text))
                return *t;
        }
        error(at(ptr),
              what + " must be a duration after start (e.g. 300s) or an RFC 3339 time, got " + typeName(v));
        return std::nullopt;
    }
    std::optional<kube::StringMap> stringMap(const Json &v, const std::string &ptr, const std::string &what)
    {
        if (!expectMap(v, ptr, what))
            return std::nullopt;
        kube::StringMap out;
        bool ok = true;
        for (const auto &[k, val] : v.items()) {
            if (!val.is_string()) {
                error(at(child(ptr, k)), what + " value of \"" + k + "\" must be a string, got " +
                                             typeName(val) + " (quote numbers and booleans)");
                ok = false;
                continue;
            }
            out[k] = val.get<std::string>();
        }
        return ok ? std::optional(out) : std::nullopt;
    }
    // "NAMESPACE/NAME"
    std::optional<ScenarioRef> ref(const Json &v, const std::string &ptr, const std::string &what)
    {
        auto s = str(v, ptr, what);
        if (!s)
            return std::nullopt;
        const auto slash = s->find('/');
        if (slash == std::string::npos || slash == 0 || slash + 1 == s->size() ||
            s->find('/', slash + 1) != std::string::npos) {
            error(at(ptr), what + " must be NAMESPACE/NAME, got \"" + *s + "\"");
            return std::nullopt;
        }
        return ScenarioRef{s->substr(0, slash), s->substr(slash + 1)};
    }
    std::optional<ScenarioRef> daemonSetRef(const Json &v, const std::string &ptr, const std::string &what)
    {
        auto r = ref(v, ptr, what);
        if (r && !m_daemonSets.count(*r)) {
            error(at(ptr), "unknown DaemonSet \"" + r->text() + "\" (" + known(m_daemonSets) + ")");
            return std::nullopt;
        }
        return r;
    }
    std::optional<std::string> nodeRef(const Json &v, const std::string &ptr, const std::string &what)
    {
        auto n = nonEmpty(v, ptr, what);
        if (n && !m_nodes.count(*n)) {
            error(at(ptr), "unknown node \"" + *n + "\" (no node of that name is defined by cluster.nodes, " +
                               "cluster.objects or an earlier step)");
            return std::nullopt;
        }
        return n;
    }
    static std::string known(const std::set<ScenarioRef> &refs)
    {
        if (refs.empty())
            return "none is defined by cluster.objects or an earlier step";
        std::string out = "defined so far: ";
        int n = 0;
        for (const auto &r : refs) {
            if (n++ == 8) {
                out += ", ...";
                break;
            }
            out += (n > 1 ? ", " : "") + r.text();
        }
        return out;
    }

    // --- sections ---
    void topLevel(const Json &root);
    void nodeSpecs(const Json &v, const std::string &ptr, std::vector<ScenarioNodeSpec> &out,
                   const std::string &what);
    std::optional<ScenarioNodeSpec> nodeSpec(const Json &v, const std::string &ptr, const std::string &what);
    void kubelet(const Json &v, const std::string &ptr);
    std::optional<ScenarioManifest> manifest(const Json &v, const std::string &ptr);
    std::optional<kube::Taint> taint(const Json &v, const std::string &ptr, const std::string &what,
                                     bool checkUnknown = true);
    std::optional<PodSelector> podSelector(const Json &v, const std::string &ptr, const std::string &what,
                                           bool forExpect);
    bool intOrPercent(const Json &v, const std::string &ptr, const std::string &what);
    void step(const Json &v, const std::string &ptr, int index);
    bool stepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr);
    bool runCondition(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void applyStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void setImageStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void setStrategyStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void setPodLabelsStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void setPodPhaseStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void taintNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void untaintNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void faultStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void rollbackStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void restartNodeStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    bool patchStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    bool deleteStep(ScenarioStep &st, const Json &arg, const std::string &ptr);
    bool upgradeStep(const Json &arg, const std::string &ptr);
    bool upgradeControlStep(const Json &arg, const std::string &ptr);
    bool expectStep(ScenarioExpect &ex, const Json &arg, const std::string &ptr);
    Json expectUpgradeState(const Json &v, const std::string &ptr, const std::string &what,
                            const std::map<std::string, char> &fields);
    std::optional<ScenarioExpectPods> expectPods(const Json &v, const std::string &ptr);
    std::optional<ScenarioExpectEvent> expectEvent(const Json &v, const std::string &ptr);
    std::optional<ScenarioExpectHistory> expectHistory(const Json &v, const std::string &ptr);

    void registerManifest(const ScenarioManifest &m);
    void registerNodeSpec(ScenarioNodeSpec &spec, const std::string &ptr);
};

void Checker::run()
{
    const Json &root = m_doc.value;
    if (!root.is_object()) {
        error(at(""),
              "a scenario file must be a map with the keys name, seed, mode, start, cluster, steps; got " +
                  typeName(root));
        return;
    }
    topLevel(root);
}

void Checker::topLevel(const Json &root)
{
    checkKeys(root, "", "the scenario", {"name", "seed", "mode", "start", "cluster", "steps"});
    if (root.contains("name")) {
        if (auto s = str(root["name"], "/name", "name"))
            m_s.name = *s;
    }
    if (root.contains("seed")) {
        if (auto n = integer(root["seed"], "/seed", "seed", 0))
            m_s.seed = static_cast<std::uint64_t>(*n);
    }
    if (root.contains("mode")) {
        if (auto s = str(root["mode"], "/mode", "mode")) {
            if (*s == "stepped")
                m_s.mode = ScenarioMode::Stepped;
            else if (*s == "continuous")
                m_s.mode = ScenarioMode::Continuous;
            else
                error(at("/mode"), "mode must be stepped or continuous, got \"" + *s + "\"");
        }
    }
    m_s.start = kDefaultScenarioStart;
    if (root.contains("start")) {
        const Json &v = root["start"];
        std::optional<kube::Timestamp> t;
        if (v.is_string())
            if (auto p = kube::parseRfc3339(v.get<std::string>()))
                t = *p;
        if (t)
            m_s.start = *t;
        else
            error(at("/start"),
                  "start must be an RFC 3339 time such as 2026-01-01T00:00:00Z, got " + typeName(v));
    }
    if (root.contains("cluster")) {
        const Json &c = root["cluster"];
        if (expectMap(c, "/cluster", "cluster")) {
            checkKeys(c, "/cluster", "cluster", {"nodes", "kubelet", "objects"});
            if (c.contains("nodes"))
                nodeSpecs(c["nodes"], "/cluster/nodes", m_s.nodes, "cluster.nodes");
            if (c.contains("kubelet"))
                kubelet(c["kubelet"], "/cluster/kubelet");
            if (c.contains("objects")) {
                const Json &objs = c["objects"];
                if (!objs.is_array()) {
                    error(at("/cluster/objects"),
                          "cluster.objects must be a list of manifests, got " + typeName(objs));
                } else {
                    for (std::size_t i = 0; i < objs.size(); ++i) {
                        if (auto m = manifest(objs[i], child("/cluster/objects", i))) {
                            registerManifest(*m);
                            m_s.objects.push_back(std::move(*m));
                        }
                    }
                }
            }
        }
    }
    if (root.contains("steps")) {
        const Json &steps = root["steps"];
        if (steps.is_null())
            return;
        if (!steps.is_array()) {
            error(at("/steps"), "steps must be a list of one-key maps, got " + typeName(steps));
            return;
        }
        for (std::size_t i = 0; i < steps.size(); ++i)
            step(steps[i], child("/steps", i), static_cast<int>(i) + 1);
    }
}

void Checker::nodeSpecs(const Json &v, const std::string &ptr, std::vector<ScenarioNodeSpec> &out,
                        const std::string &what)
{
    if (v.is_object()) {
        if (auto n = nodeSpec(v, ptr, what))
            out.push_back(std::move(*n));
        return;
    }
    if (!v.is_array()) {
        error(at(ptr), what + " must be a node spec or a list of them, got " + typeName(v));
        return;
    }
    for (std::size_t i = 0; i < v.size(); ++i)
        if (auto n = nodeSpec(v[i], child(ptr, i), what))
            out.push_back(std::move(*n));
}

std::optional<ScenarioNodeSpec> Checker::nodeSpec(const Json &v, const std::string &ptr,
                                                  const std::string &what)
{
    if (!expectMap(v, ptr, "a node spec in " + what))
        return std::nullopt;
    const std::size_t before = errors.size();
    checkKeys(v, ptr, "a node spec",
              {"count", "namePrefix", "name", "labels", "agentVersion", "taints", "allocatablePods",
               "unschedulable"});
    ScenarioNodeSpec spec;
    spec.where = at(ptr);
    if (v.contains("count") && v.contains("name"))
        error(at(child(ptr, "name")), "a node spec takes either count (generated names) or name, not both");
    else if (!v.contains("count") && !v.contains("name"))
        error(at(ptr), "a node spec needs count (generated nodes) or name (one node)");
    if (v.contains("count"))
        if (auto n = smallInt(v["count"], child(ptr, "count"), "count", 1)) {
            if (*n > kMaxScenarioNodes - static_cast<int>(m_nodes.size()))
                error(at(child(ptr, "count")),
                      "count is too large: a scenario has at most " + std::to_string(kMaxScenarioNodes) +
                          " nodes (" + std::to_string(m_nodes.size()) + " defined before this spec)");
            else
                spec.count = *n;
        }
    if (v.contains("name")) {
        if (auto n = nonEmpty(v["name"], child(ptr, "name"), "name")) {
            if (!isDnsName(*n))
                error(at(child(ptr, "name")),
                      "node name \"" + *n + "\" must be lower-case letters, digits, '-' or '.'");
            spec.name = *n;
        }
    }
    if (v.contains("namePrefix")) {
        if (!v.contains("count"))
            error(atKey(child(ptr, "namePrefix")), "namePrefix applies to generated nodes (with count) only");
        if (auto s = nonEmpty(v["namePrefix"], child(ptr, "namePrefix"), "namePrefix"))
            spec.namePrefix = *s;
    }
    if (v.contains("labels"))
        if (auto m = stringMap(v["labels"], child(ptr, "labels"), "labels"))
            spec.labels = *m;
    if (v.contains("agentVersion"))
        if (auto s = nonEmpty(v["agentVersion"], child(ptr, "agentVersion"), "agentVersion"))
            spec.agentVersion = *s;
    if (v.contains("taints")) {
        const Json &t = v["taints"];
        const auto tp = child(ptr, "taints");
        if (!t.is_array()) {
            error(at(tp), "taints must be a list of {key, value, effect}, got " + typeName(t));
        } else {
            for (std::size_t i = 0; i < t.size(); ++i)
                if (auto taint = this->taint(t[i], child(tp, i), "a taint"))
                    spec.taints.push_back(*taint);
        }
    }
    if (v.contains("allocatablePods"))
        if (auto n = smallInt(v["allocatablePods"], child(ptr, "allocatablePods"), "allocatablePods", 0))
            spec.allocatablePods = *n;
    if (v.contains("unschedulable"))
        if (auto b = boolean(v["unschedulable"], child(ptr, "unschedulable"), "unschedulable"))
            spec.unschedulable = *b;
    if (errors.size() != before)
        return std::nullopt;
    registerNodeSpec(spec, ptr);
    return spec;
}

void Checker::registerNodeSpec(ScenarioNodeSpec &spec, const std::string &ptr)
{
    if (spec.count == 0) {
        if (!m_nodes.insert(spec.name).second)
            error(at(child(ptr, "name")), "node \"" + spec.name + "\" is already defined");
        spec.names = {spec.name};
        return;
    }
    int &next = m_prefixNext[spec.namePrefix];
    for (int i = 0; i < spec.count; ++i) {
        const auto name = spec.namePrefix + std::to_string(next + i);
        spec.names.push_back(name);
        if (!m_nodes.insert(name).second) {
            error(at(child(ptr, "count")), "generated node \"" + name + "\" is already defined");
            break;
        }
    }
    next += spec.count;
}

std::optional<kube::Taint> Checker::taint(const Json &v, const std::string &ptr, const std::string &what,
                                          bool checkUnknown)
{
    if (!expectMap(v, ptr, what))
        return std::nullopt;
    const std::size_t before = errors.size();
    if (checkUnknown)
        checkKeys(v, ptr, what, {"key", "value", "effect"});
    kube::Taint t;
    if (require(v, ptr, what, "key", "the taint key"))
        if (auto s = nonEmpty(v["key"], child(ptr, "key"), "key"))
            t.key = *s;
    if (v.contains("value"))
        if (auto s = str(v["value"], child(ptr, "value"), "value"))
            t.value = *s;
    if (require(v, ptr, what, "effect", "NoSchedule, PreferNoSchedule or NoExecute"))
        if (auto s = str(v["effect"], child(ptr, "effect"), "effect")) {
            if (!kTaintEffects.count(*s))
                error(at(child(ptr, "effect")),
                      "effect must be NoSchedule, PreferNoSchedule or NoExecute, got \"" + *s + "\"");
            t.effect = *s;
        }
    if (errors.size() != before)
        return std::nullopt;
    return t;
}

void Checker::kubelet(const Json &v, const std::string &ptr)
{
    if (!expectMap(v, ptr, "cluster.kubelet"))
        return;
    checkKeys(v, ptr, "cluster.kubelet",
              {"startDelay", "readyDelay", "terminationGrace", "jitter", "failingImages"});
    auto &k = m_s.kubelet;
    if (v.contains("startDelay"))
        k.startDelay = duration(v["startDelay"], child(ptr, "startDelay"), "startDelay");
    if (v.contains("readyDelay"))
        k.readyDelay = duration(v["readyDelay"], child(ptr, "readyDelay"), "readyDelay");
    if (v.contains("terminationGrace"))
        k.terminationGrace =
            duration(v["terminationGrace"], child(ptr, "terminationGrace"), "terminationGrace");
    if (v.contains("jitter")) {
        const Json &j = v["jitter"];
        const auto jp = child(ptr, "jitter");
        std::optional<double> frac;
        if (j.is_string()) {
            const auto s = j.get<std::string>();
            if (s.size() >= 2 && s.size() <= 6 && s.back() == '%' &&
                std::all_of(s.begin(), s.end() - 1,
                            [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                frac = std::stoi(s.substr(0, s.size() - 1)) / 100.0;
        } else if (j.is_number_integer() && j.get<std::int64_t>() == 0) {
            frac = 0.0;
        }
        if (!frac || *frac > 1.0)
            error(at(jp), "jitter must be a percentage between 0% and 100% such as 20%, got " + typeName(j));
        else
            k.jitter = frac;
    }
    if (v.contains("failingImages")) {
        const Json &f = v["failingImages"];
        const auto fp = child(ptr, "failingImages");
        if (!f.is_array()) {
            error(at(fp), "failingImages must be a list of image patterns (\"*\" matches any text), got " +
                              typeName(f));
        } else {
            for (std::size_t i = 0; i < f.size(); ++i)
                if (auto s = nonEmpty(f[i], child(fp, i), "an image pattern"))
                    k.failingImages.push_back(*s);
        }
    }
}

std::optional<ScenarioManifest> Checker::manifest(const Json &v, const std::string &ptr)
{
    if (!expectMap(v, ptr, "a manifest"))
        return std::nullopt;
    const std::size_t before = errors.size();
    std::string kind;
    if (require(v, ptr, "a manifest", "apiVersion", "e.g. apps/v1") &&
        require(v, ptr, "a manifest", "kind", kindList())) {
        auto apiVersion = str(v["apiVersion"], child(ptr, "apiVersion"), "apiVersion");
        auto k = str(v["kind"], child(ptr, "kind"), "kind");
        if (apiVersion && k) {
            const KindInfo *info = nullptr;
            for (const auto &ki : kKinds)
                if (*k == ki.kind)
                    info = &ki;
            if (!info)
                error(at(child(ptr, "kind")),
                      "unsupported kind \"" + *k + "\" (expected one of: " + kindList() + ")");
            else if (*apiVersion != info->apiVersion)
                error(at(child(ptr, "apiVersion")), "apiVersion of a " + *k + " must be " + info->apiVersion +
                                                        ", got \"" + *apiVersion + "\"");
            else
                kind = *k;
        }
    }
    const auto mp = child(ptr, "metadata");
    if (require(v, ptr, "a manifest", "metadata", "a map with name") &&
        expectMap(v["metadata"], mp, "metadata")) {
        const Json &md = v["metadata"];
        if (require(md, mp, "metadata", "name", "the object's name"))
            if (auto n = nonEmpty(md["name"], child(mp, "name"), "metadata.name"))
                if (!isDnsName(*n))
                    error(at(child(mp, "name")),
                          "metadata.name \"" + *n + "\" must be lower-case letters, digits, '-' or '.'");
        if (md.contains("namespace"))
            if (auto n = nonEmpty(md["namespace"], child(mp, "namespace"), "metadata.namespace"))
                if (!isDnsName(*n))
                    error(at(child(mp, "namespace")),
                          "metadata.namespace \"" + *n + "\" is not a valid name");
        for (const char *field : {"labels", "annotations"})
            if (md.contains(field))
                stringMap(md[field], child(mp, field), std::string("metadata.") + field);
    }
    if (errors.size() != before)
        return std::nullopt;

    // Type-check the object through the typed model, as the engine will read it.
    auto typed = [&]() -> kube::Result<void> {
        if (kind == "DaemonSet") {
            auto ds = kube::DaemonSet::fromJson(v);
            if (!ds)
                return ds.error();
            auto sel = ds->selector();
            if (!sel)
                return sel.error();
            if (!v.contains("spec") || !v["spec"].contains("template"))
                return kube::ApiStatus::badRequest("a DaemonSet needs spec.template");
        } else if (kind == "ReplicaSet") {
            auto rs = kube::ReplicaSet::fromJson(v);
            if (!rs)
                return rs.error();
        } else if (kind == "Pod") {
            auto p = kube::Pod::fromJson(v);
            if (!p)
                return p.error();
        } else if (kind == "Node") {
            auto n = kube::Node::fromJson(v);
            if (!n)
                return n.error();
        } else if (kind == "ControllerRevision") {
            auto cr = kube::ControllerRevision::fromJson(v);
            if (!cr)
                return cr.error();
        }
        return {};
    }();
    if (!typed.ok()) {
        error(at(ptr), "invalid " + kind + ": " + typed.error().message);
        return std::nullopt;
    }
    ScenarioManifest m;
    m.where = at(ptr);
    m.object = v;
    const KindInfo *info = kindInfo(kind);
    if (info->namespaced && !m.object["metadata"].contains("namespace"))
        m.object["metadata"]["namespace"] = "default";
    return m;
}

void Checker::registerManifest(const ScenarioManifest &m)
{
    const std::string kind = m.object["kind"].get<std::string>();
    const Json &md = m.object["metadata"];
    const std::string name = md["name"].get<std::string>();
    const std::string ns = md.value("namespace", std::string());
    if (kind == "DaemonSet") {
        ScenarioRef r{ns, name};
        m_daemonSets.insert(r);
        std::set<std::string> names;
        const Json *containers = nullptr;
        const auto &spec = m.object.value("spec", Json::object());
        if (spec.contains("template") && spec["template"].contains("spec") &&
            spec["template"]["spec"].contains("containers"))
            containers = &spec["template"]["spec"]["containers"];
        if (containers && containers->is_array())
            for (const auto &c : *containers)
                if (c.is_object() && c.contains("name") && c["name"].is_string())
                    names.insert(c["name"].get<std::string>());
        m_containers[r] = names;
    } else if (kind == "ReplicaSet") {
        m_replicaSets.insert({ns, name});
    } else if (kind == "Node") {
        m_nodes.insert(name);
    }
}

std::optional<PodSelector> Checker::podSelector(const Json &v, const std::string &ptr,
                                                const std::string &what, bool forExpect)
{
    if (!expectMap(v, ptr, what))
        return std::nullopt;
    const std::size_t before = errors.size();
    if (forExpect)
        checkKeys(v, ptr, what,
                  {"daemonset", "owner", "all", "nodes", "hash", "ready", "limit", "count",
                   "onCurrentRevision", "labels"});
    else
        checkKeys(v, ptr, what, {"daemonset", "owner", "all", "nodes", "hash", "ready", "limit"});
    PodSelector sel;
    int sources = 0;
    if (v.contains("daemonset")) {
        ++sources;
        if (auto r = daemonSetRef(v["daemonset"], child(ptr, "daemonset"), "daemonset"))
            sel.daemonSet = r->text();
    }
    if (v.contains("owner")) {
        ++sources;
        const auto op = child(ptr, "owner");
        if (auto s = str(v["owner"], op, "owner")) {
            const std::string prefix = "replicaset/";
            std::optional<ScenarioRef> r;
            if (s->rfind(prefix, 0) == 0) {
                const auto rest = s->substr(prefix.size());
                const auto slash = rest.find('/');
                if (slash != std::string::npos && slash > 0 && slash + 1 < rest.size() &&
                    rest.find('/', slash + 1) == std::string::npos)
                    r = ScenarioRef{rest.substr(0, slash), rest.substr(slash + 1)};
            }
            if (!r)
                error(at(op), "owner must be replicaset/NAMESPACE/NAME, got \"" + *s + "\"");
            else if (!m_replicaSets.count(*r))
                error(at(op), "unknown ReplicaSet \"" + r->text() + "\" (" + known(m_replicaSets) + ")");
            else
                sel.replicaSet = r->text();
        }
    }
    if (v.contains("all")) {
        ++sources;
        if (auto b = boolean(v["all"], child(ptr, "all"), "all")) {
            if (!*b)
                error(at(child(ptr, "all")), "all: false selects nothing; use daemonset: NS/NAME or owner: "
                                             "replicaset/NS/NAME instead");
            sel.all = true;
        }
    }
    if (sources != 1)
        error(at(ptr),
              what + " needs exactly one of daemonset: NS/NAME, owner: replicaset/NS/NAME or all: true");
    if (v.contains("nodes")) {
        const Json &n = v["nodes"];
        const auto np = child(ptr, "nodes");
        if (!n.is_array()) {
            error(at(np), "nodes must be a list of node names, got " + typeName(n));
        } else {
            for (std::size_t i = 0; i < n.size(); ++i)
                if (auto name = nodeRef(n[i], child(np, i), "a node name"))
                    sel.nodes.push_back(*name);
        }
    }
    if (v.contains("hash")) {
        if (auto s = nonEmpty(v["hash"], child(ptr, "hash"), "hash (current or a revision hash)")) {
            if (sel.daemonSet.empty() && *s == "current")
                error(at(child(ptr, "hash")), "hash: current needs daemonset: NS/NAME in the same selector");
            sel.hash = *s;
        }
    }
    if (v.contains("ready")) {
        const Json &r = v["ready"];
        // In expect.pods an integer is the expected number of Ready pods, a boolean a filter.
        if (!(forExpect && (r.is_number_integer() || r.is_number_unsigned())))
            if (auto b = boolean(r, child(ptr, "ready"),
                                 forExpect ? "ready (a filter true|false, or a count)" : "ready"))
                sel.ready = *b;
    }
    if (v.contains("limit"))
        if (auto n = smallInt(v["limit"], child(ptr, "limit"), "limit", 0))
            sel.limit = *n;
    if (errors.size() != before)
        return std::nullopt;
    return sel;
}

bool Checker::intOrPercent(const Json &v, const std::string &ptr, const std::string &what)
{
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
        return true;
    if (v.is_number_unsigned())
        return true;
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        if (s.size() >= 2 && s.back() == '%' && std::all_of(s.begin(), s.end() - 1, [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            return true;
    }
    error(at(ptr), what + " must be a non-negative integer or a percentage such as 25%, got " + typeName(v));
    return false;
}

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
            if (!faultKindFromString(*s)) {
                std::string all;
                for (FaultKind k : allFaultKinds())
                    all += (all.empty() ? "" : ", ") + std::string(faultKindName(k));
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

bool Checker::stepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr)
{
    const std::size_t before = errors.size();
    const bool stepped = m_s.mode == ScenarioMode::Stepped;
    auto modeOnly = [&](bool wantStepped) {
        if (stepped != wantStepped)
            error(st.where, st.action + " is only available in " + (wantStepped ? "stepped" : "continuous") +
                                " mode (this scenario's mode is " + (stepped ? "stepped" : "continuous") +
                                ")");
    };
    switch (st.kind) {
    case StepKind::Sync:
        modeOnly(true);
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
        modeOnly(true);
        if (auto t = timePoint(arg, ptr, "setTime"))
            st.time = *t;
        break;
    case StepKind::Run:
        modeOnly(false);
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
    case StepKind::Rollback:
        rollbackStep(st, arg, ptr);
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

bool Checker::expectStep(ScenarioExpect &ex, const Json &arg, const std::string &ptr)
{
    if (!expectMap(arg, ptr, "expect"))
        return false;
    checkKeys(arg, ptr, "expect",
              {"sync", "daemonset", "revisions", "pods", "rollback", "node", "upgrade", "events", "history"});
    if (arg.contains("sync")) {
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
    if (arg.contains("daemonset")) {
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
                            error(at(vp), field + " must be an integer" +
                                              (t->second == "n" ? " or null" : "") + ", got " +
                                              typeName(value));
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
    if (arg.contains("revisions")) {
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
                         {std::pair{"image", &er.image}, std::pair{"name", &er.name},
                          std::pair{"hash", &er.hash}, std::pair{"changeCause", &er.changeCause}})
                        if (e.contains(k))
                            *field = str(e[k], child(ep, k), k);
                    if (e.contains("current"))
                        er.current = boolean(e["current"], child(ep, "current"), "current");
                    out.push_back(er);
                }
            }
        }
    }
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
    if (arg.contains("events")) {
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
                    error(at(lp), std::string(k) +
                                      " must be a list of {reason, object, type, message}, got " +
                                      typeName(e[k]));
                    continue;
                }
                for (std::size_t i = 0; i < e[k].size(); ++i)
                    if (auto ev = expectEvent(e[k][i], child(lp, i)))
                        out->push_back(*ev);
            }
        }
    }
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

} // namespace

kube::Result<Scenario> ScenarioParser::parseDocument(const kube::YamlDocument &document)
{
    Scenario scenario;
    scenario.file = document.file;
    Checker checker(document, scenario);
    checker.run();
    if (!checker.errors.empty()) {
        std::string message;
        for (const auto &e : checker.errors)
            message += (message.empty() ? "" : "\n") + e;
        return kube::ApiStatus::badRequest(message);
    }
    return scenario;
}

namespace {

kube::Result<Scenario> fromDocuments(const kube::Result<std::vector<kube::YamlDocument>> &docs,
                                     const std::string &fileName)
{
    if (!docs)
        return docs.error();
    if (docs->empty())
        return kube::ApiStatus::badRequest(fileName + ":1:1: the file is empty (expected a scenario map)");
    if (docs->size() > 1)
        return kube::ApiStatus::badRequest((*docs)[1].where("") +
                                           ": a scenario file holds one YAML document, found " +
                                           std::to_string(docs->size()));
    return ScenarioParser::parseDocument(docs->front());
}

} // namespace

kube::Result<Scenario> ScenarioParser::parseFile(const std::string &path)
{
    return fromDocuments(kube::loadYamlFile(path), path);
}

kube::Result<Scenario> ScenarioParser::parseText(const std::string &text, const std::string &fileName)
{
    return fromDocuments(kube::parseYamlDocuments(text, fileName), fileName);
}

} // namespace engine
