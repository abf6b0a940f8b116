#pragma once
// DaemonSetClient — what the DaemonSet controller sees of a cluster, as upstream's is handed its
// informers' listers, PodControl and the history and status clients: the DaemonSets, the nodes,
// the pods a controller owns (also per node) and a namespace's orphans, the ControllerRevisions,
// the writes it makes, events, the clock, the informers' delivery and the work queue's timers.
// The simulated cluster implements it over its store (models/engine/controllerclients.*); the
// controller sees nothing else of it. Keys are "namespace/name".

#include "models/controllers/syncqueue.h"
#include "models/kube/apistatus.h"
#include "models/kube/daemonset.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/result.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace controllers {

// One pod create/delete issued by the DaemonSet controller, in the order issued.
struct PodCreate
{
    std::string node;
    std::string pod; // name of the created pod
};

struct PodDelete
{
    std::string pod;
    std::string node;
};

// What one sync of a DaemonSet did.
struct SyncResult
{
    bool ok = true;
    kube::ApiStatus error; // when !ok: why the sync failed (it would be requeued with backoff)
    std::vector<PodCreate> creates;
    std::vector<PodDelete> deletes;
};

class DaemonSetClient
{
public:
    // Pods by name, in name order; the same per node name.
    using Pods = std::map<std::string_view, const kube::Pod *>;
    using PodsByNode = std::map<std::string, Pods>;

    // ---- clock, informers, work queue ----
    virtual kube::Timestamp now() const = 0;
    // Whether the cluster runs its controllers (continuous); otherwise syncs are asked for.
    virtual bool continuous() const = 0;
    // Runs `fn` as an informer handler would: after the write being observed has committed.
    virtual void deliver(std::function<void()> fn) = 0;
    virtual Timers &timers() = 0;

    // ---- listers ----
    virtual const kube::DaemonSet *daemonSet(const std::string &key) const = 0;
    // The key of the DaemonSet with this UID, null when none.
    virtual const std::string *daemonSetKeyOfUid(const std::string &uid) const = 0;
    // The DaemonSets of namespace `ns`; every DaemonSet (with its key). Both in key order.
    virtual std::vector<const kube::DaemonSet *> daemonSetsIn(const std::string &ns) const = 0;
    virtual void
    forEachDaemonSet(const std::function<void(const std::string &, const kube::DaemonSet &)> &fn) const = 0;
    // The nodes by name; how many; a number that changes whenever a node is added or removed.
    virtual std::vector<const kube::Node *> nodes() const = 0;
    virtual std::size_t nodeCount() const = 0;
    virtual std::uint64_t nodeSetVersion() const = 0;
    virtual const kube::Pod *pod(const std::string &key) const = 0;
    // The pods whose controller has this UID, also by node; the pods of `ns` without a
    // controller. Null: none.
    virtual const Pods *podsControlledBy(const std::string &uid) const = 0;
    virtual const PodsByNode *podsControlledByPerNode(const std::string &uid) const = 0;
    virtual const Pods *orphanPods(const std::string &ns) const = 0;
    // A number that changes whenever a claim may: a pod without a controller appears, or a pod's
    // labels or owners change.
    virtual std::uint64_t podClaimVersion() const = 0;
    virtual const kube::ControllerRevision *revision(const std::string &key) const = 0;
    // The revisions of namespace `ns`, in key order.
    virtual std::vector<const kube::ControllerRevision *> revisionsIn(const std::string &ns) const = 0;
    // The pod template's spec as the cluster shares equal specs between its pods.
    virtual std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) = 0;

    // ---- writes ----
    // PodControl: a new pod (its name generated from metadata.generateName); a deletion as an
    // API client's (a refusal is returned, a pod already gone is NotFound).
    virtual kube::Result<const kube::Pod *> createPod(kube::Pod pod) = 0;
    virtual kube::Result<void> deletePod(const std::string &ns, const std::string &name) = 0;
    // The pod with its owner references or labels changed (claims, relabelling).
    virtual void updatePod(kube::Pod pod) = 0;
    // History: a new revision, a revision rewritten (owners, labels, number), one deleted.
    virtual const kube::ControllerRevision *createRevision(kube::ControllerRevision cr) = 0;
    virtual const kube::ControllerRevision *updateRevision(kube::ControllerRevision cr) = 0;
    virtual void deleteRevision(const std::string &key) = 0;
    // The DaemonSet's status (and collision count) written.
    virtual void updateDaemonSetStatus(kube::DaemonSet ds) = 0;
    // An Event about the DaemonSet.
    virtual void recordEvent(const kube::DaemonSet &ds, const std::string &type, const std::string &reason,
                             const std::string &message) = 0;
    // What the cluster keeps of the controller's work: a sync begun, a pod it created or deleted.
    virtual void syncStarted() = 0;
    virtual void podWritten(const std::string &dsKey, bool created, const std::string &pod,
                            const std::string &node) = 0;

protected:
    ~DaemonSetClient() = default;
};

} // namespace controllers
