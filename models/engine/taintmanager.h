#pragma once
// TaintManager — the taint-based eviction controller (taint-eviction-controller, before 1.29
// part of the node lifecycle controller) of continuous mode. A pod bound to a node with NoExecute
// taints is deleted at once when it does not tolerate one of them, after the least
// tolerationSeconds of the tolerations it uses when they all carry seconds, and never when one
// tolerates forever. A deletion is announced on the pod (TaintManagerEviction, "Marking for
// deletion Pod ns/name") and withdrawn when the taint goes or is tolerated ("Cancelling deletion
// of Pod ns/name"). The pod is deleted with its grace period, so on an Unreachable node it stays
// Terminating until the node returns, as on a real cluster.

#include "models/engine/cluster.h"

#include <map>
#include <vector>

namespace engine {

class TaintManager
{
public:
    explicit TaintManager(Cluster::Impl &cluster);

    void onPod(const WatchEvent &ev);
    void onNode(const WatchEvent &ev);

private:
    struct Scheduled
    {
        std::string uid;
        kube::Timestamp createdAt = 0; // when the eviction was first planned
        std::uint64_t epoch = 0;
    };
    // processPodOnNode: what the node's NoExecute taints mean for this pod now.
    void process(const kube::Pod &pod, const std::vector<kube::Taint> &taints);
    void schedule(const kube::Pod &pod, kube::Timestamp createdAt, kube::Timestamp fireAt);
    void cancel(const std::string &key, const kube::Pod *pod);
    void evict(const std::string &key, std::uint64_t epoch);

    Cluster::Impl &m_c;
    std::uint64_t m_epoch = 0;
    std::map<std::string, Scheduled> m_scheduled;                 // by pod key
    std::map<std::string, std::vector<kube::Taint>> m_nodeTaints; // NoExecute taints last seen
    // Pods on tainted nodes as last processed (node, spec): like podUpdated, an update that
    // changes neither the node nor the tolerations changes nothing.
    std::map<std::string, std::pair<std::string, const kube::Json *>> m_seen;
};

} // namespace engine
