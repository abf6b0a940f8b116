#pragma once
// Pure decision functions of the node-agent upgrade controller (docs node-upgrade.md), tested
// from tables. Nothing here reads the cluster or the clock: callers pass observed values in.
//
// Conventions: "ready" counts of a controller never include pods with a deletionTimestamp;
// a percentage budget rounds down and is clamped to at least 1; every ordering has a total
// tie-breaker (the node name), so the same observations give the same queue on every run and
// after every restart.

#include "models/api/nodeupgradephrases.h"
#include "models/api/nodeupgraderollout.h"
#include "models/kube/pod.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace api {

// ---- per-node phases ----------------------------------------------------------------------

enum class NodePhase {
    UpToDate,
    Pending,
    Cordoned,
    DrainingManaged,
    DrainingUnmanaged,
    Restarting,
    Soaking,
    Upgraded,
    Failed,
    Skipped,
    Removed
};
const char *nodePhaseName(NodePhase phase);
std::optional<NodePhase> nodePhaseFromString(const std::string &text);
bool isInFlight(NodePhase phase);   // Cordoned .. Soaking: holds a budget slot
bool isPreRestart(NodePhase phase); // Cordoned, DrainingManaged, DrainingUnmanaged

// Node annotations (all state a restarted controller needs lives on the node).
namespace ann {
inline constexpr const char *kIncompatibleSince = "upgrade/incompatible-since";
inline constexpr const char *kPhase = "upgrade/phase";
inline constexpr const char *kPhaseSince = "upgrade/phase-since";
inline constexpr const char *kAttempt = "upgrade/attempt";
inline constexpr const char *kCordonedByController = "upgrade/cordoned-by-controller";
inline constexpr const char *kHold = "upgrade/hold";
inline constexpr const char *kReason = "upgrade/reason";
inline constexpr const char *kRollout = "upgrade/rollout"; // "NAME/GENERATION"
inline constexpr const char *kSelectedAt = "upgrade/selected-at";
inline constexpr const char *kDrainStart = "upgrade/drain-start";     // shifted by pauses
inline constexpr const char *kLastProgress = "upgrade/last-progress"; // last pod that left, shifted by pauses
inline constexpr const char *kRemaining = "upgrade/remaining";        // pods left at the last pass
inline constexpr const char *kBlocked = "upgrade/blocked";            // reason of the Blocked flag
inline constexpr const char *kDrainTimedOut = "upgrade/drain-timed-out";
inline constexpr const char *kForce = "upgrade/force";              // actor who forced the drain
inline constexpr const char *kKamikaze = "upgrade/kamikaze";        // request token "TARGET#ATTEMPT.SEND"
inline constexpr const char *kKamikazeAck = "upgrade/kamikaze-ack"; // written by the agent
inline constexpr const char *kKamikazeSent = "upgrade/kamikaze-sent";
inline constexpr const char *kKamikazeSends = "upgrade/kamikaze-sends";
inline constexpr const char *kAckAt = "upgrade/ack-at"; // acknowledged (External: handed over)
// The node's status.nodeInfo.bootID when the restart was asked: a different one since means the
// node rebooted, even when its Ready condition never changed (a fast reboot).
inline constexpr const char *kBootId = "upgrade/boot-id";
// restart External: the hand-over token "TARGET#ATTEMPT.0" (no request goes to the node's agent)
inline constexpr const char *kHandover = "upgrade/handover";
inline constexpr const char *kFailureAcknowledged = "upgrade/failure-acknowledged";
inline constexpr const char *kUnmanagedDeleted = "upgrade/unmanaged-deleted";
// restart Job: the node's restart Job "NAMESPACE/NAME" (the name ends in the attempt).
inline constexpr const char *kRestartJob = "upgrade/restart-job";
// On the restart Job's pod template: the version the Job installs (the node's agent reads it).
inline constexpr const char *kTargetVersion = "upgrade/target-version";
} // namespace ann

// Labels of the restart Jobs and their pods: the rollout and the node they restart. Pods with
// kRestartJobNodeLabel are the controller's own and never drained.
inline constexpr const char *kRestartJobRolloutLabel = "upgrade/rollout";
inline constexpr const char *kRestartJobNodeLabel = "upgrade/node";

// Node label naming the node that hosts the controller itself (it goes last).
inline constexpr const char *kControllerHostLabel = "upgrade/controller-host";
// Node conditions showing a drain to other tools (status.conditions of the node).
inline constexpr const char *kDrainInProgressCondition = "DrainInProgress";
inline constexpr const char *kDrainedCondition = "Drained";
// Soft steering taint put on every incompatible node of a running rollout.
inline constexpr const char *kPendingTaintKey = "upgrade/pending";
inline constexpr const char *kZoneLabel = "topology.kubernetes.io/zone";

// Token the controller writes to ask the agent for a restart; the agent echoes it back.
std::string kamikazeToken(const std::string &target, int attempt, int send);
std::string kamikazeTarget(const std::string &token); // "" when malformed

// ---- restart Jobs ------------------------------------------------------------------------------

// "<rollout>-<node>-<attempt>"; a longer one than a label value allows (63) is cut and ends in
// a hash of the whole, so that names stay distinct.
std::string restartJobName(const std::string &rollout, const std::string &node, int attempt);
// The Job a restart runs (restart mechanism Job): the rollout's jobTemplate named `name` in
// jobNamespace, labelled with the rollout and the node (Job and pod), its pod pinned to the
// node (spec.nodeName), tolerating the cordon and the upgrade/pending taint, restartPolicy Never
// unless the template says OnFailure, annotated with the target version, and every container
// given UPGRADE_TARGET_VERSION and UPGRADE_NODE_NAME.
kube::Json restartJobManifest(const kube::Json &jobTemplate, const std::string &jobNamespace,
                              const std::string &name, const std::string &rollout, const std::string &node,
                              const std::string &target);
// The node annotation ann::kRestartJob: "TARGET#NAMESPACE/NAME" (kamikazeTarget reads the target).
std::string restartJobToken(const std::string &target, const std::string &ns, const std::string &name);
std::pair<std::string, std::string> restartJobOf(const std::string &token); // namespace, name

// ---- pods ------------------------------------------------------------------------------------

enum class PodClass { Ignored, DaemonSet, Managed, Unmanaged };
const char *podClassName(PodClass c);

// Upstream counterpart: kubectl drain's pod filters (mirror, DaemonSet, unreplicated, finished).
// `controllerExists` says whether the pod's controller object is present in the cluster.
PodClass classifyPod(const kube::Pod &pod, bool controllerExists);
bool isReplicatedOwnerKind(const std::string &kind);

// ---- budget --------------------------------------------------------------------------------

struct ResolvedBudget
{
    int value = 1;
    bool clamped = false; // the percentage rounded down to 0 and was raised to 1
    bool operator==(const ResolvedBudget &) const = default;
};
ResolvedBudget resolveMaxUnavailable(const kube::IntOrString &maxUnavailable, int nodes);

// ---- the per-controller health gate ------------------------------------------------------------

struct ControllerHealth
{
    int desired = 0;  // spec.replicas
    int ready = 0;    // Ready pods without deletionTimestamp (R')
    int inflight = 0; // our deletions whose replacement is not Ready yet (I)
};

enum class GateVerdict {
    Delete,              // healthy and a free in-flight slot
    DeleteUnready,       // the pod is not serving: deleted without consuming the gate
    DeleteSingleReplica, // D = 1, policy Allow, controller healthy: delete with a Warning
    DeferHealth,         // R'/D not above the threshold
    DeferInflight,       // I >= maxInflightPerController
    DeferSingleReplica   // D = 1, policy Block
};
const char *gateVerdictName(GateVerdict v);
bool allowsDeletion(GateVerdict v);
// Does the deletion of a Ready (or, with CountTowardHealth, any) pod consume an in-flight slot.
bool consumesInflight(GateVerdict v);

bool controllerHealthy(int ready, int desired, double threshold, HealthComparison comparison);
GateVerdict controllerGate(const ControllerHealth &health, bool podReady, const NodeUpgradeRolloutSpec &spec);
// "rs/web 8/10 ready < 90 %" — the blocker text of a deferred deletion.
Phrase gateRule(const std::string &controller, const ControllerHealth &health, GateVerdict verdict,
                const NodeUpgradeRolloutSpec &spec);

// ---- unmanaged pods --------------------------------------------------------------------------

struct UnmanagedDecision
{
    bool deleteNow = false;
    bool never = false;           // policy Never: wait for an admin
    kube::Duration remaining = 0; // AfterTimeout: time left of the countdown
    bool operator==(const UnmanagedDecision &) const = default;
};
UnmanagedDecision unmanagedDecision(UnmanagedPodPolicy policy, kube::Duration timeout,
                                    kube::Timestamp incompatibleSince, kube::Timestamp now);

// ---- selection -------------------------------------------------------------------------------

struct SelectionCandidate
{
    std::string name;
    std::string zone;
    int managedPods = 0;
    int unmanagedPods = 0;
    kube::Timestamp incompatibleSince = 0;
    bool controllerHost = false;
    bool ready = true; // a NotReady node cannot take a restart request: it waits, queued last
};

// Zone-serial: the first (alphabetically) zone with nodes in flight, else the first zone with a
// Ready candidate other than the controller's own node (its zone only when it is all that is
// left). A zone whose only candidates are NotReady is passed over, so one node that cannot take a
// restart request never stalls the zones after it; it is chosen only when nothing else is left.
// "" when there is nothing to choose (or zoneSerial is off).
std::string activeZone(const std::set<std::string> &inFlightZones,
                       const std::vector<SelectionCandidate> &candidates, bool zoneSerial);
// The predicted queue: the controller's own node last of all, NotReady nodes before it (they
// wait until Ready); otherwise the active zone first, then the other zones alphabetically; within
// a zone empty nodes first, then fewest managed pods, oldest incompatible-since, name.
std::vector<SelectionCandidate> orderCandidates(std::vector<SelectionCandidate> candidates, bool zoneSerial,
                                                const std::string &activeZone);
// How many nodes may start this pass.
int startsAllowed(int maxUnavailable, int unavailable, int maxStartsPerPass);

// ---- reporting -------------------------------------------------------------------------------

// remaining ≈ median node duration × remaining nodes ÷ effective concurrency.
std::optional<kube::Duration> estimateEta(std::vector<kube::Duration> durations, int remainingNodes,
                                          int concurrency);

struct HeadlineInput
{
    RolloutPhase phase = RolloutPhase::Pending;
    Phrase refusal;                  // OverlapWithRollout / SelfRestartNotAllowed message
    std::vector<std::string> failed; // "n4 did not return after restart"
    std::string pausedBy;            // ByUser actor or FailureThresholdReached
    std::optional<kube::Timestamp> pausedAt;
    std::vector<Phrase> stillInFlight; // "n7 still restarting (3m/10m)"
    Phrase gateFailure;                // cluster gate (minReadyRatio, postNodeDelay)
    int budgetUsed = 0;
    int budgetMax = 1;
    std::vector<Phrase> foreignHolders; // slots held by something other than progressing nodes
    Phrase blockedNode;                 // "n9 blocked 12m: rc/web 8/10 ready (< 90 %)"
    Phrase stalled; // nothing in flight and nothing can start: why ("n4 is NotReady; …")
    NodeUpgradeCounts counts;
    std::optional<kube::Duration> eta;
};
// Priority: Halted > Paused > gate failed > budget exhausted > stalled > per-node blocked >
// progressing.
Phrase headline(const HeadlineInput &in);
std::string clockTime(kube::Timestamp t); // "10:02"

} // namespace api
