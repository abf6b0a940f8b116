#pragma once
// The console's main window: the explorer (backend → namespaces → DaemonSets with status
// badges) on the left, the DaemonSet page in the centre, menus and a toolbar for every action,
// and a status bar with the backend's state, the virtual clock and its speed.

#include "models/backend/clusterbackend.h"
#include "ui/daemonsetpage.h"

#include <QMainWindow>
#include <QModelIndex>
#include <QPointer>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace models {
class DaemonSetListModel;
class DaemonSetSelection;
class HistoryRecorder;
} // namespace models

namespace gui {

class CommandPalette;
class ExportJob;
class NodeActions;
class ProductionBar;
class RollbackDialog;
class ShortcutSheet;
class StartRolloutActions;
class UpgradeExplorer;
class UpgradePage;
class UpgradeStatusIndicator;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    enum class ReportFormat { Markdown, Html, Json };
    Q_ENUM(ReportFormat)

    // Takes ownership of the backend.
    explicit MainWindow(models::ClusterBackend *backend, QWidget *parent = nullptr);
    ~MainWindow() override;

    // The bundled demo cluster (a Qt resource).
    static QString demoScenarioPath();

    models::ClusterBackend *backend() const { return m_backend; }
    // Shows another backend (taking ownership), e.g. a live cluster. The embedded backend the
    // window started with stays alive for useEmbeddedBackend(), suspended (its clock stopped,
    // nothing published) while another is shown; others are deleted.
    void setBackend(models::ClusterBackend *backend);
    // Back to the embedded backend (resumed), loading the scenario left for it by
    // setEmbeddedScenario(), or the demo when the window has none yet.
    void useEmbeddedBackend();
    // The scenario the embedded backend loads when it is first shown: a window that opens on a
    // live cluster runs no simulation until the user goes back to it.
    void setEmbeddedScenario(const QString &path) { m_embeddedScenario = path; }
    DaemonSetPage *page() const { return m_page; }
    // The node-upgrade page (shown instead of the DaemonSet page while a rollout is selected).
    UpgradePage *upgradePage() const { return m_upgradePage; }
    UpgradeExplorer *upgradeExplorer() const { return m_upgradeExplorer; }
    // Shows the node-upgrade page with this rollout (empty: the page's start view).
    void showUpgrade(const QString &rollout);
    void showDaemonSetPage();
    // The "go to anything" prompt (Ctrl+G or ":") and the shortcut list (F1 or "?"); each
    // deletes itself when closed.
    CommandPalette *showCommandPalette();
    ShortcutSheet *showShortcutSheet();
    QTreeView *explorer() const { return m_explorer; }
    models::DaemonSetListModel *daemonSetModel() const { return m_listModel; }
    models::SnapshotPtr snapshot() const { return m_snapshot; }
    int daemonSetCount() const;
    QString currentDaemonSet() const;

    // Loads a scenario into the embedded backend; the explorer fills with the next snapshot.
    void openScenario(const QString &path);
    // Before a load replaces the running simulation: when actions were taken since the last
    // load (rollbacks, pauses, faults, upgrades) or a node upgrade is running, asks whether to
    // discard them (Cancel is the default). True when loading may go ahead.
    bool mayDiscardRun(const QString &path);
    int actionsSinceLoad() const { return m_actionsSinceLoad; }
    void setSpeed(double speed);
    bool selectDaemonSet(const QString &dsKey);

    // Opens the rollback dialog (0 = previous revision) and returns it; it deletes itself on close.
    RollbackDialog *showRollbackDialog(qint64 toRevision = 0);
    // Writes in the background; the job reports through finished() and then deletes itself.
    ExportJob *exportHistoryReport(const QString &path, ReportFormat format);
    // The durable history (WindowSession's): the history report's action log then includes the
    // actions stored before a restart. Without one the report has the snapshot's actions only.
    void setHistoryRecorder(models::HistoryRecorder *recorder);
    // The pair shown in the Diff tab (or previous → current when the tab shows nothing).
    ExportJob *exportRevisionDiff(const QString &path);

    // Restores the window geometry and layout saved at the last exit.
    void restoreSettings();

    QAction *action(const QString &objectName) const;

signals:
    // After a snapshot reached every view.
    void snapshotApplied();
    void backendChanged(models::ClusterBackend *backend);
    void exportFinished(bool ok, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    // The first DaemonSet row the explorer shows under `parent` (depth first), or invalid.
    QModelIndex firstShownDaemonSet(const QModelIndex &parent) const;
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void createExplorer();

    void applySnapshot(const models::SnapshotPtr &snapshot);
    void onActionFinished(const models::ActionResult &result);
    void onExplorerCurrentChanged();
    void updateActions();
    void updateStatusBar();

    void openScenarioDialog();
    void exportHistoryReportDialog();
    void exportRevisionDiffDialog();
    void pauseRollout();
    void resumeRollout();
    void toggleClock();
    void injectFaultDialog();
    void showAbout();

    models::ClusterBackend *m_backend = nullptr;
    QPointer<models::ClusterBackend> m_embeddedBackend; // the one the window started with
    QPointer<models::HistoryRecorder> m_historyRecorder;
    QString m_embeddedScenario; // loaded into the embedded backend when it is next shown
    models::SnapshotPtr m_snapshot;
    models::DaemonSetSelection *m_selection = nullptr;
    models::DaemonSetListModel *m_listModel = nullptr;
    QSortFilterProxyModel *m_explorerProxy = nullptr;
    QTreeView *m_explorer = nullptr;
    QLineEdit *m_explorerFilter = nullptr;
    DaemonSetPage *m_page = nullptr;
    QPointer<RollbackDialog> m_rollbackDialog;
    UpgradePage *m_upgradePage = nullptr;
    UpgradeExplorer *m_upgradeExplorer = nullptr;
    UpgradeStatusIndicator *m_upgradeStatus = nullptr;
    QAction *m_startUpgrade = nullptr;
    QString m_pendingSelection; // selected once it appears in a snapshot
    double m_lastRunningSpeed = 1.0;
    bool m_firstDaemonSetsSeen = false;
    int m_actionsSinceLoad = 0; // successful user actions since the scenario was loaded

    QAction *m_openScenario = nullptr;
    QAction *m_reloadScenario = nullptr;
    QAction *m_exportReport = nullptr;
    QAction *m_exportDiff = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_rollback = nullptr;
    QAction *m_rollbackTo = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_runClock = nullptr;
    QAction *m_step = nullptr;
    QActionGroup *m_speedGroup = nullptr;
    QList<QAction *> m_speedActions;
    QAction *m_injectFault = nullptr;
    QList<QAction *> m_tabActions;
    QAction *m_focusExplorer = nullptr;
    QAction *m_about = nullptr;
    QAction *m_aboutQt = nullptr;

    QComboBox *m_speedCombo = nullptr;
    QLabel *m_backendLabel = nullptr;
    QLabel *m_clockLabel = nullptr;
    QLabel *m_speedLabel = nullptr;

    // ---- node actions, permissions, production guard (mainwindow.cpp, its last section)
    void setUpNodeOps();
    void applyNodeOps(const models::SnapshotPtr &snapshot);
    void gateActions(const models::DaemonSetInfo *ds);
    // false when the user may not patch the DaemonSet (the reason goes to the status bar) or
    // declined the production guard's question.
    bool mayChangeDaemonSet(const QString &title, const QString &question, const QString &verb);
    NodeActions *m_nodeActions = nullptr;
    ProductionBar *m_productionBar = nullptr;
    // ---- Starting a rollout: Set Image…, Restart…, Update Strategy…
    StartRolloutActions *m_startRollout = nullptr;

public:
    StartRolloutActions *startRolloutActions() const { return m_startRollout; }

    // Closing while this console drives node upgrades with nodes in flight asks first; the
    // question's text, or empty when closing needs no question.
    QString quitQuestion() const;
    // Replaces the quit question's dialog (tests): returns whether to close.
    void setQuitConfirmHandler(std::function<bool(const QString &text)> handler)
    {
        m_quitConfirm = std::move(handler);
    }

private:
    std::function<bool(const QString &text)> m_quitConfirm;
};

} // namespace gui
