#pragma once
// RolloutMarkerModel — the moments worth a vertical line on a DaemonSet's progress chart:
// rollout starts, rollbacks, pauses and resumes, taken from the DaemonSet's record.
//
// Laid out for a chart: every marker is two rows, its foot (value 0) and its head (value
// top()), so a line series mapped to rows 2i..2i+1 draws marker i as a vertical segment.
// RolloutProgressModel owns one and keeps it in step with its rows (markers older than the
// oldest sample are dropped, top() follows the largest charted value). Updates are
// incremental: new markers are appended, old ones removed from the front.

#include "models/snapshot/snapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace models {

struct RolloutMarker
{
    enum Kind { RolloutStart, Rollback, Pause, Resume };
    qint64 time = 0;
    Kind kind = RolloutStart;
    qint64 revision = 0; // RolloutStart/Rollback: the target revision (0 when unknown)
    bool operator==(const RolloutMarker &) const = default;
};

class RolloutMarkerModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,    // ms since the epoch
        ElapsedColumn, // seconds since origin() (the progress model's origin)
        ValueColumn,   // 0 at the foot, top() at the head
        KindColumn,
        LabelColumn,
        ColumnCount
    };
    enum Role {
        TimeRole = Qt::UserRole + 1, // qint64 ms
        KindRole,                    // int (RolloutMarker::Kind)
        MarkerIndexRole,             // int: the marker this row belongs to
    };
    Q_ENUM(Role)

    explicit RolloutMarkerModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // DisplayRole is numeric in TimeColumn/ValueColumn (what QVXYModelMapper reads).
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int markerCount() const { return static_cast<int>(m_markers.size()); }
    const RolloutMarker &marker(int i) const { return m_markers[static_cast<std::size_t>(i)]; }
    const std::vector<RolloutMarker> &markers() const { return m_markers; }
    double top() const { return m_top; }
    qint64 origin() const { return m_origin; }

    void setMarkers(std::vector<RolloutMarker> markers);
    void setTop(double top);
    void setOrigin(qint64 origin);

    // The markers of a DaemonSet's record at or after `since`, by time. A rollout is a
    // rollback when the app's log has a successful rollback of this DaemonSet since the
    // previous rollout started, or when its target revision already existed before it
    // started (a rollback reuses the ControllerRevision; a new template creates one).
    static std::vector<RolloutMarker> markersFor(const DaemonSetInfo &ds, qint64 since);
    static QString kindName(RolloutMarker::Kind kind); // translated: "Rollout start", "Rollback"
    static QString label(const RolloutMarker &marker); // translated: "Rollback to revision 2"

private:
    std::vector<RolloutMarker> m_markers;
    double m_top = 1;
    qint64 m_origin = 0;
};

} // namespace models
