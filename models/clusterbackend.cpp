#include "models/clusterbackend.h"

#include <pwd.h>
#include <unistd.h>

namespace models {

ClusterBackend::ClusterBackend(QObject *parent) : QObject(parent), m_latest(ClusterSnapshot::empty())
{
    // Queued connections across the worker thread need the argument types registered by name.
    qRegisterMetaType<std::shared_ptr<const models::ClusterSnapshot>>(
        "std::shared_ptr<const models::ClusterSnapshot>");
    qRegisterMetaType<models::ActionResult>("models::ActionResult");
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
