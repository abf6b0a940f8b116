#include "models/planners/rollbackpreview.h"

#include "models/planners/managedby.h"

#include "models/api/podtimings.h"
#include "models/api/startrollout.h"
#include "models/kube/intorstring.h"
#include "models/kube/timeutil.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>

namespace models {

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("models::RollbackPreview", text, disambiguation, n);
}

// Estimates are rough: whole seconds under a minute, 10 s steps under an hour, minutes beyond
// (an estimate to the millisecond claims a precision it does not have).
qint64 roughDuration(qint64 ms)
{
    const qint64 unit = ms < 60'000 ? 1'000 : ms < 3'600'000 ? 10'000 : 60'000;
    return (ms + unit / 2) / unit * unit;
}

// "1", "10%" resolved against total (IntOrString.scaledValue, rounded up like upstream's
// maxSurge/maxUnavailable for DaemonSets). Unparseable values count as `fallback`.
int scaled(const QString &value, int total, int fallback)
{
    if (value.isEmpty())
        return fallback;
    auto r = api::intOrStringFromText(value.toStdString()).scaledValue(total, true);
    return r ? *r : fallback;
}

} // namespace

RolloutImpact::Budget RolloutImpact::budgetOf(const DaemonSetInfo &ds)
{
    Budget b;
    b.paused = ds.paused;
    b.rollingUpdate = ds.strategyType == QLatin1String("RollingUpdate");
    b.maxUnavailable = ds.maxUnavailable;
    b.maxSurge = ds.maxSurge;
    return b;
}

int RolloutImpact::parallelOf(const Budget &budget, int desired)
{
    const int surge = scaled(budget.maxSurge, desired, 0);
    const int unavailable = scaled(budget.maxUnavailable, desired, 1);
    return surge > 0 ? surge : std::max(1, unavailable);
}

void RolloutImpact::computeNodes(const ClusterSnapshot &snapshot, const DaemonSetInfo &ds,
                                 const QString &targetHash)
{
    // Pods down on NotReady nodes count against maxUnavailable (as the Progress tab says) and
    // are not replaced until their node returns.
    heldNodes.clear();
    for (const auto &pod : *ds.pods) {
        if (pod.ready || pod.deleting || pod.node.isEmpty())
            continue;
        if (const NodeInfo *n = snapshot.node(pod.node); n && !n->ready && !heldNodes.contains(pod.node))
            heldNodes << pod.node;
    }
    std::map<QString, bool> onTarget; // node -> has a non-terminating pod on the target hash
    for (const auto &pod : *ds.pods) {
        if (pod.node.isEmpty())
            continue;
        bool &on = onTarget[pod.node];
        if (!pod.deleting && !targetHash.isEmpty() && pod.hash == targetHash)
            on = true;
    }
    desired = ds.counts.desired;
    nodesToReplace = nodesOnTarget = 0;
    for (const auto &[node, on] : onTarget)
        (on ? nodesOnTarget : nodesToReplace) += 1;
    nodesWithoutPod = std::max(0, desired - static_cast<int>(onTarget.size()));
}

// The wording stays in the rollback preview's context, where it was translated first.
void RolloutImpact::computeEstimate(const DaemonSetInfo &ds, const Budget &budget)
{
    if (budget.paused || !budget.rollingUpdate) {
        manualOnly = true;
        estimateText = budget.paused
                           ? QCoreApplication::translate(
                                 "models::RollbackPreview",
                                 "paused (OnDelete): pods are replaced only when deleted; new nodes still "
                                 "get the target revision")
                           : QCoreApplication::translate("models::RollbackPreview",
                                                         "OnDelete: pods are replaced only when deleted");
        return;
    }
    manualOnly = false;
    blocked = false;
    const int surge = scaled(budget.maxSurge, desired, 0);
    const int unavailable = scaled(budget.maxUnavailable, desired, 1);
    const int held = int(heldNodes.size());
    const QString heldList = heldNodes.join(QStringLiteral(", "));
    // Without surge, the held pods use budget: what is left replaces nodes.
    parallel = surge > 0 ? parallelOf(budget, desired) : std::max(0, std::max(1, unavailable) - held);
    if (parallel == 0) {
        blocked = true;
        waves = 0;
        estimatedMs = 0;
        estimateText = QCoreApplication::translate(
                           "models::RollbackPreview",
                           "cannot finish while %n pod(s) down on NotReady nodes (%1) use the whole "
                           "maxUnavailable budget of %2",
                           nullptr, held)
                           .arg(heldList)
                           .arg(std::max(1, unavailable));
        return;
    }

    // Observed per-node time: the latest rollout with finished node replacements.
    perNodeObserved = false;
    if (ds.record) {
        for (auto it = ds.record->rollouts.rbegin(); it != ds.record->rollouts.rend(); ++it) {
            if (const qint64 mean = it->meanNodeMs(); mean > 0) {
                perNodeMs = mean;
                perNodeObserved = true;
                break;
            }
        }
    }
    if (!perNodeObserved) {
        perNodeMs = api::kAssumedPodStartMs + api::kAssumedPodReadyMs +
                    (surge > 0 ? 0 : api::kAssumedPodTerminationMs);
    }
    // Missing pods are created at once, outside the budget; NotReady nodes wait for their node.
    const int replace = std::max(0, nodesToReplace - held);
    waves = (replace + parallel - 1) / parallel;
    estimatedMs = roughDuration(static_cast<qint64>(waves) * (perNodeMs + qint64(ds.minReadySeconds) * 1000));
    const QString perNode =
        QString::fromStdString(kube::formatDuration(roughDuration(perNodeMs))) +
        (perNodeObserved ? QCoreApplication::translate("models::RollbackPreview", " observed")
                         : QCoreApplication::translate("models::RollbackPreview", " default"));
    const QString minReady = ds.minReadySeconds > 0 ? QCoreApplication::translate("models::RollbackPreview",
                                                                                  " + minReadySeconds %1s")
                                                          .arg(ds.minReadySeconds)
                                                    : QString();
    estimateText = QCoreApplication::translate("models::RollbackPreview",
                                               "%1 nodes, %2 at a time: %3 waves × (%4 per node%5) ≈ %6")
                       .arg(replace)
                       .arg(parallel)
                       .arg(waves)
                       .arg(perNode, minReady, QString::fromStdString(kube::formatDuration(estimatedMs)));
    if (held > 0 && surge == 0)
        estimateText += QCoreApplication::translate(
                            "models::RollbackPreview",
                            "; maxUnavailable %1 less %n pod(s) down on NotReady nodes (%2), which wait "
                            "for their nodes",
                            nullptr, held)
                            .arg(std::max(1, unavailable))
                            .arg(heldList);
    else if (held > 0)
        estimateText +=
            QCoreApplication::translate("models::RollbackPreview",
                                        "; %n node(s) NotReady (%1) wait for their nodes", nullptr, held)
                .arg(heldList);
}

RollbackPreview RollbackPreview::compute(const ClusterSnapshot &snapshot, const QString &dsKey,
                                         qint64 toRevision, bool ignoreServerNoise)
{
    RollbackPreview p;
    p.requestedRevision = toRevision;
    const DaemonSetInfo *ds = snapshot.daemonSet(dsKey);
    if (!ds) {
        p.message = tr("daemonset \"%1\" not found").arg(dsKey);
        return p;
    }
    p.currentRevision = ds->currentRevisionNumber;
    const auto &revs = *ds->revisions; // sorted by number
    const RevisionInfo *target = nullptr;
    if (toRevision < 0) {
        p.message = tr("unable to find specified revision %1 in history").arg(toRevision);
        return p;
    }
    if (toRevision == 0) {
        if (revs.size() < 2) {
            p.message = tr("no last revision to roll back to");
            return p;
        }
        target = &revs[revs.size() - 2];
    } else {
        target = ds->revision(toRevision);
        if (!target) {
            p.message = tr("unable to find specified revision %1 in history").arg(toRevision);
            return p;
        }
    }
    p.ok = true;
    p.targetRevision = target->number;
    p.targetName = target->name;
    p.targetHash = target->hash;

    diff::TemplateDiffInput in;
    in.oldName = (ds->name + QStringLiteral("@rev%1.yaml").arg(ds->currentRevisionNumber)).toStdString();
    in.newName = (ds->name + QStringLiteral("@rev%1.yaml").arg(target->number)).toStdString();
    in.oldTemplate = *ds->podTemplate;
    in.newTemplate = target->podTemplate ? *target->podTemplate : kube::Json();
    in.ignoreServerNoise = ignoreServerNoise;
    p.diff = diff::TemplateDiff::compute(in);

    p.skipped = target->podTemplate && *target->podTemplate == *ds->podTemplate;
    p.message = p.skipped
                    ? tr("skipped rollback (current template already matches revision %1)").arg(toRevision)
                    : tr("rolled back");

    p.managedWarnings = managedByWarnings(*ds, ManagedChange::Rollback);
    p.computeNodes(snapshot, *ds, target->hash);
    if (p.skipped) {
        p.estimateText = tr("nothing changes");
        return p;
    }
    p.computeEstimate(*ds, budgetOf(*ds));
    return p;
}

} // namespace models
