#include "ui/upgradechartmapper.h"

#include <QAbstractItemModel>
#include <QXYSeries>

namespace gui {

UpgradeChartMapper::UpgradeChartMapper(QAbstractItemModel *model, int xColumn, QObject *parent)
    : QObject(parent), m_model(model), m_xColumn(xColumn)
{
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent, int first, int last) {
                if (parent.isValid())
                    return;
                for (Mapping &m : m_mappings) {
                    for (int row = first; row <= last; ++row)
                        m.points.insert(row, pointAt(row, m.yColumn)); // rows arrive at the end: O(1) each
                }
                markAllDirty();
            });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this,
            [this](const QModelIndex &parent, int first, int last) {
                if (parent.isValid())
                    return;
                for (Mapping &m : m_mappings)
                    m.points.remove(first, last - first + 1);
                markAllDirty();
            });
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                if (topLeft.parent().isValid())
                    return;
                const bool xChanged = topLeft.column() <= m_xColumn && m_xColumn <= bottomRight.column();
                for (Mapping &m : m_mappings) {
                    if (!xChanged && (m.yColumn < topLeft.column() || m.yColumn > bottomRight.column()))
                        continue;
                    for (int row = topLeft.row(); row <= bottomRight.row() && row < m.points.size(); ++row)
                        m.points[row] = pointAt(row, m.yColumn);
                    m.dirty = true;
                }
                schedule();
            });
    // Moves and layout changes are rare (this mapper serves append-only charts): reload.
    connect(m_model, &QAbstractItemModel::rowsMoved, this, &UpgradeChartMapper::reload);
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &UpgradeChartMapper::reload);
    connect(m_model, &QAbstractItemModel::modelReset, this, &UpgradeChartMapper::reload);
}

void UpgradeChartMapper::addSeries(QXYSeries *series, int yColumn)
{
    Mapping m;
    m.series = series;
    m.yColumn = yColumn;
    const int rows = m_model->rowCount();
    m.points.reserve(rows);
    for (int row = 0; row < rows; ++row)
        m.points.append(pointAt(row, yColumn));
    m.dirty = true;
    m_mappings.push_back(std::move(m));
    flush();
}

QPointF UpgradeChartMapper::pointAt(int row, int yColumn) const
{
    return QPointF(m_model->index(row, m_xColumn).data().toReal(),
                   m_model->index(row, yColumn).data().toReal());
}

void UpgradeChartMapper::reload()
{
    const int rows = m_model->rowCount();
    for (Mapping &m : m_mappings) {
        m.points.clear();
        m.points.reserve(rows);
        for (int row = 0; row < rows; ++row)
            m.points.append(pointAt(row, m.yColumn));
    }
    markAllDirty();
}

void UpgradeChartMapper::markAllDirty()
{
    for (Mapping &m : m_mappings)
        m.dirty = true;
    schedule();
}

void UpgradeChartMapper::schedule()
{
    // Changes made outside a batch the owner flushes still reach the chart, once per event-loop
    // pass.
    if (m_scheduled)
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &UpgradeChartMapper::flush, Qt::QueuedConnection);
}

void UpgradeChartMapper::flush()
{
    m_scheduled = false;
    for (Mapping &m : m_mappings) {
        if (!m.dirty)
            continue;
        m.dirty = false;
        if (m.series)
            m.series->replace(m.points);
    }
}

} // namespace gui
