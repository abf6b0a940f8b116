#pragma once
// kubectl drain's decisions as pure functions (k8s.io/kubectl/pkg/drain): which pods a drain
// evicts, which it leaves alone and which make it refuse (GetPodsForDeletion and its filters
// skipDeletedFilter, daemonSetFilter, mirrorPodFilter, localStorageFilter,
// unreplicatedFilter), and the words of the outcome. One home for the console's drain on both
// backends, the drain dialog's preview and the node-upgrade controller's pod classes: the
// caller reads the pods and budgets, asks these functions, and sends the evictions itself.
//
// Assumptions: the pods are those bound to the node (fieldSelector spec.nodeName), in the
// API's list order (namespace, then name); a drain is kubectl drain --ignore-daemonsets with an
// optional --delete-emptydir-data, never --force. Like kubectl, a finished pod (Succeeded,
// Failed) passes every filter: it is removed without a local-storage or controller check, and
// the eviction subresource deletes it without asking its budget.

#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace api {

inline constexpr const char *kMirrorPodAnnotation = "kubernetes.io/config.mirror";

struct DrainOptions
{
    bool ignoreDaemonSets = true;
    bool deleteEmptyDirData = false;
    bool force = false; // unmanaged pods and orphaned DaemonSet pods are deleted too
};

enum class DrainVerdict {
    Evict,              // evicted through the Eviction API; its budget decides
    EvictFinished,      // a finished pod: removed, no check applies
    SkipDaemonSet,      // --ignore-daemonsets: the DaemonSet controller owns it
    SkipMirror,         // a static pod's mirror: the kubelet owns it
    RefuseDaemonSet,    // a DaemonSet pod without --ignore-daemonsets
    RefuseLocalStorage, // an emptyDir volume without --delete-emptydir-data
    RefuseUnmanaged,    // no controller, without --force
    RefuseOrphan        // its DaemonSet is gone, without --force
};

struct DrainPodDecision
{
    std::string namespace_;
    std::string name;
    DrainVerdict verdict = DrainVerdict::Evict;
    std::string key() const { return namespace_ + "/" + name; }
    bool evicts() const { return verdict == DrainVerdict::Evict || verdict == DrainVerdict::EvictFinished; }
    bool skipped() const
    {
        return verdict == DrainVerdict::SkipDaemonSet || verdict == DrainVerdict::SkipMirror;
    }
    bool refused() const { return !evicts() && !skipped(); }
};

struct DrainPlan
{
    std::vector<DrainPodDecision> pods; // every pod on the node, in list order

    bool refused() const; // kubectl drain stops before its first eviction
    std::vector<DrainPodDecision> toEvict() const;
    // kubectl's errors, one line each, sorted: "cannot delete Pods with local storage (use
    // --delete-emptydir-data to override): default/a, default/b".
    std::vector<std::string> errors() const;
    // kubectl's warning: "ignoring DaemonSet-managed Pods: default/agent-x" (empty when none).
    std::string warning() const;
};

// Whether the pod is a static pod's mirror (annotation kubernetes.io/config.mirror).
bool isMirrorPod(const kube::Pod &pod);
// hasLocalStorage: a volume of type emptyDir.
bool hasLocalStorage(const kube::Pod &pod);

// GetPodsForDeletion over the node's pods. `daemonSetExists(ns, name)` answers daemonSetFilter's
// GET of the pod's DaemonSet; empty: every DaemonSet exists.
using DaemonSetExists = std::function<bool(const std::string &ns, const std::string &name)>;
DrainPlan getPodsForDeletion(const std::vector<const kube::Pod *> &podsOnNode, const DrainOptions &options,
                             const DaemonSetExists &daemonSetExists = {});

// The budget covering the pod (same namespace, selector matches), null when none.
const kube::PodDisruptionBudget *
coveringBudget(const kube::Pod &pod, const std::vector<const kube::PodDisruptionBudget *> &budgets);
// Why an eviction is refused, with the budget's numbers: "api-x: cannot evict, would violate
// PodDisruptionBudget default/api (minAvailable 2, 2 healthy of 3)". Without a budget (it could
// not be read): "api-x: cannot evict: MESSAGE" with the server's message.
std::string budgetBlockText(const std::string &pod, const kube::PodDisruptionBudget *budget,
                            const std::string &serverMessage);

// The retry schedule of evictions a budget refuses (429): kubectl retries every 5 s until its
// --timeout (no end by default); a console must not hang, so the drain retries after these
// delays (15 s in all) and then finishes, naming the pods still blocked. The node stays
// cordoned, as after kubectl drain --timeout.
std::vector<int> drainRetryDelaysMs();

// The outcome's words: "drained 3 of 3 pods", "drained 2 of 3 pods; api-x: cannot evict, …",
// with "; skipped 1 DaemonSet pod" when some were left alone.
std::string drainSummary(int evicted, int toEvict, int skippedDaemonSet,
                         const std::vector<std::string> &blockers);

// A drain in progress after its plan: each round evicts every pending pod through the
// backend's own eviction call (the embedded engine's, or the API server's pods/eviction);
// pods a budget refuses wait for the next round, after `delays` (drainRetryDelaysMs()), and
// are named in the outcome when the delays are used up. Both backends run their drains on it.
class DrainRun
{
public:
    enum class Eviction { Evicted, Blocked, Failed };
    struct Answer
    {
        Eviction outcome = Eviction::Failed;
        std::string text; // Blocked: budgetBlockText(); Failed: "POD: the API's message"
    };
    using Evict = std::function<Answer(const std::string &ns, const std::string &name)>;

    DrainRun() = default;
    explicit DrainRun(const DrainPlan &plan); // the pods the plan evicts, its skipped DaemonSet pods

    // One round. The delay in ms before the next one, or none when the run is over.
    std::optional<int> round(const Evict &evict, const std::vector<int> &delays);
    bool ok() const { return m_failures.empty() && m_blockers.empty(); }
    std::string summary() const; // drainSummary() of the outcome so far

private:
    std::vector<std::pair<std::string, std::string>> m_pending; // namespace, name
    int m_toEvict = 0;
    int m_evicted = 0;
    int m_skippedDaemonSet = 0;
    std::size_t m_attempt = 0;
    std::vector<std::string> m_failures; // not retried (API errors other than 429)
    std::vector<std::string> m_blockers; // of the last round
};

} // namespace api
