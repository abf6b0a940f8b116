#include "models/itemmodels/upgradenodetablemodel.h"

#include "models/kube/timeutil.h"

#include <algorithm>

namespace models {

UpgradeNodeTableModel::UpgradeNodeTableModel(QObject *parent) : KeyedTableModel(parent) {}

int UpgradeNodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QStringList UpgradeNodeTableModel::availableActions(const UpgradeNodeRow &row)
{
    QStringList out;
    const bool preRestart = upgradeNodePreRestart(row.phase);
    if (row.phase == UpgradeNodePhase::Pending || preRestart)
        out << (row.held ? QStringLiteral("release") : QStringLiteral("hold"));
    if (row.phase == UpgradeNodePhase::Pending || row.phase == UpgradeNodePhase::Failed || preRestart)
        out << QStringLiteral("skip");
    if (row.phase == UpgradeNodePhase::Failed)
        out << QStringLiteral("retry");
    if (preRestart)
        out << QStringLiteral("force");
    return out;
}

QVariant UpgradeNodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const UpgradeNodeRow &r = m_rows[std::size_t(index.row())];
    const qint64 inPhase = r.phaseSince > 0 ? std::max<qint64>(0, m_now - r.phaseSince) : -1;
    switch (role) {
    case NameRole:
        return r.name;
    case PhaseRole:
        return int(r.phase);
    case HeldRole:
        return r.held;
    case BlockedRole:
        return r.blocked;
    case ActionsRole:
        return availableActions(r);
    case SortRole:
        switch (index.column()) {
        case QueueColumn:
            return r.queuePosition > 0 ? r.queuePosition : 1 << 30;
        case PhaseColumn:
            return int(r.phase);
        case TimeInPhaseColumn:
            return inPhase;
        case AttemptColumn:
            return r.attempt;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return r.name;
        case ZoneColumn:
            return r.zone;
        case QueueColumn:
            return r.queuePosition > 0 ? QVariant(r.queuePosition) : QVariant(QString());
        case PhaseColumn: {
            QString text = upgradeNodePhaseTitle(r.phase);
            if (r.held)
                text += tr(" · held");
            if (r.blocked)
                text += tr(" · blocked");
            return text;
        }
        case TimeInPhaseColumn:
            return inPhase >= 0 ? QString::fromStdString(kube::humanAge(inPhase)) : QString();
        case DeadlineColumn:
            return r.nextDeadline;
        case ReasonColumn: {
            QStringList parts;
            if (!r.reason.isEmpty())
                parts << r.reason;
            parts << r.blockers;
            return parts.join(QStringLiteral("; "));
        }
        case AttemptColumn:
            return r.attempt > 0 ? QVariant(r.attempt) : QVariant(QString());
        case CordonColumn:
            switch (r.cordonOwner) {
            case UpgradeCordonOwner::Controller:
                return tr("this rollout");
            case UpgradeCordonOwner::SomeoneElse:
                return tr("someone else");
            case UpgradeCordonOwner::None:
                break;
            }
            return QString();
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ReasonColumn && !r.blockers.isEmpty())
            return r.blockers.join(QLatin1Char('\n'));
        if (index.column() == PhaseColumn)
            return upgradeNodePhaseName(r.phase);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == QueueColumn || index.column() == AttemptColumn ||
            index.column() == TimeInPhaseColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant UpgradeNodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Node");
    case ZoneColumn:
        return tr("Zone");
    case QueueColumn:
        return tr("Queue");
    case PhaseColumn:
        return tr("Phase");
    case TimeInPhaseColumn:
        return tr("In phase");
    case DeadlineColumn:
        return tr("Next deadline");
    case ReasonColumn:
        return tr("Reason / blockers");
    case AttemptColumn:
        return tr("Attempt");
    case CordonColumn:
        return tr("Cordoned by");
    }
    return {};
}

void UpgradeNodeTableModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_upgrades = snapshot->upgrades;
    m_latestNow = snapshot->clock.now;
    refresh(false);
}

void UpgradeNodeTableModel::setRollout(const QString &name)
{
    if (name == m_rollout)
        return;
    m_rollout = name;
    refresh(true);
    Q_EMIT rolloutChanged(name);
}

void UpgradeNodeTableModel::refresh(bool reset)
{
    const UpgradeRolloutInfo *info = m_upgrades ? findUpgradeRollout(*m_upgrades, m_rollout) : nullptr;
    const qint64 now = m_latestNow;
    if (reset) {
        beginResetModel();
        m_rows.clear();
        if (info && info->nodes)
            m_rows = *info->nodes;
        m_shownRows = info ? info->nodes.get() : nullptr;
        m_now = now;
        endResetModel();
        return;
    }
    const void *rows = info ? info->nodes.get() : nullptr;
    if (rows != m_shownRows) {
        if (info && info->nodes)
            applyRows(*info->nodes); // copies only the rows that changed
        else
            applyRows(std::vector<UpgradeNodeRow>());
        m_shownRows = rows;
    }
    if (now != m_now) {
        m_now = now;
        columnChanged(TimeInPhaseColumn);
    }
}

} // namespace models
