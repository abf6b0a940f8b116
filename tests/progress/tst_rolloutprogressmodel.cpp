// RolloutProgressModel and its RolloutMarkerModel under QAbstractItemModelTester: rows are
// appended per changed snapshot, quiet periods cost one hold row, the ring buffer trims the
// front, routine updates never reset, the budget column is resolved like rollingUpdate, and
// the headline and markers follow the selected DaemonSet.

#include "progressfactory.h"

#include "models/itemmodels/daemonsetselection.h"
#include "models/itemmodels/rolloutmarkermodel.h"
#include "models/itemmodels/rolloutprogressmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using models::RolloutHeadline;
using models::RolloutMarker;
using models::RolloutMarkerModel;
using models::RolloutProgressModel;
using namespace progress;

namespace {

constexpr qint64 kSecond = 1000;

// The rollout of five nodes after `done` nodes were replaced, at kNow + t seconds.
std::shared_ptr<models::ClusterSnapshot> step(int done, qint64 t,
                                              const QString &maxUnavailable = QStringLiteral("1"))
{
    RolloutSpec s;
    QStringList nodes;
    for (int i = 0; i < 5; ++i)
        nodes << (i < done ? QStringLiteral("N") : QStringLiteral("O"));
    s.nodes = nodes.join(QLatin1Char(' '));
    s.maxUnavailable = maxUnavailable;
    s.now = kNow + t * kSecond;
    s.rolloutAgo = (t + 1) * kSecond; // the rollout started one second before t = 0
    return rolloutSnapshot(s);
}

int column(const RolloutProgressModel &m, int row, int col)
{
    return m.data(m.index(row, col), RolloutProgressModel::ValueRole).toInt();
}

} // namespace

class TestRolloutProgressModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsAreAppendedPerChangedSnapshot();
    void quietSnapshotsExtendOneHoldRow();
    void ringBufferTrimsTheFront();
    void budgetColumnIsResolvedAgainstDesired_data();
    void budgetColumnIsResolvedAgainstDesired();
    void selectingAnotherDaemonSetShowsItsHistory();
    void timeGoingBackwardsStartsAfresh();
    void headlineFollowsTheRollout();
    void markersShowRolloutStartsAndRollbacks();
    void quietInputsDoNotRecomputeTheHeadline();
    void headlineWordingGoesOnBetweenSnapshots();
    void headlineWakesOnlyAtItsGranularity();
};

void TestRolloutProgressModel::rowsAreAppendedPerChangedSnapshot()
{
    RolloutProgressModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(kKey);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    for (int done = 0; done <= 5; ++done)
        model.setSnapshot(step(done, 10 * done));

    // Each change after the first is a step: the old values held until its time, then the new.
    QCOMPARE(model.rowCount(), 11);
    QCOMPARE(inserted.count(), 11);
    QCOMPARE(reset.count(), 0);
    for (int done = 0; done <= 5; ++done) {
        const int row = 2 * done;
        QCOMPARE(model.sample(row)->time, kNow + 10 * done * kSecond);
        QCOMPARE(column(model, row, RolloutProgressModel::DesiredColumn), 5);
        QCOMPARE(column(model, row, RolloutProgressModel::UpdatedColumn), done);
        QCOMPARE(column(model, row, RolloutProgressModel::AvailableColumn), 5);
        QCOMPARE(column(model, row, RolloutProgressModel::BudgetColumn), 1);
        if (done < 5) {
            QCOMPARE(model.sample(row + 1)->time, kNow + 10 * (done + 1) * kSecond);
            QCOMPARE(column(model, row + 1, RolloutProgressModel::UpdatedColumn), done);
        }
    }
    // The chart's x: seconds since the rollout started (one second before the first sample).
    QCOMPARE(model.data(model.index(0, RolloutProgressModel::ElapsedColumn)).toDouble(), 1.0);
    QCOMPARE(model.data(model.index(10, RolloutProgressModel::ElapsedColumn)).toDouble(), 51.0);
}

void TestRolloutProgressModel::quietSnapshotsExtendOneHoldRow()
{
    RolloutProgressModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(kKey);
    model.setSnapshot(step(1, 0));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    for (int t = 1; t <= 10; ++t)
        model.setSnapshot(step(1, t));

    QCOMPARE(model.rowCount(), 2); // the change and its hold row
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.sample(1)->time, kNow + 10 * kSecond);
    QVERIFY(changed.count() >= 9);
    // The hold row moves in both time columns (a chart maps the elapsed one).
    const QList<QVariant> last = changed.last();
    QCOMPARE(last.at(0).toModelIndex().column(), int(RolloutProgressModel::TimeColumn));
    QCOMPARE(last.at(1).toModelIndex().column(), int(RolloutProgressModel::ElapsedColumn));

    // A change moves the hold row to its time (no extra row) and follows it.
    model.setSnapshot(step(2, 11));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.sample(1)->updated, 1);
    QCOMPARE(model.sample(1)->time, kNow + 11 * kSecond);
    QCOMPARE(model.sample(2)->updated, 2);
}

void TestRolloutProgressModel::ringBufferTrimsTheFront()
{
    RolloutProgressModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(kKey);
    model.setCapacity(10);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    // 25 alternating snapshots: every one changes the values.
    for (int t = 0; t < 25; ++t)
        model.setSnapshot(step(t % 2, t));

    // 1 + 2 x 24 rows (each change after the first brings a hold row): the last five steps stay.
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.firstTime(), kNow + 20 * kSecond);
    QCOMPARE(model.lastTime(), kNow + 24 * kSecond);
    QCOMPARE(removed.count(), 20); // one removal per snapshot once the buffer is full
    QCOMPARE(reset.count(), 0);

    model.setCapacity(4);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.firstTime(), kNow + 23 * kSecond);
}

void TestRolloutProgressModel::budgetColumnIsResolvedAgainstDesired_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<int>("budget");
    QTest::newRow("an integer is charted as it is") << QStringLiteral("2") << 2;
    QTest::newRow("10% of 5 nodes rounds up to 1") << QStringLiteral("10%") << 1;
    QTest::newRow("30% of 5 nodes rounds up to 2") << QStringLiteral("30%") << 2;
    QTest::newRow("0 without surge is forced to 1") << QStringLiteral("0") << 1;
}

void TestRolloutProgressModel::budgetColumnIsResolvedAgainstDesired()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(int, budget);
    RolloutProgressModel model;
    model.setDaemonSetKey(kKey);
    model.setSnapshot(step(2, 0, maxUnavailable));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(column(model, 0, RolloutProgressModel::BudgetColumn), budget);
    QCOMPARE(model.data(model.index(0, RolloutProgressModel::BudgetColumn)).toDouble(), double(budget));
}

void TestRolloutProgressModel::selectingAnotherDaemonSetShowsItsHistory()
{
    RolloutProgressModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    models::DaemonSetSelection selection;
    model.setSelection(&selection);
    QCOMPARE(model.rowCount(), 0);

    auto withOther = [](std::shared_ptr<models::ClusterSnapshot> s, int desired) {
        models::DaemonSetInfo other = s->daemonSets.front();
        other.key = QStringLiteral("logging/other");
        other.name = QStringLiteral("other");
        other.uid = QStringLiteral("uid-2");
        other.counts.desired = desired;
        s->daemonSets.push_back(other);
        return s;
    };
    for (int t = 0; t < 3; ++t)
        model.setSnapshot(withOther(step(t, t), 10 + t));
    QCOMPARE(model.rowCount(), 0); // nothing selected, but recorded

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    selection.setCurrent(QStringLiteral("logging/other"));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.daemonSetKey(), QStringLiteral("logging/other"));
    QCOMPARE(model.rowCount(), 5); // three samples, two of them steps with their hold rows
    QCOMPARE(column(model, 4, RolloutProgressModel::DesiredColumn), 12);

    selection.setCurrent(kKey);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(column(model, 4, RolloutProgressModel::UpdatedColumn), 2);

    // The other DaemonSet is deleted: its history goes, the shown one stays.
    model.setSnapshot(step(3, 3));
    QCOMPARE(model.rowCount(), 7);
    selection.setCurrent(QStringLiteral("logging/other"));
    QCOMPARE(model.rowCount(), 0);
}

void TestRolloutProgressModel::timeGoingBackwardsStartsAfresh()
{
    RolloutProgressModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(kKey);
    for (int t = 0; t < 4; ++t)
        model.setSnapshot(step(t, 100 + t));
    QCOMPARE(model.rowCount(), 7);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setSnapshot(step(0, 0)); // another scenario loaded: the clock starts over
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.firstTime(), kNow);
    QCOMPARE(reset.count(), 0);
}

void TestRolloutProgressModel::headlineFollowsTheRollout()
{
    RolloutProgressModel model;
    QSignalSpy headline(&model, &RolloutProgressModel::headlineChanged);
    QCOMPARE(model.headline().reason, RolloutHeadline::NoDaemonSet);
    model.setDaemonSetKey(kKey);
    model.setSnapshot(step(2, 0));
    QCOMPARE(model.headline().reason, RolloutHeadline::Progressing);
    QCOMPARE(model.headlineText(), QStringLiteral("Rolling out revision 2: 2 of 5 updated, 5 available"));
    // The model's own observation: a minute without a change in the counts is slow, even though
    // the rollout record says nothing newer.
    for (int t = 1; t <= 60; ++t)
        model.setSnapshot(step(2, t));
    QCOMPARE(model.headline().reason, RolloutHeadline::Slow);
    model.setSnapshot(step(5, 61));
    QCOMPARE(model.headline().reason, RolloutHeadline::Complete);
    // Emitted only when the text changes: progressing once, slow every second from 31 s (the
    // sentence says for how long) to 61 s, complete once.
    QCOMPARE(headline.count(), 1 + 31 + 1);
    QCOMPARE(headline.at(0).at(0).toString(),
             QStringLiteral("Rolling out revision 2: 2 of 5 updated, 5 available"));
    QCOMPARE(headline.at(1).at(0).toString(), QStringLiteral("Slow: no progress for 31s; 2 of 5 updated"));
    QCOMPARE(headline.last().at(0).toString(),
             QStringLiteral("Rollout complete: 5 of 5 pods updated and available"));
    QCOMPARE(model.property("headline").toString(), model.headlineText());
}

void TestRolloutProgressModel::markersShowRolloutStartsAndRollbacks()
{
    RolloutProgressModel model;
    QAbstractItemModelTester markerTester(model.markers(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDaemonSetKey(kKey);
    model.setSnapshot(step(0, -10)); // before the rollout: no record yet

    auto snap = step(0, 0);
    models::DaemonSetInfo &ds = snap->daemonSets.front();
    auto record = std::make_shared<models::DaemonSetRecord>(*ds.record);
    models::RolloutTiming back;
    back.fromHash = kNewHash;
    back.toHash = kOldHash; // revision 1's hash: it existed before, so this is a rollback
    back.toRevision = 3;
    back.started = kNow + 30 * kSecond;
    record->rollouts.push_back(back);
    models::ActionRecord pause;
    pause.kind = models::ActionKind::Pause;
    pause.ok = true;
    pause.target = kKey;
    pause.time = kNow + 40 * kSecond;
    record->actions.push_back(pause);
    ds.record = record;
    snap->clock.now = kNow + 50 * kSecond;
    model.setSnapshot(snap);

    const RolloutMarkerModel *markers = model.markers();
    QCOMPARE(markers->markerCount(), 3);
    QCOMPARE(markers->rowCount(), 6);
    QCOMPARE(markers->marker(0).kind, RolloutMarker::RolloutStart);
    QCOMPARE(markers->marker(1).kind, RolloutMarker::Rollback);
    QCOMPARE(markers->marker(2).kind, RolloutMarker::Pause);
    QCOMPARE(RolloutMarkerModel::label(markers->marker(1)), QStringLiteral("Rollback to revision 3"));
    // x = 0 is the latest rollout's start (the rollback); the marker's foot is at 0 pods and its
    // head at the largest charted value.
    QCOMPARE(markers->data(markers->index(2, RolloutMarkerModel::ElapsedColumn)).toDouble(), 0.0);
    QCOMPARE(markers->data(markers->index(2, RolloutMarkerModel::ValueColumn)).toDouble(), 0.0);
    QCOMPARE(markers->data(markers->index(3, RolloutMarkerModel::ValueColumn)).toDouble(), 5.0);

    // An older rollout falls out of the window when the rows it covered are trimmed; the latest
    // rollout's start (the chart's 0) and what followed it stay.
    QSignalSpy removed(markers, &QAbstractItemModel::rowsRemoved);
    model.setCapacity(2);
    for (int t = 1; t <= 4; ++t) {
        auto next = step(t % 2, 50 + t);
        next->daemonSets.front().record = record;
        model.setSnapshot(next);
    }
    QCOMPARE(markers->markerCount(), 2);
    QCOMPARE(markers->marker(0).kind, RolloutMarker::Rollback);
    QCOMPARE(markers->marker(1).kind, RolloutMarker::Pause);
    QVERIFY(removed.count() >= 1);
}

QTEST_GUILESS_MAIN(TestRolloutProgressModel)

void TestRolloutProgressModel::quietInputsDoNotRecomputeTheHeadline()
{
    RolloutProgressModel model;
    model.setDaemonSetKey(kKey);
    auto first = step(5, 0);
    first->clock.running = true; // a live cluster's clock: the wall clock
    model.setSnapshot(first);
    QCOMPARE(model.headline().reason, RolloutHeadline::Complete);
    QCOMPARE(model.headlineComputations(), quint64(1));
    QVERIFY(!model.headlineTimerActive()); // nothing in "Rollout complete" reads the time

    // The same cluster published again a second later: nothing the headline reads changed.
    auto again = std::make_shared<models::ClusterSnapshot>(*first);
    again->clock.now += kSecond;
    model.setSnapshot(again);
    QTest::qWait(1200);
    QCOMPARE(model.headlineComputations(), quint64(1));
    QVERIFY(!model.headlineTimerActive());

    // A pod replaced is a new input.
    auto changed = step(4, 2);
    changed->clock.running = true;
    model.setSnapshot(changed);
    QCOMPARE(model.headlineComputations(), quint64(2));
    QCOMPARE(model.headline().reason, RolloutHeadline::Progressing);
}

void TestRolloutProgressModel::headlineWordingGoesOnBetweenSnapshots()
{
    RolloutProgressModel model;
    model.setDaemonSetKey(kKey);
    RolloutSpec s;
    s.nodes = QStringLiteral("N N O O O");
    s.rolloutAgo = 40 * kSecond;
    auto snap = rolloutSnapshot(s);
    snap->clock.running = true;
    model.setSnapshot(snap);
    QCOMPARE(model.headlineText(), QStringLiteral("Slow: no progress for 40s; 2 of 5 updated"));
    QVERIFY(model.headlineTimerActive());

    // No snapshot arrives, the clock runs: the sentence says 41s a second later.
    QSignalSpy changed(&model, &RolloutProgressModel::headlineChanged);
    QVERIFY(changed.wait(3000));
    QCOMPARE(model.headlineText(), QStringLiteral("Slow: no progress for 41s; 2 of 5 updated"));
    QCOMPARE(model.headlineComputations(), quint64(2));
    QVERIFY(model.headlineTimerActive()); // and 42s after that

    // The clock stops (a paused simulation): the headline holds, nothing is scheduled.
    auto stopped = std::make_shared<models::ClusterSnapshot>(*snap);
    stopped->clock.now += 1500;
    stopped->clock.running = false;
    model.setSnapshot(stopped);
    QVERIFY(!model.headlineTimerActive());
    const quint64 computed = model.headlineComputations();
    QTest::qWait(1200);
    QCOMPARE(model.headlineComputations(), computed);
    QCOMPARE(model.headlineText(), QStringLiteral("Slow: no progress for 41s; 2 of 5 updated"));
}

void TestRolloutProgressModel::headlineWakesOnlyAtItsGranularity()
{
    // Stuck for 25m30s reads "26m" in thirty seconds: nothing happens in the next second.
    RolloutProgressModel model;
    model.setDaemonSetKey(kKey);
    RolloutSpec s;
    s.nodes = QStringLiteral("N N O O O");
    s.rolloutAgo = 25 * 60 * kSecond + 30 * kSecond;
    auto snap = rolloutSnapshot(s);
    snap->clock.running = true;
    model.setSnapshot(snap);
    QCOMPARE(model.headline().reason, RolloutHeadline::Stuck);
    QCOMPARE(model.headline().changesAt, s.now + 30 * kSecond);
    QVERIFY(model.headlineTimerActive());
    QTest::qWait(1200);
    QCOMPARE(model.headlineComputations(), quint64(1));
}

#include "tst_rolloutprogressmodel.moc"
