#pragma once
// The scenario file's validator, shared by the scenario parser's files and private to them:
// scenarioparser.cpp (the walk from the top level, the cluster section, nodes, manifests, pod
// selectors), scenariocheckersteps.cpp (the steps) and scenariocheckerexpect.cpp (the expect step).

#include "models/kube/timeutil.h"
#include "models/kube/yamldocument.h"
#include "models/scenario/scenario.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace scenario::scenariocheck {

using kube::Json;

// The kinds a scenario may create; their names, apiVersions and scopes come from api::Kind.
struct KindInfo
{
    const char *kind;
    const char *apiVersion;
    bool namespaced;
};

// The kind by its name or by any name kubectl accepts for it; null when the scenario may not create it.
const KindInfo *kindInfo(const std::string &kind);
// The kinds a scenario may create, comma-separated.
std::string kindList();
// How a message names a value of the wrong type ("a map", "the string \"x\"", ...).
std::string typeName(const Json &v);
// The JSON pointer of a map entry or a list element below `ptr`.
std::string child(const std::string &ptr, const std::string &key);
std::string child(const std::string &ptr, std::size_t index);

// The taint effects a taint may name: NoSchedule, PreferNoSchedule, NoExecute.
extern const std::set<std::string> kTaintEffects;

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
    std::optional<sim::PodSelector> podSelector(const Json &v, const std::string &ptr,
                                                const std::string &what, bool forExpect);
    bool intOrPercent(const Json &v, const std::string &ptr, const std::string &what);
    void step(const Json &v, const std::string &ptr, int index);
    bool stepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr);
    void nodeStepArgs(ScenarioStep &st, const Json &arg, const std::string &ptr);
    // Reports a step that the scenario's mode does not offer.
    void modeOnly(const ScenarioStep &st, bool wantStepped);
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
    void expectSync(ScenarioExpect &ex, const Json &arg, const std::string &ptr);
    void expectDaemonSets(ScenarioExpect &ex, const Json &arg, const std::string &ptr);
    void expectRevisions(ScenarioExpect &ex, const Json &arg, const std::string &ptr);
    void expectEvents(ScenarioExpect &ex, const Json &arg, const std::string &ptr);
    Json expectUpgradeState(const Json &v, const std::string &ptr, const std::string &what,
                            const std::map<std::string, char> &fields);
    std::optional<ScenarioExpectPods> expectPods(const Json &v, const std::string &ptr);
    std::optional<ScenarioExpectEvent> expectEvent(const Json &v, const std::string &ptr);
    std::optional<ScenarioExpectHistory> expectHistory(const Json &v, const std::string &ptr);

    void registerManifest(const ScenarioManifest &m);
    void registerNodeSpec(ScenarioNodeSpec &spec, const std::string &ptr);
};

} // namespace scenario::scenariocheck
