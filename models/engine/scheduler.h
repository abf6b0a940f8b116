#pragma once
// Scheduler — the minimal scheduler of continuous mode. DaemonSet pods (pinned by a
// matchFields term on metadata.name) are bound to their node when they tolerate its
// NoSchedule/NoExecute taints. Other pods go to a Ready, schedulable node that matches their
// nodeSelector and required node affinity, whose taints they tolerate and that has room under
// allocatablePods; among those the least loaded, then the first by name. Unschedulable pods
// wait and are retried whenever nodes or pods change.

#include "models/engine/cluster.h"

#include <set>

namespace engine {

class Scheduler
{
public:
    explicit Scheduler(Cluster::Impl &cluster);

    void onPod(const WatchEvent &ev);
    void onNode(const WatchEvent &ev);

private:
    void requestPass();
    void pass();
    std::string pickNode(const kube::Pod &pod) const;
    int load(const std::string &node) const;

    Cluster::Impl &m_c;
    std::set<std::string> m_pending; // keys of unbound, non-deleting pods
    bool m_passQueued = false;
};

} // namespace engine
