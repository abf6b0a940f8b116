#pragma once
// NodeUpgradeRuntime — everything the node-agent upgrade needs next to a Cluster: the
// NodeUpgradeRollout store, the event log, the metrics ring buffers, the simulated agent
// (kubelet side of the kamikaze) and the NodeUpgradeController. The controller can be dropped
// and started again (restartController) while the rest stays, exactly as a controller pod
// restart leaves the API server and the kubelets alone.
//
// It also carries the glue the scenario runner (models/scenario) calls: the `upgrade`,
// `upgradeControl` and `restartController: nodeUpgrade` steps, the `run until upgradeComplete`
// condition and the `expect.node` / `expect.upgrade` checks (docs scenarios.md), plus the text
// that `daemonscope upgrade status` prints.

#include "models/controllers/nodeupgradecontroller.h"
#include "models/sim/embeddedupgradecluster.h"
#include "models/sim/nodeupgradeagent.h"
#include "models/sim/nodeupgraderolloutstore.h"

#include <memory>
#include <string>
#include <vector>

namespace sim {

struct NodeUpgradeRuntimeOptions
{
    controllers::NodeUpgradeControllerOptions controller;
    NodeUpgradeAgentTimings agent;
    std::size_t metricsCapacity = 4096;
};

class NodeUpgradeRuntime
{
public:
    explicit NodeUpgradeRuntime(Cluster &cluster, NodeUpgradeRuntimeOptions options = {});
    ~NodeUpgradeRuntime();
    NodeUpgradeRuntime(const NodeUpgradeRuntime &) = delete;
    NodeUpgradeRuntime &operator=(const NodeUpgradeRuntime &) = delete;

    Cluster &cluster() { return m_cluster; }
    // The cluster as the controller sees it (the same view a live cluster gives).
    controllers::UpgradeCluster &upgradeCluster() { return m_access; }
    NodeUpgradeRolloutStore &rollouts() { return m_store; }
    const NodeUpgradeRolloutStore &rollouts() const { return m_store; }
    // The controller; only while one runs (controllerRunning()).
    controllers::NodeUpgradeController &controller() { return *m_controller; }
    bool controllerRunning() const { return m_controller != nullptr; }
    const api::NodeUpgradeEvents &events() const { return m_events; }
    const controllers::NodeUpgradeMetrics *metrics(const std::string &rollout) const;

    // kubectl apply of a rollout (manifest or the scenario step's map), then one pass.
    kube::Result<void> apply(const kube::Json &rollout);
    // Drops the controller's memory and starts a new one that reads everything back.
    void restartController();
    // Drops the controller and starts none: rollouts are left to a controller elsewhere (serve
    // --no-node-upgrade-controller, with `daemonscope controller` driving them over the API).
    // The store, the event log and the simulated agent stay. restartController() starts one.
    void stopController();
    // Kept across restarts.
    void setObserver(controllers::NodeUpgradeObserver *observer);
    // NodeUpgradeController::divergences() of every controller so far (restarts included).
    std::vector<std::string> divergences() const;

    // ---- scenario glue ---------------------------------------------------------------------
    kube::Result<void> upgradeStep(const kube::Json &args); // `upgrade: {name, targetVersion, ...}`
    kube::Result<void>
    upgradeControlStep(const kube::Json &args); // `upgradeControl: {name, action, node, note}`
    // `restartNode: {node, version}`: the node restarts on that agent version without the
    // controller asking (a managed node pool's upgrade; see NodeUpgradeAgent::restartOn).
    kube::Result<void> restartNodeStep(const kube::Json &args);
    bool upgradeComplete(const std::string &name) const; // Completed or CompletedWithExceptions
    // `expect.node: {NODE: {phase, cordoned, held, blocked, reason, attempt, agentVersion,
    // cordonedByController, tainted}}` — one message per mismatch ("node/NODE.phase: expected
    // Soaking, got Restarting"); empty when everything holds.
    std::vector<std::string> checkExpectNode(const kube::Json &expect) const;
    // `expect.upgrade: {NAME: {phase, nodes, upToDate, upgraded, inFlight, pending, held,
    // blocked, failed, skipped, unavailable, maxUnavailable, maxUnavailableClamped,
    // observedGeneration, headline (substring), queue}}`.
    std::vector<std::string> checkExpectUpgrade(const kube::Json &expect) const;
    // Keys the two checks understand (for the unknown-key errors of the scenario parser,
    // models/scenario).
    static const std::vector<std::string> &expectNodeKeys();
    static const std::vector<std::string> &expectUpgradeKeys();
    // The node's upgrade phase as the trace shows it ("UpToDate" without annotation,
    // "Removed" for a node a rollout saw deleted, "" for an unknown node).
    std::string nodePhase(const std::string &node) const;
    // Events about rollout objects since the last call (node events are in Cluster::takeEvents).
    std::vector<EmittedEvent> takeRolloutEvents();

    // ---- reporting -------------------------------------------------------------------------
    // Headline, counts, conditions and the per-node table, as `daemonscope upgrade status`
    // prints them.
    std::string statusText(const std::string &name);

private:
    Cluster &m_cluster;
    NodeUpgradeRuntimeOptions m_options;
    NodeUpgradeRolloutStore m_store;
    EmbeddedUpgradeCluster m_access; // what the controller sees of m_cluster and m_store
    api::NodeUpgradeEvents m_events;
    std::map<std::string, controllers::NodeUpgradeMetrics> m_metrics;
    NodeUpgradeAgent m_agent;
    std::unique_ptr<controllers::NodeUpgradeController> m_controller;
    std::size_t m_rolloutEventsTaken = 0;
    controllers::NodeUpgradeObserver *m_observer = nullptr;
    std::vector<std::string> m_pastDivergences; // of controllers restarted since
};

} // namespace sim
