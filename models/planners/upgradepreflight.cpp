#include "models/planners/upgradepreflight.h"

#include "models/api/nodeupgradelogic.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <map>

namespace models {

namespace {

QString unmanagedAction(const api::NodeUpgradeRolloutSpec &spec, qint64 since, qint64 now)
{
    switch (spec.unmanagedPodPolicy) {
    case api::UnmanagedPodPolicy::Immediate:
        return UpgradePreflight::tr("deleted once the managed pods are gone");
    case api::UnmanagedPodPolicy::Never:
        return UpgradePreflight::tr("kept: the node waits for you to delete them or skip it");
    case api::UnmanagedPodPolicy::AfterTimeout: {
        const qint64 left = since > 0 ? std::max<qint64>(0, since + spec.timeouts.unmanagedTimeout - now)
                                      : spec.timeouts.unmanagedTimeout;
        if (left == 0)
            return UpgradePreflight::tr("deleted at once (countdown already expired)");
        return UpgradePreflight::tr("deleted %1 after marking (%2 left)")
            .arg(QString::fromStdString(kube::formatDuration(spec.timeouts.unmanagedTimeout)),
                 QString::fromStdString(kube::formatDuration(left)));
    }
    }
    return {};
}

} // namespace

kube::Result<UpgradePreflight> UpgradePreflight::forSpec(const ClusterSnapshot &snapshot,
                                                         const kube::Json &spec)
{
    auto parsed = api::NodeUpgradeRolloutSpec::fromJson(spec);
    if (!parsed)
        return parsed.error();
    return compute(snapshot, *parsed);
}

kube::Json UpgradePreflight::rolloutManifest(const QString &name, const kube::Json &spec)
{
    return api::nodeUpgradeRolloutManifest(name.toStdString(), spec);
}

namespace {

// How each drained node restarts, in words.
QString restartText(const api::NodeUpgradeRolloutSpec &spec)
{
    switch (spec.restart) {
    case api::RestartMechanism::Annotation:
        return UpgradePreflight::tr("the node's agent is asked (upgrade/kamikaze) and must acknowledge");
    case api::RestartMechanism::Job: {
        std::string image;
        const auto &containers = spec.restartJobTemplate["spec"]["template"]["spec"]["containers"];
        if (containers.is_array() && !containers.empty() && containers[0].contains("image"))
            image = containers[0]["image"].get<std::string>();
        return UpgradePreflight::tr("a Job per node in %1 runs %2")
            .arg(QString::fromStdString(spec.restartJobNamespace), QString::fromStdString(image));
    }
    case api::RestartMechanism::External:
        return UpgradePreflight::tr("left to another tool; each node must return on the target version");
    }
    return {};
}

// What a node's pods mean for its drain: the candidate's pod counts and controller, and the
// report's single-replica, local-data and unmanaged lines.
void noteWorkload(UpgradePreflight &p, const api::NodeUpgradeRolloutSpec &spec, const UpgradeNodeWorkload &wl,
                  const QString &node, qint64 now, api::SelectionCandidate &c)
{
    c.managedPods = wl.managedPods;
    c.unmanagedPods = int(wl.unmanagedPods.size());
    if (wl.incompatibleSince > 0)
        c.incompatibleSince = std::min(wl.incompatibleSince, now);
    c.controllerHost = wl.controllerHost;
    for (const QString &owner : wl.singleReplicaOwners) {
        p.singleReplica
            << (spec.singleReplicaPolicy == api::SingleReplicaPolicy::Block
                    ? UpgradePreflight::tr("%1 on %2 (blocks the node until you act)").arg(owner, node)
                    : UpgradePreflight::tr("%1 on %2 (disrupted, with a Warning)").arg(owner, node));
    }
    if (!wl.localDataPods.isEmpty())
        p.localData << (spec.localDataPolicy == api::LocalDataPolicy::Block
                            ? UpgradePreflight::tr("%1: %2 — the node waits (localDataPolicy Block)")
                            : UpgradePreflight::tr(
                                  "%1: %2 — evicted, their emptyDir data is lost (localDataPolicy Delete)"))
                           .arg(node, wl.localDataPods.join(QStringLiteral(", ")));
    if (!wl.unmanagedPods.isEmpty())
        p.unmanaged << UpgradePreflight::tr("%1: %2 — %3")
                           .arg(node, wl.unmanagedPods.join(QStringLiteral(", ")),
                                unmanagedAction(spec, wl.incompatibleSince, now));
}

} // namespace

UpgradePreflight UpgradePreflight::compute(const ClusterSnapshot &snapshot,
                                           const api::NodeUpgradeRolloutSpec &spec)
{
    UpgradePreflight p;
    p.workloadUnread = !snapshot.upgradeInventoryRead;
    p.restart = restartText(spec);
    const qint64 now = snapshot.clock.now;
    const QString target = QString::fromStdString(spec.targetVersion);
    std::map<QString, const UpgradeNodeWorkload *> workload;
    for (const auto &w : *snapshot.upgradeInventory)
        workload[w.node] = &w;
    std::map<QString, int> zones;
    std::vector<api::SelectionCandidate> candidates;
    int startable = 0;     // incompatible nodes that are Ready (a NotReady node waits)
    int startableFree = 0; // of those, cordoned already: taking one costs no new slot
    QStringList holders;   // the nodes holding budget slots before the rollout starts
    for (const NodeInfo &n : *snapshot.nodes) {
        bool match = true;
        for (const auto &[k, v] : spec.nodeSelector) {
            auto it = n.labels.find(QString::fromStdString(k));
            if (it == n.labels.end() || it->second != QString::fromStdString(v))
                match = false;
        }
        if (!match)
            continue;
        ++p.matched;
        if (!n.ready)
            p.notReady << n.name;
        // The controller's budget rule: a NotReady or unschedulable node is unavailable already.
        if (!n.ready || n.unschedulable) {
            ++p.heldSlots;
            holders << (n.ready ? tr("%1 (cordoned)") : tr("%1 (NotReady)")).arg(n.name);
        }
        if (n.agentVersion == target)
            continue;
        ++p.incompatible;
        ++zones[n.zone];
        if (n.unschedulable)
            p.cordonedElsewhere << n.name;
        if (n.ready)
            ++startable;
        if (n.ready && n.unschedulable)
            ++startableFree;
        api::SelectionCandidate c;
        c.name = n.name.toStdString();
        c.zone = n.zone.toStdString();
        c.incompatibleSince = now;
        c.ready = n.ready;
        if (auto w = workload.find(n.name); w != workload.end())
            noteWorkload(p, spec, *w->second, n.name, now, c);
        candidates.push_back(std::move(c));
    }
    for (const auto &[zone, count] : zones)
        p.perZone.emplace_back(zone, count);
    const std::string zone = api::activeZone({}, candidates, spec.zoneSerial);
    for (const auto &c : api::orderCandidates(std::move(candidates), spec.zoneSerial, zone))
        p.order << QString::fromStdString(c.name);
    const auto budget = api::resolveMaxUnavailable(spec.maxUnavailable, p.matched);
    p.budget = budget.value;
    p.budgetClamped = budget.clamped;
    // Whether any node can start: the same rule as the controller's selection.
    const int freeSlots = p.budget - p.heldSlots;
    if (p.incompatible > 0 && startable == 0) {
        p.cannotStart = tr("every node to upgrade is NotReady (%1); each starts once it is Ready again")
                            .arg(p.notReady.join(QStringLiteral(", ")));
    } else if (p.incompatible > 0 && freeSlots <= 0 && (startableFree == 0 || freeSlots < 0)) {
        p.cannotStart = tr("the budget of %n node(s) is held by %1; raise maxUnavailable, or bring the "
                           "node back",
                           nullptr, p.budget)
                            .arg(holders.mid(0, 5).join(QStringLiteral(", ")));
    }
    // A rough figure: drain and restart take about two minutes besides the soak, with the slots
    // the budget leaves free.
    const qint64 perNode = spec.soakDuration + 2 * 60 * 1000;
    const int parallel = std::max(1, freeSlots);
    p.estimateMs =
        p.cannotStart.isEmpty() && startable > 0 ? perNode * ((startable + parallel - 1) / parallel) : 0;
    return p;
}

namespace {

QStringList bullets(const QStringList &items)
{
    QStringList out;
    for (const QString &i : items)
        out << QStringLiteral("  • ") + i;
    return out;
}

} // namespace

QString UpgradePreflight::text() const
{
    QStringList lines;
    lines << tr("%n node(s) to upgrade", nullptr, incompatible) + tr(" (of %n matched)", nullptr, matched);
    if (workloadUnread)
        lines << tr("The nodes' pods are still being read: pods to move, single-replica controllers and "
                    "local data are missing from this report until they are.");
    if (incompatible == 0) {
        lines << tr("Every matched node already runs the target version.");
        return lines.join(QLatin1Char('\n'));
    }
    QStringList zones;
    for (const auto &[zone, count] : perZone)
        zones << QStringLiteral("%1: %2").arg(zone.isEmpty() ? tr("(no zone)") : zone).arg(count);
    lines << tr("Per zone: %1").arg(zones.join(QStringLiteral(", ")));
    lines << tr("Budget: %n node(s) at a time", nullptr, budget) +
                 (budgetClamped ? tr(" (the percentage rounded to 0 and was raised to 1)") : QString()) +
                 (heldSlots > 0
                      ? tr(", %n of them held now by NotReady or cordoned nodes", nullptr, heldSlots)
                      : QString());
    QStringList shown = order.mid(0, 12);
    if (order.size() > 12)
        shown << tr("… %n more", nullptr, int(order.size() - 12));
    lines << tr("Predicted order: %1").arg(shown.join(QStringLiteral(", ")));
    if (!cannotStart.isEmpty())
        lines << tr("Cannot start now: %1.").arg(cannotStart)
              << tr("Estimated duration: none — no node can start yet");
    else
        lines << tr("Estimated duration: about %1")
                     .arg(QString::fromStdString(kube::formatDuration(estimateMs)));
    if (singleReplica.isEmpty())
        lines << tr("Single-replica controllers: none");
    else
        lines << tr("Single-replica controllers:") << bullets(singleReplica);
    if (unmanaged.isEmpty())
        lines << tr("Unmanaged pods: none");
    else
        lines << tr("Unmanaged pods:") << bullets(unmanaged);
    if (!localData.isEmpty())
        lines << tr("Pods with emptyDir data:") << bullets(localData);
    if (!notReady.isEmpty())
        lines << tr("NotReady now, each holding a budget slot until it recovers: %1")
                     .arg(notReady.join(QStringLiteral(", ")));
    if (!cordonedElsewhere.isEmpty())
        lines << tr("Already cordoned by someone else (never uncordoned by the rollout): %1")
                     .arg(cordonedElsewhere.join(QStringLiteral(", ")));
    if (!restart.isEmpty())
        lines << tr("Restart: %1").arg(restart);
    return lines.join(QLatin1Char('\n'));
}

} // namespace models
