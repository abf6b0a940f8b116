// The node-upgrade page's models on hand-built snapshots, each under QAbstractItemModelTester:
// the per-node table (keyed, incremental, per-node actions by phase), the phase chart (bands,
// step rows, tail row, coarser buckets at capacity), the event list (deduplicated, most recent first) and the
// pre-flight report (zones, order, single-replica controllers, unmanaged pods per policy).

#include "models/embedded/snapshotbuilder.h"
#include "models/itemmodels/upgradeeventlistmodel.h"
#include "models/itemmodels/upgradenodetablemodel.h"
#include "models/itemmodels/upgradephasechartmodel.h"
#include "models/itemmodels/upgraderolloutlistmodel.h"
#include "models/liveupgrade/observedupgrade.h"
#include "models/planners/upgradepreflight.h"
#include "models/snapshot/upgradeassembler.h"

#include "models/scenario/scenariorunner.h"
#include "models/sim/nodeupgraderuntime.h"

#include <QFile>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using models::ClusterSnapshot;
using models::UpgradeNodePhase;
using models::UpgradeNodeRow;
using models::UpgradeRolloutInfo;
using models::UpgradeSample;

namespace {

constexpr qint64 kNow = 1'780'000'000'000;

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out << QString::fromLatin1(s);
    return out;
}

UpgradeNodeRow nodeRow(const char *name, UpgradeNodePhase phase, qint64 since = kNow - 60000)
{
    UpgradeNodeRow r;
    r.name = QString::fromLatin1(name);
    r.zone = QStringLiteral("zone-a");
    r.phase = phase;
    r.phaseSince = since;
    return r;
}

UpgradeSample sample(qint64 t, int pending, int draining, int upgraded, int budget = 1)
{
    UpgradeSample s;
    s.time = t;
    s.phases[std::size_t(UpgradeNodePhase::Pending)] = pending;
    s.phases[std::size_t(UpgradeNodePhase::DrainingManaged)] = draining;
    s.phases[std::size_t(UpgradeNodePhase::Upgraded)] = upgraded;
    s.unavailable = draining;
    s.maxUnavailable = budget;
    return s;
}

// A snapshot with one rollout "r" holding these rows, samples and events.
std::shared_ptr<const ClusterSnapshot> snapshot(qint64 now, std::vector<UpgradeNodeRow> rows,
                                                std::vector<UpgradeSample> samples = {},
                                                std::vector<models::UpgradeEventInfo> events = {})
{
    auto snap = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty());
    snap->clock.now = now;
    UpgradeRolloutInfo info;
    info.name = QStringLiteral("r");
    info.phase = models::UpgradeRolloutPhase::Progressing;
    info.startedAt = kNow - 600000;
    info.nodes = std::make_shared<const std::vector<UpgradeNodeRow>>(std::move(rows));
    info.samples = std::make_shared<const std::vector<UpgradeSample>>(std::move(samples));
    info.events = std::make_shared<const std::vector<models::UpgradeEventInfo>>(std::move(events));
    info.preview = std::make_shared<const models::UpgradePreviewInfo>();
    snap->upgrades = std::make_shared<const models::UpgradeRolloutList>(models::UpgradeRolloutList{info});
    return snap;
}

models::NodeInfo node(const char *name, const char *zone, const char *version, bool cordoned = false)
{
    models::NodeInfo n;
    n.name = QString::fromLatin1(name);
    n.zone = QString::fromLatin1(zone);
    n.labels[QStringLiteral("topology.kubernetes.io/zone")] = n.zone;
    n.labels[QStringLiteral("pool")] = QStringLiteral("a");
    n.agentVersion = QString::fromLatin1(version);
    n.ready = true;
    n.unschedulable = cordoned;
    return n;
}

using ChartRow = models::UpgradePhaseChartModel::Row;

// What the chart model should show for `samples` in buckets of `width` ms aligned to `origin`,
// computed straight from the samples (the model gets there by doubling its width step by step).
std::vector<ChartRow> bucketedRows(const std::vector<UpgradeSample> &samples, qint64 origin, qint64 width)
{
    using M = models::UpgradePhaseChartModel;
    auto key = [&](qint64 t) {
        const qint64 d = t - origin;
        return d >= 0 ? d / width : -((-d + width - 1) / width);
    };
    std::vector<ChartRow> buckets;
    for (const UpgradeSample &s : samples) {
        const ChartRow r = M::rowOf(s);
        if (buckets.size() > 1 && key(buckets.back().time) == key(r.time))
            buckets.back() = M::merged(buckets.back(), r);
        else
            buckets.push_back(r); // the first sample is a bucket of its own
    }
    return M::stepRows(buckets);
}

std::vector<ChartRow> modelRows(const models::UpgradePhaseChartModel &model)
{
    std::vector<ChartRow> rows;
    for (int i = 0; i < model.rowCount(); ++i)
        rows.push_back(*model.row(i));
    return rows;
}

} // namespace

class TestUpgradeModels : public QObject
{
    Q_OBJECT

private slots:
    void nodeActionsFollowThePhase_data();
    void nodeActionsFollowThePhase();
    void nodeTableUpdatesByKeyWithoutReset();
    void nodeTableAnnouncesOnlyTheChangedRows_data();
    void nodeTableAnnouncesOnlyTheChangedRows();
    void chartBandsStackThePhases();
    void chartAppendsStepRowsAndMovesTheTail();
    void chartStepRowsFromBuckets_data();
    void chartStepRowsFromBuckets();
    void chartBucketKeepsTheWorstOfItsSamples();
    void chartKeepsTheWholeRolloutInCoarserBuckets();
    void chartAppendsBetweenRebucketings();
    void eventsAreMostRecentFirstAndCountedInPlace();
    void rolloutListShowsAPhaseBadge_data();
    void rolloutListShowsAPhaseBadge();
    void preflightReportsZonesOrderAndPolicies_data();
    void preflightReportsZonesOrderAndPolicies();
    void preflightNamesPodsWithLocalData_data();
    void preflightNamesPodsWithLocalData();
    void inventoryIsTheSameFromBothSources();
    void preflightSaysWhenNoNodeCanStart_data();
    void preflightSaysWhenNoNodeCanStart();
    void observedUpgradeFollowsTheNodes();
    void embeddedSnapshotsCarryTheObservedUpgrade();
    void embeddedSnapshotsKeepAFaultWhenItsNodeIsWritten();
};

void TestUpgradeModels::nodeActionsFollowThePhase_data()
{
    QTest::addColumn<int>("phase");
    QTest::addColumn<bool>("held");
    QTest::addColumn<QStringList>("actions");
    QTest::newRow("a pending node can be held or skipped")
        << int(UpgradeNodePhase::Pending) << false << names({"hold", "skip"});
    QTest::newRow("a held pending node can be released or skipped")
        << int(UpgradeNodePhase::Pending) << true << names({"release", "skip"});
    QTest::newRow("a draining node can be held, skipped or forced")
        << int(UpgradeNodePhase::DrainingManaged) << false << names({"hold", "skip", "force"});
    QTest::newRow("a failed node can be skipped or retried")
        << int(UpgradeNodePhase::Failed) << false << names({"skip", "retry"});
    QTest::newRow("a restarting node is past the point of no return")
        << int(UpgradeNodePhase::Restarting) << false << names({});
    QTest::newRow("an upgraded node has nothing left to do")
        << int(UpgradeNodePhase::Upgraded) << false << names({});
}

void TestUpgradeModels::nodeActionsFollowThePhase()
{
    QFETCH(int, phase);
    QFETCH(bool, held);
    QFETCH(QStringList, actions);
    UpgradeNodeRow row = nodeRow("n", UpgradeNodePhase(phase));
    row.held = held;
    QCOMPARE(models::UpgradeNodeTableModel::availableActions(row), actions);
}

void TestUpgradeModels::nodeTableUpdatesByKeyWithoutReset()
{
    models::UpgradeNodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(
        snapshot(kNow, {nodeRow("a", UpgradeNodePhase::Pending), nodeRow("b", UpgradeNodePhase::Pending)}));
    model.setRollout(QStringLiteral("r"));
    QCOMPARE(model.rowCount(), 2);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    model.setSnapshot(snapshot(kNow + 5000, {nodeRow("a", UpgradeNodePhase::Cordoned, kNow + 1000),
                                             nodeRow("b", UpgradeNodePhase::Pending),
                                             nodeRow("c", UpgradeNodePhase::Pending)}));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QVERIFY(changed.count() >= 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, models::UpgradeNodeTableModel::PhaseColumn).data().toString(),
             QStringLiteral("Cordoned"));
    QCOMPARE(model.index(0, models::UpgradeNodeTableModel::TimeInPhaseColumn).data().toString(),
             QStringLiteral("4s"));
    QCOMPARE(model.index(0, 0).data(models::UpgradeNodeTableModel::ActionsRole).toStringList(),
             (names({"hold", "skip", "force"})));
}

void TestUpgradeModels::nodeTableAnnouncesOnlyTheChangedRows_data()
{
    QTest::addColumn<QStringList>("next");      // node names of the second snapshot
    QTest::addColumn<QList<int>>("changed");    // rows of `next` whose content changes
    QTest::addColumn<QStringList>("announced"); // dataChanged ranges, "first-last"
    const QStringList all = names({"a", "b", "c", "d", "e", "f", "g", "h"});
    QTest::newRow("an unchanged snapshot announces nothing") << all << QList<int>{} << names({});
    QTest::newRow("one changed row is announced alone") << all << QList<int>{3} << names({"3-3"});
    QTest::newRow("adjacent changed rows are announced together")
        << all << QList<int>{1, 2, 5} << names({"1-2", "5-5"});
    QTest::newRow("every row changed is one announcement")
        << all << QList<int>{0, 1, 2, 3, 4, 5, 6, 7} << names({"0-7"});
    QTest::newRow("after a removal the changed rows are announced where they now are")
        << names({"a", "b", "d", "e", "f", "g", "h"}) << QList<int>{2, 3, 6} << names({"2-3", "6-6"});
}

void TestUpgradeModels::nodeTableAnnouncesOnlyTheChangedRows()
{
    QFETCH(QStringList, next);
    QFETCH(QList<int>, changed);
    QFETCH(QStringList, announced);
    auto rows = [](const QStringList &names, const QList<int> &changedRows) {
        std::vector<UpgradeNodeRow> out;
        for (int i = 0; i < names.size(); ++i) {
            UpgradeNodeRow row = nodeRow(names[i].toLatin1().constData(), UpgradeNodePhase::Pending);
            if (changedRows.contains(i))
                row.reason = QStringLiteral("waiting for zone-a");
            out.push_back(row);
        }
        return out;
    };
    models::UpgradeNodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot(kNow, rows(names({"a", "b", "c", "d", "e", "f", "g", "h"}), {})));
    model.setRollout(QStringLiteral("r"));
    QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
    model.setSnapshot(snapshot(kNow, rows(next, changed)));
    QStringList ranges;
    for (const auto &args : spy) {
        const auto topLeft = args.at(0).toModelIndex();
        const auto bottomRight = args.at(1).toModelIndex();
        QCOMPARE(topLeft.column(), 0);
        QCOMPARE(bottomRight.column(), model.columnCount() - 1);
        ranges << QStringLiteral("%1-%2").arg(topLeft.row()).arg(bottomRight.row());
    }
    QCOMPARE(ranges, announced);
    QCOMPARE(model.rowCount(), int(next.size()));
    for (int i = 0; i < next.size(); ++i) {
        QCOMPARE(model.rowAt(i)->name, next[i]);
        QCOMPARE(model.rowAt(i)->reason.isEmpty(), !changed.contains(i));
    }
}

void TestUpgradeModels::chartBandsStackThePhases()
{
    UpgradeSample s = sample(kNow, 5, 1, 3, 2);
    s.phases[std::size_t(UpgradeNodePhase::UpToDate)] = 2;
    s.phases[std::size_t(UpgradeNodePhase::Failed)] = 1;
    s.minReadyRatio = 0.8;
    const auto row = models::UpgradePhaseChartModel::rowOf(s);
    QCOMPARE(row.bands[models::UpgradePhaseChartModel::DoneBand], 5);
    QCOMPARE(row.bands[models::UpgradePhaseChartModel::DrainingBand], 1);
    QCOMPARE(row.bands[models::UpgradePhaseChartModel::PendingBand], 5);
    QCOMPARE(row.bands[models::UpgradePhaseChartModel::FailedBand], 1);
    QCOMPARE(row.budget, 2);
    QCOMPARE(row.minReadyPercent, 80.0);

    models::UpgradePhaseChartModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot(kNow, {}, {s}));
    model.setRollout(QStringLiteral("r"));
    QCOMPARE(model.rowCount(), 2);
    using M = models::UpgradePhaseChartModel;
    auto top = [&](int band) { return model.index(0, M::FirstTopColumn + band).data().toDouble(); };
    QCOMPARE(top(M::DoneBand), 5.0);
    QCOMPARE(top(M::DrainingBand), 6.0); // done + soaking 0 + restarting 0 + draining 1
    QCOMPARE(top(M::PendingBand), 11.0);
    QCOMPARE(top(M::SkippedBand), 12.0);
    QCOMPARE(model.index(0, M::ElapsedColumn).data().toDouble(), 600.0);
}

void TestUpgradeModels::chartAppendsStepRowsAndMovesTheTail()
{
    models::UpgradePhaseChartModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRollout(QStringLiteral("r"));
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    model.setSnapshot(snapshot(kNow, {}, {sample(kNow, 3, 0, 0), sample(kNow + 1000, 3, 0, 0)}));
    QCOMPARE(model.rowCount(), 2); // change + tail
    QCOMPARE(model.lastTime(), kNow + 1000);
    // Same values later: only the tail moves.
    model.setSnapshot(snapshot(kNow, {}, {sample(kNow + 1000, 3, 0, 0), sample(kNow + 2000, 3, 0, 0)}));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.lastTime(), kNow + 2000);
    // A change: the tail stays as the hold point, a new change and tail follow.
    model.setSnapshot(snapshot(kNow, {}, {sample(kNow + 3000, 2, 1, 0)}));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.row(1)->time, kNow + 2000);
    QCOMPARE(model.row(2)->time, kNow + 3000);
    QCOMPARE(model.row(2)->bands[models::UpgradePhaseChartModel::DrainingBand], 1);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(model.maxValue(), 3);
    // Changes at consecutive samples: the tail that never moved becomes the next change, so the
    // line keeps its shape with one row per sample.
    model.setSnapshot(snapshot(kNow, {}, {sample(kNow + 4000, 1, 2, 0), sample(kNow + 5000, 1, 1, 1)}));
    QCOMPARE(model.rowCount(), 6);
    const qint64 times[] = {kNow, kNow + 2000, kNow + 3000, kNow + 4000, kNow + 5000, kNow + 5000};
    const int draining[] = {0, 0, 1, 2, 1, 1};
    for (int i = 0; i < model.rowCount(); ++i) {
        QCOMPARE(model.row(i)->time, times[i]);
        QCOMPARE(model.row(i)->bands[models::UpgradePhaseChartModel::DrainingBand], draining[i]);
    }
    QCOMPARE(resets.count(), 0);
}

void TestUpgradeModels::chartStepRowsFromBuckets_data()
{
    // A bucket is (time, nodes done); a chart row likewise.
    QTest::addColumn<QList<QPoint>>("buckets");
    QTest::addColumn<QList<QPoint>>("rows");
    QTest::newRow("one bucket is a change and its tail")
        << QList<QPoint>{{0, 1}} << QList<QPoint>{{0, 1}, {0, 1}};
    QTest::newRow("equal buckets move the tail forward")
        << QList<QPoint>{{0, 1}, {1, 1}, {2, 1}} << QList<QPoint>{{0, 1}, {2, 1}};
    QTest::newRow("a change after a hold keeps the hold point")
        << QList<QPoint>{{0, 1}, {1, 1}, {2, 2}} << QList<QPoint>{{0, 1}, {1, 1}, {2, 2}, {2, 2}};
    QTest::newRow("a change at every bucket costs one row per bucket")
        << QList<QPoint>{{0, 1}, {1, 2}, {2, 3}} << QList<QPoint>{{0, 1}, {1, 2}, {2, 3}, {2, 3}};
}

void TestUpgradeModels::chartStepRowsFromBuckets()
{
    QFETCH(QList<QPoint>, buckets);
    QFETCH(QList<QPoint>, rows);
    std::vector<ChartRow> in;
    for (const QPoint &b : buckets) {
        ChartRow r;
        r.time = b.x();
        r.bands[models::UpgradePhaseChartModel::DoneBand] = b.y();
        in.push_back(r);
    }
    QList<QPoint> out;
    for (const ChartRow &r : models::UpgradePhaseChartModel::stepRows(in))
        out << QPoint(int(r.time), r.bands[models::UpgradePhaseChartModel::DoneBand]);
    QCOMPARE(out, rows);
}

void TestUpgradeModels::chartBucketKeepsTheWorstOfItsSamples()
{
    using M = models::UpgradePhaseChartModel;
    UpgradeSample breach = sample(kNow, 6, 3, 1, 2); // 3 unavailable of a budget of 2
    breach.minReadyRatio = 0.5;
    UpgradeSample later = sample(kNow + 1000, 5, 1, 4, 3);
    later.minReadyRatio = 0.9;
    const M::Row r = M::merged(M::rowOf(breach), M::rowOf(later));
    QCOMPARE(r.time, kNow + 1000);            // where the later sample is
    QCOMPARE(r.bands, M::rowOf(later).bands); // the phase counts of the later sample
    QCOMPARE(r.budget, 3);
    QCOMPARE(r.unavailable, 3);        // the breach is not averaged away
    QCOMPARE(r.minReadyPercent, 50.0); // nor the dip
    // The other way round: the later sample's worst values are kept too.
    const M::Row back = M::merged(M::rowOf(later), M::rowOf(breach));
    QCOMPARE(back.unavailable, 3);
    QCOMPARE(back.minReadyPercent, 50.0);
    QCOMPARE(back.bands, M::rowOf(breach).bands);
}

void TestUpgradeModels::chartKeepsTheWholeRolloutInCoarserBuckets()
{
    using M = models::UpgradePhaseChartModel;
    M model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRollout(QStringLiteral("r"));
    model.setCapacity(6);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    std::vector<UpgradeSample> samples;
    for (int i = 0; i < 10; ++i) {
        samples.push_back(sample(kNow + i * 1000, 10 - i - i % 2, i % 2, i)); // a node drains every other
        samples.back().minReadyRatio = i == 3 ? 0.25 : 1.0;                   // one dip, at 3 s
    }
    model.setSnapshot(snapshot(kNow, {}, samples));
    QCOMPARE(resets.count(), 0);
    QVERIFY(model.bucketMs() > 0);
    QVERIFY2(model.rowCount() >= 2 && model.rowCount() <= 6, qPrintable(QString::number(model.rowCount())));
    // The whole rollout, from its first sample to its last, not the last six rows.
    QCOMPARE(model.firstTime(), kNow);
    QCOMPARE(model.row(0)->bands[M::PendingBand], 10);
    QCOMPARE(model.lastTime(), kNow + 9000);
    QCOMPARE(model.row(model.rowCount() - 1)->bands[M::DoneBand], 9);
    bool dipShown = false;
    bool drainShown = false;
    for (int i = 0; i < model.rowCount(); ++i) {
        const M::Row *r = model.row(i);
        int nodes = 0;
        for (int b : r->bands)
            nodes += b;
        QCOMPARE(nodes, 10); // the bands are a true sample: they still stack up to the nodes
        if (i > 0)
            QVERIFY(model.row(i - 1)->time <= r->time);
        dipShown = dipShown || r->minReadyPercent == 25.0;
        drainShown = drainShown || r->unavailable == 1;
    }
    QVERIFY(dipShown);
    QVERIFY(drainShown);
    // Coarsening step by step is exact: the same rows as bucketing the samples at the final width.
    QVERIFY(modelRows(model) == bucketedRows(samples, model.origin(), model.bucketMs()));
}

void TestUpgradeModels::chartAppendsBetweenRebucketings()
{
    // A long rollout fed like the engine feeds it: the most recent samples with every snapshot,
    // values changing at every controller pass. At capacity the chart re-buckets a few times;
    // between those it appends rows and touches only the last bucket's two rows (its change and
    // tail): no sliding window, which would remove the first rows at every snapshot once full.
    using M = models::UpgradePhaseChartModel;
    M model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRollout(QStringLiteral("r"));
    QCOMPARE(model.capacity(), int(M::kDefaultCapacity));
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    constexpr int kSamples = 20000;
    constexpr int kPerSnapshot = 25;
    std::vector<UpgradeSample> samples;
    int rebucketings = 0;
    int snapshotsThatTouchedOlderRows = 0;
    for (int i = 0; i < kSamples; ++i) {
        samples.push_back(sample(kNow + i * 2000, 1000 - i / 20, i % 3, i / 20, 5));
        if ((i + 1) % kPerSnapshot != 0)
            continue;
        const int rowsBefore = model.rowCount();
        const qint64 widthBefore = model.bucketMs();
        removed.clear();
        changed.clear();
        const auto from = samples.end() - std::min<std::ptrdiff_t>(40, std::ptrdiff_t(samples.size()));
        model.setSnapshot(snapshot(kNow, {}, std::vector<UpgradeSample>(from, samples.end())));
        QVERIFY(model.rowCount() <= M::kDefaultCapacity);
        QCOMPARE(model.firstTime(), kNow);
        QCOMPARE(model.lastTime(), samples.back().time);
        if (model.bucketMs() != widthBefore) {
            QVERIFY(model.bucketMs() > widthBefore);
            ++rebucketings;
            continue;
        }
        int lowest = rowsBefore;
        for (const QList<QVariant> &args : std::as_const(changed))
            lowest = std::min(lowest, args.at(0).value<QModelIndex>().row());
        for (const QList<QVariant> &args : std::as_const(removed))
            lowest = std::min(lowest, args.at(1).toInt());
        if (lowest < rowsBefore - 2)
            ++snapshotsThatTouchedOlderRows;
    }
    QCOMPARE(resets.count(), 0);
    QVERIFY2(rebucketings >= 2 && rebucketings <= 8, qPrintable(QString::number(rebucketings)));
    QCOMPARE(snapshotsThatTouchedOlderRows, 0);
    QVERIFY(model.rowCount() >= M::kDefaultCapacity / 4);
    QVERIFY(modelRows(model) == bucketedRows(samples, model.origin(), model.bucketMs()));
}

void TestUpgradeModels::eventsAreMostRecentFirstAndCountedInPlace()
{
    using models::UpgradeEventInfo;
    const UpgradeEventInfo selected{QStringLiteral("node/a"),
                                    QStringLiteral("Normal"),
                                    QStringLiteral("NodeSelected"),
                                    QStringLiteral("selected"),
                                    1,
                                    kNow,
                                    kNow};
    UpgradeEventInfo stalled{QStringLiteral("node/a"),
                             QStringLiteral("Warning"),
                             QStringLiteral("DrainStalled"),
                             QStringLiteral("stalled"),
                             1,
                             kNow + 1000,
                             kNow + 1000};
    models::UpgradeEventListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snapshot(kNow, {}, {}, {stalled, selected}));
    model.setRollout(QStringLiteral("r"));
    QCOMPARE(model.rowCount(), 2);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    stalled.count = 7;
    stalled.lastTime = kNow + 60000;
    model.setSnapshot(snapshot(kNow, {}, {}, {stalled, selected}));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(model.index(0, models::UpgradeEventListModel::CountColumn).data().toInt(), 7);
    QCOMPARE(model.index(0, 0).data(models::UpgradeEventListModel::WarningRole).toBool(), true);
}

void TestUpgradeModels::rolloutListShowsAPhaseBadge_data()
{
    QTest::addColumn<int>("phase");
    QTest::addColumn<int>("badge");
    QTest::newRow("a progressing rollout is running")
        << int(models::UpgradeRolloutPhase::Progressing) << int(models::UpgradeRolloutListModel::Running);
    QTest::newRow("a halted rollout shows halted")
        << int(models::UpgradeRolloutPhase::Halted) << int(models::UpgradeRolloutListModel::Halted);
    QTest::newRow("completed with exceptions is done")
        << int(models::UpgradeRolloutPhase::CompletedWithExceptions)
        << int(models::UpgradeRolloutListModel::Done);
}

void TestUpgradeModels::rolloutListShowsAPhaseBadge()
{
    QFETCH(int, phase);
    QFETCH(int, badge);
    auto snap = std::make_shared<ClusterSnapshot>(*snapshot(kNow, {}));
    auto list = *snap->upgrades;
    list[0].phase = static_cast<models::UpgradeRolloutPhase>(phase);
    snap->upgrades = std::make_shared<const models::UpgradeRolloutList>(list);
    models::UpgradeRolloutListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(snap);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, models::UpgradeRolloutListModel::PhaseColumn)
                 .data(models::UpgradeRolloutListModel::BadgeRole)
                 .toInt(),
             badge);
    QVERIFY(!model.index(0, models::UpgradeRolloutListModel::NameColumn)
                 .data(models::UpgradeRolloutListModel::BadgeRole)
                 .isValid());
}

void TestUpgradeModels::preflightReportsZonesOrderAndPolicies_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("singleReplica");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unmanaged pods after a timeout show the countdown")
        << QStringLiteral("afterTimeout") << QStringLiteral("Allow")
        << QStringLiteral("deleted 1h0m0s after marking");
    QTest::newRow("unmanaged pods with Never wait for the admin")
        << QStringLiteral("never") << QStringLiteral("Allow") << QStringLiteral("waits for you");
    QTest::newRow("unmanaged pods with Immediate go after the managed ones")
        << QStringLiteral("immediate") << QStringLiteral("Allow")
        << QStringLiteral("once the managed pods are gone");
    QTest::newRow("a blocked single-replica controller is named")
        << QStringLiteral("immediate") << QStringLiteral("Block")
        << QStringLiteral("replicaset/default/db on a-1 (blocks");
}

void TestUpgradeModels::preflightReportsZonesOrderAndPolicies()
{
    QFETCH(QString, policy);
    QFETCH(QString, singleReplica);
    QFETCH(QString, expected);
    auto snap = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty());
    snap->clock.now = kNow;
    snap->nodes = std::make_shared<const std::vector<models::NodeInfo>>(
        std::vector<models::NodeInfo>{node("a-0", "zone-a", "v1"), node("a-1", "zone-a", "v1"),
                                      node("a-2", "zone-a", "v2"), node("b-0", "zone-b", "v1", true)});
    models::UpgradeInventory inv(4);
    inv[0].node = QStringLiteral("a-0");
    inv[0].managedPods = 3;
    inv[1].node = QStringLiteral("a-1");
    inv[1].managedPods = 1;
    inv[1].singleReplicaOwners << QStringLiteral("replicaset/default/db");
    inv[1].unmanagedPods << QStringLiteral("default/debug");
    inv[2].node = QStringLiteral("a-2");
    inv[3].node = QStringLiteral("b-0");
    snap->upgradeInventory = std::make_shared<const models::UpgradeInventory>(inv);

    kube::Json spec = {{"targetVersion", "v2"},
                       {"singleReplicaPolicy", singleReplica.toStdString()},
                       {"maxUnavailable", "50%"}};
    spec["unmanagedPodPolicy"] = policy == QLatin1String("afterTimeout") ? kube::Json{{"afterTimeout", "1h"}}
                                                                         : kube::Json(policy.toStdString());
    const auto parsed = api::NodeUpgradeRolloutSpec::fromJson(spec);
    QVERIFY(parsed.ok());
    const auto report = models::UpgradePreflight::compute(*snap, *parsed);
    QCOMPARE(report.matched, 4);
    QCOMPARE(report.incompatible, 3);
    QCOMPARE(report.perZone.size(), std::size_t(2));
    QCOMPARE(report.perZone[0].second, 2);
    QCOMPARE(report.order, (names({"a-1", "a-0", "b-0"}))); // fewest managed pods first, zone a first
    QCOMPARE(report.budget, 2);
    QCOMPARE(report.cordonedElsewhere, names({"b-0"}));
    QVERIFY2(report.text().contains(expected), qPrintable(report.text()));
}

void TestUpgradeModels::preflightNamesPodsWithLocalData_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("expected");
    QTest::newRow("Block") << QStringLiteral("Block")
                           << QStringLiteral("a-1: default/cache-1 — the node waits (localDataPolicy Block)");
    QTest::newRow("Delete") << QStringLiteral("Delete")
                            << QStringLiteral("a-1: default/cache-1 — evicted, their emptyDir data is lost "
                                              "(localDataPolicy Delete)");
}

void TestUpgradeModels::preflightNamesPodsWithLocalData()
{
    QFETCH(QString, policy);
    QFETCH(QString, expected);
    auto snap = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty());
    snap->clock.now = kNow;
    snap->nodes = std::make_shared<const std::vector<models::NodeInfo>>(
        std::vector<models::NodeInfo>{node("a-0", "zone-a", "v1"), node("a-1", "zone-a", "v1")});
    models::UpgradeInventory inv(2);
    inv[0].node = QStringLiteral("a-0");
    inv[1].node = QStringLiteral("a-1");
    inv[1].managedPods = 1;
    inv[1].localDataPods << QStringLiteral("default/cache-1");
    snap->upgradeInventory = std::make_shared<const models::UpgradeInventory>(inv);
    const auto parsed = api::NodeUpgradeRolloutSpec::fromJson(
        kube::Json{{"targetVersion", "v2"}, {"localDataPolicy", policy.toStdString()}});
    QVERIFY(parsed.ok());
    const auto report = models::UpgradePreflight::compute(*snap, *parsed);
    QCOMPARE(report.localData, QStringList{expected});
    QVERIFY2(report.text().contains(QStringLiteral("Pods with emptyDir data:\n")), qPrintable(report.text()));
    // Without such pods the report says nothing about them.
    inv[1].localDataPods.clear();
    snap->upgradeInventory = std::make_shared<const models::UpgradeInventory>(inv);
    QVERIFY(!models::UpgradePreflight::compute(*snap, *parsed).text().contains(QStringLiteral("emptyDir")));
}

// The console's inventory on a live cluster (buildUpgradeInventory over the controller's view)
// and the embedded engine's (UpgradeSnapshotBuilder's pod mirror) count the same pods the same
// way: the emptyDir pods of scenario 35 included.
void TestUpgradeModels::inventoryIsTheSameFromBothSources()
{
    QFile f(
        QStringLiteral(DAEMONSCOPE_SOURCE_DIR
                       "/tests/scenarios/upgrade/35-local-data-blocks-until-the-policy-allows-delete.yaml"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto cluster = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "35.yaml");
    QVERIFY(cluster.ok());
    sim::Cluster &c = **cluster;
    models::UpgradeSnapshotBuilder builder(c);
    ClusterSnapshot snap;
    builder.build(snap, nullptr);
    const auto live = models::buildUpgradeInventory(c.nodeUpgrade().upgradeCluster());
    QCOMPARE(live->size(), std::size_t(3));
    QVERIFY(*live == *snap.upgradeInventory);
    int withLocalData = 0;
    for (const auto &w : *live)
        withLocalData += int(w.localDataPods.size());
    QCOMPARE(withLocalData, 3); // one cache pod per node
}

void TestUpgradeModels::preflightSaysWhenNoNodeCanStart_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<bool>("onlyTheNotReadyNodeLeft");
    QTest::addColumn<QString>("cannotStart"); // "" when a node can start
    QTest::addColumn<qint64>("estimateMs");
    // Four nodes on v1, a-0 NotReady (first by name); soak 2m + 2m per node.
    QTest::newRow("the NotReady node holds the only slot")
        << QStringLiteral("1") << false << QStringLiteral("the budget of 1 node(s) is held by a-0 (NotReady)")
        << qint64(0);
    QTest::newRow("two slots: one held, three Ready nodes one at a time")
        << QStringLiteral("2") << false << QString() << qint64(3 * 4 * 60 * 1000);
    QTest::newRow("only the NotReady node is left to upgrade")
        << QStringLiteral("2") << true << QStringLiteral("every node to upgrade is NotReady (a-0)")
        << qint64(0);
}

void TestUpgradeModels::preflightSaysWhenNoNodeCanStart()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(bool, onlyTheNotReadyNodeLeft);
    QFETCH(QString, cannotStart);
    QFETCH(qint64, estimateMs);
    auto snap = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty());
    snap->clock.now = kNow;
    const char *others = onlyTheNotReadyNodeLeft ? "v2" : "v1";
    std::vector<models::NodeInfo> nodes{node("a-1", "zone-a", others), node("a-2", "zone-a", others),
                                        node("a-3", "zone-a", others), node("a-0", "zone-a", "v1")};
    nodes[3].ready = false;
    snap->nodes = std::make_shared<const std::vector<models::NodeInfo>>(nodes);
    models::UpgradeInventory inv(4);
    for (int i = 0; i < 4; ++i)
        inv[i].node = nodes[i].name;
    snap->upgradeInventory = std::make_shared<const models::UpgradeInventory>(inv);
    const kube::Json spec = {
        {"targetVersion", "v2"}, {"maxUnavailable", maxUnavailable.toInt()}, {"soakDuration", "2m"}};
    const auto parsed = api::NodeUpgradeRolloutSpec::fromJson(spec);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    const auto report = models::UpgradePreflight::compute(*snap, *parsed);
    QCOMPARE(report.heldSlots, 1);
    QCOMPARE(report.estimateMs, estimateMs);
    const QString text = report.text();
    if (cannotStart.isEmpty()) {
        QVERIFY2(report.cannotStart.isEmpty(), qPrintable(report.cannotStart));
        QVERIFY2(text.contains(QStringLiteral("Estimated duration: about 12m")), qPrintable(text));
    } else {
        QVERIFY2(report.cannotStart.contains(cannotStart), qPrintable(report.cannotStart));
        QVERIFY2(text.contains(QStringLiteral("Cannot start now: ")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("about")), qPrintable(text)); // no promised duration
    }
    // The NotReady node is queued last: it waits until it is Ready.
    QCOMPARE(report.order.back(), QStringLiteral("a-0"));
}

// An upgrade another tool drives, as the nodes show it: nothing while versions merely differ;
// started by a cordon on an old node; each node's phase through drain, restart and soak; the
// drain a budget holds; durations into an ETA; a replaced node Removed and its successor up to
// date; a NodeUpgradeRollout taking over resets it.
void TestUpgradeModels::observedUpgradeFollowsTheNodes()
{
    using models::UpgradeNodePhase;
    auto node = [](const char *name, const char *version) {
        models::NodeInfo n;
        n.name = QString::fromLatin1(name);
        n.agentVersion = QString::fromLatin1(version);
        n.ready = true;
        n.bootID = n.name + QStringLiteral("-boot-1");
        return n;
    };
    std::vector<models::NodeInfo> nodes = {node("n0", "v1.30.9"), node("n1", "v1.30.9"),
                                           node("n2", "v1.31.0")};
    std::vector<models::EventInfo> events;
    models::ObservedUpgradeTracker tracker;
    QVERIFY(!tracker.update(nodes, events, 1000, false)); // different versions alone start nothing
    QCOMPARE(models::compareVersions(QStringLiteral("v1.31.0"), QStringLiteral("v1.30.10")), 1);
    QCOMPARE(models::compareVersions(QStringLiteral("v1.30.9"), QStringLiteral("v1.30.10")), -1);

    nodes[0].unschedulable = true;
    auto seen = tracker.update(nodes, events, 2000, false);
    QVERIFY(seen);
    QVERIFY(seen->observed);
    QCOMPARE(seen->name, QString::fromLatin1(models::kObservedUpgradeName));
    QCOMPARE(seen->targetVersion, QStringLiteral("v1.31.0"));
    QCOMPARE(seen->phase, models::UpgradeRolloutPhase::Progressing);
    QCOMPARE(seen->node(QStringLiteral("n0"))->phase, UpgradeNodePhase::Cordoned);
    QCOMPARE(seen->node(QStringLiteral("n1"))->phase, UpgradeNodePhase::Pending);
    QCOMPARE(seen->node(QStringLiteral("n2"))->phase, UpgradeNodePhase::UpToDate);
    QCOMPARE(seen->counts.nodes, 3);
    QCOMPARE(seen->counts.upToDate, 1);
    QCOMPARE(seen->counts.inFlight, 1);
    QCOMPARE(seen->eta, qint64(-1)); // no node finished yet

    // Draining, held by a disruption budget (a Warning about the node).
    nodes[0].draining = QStringLiteral("DrainInProgress");
    models::EventInfo refused;
    refused.object = QStringLiteral("node/n0");
    refused.type = QStringLiteral("Warning");
    refused.reason = QStringLiteral("FailedDraining");
    refused.message = QStringLiteral("Cannot evict pod as it would violate the pod's disruption budget.");
    events.push_back(refused);
    seen = tracker.update(nodes, events, 3000, false);
    const models::UpgradeNodeRow *n0 = seen->node(QStringLiteral("n0"));
    QCOMPARE(n0->phase, UpgradeNodePhase::DrainingManaged);
    QCOMPARE(n0->phaseSince, qint64(3000));
    QVERIFY(n0->blocked);
    QCOMPARE(n0->blockers, QStringList{refused.message});
    QVERIFY(seen->blockedCondition);
    QVERIFY2(seen->headline.contains(QStringLiteral("1 drain(s) held")), qPrintable(seen->headline));
    events.clear();

    // Restart: NotReady, back on the target with a new boot, still cordoned (soaking), then
    // uncordoned: upgraded, 10 s after it left Pending.
    nodes[0].draining = QStringLiteral("Drained");
    nodes[0].ready = false;
    QCOMPARE(tracker.update(nodes, events, 5000, false)->node(QStringLiteral("n0"))->phase,
             UpgradeNodePhase::Restarting);
    nodes[0].draining.clear();
    nodes[0].ready = true;
    nodes[0].agentVersion = QStringLiteral("v1.31.0");
    nodes[0].bootID = QStringLiteral("n0-boot-2");
    seen = tracker.update(nodes, events, 9000, false);
    QCOMPARE(seen->node(QStringLiteral("n0"))->phase, UpgradeNodePhase::Soaking);
    QVERIFY(!seen->node(QStringLiteral("n0"))->nextDeadline.isEmpty()); // one reboot seen
    nodes[0].unschedulable = false;
    seen = tracker.update(nodes, events, 12000, false);
    QCOMPARE(seen->node(QStringLiteral("n0"))->phase, UpgradeNodePhase::Upgraded);
    QCOMPARE(seen->counts.upgraded, 1);
    QCOMPARE(seen->eta, qint64(10000)); // n1 left, one at a time, 10 s each

    // n1 is replaced by a new node on the target (a surge upgrade): Removed, and done.
    nodes.erase(nodes.begin() + 1);
    nodes.push_back(node("n3", "v1.31.0"));
    seen = tracker.update(nodes, events, 20000, false);
    QCOMPARE(seen->node(QStringLiteral("n1"))->phase, UpgradeNodePhase::Removed);
    QCOMPARE(seen->node(QStringLiteral("n3"))->phase, UpgradeNodePhase::UpToDate);
    QCOMPARE(seen->counts.nodes, 3);
    QCOMPARE(seen->phase, models::UpgradeRolloutPhase::Completed);
    QVERIFY(seen->samples->size() >= 5);
    QCOMPARE(seen->samples->back().phases[int(UpgradeNodePhase::Removed)], 0); // the present nodes only
    QCOMPARE(seen->samples->back().phases[int(UpgradeNodePhase::Upgraded)], 1);

    // A NodeUpgradeRollout running: its controller reports; afterwards nothing is inferred
    // from what it did.
    QVERIFY(!tracker.update(nodes, events, 21000, true));
    QVERIFY(!tracker.update(nodes, events, 22000, false));

    // Both backends publish it in the snapshot's list.
    models::ClusterSnapshot snap;
    auto withNodes = std::make_shared<std::vector<models::NodeInfo>>(nodes);
    (*withNodes)[1].unschedulable = true;
    (*withNodes)[1].agentVersion = QStringLiteral("v1.30.9");
    snap.nodes = withNodes;
    snap.events = std::make_shared<const std::vector<models::EventInfo>>();
    snap.clock.now = 30000;
    models::ObservedUpgradeTracker fresh;
    models::addObservedUpgrade(snap, fresh);
    QVERIFY(snap.upgrade(QString::fromLatin1(models::kObservedUpgradeName)));
    models::UpgradeRolloutListModel list;
    list.setSnapshot(std::make_shared<const models::ClusterSnapshot>(snap));
    QCOMPARE(list.index(0, 0).data().toString(), QStringLiteral("Observed upgrade"));
}

// The embedded engine shows the same observed upgrade: a node restarted on a new version by
// something other than a NodeUpgradeRollout (the scenario step restartNode plays a node pool's
// upgrade) appears in the snapshot as it happens.
void TestUpgradeModels::embeddedSnapshotsCarryTheObservedUpgrade()
{
    auto cluster =
        scenario::ScenarioRunner::buildCluster("name: pool\nmode: continuous\nstart: 2026-01-01T00:00:00Z\n"
                                               "cluster:\n  nodes: [{count: 3, agentVersion: v1.0.0}]\n",
                                               "pool.yaml");
    QVERIFY2(cluster.ok(), cluster ? "" : cluster.error().message.c_str());
    sim::Cluster &c = **cluster;
    c.advance(5000);
    models::SnapshotBuilder builder(c);
    const QString name = QString::fromLatin1(models::kObservedUpgradeName);
    QVERIFY(!builder.build({c.now(), 1.0, true})->upgrade(name));
    QVERIFY(c.nodeUpgrade().restartNodeStep(kube::Json{{"node", "node-1"}, {"version", "v1.1.0"}}).ok());
    c.advance(5000); // left: NotReady
    auto snap = builder.build({c.now(), 1.0, true});
    QVERIFY2(!snap->upgrade(name), "a NotReady node on its old version is no upgrade yet");
    c.advance(60000); // back on v1.1.0
    snap = builder.build({c.now(), 1.0, true});
    const models::UpgradeRolloutInfo *observed = snap->upgrade(name);
    QVERIFY(observed);
    QCOMPARE(observed->targetVersion, QStringLiteral("v1.1.0"));
    QCOMPARE(observed->node(QStringLiteral("node-1"))->phase, models::UpgradeNodePhase::Upgraded);
    QCOMPARE(observed->node(QStringLiteral("node-0"))->phase, models::UpgradeNodePhase::Pending);
    QCOMPARE(observed->counts.upToDate, 1);
}

// A node's injected fault stays on its tile when the node is written (an annotation, a
// condition): the snapshot's node is rebuilt from the store with the fault it has.
void TestUpgradeModels::embeddedSnapshotsKeepAFaultWhenItsNodeIsWritten()
{
    auto cluster =
        scenario::ScenarioRunner::buildCluster("name: faults\nmode: continuous\nstart: 2026-01-01T00:00:00Z\n"
                                               "cluster:\n  nodes: [{count: 2, agentVersion: v1.0.0}]\n",
                                               "faults.yaml");
    QVERIFY2(cluster.ok(), cluster ? "" : cluster.error().message.c_str());
    sim::Cluster &c = **cluster;
    models::SnapshotBuilder builder(c);
    QVERIFY(c.fault("node-0", sim::FaultKind::AgentUnresponsive).ok());
    const QString fault = QString::fromStdString(sim::faultKindName(sim::FaultKind::AgentUnresponsive));
    auto faultOf = [](const models::SnapshotPtr &s, const QString &node) {
        for (const auto &n : *s->nodes)
            if (n.name == node)
                return n.fault;
        return QStringLiteral("(no such node)");
    };
    auto snap = builder.build({c.now(), 1.0, true});
    QCOMPARE(faultOf(snap, QStringLiteral("node-0")), fault);
    QVERIFY(c.annotateNode("node-0", {{"example.com/note", std::string("written")}}).ok());
    QVERIFY(c.annotateNode("node-1", {{"example.com/note", std::string("written")}}).ok());
    snap = builder.build({c.now(), 1.0, true});
    QCOMPARE(faultOf(snap, QStringLiteral("node-0")), fault);
    QCOMPARE(faultOf(snap, QStringLiteral("node-1")), QString());
    // A node deleted between two snapshots leaves the next one.
    QVERIFY(c.remove(api::Kind::Node, "", "node-1").ok());
    snap = builder.build({c.now(), 1.0, true});
    QCOMPARE(faultOf(snap, QStringLiteral("node-1")), QStringLiteral("(no such node)"));
    QCOMPARE(int(snap->nodes->size()), 1);
}

QTEST_GUILESS_MAIN(TestUpgradeModels)
#include "tst_upgrademodels.moc"
