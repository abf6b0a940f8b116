#pragma once
// Kubelet — the simulated node agents of continuous mode, one state machine per bound pod:
// Pending --startDelay--> Running --readyDelay--> Ready; deletion --terminationGrace--> gone.
// Each delay is jittered from the seeded RNG. Pods whose image matches a failingImages glob
// start but never become Ready (CrashLoopBackOff, restartCount growing with upstream's 10 s
// doubling back-off capped at 5 min). On a NotReady node pods turn not Ready and nothing new
// starts; on an Unreachable node nothing is reported at all (status frozen, deletions hang)
// until the node returns. Like the kubelet, it reports what it does as Events on the pod:
// Pulling/Pulled (or "already present on machine" for an image the node has), Created and
// Started per container, BackOff while a container crash-loops, Killing when the pod is deleted.
// Timers carry the pod UID and an epoch, so a superseded timer is a
// no-op rather than something to cancel.

#include "models/sim/cluster.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

namespace sim {

class Kubelet
{
public:
    explicit Kubelet(Cluster::Impl &cluster);

    void onPod(const WatchEvent &ev);
    // Called after a node's readiness or reachability changed.
    void nodeChanged(const std::string &node);

    static bool globMatch(const std::string &pattern, const std::string &text);
    // The back-off before restarting a container after its `crashes`-th crash (1-based):
    // 10 s doubling to 5 min, as the kubelet's CrashLoopBackOff.
    static kube::Duration crashBackoff(int crashes)
    {
        return kube::doubledDelay(10'000, 300'000, crashes - 1);
    }

    // Node heartbeats as Leases (kube-node-lease/<node>, coordination.k8s.io/v1, owned by the
    // Node): created for every node and renewed every 10 s (a quarter of the 40 s lease
    // duration, as the kubelet's node lease controller does) by every node whose kubelet
    // reaches the API server, i.e. not Unreachable; a Lease whose Node is gone is removed, as
    // the garbage collector does. Started once; off unless started (`serve` starts it).
    void startNodeLeases();

private:
    struct State
    {
        std::uint64_t epoch = 0;
        bool started = false;     // start timer posted or done
        bool terminating = false; // removal timer posted
        int crashes = 0;
    };
    bool nodeRunsPods(const std::string &node) const;  // exists, Ready, reachable
    bool nodeReachable(const std::string &node) const; // exists and not Unreachable
    bool failing(const kube::Pod &pod) const;
    void postStart(const kube::Pod &pod);
    void postReady(const kube::Pod &pod);
    void postRemoval(const kube::Pod &pod);
    // The node lifecycle controller's MarkPodsNotReady for a pod on a node that stopped running
    // pods: Ready false, and a Warning NodeNotReady event on the pod.
    void markNotReady(const kube::Pod &pod);
    void postCrash(const kube::Pod &pod, kube::Duration after);
    // The kubelet's Events for one pod (source kubelet, fieldPath spec.containers{name}).
    void containerEvent(const kube::Pod &pod, const std::string &container, const char *type,
                        const char *reason, const std::string &message);
    // Pulling for each container whose image must be fetched (imagePullPolicy Always, or
    // IfNotPresent and the node does not have it yet); returns, per container, whether it pulls.
    std::vector<bool> beginPulls(const kube::Pod &pod);
    // Pulled (took `pull` ms, or already present), Created and Started for every container.
    void containersStarted(const kube::Pod &pod, const std::vector<bool> &pulled, kube::Duration pull);
    // Runs fn(pod copy) at t if the pod still exists with that uid and epoch.
    void at(kube::Timestamp t, const kube::Pod &pod, std::function<void(kube::Pod &)> fn, bool commit = true);

    void renewNodeLeases();

    Cluster::Impl &m_c;
    bool m_nodeLeases = false;
    std::unordered_map<std::string, State> m_state; // by pod UID
    // The images each node has pulled, as views of the one copy of each image's name kept in
    // m_imageNames (a few names, shared by thousands of nodes).
    std::unordered_set<std::string> m_imageNames;
    std::unordered_map<std::string, std::set<std::string_view>> m_images;
};

} // namespace sim
