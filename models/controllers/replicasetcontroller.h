#pragma once
// ReplicaSetController — keeps spec.replicas pods of each ReplicaSet (continuous mode): pods
// named <rs>-<5 random chars>, orphans matching the selector adopted, excess pods deleted
// unscheduled-first, then pending, not-ready, newest (upstream's ranking, simplified), status
// counters written when they change. Syncs of one key coalesce like the DaemonSet controller's.
// Its pod writes are PodControl's: SuccessfulCreate / SuccessfulDelete events, and for a refused
// one FailedCreate / FailedDelete ("Error creating: …", "Error deleting: …"); a sync with a
// refused write is requeued 5 ms later, doubling per failure in a row up to 1000 s.
// It sees the cluster only through ReplicaSetClient.

#include "models/api/watchevent.h"
#include "models/controllers/replicasetclient.h"
#include "models/controllers/syncqueue.h"

#include <string>
#include <vector>

namespace controllers {

class ReplicaSetController
{
public:
    static constexpr kube::Duration kSyncInterval = 500;

    explicit ReplicaSetController(ReplicaSetClient &client);

    // Informer handlers, called for every committed write of the kind.
    void onReplicaSet(const api::WatchEvent &ev);
    void onPod(const api::WatchEvent &ev);
    void enqueue(const std::string &key);
    void sync(const std::string &key);

private:
    void claim(const kube::ReplicaSet &rs, const kube::LabelSelector &sel);
    // Each returns false when a write was refused (an event says which; a pod already gone
    // counts as deleted).
    bool create(const kube::ReplicaSet &rs, int count);
    bool remove(const kube::ReplicaSet &rs, const std::vector<const kube::Pod *> &active, int excess);
    void updateStatus(const std::string &key, const kube::ReplicaSet &rs);

    ReplicaSetClient &m_c;
    SyncQueue m_queue;
};

} // namespace controllers
