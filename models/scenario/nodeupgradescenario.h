#pragma once
// NodeUpgradeScenario — runs the node-upgrade subset of the scenario format (docs
// scenarios.md) on a Cluster plus a NodeUpgradeRuntime: continuous mode, cluster.nodes /
// kubelet / objects, and the steps advance, run, apply, patch, delete, cordon, uncordon,
// fault, markReady, markNotReady, upgrade, upgradeControl, restartController and expect
// (node, upgrade, events, pods). Any other step is reported as unsupported here and belongs
// to the full ScenarioRunner. It serves the upgrade tests (tst_upgradescenarios); CTest also
// runs the same files through `sim run`, and `daemonscope upgrade status` uses ScenarioRunner.
//
// Exit codes as `sim run`: 0 every step ran and every expect held, 1 an expect failed or a
// step could not complete, 2 the file is invalid. Messages name "FILE:LINE:COLUMN".

#include "models/kube/yamldocument.h"
#include "models/sim/nodeupgraderuntime.h"

#include <memory>
#include <string>
#include <vector>

namespace scenario {

struct NodeUpgradeScenarioResult
{
    int exitCode = 0;
    std::vector<std::string> messages;
};

class NodeUpgradeScenario
{
public:
    static kube::Result<std::unique_ptr<NodeUpgradeScenario>> load(const std::string &path);
    static kube::Result<std::unique_ptr<NodeUpgradeScenario>> fromText(const std::string &text,
                                                                       const std::string &fileName);

    // Options of the runtime run() builds (tests: the controller's verifyIncremental).
    void setRuntimeOptions(const sim::NodeUpgradeRuntimeOptions &options) { m_runtimeOptions = options; }
    // Builds the cluster and runs every step (stopping at the first failure). Call once.
    NodeUpgradeScenarioResult run(bool checkExpects = true);

    sim::Cluster *cluster() { return m_cluster.get(); }
    sim::NodeUpgradeRuntime *runtime() { return m_runtime.get(); }
    // Every event emitted so far (cluster events and rollout events), in emission order.
    const std::vector<sim::EmittedEvent> &events() const { return m_events; }

private:
    explicit NodeUpgradeScenario(kube::YamlDocument doc);
    kube::Result<void> build();
    // exit code and message of a failed step; {0, ""} on success
    std::pair<int, std::string> step(const kube::Json &step, const std::string &ptr, int index,
                                     bool checkExpects);
    std::vector<std::string> checkExpect(const kube::Json &expect, const std::string &ptr);
    void collectEvents();

    kube::YamlDocument m_doc;
    std::unique_ptr<sim::Cluster> m_cluster;
    std::unique_ptr<sim::NodeUpgradeRuntime> m_runtime;
    sim::NodeUpgradeRuntimeOptions m_runtimeOptions;
    std::vector<sim::EmittedEvent> m_events;
    kube::Timestamp m_start = 0;
};

} // namespace scenario
