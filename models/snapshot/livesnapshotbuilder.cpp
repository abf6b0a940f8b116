#include "models/snapshot/livesnapshotbuilder.h"

#include "models/liveupgrade/liveupgraderuntime.h"

#include "models/api/nodeupgradeevents.h"

#include "models/snapshot/snapshotbuilder.h"

#include "models/snapshot/detailevents.h"

#include "models/api/daemonsetlogic.h"
#include "models/api/kubectlrollout.h"

#include <algorithm>

namespace models {

namespace {

constexpr int kMaxUpgradeEvents = 500; // as the embedded engine keeps per rollout

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

// The DaemonSet a pod belongs to: its controller reference, which must name `dsKey`'s DaemonSet.
bool ownedBy(const kube::ObjectMeta &meta, const std::string &dsKey)
{
    const kube::OwnerReference *ref = meta.controllerRef();
    return ref && ref->kind == "DaemonSet" && meta.namespace_ + "/" + ref->name == dsKey;
}

bool eventNewerFirst(const EventInfo &a, const EventInfo &b)
{
    return a.time != b.time ? a.time > b.time : a.key < b.key;
}

} // namespace

void LiveSnapshotBuilder::setBackendInfo(const BackendInfo &info)
{
    const bool same = info.kind == m_backend.kind && info.name == m_backend.name &&
                      info.connected == m_backend.connected && info.errorText == m_backend.errorText &&
                      info.permissions == m_backend.permissions;
    m_backend = info;
    if (!same)
        m_backendDirty = true;
}

void LiveSnapshotBuilder::daemonSetChanged(const kube::DaemonSet &ds, bool deleted, kube::Timestamp now)
{
    const std::string key = ds.metadata.key();
    m_tracker.observeDaemonSet(ds, now, deleted);
    if (deleted)
        m_daemonSets.erase(key);
    else
        m_daemonSets[key] = ds;
    m_dirtyDaemonSets.insert(key);
    m_daemonSetListDirty = true;
}

void LiveSnapshotBuilder::revisionChanged(const std::string &dsKey, const kube::ControllerRevision &cr,
                                          bool deleted)
{
    if (deleted) {
        auto it = m_revisions.find(dsKey);
        if (it != m_revisions.end())
            it->second.erase(cr.metadata.name);
        m_revisionTemplates.erase(cr.metadata.key());
    } else {
        m_revisions[dsKey][cr.metadata.name] = cr;
        m_tracker.observeRevision(dsKey, cr.metadata.label(kube::kRevisionHashLabel), cr.revision);
    }
    m_dirtyDaemonSets.insert(dsKey);
}

void LiveSnapshotBuilder::podChanged(const std::string &dsKey, const kube::Pod &pod, bool created,
                                     bool deleted, kube::Timestamp now)
{
    if (!ownedBy(pod.metadata, dsKey))
        return; // selected by the labels, but another controller's
    if (deleted) {
        auto it = m_pods.find(dsKey);
        if (it != m_pods.end())
            it->second.erase(pod.metadata.name);
    } else {
        m_pods[dsKey][pod.metadata.name] = SnapshotBuilder::podInfo(pod, m_strings);
        auto awaiting = m_eventsAwaitingPod.empty() ? m_eventsAwaitingPod.end()
                                                    : m_eventsAwaitingPod.find(pod.metadata.key());
        if (awaiting != m_eventsAwaitingPod.end()) {
            for (const std::string &eventKey : awaiting->second)
                if (auto e = m_events.find(eventKey); e != m_events.end()) {
                    e->second.daemonSetKey = q(dsKey);
                    m_eventsDirty = true;
                }
            m_eventsAwaitingPod.erase(awaiting);
        }
    }
    m_tracker.observePod(pod, dsKey, created, now);
    m_dirtyDaemonSets.insert(dsKey);
}

void LiveSnapshotBuilder::nodeChanged(const kube::Node &node, bool deleted)
{
    if (deleted)
        m_nodes.erase(node.metadata.name);
    else
        m_nodes[node.metadata.name] = SnapshotBuilder::nodeInfo(node);
    m_nodesDirty = true;
}

void LiveSnapshotBuilder::eventChanged(const kube::Event &event, bool deleted)
{
    const auto &o = event.involvedObject;
    const std::string key = event.metadata.key();
    const std::string podKey = o.kind == "Pod" ? o.namespace_ + "/" + o.name : std::string();
    auto awaiting = podKey.empty() ? m_eventsAwaitingPod.end() : m_eventsAwaitingPod.find(podKey);
    if (awaiting != m_eventsAwaitingPod.end()) {
        awaiting->second.erase(key);
        if (awaiting->second.empty())
            m_eventsAwaitingPod.erase(awaiting);
    }
    if (deleted) {
        m_events.erase(key);
    } else {
        EventInfo info = eventInfo(event);
        if (info.daemonSetKey.isEmpty() && !podKey.empty()) {
            if (const std::string *owner = podOwner(o.namespace_, o.name))
                info.daemonSetKey = q(*owner);
            else
                m_eventsAwaitingPod[podKey].insert(key);
        }
        m_events[key] = std::move(info);
    }
    m_eventsDirty = true;
}

const std::string *LiveSnapshotBuilder::podOwner(const std::string &ns, const std::string &name) const
{
    const std::string prefix = ns + "/";
    for (auto it = m_pods.lower_bound(prefix); it != m_pods.end() && it->first.starts_with(prefix); ++it)
        if (it->second.count(name))
            return &it->first;
    return nullptr;
}

void LiveSnapshotBuilder::forgetDaemonSet(const std::string &dsKey)
{
    m_pods.erase(dsKey);
    if (auto it = m_revisions.find(dsKey); it != m_revisions.end()) {
        for (const auto &[name, cr] : it->second)
            m_revisionTemplates.erase(cr.metadata.key());
        m_revisions.erase(it);
    }
    m_oldestNotReady.erase(dsKey);
    m_dirtyDaemonSets.insert(dsKey);
}

const kube::DaemonSet *LiveSnapshotBuilder::daemonSet(const std::string &key) const
{
    auto it = m_daemonSets.find(key);
    return it == m_daemonSets.end() ? nullptr : &it->second;
}

void LiveSnapshotBuilder::setUpgrades(std::shared_ptr<const LiveUpgradeView> view)
{
    if (view == m_upgrades)
        return;
    m_upgrades = std::move(view);
    m_upgradesDirty = true;
}

void LiveSnapshotBuilder::observeUpgradeEvents()
{
    const bool sameSource = m_observedSource == m_upgrades->rollouts && m_observedUpgrades;
    const auto previous = m_observedUpgrades;
    m_observedSource = m_upgrades->rollouts;
    m_observedUpgrades = m_upgrades->rollouts;
    if (m_upgrades->driver.mode == UpgradeDriverInfo::Mode::Console || m_upgrades->rollouts->empty())
        return; // the console's own controller reports its events itself
    static const QSet<QString> reasons = [] {
        QSet<QString> out;
        for (int i = 0; i < api::kUpgradeReasonCount; ++i)
            out.insert(QLatin1String(api::upgradeReasonName(static_cast<api::UpgradeReason>(i))));
        return out;
    }();
    auto list = std::make_shared<UpgradeRolloutList>(*m_upgrades->rollouts);
    bool changed = !sameSource || previous->size() != list->size();
    for (std::size_t i = 0; i < list->size(); ++i) {
        UpgradeRolloutInfo &info = (*list)[i];
        QSet<QString> objects{QStringLiteral("nodeupgraderollout/") + info.name};
        for (const UpgradeNodeRow &row : *info.nodes)
            objects.insert(QStringLiteral("node/") + row.name);
        std::vector<UpgradeEventInfo> events = *info.events; // this console's own requests
        for (const auto &[key, e] : m_events)
            if (reasons.contains(e.reason) && objects.contains(e.object))
                events.push_back(
                    UpgradeEventInfo{e.object, e.type, e.reason, e.message, e.count, e.firstTime, e.time});
        std::stable_sort(
            events.begin(), events.end(),
            [](const UpgradeEventInfo &a, const UpgradeEventInfo &b) { return a.lastTime > b.lastTime; });
        if (events.size() > std::size_t(kMaxUpgradeEvents))
            events.resize(std::size_t(kMaxUpgradeEvents));
        if (!changed && *(*previous)[i].events == events) {
            info.events = (*previous)[i].events;
            continue;
        }
        changed = true;
        if (events != *info.events)
            info.events = std::make_shared<const std::vector<UpgradeEventInfo>>(std::move(events));
    }
    // Other events (the kubelets', say) leave the list as it was: the page is not refreshed.
    m_observedUpgrades = changed ? std::move(list) : previous;
}

bool LiveSnapshotBuilder::hasChanges() const
{
    return !m_previous || m_backendDirty || m_upgradesDirty || m_nodesDirty || m_eventsDirty ||
           m_daemonSetListDirty || !m_dirtyDaemonSets.empty();
}

std::string
LiveSnapshotBuilder::currentRevisionName(const kube::DaemonSet &ds,
                                         const std::map<std::string, kube::ControllerRevision> &revisions)
{
    std::string best;
    std::int64_t bestRev = -1;
    for (const auto &[name, cr] : revisions) {
        const auto *ref = cr.metadata.controllerRef();
        if (!ref || ref->uid != ds.metadata.uid)
            continue;
        const bool matches =
            api::matchRevision(ds, cr) || SnapshotBuilder::revisionTemplate(cr.data) == ds.podTemplate();
        if (matches && cr.revision >= bestRev) {
            best = name;
            bestRev = cr.revision;
        }
    }
    return best;
}

std::shared_ptr<const ClusterSnapshot> LiveSnapshotBuilder::build(const ClockInfo &clock)
{
    auto snap = ClusterSnapshot::create();
    snap->sequence = ++m_sequence;
    snap->backend = m_backend;
    snap->clock = clock;
    if (m_upgrades) {
        if (m_upgradesDirty || m_eventsDirty || !m_observedUpgrades)
            observeUpgradeEvents();
        snap->upgrades = m_observedUpgrades;
        snap->upgradeInventory = m_upgrades->inventory;
        snap->upgradeInventoryRead = m_upgrades->inventoryRead;
        snap->upgradeDriver = m_upgrades->driver;
    } else {
        snap->upgradeDriver.mode = UpgradeDriverInfo::Mode::Nobody;
        snap->upgradeDriver.reading = true;
        snap->upgradeInventoryRead = false;
    }
    m_upgradesDirty = false;
    std::set<QString> namespaces;
    for (const auto &[key, ds] : m_daemonSets)
        namespaces.insert(q(ds.metadata.namespace_));
    for (const auto &ns : namespaces)
        snap->namespaces.append(ns);

    if (m_nodesDirty || !m_previous) {
        auto nodes = std::make_shared<std::vector<NodeInfo>>();
        nodes->reserve(m_nodes.size());
        for (const auto &[name, info] : m_nodes)
            nodes->push_back(info);
        snap->nodes = std::move(nodes);
        m_nodesDirty = false;
    } else {
        snap->nodes = m_previous->nodes;
    }

    if (m_eventsDirty || !m_previous) {
        std::vector<EventInfo> all;
        all.reserve(m_events.size());
        for (const auto &[key, info] : m_events)
            all.push_back(info);
        const std::size_t keep = std::min<std::size_t>(all.size(), ClusterSnapshot::kMaxEvents);
        std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                          eventNewerFirst);
        all.resize(keep);
        snap->events = std::make_shared<const std::vector<EventInfo>>(std::move(all));
        m_eventsDirty = false;
    } else {
        snap->events = m_previous->events;
    }

    const QSet<QString> upgrading = SnapshotBuilder::upgradingNodes(*snap->nodes);
    const QSet<QString> notReady = SnapshotBuilder::notReadyNodes(*snap->nodes);
    for (const auto &[key, ds] : m_daemonSets) {
        const DaemonSetInfo *previous = m_previous ? m_previous->daemonSet(q(key)) : nullptr;
        if (previous && !m_dirtyDaemonSets.count(key))
            snap->daemonSets.push_back(*previous);
        else
            snap->daemonSets.push_back(buildDaemonSet(ds, previous));
        DaemonSetInfo &info = snap->daemonSets.back();
        info.record = m_tracker.record(key);
        auto oldest = m_oldestNotReady.find(key);
        auto [badge, reason] = SnapshotBuilder::computeBadge(
            info, m_tracker.activeRollout(key), oldest == m_oldestNotReady.end() ? 0 : oldest->second,
            clock.now, upgrading, notReady);
        info.badge = badge;
        info.badgeReason = reason;
    }
    // m_daemonSets is ordered by key already, as the snapshot requires.
    m_dirtyDaemonSets.clear();
    m_daemonSetListDirty = false;
    m_backendDirty = false;
    addObservedUpgrade(*snap, m_observed);
    m_previous = snap;
    return snap;
}

DaemonSetInfo LiveSnapshotBuilder::buildDaemonSet(const kube::DaemonSet &ds, const DaemonSetInfo *previous)
{
    const std::string key = ds.metadata.key();
    DaemonSetInfo info = SnapshotBuilder::daemonSetSpecInfo(ds, previous);

    static const std::map<std::string, kube::ControllerRevision> noRevisions;
    auto revIt = m_revisions.find(key);
    const auto &crs = revIt == m_revisions.end() ? noRevisions : revIt->second;
    std::vector<const kube::ControllerRevision *> owned;
    for (const auto &[name, cr] : crs) {
        const auto *ref = cr.metadata.controllerRef();
        if (ref && ref->uid == ds.metadata.uid)
            owned.push_back(&cr); // kubectl ignores revisions without this DaemonSet as controller
    }
    const auto pods = m_pods.find(key);
    const auto numberByHash = SnapshotBuilder::fillPodsAndRevisions(
        info, pods == m_pods.end() ? nullptr : &pods->second, owned, currentRevisionName(ds, crs),
        m_revisionTemplates, m_oldestNotReady[key]);
    m_tracker.reconcile(key, info.currentRevisionHash.toStdString(), info.currentRevisionNumber,
                        numberByHash);
    return info;
}

} // namespace models
