// Node actions on the embedded engine and in the console: cordon marks the node unschedulable
// and its tile hatched; drain evicts through the engine's eviction subresource, the ReplicaSet
// puts its pod back on another node, and a PodDisruptionBudget that allows nothing keeps a pod
// and is named with its numbers in the outcome. The node menu is gated by the backend's
// permissions (the reason as tooltip); the drain question does not default to Drain; on a
// production context every confirmation waits for the typed name.

#include "models/embedded/embeddedbackend.h"
#include "models/settings/appsettings.h"
#include "ui/confirmation.h"
#include "ui/draindialog.h"
#include "ui/nodeactions.h"
#include "ui/nodemapview.h"
#include "ui/nodestab.h"
#include "ui/nodetiles.h"
#include "ui/productionbar.h"

#include "tests/support/backendwait.h"

#include <QApplication>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace models;
using namespace Qt::StringLiterals;

namespace {

QString drainScenario()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml");
}

int managedOn(const ClusterSnapshot &s, const QString &node)
{
    for (const auto &w : *s.upgradeInventory)
        if (w.node == node)
            return w.managedPods;
    return 0;
}

int managedTotal(const ClusterSnapshot &s)
{
    int n = 0;
    for (const auto &w : *s.upgradeInventory)
        n += w.managedPods;
    return n;
}

bool cordoned(const ClusterSnapshot &s, const QString &node)
{
    const NodeInfo *n = s.node(node);
    return n && n->unschedulable;
}

std::shared_ptr<ClusterSnapshot> snapshotWithNode(const QString &node, bool unschedulable)
{
    auto s = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty(BackendKind::Live));
    auto nodes = std::make_shared<std::vector<NodeInfo>>();
    NodeInfo n;
    n.name = node;
    n.ready = true;
    n.unschedulable = unschedulable;
    nodes->push_back(n);
    s->nodes = nodes;
    s->backend.kind = BackendKind::Live;
    s->backend.connected = true;
    return s;
}

} // namespace

class TstNodeOps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { gui::setProductionContext(QString()); }
    void embeddedCordonDrainAndBudget();
    void nodeMenuIsGatedByPermissions_data();
    void nodeMenuIsGatedByPermissions();
    void drainDialogDoesNotDefaultToDrain();
    void contextMenuIsReachedFromTheKeyboard_data();
    void contextMenuIsReachedFromTheKeyboard();
    void productionGuardWantsTheTypedName_data();
    void productionGuardWantsTheTypedName();
    void productionPatternMatchesContextOrCluster_data();
    void productionPatternMatchesContextOrCluster();
};

void TstNodeOps::embeddedCordonDrainAndBudget()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = drainScenario();
    options.speed = 20;
    options.drainRetryDelaysMs = {100, 100};
    EmbeddedBackend backend(options);
    QSignalSpy results(&backend, &ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) {
        return s.daemonSet(u"default/agent"_s) && managedTotal(s) == 3 && managedOn(s, u"node-0"_s) == 1;
    }));

    // Cordon: spec.unschedulable, and the tile of the node says so.
    backend.cordon(u"node-2"_s, true);
    ActionResult r = waitResult(results, ActionKind::Cordon);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.target, u"node-2"_s);
    QVERIFY(cordoned(*backend.latest(), u"node-2"_s));
    const auto tiles =
        gui::buildNodeTiles(*backend.latest(), *backend.latest()->daemonSet(u"default/agent"_s));
    for (const auto &t : tiles)
        QCOMPARE(t.cordoned, t.node == u"node-2"_s);
    backend.cordon(u"node-2"_s, false);
    r = waitResult(results, ActionKind::Uncordon);
    QVERIFY2(r.ok, qPrintable(r.message));
    QVERIFY(!cordoned(*backend.latest(), u"node-2"_s));

    // Drain node-0: its api pod is evicted (the budget allows one), the agent pod stays, and the
    // ReplicaSet puts the pod back on another node.
    backend.drain(u"node-0"_s, false);
    r = waitResult(results, ActionKind::Drain);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"drained 1 of 1 pod; skipped 1 DaemonSet pod"_s);
    QVERIFY(cordoned(*backend.latest(), u"node-0"_s));
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) {
        return managedOn(s, u"node-0"_s) == 0 && managedTotal(s) == 3;
    }));
    const auto *agent = backend.latest()->daemonSet(u"default/agent"_s);
    QVERIFY(std::any_of(agent->pods->begin(), agent->pods->end(),
                        [](const PodInfo &p) { return p.node == u"node-0"_s && !p.deleting; }));

    // The two api pods left are on node-1 and node-2 (and one more): with minAvailable 2 of 3
    // Ready the budget allows one eviction; once it is spent, the next drain is blocked.
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) { return managedOn(s, u"node-1"_s) >= 1; }));
    backend.drain(u"node-1"_s, false);
    backend.drain(u"node-2"_s, false);
    const ActionResult first = waitResult(results, ActionKind::Drain);
    const ActionResult second = waitResult(results, ActionKind::Drain);
    // At least one drain met the budget: named with the budget and its numbers, the node cordoned.
    const ActionResult &blocked = !first.ok ? first : second;
    QVERIFY2(!blocked.ok, qPrintable(first.message + u" | "_s + second.message));
    QVERIFY2(blocked.message.contains(QRegularExpression(
                 u"^drained \\d of \\d pods?; api-\\S+: cannot evict, would violate "
                 "PodDisruptionBudget default/api \\(minAvailable 2, \\d healthy of 3\\)"_s)),
             qPrintable(blocked.message));
    QVERIFY(cordoned(*backend.latest(), blocked.target));
    QVERIFY(managedOn(*backend.latest(), blocked.target) >= 1);
}

void TstNodeOps::nodeMenuIsGatedByPermissions_data()
{
    QTest::addColumn<bool>("mayPatchNodes");
    QTest::addColumn<bool>("mayEvict");
    QTest::addColumn<bool>("unschedulable");
    QTest::newRow("an allowed user may cordon and drain") << true << true << false;
    QTest::newRow("an allowed user may uncordon a cordoned node") << true << true << true;
    QTest::newRow("a user who may not patch nodes can do nothing") << false << true << false;
    QTest::newRow("a user who may not evict may cordon, not drain") << true << false << false;
}

void TstNodeOps::nodeMenuIsGatedByPermissions()
{
    QFETCH(bool, mayPatchNodes);
    QFETCH(bool, mayEvict);
    QFETCH(bool, unschedulable);
    EmbeddedBackendOptions options; // no scenario: only the object the actions are sent to
    EmbeddedBackend backend(options);
    auto snap = snapshotWithNode(u"node-a"_s, unschedulable);
    snap->backend.permissions.answers[BackendPermissions::question(u"patch"_s, u"nodes"_s)] = mayPatchNodes;
    snap->backend.permissions.answers[BackendPermissions::question(u"create"_s, u"pods/eviction"_s)] =
        mayEvict;
    QWidget window;
    gui::NodeActions actions(&window);
    actions.setBackend(&backend);
    actions.setSnapshot(snap);
    std::unique_ptr<QMenu> menu(actions.makeMenu(u"node-a"_s, &window));
    auto *cordon = menu->findChild<QAction *>(u"cordonNode"_s);
    auto *uncordon = menu->findChild<QAction *>(u"uncordonNode"_s);
    auto *drain = menu->findChild<QAction *>(u"drainNode"_s);
    QVERIFY(cordon && uncordon && drain);
    QCOMPARE(cordon->isEnabled(), mayPatchNodes && !unschedulable);
    QCOMPARE(uncordon->isEnabled(), mayPatchNodes && unschedulable);
    QCOMPARE(drain->isEnabled(), mayPatchNodes && mayEvict);
    if (!mayPatchNodes) {
        QCOMPARE(cordon->toolTip(), u"you may not patch nodes"_s);
        QCOMPARE(drain->toolTip(), u"you may not patch nodes"_s);
    } else if (!mayEvict) {
        QCOMPARE(drain->toolTip(), u"you may not create pods/eviction"_s);
    } else {
        QVERIFY(!drain->toolTip().startsWith(u"you may not"_s));
    }
    QVERIFY(menu->toolTipsVisible());
    // Details and logs need no permission to ask: they are always offered and name the node.
    auto *details = menu->findChild<QAction *>(u"nodeDetails"_s);
    QVERIFY(details && details->isEnabled());
    QSignalSpy asked(&actions, &gui::NodeActions::detailsRequested);
    details->trigger();
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.front().front().toString(), u"node-a"_s);
}

void TstNodeOps::drainDialogDoesNotDefaultToDrain()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = drainScenario();
    options.speed = 20;
    EmbeddedBackend backend(options);
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) {
        return s.daemonSet(u"default/agent"_s) && managedTotal(s) == 3;
    }));
    QWidget window;
    gui::NodeActions actions(&window);
    actions.setBackend(&backend);
    actions.setSnapshot(backend.latest());
    gui::DrainDialog *dialog = actions.showDrainDialog(u"node-0"_s);
    QVERIFY(dialog);
    QVERIFY(!dialog->drainButton()->isDefault());
    QVERIFY(dialog->drainButton()->isEnabled());
    const QString text = dialog->summaryText();
    QVERIFY2(text.contains(u"Evicted: 1 pod"_s), qPrintable(text));
    QVERIFY2(text.contains(u"default/agent-"_s) && text.contains(u"(DaemonSet agent)"_s), qPrintable(text));
    QVERIFY(!dialog->deleteEmptyDirData());
    // Esc changes nothing; Drain sends the drain with the dialog's choice.
    QSignalSpy results(&backend, &ClusterBackend::actionFinished);
    dialog->emptyDirCheck()->setChecked(true);
    QTest::mouseClick(dialog->drainButton(), Qt::LeftButton);
    const ActionResult r = waitResult(results, ActionKind::Drain);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.target, u"node-0"_s);
}

void TstNodeOps::contextMenuIsReachedFromTheKeyboard_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::newRow("Shift+F10") << int(Qt::Key_F10) << int(Qt::ShiftModifier);
    QTest::newRow("the menu key") << int(Qt::Key_Menu) << int(Qt::NoModifier);
}

void TstNodeOps::contextMenuIsReachedFromTheKeyboard()
{
    QFETCH(int, key);
    QFETCH(int, modifiers);
    gui::NodesTab tab;
    std::vector<NodeTile> tiles(2);
    tiles[0].node = u"node-a"_s;
    tiles[1].node = u"node-b"_s;
    tiles[1].cordoned = true;
    tab.setTiles(tiles, 0);
    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    tab.mapView()->setCurrentNode(u"node-b"_s);
    tab.mapView()->setFocus();
    QSignalSpy spy(&tab, &gui::NodesTab::nodeContextMenuRequested);
    if (key == Qt::Key_Menu) {
        // The platform turns the menu key into a keyboard context-menu event.
        QContextMenuEvent event(QContextMenuEvent::Keyboard, QPoint(), QPoint());
        QApplication::sendEvent(tab.mapView(), &event);
    } else {
        QTest::keyClick(tab.mapView(), Qt::Key(key), Qt::KeyboardModifiers(modifiers));
    }
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"node-b"_s);
    const QPoint at = spy.at(0).at(1).toPoint();
    QVERIFY(tab.mapView()->tileRect(u"node-b"_s).contains(tab.mapView()->viewport()->mapFromGlobal(at)));
}

void TstNodeOps::productionGuardWantsTheTypedName_data()
{
    QTest::addColumn<QString>("context");
    QTest::newRow("a production context asks for the name") << u"kind-prod"_s;
    QTest::newRow("another context asks as before") << QString();
}

void TstNodeOps::productionGuardWantsTheTypedName()
{
    QFETCH(QString, context);
    gui::setProductionContext(context);
    QWidget window;
    std::unique_ptr<QDialog> question(gui::makeGuardedConfirmation(
        &window, u"Drain"_s, u"Drain node-a?"_s, u"&Drain"_s, gui::ConfirmKind::Destroy, u"node-a"_s));
    auto *go = question->findChild<QPushButton *>(u"confirmActionButton"_s);
    auto *edit = question->findChild<QLineEdit *>(u"confirmNameEdit"_s);
    QVERIFY(go);
    if (context.isEmpty()) {
        QVERIFY(!edit);
        QVERIFY(go->isEnabled());
    } else {
        QVERIFY(edit);
        QVERIFY(!go->isEnabled());
        QTest::keyClicks(edit, u"node-"_s);
        QVERIFY(!go->isEnabled());
        QTest::keyClicks(edit, u"b"_s);
        QVERIFY(!go->isEnabled());
        edit->clear();
        QTest::keyClicks(edit, u"node-a"_s);
        QVERIFY(go->isEnabled());
    }

    // The drain question takes the same guard.
    auto snap = snapshotWithNode(u"node-a"_s, false);
    gui::DrainDialog drain(*snap, u"node-a"_s, &window);
    auto *drainEdit = drain.findChild<QLineEdit *>(u"confirmNameEdit"_s);
    QCOMPARE(drainEdit != nullptr, !context.isEmpty());
    QCOMPARE(drain.drainButton()->isEnabled(), context.isEmpty());
    if (drainEdit) {
        QTest::keyClicks(drainEdit, u"node-a"_s);
        QVERIFY(drain.drainButton()->isEnabled());
    }
}

void TstNodeOps::productionPatternMatchesContextOrCluster_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<bool>("production");
    QTest::newRow("prod in the context") << u"kind-prod"_s << u"kind"_s << true;
    QTest::newRow("upper case matches") << u"EU-PRODUCTION"_s << QString() << true;
    QTest::newRow("prd in the cluster name") << u"admin@main"_s << u"gke-prd-1"_s << true;
    QTest::newRow("staging does not match") << u"staging"_s << u"stage-1"_s << false;
    QTest::newRow("empty names never match") << QString() << QString() << false;
}

void TstNodeOps::productionPatternMatchesContextOrCluster()
{
    QFETCH(QString, context);
    QFETCH(QString, cluster);
    QFETCH(bool, production);
    const QString pattern = QLatin1String(AppSettings::kDefaultProductionPattern);
    QCOMPARE(AppSettings::isProductionContext(pattern, context, cluster), production);
    gui::ProductionBar bar;
    BackendInfo info;
    info.kind = BackendKind::Live;
    info.context = context;
    info.cluster = cluster;
    bar.setBackendInfo(info);
    QCOMPARE(bar.active(), production);
    QCOMPARE(gui::productionGuardActive(), production);
    if (production)
        QVERIFY2(bar.text().startsWith(u"Production context "_s) &&
                     bar.text().endsWith(u" — actions ask for the name"_s),
                 qPrintable(bar.text()));
    // The embedded engine is never production.
    info.kind = BackendKind::Embedded;
    bar.setBackendInfo(info);
    QVERIFY(!bar.active());
    QVERIFY(!gui::productionGuardActive());
}

QTEST_MAIN(TstNodeOps)
#include "tst_nodeops.moc"
