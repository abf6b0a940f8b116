#pragma once
// RolloutProgressModel — the rollout of the selected DaemonSet over time, as a table a chart
// maps with QVXYModelMapper: one row per sample with the time (virtual ms since the epoch, or
// wall time on a live cluster), the same time as seconds since origin() (the start of the
// DaemonSet's latest rollout, or its first sample when no rollout was seen; charts use this
// column so their axis needs no time zone), the desired / updated / available / unavailable
// counts and
// the maxUnavailable budget resolved against desired (rounded up, as rollingUpdate does; 0
// while the strategy is OnDelete, paused included, because then nothing is replaced).
//
// Samples are recorded for every DaemonSet of every snapshot (a few integers when something
// changed), so selecting another DaemonSet shows its recent history at once. Per DaemonSet:
// - a snapshot whose values differ from the last row appends a row (beginInsertRows);
// - a snapshot with the same values appends one "hold" row the first time and afterwards moves
//   that row's time forward (dataChanged on the time column), so a quiet rollout costs two
//   rows;
// - a snapshot with new values first brings the last values up to its time (moving the hold
//   row, or appending one), so a line series draws a vertical step at each change and flat
//   segments between, never a slope across the time between two snapshots;
// - at capacity (default 2,000 rows) the oldest rows are removed from the front
//   (beginRemoveRows).
// Snapshots of a scenario still being built (BackendInfo::loading) are not recorded: their clock
// jumps from step to step and what happened in between is unknown.
// Routine updates never reset the model; a reset happens only when the selected DaemonSet
// changes. Time going backwards (another scenario, a reseeded cluster) or a recreated
// DaemonSet (new uid) drops the history concerned by row removals.
//
// Besides the rows it exposes the headline (RolloutHeadline, with the progress history it
// needs), an ETA, and the chart markers (RolloutMarkerModel) for the selected DaemonSet.
//
// The headline and ETA are recomputed when their inputs change (the selected DaemonSet's
// counts, strategy, pods, revisions and record, the node list, the observation) and when the
// headline says its wording changes with time (RolloutHeadline::changesAt): then, while the
// snapshot's clock runs, a single-shot timer fires at that moment, judged at the snapshot's time
// plus the real time since it arrived (x speed). A quiet cluster wakes nothing.

#include "models/itemmodels/ageclock.h"
#include "models/planners/rolloutheadline.h"
#include "models/snapshot/snapshot.h"

#include <QAbstractTableModel>
#include <QPointer>

#include <deque>
#include <map>

namespace models {

class DaemonSetSelection;
class RolloutMarkerModel;

struct ProgressSample
{
    qint64 time = 0;
    int desired = 0;
    int updated = 0;
    int available = 0;
    int unavailable = 0;
    int budget = 0; // maxUnavailable resolved against desired
    bool sameValues(const ProgressSample &o) const
    {
        return desired == o.desired && updated == o.updated && available == o.available &&
               unavailable == o.unavailable && budget == o.budget;
    }
    bool operator==(const ProgressSample &) const = default;
};

class RolloutProgressModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_PROPERTY(QString daemonSetKey READ daemonSetKey WRITE setDaemonSetKey NOTIFY daemonSetKeyChanged)
    Q_PROPERTY(QString headline READ headlineText NOTIFY headlineChanged)
    Q_PROPERTY(QString eta READ etaText NOTIFY etaChanged)

public:
    enum Column {
        TimeColumn,    // ms since the epoch
        ElapsedColumn, // seconds since origin(), may be negative
        DesiredColumn,
        UpdatedColumn,
        AvailableColumn,
        UnavailableColumn,
        BudgetColumn,
        ColumnCount
    };
    enum Role {
        TimeRole = Qt::UserRole + 1, // qint64 ms of the row
        ValueRole,                   // int value of the cell (time column: qint64 ms)
    };
    Q_ENUM(Role)
    static constexpr int kDefaultCapacity = 2000;

    explicit RolloutProgressModel(QObject *parent = nullptr);
    ~RolloutProgressModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // DisplayRole is numeric (what QVXYModelMapper reads); ToolTipRole of the time column is
    // the time as text (UTC).
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const ProgressSample *sample(int row) const;
    int capacity() const { return m_capacity; }
    void setCapacity(int rows); // at least 2; trims the front at once

    QString daemonSetKey() const { return m_key; }
    const RolloutHeadline &headline() const { return m_headline; }
    QString headlineText() const { return m_headline.text; }
    // RolloutHeadline::estimateRemainingMs while the headline is Progressing or Slow, else -1.
    qint64 etaMs() const { return m_etaMs; }
    QString etaText() const; // "about 3m left", empty when unknown or done
    RolloutMarkerModel *markers() const { return m_markers; }
    // How many times the headline has been computed (it is not when nothing it reads changed).
    quint64 headlineComputations() const { return m_headlineComputations; }
    // Whether a wake-up for the headline's next wording change is scheduled.
    bool headlineTimerActive() const { return m_headlineClock.pending(); }

    // Axis helpers for a chart: the time span of the rows and the largest charted value (>= 1).
    qint64 firstTime() const;
    qint64 lastTime() const;
    // The time of the last step (the last row whose values differ from the row before), the
    // first row's time when nothing changed, 0 without rows.
    qint64 lastChangeTime() const;
    // The selected DaemonSet's rollout is over (Complete or Settled): a chart's time axis stops
    // a little after lastChangeTime() instead of growing with the clock.
    bool rolloutDone() const;
    int maxValue() const { return m_maxValue; }
    qint64 origin() const { return m_origin; } // ms; 0 when there are no rows
    double elapsedSeconds(qint64 time) const { return double(time - m_origin) / 1000.0; }

    // Follows selection->currentChanged (and takes its current key now). Null detaches.
    void setSelection(DaemonSetSelection *selection);

    // The sample rollingUpdate's view of `ds` gives at `now`.
    static ProgressSample sampleOf(const DaemonSetInfo &ds, qint64 now);

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setDaemonSetKey(const QString &dsKey);

Q_SIGNALS:
    void daemonSetKeyChanged(const QString &dsKey);
    void headlineChanged(const QString &text);
    void etaChanged(const QString &text);
    // firstTime(), lastTime(), maxValue(), origin() or rolloutDone() changed: chart axes follow.
    void rangeChanged();

private:
    struct Series
    {
        QString uid;
        std::deque<ProgressSample> rows;
        qint64 firstSample = 0; // time of the first sample ever recorded (not moved by trimming)
        qint64 lastChange = 0;  // time the updated or available count last changed
    };
    void record(Series &series, const ProgressSample &sample, bool shown);
    void append(Series &series, const ProgressSample &sample, bool shown);
    // Moves the last row (a hold row: same values as the one before) to `time`; false when the
    // last row is not a hold row.
    bool extendHold(Series &series, qint64 time, bool shown);
    void clearSeries(Series &series, bool shown);
    void trim(Series &series, bool shown);
    void refreshDerived(); // headline, ETA, markers, range of the shown DaemonSet
    // Recomputes the headline and ETA at `now` when their inputs changed or `now` reached the
    // headline's changesAt; then schedules the next wording change.
    void updateHeadline(qint64 now);
    Series *shown() const;

    // What the headline reads besides the time; compared by value (shared parts by pointer).
    struct HeadlineInputs
    {
        QString key;
        const void *pods = nullptr;
        const void *revisions = nullptr;
        const void *record = nullptr;
        const void *nodes = nullptr;
        DaemonSetCounts counts;
        qint64 generation = 0;
        qint64 observedGeneration = 0;
        bool paused = false;
        QString strategy; // type, maxUnavailable, maxSurge, minReadySeconds
        QString currentRevisionHash;
        qint64 currentRevisionNumber = 0;
        qint64 lastProgress = 0;
        std::map<QString, qint64> deletingSince;
        bool operator==(const HeadlineInputs &) const = default;
    };
    HeadlineInputs headlineInputs() const;

    int m_capacity = kDefaultCapacity;
    QString m_key;
    std::map<QString, Series> m_series;
    std::shared_ptr<const ClusterSnapshot> m_snapshot;
    qint64 m_lastNow = 0;
    RolloutObservation m_observation; // for the shown DaemonSet
    const void *m_observedPods = nullptr;
    RolloutHeadline m_headline;
    HeadlineInputs m_headlineInputs;
    bool m_headlineValid = false;
    quint64 m_headlineComputations = 0;
    AgeClock m_headlineClock; // the time between snapshots; wakes at the headline's changesAt
    qint64 m_etaMs = -1;
    int m_maxValue = 1;
    qint64 m_rangeFirst = 0;
    qint64 m_rangeLast = 0;
    bool m_rangeDone = false;
    qint64 m_origin = 0;
    RolloutMarkerModel *m_markers = nullptr;
    QPointer<DaemonSetSelection> m_selection;
    QMetaObject::Connection m_selectionConnection;
};

} // namespace models
