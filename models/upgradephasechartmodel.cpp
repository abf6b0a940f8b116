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
    // `work` is the model's last row followed by the rows to add; the row before work[i] is
    // needed to tell a tail that never moved (it still sits on its change row).
    const bool hadRows = !m_rows.empty();
    std::vector<Row> work;
    if (hadRows)
        work.push_back(m_rows.back());
    auto before = [&](std::size_t i) -> const Row * {
        if (i > 0)
            return &work[i - 1];
        return m_rows.size() >= 2 ? &m_rows[m_rows.size() - 2] : nullptr;
    };
    for (const UpgradeSample &s : samples) {
        if (s.time <= m_lastSampleTime)
            continue;
        m_lastSampleTime = s.time;
        const Row r = rowOf(s);
        if (!work.empty() && work.back().sameValues(r)) {
            work.back().time = r.time; // same values: the tail moves forward
            continue;
        }
        const Row *change = work.empty() ? nullptr : before(work.size() - 1);
        if (change && change->time == work.back().time && change->sameValues(work.back()))
            work.back() = r; // the tail never moved, so it adds nothing to the line: reuse it
        else
            work.push_back(r); // the change
        work.push_back(r);     // its tail
    }
    if (work.empty())
        return;

    auto account = [this](const Row &r) {
        int total = 0;
        for (int b : r.bands)
            total += b;
        m_maxValue = std::max({m_maxValue, total, r.budget});
    };
    std::size_t firstNew = 0;
    if (hadRows) {
        firstNew = 1;
        Row &last = m_rows.back();
        if (last.time != work.front().time || !last.sameValues(work.front())) {
            const bool sameValues = last.sameValues(work.front());
            last = work.front();
            account(last);
            const int row = static_cast<int>(m_rows.size()) - 1;
            Q_EMIT dataChanged(index(row, sameValues ? int(TimeColumn) : 0),
                               index(row, sameValues ? int(ElapsedColumn) : ColumnCount - 1));
        }
    }
    if (m_origin == 0)
        m_origin = m_rows.empty() ? work.front().time : m_rows.front().time;
    if (firstNew < work.size()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(work.size() - firstNew) - 1);
        for (std::size_t i = firstNew; i < work.size(); ++i) {
            account(work[i]);
            m_rows.push_back(work[i]);
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
