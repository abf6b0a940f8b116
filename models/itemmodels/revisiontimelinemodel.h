#pragma once
// RevisionTimelineModel — the revisions of one DaemonSet in revision order: the live
// ControllerRevisions of the latest snapshot plus, greyed out, the ones the cluster removed
// (revisionHistoryLimit) that the RevisionMemory still knows. A rollback shows as renumbering:
// the revision keeps its name and hash, gets a new number, and PreviousNumbersRole lists the
// numbers it had.
//
// Rows are keyed by revision name and updated incrementally; the age column changes with the
// clock (one dataChanged for that column per snapshot).

#include "models/history/revisionmemory.h"
#include "models/itemmodels/ageclock.h"
#include "models/itemmodels/keyedtablemodel.h"
#include "models/snapshot/snapshot.h"

namespace models {

class DaemonSetSelection;

struct TimelineRow
{
    RememberedRevision revision;
    int podCount = 0;
    bool current = false;
    bool operator==(const TimelineRow &o) const;
};

class RevisionTimelineModel : public KeyedTableModel<TimelineRow>
{
    Q_OBJECT

public:
    enum Column {
        NumberColumn,
        HashColumn,
        AgeColumn,
        ChangeCauseColumn,
        ImageColumn,
        PodsColumn,
        ColumnCount
    };
    enum Role {
        NameRole = Qt::UserRole + 1,
        NumberRole,          // qint64
        HashRole,            // QString (full hash)
        CreatedRole,         // qint64 ms
        ChangeCauseRole,     // QString
        ImageSummaryRole,    // QString
        PodCountRole,        // int
        CurrentRole,         // bool
        RemovedRole,         // bool: cleaned up by the cluster, known from local history
        PreviousNumbersRole, // QVariantList of qint64: numbers before rollbacks renumbered it
        ColorKeyRole,        // qint64: the colour's key, the first number (RevisionMemory::colorKey)
    };
    Q_ENUM(Role)

    // `memory` may be shared with other models or a history store; null = an own one.
    explicit RevisionTimelineModel(RevisionMemory *memory = nullptr, QObject *parent = nullptr);
    ~RevisionTimelineModel() override;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    QString daemonSetKey() const { return m_key; }
    RevisionMemory &memory() { return *m_memory; }
    // The template of the revision in `row` (live or remembered); null when unknown.
    std::shared_ptr<const kube::Json> podTemplate(int row) const;
    int rowOfNumber(qint64 number) const;
    // Follows selection->currentChanged.
    void setSelection(DaemonSetSelection *selection);

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setDaemonSetKey(const QString &dsKey);

protected:
    QString rowKey(const TimelineRow &row) const override { return row.revision.name; }
    bool rowEqual(const TimelineRow &a, const TimelineRow &b) const override { return a == b; }

private:
    void rebuild();
    void scheduleAges(); // wakes when the first shown age reads differently

    std::unique_ptr<RevisionMemory> m_ownMemory;
    RevisionMemory *m_memory = nullptr;
    std::shared_ptr<const ClusterSnapshot> m_snapshot;
    QString m_key;
    qint64 m_now = 0;
    AgeClock m_ageClock; // ages go on between snapshots: a quiet cluster publishes none
};

} // namespace models
