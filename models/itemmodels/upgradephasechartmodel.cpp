#include "models/itemmodels/upgradephasechartmodel.h"

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

UpgradePhaseChartModel::Row UpgradePhaseChartModel::merged(const Row &earlier, const Row &later)
{
    Row r = later;
    r.unavailable = std::max(earlier.unavailable, later.unavailable);
    r.minReadyPercent = std::min(earlier.minReadyPercent, later.minReadyPercent);
    return r;
}

std::vector<UpgradePhaseChartModel::Row> UpgradePhaseChartModel::stepRows(const std::vector<Row> &buckets)
{
    std::vector<Row> rows;
    rows.reserve(buckets.size() + 1);
    for (const Row &b : buckets) {
        if (!rows.empty() && rows.back().sameValues(b)) {
            rows.back().time = b.time; // same values: the tail moves forward
            continue;
        }
        const std::size_t n = rows.size();
        if (n >= 2 && rows[n - 2].time == rows[n - 1].time && rows[n - 2].sameValues(rows[n - 1]))
            rows.back() = b; // the tail never moved, so it adds nothing to the line: reuse it
        else
            rows.push_back(b); // the change
        rows.push_back(b);     // its tail
    }
    return rows;
}

void UpgradePhaseChartModel::setCapacity(int rows)
{
    m_capacity = std::max(4, rows);
    if (!fits(m_rows.size(), m_capacity)) {
        coarsen();
        Q_EMIT rangeChanged();
    }
}

void UpgradePhaseChartModel::setRollout(const QString &name)
{
    if (name == m_rollout)
        return;
    m_rollout = name;
    clear();
    if (const UpgradeRolloutInfo *info = m_upgrades ? findUpgradeRollout(*m_upgrades, m_rollout) : nullptr) {
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
    m_buckets.clear();
    m_bucketMs = 0;
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
    m_upgrades = snapshot->upgrades;
    const UpgradeRolloutInfo *info = m_upgrades ? findUpgradeRollout(*m_upgrades, m_rollout) : nullptr;
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
    bool added = false;
    for (const UpgradeSample &s : samples) {
        if (s.time <= m_lastSampleTime)
            continue;
        m_lastSampleTime = s.time;
        if (m_origin == 0)
            m_origin = s.time;
        addBucket(rowOf(s));
        added = true;
    }
    if (!added)
        return;
    std::vector<Row> next = stepRows(m_buckets);
    if (!fits(next.size(), m_capacity)) {
        coarsen();
        return;
    }
    show(std::move(next));
}

qint64 UpgradePhaseChartModel::bucketOf(qint64 time) const
{
    if (m_bucketMs <= 0)
        return time;
    const qint64 d = time - m_origin;
    return d >= 0 ? d / m_bucketMs : -((-d + m_bucketMs - 1) / m_bucketMs); // floor
}

void UpgradePhaseChartModel::addBucket(const Row &row)
{
    // The first sample stays a bucket of its own: the chart starts where the rollout started.
    if (m_buckets.size() > 1 && m_bucketMs > 0 && bucketOf(m_buckets.back().time) == bucketOf(row.time))
        m_buckets.back() = merged(m_buckets.back(), row); // the last bucket is still open
    else
        m_buckets.push_back(row);
}

bool UpgradePhaseChartModel::fits(std::size_t rows, int capacity) const
{
    return static_cast<int>(rows) <= capacity && static_cast<int>(m_buckets.size()) <= 2 * capacity;
}

void UpgradePhaseChartModel::coarsen()
{
    std::vector<Row> next = stepRows(m_buckets);
    // Once a bucket is wider than the whole history no width merges more (at most the first
    // sample and two buckets around the origin are left).
    const qint64 span = m_buckets.empty() ? 0 : m_buckets.back().time - m_buckets.front().time;
    while (!fits(next.size(), m_capacity / 2) && m_buckets.size() > 2 && m_bucketMs <= span) {
        m_bucketMs = m_bucketMs > 0 ? m_bucketMs * 2 : kFirstBucketMs;
        std::vector<Row> buckets;
        buckets.swap(m_buckets);
        m_buckets.reserve(buckets.size() / 2 + 1);
        for (const Row &b : buckets)
            addBucket(b);
        next = stepRows(m_buckets);
    }
    show(std::move(next));
}

void UpgradePhaseChartModel::show(std::vector<Row> next)
{
    // Routinely only the last rows differ (a tail moved, the open bucket changed) and rows are
    // appended; after a re-bucketing most rows change, announced as one dataChanged.
    const std::size_t common = std::min(m_rows.size(), next.size());
    std::size_t first = 0;
    while (first < common && m_rows[first] == next[first])
        ++first;
    bool onlyTimes = true;
    for (std::size_t i = first; i < common; ++i)
        onlyTimes = onlyTimes && m_rows[i].sameValues(next[i]);
    // Rows before `first` are unchanged and already counted.
    for (auto it = next.begin() + static_cast<std::ptrdiff_t>(first); it != next.end(); ++it) {
        const Row &r = *it;
        int total = 0;
        for (int b : r.bands)
            total += b;
        m_maxValue = std::max({m_maxValue, total, r.budget});
    }

    if (next.size() < m_rows.size()) {
        beginRemoveRows({}, static_cast<int>(next.size()), static_cast<int>(m_rows.size()) - 1);
        m_rows.resize(next.size());
        endRemoveRows();
    }
    std::copy(next.begin() + static_cast<std::ptrdiff_t>(first),
              next.begin() + static_cast<std::ptrdiff_t>(common),
              m_rows.begin() + static_cast<std::ptrdiff_t>(first));
    if (first < common)
        Q_EMIT dataChanged(
            index(static_cast<int>(first), onlyTimes ? int(TimeColumn) : 0),
            index(static_cast<int>(common) - 1, onlyTimes ? int(ElapsedColumn) : ColumnCount - 1));
    if (next.size() > m_rows.size()) {
        beginInsertRows({}, static_cast<int>(m_rows.size()), static_cast<int>(next.size()) - 1);
        m_rows.insert(m_rows.end(), next.begin() + static_cast<std::ptrdiff_t>(m_rows.size()), next.end());
        endInsertRows();
    }
}

} // namespace models
