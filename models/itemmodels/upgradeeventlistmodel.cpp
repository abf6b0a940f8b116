#include "models/itemmodels/upgradeeventlistmodel.h"

#include <QDateTime>

namespace models {

UpgradeEventListModel::UpgradeEventListModel(QObject *parent) : KeyedTableModel(parent) {}

int UpgradeEventListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString UpgradeEventListModel::rowKey(const UpgradeEventInfo &e) const
{
    return e.object + QLatin1Char('\x1f') + e.type + QLatin1Char('\x1f') + e.reason + QLatin1Char('\x1f') +
           e.message;
}

QVariant UpgradeEventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const UpgradeEventInfo &e = m_rows[std::size_t(index.row())];
    switch (role) {
    case WarningRole:
        return e.type == QLatin1String("Warning");
    case ReasonRole:
        return e.reason;
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(e.lastTime, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
        case TypeColumn:
            return e.type;
        case ReasonColumn:
            return e.reason;
        case ObjectColumn:
            return e.object;
        case MessageColumn:
            return e.message;
        case CountColumn:
            return e.count;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn)
            return tr("first %1, last %2")
                .arg(QDateTime::fromMSecsSinceEpoch(e.firstTime, Qt::UTC).toString(Qt::ISODate),
                     QDateTime::fromMSecsSinceEpoch(e.lastTime, Qt::UTC).toString(Qt::ISODate));
        if (index.column() == MessageColumn)
            return e.message;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CountColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant UpgradeEventListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Last seen");
    case TypeColumn:
        return tr("Type");
    case ReasonColumn:
        return tr("Reason");
    case ObjectColumn:
        return tr("Object");
    case MessageColumn:
        return tr("Message");
    case CountColumn:
        return tr("Count");
    }
    return {};
}

void UpgradeEventListModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_upgrades = snapshot->upgrades;
    refresh(false);
}

void UpgradeEventListModel::setRollout(const QString &name)
{
    if (name == m_rollout)
        return;
    m_rollout = name;
    refresh(true);
}

void UpgradeEventListModel::refresh(bool reset)
{
    const UpgradeRolloutInfo *info = m_upgrades ? findUpgradeRollout(*m_upgrades, m_rollout) : nullptr;
    const void *events = info ? info->events.get() : nullptr;
    if (reset) {
        beginResetModel();
        m_rows = info && info->events ? *info->events : std::vector<UpgradeEventInfo>();
        endResetModel();
    } else if (events != m_shown) {
        if (info && info->events)
            applyRows(*info->events);
        else
            applyRows(std::vector<UpgradeEventInfo>());
    }
    m_shown = events;
}

} // namespace models
