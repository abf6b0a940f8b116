#pragma once
// UpgradeSnapshotBuilder — the node-agent upgrade part of the embedded engine's snapshots. It is
// owned by SnapshotBuilder, fed from the same watch callbacks and asked for its part on every
// build. It reads the cluster's NodeUpgradeRuntime (rollout store, controller table, metrics,
// events) and keeps a compact mirror of the non-DaemonSet pods per node for the pre-flight
// report. Everything that did not change since the previous snapshot is shared by pointer.
//
// Bounded output, so a 5,000-node rollout stays cheap to publish: the most recent kMaxSamples
// metrics samples (the GUI's chart model keeps its own longer history) and the kMaxEvents most
// recently emitted events per rollout.
//
// Single-threaded, like SnapshotBuilder; the Cluster must outlive it.

#include "models/snapshot/upgraderolloutinfo.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace api {
class NodeUpgradeEvents;
} // namespace api
namespace api {
struct WatchEvent;
} // namespace api

namespace controllers {
class NodeUpgradeController;
class NodeUpgradeMetrics;
class UpgradeCluster;
} // namespace controllers

namespace engine {
class Cluster;
} // namespace engine

namespace models {

struct ClusterSnapshot;

// Where one rollout's part of a snapshot comes from: the cluster as the controller sees it
// (embedded or live), and the controller when this process drives the rollout — without one
// (another process's controller drives it) the per-node table comes from the node annotations,
// the headline from the status, and there is no resume preview.
struct UpgradeInfoSource
{
    controllers::UpgradeCluster &cluster;
    controllers::NodeUpgradeController *controller = nullptr;
    const api::NodeUpgradeEvents *events = nullptr;           // null: none
    const controllers::NodeUpgradeMetrics *metrics = nullptr; // this rollout's; null: none
};

// One rollout's snapshot value. `previous` (may be null) lends its unchanged parts: its samples
// too when the metrics recorded no sample since (`sampleTotals`, rollout -> the metrics' total at
// the last build, is the caller's and kept up to date here). At most `maxSamples` samples and
// `maxEvents` events.
UpgradeRolloutInfo buildUpgradeRolloutInfo(const UpgradeInfoSource &source, const std::string &name,
                                           const UpgradeRolloutInfo *previous,
                                           std::map<std::string, std::size_t> &sampleTotals, int maxSamples,
                                           int maxEvents);
// The pre-flight report's per-node workload, read from the cluster as the controller sees it.
std::shared_ptr<const UpgradeInventory> buildUpgradeInventory(const controllers::UpgradeCluster &cluster);

class UpgradeSnapshotBuilder
{
public:
    static constexpr int kMaxSamples = 512;
    static constexpr int kMaxEvents = 500;

    explicit UpgradeSnapshotBuilder(engine::Cluster &cluster);

    void onWatch(const api::WatchEvent &event);
    bool hasChanges() const;
    // Fills snap.upgrades and snap.upgradeInventory; `previous` may be null.
    void build(ClusterSnapshot &snap, const ClusterSnapshot *previous);

private:
    struct PodEntry
    {
        std::string node;
        int cls = 0;            // api::PodClass
        std::string owner;      // "replicaset/NS/NAME" for managed pods
        bool localData = false; // emptyDir volumes
    };
    void loadAll();
    UpgradeRolloutInfo buildRollout(const std::string &name, const UpgradeRolloutInfo *previous);
    std::shared_ptr<const UpgradeInventory> buildInventory();

    engine::Cluster &m_cluster;
    std::map<std::string, PodEntry> m_pods; // NS/NAME -> where and what
    std::map<std::string, int> m_replicas;  // "replicaset/NS/NAME" -> spec.replicas
    bool m_inventoryDirty = true;
    bool m_nodesDirty = true;
    std::uint64_t m_storeVersion = ~std::uint64_t(0);
    std::size_t m_emissions = ~std::size_t(0);
    std::map<std::string, std::size_t> m_sampleTotals; // rollout -> metrics totalSamples seen
};

} // namespace models
