#include "models/backend/clusterbackend.h"

#include <QCoreApplication>

#include <pwd.h>
#include <unistd.h>

namespace models {

ClusterBackend::ClusterBackend(QObject *parent) : QObject(parent), m_latest(ClusterSnapshot::empty())
{
    // Queued connections across the worker thread need the argument types registered by name.
    qRegisterMetaType<std::shared_ptr<const models::ClusterSnapshot>>(
        "std::shared_ptr<const models::ClusterSnapshot>");
    qRegisterMetaType<models::ActionResult>("models::ActionResult");
    qRegisterMetaType<models::ObjectDetail>("models::ObjectDetail");
}

ClusterBackend::~ClusterBackend() = default;

QString operatingSystemUser()
{
    for (const char *var : {"USER", "USERNAME"})
        if (const QString v = qEnvironmentVariable(var); !v.isEmpty())
            return v;
    const uid_t uid = ::geteuid();
    passwd entry{};
    passwd *found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_name &&
        *found->pw_name)
        return QString::fromLocal8Bit(found->pw_name);
    return QStringLiteral("uid %1").arg(uid);
}

QString upgradeControlProblem(const QString &action, const QString &node)
{
    static const QStringList known = {
        QStringLiteral("pause"),       QStringLiteral("resume"), QStringLiteral("abort"),
        QStringLiteral("acknowledge"), QStringLiteral("hold"),   QStringLiteral("release"),
        QStringLiteral("skip"),        QStringLiteral("retry"),  QStringLiteral("force")};
    if (!known.contains(action))
        return QCoreApplication::translate("models::ClusterBackend", "unknown upgrade action \"%1\"")
            .arg(action);
    const bool perNode = action != QLatin1String("pause") && action != QLatin1String("resume") &&
                         action != QLatin1String("acknowledge") && action != QLatin1String("abort");
    if (perNode && node.isEmpty())
        return QCoreApplication::translate("models::ClusterBackend", "%1 needs a node").arg(action);
    return {};
}

QString upgradeControlDone(const QString &action, const QString &node)
{
    return node.isEmpty()
               ? QCoreApplication::translate("models::ClusterBackend", "%1 done").arg(action)
               : QCoreApplication::translate("models::ClusterBackend", "%1 %2 done").arg(action, node);
}

QString upgradeControlParameters(const QString &action, const QString &node)
{
    return node.isEmpty() ? QStringLiteral("action=%1").arg(action)
                          : QStringLiteral("action=%1 node=%2").arg(action, node);
}

QString upgradeStartedMessage(bool created)
{
    return created ? QCoreApplication::translate("models::ClusterBackend", "started")
                   : QCoreApplication::translate("models::ClusterBackend", "spec updated");
}

QString rollbackParameters(qint64 requested, qint64 resolved)
{
    if (resolved <= 0 || resolved == requested)
        return QStringLiteral("toRevision=%1").arg(requested);
    if (requested == 0)
        return QStringLiteral("toRevision=%1, requested=0").arg(resolved);
    return QStringLiteral("toRevision=%1").arg(resolved);
}

std::shared_ptr<const ClusterSnapshot> ClusterBackend::latest() const
{
    return m_latest;
}

void ClusterBackend::setSuspended(bool suspended)
{
    Q_UNUSED(suspended);
}

void ClusterBackend::requestUpgradeInventory() {}

void ClusterBackend::startUpgrade(const QString &rolloutJson)
{
    Q_UNUSED(rolloutJson);
    finishUnsupported(ActionKind::StartUpgrade, QString());
}

void ClusterBackend::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                    const QString &note)
{
    Q_UNUSED(action);
    Q_UNUSED(node);
    Q_UNUSED(note);
    finishUnsupported(ActionKind::UpgradeControl, rollout);
}

void ClusterBackend::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    Q_UNUSED(images);
    finishUnsupported(ActionKind::SetImage, dsKey);
}

void ClusterBackend::restartRollout(const QString &dsKey)
{
    finishUnsupported(ActionKind::RestartRollout, dsKey);
}

void ClusterBackend::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                       const QString &maxSurge)
{
    Q_UNUSED(maxUnavailable);
    Q_UNUSED(maxSurge);
    finishUnsupported(ActionKind::SetStrategy, dsKey);
}

void ClusterBackend::cordon(const QString &node, bool unschedulable)
{
    finishUnsupported(unschedulable ? ActionKind::Cordon : ActionKind::Uncordon, node);
}

void ClusterBackend::drain(const QString &node, bool deleteEmptyDirData)
{
    Q_UNUSED(deleteEmptyDirData);
    finishUnsupported(ActionKind::Drain, node);
}

quint64 ClusterBackend::requestDetail(const QString &kind, const QString &ns, const QString &name)
{
    ObjectDetail detail;
    detail.requestId = nextRequestId();
    detail.kind = kind;
    detail.namespace_ = ns;
    detail.name = name;
    detail.error = tr("not supported by this backend");
    QMetaObject::invokeMethod(
        this, [this, detail] { Q_EMIT detailReady(detail); }, Qt::QueuedConnection);
    return detail.requestId;
}

quint64 ClusterBackend::startLogs(const LogRequest &request)
{
    Q_UNUSED(request);
    const quint64 id = nextRequestId();
    QMetaObject::invokeMethod(
        this, [this, id] { Q_EMIT logFinished(id, false, tr("not supported by this backend")); },
        Qt::QueuedConnection);
    return id;
}

void ClusterBackend::stopLogs(quint64 id)
{
    Q_UNUSED(id);
}

void ClusterBackend::finishUnsupported(ActionKind kind, const QString &target)
{
    ActionResult result;
    result.kind = kind;
    result.target = target;
    result.ok = false;
    result.message = tr("not supported by this backend");
    // Commands complete asynchronously on every backend, so callers can connect after calling.
    QMetaObject::invokeMethod(
        this, [this, result] { Q_EMIT actionFinished(result); }, Qt::QueuedConnection);
}

void ClusterBackend::publish(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_latest = snapshot;
    Q_EMIT snapshotReady(std::move(snapshot));
}

} // namespace models
