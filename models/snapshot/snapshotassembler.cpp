#include "models/snapshot/snapshotassembler.h"

#include "models/planners/managedby.h"
#include "models/snapshot/detailevents.h"

#include "models/api/kubectlrollout.h"
#include "models/api/nodeupgradelogic.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/timeutil.h"

#include <QCoreApplication>

#include <algorithm>

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("models::SnapshotAssembler", text, disambiguation, n);
}

bool eventNewerFirst(const EventInfo &a, const EventInfo &b)
{
    return a.time != b.time ? a.time > b.time : a.key < b.key;
}

} // namespace

void SnapshotAssembler::convertPod(const std::string &dsKey, const kube::Pod &pod, bool deleted)
{
    if (deleted) {
        auto it = m_pods.find(dsKey);
        if (it != m_pods.end())
            it->second.erase(pod.metadata.name);
    } else {
        m_pods[dsKey][pod.metadata.name] = podInfo(pod, m_strings);
    }
    m_dirtyDaemonSets.insert(dsKey);
}

void SnapshotAssembler::podChanged(const std::string &dsKey, const kube::Pod &pod, bool created, bool deleted,
                                   kube::Timestamp now)
{
    convertPod(dsKey, pod, deleted);
    m_tracker.observePod(pod, dsKey, created, now);
}

void SnapshotAssembler::podLoaded(const std::string &dsKey, const kube::Pod &pod)
{
    convertPod(dsKey, pod, false);
}

void SnapshotAssembler::daemonSetChanged(const kube::DaemonSet &ds, bool deleted, kube::Timestamp now)
{
    m_tracker.observeDaemonSet(ds, now, deleted);
    m_dirtyDaemonSets.insert(ds.metadata.key());
    m_daemonSetListDirty = true;
}

void SnapshotAssembler::revisionChanged(const std::string &dsKey, const kube::ControllerRevision &cr,
                                        bool deleted)
{
    if (deleted)
        m_revisionTemplates.erase(cr.metadata.key());
    else
        m_tracker.observeRevision(dsKey, cr.metadata.label(kube::kRevisionHashLabel), cr.revision);
    m_dirtyDaemonSets.insert(dsKey);
}

void SnapshotAssembler::forgetDaemonSet(const std::string &dsKey,
                                        const std::vector<std::string> &revisionKeys)
{
    m_pods.erase(dsKey);
    for (const std::string &key : revisionKeys)
        m_revisionTemplates.erase(key);
    m_oldestNotReady.erase(dsKey);
    m_dirtyDaemonSets.insert(dsKey);
}

bool SnapshotAssembler::hasChanges() const
{
    return !m_previous || m_nodesDirty || m_eventsDirty || m_daemonSetListDirty || !m_dirtyDaemonSets.empty();
}

std::shared_ptr<ClusterSnapshot> SnapshotAssembler::begin(const BackendInfo &backend, const ClockInfo &clock)
{
    auto snap = ClusterSnapshot::create();
    snap->sequence = ++m_sequence;
    snap->backend = backend;
    snap->clock = clock;
    if (m_nodesDirty || !m_previous) {
        auto nodes = std::make_shared<std::vector<NodeInfo>>();
        nodes->reserve(m_nodes.size());
        for (const auto &[name, info] : m_nodes)
            nodes->push_back(info);
        m_upgrading = upgradingNodes(*nodes);
        m_notReady = notReadyNodes(*nodes);
        snap->nodes = std::move(nodes);
        m_nodesDirty = false;
    } else {
        snap->nodes = m_previous->nodes;
    }
    m_now = clock.now;
    return snap;
}

void SnapshotAssembler::publishEvents(ClusterSnapshot &snap, std::vector<EventInfo> &all)
{
    if (!eventsDirty()) {
        snap.events = m_previous->events;
        return;
    }
    const auto keep =
        static_cast<std::ptrdiff_t>(std::min<std::size_t>(all.size(), ClusterSnapshot::kMaxEvents));
    std::partial_sort(all.begin(), all.begin() + keep, all.end(), eventNewerFirst);
    std::vector<EventInfo> newest(std::make_move_iterator(all.begin()),
                                  std::make_move_iterator(all.begin() + keep));
    all.erase(all.begin(), all.begin() + keep);
    snap.events = std::make_shared<const std::vector<EventInfo>>(std::move(newest));
    m_eventsDirty = false;
}

void SnapshotAssembler::addDaemonSet(ClusterSnapshot &snap, const kube::DaemonSet &ds,
                                     const RevisionsOf &revisions)
{
    const std::string key = ds.metadata.key();
    const DaemonSetInfo *previous = m_previous ? m_previous->daemonSet(q(key)) : nullptr;
    if (previous && !m_dirtyDaemonSets.count(key))
        snap.daemonSets.push_back(*previous);
    else
        snap.daemonSets.push_back(assembleDaemonSet(ds, previous, revisions));
    DaemonSetInfo &info = snap.daemonSets.back();
    info.record = m_tracker.record(key);
    auto oldest = m_oldestNotReady.find(key);
    auto [badge, reason] =
        computeBadge(info, m_tracker.activeRollout(key),
                     oldest == m_oldestNotReady.end() ? 0 : oldest->second, m_now, m_upgrading, m_notReady);
    info.badge = badge;
    info.badgeReason = reason;
}

DaemonSetInfo SnapshotAssembler::assembleDaemonSet(const kube::DaemonSet &ds, const DaemonSetInfo *previous,
                                                   const RevisionsOf &revisions)
{
    const std::string key = ds.metadata.key();
    DaemonSetInfo info = daemonSetSpecInfo(ds, previous);
    const auto [owned, currentName] = revisions();
    const auto pods = m_pods.find(key);
    const auto numberByHash =
        fillPodsAndRevisions(info, pods == m_pods.end() ? nullptr : &pods->second, owned, currentName,
                             m_revisionTemplates, m_oldestNotReady[key]);
    m_tracker.reconcile(key, info.currentRevisionHash.toStdString(), info.currentRevisionNumber,
                        numberByHash);
    return info;
}

std::shared_ptr<const ClusterSnapshot> SnapshotAssembler::finish(std::shared_ptr<ClusterSnapshot> snap)
{
    std::sort(snap->daemonSets.begin(), snap->daemonSets.end(),
              [](const DaemonSetInfo &a, const DaemonSetInfo &b) { return a.key < b.key; });
    m_dirtyDaemonSets.clear();
    m_daemonSetListDirty = false;
    addObservedUpgrade(*snap, m_observed);
    m_previous = snap;
    return m_previous;
}

DaemonSetInfo SnapshotAssembler::daemonSetSpecInfo(const kube::DaemonSet &ds, const DaemonSetInfo *previous)
{
    DaemonSetInfo info;
    info.key = q(ds.metadata.key());
    info.namespace_ = q(ds.metadata.namespace_);
    info.name = q(ds.metadata.name);
    info.uid = q(ds.metadata.uid);
    info.generation = ds.metadata.generation;
    info.observedGeneration = ds.status.observedGeneration;
    info.created = ds.metadata.creationTimestamp.value_or(0);
    const auto &s = ds.status;
    info.counts = DaemonSetCounts{
        s.desiredNumberScheduled, s.currentNumberScheduled, s.updatedNumberScheduled, s.numberReady,
        s.numberAvailable,        s.numberUnavailable,      s.numberMisscheduled};
    info.strategyType = q(ds.updateStrategyType());
    if (ds.updateStrategyType() == "RollingUpdate") {
        info.maxUnavailable = q(ds.maxUnavailable().value_or(kube::IntOrString::fromInt(1)).toString());
        info.maxSurge = q(ds.maxSurge().value_or(kube::IntOrString::fromInt(0)).toString());
    }
    info.minReadySeconds = ds.minReadySeconds();
    info.revisionHistoryLimit = ds.revisionHistoryLimit();
    info.paused = api::isPaused(ds);
    info.savedStrategy = q(ds.metadata.annotation(api::kPausedStrategyAnnotation));
    if (previous && previous->podTemplate && *previous->podTemplate == ds.podTemplate())
        info.podTemplate = previous->podTemplate;
    else
        info.podTemplate = std::make_shared<const kube::Json>(ds.podTemplate());
    // Who else manages it: shared with the previous snapshot while it stays the same.
    info.managedBy = managedByOf(ds.metadata, previous ? previous->managedBy : nullptr);
    return info;
}

std::map<std::string, std::int64_t>
SnapshotAssembler::fillPodsAndRevisions(DaemonSetInfo &info, const std::map<std::string, PodInfo> *podsByName,
                                        const std::vector<const kube::ControllerRevision *> &revisionList,
                                        const std::string &currentName, RevisionTemplateCache &templates,
                                        qint64 &oldestNotReady)
{
    // Pods, and how many are on each revision.
    auto pods = std::make_shared<std::vector<PodInfo>>();
    std::map<QString, int> perHash;
    if (podsByName) {
        pods->reserve(podsByName->size());
        for (const auto &[podName, p] : *podsByName) {
            pods->push_back(p);
            if (!p.deleting)
                ++perHash[p.hash];
        }
    }

    auto revisions = std::make_shared<std::vector<RevisionInfo>>();
    std::map<std::string, std::int64_t> numberByHash;
    for (const kube::ControllerRevision *cr : revisionList) {
        RevisionInfo r;
        r.name = q(cr->metadata.name);
        r.hash = q(cr->metadata.label(kube::kRevisionHashLabel));
        r.number = cr->revision;
        r.created = cr->metadata.creationTimestamp.value_or(0);
        r.changeCause = q(cr->metadata.annotation(kube::kChangeCauseAnnotation));
        auto &cached = templates[cr->metadata.key()];
        if (!cached.second || cached.first != cr->data)
            cached = {cr->data, std::make_shared<const kube::Json>(revisionTemplate(cr->data))};
        r.podTemplate = cached.second;
        r.imageSummary = imageSummary(*r.podTemplate);
        const auto count = perHash.find(r.hash);
        r.podCount = count == perHash.end() ? 0 : count->second;
        r.current = cr->metadata.name == currentName;
        if (r.current) {
            info.currentRevisionName = r.name;
            info.currentRevisionHash = r.hash;
            info.currentRevisionNumber = r.number;
        }
        numberByHash[r.hash.toStdString()] = r.number;
        revisions->push_back(std::move(r));
    }
    std::sort(revisions->begin(), revisions->end(), [](const RevisionInfo &a, const RevisionInfo &b) {
        return a.number != b.number ? a.number < b.number : a.name < b.name;
    });

    oldestNotReady = 0;
    for (const auto &p : *pods) {
        if (p.hash == info.currentRevisionHash && !p.ready && !p.deleting &&
            (oldestNotReady == 0 || p.created < oldestNotReady))
            oldestNotReady = p.created;
    }
    info.revisions = std::move(revisions);
    info.pods = std::move(pods);
    return numberByHash;
}

QSet<QString> SnapshotAssembler::upgradingNodes(const std::vector<NodeInfo> &nodes)
{
    QSet<QString> out;
    for (const NodeInfo &n : nodes)
        if (n.upgrading)
            out.insert(n.name);
    return out;
}

QSet<QString> SnapshotAssembler::notReadyNodes(const std::vector<NodeInfo> &nodes)
{
    QSet<QString> out;
    for (const NodeInfo &n : nodes)
        if (!n.ready)
            out.insert(n.name);
    return out;
}

// A rollout whose oldest not-Ready pod on the current revision is older than
// kStuckPodThreshold: the pod and its node named, unless the pod is on a node that excuses it.
std::pair<RolloutBadge, QString> SnapshotAssembler::stuckPodBadge(const DaemonSetInfo &ds,
                                                                  qint64 oldestNotReadyCreated, qint64 now,
                                                                  const QSet<QString> &upgradingNodes,
                                                                  const QSet<QString> &notReadyNodes)
{
    // Name the pod and its node: the oldest not-Ready pod on the current revision.
    const PodInfo *stuck = nullptr;
    if (ds.pods)
        for (const PodInfo &p : *ds.pods)
            if (p.hash == ds.currentRevisionHash && !p.ready && !p.deleting &&
                p.created == oldestNotReadyCreated && !upgradingNodes.contains(p.node) &&
                !notReadyNodes.contains(p.node)) {
                stuck = &p;
                break;
            }
    if (stuck)
        return {RolloutBadge::Stuck, tr("pod %1 on %2 (revision %3) has not become ready for %4")
                                         .arg(stuck->name, stuck->node)
                                         .arg(ds.currentRevisionNumber)
                                         .arg(q(kube::humanAge(now - oldestNotReadyCreated)))};
    return {RolloutBadge::Stuck, tr("a pod on revision %1 has not become ready for %2")
                                     .arg(ds.currentRevisionNumber)
                                     .arg(q(kube::humanAge(now - oldestNotReadyCreated)))};
}

std::pair<RolloutBadge, QString> SnapshotAssembler::computeBadge(const DaemonSetInfo &ds,
                                                                 const RolloutTiming *active,
                                                                 qint64 oldestNotReadyCreated, qint64 now,
                                                                 const QSet<QString> &upgradingNodes,
                                                                 const QSet<QString> &notReadyNodes)
{
    if (ds.paused)
        return {RolloutBadge::Paused,
                tr("paused: update strategy switched to OnDelete; new nodes still get pods")};
    const auto &c = ds.counts;
    if (ds.observedGeneration >= ds.generation && c.updated == c.desired && c.available == c.desired &&
        c.misscheduled == 0)
        return {RolloutBadge::Complete,
                tr("%1 of %2 pods updated and available").arg(c.updated).arg(c.desired)};
    QStringList onNotReady; // NotReady nodes whose pod is down or behind (or missing)
    if ((!upgradingNodes.isEmpty() || !notReadyNodes.isEmpty()) && ds.pods) {
        // The nodes' share: pods that are down or behind on nodes a node upgrade has in flight
        // or that are NotReady, and whether a pod that is not Ready sits anywhere else.
        QStringList onUpgrading;
        QSet<QString> withPod;
        qint64 oldestElsewhere = 0;
        for (const PodInfo &p : *ds.pods) {
            withPod.insert(p.node);
            const bool upgrading = upgradingNodes.contains(p.node);
            if (upgrading || notReadyNodes.contains(p.node)) {
                QStringList &list = upgrading ? onUpgrading : onNotReady;
                if ((!p.ready || p.hash != ds.currentRevisionHash) && !list.contains(p.node))
                    list << p.node;
                continue;
            }
            if (p.hash == ds.currentRevisionHash && !p.ready && !p.deleting &&
                (oldestElsewhere == 0 || p.created < oldestElsewhere))
                oldestElsewhere = p.created;
        }
        // A restarting or lost node may have no pod at all: as many of those nodes without a
        // pod as the DaemonSet has nodes without one.
        int missing = 0;
        const int withoutPod = std::max(0, c.desired - c.current);
        QStringList excusable = upgradingNodes.values() + notReadyNodes.values();
        std::sort(excusable.begin(), excusable.end());
        excusable.erase(std::unique(excusable.begin(), excusable.end()), excusable.end());
        for (const QString &node : excusable)
            if (missing < withoutPod && !withPod.contains(node)) {
                ++missing;
                (upgradingNodes.contains(node) ? onUpgrading : onNotReady) << node;
            }
        std::sort(onUpgrading.begin(), onUpgrading.end());
        std::sort(onNotReady.begin(), onNotReady.end());
        const int excused = static_cast<int>(onUpgrading.size() + onNotReady.size());
        const int shortfall = std::max(c.desired - c.available, c.desired - c.updated);
        if (excused > 0 && shortfall <= excused && oldestElsewhere == 0 && c.misscheduled == 0 &&
            ds.observedGeneration >= ds.generation) {
            if (onNotReady.isEmpty())
                return {RolloutBadge::Complete,
                        tr("%1 of %2 pods updated, %3 available; the others are on nodes being upgraded: %4")
                            .arg(c.updated)
                            .arg(c.desired)
                            .arg(c.available)
                            .arg(onUpgrading.mid(0, 3).join(QStringLiteral(", ")))};
            // Done as far as the DaemonSet can go: what is missing waits for its nodes.
            QString reason = tr("done with exceptions: %1 of %2 updated, %3 available; down on NotReady %4")
                                 .arg(c.updated)
                                 .arg(c.desired)
                                 .arg(c.available)
                                 .arg(onNotReady.mid(0, 3).join(QStringLiteral(", ")));
            if (onNotReady.size() > 3)
                reason += tr(" and %n more", nullptr, static_cast<int>(onNotReady.size() - 3));
            if (!onUpgrading.isEmpty())
                reason += tr("; being upgraded: %1").arg(onUpgrading.mid(0, 3).join(QStringLiteral(", ")));
            return {RolloutBadge::Settled, reason};
        }
        oldestNotReadyCreated = oldestElsewhere;
        if (shortfall <= excused)
            active = nullptr; // no progress to expect while the nodes hold the rest
    }
    if (oldestNotReadyCreated > 0 && now - oldestNotReadyCreated > kStuckPodThreshold)
        return stuckPodBadge(ds, oldestNotReadyCreated, now, upgradingNodes, notReadyNodes);
    if (active) {
        const qint64 limit = std::max<qint64>(kStuckPodThreshold, 10 * active->meanNodeMs());
        const qint64 since = std::max(active->started, active->lastProgress);
        if (now - since > limit) {
            QString reason = tr("no progress for %1").arg(q(kube::humanAge(now - since)));
            if (!onNotReady.isEmpty())
                reason += tr("; its pods are down on NotReady %1")
                              .arg(onNotReady.mid(0, 3).join(QStringLiteral(", ")));
            return {RolloutBadge::Stuck, reason};
        }
    }
    return {RolloutBadge::Progressing,
            tr("%1 of %2 pods updated, %3 available").arg(c.updated).arg(c.desired).arg(c.available)};
}

QString SnapshotAssembler::imageSummary(const kube::Json &podTemplate)
{
    QStringList images;
    if (podTemplate.is_object() && podTemplate.contains("spec")) {
        const auto &spec = podTemplate["spec"];
        if (spec.is_object() && spec.contains("containers") && spec["containers"].is_array()) {
            for (const auto &c : spec["containers"]) {
                if (c.is_object() && c.contains("image") && c["image"].is_string())
                    images.append(q(c["image"].get<std::string>()));
            }
        }
    }
    return images.join(QStringLiteral(", "));
}

QString SnapshotAssembler::poolOf(const std::map<QString, QString> &labels)
{
    static const char *const keys[] = {"pool",
                                       "node-pool",
                                       "nodepool",
                                       "cloud.google.com/gke-nodepool",
                                       "eks.amazonaws.com/nodegroup",
                                       "kubernetes.azure.com/agentpool",
                                       "agentpool",
                                       "karpenter.sh/nodepool",
                                       "node.kubernetes.io/instance-type"};
    for (const char *k : keys) {
        auto it = labels.find(QLatin1String(k));
        if (it != labels.end())
            return it->second;
    }
    return {};
}

NodeInfo SnapshotAssembler::nodeInfo(const kube::Node &node)
{
    NodeInfo info;
    info.name = q(node.metadata.name);
    for (const auto &[k, v] : node.metadata.labels)
        info.labels.emplace(q(k), q(v));
    info.labelTexts.reserve(static_cast<qsizetype>(info.labels.size()));
    for (const auto &[k, v] : info.labels)
        info.labelTexts.append(v.isEmpty() ? k : k + QLatin1Char('=') + v);
    auto zone = info.labels.find(QStringLiteral("topology.kubernetes.io/zone"));
    if (zone != info.labels.end())
        info.zone = zone->second;
    info.pool = poolOf(info.labels);
    info.ready = node.isReady();
    info.unschedulable = node.unschedulable;
    QStringList conditions;
    for (const auto &c : node.conditions) {
        const bool normal = c.type == "Ready" ? c.status == "True" : c.status != "True";
        if (normal)
            continue;
        QString text = q(c.type) + QLatin1Char('=') + q(c.status);
        if (!c.reason.empty())
            text += QStringLiteral(" (") + q(c.reason) + QLatin1Char(')');
        conditions.append(text);
    }
    info.conditions = conditions.join(QStringLiteral(", "));
    info.agentVersion = q(node.kubeletVersion);
    if (const auto phase = api::nodePhaseFromString(node.metadata.annotation(api::ann::kPhase)))
        info.upgrading = api::isInFlight(*phase);
    // Drains other tools announce count too: their unavailability is the drain's, not the
    // DaemonSet's.
    for (const char *type : {api::kDrainInProgressCondition, api::kDrainedCondition})
        if (const auto *c = node.condition(type); c && c->status == "True" && info.draining.isEmpty())
            info.draining = QLatin1String(type);
    info.upgrading = info.upgrading || !info.draining.isEmpty();
    for (const auto &t : node.taints)
        if (isDisruptionTaint(t.key) && info.disruptionTaint.isEmpty())
            info.disruptionTaint = q(t.key);
    info.bootID = q(node.info.bootID);
    return info;
}

PodInfo SnapshotAssembler::podInfo(const kube::Pod &pod, StringPool &pool)
{
    PodInfo info;
    info.name = q(pod.metadata.name);
    info.node = pool(pod.node());
    info.hash = pool(pod.metadata.label(kube::kRevisionHashLabel));
    info.ready = pod.ready;
    info.deleting = pod.isDeleting();
    info.phase = pool(pod.phase);
    info.waitingReason = pool(pod.waitingReason);
    info.restarts = pod.restartCount;
    info.created = pod.metadata.creationTimestamp.value_or(0);
    info.readySince = pod.ready ? pod.readyTransitionTime.value_or(0) : 0;
    return info;
}

kube::Json SnapshotAssembler::revisionTemplate(const std::string &data)
{
    kube::Json j = kube::Json::parse(data, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("spec") || !j["spec"].is_object() ||
        !j["spec"].contains("template"))
        return kube::Json();
    kube::Json t = j["spec"]["template"];
    if (t.is_object())
        t.erase("$patch");
    return t;
}

} // namespace models
