#include "models/itemmodels/upgraderolloutlistmodel.h"

namespace models {

UpgradeRolloutListModel::UpgradeRolloutListModel(QObject *parent) : KeyedTableModel(parent) {}

int UpgradeRolloutListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

UpgradeRolloutListModel::Badge UpgradeRolloutListModel::badgeOf(UpgradeRolloutPhase phase)
{
    switch (phase) {
    case UpgradeRolloutPhase::Paused:
        return Paused;
    case UpgradeRolloutPhase::Halted:
        return Halted;
    case UpgradeRolloutPhase::Completed:
    case UpgradeRolloutPhase::CompletedWithExceptions:
        return Done;
    case UpgradeRolloutPhase::Aborted:
    case UpgradeRolloutPhase::Aborting:
        return Aborted;
    case UpgradeRolloutPhase::Pending:
    case UpgradeRolloutPhase::Progressing:
        break;
    }
    return Running;
}

QString UpgradeRolloutListModel::phaseTitle(UpgradeRolloutPhase phase)
{
    switch (phase) {
    case UpgradeRolloutPhase::Pending:
        return tr("Pending");
    case UpgradeRolloutPhase::Progressing:
        return tr("Progressing");
    case UpgradeRolloutPhase::Paused:
        return tr("Paused");
    case UpgradeRolloutPhase::Halted:
        return tr("Halted");
    case UpgradeRolloutPhase::Aborting:
        return tr("Aborting");
    case UpgradeRolloutPhase::Aborted:
        return tr("Aborted");
    case UpgradeRolloutPhase::Completed:
        return tr("Completed");
    case UpgradeRolloutPhase::CompletedWithExceptions:
        return tr("Completed with exceptions");
    }
    return {};
}

QVariant UpgradeRolloutListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const UpgradeRolloutRow &r = m_rows[std::size_t(index.row())];
    switch (role) {
    case NameRole:
        return r.name;
    case PhaseRole:
        return upgradeRolloutPhaseName(r.phase);
    case BadgeRole:
        return index.column() == PhaseColumn ? QVariant(int(badgeOf(r.phase))) : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return r.observed ? tr("Observed upgrade") : r.name;
        case PhaseColumn:
            return phaseTitle(r.phase);
        case ProgressColumn:
            return QStringLiteral("%1/%2").arg(r.done).arg(r.nodes);
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1 → %2\n%3")
            .arg(r.observed ? tr("Observed upgrade") : r.name, r.targetVersion, r.headline);
    case Qt::TextAlignmentRole:
        if (index.column() == ProgressColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant UpgradeRolloutListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Node upgrade");
    case PhaseColumn:
        return tr("Phase");
    case ProgressColumn:
        return tr("Done");
    }
    return {};
}

QModelIndex UpgradeRolloutListModel::indexOf(const QString &name) const
{
    const int row = rowOf(name);
    return row < 0 ? QModelIndex() : index(row, 0);
}

void UpgradeRolloutListModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot || snapshot->upgrades.get() == m_shown)
        return;
    m_shown = snapshot->upgrades.get();
    std::vector<UpgradeRolloutRow> rows;
    for (const UpgradeRolloutInfo &u : *snapshot->upgrades) {
        UpgradeRolloutRow r;
        r.name = u.name;
        r.observed = u.observed;
        r.phase = u.phase;
        r.done = u.counts.upToDate;
        r.nodes = u.counts.nodes;
        r.inFlight = u.counts.inFlight;
        r.headline = u.headline;
        r.targetVersion = u.targetVersion;
        rows.push_back(std::move(r));
    }
    applyRows(std::move(rows));
}

} // namespace models
