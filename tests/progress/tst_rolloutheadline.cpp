// RolloutHeadline: the reason a rollout waits, with the nodes, budget, image and durations it
// names, for hand-built snapshots (see progressfactory.h for the per-node letters).

#include "progressfactory.h"

#include "models/itemmodels/ageclock.h"
#include "models/planners/rolloutheadline.h"

#include "models/kube/timeutil.h"

#include <QTest>

using models::RolloutHeadline;
using models::RolloutObservation;
using namespace progress;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(progress::RolloutSpec)

class TestRolloutHeadline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headline_data();
    void headline();
    void stuckOrSlow_data();
    void stuckOrSlow();
    void budgetResolution_data();
    void budgetResolution();
    void estimate_data();
    void estimate();
    void unknownDaemonSetHasNoRollout();
    void changesAtTheNextThresholdOrWording_data();
    void changesAtTheNextThresholdOrWording();
    void wordingChangesAtHumanAgeGranularity();
};

namespace {

constexpr qint64 kSecond = 1000;
constexpr qint64 kMin = 60 * kSecond;

RolloutSpec spec(const char *nodes)
{
    RolloutSpec s;
    s.nodes = QLatin1String(nodes);
    s.rolloutAgo = 5 * kSecond;
    return s;
}

RolloutObservation observation(const RolloutSpec &s, qint64 terminatingFor = 0)
{
    RolloutObservation o;
    o.lastProgress = s.rolloutAgo > 0 ? s.now - s.rolloutAgo : 0;
    if (terminatingFor > 0) {
        auto snap = rolloutSnapshot(s);
        for (const auto &p : *snap->daemonSets.front().pods) {
            if (p.deleting)
                o.deletingSince[p.name] = s.now - terminatingFor;
        }
    }
    return o;
}

} // namespace

void TestRolloutHeadline::headline_data()
{
    QTest::addColumn<RolloutSpec>("rollout");
    QTest::addColumn<qint64>("terminatingFor");
    QTest::addColumn<int>("reason");
    QTest::addColumn<QString>("text");

    QTest::newRow("every node on the new revision is complete")
        << spec("N N N N N") << qint64(0) << int(RolloutHeadline::Complete)
        << QStringLiteral("Rollout complete: 5 of 5 pods updated and available");
    {
        RolloutSpec s = spec("N N O O O");
        s.paused = true;
        QTest::newRow("a paused rollout says the strategy was switched")
            << s << qint64(0) << int(RolloutHeadline::Paused)
            << QStringLiteral("Paused: update strategy switched to OnDelete; new nodes still get pods");
    }
    {
        RolloutSpec s = spec("N N O O O");
        s.strategy = QStringLiteral("OnDelete");
        QTest::newRow("an OnDelete DaemonSet waits for deletions")
            << s << qint64(0) << int(RolloutHeadline::OnDelete)
            << QStringLiteral("OnDelete: pods are replaced only when deleted (2 of 5 updated)");
    }
    {
        RolloutSpec s = spec("N N O O O");
        s.observedGeneration = 1;
        QTest::newRow("an unobserved generation waits for the controller")
            << s << qint64(0) << int(RolloutHeadline::WaitingForController)
            << QStringLiteral("Waiting for the DaemonSet controller to observe the latest change");
    }
    QTest::newRow("a rollout replacing one node within its budget is progressing")
        << spec("N N n O O") << qint64(0) << int(RolloutHeadline::Progressing)
        << QStringLiteral("Rolling out revision 2: 3 of 5 updated, 4 available; replacing node-3");
    {
        RolloutSpec s = spec("N n n O O");
        s.maxUnavailable = QStringLiteral("2");
        s.waitingReason = QStringLiteral("CrashLoopBackOff");
        s.restarts = 3;
        s.newImage = QStringLiteral("fluent-bit:3.0-broken");
        QTest::newRow("crash-looping new pods are named with their image and reason")
            << s << qint64(0) << int(RolloutHeadline::NewPodsNotReady)
            << QStringLiteral("New pods are not becoming ready: fluent-bit:3.0-broken on node-2, node-3 "
                              "(CrashLoopBackOff)");
    }
    {
        RolloutSpec s = spec("n n n n n O");
        s.maxUnavailable = QStringLiteral("100%");
        s.waitingReason = QStringLiteral("ImagePullBackOff");
        QTest::newRow("more than three failing nodes are summarised")
            << s << qint64(0) << int(RolloutHeadline::NewPodsNotReady)
            << QStringLiteral(
                   "New pods are not becoming ready: fluent-bit:3.0 on node-1, node-2, node-3 and 2 "
                   "more (ImagePullBackOff)");
    }
    {
        RolloutSpec s = spec("N N N t O O");
        QTest::newRow("a pod terminating for six minutes is stuck terminating")
            << s << qint64(6 * kMin) << int(RolloutHeadline::PodsStuckTerminating)
            << QStringLiteral("Pods stuck terminating on node-4 for 6m");
    }
    {
        RolloutSpec s = spec("N N N t O O");
        QTest::newRow("a pod terminating for a minute is a normal replacement")
            << s << qint64(1 * kMin) << int(RolloutHeadline::Progressing)
            << QStringLiteral("Rolling out revision 2: 3 of 6 updated, 5 available; replacing node-4");
    }
    {
        RolloutSpec s = spec("N N O o O");
        s.notReadyNodes = {QStringLiteral("node-4")};
        QTest::newRow("a NotReady node holding the budget is named")
            << s << qint64(0) << int(RolloutHeadline::NodeNotReady)
            << QStringLiteral("Node node-4 is NotReady; its pod counts against the budget");
    }
    {
        RolloutSpec s = spec("N - O o O");
        s.notReadyNodes = {QStringLiteral("node-2"), QStringLiteral("node-4")};
        s.maxUnavailable = QStringLiteral("2");
        QTest::newRow("several NotReady nodes, one without its pod, are named together")
            << s << qint64(0) << int(RolloutHeadline::NodeNotReady)
            << QStringLiteral("Nodes node-2, node-4 are NotReady; their pods count against the budget");
    }
    {
        // node-2's old pod is terminating (not yet long), node-5 lost its pod: two unavailable
        // nodes use the whole budget of 2 while node-3 and node-4 wait.
        RolloutSpec s = spec("N t O O -");
        s.maxUnavailable = QStringLiteral("2");
        s.rolloutAgo = 1 * kMin;
        QTest::newRow("missing pods hold the budget while a rollout is slow")
            << s << qint64(1 * kMin) << int(RolloutHeadline::BudgetExhausted)
            << QStringLiteral("Waiting: the maxUnavailable budget (2) is used by node-2, node-5");
    }
    {
        RolloutSpec s = spec("N t O O -");
        s.maxUnavailable = QStringLiteral("40%");
        s.rolloutAgo = 1 * kMin;
        QTest::newRow("a percentage budget is shown resolved")
            << s << qint64(1 * kMin) << int(RolloutHeadline::BudgetExhausted)
            << QStringLiteral("Waiting: the maxUnavailable budget (2) is used by node-2, node-5");
    }
    {
        RolloutSpec s = spec("On On O O");
        s.maxUnavailable = QStringLiteral("0");
        s.maxSurge = QStringLiteral("2");
        s.rolloutAgo = 1 * kMin;
        s.waitingReason = QStringLiteral("ContainerCreating");
        QTest::newRow("surging new pods that do not become ready hold the maxSurge budget")
            << s << qint64(0) << int(RolloutHeadline::NewPodsNotReady)
            << QStringLiteral(
                   "New pods are not becoming ready: fluent-bit:3.0 on node-1, node-2 (ContainerCreating)");
    }
    {
        RolloutSpec s = spec("On O O O");
        s.maxUnavailable = QStringLiteral("0");
        s.maxSurge = QStringLiteral("1");
        QTest::newRow("a surge rollout within its budget is progressing")
            << s << qint64(0) << int(RolloutHeadline::Progressing)
            << QStringLiteral("Rolling out revision 2: 1 of 4 updated, 4 available; replacing node-1");
    }
}

void TestRolloutHeadline::headline()
{
    QFETCH(RolloutSpec, rollout);
    QFETCH(qint64, terminatingFor);
    QFETCH(int, reason);
    QFETCH(QString, text);

    const auto snap = rolloutSnapshot(rollout);
    const RolloutHeadline h = RolloutHeadline::compute(*snap, kKey, observation(rollout, terminatingFor));
    QCOMPARE(RolloutHeadline::reasonName(h.reason),
             RolloutHeadline::reasonName(static_cast<RolloutHeadline::Reason>(reason)));
    QCOMPARE(h.text, text);
    QCOMPARE(RolloutHeadline::describe(h), h.text);

    // The order the pods are listed in changes nothing: nodes are named in name order.
    auto reversed = std::make_shared<models::ClusterSnapshot>(*snap);
    models::DaemonSetInfo &ds = reversed->daemonSets.front();
    auto pods = *ds.pods;
    std::reverse(pods.begin(), pods.end());
    ds.pods = std::make_shared<const std::vector<models::PodInfo>>(std::move(pods));
    const RolloutHeadline r = RolloutHeadline::compute(*reversed, kKey, observation(rollout, terminatingFor));
    QCOMPARE(r.text, text);
    QCOMPARE(r.nodes, h.nodes);
}

void TestRolloutHeadline::stuckOrSlow_data()
{
    QTest::addColumn<qint64>("sinceProgress");
    QTest::addColumn<qint64>("meanNode");
    QTest::addColumn<int>("reason");
    QTest::addColumn<bool>("stuck");
    QTest::addColumn<QString>("text");

    QTest::newRow("twenty seconds without progress is progressing")
        << 20 * kSecond << 20 * kSecond << int(RolloutHeadline::Progressing) << false
        << QStringLiteral("Rolling out revision 2: 2 of 5 updated, 5 available");
    QTest::newRow("a minute without progress when a node takes 20 s is slow")
        << 1 * kMin << 20 * kSecond << int(RolloutHeadline::Slow) << false
        << QStringLiteral("Slow: no progress for 60s (a node usually takes 20s); 2 of 5 updated");
    QTest::newRow("three minutes without progress when a node takes 20 s is stuck")
        << 3 * kMin << 20 * kSecond << int(RolloutHeadline::Stuck) << true
        << QStringLiteral("Stuck: no progress for 3m; 2 of 5 updated, 5 available");
    QTest::newRow("three minutes without progress when a node takes a minute is only slow")
        << 3 * kMin << 1 * kMin << int(RolloutHeadline::Slow) << false
        << QStringLiteral("Slow: no progress for 3m (a node usually takes 60s); 2 of 5 updated");
    QTest::newRow("six minutes without progress when a node takes a minute is stuck")
        << 6 * kMin << 1 * kMin << int(RolloutHeadline::Stuck) << true
        << QStringLiteral("Stuck: no progress for 6m; 2 of 5 updated, 5 available");
    QTest::newRow("before any node finished, two minutes without progress is the floor")
        << 130 * kSecond << qint64(0) << int(RolloutHeadline::Stuck) << true
        << QStringLiteral("Stuck: no progress for 2m10s; 2 of 5 updated, 5 available");
    QTest::newRow("before any node finished, a minute without progress is slow")
        << 1 * kMin << qint64(0) << int(RolloutHeadline::Slow) << false
        << QStringLiteral("Slow: no progress for 60s; 2 of 5 updated");
}

void TestRolloutHeadline::stuckOrSlow()
{
    QFETCH(qint64, sinceProgress);
    QFETCH(qint64, meanNode);
    QFETCH(int, reason);
    QFETCH(bool, stuck);
    QFETCH(QString, text);

    // Nothing holds the budget (maxUnavailable 1, every pod available): only time tells.
    RolloutSpec s = spec("N N O O O");
    s.rolloutAgo = sinceProgress;
    s.meanNodeMs = meanNode;
    const auto snap = rolloutSnapshot(s);
    const RolloutHeadline h = RolloutHeadline::compute(*snap, kKey, observation(s));
    QCOMPARE(RolloutHeadline::reasonName(h.reason),
             RolloutHeadline::reasonName(static_cast<RolloutHeadline::Reason>(reason)));
    QCOMPARE(h.stuck, stuck);
    QCOMPARE(h.meanNodeMs, meanNode);
    QCOMPARE(h.stuckAfterMs, std::max(2 * kMin, 5 * meanNode));
    QCOMPARE(h.text, text);
}

void TestRolloutHeadline::budgetResolution_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<QString>("maxSurge");
    QTest::addColumn<int>("desired");
    QTest::addColumn<int>("unavailableBudget");
    QTest::addColumn<int>("surgeBudget");

    const QString ru = QStringLiteral("RollingUpdate");
    QTest::newRow("an integer is taken as it is")
        << ru << QStringLiteral("2") << QStringLiteral("0") << 10 << 2 << 0;
    QTest::newRow("10% of 5 nodes rounds up to 1")
        << ru << QStringLiteral("10%") << QStringLiteral("0") << 5 << 1 << 0;
    QTest::newRow("25% of 10 nodes rounds up to 3")
        << ru << QStringLiteral("25%") << QStringLiteral("0") << 10 << 3 << 0;
    QTest::newRow("both zero forces maxUnavailable to 1")
        << ru << QStringLiteral("0") << QStringLiteral("0") << 10 << 1 << 0;
    QTest::newRow("zero maxUnavailable with a surge stays zero")
        << ru << QStringLiteral("0") << QStringLiteral("20%") << 10 << 0 << 2;
    QTest::newRow("nothing to schedule needs no budget")
        << ru << QStringLiteral("0%") << QStringLiteral("0") << 0 << 0 << 0;
    QTest::newRow("OnDelete has no budget")
        << QStringLiteral("OnDelete") << QString() << QString() << 10 << 0 << 0;
    QTest::newRow("a string without a percent sign is invalid and gives no budget")
        << ru << QStringLiteral("two") << QStringLiteral("1") << 10 << 0 << 1;
}

void TestRolloutHeadline::budgetResolution()
{
    QFETCH(QString, strategy);
    QFETCH(QString, maxUnavailable);
    QFETCH(QString, maxSurge);
    QFETCH(int, desired);
    QFETCH(int, unavailableBudget);
    QFETCH(int, surgeBudget);

    models::DaemonSetInfo ds;
    ds.strategyType = strategy;
    ds.maxUnavailable = maxUnavailable;
    ds.maxSurge = maxSurge;
    ds.counts.desired = desired;
    QCOMPARE(RolloutHeadline::resolvedMaxUnavailable(ds), unavailableBudget);
    QCOMPARE(RolloutHeadline::resolvedMaxSurge(ds), surgeBudget);
}

void TestRolloutHeadline::estimate_data()
{
    QTest::addColumn<RolloutSpec>("rollout");
    QTest::addColumn<qint64>("eta");

    {
        RolloutSpec s = spec("N N n O O");
        s.meanNodeMs = 20 * kSecond;
        QTest::newRow("three nodes left at 20 s one at a time take a minute") << s << 60 * kSecond;
    }
    {
        RolloutSpec s = spec("N N n O O");
        s.meanNodeMs = 20 * kSecond;
        s.maxUnavailable = QStringLiteral("2");
        QTest::newRow("three nodes left two at a time take 30 s") << s << 30 * kSecond;
    }
    {
        RolloutSpec s = spec("N N n O O");
        s.meanNodeMs = 20 * kSecond;
        s.maxUnavailable = QStringLiteral("0");
        s.maxSurge = QStringLiteral("3");
        QTest::newRow("a surge budget sets the parallelism") << s << 20 * kSecond;
    }
    QTest::newRow("no finished node gives no estimate") << spec("N N n O O") << qint64(-1);
    {
        RolloutSpec s = spec("N N N N N");
        s.meanNodeMs = 20 * kSecond;
        QTest::newRow("a complete rollout has nothing left") << s << qint64(0);
    }
    {
        RolloutSpec s = spec("N N n O O");
        s.meanNodeMs = 20 * kSecond;
        s.paused = true;
        QTest::newRow("a paused rollout gives no estimate") << s << qint64(-1);
    }
}

void TestRolloutHeadline::estimate()
{
    QFETCH(RolloutSpec, rollout);
    QFETCH(qint64, eta);
    const auto snap = rolloutSnapshot(rollout);
    QCOMPARE(RolloutHeadline::estimateRemainingMs(snap->daemonSets.front(), rollout.now), eta);
}

void TestRolloutHeadline::unknownDaemonSetHasNoRollout()
{
    const auto snap = rolloutSnapshot(spec("N N"));
    const RolloutHeadline h = RolloutHeadline::compute(*snap, QStringLiteral("default/other"), {});
    QCOMPARE(h.reason, RolloutHeadline::NoDaemonSet);
    QCOMPARE(h.text, QStringLiteral("No DaemonSet selected"));
}

void TestRolloutHeadline::changesAtTheNextThresholdOrWording_data()
{
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<bool>("paused");
    QTest::addColumn<qint64>("sinceProgress");
    QTest::addColumn<qint64>("meanNode");
    QTest::addColumn<qint64>("terminatingFor");
    QTest::addColumn<qint64>("changesIn"); // ms from now; -1: never

    QTest::newRow("a complete rollout never changes by itself")
        << u"N N N N N"_s << false << 5 * kSecond << qint64(0) << qint64(0) << qint64(-1);
    QTest::newRow("a paused rollout never changes by itself")
        << u"N N O O O"_s << true << 5 * kSecond << qint64(0) << qint64(0) << qint64(-1);
    QTest::newRow("progressing turns slow when 30 s without progress have passed")
        << u"N N O O O"_s << false << 20 * kSecond << qint64(0) << qint64(0) << 10 * kSecond + 1;
    QTest::newRow("slow for 60s reads 61s a second later")
        << u"N N O O O"_s << false << 60 * kSecond << 20 * kSecond << qint64(0) << 1 * kSecond;
    QTest::newRow("slow for 3m20.5s reads 3m21s half a second later")
        << u"N N O O O"_s << false << qint64(200500) << 1 * kMin << qint64(0) << qint64(500);
    QTest::newRow("stuck for 25m30s reads 26m thirty seconds later")
        << u"N N O O O"_s << false << 25 * kMin + 30 * kSecond << qint64(0) << qint64(0) << 30 * kSecond;
    QTest::newRow("stuck for 8h59m reads 9h a minute later")
        << u"N N O O O"_s << false << 8 * 60 * kMin + 59 * kMin << qint64(0) << qint64(0) << 1 * kMin;
    QTest::newRow("a pod terminating for 100 s is stuck terminating 20 s later")
        << u"N t O O O"_s << false << 5 * kSecond << qint64(0) << 100 * kSecond << 20 * kSecond + 1;
}

void TestRolloutHeadline::changesAtTheNextThresholdOrWording()
{
    QFETCH(QString, nodes);
    QFETCH(bool, paused);
    QFETCH(qint64, sinceProgress);
    QFETCH(qint64, meanNode);
    QFETCH(qint64, terminatingFor);
    QFETCH(qint64, changesIn);

    RolloutSpec s = spec(nodes.toLatin1().constData());
    s.paused = paused;
    s.rolloutAgo = sinceProgress;
    s.meanNodeMs = meanNode;
    const auto snap = rolloutSnapshot(s);
    const RolloutObservation o = observation(s, terminatingFor);
    const RolloutHeadline h = RolloutHeadline::compute(*snap, kKey, o);
    QCOMPARE(h.changesAt, changesIn < 0 ? qint64(0) : s.now + changesIn);
    // Later, the same inputs give the same headline until changesAt, and another one from then on.
    const qint64 until = changesIn < 0 ? s.now + 24 * 60 * kMin : h.changesAt;
    for (const qint64 t : {s.now + 1, (s.now + until) / 2, until - 1}) {
        if (t <= s.now)
            continue;
        const RolloutHeadline later = RolloutHeadline::compute(*snap, kKey, o, t);
        QCOMPARE(later.text, h.text);
        QCOMPARE(RolloutHeadline::reasonName(later.reason), RolloutHeadline::reasonName(h.reason));
    }
    if (changesIn >= 0)
        QVERIFY(RolloutHeadline::compute(*snap, kKey, o, h.changesAt).text != h.text);
}

void TestRolloutHeadline::wordingChangesAtHumanAgeGranularity()
{
    // Just before the wait, humanAge reads as now; at its end, differently.
    for (const qint64 d : std::initializer_list<qint64>{
             0, 999, kSecond, 59 * kSecond, 119500, 2 * kMin, 9 * kMin + 59500, 10 * kMin, 10 * kMin + 1,
             179 * kMin + 30 * kSecond, 180 * kMin, 479 * kMin, 480 * kMin + 5, 47 * 60 * kMin,
             2 * 24 * 60 * kMin, 8 * 24 * 60 * kMin - 1, 8 * 24 * 60 * kMin, 30 * 24 * 60 * kMin + 12345}) {
        const qint64 wait = models::AgeClock::untilWordingChanges(d);
        QVERIFY2(wait >= 1, qPrintable(QString::number(d)));
        QCOMPARE(kube::humanAge(d + wait - 1), kube::humanAge(d));
        QVERIFY2(kube::humanAge(d + wait) != kube::humanAge(d), qPrintable(QString::number(d)));
    }
}

QTEST_GUILESS_MAIN(TestRolloutHeadline)
#include "tst_rolloutheadline.moc"
