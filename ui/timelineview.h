#pragma once
// The Timeline tab: a DaemonSet's revisions in order — number (with the numbers a rollback
// renumbered it from: "5 (was 1)"), short hash, age, change-cause, images, pods on it. The
// current revision is bold; revisions the cluster removed are greyed out. The context menu
// (mouse or Menu key) shows a template, diffs, and rolls back. The table takes the height of its
// rows; below it, RolloutHistoryView lists the rollouts and actions.

#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QAction;
class QIdentityProxyModel;
class QLabel;
class QSplitter;
class QTreeView;

namespace models {
class RevisionTimelineModel;
} // namespace models

namespace gui {

class RolloutHistoryView;

class TimelineView : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineView(models::RevisionTimelineModel *model, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QAbstractItemModel *displayModel() const;
    // Row in the source model of the selected revision, -1 when none.
    int selectedRow() const;
    qint64 selectedNumber() const; // -1 when none
    QString selectedName() const;
    bool selectRevision(qint64 number);
    // Shows the revision's template as YAML in a dialog (modal when `exec`).
    void showTemplate(int sourceRow);

    QAction *showTemplateAction() const { return m_showTemplate; }
    QAction *diffWithCurrentAction() const { return m_diffCurrent; }
    QAction *diffWithAction() const { return m_diffWith; }
    QAction *rollbackAction() const { return m_rollback; }
    // Rollouts and actions, below the revisions.
    RolloutHistoryView *history() const { return m_history; }
    // The height the revision table needs for its rows (at least three).
    int revisionsHeight() const;

signals:
    // -1 when the selection was cleared.
    void revisionSelected(qint64 number);
    // Revision names (ControllerRevision names); the page shows the Diff tab.
    void diffRequested(const QString &leftName, const QString &rightName);
    void rollbackRequested(qint64 number);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void fitRevisions();
    void showContextMenu(const QPoint &viewportPos);
    void updateActions();
    void diffWithCurrent();
    void diffWithOther();
    int currentRevisionRow() const;

    models::RevisionTimelineModel *m_model = nullptr;
    QIdentityProxyModel *m_display = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_hint = nullptr;
    QSplitter *m_splitter = nullptr;
    RolloutHistoryView *m_history = nullptr;
    bool m_userSized = false; // the user moved the splitter: keep their sizes
    QAction *m_showTemplate = nullptr;
    QAction *m_diffCurrent = nullptr;
    QAction *m_diffWith = nullptr;
    QAction *m_rollback = nullptr;
};

} // namespace gui
