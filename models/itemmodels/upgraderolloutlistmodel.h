#pragma once
// UpgradeRolloutListModel — the node-agent upgrade rollouts of a snapshot for the explorer:
// name, phase (a badge), progress "upgraded/nodes" and the headline as tooltip. Keyed by name,
// updated incrementally.

#include "models/itemmodels/keyedtablemodel.h"
#include "models/snapshot/snapshot.h"

namespace models {

struct UpgradeRolloutRow
{
    QString name;
    UpgradeRolloutPhase phase = UpgradeRolloutPhase::Pending;
    int done = 0; // up to date, upgraded included
    int nodes = 0;
    int inFlight = 0;
    QString headline;
    QString targetVersion;
    bool observed = false; // inferred from the nodes (no NodeUpgradeRollout)
    bool operator==(const UpgradeRolloutRow &) const = default;
};

class UpgradeRolloutListModel : public KeyedTableModel<UpgradeRolloutRow>
{
    Q_OBJECT

public:
    enum Column { NameColumn, PhaseColumn, ProgressColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        NameRole = Qt::UserRole + 1,
        PhaseRole, // QString: the rollout phase name
        BadgeRole, // int (UpgradeRolloutListModel::Badge) on the phase column only
    };
    enum Badge { Running, Paused, Halted, Done, Aborted };
    Q_ENUM(Badge)

    explicit UpgradeRolloutListModel(QObject *parent = nullptr);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static Badge badgeOf(UpgradeRolloutPhase phase);
    static QString phaseTitle(UpgradeRolloutPhase phase); // translated
    QModelIndex indexOf(const QString &name) const;

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);

protected:
    QString rowKey(const UpgradeRolloutRow &row) const override { return row.name; }
    bool rowEqual(const UpgradeRolloutRow &a, const UpgradeRolloutRow &b) const override { return a == b; }

private:
    const void *m_shown = nullptr;
};

} // namespace models
