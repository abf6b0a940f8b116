#include "models/itemmodels/eventlistmodel.h"

#include "models/itemmodels/daemonsetselection.h"

#include "models/kube/timeutil.h"

#include <QColor>

namespace models {

EventListModel::EventListModel(QObject *parent) : KeyedTableModel<EventInfo>(parent)
{
    connect(&m_ageClock, &AgeClock::due, this, [this] {
        m_now = m_ageClock.now();
        columnChanged(TimeColumn);
        scheduleAges();
    });
}

void EventListModel::scheduleAges()
{
    m_ageClock.wakeAt(AgeClock::nextAgeChange(m_rows, m_now, [](const EventInfo &e) { return e.time; }));
}

int EventListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool EventListModel::rowEqual(const EventInfo &a, const EventInfo &b) const
{
    return a.time == b.time && a.firstTime == b.firstTime && a.count == b.count && a.type == b.type &&
           a.reason == b.reason && a.message == b.message && a.object == b.object &&
           a.daemonSetKey == b.daemonSetKey;
}

void EventListModel::setSelection(DaemonSetSelection *selection)
{
    connect(selection, &DaemonSetSelection::currentChanged, this, &EventListModel::setDaemonSetKey);
    setDaemonSetKey(selection->current());
}

void EventListModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    const bool sameEvents = m_snapshot && m_snapshot->events == snapshot->events;
    m_snapshot = std::move(snapshot);
    const bool clockMoved = m_now != m_snapshot->clock.now;
    m_now = m_snapshot->clock.now;
    m_ageClock.setClock(m_snapshot->clock);
    if (!sameEvents) // the event list is shared between snapshots while it is unchanged
        rebuild();
    if (clockMoved)
        columnChanged(TimeColumn);
    scheduleAges();
}

void EventListModel::setDaemonSetKey(const QString &dsKey)
{
    if (dsKey == m_key)
        return;
    m_key = dsKey;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    rebuild();
    scheduleAges();
}

void EventListModel::rebuild()
{
    std::vector<EventInfo> rows;
    if (m_snapshot && m_snapshot->events) {
        for (const auto &e : *m_snapshot->events) {
            if (m_key.isEmpty() || e.daemonSetKey == m_key)
                rows.push_back(e);
        }
    }
    applyRows(std::move(rows));
}

QVariant EventListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EventInfo &e = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return e.time > 0 ? QString::fromStdString(kube::humanAge(std::max<qint64>(0, m_now - e.time)))
                              : QString();
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
        return e.message;
    case Qt::ForegroundRole:
        return e.type == QLatin1String("Warning") && index.column() == TypeColumn
                   ? QVariant(QColor(0xc0, 0x39, 0x2b))
                   : QVariant();
    case KeyRole:
        return e.key;
    case TimeRole:
        return e.time;
    case FirstTimeRole:
        return e.firstTime;
    case TypeRole:
        return e.type;
    case ReasonRole:
        return e.reason;
    case ObjectRole:
        return e.object;
    case MessageRole:
        return e.message;
    case CountRole:
        return e.count;
    case DaemonSetKeyRole:
        return e.daemonSetKey;
    case WarningRole:
        return e.type == QLatin1String("Warning");
    }
    return {};
}

QVariant EventListModel::headerData(int section, Qt::Orientation orientation, int role) const
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

QHash<int, QByteArray> EventListModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(KeyRole, "key");
    names.insert(TimeRole, "time");
    names.insert(FirstTimeRole, "firstTime");
    names.insert(TypeRole, "type");
    names.insert(ReasonRole, "reason");
    names.insert(ObjectRole, "object");
    names.insert(MessageRole, "message");
    names.insert(CountRole, "count");
    names.insert(DaemonSetKeyRole, "daemonSetKey");
    names.insert(WarningRole, "warning");
    return names;
}

} // namespace models
