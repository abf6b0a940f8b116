#include "models/snapshot/livesnapshotbuilder.h"

#include "models/liveupgrade/liveupgraderuntime.h"

#include "models/api/nodeupgradeevents.h"

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
    m_assembler.daemonSetChanged(ds, deleted, now);
    if (deleted)
        m_daemonSets.erase(key);
    else
        m_daemonSets[key] = ds;
}

void LiveSnapshotBuilder::revisionChanged(const std::string &dsKey, const kube::ControllerRevision &cr,
                                          bool deleted)
{
    if (deleted) {
        auto it = m_revisions.find(dsKey);
        if (it != m_revisions.end())
            it->second.erase(cr.metadata.name);
    } else {
        m_revisions[dsKey][cr.metadata.name] = cr;
    }
    m_assembler.revisionChanged(dsKey, cr, deleted);
}

void LiveSnapshotBuilder::podChanged(const std::string &dsKey, const kube::Pod &pod, bool created,
                                     bool deleted, kube::Timestamp now)
{
    if (!ownedBy(pod.metadata, dsKey))
        return; // selected by the labels, but another controller's
    m_assembler.podChanged(dsKey, pod, created, deleted, now);
    if (!deleted) {
        auto awaiting = m_eventsAwaitingPod.empty() ? m_eventsAwaitingPod.end()
                                                    : m_eventsAwaitingPod.find(pod.metadata.key());
        if (awaiting != m_eventsAwaitingPod.end()) {
            for (const std::string &eventKey : awaiting->second)
                if (auto e = m_events.find(eventKey); e != m_events.end()) {
                    e->second.daemonSetKey = q(dsKey);
                    m_assembler.eventsChanged();
                }
            m_eventsAwaitingPod.erase(awaiting);
        }
    }
}

void LiveSnapshotBuilder::nodeChanged(const kube::Node &node, bool deleted)
{
    if (deleted)
        m_assembler.nodes().erase(node.metadata.name);
    else
        m_assembler.nodes()[node.metadata.name] = SnapshotAssembler::nodeInfo(node);
    m_assembler.nodesChanged();
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
    m_assembler.eventsChanged();
}

const std::string *LiveSnapshotBuilder::podOwner(const std::string &ns, const std::string &name) const
{
    const std::string prefix = ns + "/";
    const auto &pods = m_assembler.pods();
    for (auto it = pods.lower_bound(prefix); it != pods.end() && it->first.starts_with(prefix); ++it)
        if (it->second.count(name))
            return &it->first;
    return nullptr;
}

void LiveSnapshotBuilder::forgetDaemonSet(const std::string &dsKey)
{
    std::vector<std::string> revisionKeys;
    if (auto it = m_revisions.find(dsKey); it != m_revisions.end()) {
        for (const auto &[name, cr] : it->second)
            revisionKeys.push_back(cr.metadata.key());
        m_revisions.erase(it);
    }
    m_assembler.forgetDaemonSet(dsKey, revisionKeys);
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
    return m_assembler.hasChanges() || m_backendDirty || m_upgradesDirty;
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
            api::matchRevision(ds, cr) || SnapshotAssembler::revisionTemplate(cr.data) == ds.podTemplate();
        if (matches && cr.revision >= bestRev) {
            best = name;
            bestRev = cr.revision;
        }
    }
    return best;
}

std::shared_ptr<const ClusterSnapshot> LiveSnapshotBuilder::build(const ClockInfo &clock)
{
    const bool eventsChanged = m_assembler.eventsDirty();
    auto snap = m_assembler.begin(m_backend, clock);
    if (m_upgrades) {
        if (m_upgradesDirty || eventsChanged || !m_observedUpgrades)
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

    std::vector<EventInfo> all;
    if (eventsChanged) {
        all.reserve(m_events.size());
        for (const auto &[key, info] : m_events)
            all.push_back(info);
    }
    m_assembler.publishEvents(*snap, all);

    static const std::map<std::string, kube::ControllerRevision> noRevisions;
    for (const auto &[key, ds] : m_daemonSets) {
        m_assembler.addDaemonSet(*snap, ds, [&, &key = key, &ds = ds] {
            auto revIt = m_revisions.find(key);
            const auto &crs = revIt == m_revisions.end() ? noRevisions : revIt->second;
            std::vector<const kube::ControllerRevision *> owned;
            for (const auto &[name, cr] : crs) {
                const auto *ref = cr.metadata.controllerRef();
                if (ref && ref->uid == ds.metadata.uid)
                    owned.push_back(&cr); // kubectl ignores revisions without this DaemonSet as controller
            }
            return std::pair{std::move(owned), currentRevisionName(ds, crs)};
        });
    }
    m_backendDirty = false;
    return m_assembler.finish(std::move(snap));
}

} // namespace models
