#include "models/snapshot/upgraderolloutinfo.h"

#include "models/snapshot/snapshot.h"

#include <QCoreApplication>

#include <algorithm>

namespace models {

namespace {

const char *const kPhaseNames[kUpgradeNodePhaseCount] = {
    "UpToDate", "Pending", "Cordoned", "DrainingManaged", "DrainingUnmanaged", "Restarting", "Soaking",
    "Upgraded", "Failed",  "Skipped",  "Removed"};

const char *const kPhaseTitles[kUpgradeNodePhaseCount] = {
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Up to date"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Pending"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Cordoned"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Draining managed pods"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Draining unmanaged pods"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Restarting"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Soaking"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Upgraded"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Failed"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Skipped"),
    QT_TRANSLATE_NOOP("models::UpgradeRolloutInfo", "Removed"),
};

} // namespace

QString upgradeNodePhaseName(UpgradeNodePhase phase)
{
    return QLatin1String(kPhaseNames[static_cast<int>(phase)]);
}

QString upgradeNodePhaseTitle(UpgradeNodePhase phase)
{
    return QCoreApplication::translate("models::UpgradeRolloutInfo", kPhaseTitles[static_cast<int>(phase)]);
}

bool upgradeNodeInFlight(UpgradeNodePhase p)
{
    return p == UpgradeNodePhase::Cordoned || p == UpgradeNodePhase::DrainingManaged ||
           p == UpgradeNodePhase::DrainingUnmanaged || p == UpgradeNodePhase::Restarting ||
           p == UpgradeNodePhase::Soaking;
}

bool upgradeNodePreRestart(UpgradeNodePhase p)
{
    return p == UpgradeNodePhase::Cordoned || p == UpgradeNodePhase::DrainingManaged ||
           p == UpgradeNodePhase::DrainingUnmanaged;
}

QString upgradeRolloutPhaseName(UpgradeRolloutPhase phase)
{
    switch (phase) {
    case UpgradeRolloutPhase::Pending:
        return QStringLiteral("Pending");
    case UpgradeRolloutPhase::Progressing:
        return QStringLiteral("Progressing");
    case UpgradeRolloutPhase::Paused:
        return QStringLiteral("Paused");
    case UpgradeRolloutPhase::Halted:
        return QStringLiteral("Halted");
    case UpgradeRolloutPhase::Aborting:
        return QStringLiteral("Aborting");
    case UpgradeRolloutPhase::Aborted:
        return QStringLiteral("Aborted");
    case UpgradeRolloutPhase::Completed:
        return QStringLiteral("Completed");
    case UpgradeRolloutPhase::CompletedWithExceptions:
        return QStringLiteral("CompletedWithExceptions");
    }
    return {};
}

bool UpgradeRolloutInfo::running() const
{
    return phase != UpgradeRolloutPhase::Completed && phase != UpgradeRolloutPhase::CompletedWithExceptions &&
           phase != UpgradeRolloutPhase::Aborted;
}

QStringList UpgradeRolloutInfo::inFlightNodes() const
{
    QStringList out;
    if (!nodes)
        return out;
    for (const auto &n : *nodes) {
        if (upgradeNodeInFlight(n.phase))
            out << QStringLiteral("%1 (%2)").arg(n.name, upgradeNodePhaseTitle(n.phase));
    }
    return out;
}

const UpgradeNodeRow *UpgradeRolloutInfo::node(const QString &name) const
{
    if (!nodes)
        return nullptr;
    auto it = std::lower_bound(nodes->begin(), nodes->end(), name,
                               [](const UpgradeNodeRow &r, const QString &n) { return r.name < n; });
    return it != nodes->end() && it->name == name ? &*it : nullptr;
}

const UpgradeRolloutInfo *findUpgradeRollout(const UpgradeRolloutList &list, const QString &name)
{
    for (const auto &u : list) {
        if (u.name == name)
            return &u;
    }
    return nullptr;
}

const UpgradeRolloutInfo *ClusterSnapshot::upgrade(const QString &name) const
{
    return upgrades ? findUpgradeRollout(*upgrades, name) : nullptr;
}

std::shared_ptr<const UpgradeRolloutList> emptyUpgradeRollouts()
{
    static const auto empty = std::make_shared<const UpgradeRolloutList>();
    return empty;
}

std::shared_ptr<const UpgradeInventory> emptyUpgradeInventory()
{
    static const auto empty = std::make_shared<const UpgradeInventory>();
    return empty;
}

} // namespace models
