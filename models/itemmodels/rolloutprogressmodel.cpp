#include "models/itemmodels/rolloutprogressmodel.h"

#include "models/itemmodels/daemonsetselection.h"
#include "models/itemmodels/rolloutmarkermodel.h"
#include "models/kube/timeutil.h"

#include <QDateTime>

#include <algorithm>

namespace models {

RolloutProgressModel::RolloutProgressModel(QObject *parent)
    : QAbstractTableModel(parent), m_markers(new RolloutMarkerModel(this))
{
    m_headline.text = RolloutHeadline::describe(m_headline);
    connect(&m_headlineClock, &AgeClock::due, this, [this] { updateHeadline(m_headlineClock.now()); });
}

RolloutProgressModel::~RolloutProgressModel() = default;

RolloutProgressModel::Series *RolloutProgressModel::shown() const
{
    auto it = m_series.find(m_key);
    return it == m_series.end() ? nullptr : const_cast<Series *>(&it->second);
}

int RolloutProgressModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    const Series *s = shown();
    return s ? static_cast<int>(s->rows.size()) : 0;
}

int RolloutProgressModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const ProgressSample *RolloutProgressModel::sample(int row) const
{
    const Series *s = shown();
    if (!s || row < 0 || row >= static_cast<int>(s->rows.size()))
        return nullptr;
    return &s->rows[static_cast<std::size_t>(row)];
}

QVariant RolloutProgressModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ProgressSample &s = *sample(index.row());
    auto value = [&]() -> qint64 {
        switch (index.column()) {
        case TimeColumn:
        case ElapsedColumn:
            return s.time;
        case DesiredColumn:
            return s.desired;
        case UpdatedColumn:
            return s.updated;
        case AvailableColumn:
            return s.available;
        case UnavailableColumn:
            return s.unavailable;
        case BudgetColumn:
            return s.budget;
        }
        return 0;
    };
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == ElapsedColumn ? elapsedSeconds(s.time) : double(value());
    case ValueRole:
        if (index.column() == ElapsedColumn)
            return elapsedSeconds(s.time);
        return index.column() == TimeColumn ? QVariant(value()) : QVariant(int(value()));
    case TimeRole:
        return s.time;
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn || index.column() == ElapsedColumn)
            return QDateTime::fromMSecsSinceEpoch(s.time, Qt::UTC).toString(Qt::ISODate);
        return double(value());
    }
    return {};
}

QVariant RolloutProgressModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ElapsedColumn:
        return tr("Seconds");
    case DesiredColumn:
        return tr("Desired");
    case UpdatedColumn:
        return tr("Updated");
    case AvailableColumn:
        return tr("Available");
    case UnavailableColumn:
        return tr("Unavailable");
    case BudgetColumn:
        return tr("maxUnavailable");
    }
    return {};
}

QString RolloutProgressModel::etaText() const
{
    if (m_etaMs <= 0)
        return {};
    return tr("about %1 left").arg(QString::fromStdString(kube::humanAge(m_etaMs)));
}

qint64 RolloutProgressModel::firstTime() const
{
    const Series *s = shown();
    return s && !s->rows.empty() ? s->rows.front().time : 0;
}

qint64 RolloutProgressModel::lastTime() const
{
    const Series *s = shown();
    return s && !s->rows.empty() ? s->rows.back().time : 0;
}

qint64 RolloutProgressModel::lastChangeTime() const
{
    const Series *s = shown();
    if (!s || s->rows.empty())
        return 0;
    for (std::size_t i = s->rows.size() - 1; i > 0; --i)
        if (!s->rows[i].sameValues(s->rows[i - 1]))
            return s->rows[i].time;
    return s->rows.front().time;
}

bool RolloutProgressModel::rolloutDone() const
{
    const DaemonSetInfo *ds = m_snapshot ? m_snapshot->daemonSet(m_key) : nullptr;
    return ds && (ds->badge == RolloutBadge::Complete || ds->badge == RolloutBadge::Settled);
}

ProgressSample RolloutProgressModel::sampleOf(const DaemonSetInfo &ds, qint64 now)
{
    ProgressSample s;
    s.time = now;
    s.desired = ds.counts.desired;
    s.updated = ds.counts.updated;
    s.available = ds.counts.available;
    s.unavailable = ds.counts.unavailable;
    s.budget = RolloutHeadline::resolvedMaxUnavailable(ds);
    return s;
}

void RolloutProgressModel::setCapacity(int rows)
{
    m_capacity = std::max(2, rows);
    for (auto &[key, series] : m_series)
        trim(series, key == m_key);
    refreshDerived();
}

void RolloutProgressModel::setSelection(DaemonSetSelection *selection)
{
    if (m_selectionConnection)
        disconnect(m_selectionConnection);
    m_selection = selection;
    if (!selection)
        return;
    m_selectionConnection =
        connect(selection, &DaemonSetSelection::currentChanged, this, &RolloutProgressModel::setDaemonSetKey);
    setDaemonSetKey(selection->current());
}

void RolloutProgressModel::setDaemonSetKey(const QString &dsKey)
{
    if (dsKey == m_key)
        return;
    beginResetModel();
    m_key = dsKey;
    m_observation = {};
    m_observedPods = nullptr;
    endResetModel();
    m_markers->setMarkers({});
    Q_EMIT daemonSetKeyChanged(m_key);
    refreshDerived();
}

void RolloutProgressModel::clearSeries(Series &series, bool show)
{
    if (series.rows.empty())
        return;
    if (show)
        beginRemoveRows({}, 0, static_cast<int>(series.rows.size()) - 1);
    series.rows.clear();
    series.lastChange = 0;
    series.firstSample = 0;
    if (show)
        endRemoveRows();
}

void RolloutProgressModel::trim(Series &series, bool show)
{
    const int excess = static_cast<int>(series.rows.size()) - m_capacity;
    if (excess <= 0)
        return;
    if (show)
        beginRemoveRows({}, 0, excess - 1);
    series.rows.erase(series.rows.begin(), series.rows.begin() + excess);
    if (show)
        endRemoveRows();
}

void RolloutProgressModel::append(Series &series, const ProgressSample &sample, bool show)
{
    const int row = static_cast<int>(series.rows.size());
    if (show)
        beginInsertRows({}, row, row);
    series.rows.push_back(sample);
    if (show)
        endInsertRows();
}

bool RolloutProgressModel::extendHold(Series &series, qint64 time, bool show)
{
    auto &rows = series.rows;
    const std::size_t n = rows.size();
    if (n < 2 || !rows[n - 2].sameValues(rows.back()))
        return false;
    rows.back().time = time;
    if (show) {
        const int row = static_cast<int>(n) - 1;
        Q_EMIT dataChanged(index(row, TimeColumn), index(row, ElapsedColumn));
    }
    return true;
}

void RolloutProgressModel::record(Series &series, const ProgressSample &sample, bool show)
{
    auto &rows = series.rows;
    if (series.firstSample == 0)
        series.firstSample = sample.time;
    if (!rows.empty()) {
        const ProgressSample last = rows.back();
        if (last.sameValues(sample)) {
            // Extend the hold row instead of growing the buffer.
            if (sample.time <= last.time || extendHold(series, sample.time, show))
                return;
        } else {
            if (last.updated != sample.updated || last.available != sample.available)
                series.lastChange = sample.time;
            // The counts held their values until this sample: a step, never a slope across the
            // time between two snapshots (a scenario's setup, a fast clock, a slow watch).
            if (last.time < sample.time && !extendHold(series, sample.time, show)) {
                ProgressSample hold = last;
                hold.time = sample.time;
                append(series, hold, show);
            }
        }
    }
    append(series, sample, show);
    trim(series, show);
}

void RolloutProgressModel::setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    const qint64 now = snapshot->clock.now;
    if (m_lastNow > 0 && now < m_lastNow) {
        // Another timeline (scenario loaded, cluster reseeded): its history starts afresh.
        for (auto &[key, series] : m_series)
            clearSeries(series, key == m_key);
        m_observation = {};
        m_observedPods = nullptr;
    }
    m_lastNow = now;
    m_snapshot = snapshot;
    m_headlineClock.setClock(snapshot->clock);

    // Drop the history of DaemonSets that are gone.
    for (auto it = m_series.begin(); it != m_series.end();) {
        if (!snapshot->daemonSet(it->first)) {
            clearSeries(it->second, it->first == m_key);
            it = m_series.erase(it);
        } else {
            ++it;
        }
    }
    for (const DaemonSetInfo &ds : snapshot->daemonSets) {
        Series &series = m_series[ds.key];
        const bool show = ds.key == m_key;
        if (series.uid != ds.uid) {
            clearSeries(series, show); // recreated under the same name
            series.uid = ds.uid;
        }
        // A scenario being built jumps its clock from step to step: what the counts did in
        // between is unknown, so its snapshots are not samples (the chart starts once loaded).
        if (!snapshot->backend.loading)
            record(series, sampleOf(ds, now), show);
    }

    // Terminating pods of the shown DaemonSet: since when they are terminating.
    if (const DaemonSetInfo *ds = snapshot->daemonSet(m_key);
        ds && ds->pods && ds->pods.get() != m_observedPods) {
        m_observedPods = ds->pods.get();
        std::map<QString, qint64> next;
        for (const PodInfo &p : *ds->pods) {
            if (!p.deleting)
                continue;
            auto it = m_observation.deletingSince.find(p.name);
            next.emplace(p.name, it != m_observation.deletingSince.end() ? it->second : now);
        }
        m_observation.deletingSince = std::move(next);
    }
    refreshDerived();
}

void RolloutProgressModel::refreshDerived()
{
    const Series *series = shown();
    m_observation.lastProgress = series ? series->lastChange : 0;

    int maxValue = 1;
    if (series) {
        for (const ProgressSample &s : series->rows)
            maxValue = std::max({maxValue, s.desired, s.updated, s.available, s.unavailable, s.budget});
    }
    const qint64 first = firstTime();
    const qint64 last = lastTime();
    const DaemonSetInfo *ds = m_snapshot && !m_key.isEmpty() ? m_snapshot->daemonSet(m_key) : nullptr;
    qint64 origin = series && !series->rows.empty() ? series->firstSample : 0;
    if (origin != 0 && ds && ds->record && !ds->record->rollouts.empty())
        origin = ds->record->rollouts.back().started;
    const bool originMoved = origin != m_origin;
    m_origin = origin;
    if (originMoved && rowCount() > 0)
        Q_EMIT dataChanged(index(0, ElapsedColumn), index(rowCount() - 1, ElapsedColumn));
    const bool done = rolloutDone();
    const bool rangeMoved = originMoved || maxValue != m_maxValue || first != m_rangeFirst ||
                            last != m_rangeLast || done != m_rangeDone;
    m_rangeDone = done;
    m_maxValue = maxValue;
    m_rangeFirst = first;
    m_rangeLast = last;

    // From the first sample, and the latest rollout's start even when the console began
    // watching after it (the chart's 0).
    const qint64 since = origin != 0 ? std::min(first, origin) : first;
    m_markers->setMarkers(ds ? RolloutMarkerModel::markersFor(*ds, since) : std::vector<RolloutMarker>{});
    m_markers->setTop(maxValue);
    m_markers->setOrigin(origin);

    updateHeadline(m_snapshot ? m_snapshot->clock.now : 0);
    if (rangeMoved)
        Q_EMIT rangeChanged();
}

RolloutProgressModel::HeadlineInputs RolloutProgressModel::headlineInputs() const
{
    HeadlineInputs in;
    in.key = m_key;
    in.lastProgress = m_observation.lastProgress;
    in.deletingSince = m_observation.deletingSince;
    if (!m_snapshot)
        return in;
    in.nodes = m_snapshot->nodes.get();
    const DaemonSetInfo *ds = m_key.isEmpty() ? nullptr : m_snapshot->daemonSet(m_key);
    if (!ds)
        return in;
    in.pods = ds->pods.get();
    in.revisions = ds->revisions.get();
    in.record = ds->record.get();
    in.counts = ds->counts;
    in.generation = ds->generation;
    in.observedGeneration = ds->observedGeneration;
    in.paused = ds->paused;
    in.strategy = ds->strategyType + QLatin1Char('/') + ds->maxUnavailable + QLatin1Char('/') + ds->maxSurge +
                  QLatin1Char('/') + QString::number(ds->minReadySeconds);
    in.currentRevisionHash = ds->currentRevisionHash;
    in.currentRevisionNumber = ds->currentRevisionNumber;
    return in;
}

void RolloutProgressModel::updateHeadline(qint64 now)
{
    HeadlineInputs inputs = headlineInputs();
    const bool due = !m_headlineValid || inputs != m_headlineInputs ||
                     (m_headline.changesAt > 0 && now >= m_headline.changesAt);
    if (due) {
        RolloutHeadline headline;
        qint64 eta = -1;
        if (m_snapshot) {
            headline = RolloutHeadline::compute(*m_snapshot, m_key, m_observation, now);
            ++m_headlineComputations;
        } else {
            headline.text = RolloutHeadline::describe(headline);
        }
        // An estimate only while the rollout moves: with a cause named, the time left is unknown.
        const DaemonSetInfo *ds = m_snapshot && !m_key.isEmpty() ? m_snapshot->daemonSet(m_key) : nullptr;
        if (ds &&
            (headline.reason == RolloutHeadline::Progressing || headline.reason == RolloutHeadline::Slow))
            eta = RolloutHeadline::estimateRemainingMs(*ds, now);
        m_headlineInputs = std::move(inputs);
        m_headlineValid = true;
        const bool headlineTextChanged = headline.text != m_headline.text;
        m_headline = std::move(headline);
        const QString oldEta = etaText();
        m_etaMs = eta;
        if (headlineTextChanged)
            Q_EMIT headlineChanged(m_headline.text);
        if (etaText() != oldEta)
            Q_EMIT etaChanged(etaText());
    }
    // The next wording change, while the clock runs; a stopped clock changes nothing.
    m_headlineClock.wakeAt(m_headline.changesAt);
}

} // namespace models
