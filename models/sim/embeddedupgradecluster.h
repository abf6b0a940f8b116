#pragma once
// EmbeddedUpgradeCluster — the node-upgrade controller's client interface (UpgradeCluster,
// models/controllers/upgradecluster.h) over the simulated cluster: the engine's store, clock and
// timers, written through its API server (every write reaches the watches synchronously).

#include "models/controllers/upgradecluster.h"
#include "models/sim/cluster.h"

namespace sim {

class NodeUpgradeRolloutStore;

class EmbeddedUpgradeCluster final : public controllers::UpgradeCluster
{
public:
    EmbeddedUpgradeCluster(Cluster &cluster, NodeUpgradeRolloutStore &rollouts);

    kube::Timestamp now() const override;
    bool runsTimers() const override;
    void schedule(kube::Timestamp t, std::function<void()> fn) override;
    const kube::Node *node(const std::string &name) const override;
    std::vector<const kube::Node *> nodes() const override;
    const kube::Pod *pod(const std::string &ns, const std::string &name) const override;
    std::vector<const kube::Pod *> pods() const override;
    std::vector<const kube::Pod *> podsOnNode(const std::string &node) const override;
    const kube::ReplicaSet *replicaSet(const std::string &ns, const std::string &name) const override;
    std::vector<const kube::ReplicaSet *> replicaSets() const override;
    std::vector<const kube::PodDisruptionBudget *> podDisruptionBudgets() const override;
    std::optional<kube::Job> job(const std::string &ns, const std::string &name) const override;
    const api::NodeUpgradeRollout *rollout(const std::string &name) const override;
    std::vector<const api::NodeUpgradeRollout *> rollouts() const override;
    int watch(api::Kind kind, std::function<void(const WatchEvent &)> callback) override;
    void unwatch(int id) override;
    kube::Result<void> patchNode(const std::string &name, const kube::Json &mergePatch) override;
    kube::Result<void> cordon(const std::string &node) override;
    kube::Result<void> uncordon(const std::string &node) override;
    kube::Result<void> taint(const std::string &node, const kube::Taint &taint) override;
    kube::Result<void> untaint(const std::string &node, const std::string &key) override;
    kube::Result<void> setNodeConditions(const std::string &node, const std::vector<kube::NodeCondition> &set,
                                         const std::vector<std::string> &remove) override;
    kube::Result<void> evict(const std::string &ns, const std::string &name,
                             const EvictOptions &options) override;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) override;
    kube::Result<void> createJob(const kube::Json &job) override;
    kube::Result<void> editRollout(const std::string &name,
                                   const std::function<void(api::NodeUpgradeRollout &)> &fn) override;
    kube::Result<void> updateRolloutStatus(const std::string &name,
                                           const api::NodeUpgradeRolloutStatus &status) override;
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &name) override;

private:
    Cluster &m_cluster;
    NodeUpgradeRolloutStore &m_rollouts;
};

} // namespace sim
