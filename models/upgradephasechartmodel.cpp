#include "models/upgradephasechartmodel.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>

namespace models {

UpgradePhaseChartModel::UpgradePhaseChartModel(QObject *parent) : QAbstractTableModel(parent) {}

int UpgradePhaseChartModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int UpgradePhaseChartModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const UpgradePhaseChartModel::Row *UpgradePhaseChartModel::row(int index) const
{
    return index >= 0 && index < static_cast<int>(m_rows.size()) ? &m_rows[std::size_t(index)] : nullptr;
}

QVariant UpgradePhaseChartModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[std::size_t(index.row())];
    const int c = index.column();
    if (role == Qt::ToolTipRole && c == TimeColumn)
        return QDateTime::fromMSecsSinceEpoch(r.time, Qt::UTC).toString(Qt::ISODate);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    if (c == TimeColumn)
        return r.time;
    if (c == ElapsedColumn)
        return elapsedSeconds(r.time);
    if (c >= FirstBandColumn && c < int(FirstBandColumn) + int(BandCount))
        return double(r.bands[std::size_t(c - FirstBandColumn)]);
    if (c >= FirstTopColumn && c < int(FirstTopColumn) + int(BandCount)) {
        int sum = 0;
        for (int b = 0; b <= c - FirstTopColumn; ++b)
            sum += r.bands[std::size_t(b)];
        return double(sum);
    }
    switch (c) {
    case UnavailableColumn:
        return double(r.unavailable);
    case BudgetColumn:
        return double(r.budget);
    case MinReadyPercentColumn:
        return r.minReadyPercent;
    }
    return {};
}

QString UpgradePhaseChartModel::bandName(Band band)
{
    static const char *const names[] = {
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Done"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Soaking"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Restarting"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Draining"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Pending"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Failed"),
        QT_TRANSLATE_NOOP("models::UpgradePhaseChartModel", "Skipped"),
    };
    return QCoreApplication::translate("models::UpgradePhaseChartModel", names[band]);
}

QVariant UpgradePhaseChartModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == TimeColumn)
        return tr("Time");
    if (section == ElapsedColumn)
        return tr("Seconds");
    if (section >= FirstBandColumn && section < int(FirstBandColumn) + int(BandCount))
        return bandName(Band(section - FirstBandColumn));
    if (section >= FirstTopColumn && section < int(FirstTopColumn) + int(BandCount))
        return tr("%1 (stacked)").arg(bandName(Band(section - FirstTopColumn)));
    switch (section) {
    case UnavailableColumn:
        return tr("Unavailable");
    case BudgetColumn:
        return tr("maxUnavailable");
    case MinReadyPercentColumn:
        return tr("Min controller ready %");
    }
    return {};
}

UpgradePhaseChartModel::Row UpgradePhaseChartModel::rowOf(const UpgradeSample &s)
{
    auto n = [&](UpgradeNodePhase p) { return s.phases[std::size_t(p)]; };
    Row r;
    r.time = s.time;
    r.bands[DoneBand] = n(UpgradeNodePhase::UpToDate) + n(UpgradeNodePhase::Upgraded);
    r.bands[SoakingBand] = n(UpgradeNodePhase::Soaking);
    r.bands[RestartingBand] = n(UpgradeNodePhase::Restarting);
    r.bands[DrainingBand] = n(UpgradeNodePhase::Cordoned) + n(UpgradeNodePhase::DrainingManaged) +
                            n(UpgradeNodePhase::DrainingUnmanaged);
    r.bands[PendingBand] = n(UpgradeNodePhase::Pending);
    r.bands[FailedBand] = n(UpgradeNodePhase::Failed);
    r.bands[SkippedBand] = n(UpgradeNodePhase::Skipped);
    r.unavailable = s.unavailable;
    r.budget = s.maxUnavailable;
    r.minReadyPercent = s.minReadyRatio < 0 ? 100.0 : s.minReadyRatio * 100.0;
    return r;
}

void UpgradePhaseChartModel::setCapacity(int rows)
{
    m_capacity = std::max(4, rows);
    trim();
}

void UpgradePhaseChartModel::setRollout(const QString &name)
{
    if (name == m_rollout)
        return;
    m_rollout = name;
    clear();
    if (const UpgradeRolloutInfo *info = m_snapshot ? m_snapshot->upgrade(m_rollout) : nullptr) {
        if (info->startedAt > 0)
            m_origin = info->startedAt;
        if (info->samples)
            append(*info->samples);
        m_samplesSeen = info->samples.get();
    }
    Q_EMIT rolloutChanged(name);
    Q_EMIT rangeChanged();
}

void UpgradePhaseChartModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_lastSampleTime = -1;
    m_origin = 0;
    m_maxValue = 1;
    m_samplesSeen = nullptr;
    endResetModel();
}

void UpgradePhaseChartModel::setSnapshot(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_snapshot = std::move(snapshot);
    const UpgradeRolloutInfo *info = m_snapshot->upgrade(m_rollout);
    if (!info || !info->samples || info->samples.get() == m_samplesSeen)
        return;
    m_samplesSeen = info->samples.get();
    if (!info->samples->empty() && info->samples->back().time < m_lastSampleTime) {
        clear(); // another cluster: its history starts over
        m_samplesSeen = info->samples.get();
    }
    if (m_rows.empty() && info->startedAt > 0)
        m_origin = info->startedAt;
    append(*info->samples);
    Q_EMIT rangeChanged();
}

void UpgradePhaseChartModel::append(const std::vector<UpgradeSample> &samples)
{
    std::vector<Row> added;
    int tailRow = m_rows.empty() ? -1 : static_cast<int>(m_rows.size()) - 1;
    qint64 tailTime = tailRow >= 0 ? m_rows.back().time : 0;
    for (const UpgradeSample &s : samples) {
        if (s.time <= m_lastSampleTime)
            continue;
        m_lastSampleTime = s.time;
        const Row r = rowOf(s);
        const Row *last = !added.empty() ? &added.back() : (m_rows.empty() ? nullptr : &m_rows.back());
        if (last && last->sameValues(r)) {
            // Same values: the tail moves forward.
            if (!added.empty())
                added.back().time = r.time;
            else
                tailTime = r.time;
            continue;
        }
        added.push_back(r); // the change
        added.push_back(r); // its tail
    }
    if (tailRow >= 0 && tailTime != m_rows.back().time) {
        m_rows.back().time = tailTime;
        Q_EMIT dataChanged(index(tailRow, TimeColumn), index(tailRow, ElapsedColumn));
    }
    if (m_origin == 0 && (!added.empty() || !m_rows.empty()))
        m_origin = m_rows.empty() ? added.front().time : m_rows.front().time;
    if (!added.empty()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        for (Row &r : added) {
            int total = 0;
            for (int b : r.bands)
                total += b;
            m_maxValue = std::max({m_maxValue, total, r.budget});
            m_rows.push_back(r);
        }
        endInsertRows();
    }
    trim();
}

void UpgradePhaseChartModel::trim()
{
    if (static_cast<int>(m_rows.size()) <= m_capacity)
        return;
    const int excess = static_cast<int>(m_rows.size()) - m_capacity;
    beginRemoveRows({}, 0, excess - 1);
    m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
    endRemoveRows();
}

} // namespace models
