#pragma once
// ReplicaSetClient — what the ReplicaSet controller sees of a cluster, as upstream's is handed
// its informers' listers and PodControl: what every controller sees (ControllerClient), the
// ReplicaSets, the status write and events. The
// simulated cluster implements it over its store (models/sim/controllerclients.*); the
// controller sees nothing else of it.

#include "models/controllers/controllerclient.h"
#include "models/kube/replicaset.h"

#include <string>
#include <vector>

namespace controllers {

class ReplicaSetClient : public ControllerClient
{
public:
    // ---- listers ----
    virtual const kube::ReplicaSet *replicaSet(const std::string &key) const = 0;
    // The key of the ReplicaSet with this UID, null when none.
    virtual const std::string *replicaSetKeyOfUid(const std::string &uid) const = 0;
    // The ReplicaSets of namespace `ns`, in key order.
    virtual std::vector<const kube::ReplicaSet *> replicaSetsIn(const std::string &ns) const = 0;

    // ---- writes ----
    virtual void updateReplicaSetStatus(kube::ReplicaSet rs) = 0;
    // An Event about the ReplicaSet.
    virtual void recordEvent(const kube::ReplicaSet &rs, const std::string &type, const std::string &reason,
                             const std::string &message) = 0;

protected:
    ~ReplicaSetClient() = default;
};

} // namespace controllers
