#include "models/embedded/upgradesnapshotbuilder.h"

#include "models/snapshot/snapshot.h"

#include "models/api/kubectldrain.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/replicaset.h"
#include "models/sim/cluster.h"
#include "models/sim/nodeupgraderuntime.h"

namespace models {

UpgradeSnapshotBuilder::UpgradeSnapshotBuilder(sim::Cluster &cluster) : m_cluster(cluster)
{
    loadAll();
}

void UpgradeSnapshotBuilder::loadAll()
{
    for (const kube::ReplicaSet *rs : m_cluster.replicaSets())
        m_replicas["replicaset/" + rs->metadata.key()] = rs->replicas();
    for (const kube::Pod *p : m_cluster.pods()) {
        const auto cls = api::classifyPod(*p, true);
        if (cls == api::PodClass::Ignored)
            continue;
        PodEntry e;
        e.node = p->node();
        e.cls = int(cls);
        e.owner = UpgradeInventoryCounter::ownerKey(*p, cls);
        e.localData = api::hasLocalStorage(*p);
        m_pods[p->metadata.key()] = std::move(e);
    }
}

void UpgradeSnapshotBuilder::onWatch(const api::WatchEvent &event)
{
    using Type = api::WatchEvent::Type;
    switch (event.kind) {
    case api::Kind::Pod: {
        const kube::Pod &p = *event.pod;
        const auto cls = api::classifyPod(p, true);
        if (event.type == Type::Deleted || cls == api::PodClass::Ignored) {
            if (m_pods.erase(event.key()) > 0)
                m_inventoryDirty = true;
            return;
        }
        PodEntry e;
        e.node = p.node();
        e.cls = int(cls);
        e.owner = UpgradeInventoryCounter::ownerKey(p, cls);
        e.localData = api::hasLocalStorage(p);
        auto &slot = m_pods[event.key()];
        if (slot.node != e.node || slot.cls != e.cls || slot.owner != e.owner ||
            slot.localData != e.localData) {
            slot = std::move(e);
            m_inventoryDirty = true;
        }
        return;
    }
    case api::Kind::ReplicaSet:
        if (event.type == Type::Deleted)
            m_replicas.erase("replicaset/" + event.key());
        else
            m_replicas["replicaset/" + event.key()] = event.replicaSet->replicas();
        m_inventoryDirty = true;
        return;
    case api::Kind::Node:
        m_nodesDirty = true;
        m_inventoryDirty = true;
        return;
    default:
        return;
    }
}

bool UpgradeSnapshotBuilder::hasChanges() const
{
    if (m_inventoryDirty || m_nodesDirty)
        return true;
    const sim::NodeUpgradeRuntime *rt = m_cluster.nodeUpgradeIfStarted();
    if (!rt)
        return false;
    if (rt->rollouts().resourceVersion() != m_storeVersion || rt->events().emissions().size() != m_emissions)
        return true;
    for (const auto *r : rt->rollouts().list()) {
        const auto *m = rt->metrics(r->metadata.name);
        auto it = m_sampleTotals.find(r->metadata.name);
        if (m && (it == m_sampleTotals.end() || it->second != m->totalSamples()))
            return true;
    }
    return false;
}

void UpgradeSnapshotBuilder::build(ClusterSnapshot &snap, const ClusterSnapshot *previous)
{
    if (m_inventoryDirty || !previous) {
        auto inventory = buildInventory();
        if (previous && previous->upgradeInventory && *previous->upgradeInventory == *inventory)
            inventory = previous->upgradeInventory;
        snap.upgradeInventory = std::move(inventory);
        m_inventoryDirty = false;
    } else {
        snap.upgradeInventory = previous->upgradeInventory;
    }

    sim::NodeUpgradeRuntime *rt = m_cluster.nodeUpgradeIfStarted();
    if (!rt) {
        snap.upgrades = emptyUpgradeRollouts();
        m_nodesDirty = false;
        return;
    }
    if (previous && !hasChanges()) {
        snap.upgrades = previous->upgrades;
        return;
    }
    auto list = std::make_shared<UpgradeRolloutList>();
    for (const auto *r : rt->rollouts().list()) {
        const UpgradeRolloutInfo *prev = nullptr;
        if (previous) {
            for (const auto &p : *previous->upgrades) {
                if (p.name == QString::fromStdString(r->metadata.name))
                    prev = &p;
            }
        }
        list->push_back(buildRollout(r->metadata.name, prev));
    }
    m_storeVersion = rt->rollouts().resourceVersion();
    m_emissions = rt->events().emissions().size();
    m_nodesDirty = false;
    snap.upgrades = std::move(list);
}

UpgradeRolloutInfo UpgradeSnapshotBuilder::buildRollout(const std::string &name,
                                                        const UpgradeRolloutInfo *previous)
{
    sim::NodeUpgradeRuntime &rt = m_cluster.nodeUpgrade();
    const UpgradeInfoSource source{rt.upgradeCluster(), rt.controllerRunning() ? &rt.controller() : nullptr,
                                   &rt.events(), rt.metrics(name)};
    return buildUpgradeRolloutInfo(source, name, previous, m_sampleTotals, kMaxSamples, kMaxEvents);
}

std::shared_ptr<const UpgradeInventory> UpgradeSnapshotBuilder::buildInventory()
{
    UpgradeInventoryCounter counter(m_cluster.nodes());
    for (const auto &[key, e] : m_pods) {
        auto r = m_replicas.find(e.owner);
        counter.countPod(key, e.node, static_cast<api::PodClass>(e.cls), e.owner,
                         r != m_replicas.end() ? r->second : -1, e.localData);
    }
    return counter.finish();
}

} // namespace models
