#pragma once
// ReplicaSetClient — what the ReplicaSet controller sees of a cluster, as upstream's is handed
// its informers' listers and PodControl: the ReplicaSets, the pods a controller owns and a
// namespace's orphans, PodControl's creates and deletes, the owner-reference and status writes,
// events, the clock, the informers' delivery and the work queue's timers. The simulated cluster
// implements it over its store (models/engine/controllerclients.*); the controller sees nothing
// else of it.

#include "models/controllers/syncqueue.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/kube/result.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace controllers {

class ReplicaSetClient
{
public:
    // Pods by name, in name order.
    using Pods = std::map<std::string_view, const kube::Pod *>;

    // ---- clock, informers, work queue ----
    virtual kube::Timestamp now() const = 0;
    // Whether the cluster runs its controllers (continuous); otherwise syncs are asked for.
    virtual bool continuous() const = 0;
    // Runs `fn` as an informer handler would: after the write being observed has committed.
    virtual void deliver(std::function<void()> fn) = 0;
    virtual Timers &timers() = 0;

    // ---- listers ----
    virtual const kube::ReplicaSet *replicaSet(const std::string &key) const = 0;
    // The key of the ReplicaSet with this UID, null when none.
    virtual const std::string *replicaSetKeyOfUid(const std::string &uid) const = 0;
    // The ReplicaSets of namespace `ns`, in key order.
    virtual std::vector<const kube::ReplicaSet *> replicaSetsIn(const std::string &ns) const = 0;
    // The pods whose controller has this UID; the pods of `ns` without a controller. Null: none.
    virtual const Pods *podsControlledBy(const std::string &uid) const = 0;
    virtual const Pods *orphanPods(const std::string &ns) const = 0;
    // The pod template's spec as the cluster shares equal specs between its pods.
    virtual std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) = 0;

    // ---- writes ----
    // PodControl: a new pod (its name generated from metadata.generateName); a deletion as an
    // API client's (a refusal is returned, a pod already gone is NotFound).
    virtual kube::Result<const kube::Pod *> createPod(kube::Pod pod) = 0;
    virtual kube::Result<void> deletePod(const std::string &ns, const std::string &name) = 0;
    // The pod with its owner references changed (adoption, release).
    virtual void updatePodOwners(kube::Pod pod) = 0;
    virtual void updateReplicaSetStatus(kube::ReplicaSet rs) = 0;
    // An Event about the ReplicaSet.
    virtual void recordEvent(const kube::ReplicaSet &rs, const std::string &type, const std::string &reason,
                             const std::string &message) = 0;

protected:
    ~ReplicaSetClient() = default;
};

} // namespace controllers
