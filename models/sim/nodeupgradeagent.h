#pragma once
// NodeUpgradeAgent — the simulated node agent's side of the kamikaze restart (continuous
// mode). When the controller writes a restart request token into a node's `upgrade/kamikaze`
// annotation, the agent acknowledges it (echoes the token into `upgrade/kamikaze-ack`), leaves
// (Ready=Unknown) and re-registers after `downTime` on the token's target version. Faults
// recorded with Cluster::fault change that: AgentUnresponsive never acknowledges,
// NeverReturns never comes back, ReturnsOldVersion comes back on the old version,
// FlapsNotReady comes back and then flips NotReady/Ready every `flapInterval` until the fault
// is cleared, RebootsQuickly comes back after `leaveDelay` without ever being NotReady. Every
// return on a new version is a new boot: status.nodeInfo.bootID changes. Faults are read when each step
// happens, so a fault step issued after the kamikaze still applies to the steps that follow.
//
// The agent plays the kubelet, not the controller: a controller restart does not touch it.
// Its timers carry the token, so a superseded request (a re-send) makes older timers no-ops.
//
// Restart mechanism Job: the agent plays the upgrade Job's pod too. When a pod of a Job that
// carries the `upgrade/target-version` annotation runs on a node, the work takes `ackDelay`;
// then the pod Succeeded and the node restarts on that version as above (AgentUnresponsive: the
// pod Failed instead, and the node stays; the Job's retries meet the same fault).
//
// Refused writes: each step above is one write (the pod's status, the acknowledgement, the
// node's Ready condition and version). A step whose write the API server refuses is done again
// after kStatusRetry, the kubelet's nodeStatusUpdateFrequency (10 s), for as long as the token
// it serves is current; the step that follows is timed from the write that went through, so a
// refusal delays the restart and a flap by as much. A new boot's ID is drawn once and kept until
// its write goes through. No Event is recorded for a refusal: the kubelet and the agent only
// log a failed status update ("Error updating node status, will retry") and wait for their next
// update; the delay shows in the node's conditions and in the controller's view of the restart.

#include "models/sim/cluster.h"

#include <map>
#include <memory>
#include <string>

namespace sim {

struct NodeUpgradeAgentTimings
{
    kube::Duration ackDelay = 1000;
    kube::Duration leaveDelay = 2000;
    kube::Duration downTime = 30000;
    kube::Duration flapInterval = 4000;
};

class NodeUpgradeAgent
{
public:
    static constexpr kube::Duration kStatusRetry = 10 * 1000;

    explicit NodeUpgradeAgent(Cluster &cluster, NodeUpgradeAgentTimings timings = {});
    ~NodeUpgradeAgent();
    NodeUpgradeAgent(const NodeUpgradeAgent &) = delete;
    NodeUpgradeAgent &operator=(const NodeUpgradeAgent &) = delete;

    const NodeUpgradeAgentTimings &timings() const { return m_timings; }
    // A restart nobody asked the controller for: the node leaves after leaveDelay and rejoins on
    // `version` after downTime (faults apply as to a requested restart), as a managed node
    // pool's upgrade or a reimage does it (scenario step `restartNode`).
    void restartOn(const std::string &node, const std::string &version);

private:
    void onNode(const WatchEvent &ev);
    void onPod(const WatchEvent &ev);
    void finishJobPod(const std::string &node, const std::string &token);
    void at(kube::Timestamp t, const std::string &node, const std::string &token,
            void (NodeUpgradeAgent::*step)(const std::string &, const std::string &));
    bool current(const std::string &node, const std::string &token) const;
    void acknowledge(const std::string &node, const std::string &token);
    void leave(const std::string &node, const std::string &token);
    void rejoin(const std::string &node, const std::string &token);
    void flap(const std::string &node, const std::string &token);
    // Writes the node's Ready condition (and version: a new boot); false when refused.
    bool setReady(const std::string &node, bool ready, const std::string *version);
    std::string bootId(const std::string &node, int boot) const;
    // After a step whose write was refused: the same step again after kStatusRetry.
    void retry(const std::string &node, const std::string &token,
               void (NodeUpgradeAgent::*step)(const std::string &, const std::string &));

    Cluster &m_cluster;
    NodeUpgradeAgentTimings m_timings;
    int m_watch = 0;
    int m_podWatch = 0;
    std::map<std::string, std::string> m_handled; // node -> last token acted on
    std::map<std::string, int> m_boots;           // node -> boots written so far (bootID seeds)
    std::shared_ptr<char> m_alive = std::make_shared<char>(0);
};

} // namespace sim
