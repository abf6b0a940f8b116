#pragma once
// NodeUpgradeRollout (upgrade.daemonscope.io/v1alpha1) — one node-agent upgrade towards a
// target version: the spec an operator writes and the status the NodeUpgradeController keeps
// (docs node-upgrade.md §1). Cluster-scoped. The JSON form of the spec is the one scenario
// files use for the `upgrade` step (durations as "10m", `unmanagedPodPolicy` as `immediate`,
// `never` or `{afterTimeout: 10m}`); CamelCase policy names are accepted as well.
//
// Everything the controller needs to resume after a restart is either here (in-flight pod
// deletions, removed nodes, recent node durations, pause bookkeeping) or in node annotations.

#include "models/api/phrase.h"
#include "models/kube/intorstring.h"
#include "models/kube/objectmeta.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace api {

inline constexpr const char *kNodeUpgradeApiVersion = "upgrade.daemonscope.io/v1alpha1";
inline constexpr const char *kNodeUpgradeKind = "NodeUpgradeRollout";
// The coordination.k8s.io/v1 Lease whose holder is the one controller acting on the rollouts
// (`daemonscope controller` replicas, `serve`'s built-in controller, a console that drives).
inline constexpr const char *kNodeUpgradeLeaseName = "daemonscope-node-upgrade-controller";

enum class UnmanagedPodPolicy { Immediate, AfterTimeout, Never };
enum class DrainTimeoutPolicy { Hold, Skip, Force };
enum class SingleReplicaPolicy { Allow, Block };
enum class UnreadyPodPolicy { AlwaysDelete, CountTowardHealth };
enum class HealthComparison { GreaterThan, AtLeast };
// How a drained node's agent is restarted: Annotation asks the node's agent through the
// upgrade/kamikaze annotation handshake; External leaves it to another tool (a managed node
// pool's upgrade, a reimage): the controller waits for the node to return on the target version;
// Job runs the rollout's Job template pinned to the node (as system-upgrade-controller runs its
// plans): acknowledged once its pod runs, failed when the Job fails.
enum class RestartMechanism { Annotation, External, Job };
// Pods with emptyDir volumes lose their data when evicted: Block keeps them (the node waits,
// naming them, as kubectl drain refuses without --delete-emptydir-data), Delete evicts them.
enum class LocalDataPolicy { Block, Delete };

enum class RolloutPhase {
    Pending,
    Progressing,
    Paused,
    Halted,
    Aborting,
    Aborted,
    Completed,
    CompletedWithExceptions
};
const char *rolloutPhaseName(RolloutPhase phase);
std::optional<RolloutPhase> rolloutPhaseFromString(const std::string &text);
bool isTerminal(RolloutPhase phase); // Aborted (a completed rollout still observes new nodes)

struct NodeUpgradeTimeouts
{
    kube::Duration drainStall = 5 * 60 * 1000;
    kube::Duration drainTimeout = 30 * 60 * 1000;
    kube::Duration replacementTimeout = 10 * 60 * 1000;
    kube::Duration terminationMargin = 2 * 60 * 1000;
    kube::Duration unmanagedTimeout = 60 * 60 * 1000;
    kube::Duration ackTimeout = 60 * 1000;
    int ackRetries = 3;
    kube::Duration returnTimeout = 10 * 60 * 1000;
    bool operator==(const NodeUpgradeTimeouts &) const = default;
    // All the time a restart request has to be acknowledged: ackTimeout, doubled for each of the
    // ackRetries re-sends (restart Job: the time its pod has to start running).
    kube::Duration acknowledgementBudget() const
    {
        kube::Duration budget = 0;
        for (int send = 0; send <= ackRetries; ++send)
            budget += ackTimeout << std::min(send, 20);
        return budget;
    }
};

struct NodeUpgradeRolloutSpec
{
    std::string targetVersion;
    kube::StringMap nodeSelector;
    kube::IntOrString maxUnavailable = kube::IntOrString::fromInt(1);
    int maxInflightPerController = 1;
    double controllerHealthThreshold = 0.9;
    HealthComparison healthComparison = HealthComparison::GreaterThan;
    SingleReplicaPolicy singleReplicaPolicy = SingleReplicaPolicy::Allow;
    UnreadyPodPolicy unreadyPodPolicy = UnreadyPodPolicy::AlwaysDelete;
    bool respectPDBs = true; // false: pods are deleted, PodDisruptionBudgets are not asked
    LocalDataPolicy localDataPolicy = LocalDataPolicy::Block;
    UnmanagedPodPolicy unmanagedPodPolicy = UnmanagedPodPolicy::AfterTimeout; // d = timeouts.unmanagedTimeout
    DrainTimeoutPolicy onDrainTimeout = DrainTimeoutPolicy::Hold;
    int maxFailedNodes = 1;
    bool zoneSerial = true;
    kube::Json maintenanceWindow; // kept, not evaluated yet
    kube::Duration postNodeDelay = 0;
    kube::Duration soakDuration = 2 * 60 * 1000;
    NodeUpgradeTimeouts timeouts;
    bool paused = false;
    std::string pauseReason;
    bool abort = false;
    bool allowSelfRestart = false;
    int maxStartsPerPass = 1;
    double minReadyRatio = 0;                                // 0 = off
    RestartMechanism restart = RestartMechanism::Annotation; // JSON restart: {mechanism: External}
    // restart Job: the namespace of the Jobs and their template (a batch/v1 JobTemplateSpec:
    // metadata and spec), checked for a pod template with containers and restartPolicy Never or
    // OnFailure.
    std::string restartJobNamespace = "kube-system";
    kube::Json restartJobTemplate;

    kube::Json toJson() const;
    static kube::Result<NodeUpgradeRolloutSpec> fromJson(const kube::Json &j);
    // The spec's field names, as toJson writes them (the optional ones included).
    static std::vector<std::string> fieldNames();
    // The keys spec.timeouts reads (a key outside them is ignored, as a structural schema
    // prunes it; the scenario format refuses it as misspelt).
    static std::vector<std::string> timeoutFieldNames();
    bool operator==(const NodeUpgradeRolloutSpec &) const = default;
};

struct NodeUpgradeCondition
{
    std::string type; // Progressing, Paused, Halted, Blocked, Complete, Degraded
    std::string status = "False";
    std::string reason;
    std::string message;
    kube::Timestamp lastTransitionTime = 0;
    bool operator==(const NodeUpgradeCondition &) const = default;
};

// A managed-pod deletion the controller issued whose replacement is not Ready yet.
struct InflightDeletion
{
    std::string controller; // "replicaset/NS/NAME"
    std::string podUid;
    std::string pod; // "NS/NAME"
    std::string node;
    kube::Timestamp time = 0;
    int readyBefore = 0; // Ready, non-terminating pods of the controller just before the deletion
    bool slowReported = false;
    bool operator==(const InflightDeletion &) const = default;
};

struct NodeUpgradeCounts
{
    int nodes = 0;
    int upToDate = 0;
    int upgraded = 0;
    int inFlight = 0;
    int pending = 0;
    int held = 0;
    int blocked = 0;
    int failed = 0;
    int skipped = 0;
    bool operator==(const NodeUpgradeCounts &) const = default;
};

// status.queue names the Pending nodes in their predicted order of selection, the first 100 of
// them: the status is written at every pass, and a list as long as the cluster would make each
// write cost as much as the cluster is large (20,000 names are ~400 KB, against the API server's
// 1.5 MB per object); counts.pending says how many wait in all.
constexpr std::size_t kStatusQueueLength = 100;

struct NodeUpgradeRolloutStatus
{
    RolloutPhase phase = RolloutPhase::Pending;
    std::int64_t observedGeneration = 0;
    std::string targetVersion; // the target of observedGeneration
    NodeUpgradeCounts counts;
    int unavailable = 0;
    int maxUnavailableResolved = 1;
    bool maxUnavailableClamped = false; // the percentage resolved to 0 and was raised to 1
    std::string headline;
    // The same headline as a phrase (phrasejson.h), so that a console which is not the one
    // driving the rollout phrases it in its user's language; empty when the writer sent none
    // or one this version cannot read (an unknown code), and the text is shown instead.
    Phrase headlinePhrase;
    std::optional<kube::Duration> eta;
    std::vector<NodeUpgradeCondition> conditions;
    std::vector<InflightDeletion> inflight;
    std::vector<std::string> queue;            // the first kStatusQueueLength nodes of the queue
    std::vector<std::string> removedNodes;     // nodes of this rollout deleted from the cluster
    std::vector<kube::Duration> nodeDurations; // selection -> Upgraded, most recent last (bounded)
    std::optional<kube::Timestamp> pausedAt;
    std::optional<kube::Timestamp> lastCompletion;
    std::optional<kube::Timestamp> startedAt;
    std::string refusal; // why the rollout does not start (OverlapWithRollout, SelfRestartNotAllowed)

    const NodeUpgradeCondition *condition(const std::string &type) const;
    // Sets a condition; lastTransitionTime changes only when the status changes.
    void setCondition(const std::string &type, bool status, const std::string &reason,
                      const std::string &message, kube::Timestamp now);

    kube::Json toJson() const;
    static kube::Result<NodeUpgradeRolloutStatus> fromJson(const kube::Json &j);
    // The status as the API stores it, fromJson(toJson()), without the encoding. Every field
    // comes back as written but two: eta (formatDuration keeps milliseconds only under a
    // minute) and the headline phrase (one its encoding cannot carry comes back empty); each goes
    // through its own encoding here. isStored() says whether normalize() would change nothing.
    void normalize();
    bool isStored() const;
    bool operator==(const NodeUpgradeRolloutStatus &) const = default;
};

// The NodeUpgradeRollout object named `name` with `spec` (JSON), as a client creates it:
// {apiVersion, kind, metadata: {name}, spec}.
kube::Json nodeUpgradeRolloutManifest(const std::string &name, const kube::Json &spec);

struct NodeUpgradeRollout
{
    kube::ObjectMeta metadata;
    NodeUpgradeRolloutSpec spec;
    NodeUpgradeRolloutStatus status;

    kube::Json toJson() const;
    static kube::Result<NodeUpgradeRollout> fromJson(const kube::Json &j);
};

// Times in annotations and status: RFC 3339 with milliseconds when they are not whole seconds,
// so that a restarted controller resumes its timers exactly.
std::string formatUpgradeTime(kube::Timestamp t);
std::optional<kube::Timestamp> parseUpgradeTime(const std::string &text);

const char *unmanagedPodPolicyName(UnmanagedPodPolicy p);
const char *drainTimeoutPolicyName(DrainTimeoutPolicy p);
const char *restartMechanismName(RestartMechanism m);
const char *localDataPolicyName(LocalDataPolicy p);

// The field a reader error names and the rest of the message: "restart.mechanism must be one of
// …" -> {"restart.mechanism", "must be one of …"}, "timeouts.drainTimeout: invalid duration …" ->
// {"timeouts.drainTimeout", "invalid duration …"}; an Invalid's "… is invalid: spec.targetVersion:
// Required value" -> {"spec.targetVersion", "Required value"}. Field empty when none is named.
// Both the API server (details.causes) and the scenario checker (the position) use it.
struct SpecError
{
    std::string field;
    std::string message;
};
SpecError splitSpecError(const std::string &message);
// The values a string field of the spec takes, as the API writes them ("onDrainTimeout":
// Hold, Skip, Force; "restart.mechanism": Annotation, External); empty for a field that is not an
// enumeration. (The reader also accepts
// them in any case, for scenario files.)
std::vector<std::string> nodeUpgradeSpecEnum(const std::string &field);
const char *singleReplicaPolicyName(SingleReplicaPolicy p);
const char *unreadyPodPolicyName(UnreadyPodPolicy p);

} // namespace api
