// ScenarioParser: reads a scenario file and runs the Checker (scenariochecker.h) over it. Here are
// the checker's shared helpers, its walk from the top level and the cluster section (nodes, kubelet,
// manifests, taints, pod selectors); its steps are in scenariocheckersteps.cpp, the expect step in
// scenariocheckerexpect.cpp.

#include "models/scenario/scenarioparser.h"

#include "models/api/kind.h"
#include "models/api/nodeupgraderollout.h"
#include "models/kube/daemonset.h"
#include "models/kube/labelselector.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/yamldocument.h"
#include "models/scenario/scenariochecker.h"
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

} // namespace

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

namespace {

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

} // namespace

const std::set<std::string> kTaintEffects = {"NoSchedule", "PreferNoSchedule", "NoExecute"};

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

std::optional<sim::PodSelector> Checker::podSelector(const Json &v, const std::string &ptr,
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
    sim::PodSelector sel;
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

} // namespace scenario::scenariocheck

namespace scenario {

using scenariocheck::Checker;

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

} // namespace scenario
