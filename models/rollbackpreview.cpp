#include "models/rollbackpreview.h"

#include "models/engine/cluster.h"
#include "models/kube/timeutil.h"
#include "models/rolloutheadline.h"

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

} // namespace

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

    // Which nodes get a new pod.
    std::map<QString, bool> onTarget; // node -> has a non-terminating pod on the target hash
    for (const auto &pod : *ds->pods) {
        if (pod.node.isEmpty())
            continue;
        bool &on = onTarget[pod.node];
        if (!pod.deleting && pod.hash == target->hash)
            on = true;
    }
    p.desired = ds->counts.desired;
    for (const auto &[node, on] : onTarget)
        (on ? p.nodesOnTarget : p.nodesToReplace) += 1;
    p.nodesWithoutPod = std::max(0, p.desired - static_cast<int>(onTarget.size()));
    if (p.skipped) {
        p.estimateText = tr("nothing changes");
        return p;
    }

    if (ds->paused || ds->strategyType != QLatin1String("RollingUpdate")) {
        p.manualOnly = true;
        p.estimateText = ds->paused
                             ? tr("paused (OnDelete): pods are replaced only when deleted; new nodes still "
                                  "get the target revision")
                             : tr("OnDelete: pods are replaced only when deleted");
        return p;
    }

    // The budget as the Progress tab resolves it (percentages rounded up, both zero means one).
    const int surge = RolloutHeadline::resolvedMaxSurge(*ds);
    const int unavailable = RolloutHeadline::resolvedMaxUnavailable(*ds);
    // Pods down on NotReady nodes count against maxUnavailable (as the Progress tab says) and
    // are not replaced until their node returns: they shrink the budget and leave the estimate.
    QStringList held;
    for (const auto &pod : *ds->pods) {
        if (pod.ready || pod.deleting || pod.node.isEmpty())
            continue;
        if (const NodeInfo *n = snapshot.node(pod.node); n && !n->ready && !held.contains(pod.node))
            held << pod.node;
    }
    p.heldNodes = held;
    p.parallel = surge > 0 ? surge : std::max(0, unavailable - int(held.size()));
    if (p.parallel == 0) {
        p.blocked = true;
        p.estimateText = tr("cannot finish while %n pod(s) down on NotReady nodes (%1) use the whole "
                            "maxUnavailable budget of %2",
                            nullptr, int(held.size()))
                             .arg(held.join(QStringLiteral(", ")))
                             .arg(unavailable);
        return p;
    }

    // Observed per-node time: the latest rollout with finished node replacements.
    if (ds->record) {
        for (auto it = ds->record->rollouts.rbegin(); it != ds->record->rollouts.rend(); ++it) {
            if (const qint64 mean = it->meanNodeMs(); mean > 0) {
                p.perNodeMs = mean;
                p.perNodeObserved = true;
                break;
            }
        }
    }
    if (!p.perNodeObserved) {
        const engine::KubeletTimings k;
        p.perNodeMs = k.startDelay + k.readyDelay + (surge > 0 ? 0 : k.terminationGrace);
    }
    // Missing pods are created at once, outside the budget; nodes that are NotReady wait.
    const int replace = std::max(0, p.nodesToReplace - int(held.size()));
    p.waves = (replace + p.parallel - 1) / p.parallel;
    p.estimatedMs =
        roughDuration(static_cast<qint64>(p.waves) * (p.perNodeMs + qint64(ds->minReadySeconds) * 1000));
    const QString perNode = QString::fromStdString(kube::formatDuration(roughDuration(p.perNodeMs))) +
                            (p.perNodeObserved ? tr(" observed") : tr(" default"));
    const QString minReady =
        ds->minReadySeconds > 0 ? tr(" + minReadySeconds %1s").arg(ds->minReadySeconds) : QString();
    const QString total = QString::fromStdString(kube::formatDuration(p.estimatedMs));
    p.estimateText = tr("%1 nodes, %2 at a time: %3 waves × (%4 per node%5) ≈ %6")
                         .arg(replace)
                         .arg(p.parallel)
                         .arg(p.waves)
                         .arg(perNode, minReady, total);
    if (!held.isEmpty() && surge == 0)
        p.estimateText += tr("; maxUnavailable %1 less %n pod(s) down on NotReady nodes (%2), which wait "
                             "for their nodes",
                             nullptr, int(held.size()))
                              .arg(unavailable)
                              .arg(held.join(QStringLiteral(", ")));
    else if (!held.isEmpty())
        p.estimateText += tr("; %n node(s) NotReady (%1) wait for their nodes", nullptr, int(held.size()))
                              .arg(held.join(QStringLiteral(", ")));
    return p;
}

} // namespace models
