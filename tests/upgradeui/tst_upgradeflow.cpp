// The node-agent upgrade through the embedded backend, as the console drives it: start a rollout
// on the demo cluster, watch nodes move through the phases in the snapshots, pause (no new node
// is selected while paused), resume, make a node's restart fail so the rollout halts (the
// headline says so), acknowledge, skip the failed node and run to completion. The page's models
// follow the same snapshots under QAbstractItemModelTester.

#include "upgradetesthelpers.h"

#include "models/itemmodels/upgradeeventlistmodel.h"
#include "models/itemmodels/upgradenodetablemodel.h"
#include "models/itemmodels/upgradephasechartmodel.h"
#include "models/itemmodels/upgraderolloutlistmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <set>

using models::ActionKind;
using models::ActionResult;
using models::UpgradeNodePhase;
using models::UpgradeRolloutInfo;
using namespace upgradetest;

namespace {

const QString kName = QStringLiteral("agents-highmem");

// Nodes that have left Pending in this rollout (selected at some point).
std::set<QString> started(const UpgradeRolloutInfo &r)
{
    std::set<QString> out;
    for (const auto &n : *r.nodes) {
        if (n.phase != UpgradeNodePhase::Pending && n.phase != UpgradeNodePhase::UpToDate)
            out.insert(n.name);
    }
    return out;
}

// For failure messages: phase, headline and every node that is not done.
QString describe(const UpgradeRolloutInfo &r)
{
    QString out = models::upgradeRolloutPhaseName(r.phase) + QStringLiteral(" | ") + r.headline;
    for (const auto &n : *r.nodes) {
        if (n.phase != UpgradeNodePhase::Upgraded)
            out += QStringLiteral(" | %1 %2 %3").arg(n.name, models::upgradeNodePhaseName(n.phase), n.reason);
    }
    return out;
}

} // namespace

class TestUpgradeFlow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<models::ActionResult>(); }
    void controlsAreRefusedForUnknownRolloutsAndActions_data();
    void controlsAreRefusedForUnknownRolloutsAndActions();
    void aRolloutOnTheDemoPausesResumesHaltsAndCompletes();
};

void TestUpgradeFlow::controlsAreRefusedForUnknownRolloutsAndActions_data()
{
    QTest::addColumn<QString>("rollout");
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("pausing a rollout that does not exist is NotFound")
        << QStringLiteral("nope") << QStringLiteral("pause") << QString() << QStringLiteral("not found");
    QTest::newRow("an unknown action is refused by name")
        << kName << QStringLiteral("explode") << QString() << QStringLiteral("explode");
    QTest::newRow("a node action without a node is refused")
        << kName << QStringLiteral("hold") << QString() << QStringLiteral("needs a node");
}

void TestUpgradeFlow::controlsAreRefusedForUnknownRolloutsAndActions()
{
    QFETCH(QString, rollout);
    QFETCH(QString, action);
    QFETCH(QString, node);
    QFETCH(QString, messagePart);
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    ActionResult result;
    QVERIFY(!act(
        *backend, ActionKind::UpgradeControl,
        [&] { backend->upgradeControl(rollout, action, node, QString()); }, &result));
    QCOMPARE(result.kind, ActionKind::UpgradeControl);
    QVERIFY2(result.message.contains(messagePart, Qt::CaseInsensitive), qPrintable(result.message));
}

void TestUpgradeFlow::aRolloutOnTheDemoPausesResumesHaltsAndCompletes()
{
    auto backend = makeBackend();
    models::UpgradeNodeTableModel nodes;
    models::UpgradePhaseChartModel chart;
    models::UpgradeEventListModel events;
    models::UpgradeRolloutListModel list;
    QAbstractItemModelTester t1(&nodes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&chart, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(&events, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t4(&list, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (auto *m : std::initializer_list<QObject *>{&nodes, &chart, &events, &list})
        connect(backend.get(), SIGNAL(snapshotReady(std::shared_ptr<const models::ClusterSnapshot>)), m,
                SLOT(setSnapshot(std::shared_ptr<const models::ClusterSnapshot>)));
    int resets = 0;
    connect(&nodes, &QAbstractItemModel::modelReset, this, [&] { ++resets; });
    nodes.setRollout(kName);
    chart.setRollout(kName);
    events.setRollout(kName);
    QVERIFY(load(*backend));
    QVERIFY(backend->latest()->upgrades->empty());
    QVERIFY(!backend->latest()->upgradeInventory->empty());

    // Start: the first node of the queue is selected at once.
    ActionResult result;
    QVERIFY2(act(
                 *backend, ActionKind::StartUpgrade, [&] { backend->startUpgrade(demoRollout()); }, &result),
             qPrintable(result.message));
    QCOMPARE(result.target, kName);
    const UpgradeRolloutInfo *r = rollout(*backend, kName);
    QVERIFY(r);
    QCOMPARE(r->phase, models::UpgradeRolloutPhase::Progressing);
    QCOMPARE(r->counts.nodes, 9);
    QCOMPARE(r->counts.inFlight, 1);
    QCOMPARE(r->nodes->size(), std::size_t(9));
    QCOMPARE(list.rowCount(), 1);
    QCOMPARE(nodes.rowCount(), 9);
    const QString first = [&] {
        for (const auto &n : *r->nodes)
            if (models::upgradeNodeInFlight(n.phase))
                return n.name;
        return QString();
    }();
    QVERIFY(!first.isEmpty());

    // Watch the first node move through the phases until it is upgraded.
    std::set<UpgradeNodePhase> seen;
    const bool firstDone = stepUntil(
        *backend, kName,
        [&](const UpgradeRolloutInfo &info) {
            seen.insert(info.node(first)->phase);
            return info.node(first)->phase == UpgradeNodePhase::Upgraded ||
                   info.node(first)->agentVersion == QLatin1String("v1.33.1");
        },
        10 * 60 * 1000, 2000);
    {
        const auto *now = rollout(*backend, kName);
        const auto *row = now->node(first);
        QVERIFY2(firstDone, qPrintable(QStringLiteral("%1: %2 %3 %4 | %5")
                                           .arg(first, models::upgradeNodePhaseName(row->phase), row->reason,
                                                row->blockers.join(QLatin1Char(',')), now->headline)));
    }
    QVERIFY(seen.count(UpgradeNodePhase::Restarting) || seen.count(UpgradeNodePhase::Soaking));
    QVERIFY(rollout(*backend, kName)->counts.upToDate >= 1);
    QVERIFY(chart.rowCount() >= 2);
    QVERIFY(events.rowCount() > 0);

    // Pause: nothing new is selected while paused, however long we wait.
    QVERIFY(act(*backend, ActionKind::UpgradeControl, [&] {
        backend->upgradeControl(kName, QStringLiteral("pause"), QString(), QStringLiteral("lunch"));
    }));
    QVERIFY(stepUntil(
        *backend, kName,
        [](const UpgradeRolloutInfo &i) { return i.phase == models::UpgradeRolloutPhase::Paused; },
        5 * 60 * 1000, 5000));
    const std::set<QString> beforePause = started(*rollout(*backend, kName));
    QVERIFY(step(*backend, 20 * 60 * 1000));
    QCOMPARE(started(*rollout(*backend, kName)), beforePause);
    r = rollout(*backend, kName);
    QVERIFY(r->paused);
    QCOMPARE(r->counts.inFlight, 0);
    QVERIFY2(r->headline.contains(QStringLiteral("Paused")), qPrintable(r->headline));
    QVERIFY(r->preview);
    QVERIFY2(!r->preview->nextNodes.isEmpty(), qPrintable(r->preview->summary));
    const QString next = r->preview->nextNodes.front();

    // The next node will not come back from its restart.
    QVERIFY(act(*backend, ActionKind::InjectFault,
                [&] { backend->injectFault(next, QStringLiteral("NeverReturns")); }));

    // Resume: the preview's node is selected next, then its restart fails and the rollout halts.
    QVERIFY(act(*backend, ActionKind::UpgradeControl,
                [&] { backend->upgradeControl(kName, QStringLiteral("resume"), QString(), QString()); }));
    QVERIFY(stepUntil(
        *backend, kName,
        [&](const UpgradeRolloutInfo &i) { return i.node(next)->phase != UpgradeNodePhase::Pending; },
        60 * 1000, 1000));
    QVERIFY(stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return i.halted(); }, 20 * 60 * 1000, 10000));
    r = rollout(*backend, kName);
    QCOMPARE(r->node(next)->phase, UpgradeNodePhase::Failed);
    QCOMPARE(r->counts.failed, 1);
    QVERIFY2(r->headline.startsWith(QStringLiteral("Halted")), qPrintable(r->headline));
    QVERIFY2(r->headline.contains(next), qPrintable(r->headline));
    const std::set<QString> atHalt = started(*r);
    QVERIFY(step(*backend, 10 * 60 * 1000));
    QCOMPARE(started(*rollout(*backend, kName)), atHalt); // halted: nothing new

    // Acknowledge, skip the dead node, bring it back, and the rest completes.
    QVERIFY(act(*backend, ActionKind::UpgradeControl, [&] {
        backend->upgradeControl(kName, QStringLiteral("acknowledge"), QString(), QString());
    }));
    QVERIFY(!rollout(*backend, kName)->halted());
    QVERIFY(act(
        *backend, ActionKind::UpgradeControl,
        [&] { backend->upgradeControl(kName, QStringLiteral("skip"), next, QString()); }, &result));
    // The admin repairs the skipped node (it rejoins on the old version): its budget slot frees up.
    QVERIFY(
        act(*backend, ActionKind::InjectFault, [&] { backend->injectFault(next, QStringLiteral("Ready")); }));
    const bool finished = stepUntil(
        *backend, kName, [](const UpgradeRolloutInfo &i) { return !i.running(); }, 4 * 3600 * 1000, 30000);
    QVERIFY2(finished, qPrintable(describe(*rollout(*backend, kName))));
    r = rollout(*backend, kName);
    QCOMPARE(r->phase, models::UpgradeRolloutPhase::CompletedWithExceptions);
    QCOMPARE(r->counts.skipped, 1);
    QCOMPARE(r->counts.upToDate, 8);
    QCOMPARE(r->node(next)->phase, UpgradeNodePhase::Skipped);

    // The models followed every snapshot incrementally.
    QCOMPARE(resets, 1); // setRollout only
    QCOMPARE(nodes.rowCount(), 9);
    const int skippedRow = nodes.rowOf(next);
    QVERIFY(skippedRow >= 0);
    QCOMPARE(nodes
                 .data(nodes.index(skippedRow, models::UpgradeNodeTableModel::PhaseColumn),
                       models::UpgradeNodeTableModel::PhaseRole)
                 .toInt(),
             int(UpgradeNodePhase::Skipped));
    const auto *last = chart.row(chart.rowCount() - 1);
    QCOMPARE(last->bands[models::UpgradePhaseChartModel::DoneBand], 8);
    QCOMPARE(last->bands[models::UpgradePhaseChartModel::SkippedBand], 1);
}

QTEST_GUILESS_MAIN(TestUpgradeFlow)
#include "tst_upgradeflow.moc"
