#pragma once
// The Diff tab of a DaemonSet page: two pickers (any revision, or the DaemonSet's live
// template) over the side-by-side template diff. Revisions are picked by ControllerRevision
// name, so a choice survives the renumbering a rollback causes.

#include "models/history/revisionmemory.h"
#include "models/snapshot/snapshot.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QToolButton;

namespace gui {

class DiffView;

class DiffTab : public QWidget
{
    Q_OBJECT

public:
    // The picker entry of the DaemonSet's spec.template.
    static const QString &liveKey();

    explicit DiffTab(QWidget *parent = nullptr);

    // Refreshes the pickers; a different DaemonSet resets them to previous → current revision.
    // While the pair is that default it follows the rollouts: after a rollback or a new
    // rollout it shows what changed. A pair the user picks stays (while both revisions exist).
    // `remembered` adds the revisions the cluster removed but the app still knows.
    void setDaemonSet(const models::DaemonSetInfo *daemonSet,
                      const std::vector<models::RememberedRevision> &remembered = {});

    // Picks by revision number (0 or "live": the live template); false when a number is unknown.
    bool setPair(qint64 leftRevision, qint64 rightRevision);
    bool setPairByKey(const QString &leftKey, const QString &rightKey);
    QString leftKey() const;
    QString rightKey() const;
    // Titles and templates as shown; empty when nothing is selected.
    QString leftTitle() const;
    QString rightTitle() const;
    std::shared_ptr<const kube::Json> leftTemplate() const;
    std::shared_ptr<const kube::Json> rightTemplate() const;

    DiffView *diffView() const { return m_view; }
    QComboBox *leftPicker() const { return m_left; }
    QComboBox *rightPicker() const { return m_right; }

signals:
    void pairChanged();

private:
    struct Choice
    {
        QString key;       // CR name, or liveKey()
        qint64 number = 0; // 0 for the live template
        QString title;
        QString label;
        std::shared_ptr<const kube::Json> podTemplate;
    };
    void rebuildPickers();
    void refreshDiff();
    const Choice *choice(const QString &key) const;
    static void selectKey(QComboBox *box, const QString &key);

    QString m_dsKey;
    std::vector<Choice> m_choices;
    QString m_defaultLeft;  // previous revision (CR name) of the last setDaemonSet
    QString m_defaultRight; // current revision, or liveKey()
    bool m_followsRollouts = true;
    QComboBox *m_left = nullptr;
    QComboBox *m_right = nullptr;
    QToolButton *m_swap = nullptr;
    DiffView *m_view = nullptr;
    // What the diff view shows now, so unchanged snapshots do not recompute the diff.
    std::shared_ptr<const kube::Json> m_shownLeft;
    std::shared_ptr<const kube::Json> m_shownRight;
    QString m_shownLeftTitle;
    QString m_shownRightTitle;
    bool m_updating = false;
};

} // namespace gui
