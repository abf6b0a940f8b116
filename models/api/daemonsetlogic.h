#pragma once
// Pure decision functions of the DaemonSet controller, each named after its upstream
// counterpart in kubernetes/kubernetes pkg/controller/daemon (daemon_controller.go, update.go,
// util/daemonset_util.go). They read values and return decisions; the controller
// (daemonsetcontroller.h) performs the writes. Tested from tables in tests/engine.

#include "models/kube/daemonset.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace api {

// ---- revisions ---------------------------------------------------------------------------

// getPatch: {"spec":{"template":<template + "$patch":"replace">}} as Go-compatible canonical
// JSON (keys sorted, compact). This is ControllerRevision.data and the rollback PATCH body.
std::string daemonSetPatch(const kube::Json &podTemplate);
// Match: byte equality of the regenerated patch with the revision's data.
bool matchRevision(const kube::DaemonSet &ds, const kube::ControllerRevision &cr);
// ComputeHash over the engine's canonical dump of the template (its sorted compact JSON),
// plus the collision bytes when collisionCount is set.
std::string templateHash(const kube::Json &podTemplate, std::optional<int> collisionCount);

struct HistorySplit
{
    std::vector<const kube::ControllerRevision *> current; // Match the DS template
    std::vector<const kube::ControllerRevision *> old;
    std::int64_t currRevision = 1; // max(old revisions) + 1
};
// constructHistory, step 3–4: split claimed revisions into current and old.
HistorySplit constructHistory(const kube::DaemonSet &ds,
                              const std::vector<const kube::ControllerRevision *> &claimed);

struct DedupDecision
{
    const kube::ControllerRevision *keep = nullptr;
    std::vector<const kube::ControllerRevision *> remove;
};
// dedupCurHistories: keep the highest revision (ties: the later one in the list), remove the rest.
DedupDecision dedupCurHistories(const std::vector<const kube::ControllerRevision *> &current);

// cleanupHistory: the old revisions to delete, oldest first, skipping live hashes, so that at
// most revisionHistoryLimit old revisions remain.
std::vector<const kube::ControllerRevision *>
cleanupHistory(std::vector<const kube::ControllerRevision *> old, int revisionHistoryLimit,
               const std::set<std::string> &liveHashes);

// ---- nodes -------------------------------------------------------------------------------

// The simulated daemon pod of NodeShouldRunDaemonPod, prepared once per sync: template
// nodeName, tolerations with the DaemonSet defaults added, and the template spec for
// nodeSelector / required node affinity.
struct DaemonPodPredicate
{
    std::string nodeName;
    std::vector<kube::Toleration> tolerations;
    const kube::Json *spec = nullptr; // template spec (must outlive the predicate)
    bool hasSelectorOrAffinity = false;
};
DaemonPodPredicate daemonPodPredicate(const kube::DaemonSet &ds);

struct ShouldRun
{
    bool shouldRun = false;
    bool shouldContinueRunning = false;
    bool operator==(const ShouldRun &) const = default;
};
// NodeShouldRunDaemonPod.
ShouldRun nodeShouldRunDaemonPod(const kube::Node &node, const DaemonPodPredicate &pod);
ShouldRun nodeShouldRunDaemonPod(const kube::Node &node, const kube::DaemonSet &ds);

// AddOrUpdateDaemonPodTolerations: the default tolerations every daemon pod carries.
void addOrUpdateDaemonPodTolerations(kube::Json &podSpec);

// ---- pods --------------------------------------------------------------------------------

// IsPodUpdated: hash label equal to the current hash, or pod-template-generation equal to the
// DS template generation.
bool isPodUpdated(const kube::Pod &pod, const std::string &hash, std::optional<std::int64_t> generation);
// podByCreationTimestampAndPhase: scheduled first, then older, then name.
bool podOlder(const kube::Pod *a, const kube::Pod *b);

// The daemon pods of one node as the controller sees them in one sync.
struct NodeDaemonPods
{
    std::string node;
    bool nodeExists = true;
    ShouldRun should;                    // from nodeShouldRunDaemonPod (false, false if no node)
    std::vector<const kube::Pod *> pods; // excludes pods that are terminal AND deleted
};

struct PodsOnNodeDecision
{
    bool createPod = false;
    std::vector<const kube::Pod *> toDelete;  // in upstream order
    std::vector<const kube::Pod *> failed;    // failed pods that were deleted (FailedDaemonPod events)
    std::vector<const kube::Pod *> succeeded; // succeeded pods that were deleted (SucceededDaemonPod)
    bool backoffRequeue = false;              // a failed pod was left alone because of backoff
};
// podsShouldBeOnNode. failedPodAllowed(pod) asks the per-node backoff whether a failed pod may
// be deleted now (and records the attempt); nullptr allows always.
PodsOnNodeDecision podsShouldBeOnNode(const NodeDaemonPods &entry, const std::string &hash, bool allowsSurge,
                                      int minReadySeconds, kube::Timestamp now,
                                      const std::function<bool(const kube::Pod &)> &failedPodAllowed = {});

// ---- rolling update ----------------------------------------------------------------------

struct Budget
{
    int maxSurge = 0;
    int maxUnavailable = 0;
    int desiredNumberScheduled = 0;
    bool operator==(const Budget &) const = default;
};
// SurgeCount / UnavailableCount (percentages round up; 0 unless RollingUpdate).
kube::Result<int> surgeCount(const kube::DaemonSet &ds, int numberToSchedule);
kube::Result<int> unavailableCount(const kube::DaemonSet &ds, int numberToSchedule);
bool allowsSurge(const kube::DaemonSet &ds);
// updatedDesiredNodeCounts: budgets for desired nodes; both 0 with desired > 0 forces
// maxUnavailable = 1.
kube::Result<Budget> updatedDesiredNodeCounts(const kube::DaemonSet &ds, int desiredNumberScheduled);

// findUpdatedPodsOnNode: at most one new and one old non-deleted pod, else ok = false.
struct UpdatedPods
{
    const kube::Pod *newPod = nullptr;
    const kube::Pod *oldPod = nullptr;
    bool ok = true;
};
UpdatedPods findUpdatedPodsOnNode(const std::vector<const kube::Pod *> &pods, const std::string &hash,
                                  std::optional<std::int64_t> generation);

struct RollingUpdatePlan
{
    std::vector<std::string> podsToDelete; // pod names, in the order upstream issues them
    std::vector<std::string> nodesToCreate;
    int numUnavailable = 0; // maxSurge == 0
    int numSurge = 0;       // maxSurge > 0
    int numAvailable = 0;   // maxSurge > 0
    int candidates = 0;
};
// rollingUpdate: entries sorted by node name (the engine's deterministic replacement for Go map
// order); must include every desired node (empty pods) and every node holding pods.
RollingUpdatePlan rollingUpdate(const std::vector<NodeDaemonPods> &entries, const Budget &budget,
                                const std::string &hash, std::optional<std::int64_t> generation,
                                int minReadySeconds, kube::Timestamp now);

// rollingUpdate in its two halves. What one node contributes — findUpdatedPodsOnNode's result
// and whether each pod found is available — depends only on that node's entry (and on the time
// when minReadySeconds > 0), so a controller may keep it between syncs for the nodes whose pods
// did not change; the plan is then a walk over these small records in node-name order. The
// pointers refer into the entry (its node name and pods) and live as long as it does.
struct RollingNode
{
    const std::string *node = nullptr;
    bool inMap = false;     // the node should run the pod or holds pods
    bool shouldRun = false; // nodeShouldRunDaemonPod
    bool ok = true;         // findUpdatedPodsOnNode found at most one new and one old pod
    bool oldAvailable = false;
    bool newAvailable = false;
    const kube::Pod *oldPod = nullptr;
    const kube::Pod *newPod = nullptr;
};
RollingNode rollingNode(const NodeDaemonPods &entry, const std::string &hash,
                        std::optional<std::int64_t> generation, int minReadySeconds, kube::Timestamp now);
RollingUpdatePlan rollingUpdatePlan(const std::vector<RollingNode> &nodes, const Budget &budget);

// ---- status ------------------------------------------------------------------------------

// One node's share of updateDaemonSetStatus's counters; the status is their sum.
struct StatusShare
{
    int desired = 0;
    int current = 0;
    int misscheduled = 0;
    int ready = 0;
    int available = 0;
    int updated = 0;
    bool operator==(const StatusShare &) const = default;
    StatusShare &operator+=(const StatusShare &o);
    StatusShare &operator-=(const StatusShare &o);
};
StatusShare daemonSetStatusShare(const NodeDaemonPods &entry, const std::string &hash,
                                 std::optional<std::int64_t> generation, int minReadySeconds,
                                 kube::Timestamp now);
// The status counters of a sum of shares (numberUnavailable = desired - available).
kube::DaemonSetStatus daemonSetStatusOf(const StatusShare &total);

// updateDaemonSetStatus's counters (collisionCount, observedGeneration, conditions untouched).
kube::DaemonSetStatus computeDaemonSetStatus(const std::vector<NodeDaemonPods> &entries,
                                             const std::string &hash, std::optional<std::int64_t> generation,
                                             int minReadySeconds, kube::Timestamp now);
// storeDaemonSetStatus's skip rule: nothing to write.
bool statusUnchanged(const kube::DaemonSet &ds, const kube::DaemonSetStatus &computed);

} // namespace api
