#pragma once
// UpgradePhaseChartModel — one node-agent upgrade rollout over time, as a table a chart maps with
// QVXYModelMapper: per row the time (virtual ms), the seconds since the rollout started, the
// nodes in each band of the stacked phase chart (bottom to top: done, soaking, restarting,
// draining, pending, failed, skipped), the cumulative top of each band (what an area series'
// upper line maps), the unavailable count, the maxUnavailable budget and the lowest ready ratio
// of the affected controllers in percent (100 when no controller is affected).
//
// The snapshot carries only the engine's most recent samples; this model keeps the longer
// history. Per change of values it appends two rows — the new values and a "tail" row that
// moves forward (dataChanged on its time columns) while the values stay the same — so the
// series draw flat segments with a step at each change. A tail that never moved (the values
// changed again at the next sample) duplicates its change row and becomes the next change row
// instead, so a rollout that changes at every controller pass costs one row per pass, not two:
// the chart's work grows with its points.
//
// Decision (history at capacity): the model shows the whole rollout, from its first sample,
// in at most capacity() rows, instead of a window that dropped its oldest row for every new
// one. Samples are gathered into buckets of bucketMs() of virtual time, aligned to origin(): 0
// (every sample is its own bucket) until the rows no longer fit, then 1 s, doubled as often as
// needed to bring the history down to half the capacity. A bucket shows the phase counts and
// the budget of its last sample, at that sample's time (the stacked bands stay a true sample:
// they still add up to the nodes, and the newest point is the newest sample), with the most
// nodes unavailable and the lowest ready ratio seen in it (a short budget breach or ready dip
// is never averaged away). The rollout's first sample stays a bucket of its own. Two buckets of
// one width merge exactly into one of twice the width, so the coarser history is computed from
// the buckets kept, not from samples. Why: Qt Charts lays every point of a series out again on
// any change (a replaced point list, an appended point, a moved axis alike), so what a
// snapshot costs on the GUI thread grows with the points shown, and painting them too; the
// window of 2,000 rows was more points than a chart has pixels. Re-bucketing happens once per
// doubling (a handful of times in a long rollout); otherwise rows are only appended or the last
// ones updated. The default capacity is about one point per pixel of a full-width chart.
// Routine updates never reset; switching rollouts does, as does time going backwards (another
// cluster).

#include "models/snapshot/snapshot.h"

#include <QAbstractTableModel>

#include <array>
#include <vector>

namespace models {

class UpgradePhaseChartModel : public QAbstractTableModel
{
    Q_OBJECT
    Q_PROPERTY(QString rollout READ rollout WRITE setRollout NOTIFY rolloutChanged)

public:
    enum Band {
        DoneBand,
        SoakingBand,
        RestartingBand,
        DrainingBand,
        PendingBand,
        FailedBand,
        SkippedBand,
        BandCount
    };
    Q_ENUM(Band)
    enum Column {
        TimeColumn,                                   // ms since the epoch
        ElapsedColumn,                                // seconds since origin()
        FirstBandColumn,                              // nodes in band 0 .. BandCount-1
        FirstTopColumn = FirstBandColumn + BandCount, // cumulative top of band 0 .. BandCount-1
        UnavailableColumn = FirstTopColumn + BandCount,
        BudgetColumn,
        MinReadyPercentColumn,
        ColumnCount
    };
    // About one point per pixel of a full-width chart (each point costs layout and painting).
    static constexpr int kDefaultCapacity = 1000;
    static constexpr qint64 kFirstBucketMs = 1000; // the width the first re-bucketing tries

    struct Row
    {
        qint64 time = 0;
        std::array<int, BandCount> bands{};
        int unavailable = 0;
        int budget = 0;
        double minReadyPercent = 100;
        bool sameValues(const Row &o) const
        {
            return bands == o.bands && unavailable == o.unavailable && budget == o.budget &&
                   minReadyPercent == o.minReadyPercent;
        }
        bool operator==(const Row &o) const { return time == o.time && sameValues(o); }
    };

    explicit UpgradePhaseChartModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // DisplayRole is numeric (what QVXYModelMapper reads).
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString bandName(Band band); // translated
    static Row rowOf(const UpgradeSample &sample);
    // `later` folded into the bucket `earlier`: the values and time of the later one, the most
    // unavailable and the lowest ready ratio of both.
    static Row merged(const Row &earlier, const Row &later);
    // The chart rows (change and tail rows) of a list of buckets.
    static std::vector<Row> stepRows(const std::vector<Row> &buckets);

    const Row *row(int index) const;
    QString rollout() const { return m_rollout; }
    int capacity() const { return m_capacity; }
    void setCapacity(int rows);                    // at least 4
    qint64 bucketMs() const { return m_bucketMs; } // 0 while every sample is its own bucket

    qint64 origin() const { return m_origin; }
    double elapsedSeconds(qint64 time) const { return double(time - m_origin) / 1000.0; }
    qint64 firstTime() const { return m_rows.empty() ? 0 : m_rows.front().time; }
    qint64 lastTime() const { return m_rows.empty() ? 0 : m_rows.back().time; }
    int maxValue() const { return m_maxValue; } // largest stacked total or budget, >= 1

public Q_SLOTS:
    void setSnapshot(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void setRollout(const QString &name);

Q_SIGNALS:
    void rolloutChanged(const QString &name);
    void rangeChanged(); // firstTime, lastTime, maxValue or origin changed

private:
    void clear();
    void append(const std::vector<UpgradeSample> &samples);
    void addBucket(const Row &row);
    qint64 bucketOf(qint64 time) const;
    // Whether `rows` chart rows and the buckets kept fit `capacity` (buckets: twice that, so a
    // long flat stretch, few rows but many samples, is bounded too).
    bool fits(std::size_t rows, int capacity) const;
    void coarsen(); // doubles the bucket width until the history fits in half the capacity
    void show(std::vector<Row> next);

    int m_capacity = kDefaultCapacity;
    QString m_rollout;
    // Only the upgrade part of the last snapshot is kept, not the whole cluster state: a model
    // that is fed rarely (a hidden tab) must not pin an old snapshot, and the snapshot's owner
    // decides on which thread it is freed.
    std::shared_ptr<const UpgradeRolloutList> m_upgrades;
    const void *m_samplesSeen = nullptr;
    std::vector<Row> m_buckets; // the history at m_bucketMs; the first sample is a bucket of its own
    qint64 m_bucketMs = 0;
    std::vector<Row> m_rows; // stepRows(m_buckets)
    qint64 m_lastSampleTime = -1;
    qint64 m_origin = 0;
    int m_maxValue = 1;
};

} // namespace models
