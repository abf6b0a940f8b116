// RollbackPreview: kubectl's choice of target revision, its skip and error texts, the number of
// nodes that get a new pod and the duration estimate.

#include "snapshotfactory.h"

#include "models/planners/rollbackpreview.h"

#include <QTest>

using namespace models;

namespace {

DaemonSetInfo web(int onTargetRev2 = 0)
{
    auto ds = testing::daemonSet(QStringLiteral("default"), QStringLiteral("web"),
                                 {{QStringLiteral("web-h1"), 1, "nginx:1.25"},
                                  {QStringLiteral("web-h2"), 2, "nginx:1.26"},
                                  {QStringLiteral("web-h3"), 3, "nginx:1.27"}},
                                 QStringLiteral("web-h3"), 5);
    auto pods = std::make_shared<std::vector<PodInfo>>(*ds.pods);
    for (int i = 0; i < onTargetRev2; ++i)
        (*pods)[static_cast<std::size_t>(i)].hash = QStringLiteral("h2");
    ds.pods = pods;
    return ds;
}

} // namespace

class TestRollbackPreview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void target_data();
    void target();
    void undoToATemplateEqualToTheCurrentOneIsSkippedWithTheRequestedNumber();
    void estimate_data();
    void estimate();
    void pausedDaemonSetHasNoAutomaticEstimate();
    void podsDownOnNotReadyNodesHoldTheBudget_data();
    void podsDownOnNotReadyNodesHoldTheBudget();
    void estimatesAreRounded();
};

void TestRollbackPreview::target_data()
{
    QTest::addColumn<qint64>("toRevision");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("skipped");
    QTest::addColumn<qint64>("target");
    QTest::addColumn<QString>("message");
    QTest::newRow("undo without a revision picks the second highest")
        << qint64(0) << true << false << qint64(2) << QStringLiteral("rolled back");
    QTest::newRow("an explicit older revision is the target")
        << qint64(1) << true << false << qint64(1) << QStringLiteral("rolled back");
    QTest::newRow("the current revision is skipped with kubectl's text")
        << qint64(3) << true << true << qint64(3)
        << QStringLiteral("skipped rollback (current template already matches revision 3)");
    QTest::newRow("a revision that does not exist is kubectl's error")
        << qint64(9) << false << false << qint64(0)
        << QStringLiteral("unable to find specified revision 9 in history");
    QTest::newRow("a negative revision is kubectl's error")
        << qint64(-1) << false << false << qint64(0)
        << QStringLiteral("unable to find specified revision -1 in history");
}

void TestRollbackPreview::target()
{
    QFETCH(qint64, toRevision);
    QFETCH(bool, ok);
    QFETCH(bool, skipped);
    QFETCH(qint64, target);
    QFETCH(QString, message);
    const auto snap = testing::snapshot({web()});
    const auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), toRevision);
    QCOMPARE(p.ok, ok);
    QCOMPARE(p.skipped, skipped);
    QCOMPARE(p.targetRevision, target);
    QCOMPARE(p.message, message);
    if (ok && !skipped) {
        QVERIFY(!p.diff.identical());
        QVERIFY(!p.diff.summary.changes.empty());
        QCOMPARE(p.nodesToReplace, 5);
    }
}

void TestRollbackPreview::undoToATemplateEqualToTheCurrentOneIsSkippedWithTheRequestedNumber()
{
    auto ds = testing::daemonSet(
        QStringLiteral("default"), QStringLiteral("web"),
        {{QStringLiteral("web-h1"), 1, "nginx:1.27"}, {QStringLiteral("web-h2"), 2, "nginx:1.27"}},
        QStringLiteral("web-h2"), 3);
    const auto snap = testing::snapshot({ds});
    auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), 0);
    QVERIFY(p.ok);
    QVERIFY(p.skipped);
    QCOMPARE(p.message, QStringLiteral("skipped rollback (current template already matches revision 0)"));

    auto single = testing::daemonSet(QStringLiteral("default"), QStringLiteral("one"),
                                     {{QStringLiteral("one-h1"), 1, "x:1"}}, QStringLiteral("one-h1"), 1);
    const auto snap2 = testing::snapshot({single});
    p = RollbackPreview::compute(*snap2, QStringLiteral("default/one"), 0);
    QVERIFY(!p.ok);
    QCOMPARE(p.message, QStringLiteral("no last revision to roll back to"));
}

void TestRollbackPreview::estimate_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<QString>("maxSurge");
    QTest::addColumn<int>("minReadySeconds");
    QTest::addColumn<qint64>("observedNodeMs"); // 0: none observed
    QTest::addColumn<int>("podsAlreadyOnTarget");
    QTest::addColumn<int>("parallel");
    QTest::addColumn<int>("waves");
    QTest::addColumn<qint64>("estimatedMs");
    // default kubelet: start 4s + ready 2s (+ grace 3s without surge)
    QTest::newRow("one at a time with default timings")
        << QStringLiteral("1") << QStringLiteral("0") << 0 << qint64(0) << 0 << 1 << 5 << qint64(5 * 9000);
    QTest::newRow("two at a time rounds the waves up")
        << QStringLiteral("2") << QStringLiteral("0") << 0 << qint64(0) << 0 << 2 << 3 << qint64(3 * 9000);
    QTest::newRow("observed node time and minReadySeconds are used")
        << QStringLiteral("2") << QStringLiteral("0") << 5 << qint64(10000) << 0 << 2 << 3
        << qint64(3 * 15000);
    QTest::newRow("surge replaces maxSurge nodes at a time without the grace period")
        << QStringLiteral("0") << QStringLiteral("1") << 0 << qint64(0) << 0 << 1 << 5 << qint64(5 * 6000);
    QTest::newRow("percentages are rounded up against desired")
        << QStringLiteral("30%") << QStringLiteral("0") << 0 << qint64(0) << 0 << 2 << 3 << qint64(3 * 9000);
    QTest::newRow("nodes already on the target revision are not replaced")
        << QStringLiteral("1") << QStringLiteral("0") << 0 << qint64(0) << 2 << 1 << 3 << qint64(3 * 9000);
}

void TestRollbackPreview::estimate()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(QString, maxSurge);
    QFETCH(int, minReadySeconds);
    QFETCH(qint64, observedNodeMs);
    QFETCH(int, podsAlreadyOnTarget);
    QFETCH(int, parallel);
    QFETCH(int, waves);
    QFETCH(qint64, estimatedMs);
    auto ds = web(podsAlreadyOnTarget);
    ds.maxUnavailable = maxUnavailable;
    ds.maxSurge = maxSurge;
    ds.minReadySeconds = minReadySeconds;
    if (observedNodeMs > 0) {
        auto record = std::make_shared<DaemonSetRecord>();
        RolloutTiming t;
        t.started = 1000;
        t.completed = 100000;
        t.nodes = {{QStringLiteral("node-0"), 1000, 1000 + observedNodeMs - 2000},
                   {QStringLiteral("node-1"), 1000, 1000 + observedNodeMs + 2000}};
        record->rollouts.push_back(t);
        ds.record = record;
    }
    const auto snap = testing::snapshot({ds});
    const auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), 2);
    QVERIFY(p.ok);
    QCOMPARE(p.nodesToReplace, 5 - podsAlreadyOnTarget);
    QCOMPARE(p.nodesOnTarget, podsAlreadyOnTarget);
    QCOMPARE(p.parallel, parallel);
    QCOMPARE(p.waves, waves);
    QCOMPARE(p.perNodeObserved, observedNodeMs > 0);
    QCOMPARE(p.estimatedMs, estimatedMs);
    QVERIFY(!p.estimateText.isEmpty());
}

void TestRollbackPreview::pausedDaemonSetHasNoAutomaticEstimate()
{
    auto ds = web();
    ds.paused = true;
    ds.strategyType = QStringLiteral("OnDelete");
    const auto snap = testing::snapshot({ds});
    const auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), 0);
    QVERIFY(p.ok);
    QVERIFY(p.manualOnly);
    QCOMPARE(p.estimatedMs, qint64(0));
    QCOMPARE(p.nodesToReplace, 5);
}

void TestRollbackPreview::podsDownOnNotReadyNodesHoldTheBudget_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<int>("notReadyNodes");
    QTest::addColumn<int>("parallel");
    QTest::addColumn<int>("waves");
    QTest::addColumn<bool>("blocked");
    QTest::newRow("one of three slots held: two at a time, the NotReady node waits")
        << QStringLiteral("3") << 1 << 2 << 2 << false;
    QTest::newRow("the whole budget held: the rollout cannot finish")
        << QStringLiteral("2") << 2 << 0 << 0 << true;
    QTest::newRow("no NotReady node: the whole budget") << QStringLiteral("3") << 0 << 3 << 2 << false;
}

// Pods down on NotReady nodes count against maxUnavailable (the Progress tab says so): the
// estimate uses what is left of the budget and leaves those nodes out.
void TestRollbackPreview::podsDownOnNotReadyNodesHoldTheBudget()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(int, notReadyNodes);
    QFETCH(int, parallel);
    QFETCH(int, waves);
    QFETCH(bool, blocked);
    auto ds = web();
    ds.maxUnavailable = maxUnavailable;
    auto pods = std::make_shared<std::vector<PodInfo>>(*ds.pods);
    auto nodes = std::make_shared<std::vector<NodeInfo>>();
    for (int i = 0; i < 5; ++i) {
        NodeInfo n;
        n.name = QStringLiteral("node-%1").arg(i);
        n.ready = i >= notReadyNodes;
        nodes->push_back(n);
        (*pods)[std::size_t(i)].ready = n.ready;
    }
    ds.pods = pods;
    auto snap = testing::snapshot({ds});
    snap->nodes = nodes;
    const auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), 2);
    QVERIFY(p.ok);
    QCOMPARE(p.heldNodes.size(), notReadyNodes);
    QCOMPARE(p.parallel, parallel);
    QCOMPARE(p.blocked, blocked);
    QCOMPARE(p.waves, waves);
    if (blocked) {
        QCOMPARE(p.estimatedMs, qint64(0));
        QVERIFY2(p.estimateText.contains(QStringLiteral("cannot finish")), qPrintable(p.estimateText));
    } else if (notReadyNodes > 0) {
        QVERIFY2(p.estimateText.contains(QStringLiteral("NotReady nodes (node-0)")),
                 qPrintable(p.estimateText));
    }
}

void TestRollbackPreview::estimatesAreRounded()
{
    auto ds = web();
    auto record = std::make_shared<DaemonSetRecord>();
    RolloutTiming t;
    t.started = 1000;
    t.completed = 100000;
    t.nodes = {{QStringLiteral("node-0"), 1000, 1000 + 17'345}}; // 17.345 s observed
    record->rollouts.push_back(t);
    ds.record = record;
    ds.minReadySeconds = 0;
    const auto snap = testing::snapshot({ds});
    const auto p = RollbackPreview::compute(*snap, QStringLiteral("default/web"), 2);
    // 5 waves x 17.345 s = 86.725 s: shown in 10 s steps past a minute, the node time in seconds.
    QCOMPARE(p.estimatedMs, qint64(90'000));
    QVERIFY2(p.estimateText.contains(QStringLiteral("17s observed per node")), qPrintable(p.estimateText));
    QVERIFY(!p.estimateText.contains(QStringLiteral("ms")));
}

QTEST_GUILESS_MAIN(TestRollbackPreview)
#include "tst_rollbackpreview.moc"
