#pragma once
// TaintManager — the taint-based eviction controller (taint-eviction-controller, before 1.29
// part of the node lifecycle controller) of continuous mode. A pod bound to a node with NoExecute
// taints is deleted at once when it does not tolerate one of them, after the least
// tolerationSeconds of the tolerations it uses when they all carry seconds, and never when one
// tolerates forever. A deletion is announced on the pod (TaintManagerEviction, "Marking for
// deletion Pod ns/name") and withdrawn when the taint goes or is tolerated ("Cancelling deletion
// of Pod ns/name"). The pod is deleted with its grace period, so on an Unreachable node it stays
// Terminating until the node returns, as on a real cluster.
//
// A deletion the API server refuses is retried: upstream's handler tries five times 10 ms apart
// and then gives up until the next node or pod update plans the eviction again; here the
// eviction stays planned and is retried after 10 ms, doubling to at most 1000 s (client-go's
// controller ceiling), until the pod is deleted or gone, or the eviction is cancelled because
// the taint went or is tolerated. Every refusal is a Warning TaintManagerEviction on the pod
// ("Failed to delete Pod ns/name: <answer>"); "Marking for deletion" is recorded once per
// planned eviction, before its first attempt.

#include "models/sim/cluster.h"

#include <map>
#include <vector>

namespace sim {

class TaintManager
{
public:
    static constexpr kube::Duration kRetryBase = 10;
    static constexpr kube::Duration kRetryMax = 1000 * 1000;

    explicit TaintManager(Cluster::Impl &cluster);

    void onPod(const WatchEvent &ev);
    void onNode(const WatchEvent &ev);

private:
    struct Scheduled
    {
        std::string uid;
        kube::Timestamp createdAt = 0; // when the eviction was first planned
        std::uint64_t epoch = 0;
        int refusals = 0; // deletions refused so far
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

} // namespace sim
