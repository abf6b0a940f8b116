#include "ui/mainwindow.h"

#include "ui/theme.h"

#include "models/diff/renderers.h"
#include "models/embedded/embeddedbackend.h"
#include "models/history/historyexport.h"
#include "models/itemmodels/daemonsetlistmodel.h"
#include "models/itemmodels/daemonsetselection.h"
#include "models/kube/timeutil.h"
#include "ui/commandpalette.h"
#include "ui/confirmation.h"
#include "ui/connectdialog.h"
#include "ui/difftab.h"
#include "ui/diffview.h"
#include "ui/exportjob.h"
#include "ui/faultdialog.h"
#include "ui/managedbylabel.h"
#include "ui/nodeactions.h"
#include "ui/nodemapview.h"
#include "ui/nodestab.h"
#include "ui/objectdetaildialog.h"
#include "ui/productionbar.h"
#include "ui/rollbackdialog.h"
#include "ui/startrolloutactions.h"
#include "ui/statusbadgedelegate.h"
#include "ui/timelineview.h"
#include "ui/upgradeexplorer.h"
#include "ui/upgradepage.h"
#include "ui/upgradestatusindicator.h"

#include "models/itemmodels/revisiontimelinemodel.h"
#include "models/itemmodels/upgraderolloutlistmodel.h"

#include "models/history/historyrecorder.h"
#include "models/settings/appsettings.h"
#include "ui/languagemenu.h"
#include "ui/thememenu.h"
#include "ui/windowlayout.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <QPointer>

#include <functional>
#include <utility>

// Resources live in the ui library, a static library: without a reference from code the
// linker would drop them. Q_INIT_RESOURCE must be called outside any namespace.
static void initDaemonscopeResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace gui {

namespace {
// The QStyle::StandardPixmap an action's icon comes from (re-tinted when the theme changes).
constexpr char kStandardIconProperty[] = "daemonscopeStandardIcon";
} // namespace

namespace {

// Calls `onKey` for the key presses of the watched widget; when it returns true the key is used.
class KeyHook : public QObject
{
public:
    KeyHook(QObject *parent, std::function<bool(int)> onKey) : QObject(parent), m_onKey(std::move(onKey)) {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress && m_onKey(static_cast<QKeyEvent *>(event)->key()))
            return true;
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<bool(int)> m_onKey;
};

struct Speed
{
    double factor;
    const char *label;
    Qt::Key key;
};

const Speed kSpeeds[] = {
    {1, QT_TRANSLATE_NOOP("gui::MainWindow", "Speed 1×"), Qt::Key_1},
    {10, QT_TRANSLATE_NOOP("gui::MainWindow", "Speed 10×"), Qt::Key_2},
    {100, QT_TRANSLATE_NOOP("gui::MainWindow", "Speed 100×"), Qt::Key_3},
    {1000, QT_TRANSLATE_NOOP("gui::MainWindow", "Speed 1000×"), Qt::Key_4},
};

QString settingsDir(const QString &key)
{
    const QString dir = QSettings().value(key).toString();
    return dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : dir;
}

QString speedText(double speed)
{
    return speed == std::floor(speed) ? QString::number(qint64(speed)) : QString::number(speed, 'g', 3);
}

// A revision's label in an exported patch and its file name part ("web@rev3.yaml").
std::string patchName(const QString &ds, const QString &title, const QString &key)
{
    if (key == DiffTab::liveKey())
        return (ds + QStringLiteral("@live.yaml")).toStdString();
    QString number = title.section(QLatin1Char(' '), 1, 1); // "revision 3 (hash)" -> "3"
    return (ds + QStringLiteral("@rev") + number + QStringLiteral(".yaml")).toStdString();
}

// The explorer's view of the DaemonSet list: filterable by name (namespaces stay when a child
// matches), with the counts folded into one compact "updated/desired" column so the tree fits a
// narrow side panel; the full counts are in the tooltip.
class ExplorerProxyModel : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        using List = models::DaemonSetListModel;
        if (!index.isValid())
            return {};
        const QModelIndex src = mapToSource(index);
        const auto kind = src.data(List::ItemKindRole).value<List::ItemKind>();
        if (index.column() == List::UpdatedColumn && kind != List::ItemKind::Backend) {
            const auto count = [&](int column) { return src.siblingAtColumn(column).data().toInt(); };
            if (role == Qt::DisplayRole)
                return QStringLiteral("%1/%2")
                    .arg(count(List::UpdatedColumn))
                    .arg(count(List::DesiredColumn));
            if (role == Qt::TextAlignmentRole)
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        if (role == Qt::ToolTipRole && kind == List::ItemKind::DaemonSet) {
            QString tip = MainWindow::tr("%1\nDesired %2 · updated %3 · available %4 · unavailable %5\n%6")
                              .arg(src.data(List::KeyRole).toString())
                              .arg(src.data(List::DesiredRole).toInt())
                              .arg(src.data(List::UpdatedRole).toInt())
                              .arg(src.data(List::AvailableRole).toInt())
                              .arg(src.data(List::UnavailableRole).toInt())
                              .arg(src.data(List::StrategyRole).toString());
            const QString reason = src.data(List::BadgeReasonRole).toString();
            if (!reason.isEmpty())
                tip += QLatin1Char('\n') + reason;
            return tip;
        }
        return QSortFilterProxyModel::data(index, role);
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation == Qt::Horizontal && section == models::DaemonSetListModel::UpdatedColumn) {
            if (role == Qt::DisplayRole)
                return MainWindow::tr("Updated");
            if (role == Qt::ToolTipRole)
                return MainWindow::tr("Pods on the current revision / desired pods");
        }
        return QSortFilterProxyModel::headerData(section, orientation, role);
    }
};

} // namespace

MainWindow::MainWindow(models::ClusterBackend *backend, QWidget *parent)
    : QMainWindow(parent), m_backend(backend)
{
    initDaemonscopeResources();
    qRegisterMetaType<models::SnapshotPtr>();
    qRegisterMetaType<models::ActionResult>();
    setWindowTitle(tr("Daemonscope"));
    if (m_backend)
        m_backend->setParent(this);
    if (m_backend && m_backend->kind() == models::BackendKind::Embedded)
        m_embeddedBackend = m_backend;
    m_selection = new models::DaemonSetSelection(this);

    createExplorer();
    m_page = new DaemonSetPage(this);
    m_page->setAccessibleName(tr("DaemonSet"));

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_explorer->parentWidget());
    splitter->addWidget(m_page);
    m_upgradePage = new UpgradePage(m_backend, this);
    m_upgradePage->setAccessibleName(tr("Node upgrade"));
    m_upgradePage->hide();
    splitter->addWidget(m_upgradePage);
    connect(m_upgradeExplorer, &UpgradeExplorer::rolloutActivated, this, &MainWindow::showUpgrade);
    connect(m_upgradePage, &UpgradePage::rolloutShown, this, [this](const QString &name) {
        if (!m_upgradePage->isHidden())
            m_upgradeExplorer->select(name);
    });
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    const int explorerWidth = fontMetrics().averageCharWidth() * 60;
    splitter->setSizes({explorerWidth, explorerWidth * 3});
    setCentralWidget(splitter);

    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    setUpNodeOps();

    connect(m_page, &DaemonSetPage::rollbackRequested, this, [this](qint64 n) { showRollbackDialog(n); });
    // Return or a double-click on a node tile: the drill-down (pod, node, logs), not modal.
    const auto openDetail = [this](const QString &node) {
        auto *detail = new ObjectDetailDialog(m_backend, currentDaemonSet(), node, this);
        detail->setAttribute(Qt::WA_DeleteOnClose);
        detail->show();
    };
    connect(m_page->nodesTab(), &NodesTab::nodeActivated, this, openDetail);
    connect(m_nodeActions, &NodeActions::detailsRequested, this, openDetail);
    connect(m_page, &DaemonSetPage::resumeRequested, this, &MainWindow::resumeRollout);
    connect(m_page, &DaemonSetPage::startRolloutRequested, m_startRollout, &StartRolloutActions::show);
    connect(m_page, &DaemonSetPage::currentTabChanged, this, [this](DaemonSetPage::Tab tab) {
        const int i = static_cast<int>(tab);
        if (i >= 0 && i < m_tabActions.size())
            m_tabActions[i]->setChecked(true);
        updateActions();
    });
    connect(m_page->diffTab(), &DiffTab::pairChanged, this, &MainWindow::updateActions);
    connect(m_page->timeline(), &TimelineView::revisionSelected, this, &MainWindow::updateActions);

    if (m_backend) {
        connect(m_backend, &models::ClusterBackend::snapshotReady, this, &MainWindow::applySnapshot);
        connect(m_backend, &models::ClusterBackend::actionFinished, this, &MainWindow::onActionFinished);
        connect(m_backend, &models::ClusterBackend::errorOccurred, this,
                [this](const QString &message) { statusBar()->showMessage(message, 15000); });
        applySnapshot(m_backend->latest());
    }
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::setBackend(models::ClusterBackend *backend)
{
    if (!backend || backend == m_backend)
        return;
    if (m_backend) {
        disconnect(m_backend, nullptr, this, nullptr);
        if (m_backend != m_embeddedBackend)
            m_backend->deleteLater(); // stops its watches
        else
            m_backend->setSuspended(true); // no simulation runs behind another cluster
    }
    m_backend = backend;
    m_backend->setParent(this);
    m_backend->setSuspended(false);
    if (m_upgradePage)
        m_upgradePage->setBackend(m_backend);
    m_nodeActions->setBackend(m_backend);
    if (!m_embeddedBackend && m_backend->kind() == models::BackendKind::Embedded)
        m_embeddedBackend = m_backend;
    connect(m_backend, &models::ClusterBackend::snapshotReady, this, &MainWindow::applySnapshot);
    connect(m_backend, &models::ClusterBackend::actionFinished, this, &MainWindow::onActionFinished);
    connect(m_backend, &models::ClusterBackend::errorOccurred, this,
            [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    applySnapshot(m_backend->latest());
    updateActions();
    Q_EMIT backendChanged(m_backend);
}

void MainWindow::useEmbeddedBackend()
{
    if (m_embeddedBackend) {
        setBackend(m_embeddedBackend);
    } else {
        setBackend(new models::EmbeddedBackend);
        if (m_embeddedScenario.isEmpty())
            m_embeddedScenario = demoScenarioPath();
    }
    if (!m_embeddedScenario.isEmpty())
        openScenario(std::exchange(m_embeddedScenario, QString()));
}

QString MainWindow::demoScenarioPath()
{
    return QStringLiteral(":/scenarios/demo.yaml");
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

// ---- construction -------------------------------------------------------------------------

void MainWindow::createExplorer()
{
    auto *panel = new QWidget(this);
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    m_explorerFilter = new QLineEdit(panel);
    m_explorerFilter->setPlaceholderText(tr("Find DaemonSet or namespace"));
    m_explorerFilter->setClearButtonEnabled(true);
    m_explorerFilter->setAccessibleName(tr("Explorer filter"));
    layout->addWidget(m_explorerFilter);

    m_listModel = new models::DaemonSetListModel(this);
    m_explorerProxy = new ExplorerProxyModel(this);
    m_explorerProxy->setSourceModel(m_listModel);
    m_explorerProxy->setRecursiveFilteringEnabled(true);
    m_explorerProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_explorerProxy->setFilterKeyColumn(models::DaemonSetListModel::NameColumn);
    connect(m_explorerFilter, &QLineEdit::textChanged, m_explorerProxy, [this](const QString &text) {
        m_explorerProxy->setFilterFixedString(text);
        m_explorer->expandAll();
    });
    // Return or Down in the filter goes to the first DaemonSet it shows: selected, and the
    // explorer focused so the arrows continue from there.
    m_explorerFilter->installEventFilter(new KeyHook(m_explorerFilter, [this](int key) {
        if (key != Qt::Key_Return && key != Qt::Key_Enter && key != Qt::Key_Down)
            return false;
        const QModelIndex first = firstShownDaemonSet(QModelIndex());
        if (!first.isValid())
            return key != Qt::Key_Down;
        m_explorer->selectionModel()->setCurrentIndex(first, QItemSelectionModel::ClearAndSelect |
                                                                 QItemSelectionModel::Rows);
        m_explorer->scrollTo(first);
        m_explorer->setFocus(Qt::ShortcutFocusReason);
        return true;
    }));

    m_explorer = new QTreeView(panel);
    m_explorer->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_explorer->setModel(m_explorerProxy);
    m_explorer->setAccessibleName(tr("Explorer"));
    m_explorer->setUniformRowHeights(true);
    m_explorer->setSelectionMode(QAbstractItemView::SingleSelection);
    m_explorer->setAllColumnsShowFocus(true);
    m_explorer->setItemDelegate(
        new StatusBadgeDelegate(models::DaemonSetListModel::StatusColumn, m_explorer));
    m_explorer->setColumnHidden(models::DaemonSetListModel::DesiredColumn, true);
    m_explorer->setColumnHidden(models::DaemonSetListModel::AvailableColumn, true);
    m_explorer->header()->setStretchLastSection(false);
    m_explorer->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_explorer->header()->setSectionResizeMode(models::DaemonSetListModel::NameColumn, QHeaderView::Stretch);
    m_explorer->header()->setMinimumSectionSize(fontMetrics().averageCharWidth() * 4);
    layout->addWidget(m_explorer, 1);
    m_upgradeExplorer = new UpgradeExplorer(panel);
    layout->addWidget(m_upgradeExplorer);
    connect(m_explorer, &QTreeView::clicked, this, [this] {
        if (m_upgradePage && !m_upgradePage->isHidden())
            onExplorerCurrentChanged();
    });

    connect(m_explorerProxy, &QAbstractItemModel::rowsInserted, m_explorer,
            [this](const QModelIndex &parent, int first, int last) {
                // New namespaces and the backend row open by themselves: the explorer is meant to
                // show every DaemonSet at a glance.
                m_explorer->expand(parent);
                for (int r = first; r <= last; ++r)
                    m_explorer->expand(m_explorerProxy->index(r, 0, parent));
            });
    connect(m_explorerProxy, &QAbstractItemModel::modelReset, m_explorer, &QTreeView::expandAll);
    connect(m_explorer->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::onExplorerCurrentChanged);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    // A theme switch: the style's grey glyphs are redrawn for the new palette.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        for (QAction *a : findChildren<QAction *>()) {
            const QVariant icon = a->property(kStandardIconProperty);
            if (icon.isValid())
                a->setIcon(Theme::standardIcon(static_cast<QStyle::StandardPixmap>(icon.toInt()), this));
        }
    }
}

void MainWindow::createActions()
{
    auto make = [this](const QString &name, const QString &text, const QKeySequence &shortcut,
                       QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto *a = new QAction(text, this);
        a->setObjectName(name);
        if (!shortcut.isEmpty())
            a->setShortcut(shortcut);
        if (icon != QStyle::SP_CustomBase) {
            a->setProperty(kStandardIconProperty, int(icon));
            a->setIcon(Theme::standardIcon(icon, this));
        }
        addAction(a); // shortcuts work even when menu bar and toolbar are hidden
        return a;
    };

    m_openScenario = make(QStringLiteral("openScenario"), tr("&Open Scenario…"), QKeySequence::Open,
                          QStyle::SP_DialogOpenButton);
    m_openScenario->setStatusTip(tr("Load a scenario file into the embedded cluster"));
    connect(m_openScenario, &QAction::triggered, this, &MainWindow::openScenarioDialog);
    m_reloadScenario = make(QStringLiteral("reloadScenario"), tr("&Reload Scenario"),
                            QKeySequence(Qt::Key_F5), QStyle::SP_BrowserReload);
    m_reloadScenario->setStatusTip(tr("Start the current scenario again from its first step"));
    connect(m_reloadScenario, &QAction::triggered, this, [this] {
        const QString path = m_snapshot ? m_snapshot->backend.scenarioPath : QString();
        const QString target = path.isEmpty() ? demoScenarioPath() : path;
        if (mayDiscardRun(target))
            openScenario(target);
    });
    m_exportReport = make(QStringLiteral("exportReport"), tr("&Export History Report…"),
                          QKeySequence(Qt::CTRL | Qt::Key_E), QStyle::SP_DialogSaveButton);
    m_exportReport->setStatusTip(
        tr("Write the DaemonSet's revisions, diffs, rollouts and actions as Markdown, HTML "
           "or JSON"));
    connect(m_exportReport, &QAction::triggered, this, &MainWindow::exportHistoryReportDialog);
    m_exportDiff = make(QStringLiteral("exportDiff"), tr("Export Revision &Diff…"),
                        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportDiff->setStatusTip(
        tr("Write the two revisions of the Diff tab as a unified diff (git apply, patch)"));
    connect(m_exportDiff, &QAction::triggered, this, &MainWindow::exportRevisionDiffDialog);
    m_quit = make(QStringLiteral("quit"), tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    m_rollback = make(QStringLiteral("rollback"), tr("&Roll Back to Previous Revision…"),
                      QKeySequence(Qt::CTRL | Qt::Key_Z), QStyle::SP_ArrowBack);
    m_rollback->setIconText(tr("Roll Back"));
    m_rollback->setStatusTip(tr("kubectl rollout undo: preview and roll back to the previous revision"));
    connect(m_rollback, &QAction::triggered, this, [this] { showRollbackDialog(0); });
    m_rollbackTo = make(QStringLiteral("rollbackTo"), tr("Roll Back to &Selected Revision…"),
                        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    m_rollbackTo->setStatusTip(
        tr("kubectl rollout undo --to-revision: the revision selected in the timeline"));
    connect(m_rollbackTo, &QAction::triggered, this, [this] {
        const qint64 n = m_page->timeline()->selectedNumber();
        showRollbackDialog(n > 0 ? n : 0);
    });
    m_pause = make(QStringLiteral("pauseRollout"), tr("&Pause Rollout"), QKeySequence(Qt::CTRL | Qt::Key_P),
                   QStyle::SP_MediaPause);
    m_pause->setStatusTip(tr("Switch the update strategy to OnDelete and save the current one"));
    connect(m_pause, &QAction::triggered, this, &MainWindow::pauseRollout);
    m_resume = make(QStringLiteral("resumeRollout"), tr("Res&ume Rollout"),
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), QStyle::SP_MediaPlay);
    m_resume->setStatusTip(tr("Restore the saved update strategy"));
    connect(m_resume, &QAction::triggered, this, &MainWindow::resumeRollout);

    m_runClock =
        make(QStringLiteral("runClock"), tr("&Run Clock"), QKeySequence(Qt::Key_Space), QStyle::SP_MediaPlay);
    m_runClock->setCheckable(true);
    m_runClock->setStatusTip(tr("Run or stop the simulated cluster's virtual clock"));
    connect(m_runClock, &QAction::triggered, this, &MainWindow::toggleClock);
    m_step = make(QStringLiteral("step"), tr("S&tep 5 Seconds"), QKeySequence(Qt::Key_F10),
                  QStyle::SP_MediaSeekForward);
    m_step->setStatusTip(tr("Advance the virtual clock by 5 seconds"));
    connect(m_step, &QAction::triggered, this, [this] { m_backend->step(5000); });
    auto *stepMinute =
        make(QStringLiteral("stepMinute"), tr("Step 1 &Minute"), QKeySequence(Qt::SHIFT | Qt::Key_F10));
    connect(stepMinute, &QAction::triggered, this, [this] { m_backend->step(60000); });
    m_speedGroup = new QActionGroup(this);
    for (const auto &s : kSpeeds) {
        QAction *a =
            make(QStringLiteral("speed%1").arg(qint64(s.factor)), tr(s.label), QKeySequence(Qt::ALT | s.key));
        a->setCheckable(true);
        a->setData(s.factor);
        m_speedGroup->addAction(a);
        m_speedActions << a;
        connect(a, &QAction::triggered, this, [this, f = s.factor] { setSpeed(f); });
    }
    m_injectFault = make(QStringLiteral("injectFault"), tr("&Inject Fault on Node…"),
                         QKeySequence(Qt::CTRL | Qt::Key_I), QStyle::SP_MessageBoxWarning);
    m_injectFault->setStatusTip(tr("Make a node NotReady, unreachable, or misbehave on its next restart"));
    connect(m_injectFault, &QAction::triggered, this, &MainWindow::injectFaultDialog);
    m_startUpgrade = make(QStringLiteral("startUpgrade"), tr("Start Node &Upgrade…"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    m_startUpgrade->setStatusTip(
        tr("Upgrade the node agents a few nodes at a time, with a pre-flight report"));
    connect(m_startUpgrade, &QAction::triggered, this, [this] {
        showUpgrade(m_upgradePage->rollout());
        m_upgradePage->showStartDialog(false);
    });

    const QString tabNames[] = {tr("&Timeline"), tr("&Nodes"), tr("&Diff"), tr("&Events"), tr("&Progress")};
    auto *tabGroup = new QActionGroup(this);
    for (int i = 0; i < 5; ++i) {
        QAction *a = make(QStringLiteral("showTab%1").arg(i + 1), tabNames[i],
                          QKeySequence(Qt::CTRL | (Qt::Key_1 + i)));
        a->setCheckable(true);
        tabGroup->addAction(a);
        m_tabActions << a;
        connect(a, &QAction::triggered, this,
                [this, i] { m_page->setCurrentTab(static_cast<DaemonSetPage::Tab>(i)); });
    }
    m_tabActions.first()->setChecked(true);
    m_focusExplorer =
        make(QStringLiteral("focusExplorer"), tr("Find &DaemonSet"), QKeySequence(Qt::CTRL | Qt::Key_K));
    connect(m_focusExplorer, &QAction::triggered, this, [this] {
        m_explorerFilter->setFocus();
        m_explorerFilter->selectAll();
    });
    auto *focusTree =
        make(QStringLiteral("focusTree"), tr("Go to E&xplorer"), QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(focusTree, &QAction::triggered, this, [this] { m_explorer->setFocus(); });

    // k9s's ":" jumps anywhere; Ctrl+G is the same where ":" needs a shifted key.
    auto *goTo = make(QStringLiteral("commandPalette"), tr("&Go To…"), QKeySequence(Qt::CTRL | Qt::Key_G));
    goTo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_G), QKeySequence(Qt::Key_Colon)});
    connect(goTo, &QAction::triggered, this, [this] { showCommandPalette(); });
    auto *keys = make(QStringLiteral("shortcuts"), tr("&Keyboard Shortcuts"), QKeySequence(Qt::Key_F1));
    keys->setShortcuts({QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question)});
    connect(keys, &QAction::triggered, this, [this] { showShortcutSheet(); });

    m_about = make(QStringLiteral("about"), tr("&About Daemonscope"), QKeySequence());
    m_about->setMenuRole(QAction::AboutRole);
    connect(m_about, &QAction::triggered, this, &MainWindow::showAbout);
    m_aboutQt = make(QStringLiteral("aboutQt"), tr("About &Qt"), QKeySequence());
    m_aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(m_aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);

    m_startRollout = new StartRolloutActions(
        this, [this] { return m_backend; }, [this] { return m_selection->current(); });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openScenario);
    file->addAction(m_reloadScenario);
    file->addSeparator();
    ConnectDialog::addActions(this, file);
    file->addSeparator();
    file->addAction(m_exportReport);
    file->addAction(m_exportDiff);
    file->addSeparator();
    file->addAction(m_quit);

    QMenu *rollout = menuBar()->addMenu(tr("&Rollout"));
    rollout->addAction(m_rollback);
    rollout->addAction(m_rollbackTo);
    rollout->addSeparator();
    rollout->addAction(m_pause);
    rollout->addAction(m_resume);
    rollout->addSeparator();
    m_startRollout->addTo(rollout);
    rollout->addSeparator();
    rollout->addAction(m_startUpgrade);

    QMenu *sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addAction(m_runClock);
    sim->addAction(m_step);
    sim->addAction(action(QStringLiteral("stepMinute")));
    sim->addSeparator();
    sim->addActions(m_speedActions);
    sim->addSeparator();
    sim->addAction(m_injectFault);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addActions(m_tabActions);
    view->addSeparator();
    view->addAction(m_focusExplorer);
    view->addAction(action(QStringLiteral("focusTree")));
    view->addAction(action(QStringLiteral("commandPalette")));
    view->addSeparator();
    view->addMenu(new ThemeMenu(view));
    view->addMenu(new LanguageMenu(view));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action(QStringLiteral("shortcuts")));
    help->addSeparator();
    help->addAction(m_about);
    help->addAction(m_aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_openScenario);
    bar->addSeparator();
    bar->addAction(m_rollback);
    bar->addAction(m_pause);
    bar->addAction(m_resume);
    bar->addSeparator();
    bar->addAction(m_runClock);
    bar->addAction(m_step);
    m_speedCombo = new QComboBox(bar);
    m_speedCombo->setAccessibleName(tr("Clock speed"));
    m_speedCombo->setToolTip(tr("Virtual clock speed (Alt+1 … Alt+4)"));
    for (const auto &s : kSpeeds)
        m_speedCombo->addItem(QStringLiteral("%1×").arg(speedText(s.factor)), s.factor);
    connect(m_speedCombo, &QComboBox::activated, this,
            [this](int i) { setSpeed(m_speedCombo->itemData(i).toDouble()); });
    bar->addWidget(m_speedCombo);
    bar->addAction(m_injectFault);
    bar->addSeparator();
    bar->addAction(m_exportReport);
}

void MainWindow::createStatusBar()
{
    m_backendLabel = new QLabel(this);
    m_backendLabel->setAccessibleName(tr("Backend"));
    m_clockLabel = new QLabel(this);
    m_clockLabel->setAccessibleName(tr("Virtual clock"));
    m_speedLabel = new QLabel(this);
    m_speedLabel->setAccessibleName(tr("Clock speed"));
    m_backendLabel->setObjectName(QStringLiteral("backendLabel"));
    statusBar()->addPermanentWidget(m_backendLabel);
    // A message (an export written, an action's outcome) gets the backend label's room while it
    // shows: otherwise the permanent widgets cut it to a few letters on a narrow window.
    connect(statusBar(), &QStatusBar::messageChanged, this,
            [this](const QString &message) { m_backendLabel->setVisible(message.isEmpty()); });
    statusBar()->addPermanentWidget(m_clockLabel);
    statusBar()->addPermanentWidget(m_speedLabel);
    m_upgradeStatus = new UpgradeStatusIndicator(this);
    statusBar()->addPermanentWidget(m_upgradeStatus);
    connect(m_upgradeStatus, &UpgradeStatusIndicator::activated, this, &MainWindow::showUpgrade);
}

// ---- state --------------------------------------------------------------------------------

int MainWindow::daemonSetCount() const
{
    return m_snapshot ? int(m_snapshot->daemonSets.size()) : 0;
}

QString MainWindow::currentDaemonSet() const
{
    return m_selection->current();
}

void MainWindow::applySnapshot(const models::SnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    // A snapshot from another scenario (a new load) is a new cluster: its first sequence restarts.
    m_snapshot = snapshot;
    m_listModel->setSnapshot(snapshot);
    m_page->setSnapshot(snapshot);
    m_upgradePage->setSnapshot(snapshot);
    m_upgradeExplorer->setSnapshot(snapshot);
    m_upgradeStatus->setSnapshot(snapshot);
    applyNodeOps(snapshot);

    if (!m_pendingSelection.isEmpty() && snapshot->daemonSet(m_pendingSelection)) {
        const QString key = m_pendingSelection;
        m_pendingSelection.clear();
        selectDaemonSet(key);
    } else if (!snapshot->daemonSets.empty() &&
               (m_selection->current().isEmpty() || !snapshot->daemonSet(m_selection->current()))) {
        if (!m_firstDaemonSetsSeen || !m_selection->current().isEmpty())
            selectDaemonSet(snapshot->daemonSets.front().key);
    }
    m_firstDaemonSetsSeen = m_firstDaemonSetsSeen || !snapshot->daemonSets.empty();
    updateActions();
    updateStatusBar();
    emit snapshotApplied();
}

bool MainWindow::selectDaemonSet(const QString &dsKey)
{
    const QModelIndex source = m_listModel->indexOfDaemonSet(dsKey);
    if (!source.isValid()) {
        m_pendingSelection = dsKey;
        return false;
    }
    const QModelIndex index = m_explorerProxy->mapFromSource(source);
    if (!index.isValid()) { // filtered out: show it anyway
        m_explorerFilter->clear();
    }
    const QModelIndex shown = m_explorerProxy->mapFromSource(source);
    m_explorer->scrollTo(shown);
    m_explorer->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
    // Also when the row was current already (a reloaded scenario).
    m_selection->setCurrent(dsKey);
    m_page->setDaemonSet(dsKey);
    updateActions();
    return true;
}

QModelIndex MainWindow::firstShownDaemonSet(const QModelIndex &parent) const
{
    for (int r = 0, n = m_explorerProxy->rowCount(parent); r < n; ++r) {
        const QModelIndex index = m_explorerProxy->index(r, 0, parent);
        if (index.data(models::DaemonSetListModel::ItemKindRole)
                .value<models::DaemonSetListModel::ItemKind>() ==
            models::DaemonSetListModel::ItemKind::DaemonSet)
            return index;
        if (const QModelIndex below = firstShownDaemonSet(index); below.isValid())
            return below;
    }
    return {};
}

void MainWindow::onExplorerCurrentChanged()
{
    const QModelIndex index = m_explorer->currentIndex();
    const auto kind =
        index.data(models::DaemonSetListModel::ItemKindRole).value<models::DaemonSetListModel::ItemKind>();
    if (!index.isValid() || kind != models::DaemonSetListModel::ItemKind::DaemonSet)
        return;
    const QString key = index.data(models::DaemonSetListModel::KeyRole).toString();
    m_selection->setCurrent(key);
    m_page->setDaemonSet(key);
    showDaemonSetPage();
    updateActions();
}

void MainWindow::showUpgrade(const QString &rollout)
{
    m_upgradePage->setRollout(rollout);
    m_page->hide();
    m_upgradePage->show();
    if (!m_upgradeExplorer->select(rollout))
        m_upgradeExplorer->clearSelection();
}

CommandPalette *MainWindow::showCommandPalette()
{
    std::vector<PaletteEntry> entries;
    if (m_snapshot && !m_snapshot->backend.loading) {
        for (const auto &ds : m_snapshot->daemonSets) {
            const QString key = ds.key;
            entries.push_back(
                {tr("DaemonSet"), key,
                 models::badgeName(ds.badge) +
                     (ds.badgeReason.isEmpty() ? QString() : QStringLiteral(": ") + ds.badgeReason),
                 [this, key] {
                     selectDaemonSet(key);
                     showDaemonSetPage();
                     m_explorer->setFocus();
                 }});
        }
        for (const auto &rollout : *m_snapshot->upgrades) {
            const QString name = rollout.name;
            entries.push_back({tr("Upgrade"), name,
                               models::UpgradeRolloutListModel::phaseTitle(rollout.phase) +
                                   QStringLiteral(" → ") + rollout.targetVersion,
                               [this, name] { showUpgrade(name); }});
        }
        if (m_snapshot->nodes)
            for (const auto &node : *m_snapshot->nodes) {
                const QString name = node.name;
                QStringList detail;
                if (!node.zone.isEmpty())
                    detail << node.zone;
                detail << (node.ready ? tr("Ready") : tr("NotReady"));
                if (node.unschedulable)
                    detail << tr("cordoned");
                if (!node.agentVersion.isEmpty())
                    detail << node.agentVersion;
                // The node on the Nodes tab of the DaemonSet shown (the first one when none is).
                entries.push_back({tr("Node"), name, detail.join(QStringLiteral(" · ")), [this, name] {
                                       if (!m_page->daemonSet() && m_snapshot &&
                                           !m_snapshot->daemonSets.empty())
                                           selectDaemonSet(m_snapshot->daemonSets.front().key);
                                       showDaemonSetPage();
                                       m_page->setCurrentTab(DaemonSetPage::Tab::Nodes);
                                       m_page->nodesTab()->mapView()->setCurrentNode(name);
                                       m_page->nodesTab()->mapView()->setFocus();
                                   }});
            }
    }
    // Every enabled menu command, with its shortcut, except the palette itself.
    std::function<void(const QMenu *)> addMenu = [&](const QMenu *menu) {
        for (QAction *a : menu->actions()) {
            if (a->menu()) {
                addMenu(a->menu());
                continue;
            }
            if (a->isSeparator() || !a->isEnabled() || a->text().isEmpty() ||
                a->objectName() == QLatin1String("commandPalette"))
                continue;
            QPointer<QAction> guarded(a);
            entries.push_back({tr("Command"), plainMenuText(a->text()),
                               a->shortcut().toString(QKeySequence::NativeText), [guarded] {
                                   if (guarded)
                                       guarded->trigger();
                               }});
        }
    };
    for (const QAction *top : menuBar()->actions())
        if (top->menu())
            addMenu(top->menu());
    auto *palette = new CommandPalette(std::move(entries), this);
    palette->setAttribute(Qt::WA_DeleteOnClose);
    palette->show();
    palette->activateWindow();
    palette->input()->setFocus();
    return palette;
}

ShortcutSheet *MainWindow::showShortcutSheet()
{
    const QList<QPair<QString, QString>> extra = {
        {tr("Return or Down in Find DaemonSet"), tr("Go to the first DaemonSet shown")},
        {tr("Tab · Shift+Tab"), tr("Next or previous pane")},
        {tr("Arrows, Page Up/Down"), tr("Move in a list, a table or the node map")},
        {tr("Escape"), tr("Close a dialog (its safe choice)")},
    };
    auto *sheet = new ShortcutSheet(menuBar(), extra, this);
    sheet->setAttribute(Qt::WA_DeleteOnClose);
    sheet->show();
    return sheet;
}

void MainWindow::showDaemonSetPage()
{
    if (!m_upgradePage || m_upgradePage->isHidden())
        return;
    m_upgradePage->hide();
    m_page->show();
    m_upgradeExplorer->clearSelection();
}

void MainWindow::updateActions()
{
    // While a scenario loads the worker is busy building it: commands would only queue up
    // behind the load and act on a cluster the user has not seen yet.
    const bool loading = m_snapshot && m_snapshot->backend.loading;
    const models::DaemonSetInfo *ds = loading ? nullptr : m_page->daemonSet();
    const bool sim = m_backend && m_backend->isSimulation() && !loading;
    const bool hasRevisions = ds && ds->revisions && ds->revisions->size() >= 2;
    m_rollback->setEnabled(ds && hasRevisions);
    m_rollbackTo->setEnabled(ds && m_page->timeline()->selectedNumber() > 0);
    m_pause->setEnabled(ds && !ds->paused);
    m_resume->setEnabled(ds && ds->paused);
    m_startRollout->setDaemonSet(ds);
    m_exportReport->setEnabled(ds != nullptr);
    m_exportDiff->setEnabled(ds != nullptr);
    m_openScenario->setEnabled(sim);
    m_reloadScenario->setEnabled(sim);
    m_runClock->setEnabled(sim);
    m_step->setEnabled(sim);
    action(QStringLiteral("stepMinute"))->setEnabled(sim);
    for (QAction *a : m_speedActions)
        a->setEnabled(sim);
    m_speedCombo->setEnabled(sim);
    m_injectFault->setEnabled(sim && m_snapshot && !m_snapshot->nodes->empty());
    m_startUpgrade->setEnabled(m_backend && m_snapshot && !loading && !m_snapshot->nodes->empty());

    const double speed = m_snapshot ? m_snapshot->clock.speed : 0;
    const bool running = m_snapshot && m_snapshot->clock.running && speed > 0;
    m_runClock->setChecked(running);
    m_runClock->setText(running ? tr("Pause &Clock") : tr("&Run Clock"));
    const auto clockIcon = running ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay;
    m_runClock->setProperty(kStandardIconProperty, int(clockIcon));
    m_runClock->setIcon(Theme::standardIcon(clockIcon, this));
    gateActions(ds);
    // Speed choices show the speed the clock runs at (or will resume at).
    const double shown = speed > 0 ? speed : m_lastRunningSpeed;
    for (QAction *a : m_speedActions)
        a->setChecked(qFuzzyCompare(a->data().toDouble(), shown));
    const int ci = m_speedCombo->findData(shown);
    if (ci >= 0)
        m_speedCombo->setCurrentIndex(ci);
}

void MainWindow::updateStatusBar()
{
    if (!m_snapshot)
        return;
    const auto &b = m_snapshot->backend;
    QString backend = b.name.isEmpty() ? tr("no cluster") : b.name;
    if (!b.errorText.isEmpty())
        backend += QStringLiteral(" — ") + b.errorText;
    else if (b.kind == models::BackendKind::Live)
        backend += b.connected ? tr(" — connected") : tr(" — disconnected");
    backend += tr(" · %n node(s)", nullptr, int(m_snapshot->nodes->size()));
    // At most about 48 characters, the whole text in the tooltip: a long scenario or context
    // name must not push the clock and speed off a narrow window.
    const QString shown = m_backendLabel->fontMetrics().elidedText(
        backend, Qt::ElideMiddle, m_backendLabel->fontMetrics().averageCharWidth() * 48);
    m_backendLabel->setText(shown);
    m_backendLabel->setToolTip(shown == backend ? QString() : backend);
    if (b.kind == models::BackendKind::Embedded) {
        const QDateTime t = QDateTime::fromMSecsSinceEpoch(m_snapshot->clock.now, Qt::UTC);
        m_clockLabel->setText(
            tr("Virtual time %1").arg(t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))));
        const double speed = m_snapshot->clock.speed;
        m_speedLabel->setText(b.loading ? tr("Loading scenario…")
                              : m_snapshot->clock.running && speed > 0
                                  ? tr("Running at %1×").arg(speedText(speed))
                                  : tr("Clock stopped"));
    } else {
        m_clockLabel->setText(
            tr("Last update %1")
                .arg(QDateTime::fromMSecsSinceEpoch(m_snapshot->clock.now).toString(Qt::ISODate)));
        m_speedLabel->clear();
    }
}

// ---- commands -----------------------------------------------------------------------------

void MainWindow::openScenario(const QString &path)
{
    if (!m_backend)
        return;
    // The new cluster's DaemonSets replace the old ones; keep the selection when the key exists.
    m_firstDaemonSetsSeen = false;
    if (!m_selection->current().isEmpty())
        m_pendingSelection = m_selection->current();
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    m_backend->loadScenario(path);
}

bool MainWindow::mayDiscardRun(const QString &path)
{
    QStringList running;
    if (m_snapshot)
        for (const auto &u : *m_snapshot->upgrades)
            if (u.running())
                running << u.name;
    if (m_actionsSinceLoad == 0 && running.isEmpty())
        return true;
    QString text =
        tr("Loading %1 starts the simulation again from its first step.").arg(QFileInfo(path).fileName());
    if (m_actionsSinceLoad > 0)
        text += QLatin1Char('\n') +
                tr("%n action(s) taken since the scenario was loaded (rollbacks, pauses, faults, upgrade "
                   "controls) will be lost.",
                   nullptr, m_actionsSinceLoad);
    if (!running.isEmpty())
        text += QLatin1Char('\n') +
                tr("The running node upgrade %1 will be discarded.").arg(running.join(QStringLiteral(", ")));
    return confirmAction(this, tr("Discard This Run?"), text, tr("&Reload and Discard"),
                         ConfirmKind::Destroy);
}

void MainWindow::setSpeed(double speed)
{
    if (!m_backend)
        return;
    if (speed > 0)
        m_lastRunningSpeed = speed;
    m_backend->setSpeed(speed);
}

void MainWindow::toggleClock()
{
    const bool running = m_snapshot && m_snapshot->clock.running && m_snapshot->clock.speed > 0;
    if (running)
        m_lastRunningSpeed = m_snapshot->clock.speed;
    setSpeed(running ? 0 : m_lastRunningSpeed);
}

void MainWindow::openScenarioDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Scenario"), settingsDir(QStringLiteral("dirs/scenario")),
                                     tr("Scenarios (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("dirs/scenario"), QFileInfo(path).absolutePath());
    if (mayDiscardRun(path))
        openScenario(path);
}

RollbackDialog *MainWindow::showRollbackDialog(qint64 toRevision)
{
    const QString key = m_selection->current();
    if (key.isEmpty() || !m_backend)
        return nullptr;
    if (!mayChangeDaemonSet(tr("Roll Back %1").arg(key), tr("Open the rollback of %1?").arg(key),
                            tr("&Continue")))
        return nullptr;
    if (m_rollbackDialog)
        m_rollbackDialog->close();
    auto *dialog = new RollbackDialog(m_backend, key, toRevision, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    m_rollbackDialog = dialog;
    dialog->show();
    return dialog;
}

void MainWindow::pauseRollout()
{
    const QString key = m_selection->current();
    if (key.isEmpty() ||
        !mayChangeDaemonSet(
            tr("Pause %1").arg(key),
            tr("Pause the rollout of %1? Its update strategy is switched to OnDelete.").arg(key),
            tr("&Pause Rollout")))
        return;
    // A tool that manages the DaemonSet puts its strategy back: say so first.
    if (const auto *ds = m_page->daemonSet();
        ds && !confirmManagedChange(this, *ds, models::ManagedChange::Pause, tr("Pause %1").arg(key),
                                    tr("&Pause Rollout")))
        return;
    m_backend->pause(key);
}

void MainWindow::resumeRollout()
{
    const QString key = m_selection->current();
    if (!key.isEmpty() && mayChangeDaemonSet(QString(), QString(), QString()))
        m_backend->resume(key);
}

void MainWindow::injectFaultDialog()
{
    if (!m_snapshot)
        return;
    QStringList nodes;
    for (const auto &n : *m_snapshot->nodes)
        nodes << n.name;
    FaultDialog dialog(nodes, m_page->nodesTab()->currentNode(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_backend->injectFault(dialog.node(), dialog.faultKind());
}

void MainWindow::onActionFinished(const models::ActionResult &result)
{
    QString what;
    switch (result.kind) {
    case models::ActionKind::Rollback:
        what = tr("Rollback of %1").arg(result.target);
        break;
    case models::ActionKind::Pause:
        what = tr("Pause of %1").arg(result.target);
        break;
    case models::ActionKind::Resume:
        what = tr("Resume of %1").arg(result.target);
        break;
    case models::ActionKind::LoadScenario:
        what = tr("Loading %1").arg(QFileInfo(result.target).fileName());
        break;
    case models::ActionKind::InjectFault:
        what = tr("Fault on %1").arg(result.target);
        break;
    case models::ActionKind::StartUpgrade:
        what = tr("Upgrade %1").arg(result.target);
        break;
    case models::ActionKind::UpgradeControl:
        what = tr("Upgrade %1").arg(result.target);
        break;
    case models::ActionKind::Connect:
        what = tr("Connecting to %1").arg(result.target);
        break;
    case models::ActionKind::SetImage:
        what = tr("Set image on %1").arg(result.target);
        break;
    case models::ActionKind::RestartRollout:
        what = tr("Restart of %1").arg(result.target);
        break;
    case models::ActionKind::SetStrategy:
        what = tr("Update strategy of %1").arg(result.target);
        break;
    case models::ActionKind::Cordon:
        what = tr("Cordon of %1").arg(result.target);
        break;
    case models::ActionKind::Uncordon:
        what = tr("Uncordon of %1").arg(result.target);
        break;
    case models::ActionKind::Drain:
        what = tr("Drain of %1").arg(result.target);
        break;
    case models::ActionKind::SetSpeed:
    case models::ActionKind::Step:
    case models::ActionKind::SetSeed:
        if (result.ok)
            return; // the status bar's clock shows it
        what = tr("Clock");
        break;
    }
    statusBar()->showMessage(tr("%1: %2").arg(what, result.message), 15000);
    switch (result.kind) {
    case models::ActionKind::LoadScenario:
    case models::ActionKind::Connect:
        if (result.ok)
            m_actionsSinceLoad = 0;
        break;
    case models::ActionKind::Rollback:
    case models::ActionKind::Pause:
    case models::ActionKind::Resume:
    case models::ActionKind::InjectFault:
    case models::ActionKind::StartUpgrade:
    case models::ActionKind::UpgradeControl:
    case models::ActionKind::SetImage:
    case models::ActionKind::RestartRollout:
    case models::ActionKind::SetStrategy:
    case models::ActionKind::Cordon:
    case models::ActionKind::Uncordon:
    case models::ActionKind::Drain:
        if (result.ok)
            ++m_actionsSinceLoad;
        break;
    default:
        break;
    }
    if (!result.ok && result.kind == models::ActionKind::LoadScenario) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot Open Scenario"), result.message,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

// ---- export -------------------------------------------------------------------------------

void MainWindow::setHistoryRecorder(models::HistoryRecorder *recorder)
{
    m_historyRecorder = recorder;
}

ExportJob *MainWindow::exportHistoryReport(const QString &path, ReportFormat format)
{
    const models::DaemonSetInfo *ds = m_page->daemonSet();
    if (!ds || !m_snapshot)
        return nullptr;
    // Everything the worker needs is copied into plain values here, on the GUI thread.
    const bool hideNoise = m_page->diffTab()->diffView()->hideServerNoise();
    // The action log includes actions stored before a restart when a history is kept.
    const models::HistoryRecorder *recorder = m_historyRecorder;
    const auto actions =
        recorder ? recorder->actions(*m_snapshot, ds->key) : std::vector<models::ActionRecord>{};
    auto built = models::HistoryExport::report(*m_snapshot, ds->key, &m_page->timelineModel()->memory(),
                                               hideNoise, recorder ? &actions : nullptr);
    if (!built)
        return nullptr;
    diff::HistoryReport report = std::move(*built);
    ExportJob *job = ExportJob::start(this, tr("Export History Report"), path,
                                      [report = std::move(report), format](QString *) {
                                          std::string text;
                                          switch (format) {
                                          case ReportFormat::Markdown:
                                              text = report.markdown();
                                              break;
                                          case ReportFormat::Html:
                                              text = report.html();
                                              break;
                                          case ReportFormat::Json:
                                              text = report.json();
                                              break;
                                          }
                                          return QByteArray::fromStdString(text);
                                      });
    connect(job, &ExportJob::finished, this, [this](bool ok, const QString &message) {
        statusBar()->showMessage(message, 15000);
        emit exportFinished(ok, message);
    });
    return job;
}

ExportJob *MainWindow::exportRevisionDiff(const QString &path)
{
    const models::DaemonSetInfo *ds = m_page->daemonSet();
    if (!ds)
        return nullptr;
    DiffTab *tab = m_page->diffTab();
    m_page->refreshDiff();
    const auto left = tab->leftTemplate();
    const auto right = tab->rightTemplate();
    if (!left || !right)
        return nullptr;
    diff::TemplateDiffInput input;
    input.oldName = patchName(ds->name, tab->leftTitle(), tab->leftKey());
    input.newName = patchName(ds->name, tab->rightTitle(), tab->rightKey());
    input.patchPath = diff::podTemplatePatchPath(ds->name.toStdString());
    input.oldTemplate = *left;
    input.newTemplate = *right;
    input.ignoreServerNoise = tab->diffView()->hideServerNoise();
    const int contextLines = models::AppSettings().diffContextLines();
    ExportJob *job = ExportJob::start(
        this, tr("Export Revision Diff"), path, [input = std::move(input), contextLines](QString *) {
            return QByteArray::fromStdString(
                diff::renderUnified(diff::TemplateDiff::compute(input), contextLines));
        });
    connect(job, &ExportJob::finished, this, [this](bool ok, const QString &message) {
        statusBar()->showMessage(message, 15000);
        emit exportFinished(ok, message);
    });
    return job;
}

void MainWindow::exportHistoryReportDialog()
{
    const models::DaemonSetInfo *ds = m_page->daemonSet();
    if (!ds)
        return;
    const QString markdown = tr("Markdown (*.md)");
    const QString html = tr("HTML page (*.html)");
    const QString json = tr("JSON (*.json)");
    QString filter = markdown;
    const QString suggested = settingsDir(QStringLiteral("dirs/export")) + QLatin1Char('/') + ds->name +
                              QStringLiteral("-history.md");
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export History Report"), suggested,
                                     QStringList{markdown, html, json}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    ReportFormat format = ReportFormat::Markdown;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm") ||
        (suffix.isEmpty() && filter == html))
        format = ReportFormat::Html;
    else if (suffix == QLatin1String("json") || (suffix.isEmpty() && filter == json))
        format = ReportFormat::Json;
    if (suffix.isEmpty())
        path += format == ReportFormat::Html   ? QStringLiteral(".html")
                : format == ReportFormat::Json ? QStringLiteral(".json")
                                               : QStringLiteral(".md");
    QSettings().setValue(QStringLiteral("dirs/export"), QFileInfo(path).absolutePath());
    exportHistoryReport(path, format);
}

void MainWindow::exportRevisionDiffDialog()
{
    const models::DaemonSetInfo *ds = m_page->daemonSet();
    if (!ds)
        return;
    m_page->setCurrentTab(DaemonSetPage::Tab::Diff);
    DiffTab *tab = m_page->diffTab();
    auto part = [&](const QString &title, const QString &key) {
        return QString::fromStdString(patchName(QString(), title, key))
            .remove(QStringLiteral("@"))
            .remove(QStringLiteral(".yaml"));
    };
    const QString suggested = settingsDir(QStringLiteral("dirs/export")) + QLatin1Char('/') + ds->name +
                              QLatin1Char('-') + part(tab->leftTitle(), tab->leftKey()) + QLatin1Char('-') +
                              part(tab->rightTitle(), tab->rightKey()) + QStringLiteral(".diff");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Revision Diff"), suggested,
                                                      tr("Unified diff (*.diff *.patch);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("dirs/export"), QFileInfo(path).absolutePath());
    exportRevisionDiff(path);
}

// ---- misc ---------------------------------------------------------------------------------

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Daemonscope"),
        tr("<h3>Daemonscope %1</h3>"
           "<p>A desktop console for Kubernetes DaemonSet rollouts: revision history, "
           "pod-to-revision map, template diffs, rollback with preview, pause and resume.</p>"
           "<p>The embedded cluster is a deterministic simulation of the DaemonSet controller; "
           "every action uses the same API calls kubectl makes.</p>")
            .arg(QApplication::applicationVersion().toHtmlEscaped()));
}

void MainWindow::restoreSettings()
{
    WindowLayout::restore(this, models::AppSettings());
}

QString MainWindow::quitQuestion() const
{
    if (!m_snapshot || m_snapshot->upgradeDriver.mode != models::UpgradeDriverInfo::Mode::Console)
        return {};
    QStringList rollouts;
    QStringList nodes;
    for (const auto &rollout : *m_snapshot->upgrades) {
        const QStringList inFlight = rollout.inFlightNodes();
        if (inFlight.isEmpty())
            continue;
        rollouts << rollout.name;
        nodes << inFlight;
    }
    if (nodes.isEmpty())
        return {};
    return tr("This console drives the node upgrade %1, with nodes in flight: %2.\n\nClosing the console "
              "stops the upgrade. The nodes stay cordoned and drained until a controller takes the Lease %3 "
              "over: an in-cluster daemonscope controller at once, or this console when it is opened again.")
        .arg(rollouts.join(QStringLiteral(", ")), nodes.join(QStringLiteral(", ")),
             m_snapshot->upgradeDriver.lease);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (const QString question = quitQuestion(); !question.isEmpty()) {
        bool close = false;
        if (m_quitConfirm) {
            close = m_quitConfirm(question);
        } else {
            std::unique_ptr<QMessageBox> box(makeConfirmation(this, tr("Quit While Upgrading Nodes"),
                                                              question, tr("Quit and Stop the Upgrade"),
                                                              ConfirmKind::Destroy));
            box->exec();
            close = box->clickedButton() &&
                    box->clickedButton()->objectName() == QLatin1String("confirmActionButton");
        }
        if (!close) {
            event->ignore();
            return;
        }
    }
    models::AppSettings settings;
    WindowLayout::save(this, settings);
    QMainWindow::closeEvent(event);
}

// ---- node actions, permissions, production guard ----------------------------------------------

void MainWindow::setUpNodeOps()
{
    m_nodeActions = new NodeActions(this);
    m_nodeActions->setBackend(m_backend);
    connect(m_page->nodesTab(), &NodesTab::nodeContextMenuRequested, m_nodeActions, &NodeActions::showMenu);

    // The bar goes above everything the window shows.
    m_productionBar = new ProductionBar(this);
    m_productionBar->setPattern(models::AppSettings().productionPattern());
    QWidget *content = takeCentralWidget();
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_productionBar);
    layout->addWidget(content, 1);
    setCentralWidget(central);

    auto *edit = new QAction(tr("&Production Contexts…"), this);
    edit->setObjectName(QStringLiteral("productionContexts"));
    edit->setStatusTip(
        tr("The pattern that marks a live context as production (its actions ask for the name)"));
    connect(edit, &QAction::triggered, this, [this] {
        const models::BackendInfo info = m_snapshot ? m_snapshot->backend : models::BackendInfo();
        const QString pattern =
            ProductionBar::editPattern(this, m_productionBar->pattern(), info.context, info.cluster);
        if (pattern.isEmpty())
            return;
        models::AppSettings settings;
        settings.setProductionPattern(pattern);
        m_productionBar->setPattern(settings.productionPattern());
    });
    for (QAction *menu : menuBar()->actions())
        if (menu->menu() && menu->objectName().isEmpty() && menu->text() == tr("&View")) {
            menu->menu()->addSeparator();
            menu->menu()->addAction(edit);
        }
}

void MainWindow::applyNodeOps(const models::SnapshotPtr &snapshot)
{
    m_nodeActions->setSnapshot(snapshot);
    m_productionBar->setBackendInfo(snapshot->backend);
}

void MainWindow::gateActions(const models::DaemonSetInfo *ds)
{
    if (!m_snapshot)
        return;
    const models::BackendPermissions &perm = m_snapshot->backend.permissions;
    const QString denied =
        ds ? perm.denial(QStringLiteral("patch"), QStringLiteral("daemonsets"), ds->namespace_) : QString();
    for (QAction *a : {m_rollback, m_rollbackTo, m_pause, m_resume,
                       m_startRollout->action(models::StartRolloutMode::SetImage),
                       m_startRollout->action(models::StartRolloutMode::Restart),
                       m_startRollout->action(models::StartRolloutMode::Strategy)}) {
        if (!denied.isEmpty())
            a->setEnabled(false);
        a->setToolTip(denied.isEmpty() ? plainMenuText(a->text()) : denied);
    }
    const QString upgradeDenied =
        perm.denial(QStringLiteral("create"), QStringLiteral("nodeupgraderollouts"));
    if (!upgradeDenied.isEmpty())
        m_startUpgrade->setEnabled(false);
    m_startUpgrade->setToolTip(upgradeDenied.isEmpty() ? plainMenuText(m_startUpgrade->text())
                                                       : upgradeDenied);
}

bool MainWindow::mayChangeDaemonSet(const QString &title, const QString &question, const QString &verb)
{
    const models::DaemonSetInfo *ds = m_page->daemonSet();
    if (ds && m_snapshot) {
        const QString denied = m_snapshot->backend.permissions.denial(
            QStringLiteral("patch"), QStringLiteral("daemonsets"), ds->namespace_);
        if (!denied.isEmpty()) {
            statusBar()->showMessage(denied, 10000);
            return false;
        }
    }
    if (verb.isEmpty() || !productionGuardActive())
        return true;
    return confirmAction(this, title, question, verb, ConfirmKind::Destroy, ds ? ds->name : QString());
}

} // namespace gui
