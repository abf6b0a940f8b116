#pragma once
// NodeUpgradeMetrics — what the GUI's live progress chart of one rollout draws, without a
// metrics backend: a ring buffer of samples taken every controller pass (phase counts,
// unavailable vs budget, the lowest ready ratio of the affected controllers, ETA, headline)
// plus the low-cardinality counters of docs node-upgrade.md §10. Reporting only: the controller
// never reads it back to decide anything, so it may live in memory and survive a controller
// restart only because the runtime, not the controller, owns it.

#include "models/api/nodeupgraderollout.h"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace controllers {

inline constexpr int kNodePhaseCount = 11; // NodePhase values

struct NodeUpgradeSample
{
    kube::Timestamp time = 0;
    std::array<int, kNodePhaseCount> phases{}; // nodes per NodePhase
    int unavailable = 0;
    int maxUnavailable = 1;
    int blocked = 0;
    std::optional<double> minControllerReadyRatio; // none when no controller is affected
    std::optional<kube::Duration> eta;
    api::RolloutPhase rolloutPhase = api::RolloutPhase::Pending;
    std::string headline;
};

class NodeUpgradeMetrics
{
public:
    explicit NodeUpgradeMetrics(std::size_t capacity = 4096);

    void sample(NodeUpgradeSample s);
    std::vector<NodeUpgradeSample> samples() const; // oldest first
    std::size_t size() const { return m_size; }
    std::size_t capacity() const { return m_ring.size(); }
    std::size_t totalSamples() const { return m_total; }
    const NodeUpgradeSample *latest() const;

    // Counters (node_upgrade_pods_deleted_total{class}, ..._deferred_total{reason}, ...).
    void countDeletion(const std::string &podClass) { ++m_deleted[podClass]; }
    void countDeferral(const std::string &reason) { ++m_deferred[reason]; }
    void countRepeatedDisruption() { ++m_repeated; }
    void observePhaseDuration(const std::string &phase, kube::Duration d);
    const std::map<std::string, long long> &podsDeleted() const { return m_deleted; }
    const std::map<std::string, long long> &deletionsDeferred() const { return m_deferred; }
    long long podsDisruptedRepeatedly() const { return m_repeated; }
    const std::map<std::string, std::vector<kube::Duration>> &phaseDurations() const
    {
        return m_phaseDurations;
    }

private:
    std::vector<NodeUpgradeSample> m_ring;
    std::size_t m_head = 0; // next write position
    std::size_t m_size = 0;
    std::size_t m_total = 0;
    std::map<std::string, long long> m_deleted;
    std::map<std::string, long long> m_deferred;
    long long m_repeated = 0;
    std::map<std::string, std::vector<kube::Duration>> m_phaseDurations; // bounded, most recent last
};

} // namespace controllers
