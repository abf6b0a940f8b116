#pragma once
// Scheduler — the minimal scheduler of continuous mode. DaemonSet pods (pinned by a
// matchFields term on metadata.name) are bound to their node when they tolerate its
// NoSchedule/NoExecute taints and it has room for them (pod count, cpu and memory requests
// against allocatable); otherwise they stay Pending with a FailedScheduling event. Other pods go to a Ready,
// schedulable node that matches their nodeSelector and required node affinity, whose taints they tolerate and
// that has room under allocatablePods; among those the least loaded, then the first by name. Unschedulable
// pods wait and are retried whenever nodes or pods change.

#include "models/sim/cluster.h"

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

namespace sim {

class Scheduler
{
public:
    explicit Scheduler(Cluster::Impl &cluster);

    // What a pod asks for, as NodeResourcesFit computes it (computePodResourceRequest): the sum
    // of its containers' requests (a limit stands in for a missing request, as defaulting copies
    // it), or the largest init container's if that is more.
    struct Request
    {
        long long cpu = 0;    // milli-CPU
        long long memory = 0; // milli-bytes
    };

    void onPod(const WatchEvent &ev);
    void onNode(const WatchEvent &ev);

private:
    void requestPass();
    void pass();
    // The node for the pod, or empty; `why` gets the FailedScheduling message when a daemon pod's
    // node cannot take it.
    std::string pickNode(const kube::Pod &pod, std::string *why = nullptr) const;
    // Why the node cannot take the pod ("Too many pods", "Insufficient cpu", "Insufficient
    // memory"), or empty: the pod count and NodeResourcesFit's requests against allocatable.
    std::string unfit(const kube::Pod &pod, const kube::Node &node) const;
    std::string unfit(const Request &want, const kube::Node &node, int podsOnNode) const;
    int load(const std::string &node) const; // bound pods that have not finished
    // Keeps the load of the pod's node up to date; pod null: deleted.
    void count(const std::string &podKey, const kube::Pod *pod);

    Cluster::Impl &m_c;
    // The scheduler's cache, kept from the watch: the node each pod takes room on, the load of
    // every node, and the nodes by (load, name) — the order pickNode prefers them in.
    std::unordered_map<std::string, std::string> m_room;
    std::unordered_map<std::string, int> m_load;
    std::set<std::pair<int, std::string>> m_byLoad;
    std::set<std::string> m_pending; // keys of unbound, non-deleting pods
    bool m_passQueued = false;
    std::map<std::string, std::string> m_reported; // pod key -> the FailedScheduling message sent
};

} // namespace sim
