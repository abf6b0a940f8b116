#pragma once
// EventListModel — the events of one DaemonSet (events on it and on its pods) or of the whole
// cluster (empty key), newest first, with their repeat counts. Rows are keyed by the Event
// object; a repeated event moves to the top with its new count (a row move, not a reset).

#include "models/itemmodels/ageclock.h"
#include "models/itemmodels/keyedtablemodel.h"
#include "models/snapshot/snapshot.h"

namespace models {

class DaemonSetSelection;

class EventListModel : public KeyedTableModel<EventInfo>
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,
        TypeColumn,
        ReasonColumn,
        ObjectColumn,
        MessageColumn,
        CountColumn,
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1,
        TimeRole,      // qint64 ms, last occurrence
        FirstTimeRole, // qint64 ms
        TypeRole,      // Normal / Warning
        ReasonRole,
        ObjectRole, // "pod/default/web-x8k2p"
        MessageRole,
        CountRole,        // int
        DaemonSetKeyRole, // QString
        WarningRole,      // bool
    };
    Q_ENUM(Role)

    explicit EventListModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString daemonSetKey() const { return m_key; }
    void setSelection(DaemonSetSelection *selection);

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setDaemonSetKey(const QString &dsKey); // empty: every event

protected:
    QString rowKey(const EventInfo &e) const override { return e.key; }
    bool rowEqual(const EventInfo &a, const EventInfo &b) const override;

private:
    void rebuild();
    void scheduleAges(); // wakes when the first shown age reads differently

    std::shared_ptr<const ClusterSnapshot> m_snapshot;
    QString m_key;
    qint64 m_now = 0;
    AgeClock m_ageClock; // ages go on between snapshots: a quiet cluster publishes none
};

} // namespace models
