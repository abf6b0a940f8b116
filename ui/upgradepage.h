#pragma once
// The node-upgrade page: one NodeUpgradeRollout at a glance — its phase, the headline (what is
// happening, why it waits), the rollout actions (pause, resume, abort, acknowledge a halt), a
// stacked chart of nodes per phase over time with the maxUnavailable budget, the unavailable
// count and the lowest controller ready ratio, the per-node table with per-node actions (hold,
// release, skip, retry, force) and the deduplicated events with counts.
//
// Presentation only: the chart and tables are views of models/ table models; every action is a
// ClusterBackend call whose outcome arrives as actionFinished. Actions that deserve a second
// look ask first through the confirm handler (a QMessageBox by default; tests replace it):
// pause lists the nodes still in flight, resume shows the resume preview, abort and force
// explain what they do.

#include "models/backend/clusterbackend.h"
#include "models/snapshot/snapshot.h"
#include "ui/confirmation.h"

#include <QPointer>
#include <QWidget>

#include <functional>

class QAreaSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QValueAxis;

namespace models {
class UpgradeEventListModel;
class UpgradeNodeTableModel;
class UpgradePhaseChartModel;
} // namespace models

namespace gui {

class StartUpgradeDialog;
class UpgradeChartMapper;

class UpgradePage : public QWidget
{
    Q_OBJECT

public:
    using ConfirmHandler = std::function<bool(const QString &title, const QString &text)>;

    explicit UpgradePage(models::ClusterBackend *backend, QWidget *parent = nullptr);
    ~UpgradePage() override;

    void setSnapshot(const models::SnapshotPtr &snapshot);
    // The backend the page's actions go to (the window switches between embedded and live).
    void setBackend(models::ClusterBackend *backend);
    void setRollout(const QString &name);
    QString rollout() const { return m_rollout; }
    const models::UpgradeRolloutInfo *rolloutInfo() const;

    // Replaces the confirmation dialogs (tests, scripted use); null restores them.
    void setConfirmHandler(ConfirmHandler handler) { m_confirm = std::move(handler); }
    // Selects a node's row in the table (the node actions apply to it).
    bool selectNode(const QString &node);
    QString currentNode() const;

    // Opens the start form; on accept sends the rollout to the backend and shows it. Modal
    // when `modal`, else returns at once (the dialog deletes itself when closed).
    StartUpgradeDialog *showStartDialog(bool modal = true);
    // Starts a rollout with the start form's defaults (no dialog) and shows it; its name.
    // `specOverrides`: a JSON object whose fields replace the defaults' spec fields. Nothing is
    // started when the overrides are not a JSON object or make the spec invalid: then the name
    // is empty and `error` (when given) says why.
    QString startDefaultUpgrade(const QString &specOverrides = {}, QString *error = nullptr);
    // Why `specOverrides` cannot be used (not JSON, or not an object), or empty; checked before
    // any window opens for `--start-upgrade`.
    static QString specOverridesError(const QString &specOverrides);
    // Who drives the rollouts, as the page's driver line says it (empty for the embedded engine).
    static QString driverText(const models::UpgradeDriverInfo &driver);
    QLabel *driverLabel() const { return m_driver; }

    models::UpgradeNodeTableModel *nodeModel() const { return m_nodeModel; }
    models::UpgradePhaseChartModel *chartModel() const { return m_chartModel; }
    models::UpgradeEventListModel *eventModel() const { return m_eventModel; }
    QTableView *nodeTable() const { return m_nodeTable; }
    QTableView *eventTable() const { return m_eventTable; }
    QLabel *headlineLabel() const { return m_headline; }
    QChart *chart() const { return m_chart; }
    QPushButton *button(const QString &objectName) const;

public Q_SLOTS:
    void pauseRollout();
    void resumeRollout();
    void abortRollout();
    void acknowledgeHalt();
    void nodeAction(const QString &action); // on currentNode()

Q_SIGNALS:
    void rolloutShown(const QString &name);

protected:
    void showEvent(QShowEvent *event) override;

private:
    bool confirm(const QString &title, const QString &text, const QString &verb, ConfirmKind kind);
    void updateHeader();
    void updateNodeButtons();
    void updateAxes();
    void applyTheme();
    bool eventsShown() const;
    void showLatestEvents();

    models::ClusterBackend *m_backend = nullptr;
    models::SnapshotPtr m_snapshot;
    QPointer<StartUpgradeDialog> m_startDialog; // the open start form, if any
    QString m_rollout;
    ConfirmHandler m_confirm;

    models::UpgradeNodeTableModel *m_nodeModel = nullptr;
    models::UpgradePhaseChartModel *m_chartModel = nullptr;
    models::UpgradeEventListModel *m_eventModel = nullptr;
    QSortFilterProxyModel *m_nodeProxy = nullptr;
    UpgradeChartMapper *m_chartMapper = nullptr;
    // The events tab is only fed while it is shown; when it comes back it gets the latest
    // snapshot (the model diffs by key, so nothing is lost in between).
    bool m_eventsStale = false;

    QLabel *m_title = nullptr;
    QLabel *m_phase = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_driver = nullptr; // who drives: this console, a controller, nobody
    QLabel *m_details = nullptr;
    QLabel *m_empty = nullptr;
    QWidget *m_content = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_resume = nullptr;
    QPushButton *m_abort = nullptr;
    QPushButton *m_ack = nullptr;
    QList<QPushButton *> m_nodeButtons;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_nodeTable = nullptr;
    QTableView *m_eventTable = nullptr;

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QValueAxis *m_ratioAxis = nullptr;
    QList<QAreaSeries *> m_areas;
    QList<QLineSeries *> m_lines; // unavailable, budget, min ready %
};

} // namespace gui
