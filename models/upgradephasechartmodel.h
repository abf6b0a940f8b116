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
// the chart's work grows with its points. At capacity the oldest rows are removed from the
// front. Routine updates never reset; switching rollouts does, as does time going backwards
// (another cluster).

#include "models/snapshot.h"

#include <QAbstractTableModel>

#include <array>
#include <deque>

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
    static constexpr int kDefaultCapacity = 2000;

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
    };

    explicit UpgradePhaseChartModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // DisplayRole is numeric (what QVXYModelMapper reads).
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString bandName(Band band); // translated
    static Row rowOf(const UpgradeSample &sample);

    const Row *row(int index) const;
    QString rollout() const { return m_rollout; }
    int capacity() const { return m_capacity; }
    void setCapacity(int rows); // at least 4

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
    void trim();

    int m_capacity = kDefaultCapacity;
    QString m_rollout;
    // Only the upgrade part of the last snapshot is kept, not the whole cluster state: a model
    // that is fed rarely (a hidden tab) must not pin an old snapshot, and the snapshot's owner
    // decides on which thread it is freed.
    std::shared_ptr<const UpgradeRolloutList> m_upgrades;
    const void *m_samplesSeen = nullptr;
    std::deque<Row> m_rows;
    qint64 m_lastSampleTime = -1;
    qint64 m_origin = 0;
    int m_maxValue = 1;
};

} // namespace models
