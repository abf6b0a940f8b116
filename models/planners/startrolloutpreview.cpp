#include "models/planners/startrolloutpreview.h"

#include "models/planners/managedby.h"

#include "models/api/kubectlrollout.h"
#include "models/api/startrollout.h"
#include "models/api/strategicmerge.h"
#include "models/kube/timeutil.h"

#include <QCoreApplication>

namespace models {

namespace {

using Budget = RolloutImpact::Budget;

QString tr(const char *text)
{
    return QCoreApplication::translate("models::StartRolloutPreview", text);
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

QString normalized(const QString &value)
{
    return q(api::intOrStringFromText(value.trimmed().toStdString()).toString());
}

ManagedChange changeOf(StartRolloutMode mode)
{
    switch (mode) {
    case StartRolloutMode::SetImage:
        return ManagedChange::SetImage;
    case StartRolloutMode::Restart:
        return ManagedChange::Restart;
    case StartRolloutMode::Strategy:
        break;
    }
    return ManagedChange::Strategy;
}

// The template the PATCH leaves: the current one with the patch's spec.template applied.
kube::Result<kube::Json> patchedTemplate(const DaemonSetInfo &ds, const kube::Json &patch)
{
    auto applied = api::strategicMergePatch(kube::Json{{"spec", {{"template", *ds.podTemplate}}}}, patch);
    if (!applied)
        return applied.error();
    return (*applied)["spec"]["template"];
}

void previewTemplateChange(StartRolloutPreview &p, const ClusterSnapshot &snapshot, const DaemonSetInfo &ds,
                           const kube::Json &patch)
{
    auto next = patchedTemplate(ds, patch);
    if (!next) {
        p.ok = false;
        p.message = q(next.error().message);
        return;
    }
    diff::TemplateDiffInput in;
    in.oldName = (ds.name + QStringLiteral("@rev%1.yaml").arg(ds.currentRevisionNumber)).toStdString();
    in.newName = (ds.name + QStringLiteral("@new.yaml")).toStdString();
    in.oldTemplate = *ds.podTemplate;
    in.newTemplate = *next;
    p.diff = diff::TemplateDiff::compute(in);
    p.changed = *next != *ds.podTemplate;

    // Back to an earlier template: the controller reuses that revision (and renumbers it), and
    // nodes still running it keep their pods.
    QString targetHash;
    for (const RevisionInfo &r : *ds.revisions)
        if (r.podTemplate && *r.podTemplate == *next) {
            p.reusedRevision = r.number;
            targetHash = r.hash;
        }
    p.computeNodes(snapshot, ds, targetHash);
    p.computeEstimate(ds, RolloutImpact::budgetOf(ds));
}

void previewStrategy(StartRolloutPreview &p, const ClusterSnapshot &snapshot, const DaemonSetInfo &ds,
                     const StartRolloutRequest &request, const api::StrategyPatch &decided)
{
    p.editsSavedStrategy = decided.editsSavedStrategy;
    Budget next;
    next.rollingUpdate = true;
    next.paused = ds.paused;
    next.maxUnavailable = normalized(request.maxUnavailable);
    next.maxSurge = normalized(request.maxSurge);
    const Budget current = RolloutImpact::budgetOf(ds);
    if (ds.paused) {
        const auto saved = kube::Json::parse(ds.savedStrategy.toStdString(), nullptr, false);
        p.changed = saved != decided.strategy;
    } else {
        p.changed = !current.rollingUpdate || normalized(current.maxUnavailable) != next.maxUnavailable ||
                    normalized(current.maxSurge) != next.maxSurge;
    }
    p.desired = ds.counts.desired;
    p.budgetNodes = RolloutImpact::parallelOf(next, p.desired);
    p.oldBudgetNodes =
        current.rollingUpdate && !current.paused ? RolloutImpact::parallelOf(current, p.desired) : 0;
    p.budgetText = tr("up to %1 nodes at a time of %2").arg(p.budgetNodes).arg(p.desired);
    // The nodes the running rollout has left, under the new budget.
    p.computeNodes(snapshot, ds, ds.currentRevisionHash);
    p.computeEstimate(ds, next);
}

} // namespace

QString setImageParameters(const QMap<QString, QString> &images)
{
    QStringList parts;
    for (auto it = images.begin(); it != images.end(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value().trimmed();
    return parts.join(QStringLiteral(", "));
}

QString strategyParameters(const QString &maxUnavailable, const QString &maxSurge)
{
    return QStringLiteral("maxUnavailable=%1, maxSurge=%2")
        .arg(normalized(maxUnavailable), normalized(maxSurge));
}

QString restartParameters(const QString &restartedAt)
{
    return QStringLiteral("restartedAt=%1").arg(restartedAt);
}

kube::DaemonSet daemonSetOf(const DaemonSetInfo &info)
{
    kube::DaemonSet ds;
    ds.metadata.name = info.name.toStdString();
    ds.metadata.namespace_ = info.namespace_.toStdString();
    if (info.paused)
        ds.metadata.annotations[api::kPausedStrategyAnnotation] = info.savedStrategy.toStdString();
    ds.spec["template"] = info.podTemplate ? *info.podTemplate : kube::Json::object();
    kube::Json strategy = {{"type", info.strategyType.toStdString()}};
    if (info.strategyType == QLatin1String("RollingUpdate"))
        strategy["rollingUpdate"] = {
            {"maxSurge", api::intOrStringFromText(info.maxSurge.toStdString()).toJson()},
            {"maxUnavailable", api::intOrStringFromText(info.maxUnavailable.toStdString()).toJson()}};
    ds.spec["updateStrategy"] = strategy;
    return ds;
}

StartRolloutPreview StartRolloutPreview::compute(const ClusterSnapshot &snapshot, const QString &dsKey,
                                                 const StartRolloutRequest &request,
                                                 const QString &restartedAt)
{
    StartRolloutPreview p;
    p.mode = request.mode;
    const DaemonSetInfo *ds = snapshot.daemonSet(dsKey);
    if (!ds) {
        p.message = tr("daemonset \"%1\" not found").arg(dsKey);
        return p;
    }
    p.currentRevision = ds->currentRevisionNumber;
    p.managedWarnings = managedByWarnings(*ds, changeOf(request.mode));
    const kube::DaemonSet object = daemonSetOf(*ds);
    const std::string name = ds->name.toStdString();

    switch (request.mode) {
    case StartRolloutMode::SetImage: {
        std::map<std::string, std::string> images;
        for (auto it = request.images.begin(); it != request.images.end(); ++it)
            images[it.key().toStdString()] = it.value().trimmed().toStdString();
        auto patch = api::setImagePatch(object, images);
        if (!patch) {
            p.message = q(patch.error().message);
            return p;
        }
        p.ok = true;
        p.message = q(api::kubectlResourceLine(name, "image updated"));
        // Nothing to change (the images are those of the template): the diff still shows the
        // template, identical on both sides, rather than two empty panes.
        previewTemplateChange(p, snapshot, *ds, *patch ? **patch : kube::Json::object());
        return p;
    }
    case StartRolloutMode::Restart: {
        const std::string at =
            restartedAt.isEmpty() ? kube::formatRfc3339(snapshot.clock.now) : restartedAt.toStdString();
        auto patch = api::restartPatch(object, at);
        if (!patch) {
            p.message = q(patch.error().message);
            return p;
        }
        p.ok = true;
        p.message = q(api::kubectlResourceLine(name, "restarted"));
        previewTemplateChange(p, snapshot, *ds, *patch);
        return p;
    }
    case StartRolloutMode::Strategy: {
        auto decided = api::strategyPatch(
            object, api::intOrStringFromText(request.maxUnavailable.trimmed().toStdString()),
            api::intOrStringFromText(request.maxSurge.trimmed().toStdString()));
        if (!decided) {
            p.message = q(decided.error().message);
            return p;
        }
        p.ok = true;
        previewStrategy(p, snapshot, *ds, request, *decided);
        p.message = q(api::kubectlResourceLine(name, p.changed ? "patched" : "patched (no change)"));
        return p;
    }
    }
    return p;
}

} // namespace models
