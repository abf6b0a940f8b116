#include "models/embedded/snapshotbuilder.h"

#include "models/snapshot/detailevents.h"

#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/sim/cluster.h"

#include <algorithm>

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string ownerDaemonSet(const kube::ObjectMeta &meta)
{
    const kube::OwnerReference *ref = meta.controllerRef();
    if (!ref || ref->kind != "DaemonSet")
        return {};
    return meta.namespace_ + "/" + ref->name;
}

} // namespace

SnapshotBuilder::SnapshotBuilder(sim::Cluster &cluster) : m_cluster(cluster), m_upgrade(cluster)
{
    m_backend.kind = BackendKind::Embedded;
    m_backend.connected = true;
    m_backend.seed = cluster.seed();
    loadAll();
    m_watchId = m_cluster.watchAll([this](const api::WatchEvent &e) { onWatch(e); });
}

SnapshotBuilder::~SnapshotBuilder()
{
    if (m_watchId >= 0)
        m_cluster.unwatch(m_watchId);
}

void SnapshotBuilder::loadAll()
{
    const kube::Timestamp now = m_cluster.now();
    for (const kube::ControllerRevision *cr : m_cluster.controllerRevisions()) {
        const std::string ds = ownerDaemonSet(cr->metadata);
        if (!ds.empty())
            m_assembler.revisionChanged(ds, *cr, false);
    }
    for (const kube::DaemonSet *ds : m_cluster.daemonSets())
        m_assembler.daemonSetChanged(*ds, false, now);
    for (const kube::Pod *p : m_cluster.pods()) {
        const std::string ds = ownerDaemonSet(p->metadata);
        if (!ds.empty())
            m_assembler.podLoaded(ds, *p);
    }
    for (const kube::Node *n : m_cluster.nodes())
        m_assembler.nodes()[n->metadata.name] = SnapshotAssembler::nodeInfo(*n);
    for (const kube::Event *e : m_cluster.events())
        watchEvent(*e);
}

void SnapshotBuilder::watchEvent(const kube::Event &event)
{
    WatchedEvent &watched = m_events[event.metadata.key()];
    watched.info.reset();
    watched.podDaemonSet.clear();
    const auto &o = event.involvedObject;
    if (o.kind == "Pod")
        if (const kube::Pod *pod = m_cluster.pod(o.namespace_, o.name))
            watched.podDaemonSet = ownerDaemonSet(pod->metadata);
}

void SnapshotBuilder::convertEvents()
{
    for (auto it = m_events.begin(); it != m_events.end();) {
        WatchedEvent &watched = it->second;
        if (watched.info) {
            ++it;
            continue;
        }
        const std::string &key = it->first;
        const std::size_t slash = key.find('/');
        const kube::Event *event = m_cluster.event(key.substr(0, slash), key.substr(slash + 1));
        if (!event) { // every deletion is watched; kept safe all the same
            it = m_events.erase(it);
            continue;
        }
        watched.info = eventInfo(*event);
        if (watched.info->daemonSetKey.isEmpty())
            watched.info->daemonSetKey = q(watched.podDaemonSet);
        ++it;
    }
}

void SnapshotBuilder::onWatch(const api::WatchEvent &event)
{
    using Type = api::WatchEvent::Type;
    const bool deleted = event.type == Type::Deleted;
    m_upgrade.onWatch(event);
    switch (event.kind) {
    case api::Kind::Pod: {
        const kube::Pod &p = *event.pod;
        const std::string ds = ownerDaemonSet(p.metadata);
        if (ds.empty())
            return;
        m_assembler.podChanged(ds, p, event.type == Type::Added, deleted, m_cluster.now());
        return;
    }
    case api::Kind::Node:
        m_changedNodes.insert(event.name); // converted at the next build, once
        m_assembler.nodesChanged();
        return;
    case api::Kind::DaemonSet:
        m_assembler.daemonSetChanged(*event.daemonSet, deleted, m_cluster.now());
        return;
    case api::Kind::ControllerRevision: {
        const kube::ControllerRevision &cr = *event.controllerRevision;
        const std::string ds = ownerDaemonSet(cr.metadata);
        if (!ds.empty())
            m_assembler.revisionChanged(ds, cr, deleted);
        else if (deleted)
            m_assembler.revisionDeleted(event.key());
        return;
    }
    case api::Kind::Event: {
        if (deleted)
            m_events.erase(event.key());
        else
            watchEvent(*event.event);
        m_assembler.eventsChanged();
        return;
    }
    case api::Kind::Namespace:
        m_assembler.daemonSetListChanged();
        return;
    case api::Kind::NodeUpgradeRollout:
        return; // m_upgrade.onWatch above
    case api::Kind::ReplicaSet:
    case api::Kind::PodDisruptionBudget:
    case api::Kind::Lease:
    case api::Kind::Service:
    case api::Kind::Job:
        return;
    }
}

bool SnapshotBuilder::hasChanges() const
{
    if (m_assembler.hasChanges() || m_upgrade.hasChanges())
        return true;
    const auto &faults = m_cluster.faults();
    if (faults.size() != m_faults.size())
        return true;
    for (const auto &[node, kind] : faults) {
        auto it = m_faults.find(node);
        if (it == m_faults.end() || it->second != sim::faultKindName(kind))
            return true;
    }
    return false;
}

std::shared_ptr<const ClusterSnapshot> SnapshotBuilder::build(const ClockInfo &clock)
{
    // Faults are not always visible as node writes (an unresponsive agent leaves the node
    // Ready), so they are compared directly.
    std::map<std::string, NodeInfo> &nodes = m_assembler.nodes();
    std::map<std::string, std::string> faults;
    for (const auto &[node, kind] : m_cluster.faults())
        faults[node] = sim::faultKindName(kind);
    if (faults != m_faults) {
        for (auto &[name, info] : nodes) {
            auto it = faults.find(name);
            info.fault = it == faults.end() ? QString() : q(it->second);
        }
        m_faults = std::move(faults);
        m_assembler.nodesChanged();
    }
    // The nodes written since the last snapshot, each converted once however often it was
    // written, with its injected fault.
    for (const auto &name : m_changedNodes) {
        const kube::Node *n = m_cluster.node(name);
        if (!n) {
            nodes.erase(name);
            continue;
        }
        NodeInfo info = SnapshotAssembler::nodeInfo(*n);
        if (auto f = m_faults.find(name); f != m_faults.end())
            info.fault = q(f->second);
        nodes[name] = std::move(info);
    }
    m_changedNodes.clear();

    auto snap = m_assembler.begin(m_backend, clock);
    for (const auto &ns : m_cluster.namespaces())
        snap->namespaces.append(q(ns));
    std::sort(snap->namespaces.begin(), snap->namespaces.end());

    std::vector<EventInfo> all;
    if (m_assembler.eventsDirty()) {
        convertEvents();
        all.reserve(m_events.size());
        for (const auto &[key, watched] : m_events)
            all.push_back(*watched.info);
    }
    m_assembler.publishEvents(*snap, all);
    // Bound the mirror too: events that fell off the published window are dropped.
    if (m_events.size() > 2 * static_cast<std::size_t>(ClusterSnapshot::kMaxEvents))
        for (const EventInfo &older : all)
            m_events.erase(older.key.toStdString());

    for (const kube::DaemonSet *ds : m_cluster.daemonSets()) {
        const std::string &ns = ds->metadata.namespace_, &name = ds->metadata.name;
        m_assembler.addDaemonSet(*snap, *ds, [&] {
            return std::pair{m_cluster.controllerRevisionsOf(ns, name),
                             m_cluster.currentRevisionName(ns, name)};
        });
    }
    m_upgrade.build(*snap, m_assembler.previous());
    return m_assembler.finish(std::move(snap));
}

} // namespace models
