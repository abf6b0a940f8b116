#pragma once
// UpgradeEventListModel — the deduplicated events of one node-agent upgrade rollout and its
// nodes, most recently emitted first, with their counts (docs node-upgrade.md §10). Keyed by
// (object, type, reason, message): a repeat moves its row to the top and bumps the count
// instead of adding a row. Switching rollouts resets.

#include "models/itemmodels/keyedtablemodel.h"
#include "models/snapshot/snapshot.h"

namespace models {

class UpgradeEventListModel : public KeyedTableModel<UpgradeEventInfo>
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
    Q_ENUM(Column)
    enum Role { WarningRole = Qt::UserRole + 1, ReasonRole };

    explicit UpgradeEventListModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QString rollout() const { return m_rollout; }

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setRollout(const QString &name);

protected:
    QString rowKey(const UpgradeEventInfo &e) const override;
    bool rowEqual(const UpgradeEventInfo &a, const UpgradeEventInfo &b) const override { return a == b; }

private:
    void refresh(bool reset);

    // Only the upgrade part of the last snapshot is kept, not the whole cluster state: a model
    // that is fed rarely (a hidden tab) must not pin an old snapshot, and the snapshot's owner
    // decides on which thread it is freed.
    std::shared_ptr<const UpgradeRolloutList> m_upgrades;
    QString m_rollout;
    const void *m_shown = nullptr;
};

} // namespace models
