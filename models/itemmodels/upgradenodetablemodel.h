#pragma once
// UpgradeNodeTableModel — the per-node table of one node-agent upgrade rollout (docs
// node-upgrade.md §10): name, zone, queue position, phase, time in phase, next deadline,
// reason and blockers, attempt, cordon owner. Rows are keyed by node name and updated
// incrementally (KeyedTableModel): a routine snapshot never resets the model; the time-in-phase
// column is recomputed from the snapshot clock and announced with one dataChanged per column.
// Switching to another rollout resets it.

#include "models/itemmodels/keyedtablemodel.h"
#include "models/snapshot/snapshot.h"

namespace models {

class UpgradeNodeTableModel : public KeyedTableModel<UpgradeNodeRow>
{
    Q_OBJECT
    Q_PROPERTY(QString rollout READ rollout WRITE setRollout NOTIFY rolloutChanged)

public:
    enum Column {
        NameColumn,
        ZoneColumn,
        QueueColumn,
        PhaseColumn,
        TimeInPhaseColumn,
        DeadlineColumn,
        ReasonColumn,
        AttemptColumn,
        CordonColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        NameRole = Qt::UserRole + 1, // QString
        PhaseRole,                   // int (UpgradeNodePhase)
        HeldRole,                    // bool
        BlockedRole,                 // bool
        ActionsRole,                 // QStringList: the per-node actions that apply now
        SortRole,                    // a value that sorts naturally (numbers as numbers)
    };
    Q_ENUM(Role)

    explicit UpgradeNodeTableModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString rollout() const { return m_rollout; }
    qint64 now() const { return m_now; }
    using KeyedTableModel::rowAt;
    using KeyedTableModel::rowOf;

    // hold, release, skip, retry, force — those the controller accepts for a node in this state.
    static QStringList availableActions(const UpgradeNodeRow &row);

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setRollout(const QString &name);

Q_SIGNALS:
    void rolloutChanged(const QString &name);

protected:
    QString rowKey(const UpgradeNodeRow &row) const override { return row.name; }
    bool rowEqual(const UpgradeNodeRow &a, const UpgradeNodeRow &b) const override { return a == b; }

private:
    void refresh(bool reset);

    // Only the upgrade part of the last snapshot is kept, not the whole cluster state: a model
    // that is fed rarely (a hidden tab) must not pin an old snapshot, and the snapshot's owner
    // decides on which thread it is freed.
    std::shared_ptr<const UpgradeRolloutList> m_upgrades;
    qint64 m_latestNow = 0; // the clock of the last snapshot
    QString m_rollout;
    const void *m_shownRows = nullptr; // the shared vector last applied
    qint64 m_now = 0;
};

} // namespace models
