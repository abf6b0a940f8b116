#include "models/rollbackpreview.h"

#include "models/managedby.h"

#include "models/engine/cluster.h"
#include "models/engine/startrollout.h"
#include "models/kube/intorstring.h"
#include "models/kube/timeutil.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>

namespace models {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("models::RollbackPreview", text);
}

// "1", "10%" resolved against total (IntOrString.scaledValue, rounded up like upstream's
// maxSurge/maxUnavailable for DaemonSets). Unparseable values count as `fallback`.
int scaled(const QString &value, int total, int fallback)
{
    if (value.isEmpty())
        return fallback;
    auto r = engine::intOrStringFromText(value.toStdString()).scaledValue(total, true);
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

void RolloutImpact::computeNodes(const DaemonSetInfo &ds, const QString &targetHash)
{
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
    const int surge = scaled(budget.maxSurge, desired, 0);
    parallel = parallelOf(budget, desired);

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
        const engine::KubeletTimings k;
        perNodeMs = k.startDelay + k.readyDelay + (surge > 0 ? 0 : k.terminationGrace);
    }
    const int replace = nodesToReplace; // missing pods are created at once, outside the budget
    waves = (replace + parallel - 1) / parallel;
    estimatedMs = static_cast<qint64>(waves) * (perNodeMs + qint64(ds.minReadySeconds) * 1000);
    estimateText =
        QCoreApplication::translate("models::RollbackPreview",
                                    "%1 nodes, %2 at a time: %3 waves × (%4 per node%5) ≈ %6")
            .arg(replace)
            .arg(parallel)
            .arg(waves)
            .arg(QString::fromStdString(kube::formatDuration(perNodeMs)) +
                 (perNodeObserved ? QCoreApplication::translate("models::RollbackPreview", " observed")
                                  : QCoreApplication::translate("models::RollbackPreview", " default")))
            .arg(ds.minReadySeconds > 0
                     ? QCoreApplication::translate("models::RollbackPreview", " + minReadySeconds %1s")
                           .arg(ds.minReadySeconds)
                     : QString())
            .arg(QString::fromStdString(kube::formatDuration(estimatedMs)));
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
    p.computeNodes(*ds, target->hash);
    if (p.skipped) {
        p.estimateText = tr("nothing changes");
        return p;
    }
    p.computeEstimate(*ds, budgetOf(*ds));
    return p;
}

} // namespace models
