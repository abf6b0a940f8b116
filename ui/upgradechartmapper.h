#pragma once
// UpgradeChartMapper — maps columns of a table model onto XY series, like QVXYModelMapper (one
// row = one point, x from one column, y from another), but hands each series its points in one
// piece. QVXYModelMapper inserts, removes and replaces points one at a time, and Qt Charts
// recomputes the whole series' geometry (path, stroke, the area between two lines) for every
// single point, so appending k rows to a series of n points costs k × n; a node-upgrade chart with
// ten series of up to 2,000 points then stalls the GUI thread for tens of milliseconds per
// snapshot. Here model changes only edit a copy of the points; flush() — called by the owner
// once a batch of model changes is done, or queued automatically — replaces each changed
// series' points with one QXYSeries::replace, i.e. one geometry update per series.
//
// The model stays the single source of truth: the mapper follows rowsInserted/Removed/Moved,
// dataChanged, layoutChanged and modelReset.

#include <QList>
#include <QObject>
#include <QPointF>
#include <QPointer>

#include <vector>

class QAbstractItemModel;
class QXYSeries;

namespace gui {

class UpgradeChartMapper : public QObject
{
    Q_OBJECT

public:
    UpgradeChartMapper(QAbstractItemModel *model, int xColumn, QObject *parent = nullptr);

    // Maps `yColumn` onto `series` (its points are replaced from the model at once).
    void addSeries(QXYSeries *series, int yColumn);
    // Gives the series the points of every change since the last flush.
    void flush();

private:
    struct Mapping
    {
        QPointer<QXYSeries> series;
        int yColumn = 0;
        QList<QPointF> points;
        bool dirty = false;
    };

    QPointF pointAt(int row, int yColumn) const;
    void reload();
    void markAllDirty();
    void schedule();

    QAbstractItemModel *m_model;
    int m_xColumn;
    std::vector<Mapping> m_mappings;
    bool m_scheduled = false;
};

} // namespace gui
