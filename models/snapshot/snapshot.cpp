#include "models/snapshot/snapshot.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace models {

const RevisionInfo *DaemonSetInfo::revision(qint64 number) const
{
    if (!revisions)
        return nullptr;
    auto it = std::lower_bound(revisions->begin(), revisions->end(), number,
                               [](const RevisionInfo &r, qint64 n) { return r.number < n; });
    return it != revisions->end() && it->number == number ? &*it : nullptr;
}

const RevisionInfo *DaemonSetInfo::currentRevision() const
{
    if (!revisions)
        return nullptr;
    for (const auto &r : *revisions) {
        if (r.current)
            return &r;
    }
    return nullptr;
}

const DaemonSetInfo *ClusterSnapshot::daemonSet(const QString &key) const
{
    auto it = std::lower_bound(daemonSets.begin(), daemonSets.end(), key,
                               [](const DaemonSetInfo &d, const QString &k) { return d.key < k; });
    return it != daemonSets.end() && it->key == key ? &*it : nullptr;
}

std::vector<const PodInfo *> podsInNodeOrder(const std::vector<PodInfo> &pods)
{
    std::vector<const PodInfo *> out;
    out.reserve(pods.size());
    for (const PodInfo &p : pods)
        if (!p.node.isEmpty())
            out.push_back(&p);
    std::stable_sort(out.begin(), out.end(),
                     [](const PodInfo *a, const PodInfo *b) { return a->node < b->node; });
    return out;
}

const NodeInfo *ClusterSnapshot::node(const QString &name) const
{
    if (!nodes)
        return nullptr;
    auto it = std::lower_bound(nodes->begin(), nodes->end(), name,
                               [](const NodeInfo &n, const QString &k) { return n.name < k; });
    return it != nodes->end() && it->name == name ? &*it : nullptr;
}

std::shared_ptr<ClusterSnapshot> ClusterSnapshot::create()
{
    return std::shared_ptr<ClusterSnapshot>(new ClusterSnapshot, [](ClusterSnapshot *s) {
        const QCoreApplication *app = QCoreApplication::instance();
        if (app && QThread::currentThread() == app->thread())
            QThreadPool::globalInstance()->start([s] { delete s; });
        else
            delete s;
    });
}

std::shared_ptr<const ClusterSnapshot> ClusterSnapshot::empty(BackendKind kind)
{
    auto s = std::make_shared<ClusterSnapshot>();
    s->backend.kind = kind;
    s->clock.running = false;
    s->nodes = std::make_shared<const std::vector<NodeInfo>>();
    s->events = std::make_shared<const std::vector<EventInfo>>();
    return s;
}

QString badgeName(RolloutBadge badge)
{
    switch (badge) {
    case RolloutBadge::Progressing:
        return QCoreApplication::translate("models::RolloutBadge", "Progressing");
    case RolloutBadge::Paused:
        return QCoreApplication::translate("models::RolloutBadge", "Paused");
    case RolloutBadge::Complete:
        return QCoreApplication::translate("models::RolloutBadge", "Complete");
    case RolloutBadge::Stuck:
        return QCoreApplication::translate("models::RolloutBadge", "Stuck");
    case RolloutBadge::Settled:
        return QCoreApplication::translate("models::RolloutBadge", "Settled");
    }
    return {};
}

QString actionKindName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Rollback:
        return QStringLiteral("rollback");
    case ActionKind::Pause:
        return QStringLiteral("pause");
    case ActionKind::Resume:
        return QStringLiteral("resume");
    case ActionKind::LoadScenario:
        return QStringLiteral("loadScenario");
    case ActionKind::SetSpeed:
        return QStringLiteral("setSpeed");
    case ActionKind::Step:
        return QStringLiteral("step");
    case ActionKind::SetSeed:
        return QStringLiteral("setSeed");
    case ActionKind::InjectFault:
        return QStringLiteral("injectFault");
    case ActionKind::StartUpgrade:
        return QStringLiteral("startUpgrade");
    case ActionKind::UpgradeControl:
        return QStringLiteral("upgradeControl");
    case ActionKind::Connect:
        return QStringLiteral("connect");
    case ActionKind::SetImage:
        return QStringLiteral("setImage");
    case ActionKind::RestartRollout:
        return QStringLiteral("restart");
    case ActionKind::SetStrategy:
        return QStringLiteral("setStrategy");
    case ActionKind::Cordon:
        return QStringLiteral("cordon");
    case ActionKind::Uncordon:
        return QStringLiteral("uncordon");
    case ActionKind::Drain:
        return QStringLiteral("drain");
    }
    return {};
}

QString BackendPermissions::question(const QString &verb, const QString &resource, const QString &ns)
{
    QString q = verb + QLatin1Char(' ') + resource;
    if (!ns.isEmpty())
        q += QLatin1Char(' ') + ns;
    return q;
}

bool BackendPermissions::allows(const QString &verb, const QString &resource, const QString &ns) const
{
    const auto it = answers.find(question(verb, resource, ns));
    return it == answers.end() || it->second;
}

QString BackendPermissions::denial(const QString &verb, const QString &resource, const QString &ns) const
{
    if (allows(verb, resource, ns))
        return {};
    return ns.isEmpty() ? QCoreApplication::translate("models::BackendPermissions", "you may not %1 %2")
                              .arg(verb, resource)
                        : QCoreApplication::translate("models::BackendPermissions", "you may not %1 %2 in %3")
                              .arg(verb, resource, ns);
}

std::shared_ptr<const std::vector<ManagedBy>> noManagers()
{
    static const auto none = std::make_shared<const std::vector<ManagedBy>>();
    return none;
}

} // namespace models
