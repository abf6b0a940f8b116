#pragma once
// The centre of the main window: one DaemonSet — a header with its state and counts, a banner
// while its rollout is paused, and the tabs Timeline, Nodes, Diff and Events. It is fed whole
// snapshots and shows the DaemonSet chosen with setDaemonSet().

#include "models/planners/startrolloutpreview.h"
#include "models/snapshot/snapshot.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QToolButton;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace models {
class EventFilterModel;
class EventListModel;
class RevisionTimelineModel;
} // namespace models

namespace gui {

class DiffTab;
class NodesTab;
class PausedBanner;
class ProgressTab;
class TimelineView;

class DaemonSetPage : public QWidget
{
    Q_OBJECT

public:
    enum class Tab { Timeline, Nodes, Diff, Events, Progress };
    Q_ENUM(Tab)

    explicit DaemonSetPage(QWidget *parent = nullptr);
    ~DaemonSetPage() override;

    void setSnapshot(const models::SnapshotPtr &snapshot);
    void setDaemonSet(const QString &dsKey); // empty shows the "choose a DaemonSet" hint
    QString daemonSetKey() const { return m_key; }
    // The shown DaemonSet in the latest snapshot; null when none.
    const models::DaemonSetInfo *daemonSet() const;
    models::SnapshotPtr snapshot() const { return m_snapshot; }

    void setCurrentTab(Tab tab);
    Tab currentTab() const;

    // Brings the Diff tab's pickers up to date without showing it (it refreshes lazily).
    void refreshDiff();
    // Shows the Diff tab with these revisions (ControllerRevision names, or DiffTab::liveKey()).
    bool showDiff(const QString &leftName, const QString &rightName);

    TimelineView *timeline() const { return m_timeline; }
    NodesTab *nodesTab() const { return m_nodes; }
    DiffTab *diffTab() const { return m_diff; }
    QTableView *eventsView() const { return m_eventsView; }
    PausedBanner *banner() const { return m_banner; }
    QTabWidget *tabs() const { return m_tabs; }
    models::RevisionTimelineModel *timelineModel() const { return m_timelineModel; }
    models::EventListModel *eventModel() const { return m_eventModel; }
    QLabel *headline() const { return m_headline; }

signals:
    void rollbackRequested(qint64 revisionNumber); // 0 = previous
    void resumeRequested();
    void currentTabChanged(gui::DaemonSetPage::Tab tab);
    // A button of the header: Set Image…, Restart…, Update Strategy….
    void startRolloutRequested(models::StartRolloutMode mode);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateEventsPlaceholder();
    // The events table's columns fit their contents only while it is shown (see the .cpp).
    void fitEventColumns(bool shown);
    void refresh();
    void refreshNodes();

    models::SnapshotPtr m_snapshot;
    QString m_key;
    bool m_nodesDirty = true;
    // What the node tiles were last built from: snapshots share unchanged lists by pointer, so
    // equal pointers and counts mean the tiles would come out the same (only ages move on).
    struct TileInputs
    {
        QString key;
        const void *nodes = nullptr;
        const void *pods = nullptr;
        const void *revisions = nullptr;
        const void *events = nullptr; // the pods' Warning events name why a node is behind
        qint64 currentRevision = 0;
        models::DaemonSetCounts counts;
        bool paused = false;
        QString strategy; // type and maxUnavailable: why an old pod waits
        bool operator==(const TileInputs &) const = default;
    };
    TileInputs m_tileInputs;
    bool m_diffDirty = true;
    qint64 m_highlighted = -1;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_placeholder = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_badge = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_headline = nullptr;
    PausedBanner *m_banner = nullptr;
    QTabWidget *m_tabs = nullptr;
    ProgressTab *m_progress = nullptr;

    models::RevisionTimelineModel *m_timelineModel = nullptr;
    TimelineView *m_timeline = nullptr;
    NodesTab *m_nodes = nullptr;
    DiffTab *m_diff = nullptr;

    models::EventListModel *m_eventModel = nullptr;
    models::EventFilterModel *m_eventFilter = nullptr;
    QComboBox *m_eventTypes = nullptr;
    QLabel *m_eventsEmpty = nullptr; // instead of an empty table: why there is nothing to show
    QTableView *m_eventsView = nullptr;
    QLineEdit *m_eventSearch = nullptr;
    QCheckBox *m_allEvents = nullptr;

    // ---- Starting a rollout
    void buildRolloutButtons(QHBoxLayout *row, QWidget *parent);
    void refreshRolloutButtons(const models::DaemonSetInfo &ds);
    QLabel *m_managedBy = nullptr; // "managed by Helm" (the evidence as tooltip)
    QList<QToolButton *> m_rolloutButtons;

public:
    QLabel *managedByLabel() const { return m_managedBy; }
    const QList<QToolButton *> &rolloutButtons() const { return m_rolloutButtons; }
};

} // namespace gui
