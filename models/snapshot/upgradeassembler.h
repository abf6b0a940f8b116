#pragma once
// The node-agent upgrade part of a snapshot, for both sources: a rollout's value read from the
// cluster as the node-upgrade controller sees it (controllers::UpgradeCluster, embedded or live)
// and the pre-flight report's per-node workload. The embedded engine's incremental builder of
// this part is models/embedded/upgradesnapshotbuilder.h; the live one is LiveUpgradeRuntime.

#include "models/snapshot/upgraderolloutinfo.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace api {
class NodeUpgradeEvents;
enum class PodClass;
} // namespace api

namespace kube {
struct Node;
struct Pod;
} // namespace kube

namespace controllers {
class NodeUpgradeController;
class NodeUpgradeMetrics;
class UpgradeCluster;
} // namespace controllers

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

// The pre-flight report's rows, counted pod by pod: one row per node of `nodes`; a pod on a
// node not among them is not counted.
class UpgradeInventoryCounter
{
public:
    explicit UpgradeInventoryCounter(const std::vector<const kube::Node *> &nodes);
    // One pod (NS/NAME `key`, classified `cls`, owned by `owner` when managed) on `node`;
    // `replicas` is the owner's spec.replicas, -1 when unknown; `localData`: it has emptyDir
    // volumes.
    void countPod(const std::string &key, const std::string &node, api::PodClass cls,
                  const std::string &owner, int replicas, bool localData);
    std::shared_ptr<const UpgradeInventory> finish();
    // "replicaset/NS/NAME" of a managed pod's controller, empty for other pods.
    static std::string ownerKey(const kube::Pod &p, api::PodClass cls);

private:
    std::map<std::string, UpgradeNodeWorkload> m_byNode;
};

} // namespace models
