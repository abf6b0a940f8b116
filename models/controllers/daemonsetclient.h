#pragma once
// DaemonSetClient — what the DaemonSet controller sees of a cluster, as upstream's is handed its
// informers' listers, PodControl and the history and status clients: what every controller sees
// (ControllerClient), the DaemonSets, the nodes, the pods a controller owns per node, the
// ControllerRevisions, the history and status writes and events.
// The simulated cluster implements it over its store (models/sim/controllerclients.*); the
// controller sees nothing else of it. Keys are "namespace/name".

#include "models/controllers/controllerclient.h"
#include "models/kube/apistatus.h"
#include "models/kube/daemonset.h"
#include "models/kube/node.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
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

class DaemonSetClient : public ControllerClient
{
public:
    // Pods by name per node name.
    using PodsByNode = std::map<std::string, Pods>;

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
    // The pods whose controller has this UID, by node; null when none.
    virtual const PodsByNode *podsControlledByPerNode(const std::string &uid) const = 0;
    // A number that changes whenever a claim may: a pod without a controller appears, or a pod's
    // labels or owners change.
    virtual std::uint64_t podClaimVersion() const = 0;
    virtual const kube::ControllerRevision *revision(const std::string &key) const = 0;
    // The revisions of namespace `ns`, in key order.
    virtual std::vector<const kube::ControllerRevision *> revisionsIn(const std::string &ns) const = 0;

    // ---- writes ----
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
