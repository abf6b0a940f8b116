// The console's main flows, driven the way a user drives them: open a scenario, pick a
// DaemonSet, diff revisions, roll back through the preview dialog, pause and resume, export.
// The embedded cluster's clock is stopped; tests move it with step() and wait on snapshots.
#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/daemonsetlistmodel.h"
#include "models/itemmodels/eventlistmodel.h"
#include "models/itemmodels/nodemapmodel.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "ui/commandpalette.h"
#include "ui/confirmation.h"
#include "ui/daemonsetpage.h"
#include "ui/difftab.h"
#include "ui/diffview.h"
#include "ui/exportjob.h"
#include "ui/mainwindow.h"
#include "ui/nodemapview.h"
#include "ui/nodestab.h"
#include "ui/pausedbanner.h"
#include "ui/revisionpalette.h"
#include "ui/rollbackdialog.h"
#include "ui/rollouthistoryview.h"
#include "ui/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>

#include <algorithm>
#include <functional>
#include <memory>

using models::DaemonSetListModel;
using models::RevisionTimelineModel;

// A helper's failed QVERIFY only leaves the helper; this ends the test as well.
#define SELECT(key)                                                                                          \
    do {                                                                                                     \
        selectInExplorer(key);                                                                               \
        if (QTest::currentTestFailed())                                                                      \
            return;                                                                                          \
    } while (false)

namespace {

// A live cluster on which nothing happens: it publishes nothing and refuses the simulation's commands.
class QuietLiveBackend : public models::ClusterBackend
{
public:
    models::BackendKind kind() const override { return models::BackendKind::Live; }
    bool isSimulation() const override { return false; }
    void rollback(const QString &, qint64) override {}
    void pause(const QString &) override {}
    void resume(const QString &) override {}
    void loadScenario(const QString &) override {}
    void setSpeed(double) override {}
    void step(qint64) override {}
    void setSeed(quint64) override {}
    void injectFault(const QString &, const QString &) override {}
};

const QString kAgent = QStringLiteral("default/agent");

QString scenarioPath()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/ui/data/three-revisions.yaml");
}

// The colour painted at the centre of a node's tile.
struct RevisionPaletteProbe
{
    static QRgb pixel(gui::NodeMapView *view, const QString &node)
    {
        const QRect r = view->tileRect(node);
        if (r.isEmpty())
            return 0;
        const QImage image = view->viewport()->grab().toImage();
        const QPointF centre = QPointF(r.center()) * image.devicePixelRatio();
        return image.pixel(centre.toPoint()) | 0xff000000u;
    }
};

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<gui::MainWindow> m_window;

    models::ClusterBackend *backend() const { return m_window->backend(); }
    gui::DaemonSetPage *page() const { return m_window->page(); }
    QLineEdit *explorerFilter() const
    {
        for (auto *edit : m_window->findChildren<QLineEdit *>())
            if (edit->accessibleName() == QStringLiteral("Explorer filter"))
                return edit;
        return nullptr;
    }

    // Waits for snapshots until `done` holds; false after `timeoutMs` without it.
    bool waitFor(const std::function<bool()> &done, int timeoutMs = 10000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!done()) {
            if (timer.elapsed() > timeoutMs)
                return false;
            QSignalSpy spy(m_window.get(), &gui::MainWindow::snapshotApplied);
            spy.wait(std::max<int>(1, timeoutMs - int(timer.elapsed())));
        }
        return true;
    }

    // Moves the virtual clock in steps until `done` holds.
    bool advanceUntil(const std::function<bool()> &done, qint64 stepMs = 2000, int maxSteps = 200)
    {
        for (int i = 0; i < maxSteps; ++i) {
            if (done())
                return true;
            QSignalSpy spy(m_window.get(), &gui::MainWindow::snapshotApplied);
            backend()->step(stepMs);
            if (!spy.wait(10000))
                return false;
        }
        return done();
    }

    // A new window (with its own local history) on a scenario.
    void openFresh(const QString &path)
    {
        m_window.reset();
        models::EmbeddedBackendOptions options;
        options.speed = 0; // the tests move the clock
        m_window = std::make_unique<gui::MainWindow>(new models::EmbeddedBackend(options));
        m_window->resize(1200, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->openScenario(path);
        QVERIFY2(waitFor([this] { return scenarioLoaded(); }, 30000), "scenario did not load");
    }

    // The scenario has finished loading: a snapshot taken while its steps still run (shown
    // after the load's first moments) already lists its DaemonSets.
    bool scenarioLoaded() const
    {
        return m_window->snapshot() && !m_window->snapshot()->backend.loading &&
               m_window->daemonSetCount() == 2;
    }

    const models::DaemonSetInfo *agent() const
    {
        return m_window->snapshot() ? m_window->snapshot()->daemonSet(kAgent) : nullptr;
    }

    QModelIndex explorerIndexOf(const QString &key) const
    {
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(m_window->explorer()->model());
        return proxy->mapFromSource(m_window->daemonSetModel()->indexOfDaemonSet(key));
    }

    void selectInExplorer(const QString &key)
    {
        const QModelIndex index = explorerIndexOf(key);
        QVERIFY(index.isValid());
        QTreeView *tree = m_window->explorer();
        tree->scrollTo(index);
        // The tree lays its rows out lazily, on the next pass of the event loop.
        QTRY_VERIFY(!tree->visualRect(index).isEmpty());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(index).center());
        QCOMPARE(page()->daemonSetKey(), key);
    }

    QStringList numberTexts() const
    {
        QStringList texts;
        QAbstractItemModel *m = page()->timeline()->displayModel();
        for (int r = 0; r < m->rowCount(); ++r)
            texts << m->index(r, RevisionTimelineModel::NumberColumn).data().toString();
        return texts;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() { openFresh(scenarioPath()); }

    void cleanup() { m_window.reset(); }

    void explorerShowsBackendNamespacesAndDaemonSetsWithBadges()
    {
        const QModelIndex agentIndex = explorerIndexOf(kAgent);
        QVERIFY(agentIndex.isValid());
        QCOMPARE(agentIndex.parent().data().toString(), QStringLiteral("default"));
        QVERIFY(agentIndex.parent().parent().isValid()); // the backend row
        QVERIFY(m_window->explorer()->isExpanded(agentIndex.parent()));
        const QModelIndex status = agentIndex.siblingAtColumn(DaemonSetListModel::StatusColumn);
        QCOMPARE(status.data(DaemonSetListModel::BadgeRole).toInt(), int(models::RolloutBadge::Complete));
        QCOMPARE(agentIndex.siblingAtColumn(DaemonSetListModel::DesiredColumn).data().toInt(), 6);
        QVERIFY(explorerIndexOf(QStringLiteral("kube-system/proxy")).isValid());
    }

    void selectingADaemonSetFillsTheTimelineInRevisionOrder()
    {
        SELECT(kAgent);
        auto *model = page()->timelineModel();
        QTRY_COMPARE(model->rowCount(), 3);
        for (int r = 0; r < 3; ++r)
            QCOMPARE(model->index(r, 0).data(RevisionTimelineModel::NumberRole).toLongLong(), r + 1);
        QCOMPARE(numberTexts(),
                 (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3 (current)")}));
        QCOMPARE(model->index(2, RevisionTimelineModel::ImageColumn).data().toString(),
                 QStringLiteral("registry.example/agent:1.2"));
        QCOMPARE(model->index(2, RevisionTimelineModel::PodsColumn).data().toInt(), 6);
        QCOMPARE(model->index(1, RevisionTimelineModel::ChangeCauseColumn).data().toString(),
                 QStringLiteral("agent 1.1"));

        SELECT(QStringLiteral("kube-system/proxy"));
        QTRY_COMPARE(model->rowCount(), 1);
        QVERIFY(page()->headline() != nullptr);
    }

    void diffTabComparesAnyTwoRevisions_data()
    {
        QTest::addColumn<qint64>("left");
        QTest::addColumn<qint64>("right");
        QTest::addColumn<QString>("expectedSummary");
        QTest::addColumn<int>("changes");
        QTest::newRow("first against current shows the image change")
            << qint64(1) << qint64(3) << QStringLiteral("agent:1.0") << 1;
        QTest::newRow("neighbours show one image step")
            << qint64(2) << qint64(3) << QStringLiteral("agent:1.1") << 1;
        QTest::newRow("a revision against the live template of the same content is identical")
            << qint64(3) << qint64(0) << QString() << 0;
    }

    void diffTabComparesAnyTwoRevisions()
    {
        QFETCH(qint64, left);
        QFETCH(qint64, right);
        QFETCH(QString, expectedSummary);
        QFETCH(int, changes);
        SELECT(kAgent);
        QTest::keyClick(m_window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(page()->currentTab(), gui::DaemonSetPage::Tab::Diff);
        gui::DiffTab *tab = page()->diffTab();
        // Defaults to what the last rollout changed.
        QCOMPARE(tab->leftTitle().section(QLatin1Char(' '), 0, 1), QStringLiteral("revision 2"));
        QCOMPARE(tab->rightTitle().section(QLatin1Char(' '), 0, 1), QStringLiteral("revision 3"));

        // Pick through the combo boxes, as a user does.
        auto pick = [&](QComboBox *box, qint64 number) {
            for (int i = 0; i < box->count(); ++i) {
                const bool live = box->itemData(i).toString() == gui::DiffTab::liveKey();
                if ((number == 0 && live) ||
                    (number > 0 && box->itemText(i).startsWith(QStringLiteral("Revision %1 ").arg(number)))) {
                    box->setCurrentIndex(i);
                    return true;
                }
            }
            return false;
        };
        QVERIFY(pick(tab->leftPicker(), left));
        QVERIFY(pick(tab->rightPicker(), right));
        const QStringList summary = tab->diffView()->summaryLines();
        QCOMPARE(tab->diffView()->changeCount() > 0, changes > 0);
        if (expectedSummary.isEmpty()) {
            QVERIFY2(summary.isEmpty(), qPrintable(summary.join(QLatin1Char('\n'))));
        } else {
            QVERIFY2(summary.join(QLatin1Char('\n')).contains(expectedSummary),
                     qPrintable(summary.join(QLatin1Char('\n'))));
            QVERIFY(summary.join(QLatin1Char('\n')).contains(QStringLiteral("agent:1.2")));
        }
    }

    void timelineDiffWithCurrentOpensTheDiffTab()
    {
        SELECT(kAgent);
        QTRY_COMPARE(page()->timelineModel()->rowCount(), 3);
        QVERIFY(page()->timeline()->selectRevision(1));
        page()->timeline()->diffWithCurrentAction()->trigger();
        QCOMPARE(page()->currentTab(), gui::DaemonSetPage::Tab::Diff);
        QVERIFY(page()->diffTab()->leftTitle().startsWith(QStringLiteral("revision 1 ")));
        QVERIFY(page()->diffTab()->rightTitle().startsWith(QStringLiteral("revision 3 ")));
    }

    void selectingARevisionHighlightsItsNodes()
    {
        SELECT(kAgent);
        QTRY_COMPARE(page()->timelineModel()->rowCount(), 3);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Nodes);
        QVERIFY(page()->timeline()->selectRevision(3));
        QCOMPARE(page()->nodesTab()->mapView()->highlightedRevision(), qint64(3));
        QVERIFY(page()->timeline()->selectRevision(1));
        QCOMPARE(page()->nodesTab()->mapView()->highlightedRevision(), qint64(1));
    }

    void rollbackThroughTheDialogRenumbersAndTheNodesTakeTheTemplatesColour()
    {
        SELECT(kAgent);
        QTRY_COMPARE(page()->timelineModel()->rowCount(), 3);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Nodes);
        models::NodeMapModel *map = page()->nodesTab()->model();
        QTRY_COMPARE(map->rowCount(), 6);
        for (int r = 0; r < map->rowCount(); ++r)
            QCOMPARE(map->tile(r).revisionNumber, qint64(3));
        const QString node = map->tile(0).node;
        const QRgb before = RevisionPaletteProbe::pixel(page()->nodesTab()->mapView(), node);
        QCOMPARE(before, gui::RevisionPalette::color(3).rgb());

        QAction *rollback = m_window->action(QStringLiteral("rollback"));
        QVERIFY(rollback->isEnabled());
        rollback->trigger();
        auto *dialog = m_window->findChild<gui::RollbackDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        const auto &preview = dialog->preview();
        QVERIFY(preview.ok);
        QVERIFY(!preview.skipped);
        QCOMPARE(preview.targetRevision, qint64(2));
        QCOMPARE(preview.newPods(), 6);
        QVERIFY(!dialog->warningLabel()->isVisible());
        QVERIFY(
            dialog->diffView()->summaryLines().join(QLatin1Char('\n')).contains(QStringLiteral("agent:1.1")));

        QTest::mouseClick(dialog->confirmButton(), Qt::LeftButton);
        QTRY_COMPARE(dialog->outcome(), QStringLiteral("rolled back"));
        QVERIFY(dialog->outcomeLabel()->text().contains(QStringLiteral("rolled back")));

        // Renumbering: revision 2 becomes 4 (and remembers its old number) once the DaemonSet
        // controller has synced, which takes a moment of virtual time.
        QVERIFY(advanceUntil([&] { return page()->timelineModel()->rowOfNumber(4) >= 0; }, 200));
        QCOMPARE(page()->timelineModel()->rowOfNumber(2), -1);
        QVERIFY(numberTexts().contains(QStringLiteral("4 (current, was 2)")));
        dialog->close();

        // The rollout proceeds as the clock moves, and the tiles take the colour of revision 4's
        // template: the colour it had as revision 2 (a renumbering does not recolour it).
        QVERIFY(advanceUntil([&] {
            for (int r = 0; r < map->rowCount(); ++r) {
                const auto &t = map->tile(r);
                if (t.revisionNumber != 4 || t.podState != models::NodeTile::PodState::Ready)
                    return false;
            }
            return map->rowCount() == 6;
        }));
        QTRY_COMPARE(RevisionPaletteProbe::pixel(page()->nodesTab()->mapView(), node),
                     gui::RevisionPalette::color(2).rgb());
        QVERIFY(gui::RevisionPalette::color(2) != gui::RevisionPalette::color(3));
        QVERIFY(gui::RevisionPalette::color(2) != gui::RevisionPalette::color(4));
        const QModelIndex current = page()->timeline()->displayModel()->index(
            page()->timelineModel()->rowOfNumber(4), models::RevisionTimelineModel::NumberColumn);
        QCOMPARE(current.data(Qt::DecorationRole).value<QColor>(), gui::RevisionPalette::color(2));
        QCOMPARE(map->revisionCounts().front().colorKey, qint64(2));

        // Below the revisions, newest first: the rollout to revision 4 (revision 2 when the
        // rollback started it, named by its number now) and the rollback with its user.
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Timeline);
        QTreeWidget *history = page()->timeline()->history()->view();
        QTRY_VERIFY(history->topLevelItemCount() >= 2);
        const QTreeWidgetItem *rollout = history->topLevelItem(0);
        QCOMPARE(rollout->text(gui::RolloutHistoryView::EventColumn), QStringLiteral("Rollout"));
        QCOMPARE(rollout->text(gui::RolloutHistoryView::RevisionsColumn), QStringLiteral("3 → 4"));
        QCOMPARE(rollout->text(gui::RolloutHistoryView::NodesColumn), QStringLiteral("6 of 6 replaced"));
        QCOMPARE(rollout->text(gui::RolloutHistoryView::OutcomeColumn), QStringLiteral("complete"));
        const QTreeWidgetItem *action = history->topLevelItem(1);
        QCOMPARE(action->text(gui::RolloutHistoryView::EventColumn), QStringLiteral("Rollback"));
        QCOMPARE(action->text(gui::RolloutHistoryView::RevisionsColumn),
                 QStringLiteral("toRevision=2, requested=0"));
        QCOMPARE(action->text(gui::RolloutHistoryView::UserColumn), models::operatingSystemUser());
        QCOMPARE(action->text(gui::RolloutHistoryView::OutcomeColumn), QStringLiteral("rolled back"));
        // The revision table takes the height of its rows, not the whole pane.
        QVERIFY(page()->timeline()->view()->height() < page()->timeline()->height() / 2);
        QCOMPARE(agent()->badge, models::RolloutBadge::Complete);
    }

    void diffTabFollowsARollbackUnlessAPairWasPicked()
    {
        SELECT(kAgent);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Diff);
        gui::DiffTab *tab = page()->diffTab();
        auto numberOf = [](const QString &title) {
            return title.section(QLatin1Char(' '), 1, 1).toLongLong();
        };
        QCOMPARE(numberOf(tab->leftTitle()), 2);
        QCOMPARE(numberOf(tab->rightTitle()), 3);
        // The pickers name the image before the hash (a narrow picker cuts the hash, not the tag),
        // the whole label in the tooltip.
        const QComboBox *right = tab->rightPicker();
        const QString label = right->currentText();
        QVERIFY2(label.startsWith(QStringLiteral("Revision 3 (current) · ")), qPrintable(label));
        const QString hash =
            page()
                ->timelineModel()
                ->data(page()->timelineModel()->index(page()->timelineModel()->rowOfNumber(3), 0),
                       models::RevisionTimelineModel::HashRole)
                .toString();
        QVERIFY(label.endsWith(hash));
        QVERIFY(label.indexOf(QStringLiteral("agent:")) < label.indexOf(hash));
        QCOMPARE(right->itemData(right->currentIndex(), Qt::ToolTipRole).toString(), label);

        // A rollback to revision 2 renumbers it 4: the default pair shows what the rollback changed.
        backend()->rollback(kAgent, 0);
        QVERIFY(advanceUntil([&] { return page()->timelineModel()->rowOfNumber(4) >= 0; }, 200));
        QTRY_COMPARE(numberOf(tab->rightTitle()), 4);
        QCOMPARE(numberOf(tab->leftTitle()), 3);
        QVERIFY(
            tab->diffView()->summaryLines().join(QLatin1Char('\n')).contains(QStringLiteral("agent:1.1")));

        // A pair the user picks stays through the next rollback (revision 3 becomes 5).
        QVERIFY(tab->setPair(1, 4));
        backend()->rollback(kAgent, 0);
        QVERIFY(advanceUntil([&] { return page()->timelineModel()->rowOfNumber(5) >= 0; }, 200));
        QCOMPARE(numberOf(tab->leftTitle()), 1);
        QCOMPARE(numberOf(tab->rightTitle()), 4);
        // Back to the default pair: it follows the rollouts again.
        QVERIFY(tab->setPair(4, 5));
        backend()->rollback(kAgent, 0); // revision 4 becomes 6
        QVERIFY(advanceUntil([&] { return page()->timelineModel()->rowOfNumber(6) >= 0; }, 200));
        QTRY_COMPARE(numberOf(tab->rightTitle()), 6);
        QCOMPARE(numberOf(tab->leftTitle()), 5);
    }

    void rollbackToTheCurrentTemplateIsSkipped()
    {
        SELECT(kAgent);
        gui::RollbackDialog *dialog = m_window->showRollbackDialog(3);
        QVERIFY(dialog);
        QVERIFY(dialog->preview().skipped);
        QVERIFY(dialog->warningLabel()->isVisible());
        QVERIFY(dialog->warningLabel()->text().contains(
            QStringLiteral("current template already matches revision 3")));
        dialog->confirm();
        QTRY_COMPARE(dialog->outcome(),
                     QStringLiteral("skipped rollback (current template already matches revision 3)"));
        QCOMPARE(page()->timelineModel()->rowCount(), 3);
    }

    // Ctrl+K, a few letters, then Return (or Down) goes to the first DaemonSet shown.
    void findThenReturnOpensTheFirstMatch_data()
    {
        QTest::addColumn<int>("key");
        QTest::newRow("Return") << int(Qt::Key_Return);
        QTest::newRow("Down") << int(Qt::Key_Down);
    }
    void findThenReturnOpensTheFirstMatch()
    {
        QFETCH(int, key);
        SELECT(QStringLiteral("kube-system/proxy"));
        m_window->activateWindow();
        m_window->action(QStringLiteral("focusExplorer"))->trigger();
        QLineEdit *filter = explorerFilter();
        QVERIFY(filter);
        QTRY_VERIFY(filter->hasFocus());
        QTest::keyClicks(filter, QStringLiteral("agen"));
        QTest::keyClick(filter, Qt::Key(key));
        QTRY_VERIFY(m_window->explorer()->hasFocus());
        QCOMPARE(page()->daemonSetKey(), kAgent);
        QCOMPARE(m_window->currentDaemonSet(), kAgent);
    }

    // ":" opens the palette from a list; words filter; Down moves while the text keeps the
    // focus; Return goes there and closes it.
    void colonOpensThePaletteAndReturnGoesThere()
    {
        SELECT(kAgent);
        m_window->activateWindow();
        m_window->explorer()->setFocus();
        QTRY_VERIFY(m_window->explorer()->hasFocus());
        QTest::keyClick(m_window->explorer(), ':');
        auto *palette = m_window->findChild<gui::CommandPalette *>();
        QVERIFY(palette);
        QCOMPARE(palette->focusWidget(), palette->input()); // the text has the dialog's focus
        // Everything is offered: both DaemonSets, six nodes and the menu's commands.
        const QStringList all = palette->shownEntries();
        QVERIFY(all.contains(QStringLiteral("DaemonSet: kube-system/proxy")));
        QVERIFY(all.contains(QStringLiteral("Node: node-b-2")));
        QVERIFY(all.contains(QStringLiteral("Command: Roll Back to Previous Revision…")));
        QVERIFY(!all.contains(QStringLiteral("Command: Go To…"))); // not itself

        QTest::keyClicks(palette->input(), QStringLiteral("node"));
        // Pictures for a visual review when DAEMONSCOPE_SCREENSHOTS names a directory.
        if (const QString shots = qEnvironmentVariable("DAEMONSCOPE_SCREENSHOTS"); !shots.isEmpty()) {
            palette->grab().save(shots + QStringLiteral("/palette.png"));
            auto *sheet = m_window->showShortcutSheet();
            sheet->grab().save(shots + QStringLiteral("/shortcuts.png"));
            sheet->close();
        }
        palette->input()->clear();
        QTest::keyClicks(palette->input(), QStringLiteral("prox"));
        QCOMPARE(palette->shownEntries().first(), QStringLiteral("DaemonSet: kube-system/proxy"));
        QTest::keyClick(palette->input(), Qt::Key_Return);
        QTRY_VERIFY(m_window->findChild<gui::CommandPalette *>() == nullptr); // closed and deleted
        QCOMPARE(m_window->currentDaemonSet(), QStringLiteral("kube-system/proxy"));

        // A node: the Nodes tab with that tile current; words match kind and detail too.
        palette = m_window->showCommandPalette();
        QTest::keyClicks(palette->input(), QStringLiteral("node b-1"));
        QCOMPARE(palette->shownEntries(), QStringList{QStringLiteral("Node: node-b-1")});
        QTest::keyClick(palette->input(), Qt::Key_Return);
        QCOMPARE(page()->currentTab(), gui::DaemonSetPage::Tab::Nodes);
        QCOMPARE(page()->nodesTab()->currentNode(), QStringLiteral("node-b-1"));

        // Down then Return runs the second match; Escape runs nothing.
        palette = m_window->showCommandPalette();
        QTest::keyClicks(palette->input(), QStringLiteral("node-a"));
        QCOMPARE(palette->shownEntries().size(), 3);
        QTest::keyClick(palette->input(), Qt::Key_Down);
        QCOMPARE(palette->focusWidget(), palette->input());
        QCOMPARE(palette->list()->currentRow(), 1);
        QTest::keyClick(palette->input(), Qt::Key_Return);
        QCOMPARE(page()->nodesTab()->currentNode(), QStringLiteral("node-a-1"));
        palette = m_window->showCommandPalette();
        QTest::keyClicks(palette->input(), QStringLiteral("agent"));
        QTest::keyClick(palette->input(), Qt::Key_Escape);
        QTRY_VERIFY(m_window->findChild<gui::CommandPalette *>() == nullptr);
        QCOMPARE(m_window->currentDaemonSet(), QStringLiteral("kube-system/proxy"));
    }

    // A command from the palette is the menu's action: here the rollback preview opens.
    void thePaletteRunsMenuCommands()
    {
        SELECT(kAgent);
        gui::CommandPalette *palette = m_window->showCommandPalette();
        QTest::keyClicks(palette->input(), QStringLiteral("roll back to previous"));
        QVERIFY2(!palette->shownEntries().isEmpty(), qPrintable(palette->shownEntries().join(u',')));
        QCOMPARE(palette->shownEntries().first(), QStringLiteral("Command: Roll Back to Previous Revision…"));
        QTest::keyClick(palette->input(), Qt::Key_Return);
        auto *dialog = m_window->findChild<gui::RollbackDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        dialog->reject();
    }

    // "?" lists every menu shortcut, read from the actions themselves.
    void questionMarkListsTheShortcuts()
    {
        m_window->activateWindow();
        m_window->explorer()->setFocus();
        QTRY_VERIFY(m_window->explorer()->hasFocus());
        QTest::keyClick(m_window->explorer(), '?');
        auto *sheet = m_window->findChild<gui::ShortcutSheet *>();
        QVERIFY(sheet);
        const QStringList lines = sheet->lines();
        for (QAction *a : m_window->actions())
            if (!a->shortcut().isEmpty() && !a->objectName().startsWith(QLatin1String("speed"))) {
                const QString keys = a->shortcut().toString(QKeySequence::NativeText);
                bool listed = false;
                for (const QString &line : lines)
                    listed = listed || line.startsWith(keys);
                QVERIFY2(listed,
                         qPrintable(a->objectName() + QStringLiteral(" (") + keys + QStringLiteral(")")));
            }
        QVERIFY(lines.contains(QStringLiteral("Ctrl+G  ·  :\tGo To…")));
        QVERIFY(lines.contains(QStringLiteral("F1  ·  ?\tKeyboard Shortcuts")));
        sheet->close();
        QTRY_VERIFY(m_window->findChild<gui::ShortcutSheet *>() == nullptr);
        // Typing "?" into a text field types it.
        m_window->activateWindow();
        m_window->action(QStringLiteral("focusExplorer"))->trigger();
        QLineEdit *filter = explorerFilter();
        QVERIFY(filter);
        QTRY_VERIFY(filter->hasFocus());
        QTest::keyClick(filter, '?');
        QCOMPARE(filter->text(), QStringLiteral("?"));
        QVERIFY(m_window->findChild<gui::ShortcutSheet *>() == nullptr);
        filter->clear();
    }

    // Return in the rollback preview is Cancel: nothing is rolled back.
    void returnInTheRollbackDialogRollsNothingBack()
    {
        SELECT(kAgent);
        m_window->action(QStringLiteral("rollback"))->trigger();
        auto *dialog = m_window->findChild<gui::RollbackDialog *>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->confirmButton()->isDefault());
        QVERIFY(!dialog->confirmButton()->autoDefault());
        QSignalSpy finished(backend(), &models::ClusterBackend::actionFinished);
        QTest::keyClick(dialog, Qt::Key_Return);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(dialog->result(), int(QDialog::Rejected));
        QVERIFY(!advanceUntil([] { return false; }, 2000, 5)); // some virtual time passes
        for (const auto &args : finished)
            QVERIFY(args.at(0).value<models::ActionResult>().kind != models::ActionKind::Rollback);
        QCOMPARE(page()->timelineModel()->rowCount(), 3);
        QVERIFY(numberTexts().contains(QStringLiteral("3 (current)")));
        QCOMPARE(m_window->actionsSinceLoad(), 0);
    }

    // F5 reloads at once when nothing would be lost; after an action it asks, Return keeps the
    // run, the verb button discards it.
    void reloadAsksBeforeDiscardingActions()
    {
        SELECT(kAgent);
        QAction *reload = m_window->action(QStringLiteral("reloadScenario"));
        QVERIFY(reload->isEnabled());
        auto loads = [](const QSignalSpy &spy) {
            int n = 0;
            for (const auto &args : spy)
                n += args.at(0).value<models::ActionResult>().kind == models::ActionKind::LoadScenario;
            return n;
        };
        // Answers the next question with `key` or by clicking its verb; records what it showed.
        QString shown, verbText;
        bool defaultIsCancel = false;
        auto answer = [&](bool clickVerb) {
            auto *poll = new QTimer(this);
            poll->setInterval(20);
            connect(poll, &QTimer::timeout, this, [&, poll, clickVerb] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                if (!box)
                    return;
                poll->deleteLater();
                poll->stop();
                shown = box->text();
                defaultIsCancel =
                    box->defaultButton() && box->defaultButton() == box->button(QMessageBox::Cancel);
                auto *verb = box->findChild<QPushButton *>(QStringLiteral("confirmActionButton"));
                verbText = verb ? verb->text() : QString();
                if (clickVerb && verb)
                    verb->click();
                else
                    QTest::keyClick(box, Qt::Key_Return);
            });
            poll->start();
        };

        {
            QSignalSpy finished(backend(), &models::ClusterBackend::actionFinished);
            reload->trigger(); // nothing to lose: no question
            QTRY_COMPARE(loads(finished), 1);
        }
        QVERIFY2(waitFor([this] { return scenarioLoaded(); }, 30000), "reload did not load");
        SELECT(kAgent);
        m_window->action(QStringLiteral("pauseRollout"))->trigger();
        QVERIFY(waitFor([&] { return agent() && agent()->paused; }));
        QTRY_COMPARE(m_window->actionsSinceLoad(), 1);

        {
            QSignalSpy finished(backend(), &models::ClusterBackend::actionFinished);
            answer(false);
            reload->trigger();
            QVERIFY2(shown.contains(QStringLiteral("1 action")), qPrintable(shown));
            QVERIFY(defaultIsCancel);
            QCOMPARE(verbText, QStringLiteral("&Reload and Discard"));
            QTest::qWait(300);
            QCOMPARE(loads(finished), 0);
            QVERIFY(agent() && agent()->paused); // the run is kept
        }
        {
            QSignalSpy finished(backend(), &models::ClusterBackend::actionFinished);
            shown.clear();
            answer(true);
            reload->trigger();
            QVERIFY(!shown.isEmpty());
            QTRY_COMPARE(loads(finished), 1);
        }
        QVERIFY(waitFor([&] { return agent() && !agent()->paused; }, 30000));
        QCOMPARE(m_window->actionsSinceLoad(), 0);
    }

    void pauseShowsTheBannerAndResumeHidesIt()
    {
        SELECT(kAgent);
        gui::PausedBanner *banner = page()->banner();
        QVERIFY(!banner->isVisible());
        QAction *pause = m_window->action(QStringLiteral("pauseRollout"));
        QAction *resume = m_window->action(QStringLiteral("resumeRollout"));
        QVERIFY(pause->isEnabled());
        QVERIFY(!resume->isEnabled());
        pause->trigger();
        QVERIFY(waitFor([&] { return agent() && agent()->paused; }));
        QTRY_VERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("OnDelete")));
        QVERIFY(banner->text().contains(QStringLiteral("new nodes still get pods")));
        QCOMPARE(agent()->strategyType, QStringLiteral("OnDelete"));
        QVERIFY(!pause->isEnabled());
        QVERIFY(resume->isEnabled());
        const QModelIndex status = explorerIndexOf(kAgent).siblingAtColumn(DaemonSetListModel::StatusColumn);
        QCOMPARE(status.data(DaemonSetListModel::BadgeRole).toInt(), int(models::RolloutBadge::Paused));

        QTest::mouseClick(banner->resumeButton(), Qt::LeftButton);
        QVERIFY(waitFor([&] { return agent() && !agent()->paused; }));
        QTRY_VERIFY(!banner->isVisible());
        QCOMPARE(agent()->strategyType, QStringLiteral("RollingUpdate"));
        QVERIFY(pause->isEnabled());
    }

    void exportWritesTheHistoryReport_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("markdown report names every image")
            << int(gui::MainWindow::ReportFormat::Markdown) << QStringLiteral("agent.md")
            << QStringList{QStringLiteral("agent:1.0"), QStringLiteral("agent:1.1"),
                           QStringLiteral("agent:1.2")};
        QTest::newRow("html report is a whole page")
            << int(gui::MainWindow::ReportFormat::Html) << QStringLiteral("agent.html")
            << QStringList{QStringLiteral("<html"), QStringLiteral("agent:1.2")};
        QTest::newRow("json report has the daemonset's name")
            << int(gui::MainWindow::ReportFormat::Json) << QStringLiteral("agent.json")
            << QStringList{QStringLiteral("\"DaemonSetHistory\"")};
    }

    void exportWritesTheHistoryReport()
    {
        QFETCH(int, format);
        QFETCH(QString, fileName);
        QFETCH(QStringList, expected);
        SELECT(kAgent);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(fileName);
        QSignalSpy done(m_window.get(), &gui::MainWindow::exportFinished);
        QVERIFY(m_window->exportHistoryReport(path, static_cast<gui::MainWindow::ReportFormat>(format)));
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().at(0).toBool(), true);
        const QString text = QString::fromUtf8(readAll(path));
        for (const QString &e : expected)
            QVERIFY2(text.contains(e), qPrintable(e));
        if (format == int(gui::MainWindow::ReportFormat::Json)) {
            const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
            QCOMPARE(doc.object().value(QStringLiteral("revisions")).toArray().size(), 3);
            QCOMPARE(doc.object()
                         .value(QStringLiteral("daemonSet"))
                         .toObject()
                         .value(QStringLiteral("name"))
                         .toString(),
                     QStringLiteral("agent"));
        }
    }

    void exportToAnUnwritablePlaceFailsWithAMessage()
    {
        SELECT(kAgent);
        QSignalSpy done(m_window.get(), &gui::MainWindow::exportFinished);
        QVERIFY(m_window->exportHistoryReport(QStringLiteral("/nonexistent-dir/report.md"),
                                              gui::MainWindow::ReportFormat::Markdown));
        QVERIFY(done.wait(20000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QVERIFY(done.first().at(1).toString().contains(QStringLiteral("/nonexistent-dir/report.md")));
    }

    void exportWritesTheDiffTabPairAsAUnifiedDiff()
    {
        SELECT(kAgent);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Diff);
        QVERIFY(page()->diffTab()->setPair(1, 3));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("agent-1-3.diff"));
        QSignalSpy done(m_window.get(), &gui::MainWindow::exportFinished);
        QVERIFY(m_window->exportRevisionDiff(path));
        QVERIFY(done.wait(20000));
        QVERIFY(done.first().at(0).toBool());
        const QString text = QString::fromUtf8(readAll(path));
        // One file modified (the pod template), each side labelled with its revision.
        QVERIFY2(text.startsWith(QStringLiteral("--- a/agent.pod-template.yaml\tagent@rev1.yaml\n"
                                                "+++ b/agent.pod-template.yaml\tagent@rev3.yaml\n")),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("rename")));
        QVERIFY(text.contains(QStringLiteral("\n-    image: registry.example/agent:1.0\n")) ||
                text.contains(QStringLiteral("agent:1.0\n")));
        QVERIFY(text.contains(QStringLiteral("+")));
    }

    void keyboardShortcutsSwitchTabs_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("tab");
        QTest::newRow("ctrl+1 shows the timeline")
            << int(Qt::Key_1) << int(gui::DaemonSetPage::Tab::Timeline);
        QTest::newRow("ctrl+2 shows the nodes") << int(Qt::Key_2) << int(gui::DaemonSetPage::Tab::Nodes);
        QTest::newRow("ctrl+3 shows the diff") << int(Qt::Key_3) << int(gui::DaemonSetPage::Tab::Diff);
        QTest::newRow("ctrl+4 shows the events") << int(Qt::Key_4) << int(gui::DaemonSetPage::Tab::Events);
    }

    void keyboardShortcutsSwitchTabs()
    {
        QFETCH(int, key);
        QFETCH(int, tab);
        SELECT(kAgent);
        page()->setCurrentTab(tab == 0 ? gui::DaemonSetPage::Tab::Events : gui::DaemonSetPage::Tab::Timeline);
        QTest::keyClick(m_window.get(), Qt::Key(key), Qt::ControlModifier);
        QCOMPARE(int(page()->currentTab()), tab);
    }

    void eventsTabListsTheDaemonSetsEvents()
    {
        SELECT(kAgent);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Events);
        QTRY_VERIFY(page()->eventsView()->model()->rowCount() > 0);
        QAbstractItemModel *m = page()->eventsView()->model();
        bool sawCreate = false;
        for (int r = 0; r < m->rowCount(); ++r)
            sawCreate = sawCreate || m->index(r, 2).data().toString() == QStringLiteral("SuccessfulCreate");
        QVERIFY(sawCreate);
    }

    // The events table's columns fit their contents while it is shown; hidden, its header does
    // not measure the rows on every update (it keeps the widths it had).
    void eventsColumnsFitTheirContentsOnlyWhileShown()
    {
        SELECT(kAgent);
        QTableView *view = page()->eventsView();
        QHeaderView *header = view->horizontalHeader();
        using M = models::EventListModel;
        QCOMPARE(page()->currentTab(), gui::DaemonSetPage::Tab::Timeline);
        QCOMPARE(header->sectionResizeMode(M::ReasonColumn), QHeaderView::Interactive);
        QCOMPARE(header->sectionResizeMode(M::MessageColumn), QHeaderView::Stretch);

        page()->setCurrentTab(gui::DaemonSetPage::Tab::Events);
        QTRY_VERIFY(view->model()->rowCount() > 0);
        QCOMPARE(header->sectionResizeMode(M::ReasonColumn), QHeaderView::ResizeToContents);
        QCOMPARE(header->sectionResizeMode(M::MessageColumn), QHeaderView::Stretch);
        int widest = 0;
        for (int r = 0;
             r < view->model()->rowCount() && view->visualRect(view->model()->index(r, 0)).isValid(); ++r)
            widest = std::max(widest, view->fontMetrics().horizontalAdvance(
                                          view->model()->index(r, M::ReasonColumn).data().toString()));
        QVERIFY(widest > 0);
        QTRY_VERIFY2(
            header->sectionSize(M::ReasonColumn) >= widest,
            qPrintable(QStringLiteral("%1 < %2").arg(header->sectionSize(M::ReasonColumn)).arg(widest)));

        page()->setCurrentTab(gui::DaemonSetPage::Tab::Nodes);
        QCOMPARE(header->sectionResizeMode(M::ReasonColumn), QHeaderView::Interactive);
    }

    // The tab says why it is empty instead of showing a blank table; the type filter and the
    // sortable headers work through the widgets.
    void eventsTabFiltersByTypeAndExplainsAnEmptyList()
    {
        SELECT(kAgent);
        page()->setCurrentTab(gui::DaemonSetPage::Tab::Events);
        QTRY_VERIFY(page()->eventsView()->model()->rowCount() > 0);
        auto *empty = page()->findChild<QLabel *>(QStringLiteral("eventsEmpty"));
        auto *types = page()->findChild<QComboBox *>(QStringLiteral("eventTypeFilter"));
        QVERIFY(empty && types);
        QVERIFY(!empty->isVisibleTo(page()));
        QVERIFY(page()->eventsView()->isVisibleTo(page()));
        QVERIFY(page()->eventsView()->isSortingEnabled());
        // The test scenario's events are all Normal: "Warnings" leaves none, and says so.
        types->setCurrentIndex(types->findText(QStringLiteral("Warnings")));
        QCOMPARE(page()->eventsView()->model()->rowCount(), 0);
        QVERIFY(empty->isVisibleTo(page()));
        QVERIFY(!page()->eventsView()->isVisibleTo(page()));
        QVERIFY2(empty->text().startsWith(QStringLiteral("No event matches the filter")),
                 qPrintable(empty->text()));
        types->setCurrentIndex(types->findText(QStringLiteral("Normal")));
        QVERIFY(page()->eventsView()->model()->rowCount() > 0);
        QVERIFY(!empty->isVisibleTo(page()));
        // Newest first: times never increase down the list.
        QAbstractItemModel *m = page()->eventsView()->model();
        for (int r = 1; r < m->rowCount(); ++r)
            QVERIFY(m->index(r - 1, 0).data(models::EventListModel::TimeRole).toLongLong() >=
                    m->index(r, 0).data(models::EventListModel::TimeRole).toLongLong());
        types->setCurrentIndex(0);
    }

    // A status message is not cut to a few letters by the permanent widgets: the backend label
    // makes room while it shows, and a long backend name is elided with the whole in the tooltip.
    void statusMessagesAreNotCutByThePermanentWidgets()
    {
        m_window->resize(800, 600);
        auto *backendLabel = m_window->findChild<QLabel *>(QStringLiteral("backendLabel"));
        QVERIFY(backendLabel);
        QTRY_VERIFY(!backendLabel->text().isEmpty());
        m_window->statusBar()->clearMessage(); // an earlier test's message may still show
        QVERIFY(backendLabel->isVisibleTo(m_window.get()));
        QVERIFY(backendLabel->text().size() <= 60);
        const QString message = QStringLiteral("Wrote the history report to /tmp/calico-node-history.md");
        m_window->statusBar()->showMessage(message);
        QVERIFY(!backendLabel->isVisibleTo(m_window.get()));
        QCOMPARE(m_window->statusBar()->currentMessage(), message);
        m_window->statusBar()->clearMessage();
        QVERIFY(backendLabel->isVisibleTo(m_window.get()));
    }

    void clockSpeedActionsSetTheBackendSpeed()
    {
        m_window->action(QStringLiteral("speed100"))->trigger();
        QVERIFY(waitFor([&] { return m_window->snapshot()->clock.speed == 100.0; }));
        QVERIFY(m_window->action(QStringLiteral("runClock"))->isChecked());
        m_window->action(QStringLiteral("runClock"))->trigger(); // stop
        QVERIFY(waitFor([&] { return !m_window->snapshot()->clock.running; }));
        m_window->action(QStringLiteral("runClock"))->trigger(); // runs again at the last speed
        QVERIFY(waitFor([&] { return m_window->snapshot()->clock.speed == 100.0; }));
    }

    void aRollbackBeforeTheConsoleOpenedShowsAsRenumbering()
    {
        openFresh(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/ui/data/rolled-back.yaml"));
        QVERIFY(agent() && agent()->currentRevisionNumber == 4);
        SELECT(kAgent);
        QTRY_COMPARE(numberTexts(), (QStringList{QStringLiteral("1"), QStringLiteral("3"),
                                                 QStringLiteral("4 (current, renumbered)")}));
    }

    // A scenario is shown while its steps still run; until it has loaded the status bar says
    // so and the commands that would act on the cluster wait.
    void whileAScenarioLoadsItIsShownAndActionsWait()
    {
        m_window.reset();
        models::EmbeddedBackendOptions options;
        options.speed = 0;
        options.loadingFirstShowMs = 0;
        options.loadingIntervalMs = 0;
        m_window = std::make_unique<gui::MainWindow>(new models::EmbeddedBackend(options));
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        auto *speedLabel = [this] {
            for (auto *l : m_window->statusBar()->findChildren<QLabel *>())
                if (l->accessibleName() == QStringLiteral("Clock speed"))
                    return l;
            return static_cast<QLabel *>(nullptr);
        }();
        QVERIFY(speedLabel);
        int loadingApplied = 0;
        bool actionsWaited = true, saidLoading = true;
        connect(m_window.get(), &gui::MainWindow::snapshotApplied, this, [&] {
            if (!m_window->snapshot() || !m_window->snapshot()->backend.loading)
                return;
            ++loadingApplied;
            saidLoading &= speedLabel->text() == QStringLiteral("Loading scenario…");
            for (const char *name : {"rollback", "pauseRollout", "resumeRollout", "runClock", "startUpgrade"})
                actionsWaited &= !m_window->action(QLatin1String(name))->isEnabled();
        });
        // The empty cluster's snapshot is taken first, so the load's first instant is shown.
        QTRY_VERIFY(m_window->snapshot() != nullptr);
        m_window->openScenario(scenarioPath());
        QVERIFY(waitFor(
            [this] {
                return m_window->snapshot() && !m_window->snapshot()->backend.loading &&
                       m_window->daemonSetCount() == 2;
            },
            30000));
        SELECT(kAgent);
        QVERIFY2(loadingApplied > 0, "no snapshot of the loading scenario reached the window");
        QVERIFY(saidLoading);
        QVERIFY(actionsWaited);
        QCOMPARE(speedLabel->text(), QStringLiteral("Clock stopped"));
        QVERIFY(m_window->action(QStringLiteral("rollback"))->isEnabled());
        QVERIFY(m_window->action(QStringLiteral("runClock"))->isEnabled());
    }

    void simulationStopsBehindALiveClusterAndResumesWithTheDemo()
    {
        auto *embedded = m_window->backend();
        m_window->setSpeed(50);
        QVERIFY(waitFor([&] { return m_window->snapshot()->clock.running; }));
        QSignalSpy published(embedded, &models::ClusterBackend::snapshotReady);
        m_window->setBackend(new QuietLiveBackend);
        QTest::qWait(300); // a publication already under way may still arrive
        published.clear();
        QVERIFY(!published.wait(600)); // no clock, no snapshot behind the live cluster
        const qint64 stoppedAt = embedded->latest()->clock.now;

        m_window->useEmbeddedBackend(); // File → Embedded Demo Cluster
        QCOMPARE(m_window->backend(), embedded);
        QVERIFY(published.wait(5000));
        QVERIFY(waitFor([&] { return m_window->snapshot()->clock.now > stoppedAt; }));
        QCOMPARE(m_window->daemonSetCount(), 2);
    }

    void aWindowOpenedOnALiveClusterLoadsItsScenarioOnlyForTheDemo()
    {
        m_window.reset();
        models::EmbeddedBackendOptions options;
        options.speed = 0;
        auto *embedded = new models::EmbeddedBackend(options);
        m_window = std::make_unique<gui::MainWindow>(embedded);
        m_window->setEmbeddedScenario(scenarioPath());
        m_window->setBackend(new QuietLiveBackend);
        QTest::qWait(300);
        QVERIFY(embedded->latest()->daemonSets.empty());
        QVERIFY(embedded->latest()->backend.scenarioPath.isEmpty());

        m_window->useEmbeddedBackend();
        QVERIFY2(waitFor([this] { return scenarioLoaded(); }, 30000), "scenario did not load");
        QCOMPARE(m_window->snapshot()->backend.scenarioPath, scenarioPath());
    }

    void bundledDemoOpensWithItsDaemonSets()
    {
        m_window->openScenario(gui::MainWindow::demoScenarioPath());
        QVERIFY(waitFor(
            [&] { return m_window->snapshot()->daemonSet(QStringLiteral("kube-system/calico-node")); },
            60000));
        QVERIFY(m_window->daemonSetCount() >= 4);
        QVERIFY(!m_window->currentDaemonSet().isEmpty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
