#pragma once
// UpgradeSnapshotBuilder — the node-agent upgrade part of the embedded engine's snapshots. It is
// owned by SnapshotBuilder, fed from the same watch callbacks and asked for its part on every
// build. It reads the cluster's NodeUpgradeRuntime (rollout store, controller table, metrics,
// events) and keeps a compact mirror of the non-DaemonSet pods per node for the pre-flight
// report; the values themselves are assembled as for a live cluster (upgradeassembler.h).
// Everything that did not change since the previous snapshot is shared by pointer.
//
// Bounded output, so a 5,000-node rollout stays cheap to publish: the most recent kMaxSamples
// metrics samples (the GUI's chart model keeps its own longer history) and the kMaxEvents most
// recently emitted events per rollout.
//
// Single-threaded, like SnapshotBuilder; the Cluster must outlive it.

#include "models/snapshot/upgradeassembler.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace api {
struct WatchEvent;
} // namespace api

namespace sim {
class Cluster;
} // namespace sim

namespace models {

struct ClusterSnapshot;

class UpgradeSnapshotBuilder
{
public:
    static constexpr int kMaxSamples = 512;
    static constexpr int kMaxEvents = 500;

    explicit UpgradeSnapshotBuilder(sim::Cluster &cluster);

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

    sim::Cluster &m_cluster;
    std::map<std::string, PodEntry> m_pods; // NS/NAME -> where and what
    std::map<std::string, int> m_replicas;  // "replicaset/NS/NAME" -> spec.replicas
    bool m_inventoryDirty = true;
    bool m_nodesDirty = true;
    std::uint64_t m_storeVersion = ~std::uint64_t(0);
    std::size_t m_emissions = ~std::size_t(0);
    std::map<std::string, std::size_t> m_sampleTotals; // rollout -> metrics totalSamples seen
};

} // namespace models
