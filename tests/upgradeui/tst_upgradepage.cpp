// The node-upgrade page driven offscreen on the embedded demo cluster: the start form's defaults
// and pre-flight report, its Start button sending the rollout to the backend, the rollout
// buttons (pause asks with the nodes still in flight, resume shows the preview), node actions
// (hold / release; force asks first and sends nothing when declined), and the main window's
// hooks (explorer section with a phase badge, page switch, status-bar indicator, menu action).

#include "upgradetesthelpers.h"

#include "models/api/nodeupgraderollout.h"
#include "models/itemmodels/upgradeeventlistmodel.h"
#include "models/itemmodels/upgradenodetablemodel.h"
#include "models/itemmodels/upgradephasechartmodel.h"
#include "models/itemmodels/upgraderolloutlistmodel.h"
#include "ui/mainwindow.h"
#include "ui/startupgradedialog.h"
#include "ui/upgradeexplorer.h"
#include "ui/upgradepage.h"

#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using models::ActionKind;
using models::UpgradeNodePhase;
using namespace upgradetest;

class TestUpgradePage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<models::ActionResult>(); }
    void theStartFormHasTheDesignDefaults_data();
    void theStartFormHasTheDesignDefaults();
    void theStartFormFollowsThePodsOnceRead();
    void theStartFormRunsAJobPerNode();
    void buttonsDriveTheBackend();
    void theChartAndTheEventsFollowTheRollout();
    void mainWindowListsTheRolloutAndShowsItsPage();
    void aRolloutThatCannotMoveSaysSoOnThePage();
};

void TestUpgradePage::theStartFormHasTheDesignDefaults_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("preflightPart");
    QTest::newRow("every node: 39 worker nodes need the control plane's version")
        << QString() << QStringLiteral("39 node");
    QTest::newRow("the highmem pool: 9 nodes, three per zone")
        << QStringLiteral("node-pool=highmem") << QStringLiteral("zone-a: 3, zone-b: 3, zone-c: 3");
    QTest::newRow("a selector matching nothing has nothing to do")
        << QStringLiteral("node-pool=gpu") << QStringLiteral("0 node");
}

void TestUpgradePage::theStartFormHasTheDesignDefaults()
{
    QFETCH(QString, selector);
    QFETCH(QString, preflightPart);
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    gui::StartUpgradeDialog dialog(backend->latest());
    QCOMPARE(dialog.targetEdit()->text(), QStringLiteral("v1.33.1"));
    QCOMPARE(dialog.maxUnavailableEdit()->text(), QStringLiteral("1"));
    QCOMPARE(dialog.rolloutName(), QStringLiteral("agents-v1-33-1"));
    const auto spec = api::NodeUpgradeRolloutSpec::fromJson(dialog.specJson());
    QVERIFY(spec.ok());
    QCOMPARE(spec->controllerHealthThreshold, 0.9);
    QCOMPARE(spec->unmanagedPodPolicy, api::UnmanagedPodPolicy::AfterTimeout);
    QCOMPARE(spec->timeouts.unmanagedTimeout, 3600 * 1000);
    QCOMPARE(spec->onDrainTimeout, api::DrainTimeoutPolicy::Hold);
    QCOMPARE(spec->localDataPolicy, api::LocalDataPolicy::Block); // emptyDir data is kept by default
    QCOMPARE(dialog.localDataPolicyCombo()->currentData().toString(), QStringLiteral("Block"));
    QCOMPARE(spec->restart, api::RestartMechanism::Annotation);
    QVERIFY(!dialog.jobTemplateEdit()->isVisibleTo(&dialog));
    QCOMPARE(spec->timeouts.drainTimeout, 30 * 60 * 1000);
    QCOMPARE(spec->timeouts.returnTimeout, 10 * 60 * 1000);
    QCOMPARE(spec->soakDuration, 2 * 60 * 1000);
    QVERIFY(spec->zoneSerial);
    dialog.selectorEdit()->setText(selector);
    QVERIFY2(dialog.preflightText().contains(preflightPart), qPrintable(dialog.preflightText()));
    QVERIFY(dialog.preflightText().contains(QStringLiteral("Predicted order")) ||
            preflightPart.startsWith(QLatin1Char('0')));
    // Every node with the default budget of one: the demo's NotReady node-b-4 holds that slot,
    // so the report says the rollout cannot start and promises no duration.
    if (selector.isEmpty()) {
        QVERIFY2(dialog.preflightText().contains(QStringLiteral("Cannot start now: the budget of 1")),
                 qPrintable(dialog.preflightText()));
        QVERIFY2(dialog.preflightText().contains(QStringLiteral("node-b-4 (NotReady)")),
                 qPrintable(dialog.preflightText()));
        QVERIFY(!dialog.preflightText().contains(QStringLiteral("Estimated duration: about")));
    }
}

// A live cluster's pods are read once the page asks for them (on show), so the start form may
// open before they are: its report says so, and it is computed again when they arrive. The
// page also asks its backend for them when shown.
void TestUpgradePage::theStartFormFollowsThePodsOnceRead()
{
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    const models::SnapshotPtr read = backend->latest();
    QVERIFY(!read->upgradeInventory->empty());
    auto unread = std::make_shared<models::ClusterSnapshot>(*read);
    unread->upgradeInventoryRead = false;
    unread->upgradeInventory = models::emptyUpgradeInventory();

    gui::UpgradePage page(backend.get());
    page.setSnapshot(unread);
    gui::StartUpgradeDialog *dialog = page.showStartDialog(false);
    QVERIFY(dialog);
    const QString stillReading = QStringLiteral("The nodes' pods are still being read");
    QVERIFY2(dialog->preflightText().contains(stillReading), qPrintable(dialog->preflightText()));
    // The demo's single-replica controllers are only known from the pods.
    QVERIFY2(dialog->preflightText().contains(QStringLiteral("Single-replica controllers: none")),
             qPrintable(dialog->preflightText()));

    page.setSnapshot(read);
    QVERIFY2(!dialog->preflightText().contains(stillReading), qPrintable(dialog->preflightText()));
    QVERIFY2(!dialog->preflightText().contains(QStringLiteral("Single-replica controllers: none")),
             qPrintable(dialog->preflightText()));
    dialog->close();
}

void TestUpgradePage::buttonsDriveTheBackend()
{
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    gui::UpgradePage page(backend.get());
    connect(backend.get(), &models::ClusterBackend::snapshotReady, &page, &gui::UpgradePage::setSnapshot);
    page.setSnapshot(backend->latest());
    page.resize(1200, 800);
    page.show();
    QString asked;
    bool answer = true;
    page.setConfirmHandler([&](const QString &title, const QString &text) {
        asked = title + QLatin1Char('\n') + text;
        return answer;
    });

    // Start through the form.
    gui::StartUpgradeDialog *dialog = page.showStartDialog(false);
    QVERIFY(dialog);
    dialog->selectorEdit()->setText(QStringLiteral("node-pool=highmem"));
    dialog->nameEdit()->setText(QStringLiteral("agents-highmem"));
    // node-a-10 runs an unmanaged pod: delete it at once instead of after the 1h default.
    dialog->unmanagedPolicyCombo()->setCurrentIndex(
        dialog->unmanagedPolicyCombo()->findData(QStringLiteral("immediate")));
    QVERIFY(act(*backend, ActionKind::StartUpgrade, [&] { dialog->accept(); }));
    QCOMPARE(page.rollout(), QStringLiteral("agents-highmem"));
    QTRY_VERIFY(page.rolloutInfo() != nullptr);
    QTRY_COMPARE(page.nodeModel()->rowCount(), 9);
    QVERIFY(!page.headlineLabel()->text().isEmpty());
    QVERIFY(page.button(QStringLiteral("upgradePause"))->isEnabled());
    QVERIFY(!page.button(QStringLiteral("upgradeAcknowledge"))->isEnabled());
    QString inFlight;
    for (const auto &n : *page.rolloutInfo()->nodes)
        if (models::upgradeNodeInFlight(n.phase))
            inFlight = n.name;
    QVERIFY(!inFlight.isEmpty());

    // Once its restart is under way (it will finish while paused), pause: the dialog asks first
    // and lists the node still in flight.
    QVERIFY(stepUntil(
        *backend, page.rollout(),
        [&](const auto &r) {
            return r.node(inFlight)->phase == UpgradeNodePhase::Restarting ||
                   r.node(inFlight)->phase == UpgradeNodePhase::Soaking;
        },
        5 * 60 * 1000, 1000));
    QVERIFY(act(*backend, ActionKind::UpgradeControl,
                [&] { page.button(QStringLiteral("upgradePause"))->click(); }));
    QVERIFY2(asked.contains(inFlight), qPrintable(asked));
    QVERIFY(stepUntil(
        *backend, page.rollout(),
        [](const auto &r) {
            return r.phase == models::UpgradeRolloutPhase::Paused && r.counts.inFlight == 0;
        },
        5 * 60 * 1000, 5000));
    QTRY_VERIFY(page.button(QStringLiteral("upgradeResume"))->isEnabled());

    // Resume shows the preview of the first pass.
    asked.clear();
    QVERIFY(act(*backend, ActionKind::UpgradeControl,
                [&] { page.button(QStringLiteral("upgradeResume"))->click(); }));
    QVERIFY2(asked.contains(QStringLiteral("first pass")), qPrintable(asked));
    QVERIFY2(asked.contains(QStringLiteral("select ")), qPrintable(asked));

    // Hold a pending node from the table; release appears in its place.
    QString pending;
    QTRY_VERIFY(!page.rolloutInfo()->paused);
    for (const auto &n : *page.rolloutInfo()->nodes)
        if (n.phase == UpgradeNodePhase::Pending)
            pending = n.name;
    QVERIFY(!pending.isEmpty());
    QVERIFY(page.selectNode(pending));
    QCOMPARE(page.currentNode(), pending);
    QPushButton *hold = page.button(QStringLiteral("nodeHold"));
    QVERIFY(hold->isEnabled());
    QVERIFY(act(*backend, ActionKind::UpgradeControl, [&] { hold->click(); }));
    QTRY_VERIFY(page.rolloutInfo()->node(pending)->held);
    QTRY_VERIFY(!page.button(QStringLiteral("nodeRelease"))->isHidden());
    QVERIFY(page.button(QStringLiteral("nodeRelease"))->isEnabled());

    // Force asks; declining sends nothing.
    answer = false;
    asked.clear();
    QSignalSpy results(backend.get(), &models::ClusterBackend::actionFinished);
    page.nodeAction(QStringLiteral("force"));
    QVERIFY2(asked.startsWith(QStringLiteral("Force ") + pending), qPrintable(asked));
    QTest::qWait(200);
    QCOMPARE(results.count(), 0);
}

void TestUpgradePage::theChartAndTheEventsFollowTheRollout()
{
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    gui::UpgradePage page(backend.get());
    connect(backend.get(), &models::ClusterBackend::snapshotReady, &page, &gui::UpgradePage::setSnapshot);
    page.setSnapshot(backend->latest());
    page.resize(1200, 800);
    page.show();
    page.chartModel()->setCapacity(6); // the history is gathered into coarser buckets along the way
    const QString name = QStringLiteral("agents-highmem");
    QVERIFY(act(*backend, ActionKind::StartUpgrade, [&] { backend->startUpgrade(demoRollout(name)); }));
    page.setRollout(name);
    QVERIFY(stepUntil(
        *backend, name, [](const auto &r) { return r.counts.upgraded >= 2; }, 20 * 60 * 1000));
    QTRY_VERIFY(page.rolloutInfo() == rollout(*backend, name));

    // Every series has one point per chart row; the top band's line ends at all nine nodes.
    using Chart = models::UpgradePhaseChartModel;
    const Chart *chart = page.chartModel();
    QVERIFY(chart->rowCount() >= 2 && chart->rowCount() <= 6);
    QVERIFY(chart->bucketMs() > 0);
    const auto series = page.chart()->series();
    QCOMPARE(series.size(), int(Chart::BandCount) + 3);
    for (QAbstractSeries *s : series) {
        auto *area = qobject_cast<QAreaSeries *>(s);
        auto *xy = area ? area->upperSeries() : qobject_cast<QXYSeries *>(s);
        QVERIFY(xy);
        QCOMPARE(xy->count(), chart->rowCount());
        QCOMPARE(xy->at(0).x(), chart->index(0, Chart::ElapsedColumn).data().toDouble());
    }
    auto *top = qobject_cast<QAreaSeries *>(series.at(Chart::BandCount - 1));
    const int last = chart->rowCount() - 1;
    QCOMPARE(top->upperSeries()->at(last).x(), chart->index(last, Chart::ElapsedColumn).data().toDouble());
    QCOMPARE(top->upperSeries()->at(last).y(), 9.0);

    // The events tab catches up when it is shown, and keeps up while it is.
    const auto *info = page.rolloutInfo();
    QVERIFY(!info->events->empty());
    auto *tabs = page.findChild<QTabWidget *>();
    QVERIFY(tabs);
    tabs->setCurrentWidget(page.eventTable());
    QCOMPARE(page.eventModel()->rowCount(), int(info->events->size()));
    QCOMPARE(page.eventModel()->index(0, models::UpgradeEventListModel::MessageColumn).data().toString(),
             info->events->front().message);
    const std::size_t eventsShown = info->events->size(); // `info` goes with the next snapshot
    QVERIFY(stepUntil(
        *backend, name, [&](const auto &r) { return r.events->size() > eventsShown; }, 20 * 60 * 1000));
    QTRY_VERIFY(page.rolloutInfo() == rollout(*backend, name));
    QCOMPARE(page.eventModel()->rowCount(), int(page.rolloutInfo()->events->size()));
}

void TestUpgradePage::mainWindowListsTheRolloutAndShowsItsPage()
{
    models::EmbeddedBackendOptions options;
    options.speed = 0;
    auto *backend = new models::EmbeddedBackend(options);
    gui::MainWindow window(backend);
    window.resize(1400, 900);
    window.show();
    QSignalSpy loaded(backend, &models::ClusterBackend::actionFinished);
    window.openScenario(demoPath());
    QTRY_VERIFY_WITH_TIMEOUT(window.daemonSetCount() > 0, 60000);
    QAction *start = window.action(QStringLiteral("startUpgrade"));
    QVERIFY(start);
    QTRY_VERIFY(start->isEnabled());               // once the loaded cluster is shown
    QVERIFY(window.upgradeExplorer()->isHidden()); // no rollout yet

    const QString name = window.upgradePage()->startDefaultUpgrade();
    QCOMPARE(name, QStringLiteral("agents-v1-33-1"));
    QTRY_COMPARE_WITH_TIMEOUT(window.upgradeExplorer()->model()->rowCount(), 1, 30000);
    QVERIFY(!window.upgradeExplorer()->isHidden());
    const QModelIndex phase =
        window.upgradeExplorer()->model()->index(0, models::UpgradeRolloutListModel::PhaseColumn);
    QCOMPARE(phase.data(models::UpgradeRolloutListModel::BadgeRole).toInt(),
             int(models::UpgradeRolloutListModel::Running));

    window.showUpgrade(name);
    QVERIFY(!window.upgradePage()->isHidden());
    QVERIFY(window.page()->isHidden());
    QCOMPARE(window.upgradeExplorer()->current(), name);
    QTRY_COMPARE(window.upgradePage()->nodeModel()->rowCount(), int(window.snapshot()->nodes->size()));
    auto *indicator = window.statusBar()->findChild<QLabel *>(QStringLiteral("upgradeStatus"));
    QVERIFY(indicator);
    QTRY_VERIFY(indicator->text().contains(name));

    // Choosing a DaemonSet in the explorer brings the DaemonSet page back.
    QVERIFY(window.selectDaemonSet(window.snapshot()->daemonSets.back().key));
    QTRY_VERIFY(window.upgradePage()->isHidden());
    QVERIFY(!window.page()->isHidden());

    // Tabbing into the upgrade list (focus alone) keeps the DaemonSet page; the arrow keys or
    // Return on a row open the rollout. Tab leaves every table instead of moving inside it.
    QTreeView *list = window.upgradeExplorer()->view();
    QVERIFY(window.upgradeExplorer()->current().isEmpty());
    window.activateWindow();
    list->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(list->hasFocus());
    QTest::qWait(50);
    QVERIFY(window.upgradePage()->isHidden());
    QVERIFY(!window.page()->isHidden());
    QTest::keyClick(list, Qt::Key_Return);
    QTRY_VERIFY(!window.upgradePage()->isHidden());
    QCOMPARE(window.upgradeExplorer()->current(), name);
    for (QTableView *table : window.findChildren<QTableView *>())
        QVERIFY2(!table->tabKeyNavigation(), qPrintable(table->objectName()));
    QTableView *nodes = window.upgradePage()->nodeTable();
    QVERIFY(nodes && nodes->isVisible());
    nodes->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(nodes->hasFocus());
    QTest::keyClick(nodes, Qt::Key_Tab);
    QVERIFY(!nodes->hasFocus());
}

// The demo's every-node rollout with a budget of one: node-b-4 (NotReady) holds the slot, the
// rollout cannot move, and the page's pill and headline say so.
void TestUpgradePage::aRolloutThatCannotMoveSaysSoOnThePage()
{
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    gui::UpgradePage page(backend.get());
    connect(backend.get(), &models::ClusterBackend::snapshotReady, &page, &gui::UpgradePage::setSnapshot);
    page.resize(1200, 800);
    page.show();
    const QString all = QStringLiteral(
        R"({"apiVersion":"upgrade.daemonscope.io/v1alpha1","kind":"NodeUpgradeRollout",)"
        R"("metadata":{"name":"agents-all"},"spec":{"targetVersion":"v1.33.1","maxUnavailable":1}})");
    QVERIFY(act(*backend, ActionKind::StartUpgrade, [&] { backend->startUpgrade(all); }));
    QVERIFY(stepUntil(
        *backend, QStringLiteral("agents-all"),
        [](const models::UpgradeRolloutInfo &r) {
            return r.conditions.contains(QStringLiteral("Blocked=True (BudgetHeld)"));
        },
        600000));
    page.setRollout(QStringLiteral("agents-all"));
    page.setSnapshot(backend->latest());
    QTRY_VERIFY(page.rolloutInfo() != nullptr);
    auto *pill = page.findChild<QLabel *>(QStringLiteral("upgradePhase"));
    QVERIFY(pill);
    QTRY_VERIFY2(pill->text().contains(QStringLiteral("blocked")), qPrintable(pill->text()));
    QVERIFY2(page.headlineLabel()->text().startsWith(QStringLiteral("Waiting: budget 1/1 used by node-b-4")),
             qPrintable(page.headlineLabel()->text()));
    QCOMPARE(page.rolloutInfo()->eta, qint64(-1));
}

// Restart by Job from the start form: the template's YAML goes into the spec as the rollout's
// schema checks it; a YAML mistake or a template the schema refuses keeps Start disabled and
// says why.
void TestUpgradePage::theStartFormRunsAJobPerNode()
{
    auto backend = makeBackend();
    QVERIFY(load(*backend));
    gui::StartUpgradeDialog dialog(backend->latest());
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    dialog.restartCombo()->setCurrentIndex(dialog.restartCombo()->findData(QStringLiteral("Job")));
    QVERIFY(dialog.jobTemplateEdit()->isVisibleTo(&dialog));
    auto spec = api::NodeUpgradeRolloutSpec::fromJson(dialog.specJson());
    QVERIFY2(spec.ok(), spec ? "" : spec.error().message.c_str());
    QCOMPARE(spec->restart, api::RestartMechanism::Job);
    QCOMPARE(spec->restartJobNamespace, std::string("kube-system"));
    QCOMPARE(spec->restartJobTemplate["spec"]["template"]["spec"]["containers"][0]["name"].get<std::string>(),
             std::string("upgrade"));
    QVERIFY(ok->isEnabled());
    QVERIFY(QString::fromStdString(dialog.rolloutJson().toStdString())
                .contains(QStringLiteral("\"jobTemplate\"")));
    QVERIFY2(dialog.preflightText().contains(QStringLiteral(
                 "Restart: a Job per node in kube-system runs registry.example/node-agent-installer")),
             qPrintable(dialog.preflightText()));

    dialog.jobTemplateEdit()->setPlainText(QStringLiteral("spec:\n  template: [unclosed\n"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(dialog.preflightText().startsWith(QStringLiteral("Invalid: job template:")),
             qPrintable(dialog.preflightText()));
    dialog.jobTemplateEdit()->setPlainText(QStringLiteral("spec:\n  template:\n    spec: {}\n"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(dialog.preflightText().contains(QStringLiteral("needs at least one container")),
             qPrintable(dialog.preflightText()));
}

QTEST_MAIN(TestUpgradePage)
#include "tst_upgradepage.moc"
