#pragma once
// DisruptionController — keeps PodDisruptionBudget status as kube-controller-manager's
// disruption controller does (pkg/controller/disruption, trySync): the pods a budget selects,
// how many are healthy, how many must be, how many may be disrupted now, and the pods whose
// eviction the API server has allowed but which are not deleted yet.
//
// A budget is synced when it is written or when a pod it selects (or selected at its last
// sync) or a ReplicaSet that scales its pods changes. Writes only the status, and only when it
// changes, so a cluster without budgets sees no extra writes at all.

#include "models/kube/poddisruptionbudget.h"
#include "models/sim/cluster.h"

#include <map>
#include <set>
#include <string>

namespace sim {

// Upstream's DeletionTimeout: an eviction the API server allowed is expected to have deleted
// its pod within this time; after it the pod counts again.
inline constexpr kube::Duration kPdbDeletionTimeout = 2 * 60 * 1000;

// The scale of a pod's controller, for budgets given as a percentage or as maxUnavailable:
// nullopt when the controller has no scale (a DaemonSet, or one that is gone).
using ControllerScale =
    std::function<std::optional<int>(const kube::OwnerReference &, const std::string &ns)>;

struct PdbSync
{
    kube::PodDisruptionBudgetStatus status;
    std::string error;                      // getExpectedPodCount failed: the fail-safe status
    std::optional<kube::Timestamp> recheck; // when a disrupted-pod entry times out
    bool noPods = false;
};

// trySync's arithmetic for one budget over the pods it selects (getExpectedPodCount,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus; failSafe when the expected count
// cannot be computed). The DisruptionAllowed condition's transition time is `now` when its
// status changes.
PdbSync computePdbStatus(const kube::PodDisruptionBudget &pdb, const std::vector<const kube::Pod *> &pods,
                         const ControllerScale &scaleOf, kube::Timestamp now);

class DisruptionController
{
public:
    explicit DisruptionController(Cluster::Impl &cluster) : c(cluster) {}

    void onPod(const WatchEvent &ev);
    void onBudget(const WatchEvent &ev);
    void onReplicaSet(const WatchEvent &ev);

    // Syncs the budget now (the eviction subresource reads a fresh status).
    void sync(const std::string &key);

private:
    void enqueue(const std::string &key);

    Cluster::Impl &c;
    std::set<std::string> m_queued;
    // budget key -> the pods it counted at its last sync; pod key -> the budgets counting it.
    std::map<std::string, std::set<std::string>> m_podsOf;
    std::map<std::string, std::set<std::string>> m_budgetsOf;
    std::map<std::string, kube::Timestamp> m_recheckAt; // the earliest recheck posted
    bool m_writing = false;
};

} // namespace sim
