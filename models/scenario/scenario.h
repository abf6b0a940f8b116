#pragma once
// Scenario — a parsed and validated scenario file (docs/scenarios.md). Every value here has
// already been checked against the format: the runner never meets a wrong type, a bad
// duration or an unknown reference, so a scenario either runs or is rejected as a whole.
// Each part keeps `where` ("file:line:column") so runtime messages can point into the file.

#include "models/kube/gojson.h"
#include "models/kube/objectmeta.h"
#include "models/kube/taint.h"
#include "models/kube/timeutil.h"
#include "models/sim/podselector.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scenario {

enum class ScenarioMode { Stepped, Continuous };

// Namespace/name of an object named by a step ("default/web").
struct ScenarioRef
{
    std::string namespace_;
    std::string name;
    std::string text() const { return namespace_ + "/" + name; }
    bool operator<(const ScenarioRef &o) const
    {
        return namespace_ != o.namespace_ ? namespace_ < o.namespace_ : name < o.name;
    }
    bool operator==(const ScenarioRef &) const = default;
};

// One entry of cluster.nodes / addNodes: `count` generated nodes or one named node.
// The most nodes a scenario may declare, in all its node specs together (the product is
// measured at 10,000): more is refused at the count that goes over, before any is built.
constexpr int kMaxScenarioNodes = 100'000;

struct ScenarioNodeSpec
{
    std::string where;
    int count = 0; // 0: a single node called `name`
    std::string name;
    std::string namePrefix = "node-";
    kube::StringMap labels;
    std::string agentVersion = "v1.0.0";
    std::vector<kube::Taint> taints;
    int allocatablePods = 110;
    bool unschedulable = false;
    std::vector<std::string> names; // resolved node names (generated numbering continues per prefix)
};

struct ScenarioKubelet
{
    std::optional<kube::Duration> startDelay;
    std::optional<kube::Duration> readyDelay;
    std::optional<kube::Duration> terminationGrace;
    std::optional<double> jitter; // fraction: "20%" -> 0.2
    std::vector<std::string> failingImages;
};

struct ScenarioManifest
{
    std::string where;
    kube::Json object;
};

enum class RunConditionKind { RolloutComplete, UpgradeComplete, PodsReady, Time };

struct ScenarioRunCondition
{
    RunConditionKind kind = RunConditionKind::Time;
    ScenarioRef daemonSet; // rolloutComplete
    std::string upgrade;   // upgradeComplete
    int podsReady = 0;
    kube::Timestamp time = 0; // absolute virtual time
    kube::Duration timeout = 10 * 60 * 1000;
};

struct ScenarioExpectPods
{
    std::string where;
    sim::PodSelector selector;
    std::optional<int> count;
    std::optional<int> ready;
    std::optional<int> onCurrentRevision;
    kube::StringMap labels; // every selected pod carries these labels
};

struct ScenarioExpectRevision
{
    std::string where;
    std::optional<std::int64_t> revision;
    std::optional<std::string> image; // first container's image
    std::optional<std::string> name;
    std::optional<std::string> hash;
    std::optional<std::string> changeCause; // kubernetes.io/change-cause or "<none>"
    std::optional<bool> current;
};

struct ScenarioExpectEvent
{
    std::string where;
    std::optional<std::string> reason;
    std::optional<std::string> object; // kind/ns/name or node/NAME, as in the trace
    std::optional<std::string> type;
    std::optional<std::string> message; // substring
};

// `kubectl rollout history` output (exact text) or error message.
struct ScenarioExpectHistory
{
    std::string where;
    ScenarioRef daemonSet;
    std::optional<std::int64_t> revision;
    std::string output;
};

struct ScenarioExpect
{
    std::optional<int> syncCreates;
    std::optional<int> syncDeletes;
    std::string syncWhere;
    // DaemonSet fields: status counters, observedGeneration, generation, collisionCount,
    // paused, updateStrategy, templateGeneration.
    std::map<ScenarioRef, std::map<std::string, kube::Json>> daemonSets;
    std::map<ScenarioRef, std::string> daemonSetWhere;
    std::map<ScenarioRef, std::vector<ScenarioExpectRevision>> revisions;
    std::map<ScenarioRef, std::string> revisionsWhere;
    std::vector<ScenarioExpectPods> pods;
    std::optional<std::string> rollback;
    std::string rollbackWhere;
    std::vector<ScenarioExpectEvent> eventsContain;
    std::vector<ScenarioExpectEvent> eventsNotContain;
    std::vector<ScenarioExpectHistory> history;
    // Node-agent upgrade state, checked by NodeUpgradeRuntime: {NODE: {field: value}} and
    // {ROLLOUT: {field: value}}; empty objects when the expect has none.
    kube::Json expectNode = kube::Json::object();
    kube::Json expectUpgrade = kube::Json::object();
    std::string expectNodeWhere;
    std::string expectUpgradeWhere;
};

enum class StepKind {
    Sync,
    Advance,
    SetTime,
    Run,
    Apply,
    Patch,
    SetImage,
    SetStrategy,
    Delete,
    MarkReady,
    MarkNotReady,
    SetPodLabels,
    SetPodPhase,
    AddNodes,
    TaintNode,
    UntaintNode,
    Cordon,
    Uncordon,
    Fault,
    Rollback,
    Pause,
    Resume,
    Upgrade,
    UpgradeControl,
    RestartController,
    RestartNode,
    Expect,
};

struct ScenarioStep
{
    StepKind kind = StepKind::Expect;
    std::string action; // the step's key as written ("sync", "setImage", ...)
    std::string where;  // position of that key
    int index = 0;      // 1-based

    ScenarioRef target;          // sync, setImage, setStrategy, rollback, pause, resume, patch, delete
    std::string targetKind;      // patch/delete: DaemonSet, Pod, Node, ReplicaSet, ...
    kube::Duration duration = 0; // advance
    kube::Timestamp time = 0;    // setTime (absolute)
    ScenarioRunCondition run;
    std::vector<ScenarioManifest> manifests; // apply
    std::string patchType;                   // merge | json | strategic
    kube::Json patch;
    std::string container; // setImage
    std::string image;
    std::string strategyType; // setStrategy
    std::optional<kube::Json> maxUnavailable;
    std::optional<kube::Json> maxSurge;
    std::optional<sim::PodSelector> pods; // markReady, markNotReady, setPodLabels, delete
    kube::StringMap labels;               // setPodLabels
    std::string phase;                    // setPodPhase
    std::vector<ScenarioNodeSpec> nodes;  // addNodes
    std::string node;                     // taint/untaint/cordon/uncordon/fault
    kube::Taint taint;
    std::string faultKind;
    std::int64_t toRevision = 0; // rollback
    kube::Json upgradeArgs;      // upgrade, upgradeControl: the checked map; restartController: its name
    ScenarioExpect expect;
};

struct Scenario
{
    std::string file;
    std::string name;
    std::uint64_t seed = 1;
    ScenarioMode mode = ScenarioMode::Continuous;
    kube::Timestamp start = 0;
    std::vector<ScenarioNodeSpec> nodes;
    ScenarioKubelet kubelet;
    std::vector<ScenarioManifest> objects;
    std::vector<ScenarioStep> steps;
};

// The virtual clock's default start when a scenario gives none: a fixed instant, so that a
// scenario without `start` is still deterministic.
inline constexpr kube::Timestamp kDefaultScenarioStart = 1767225600000; // 2026-01-01T00:00:00Z

} // namespace scenario
