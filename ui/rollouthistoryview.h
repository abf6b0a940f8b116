#pragma once
// Below the revision timeline: what happened to the DaemonSet, newest first — every rollout the
// console observed (from and to revision by the numbers they have now, with the number at the
// time when a rollback renumbered them since; when it started, how long it took, how many
// nodes were replaced, and whether it completed, is in progress or was superseded) and every
// action taken on it from this console (who, what, with which parameters, and the outcome).
// Rebuilt only when the DaemonSet's record or revisions change; ages follow the snapshot's
// clock.

#include "models/snapshot/snapshot.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace gui {

class RolloutHistoryView : public QWidget
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,
        EventColumn,
        RevisionsColumn,
        NodesColumn,
        DurationColumn,
        UserColumn,
        OutcomeColumn,
        ColumnCount
    };

    explicit RolloutHistoryView(QWidget *parent = nullptr);

    // ds may be null (nothing selected); now = the snapshot's clock.
    void setDaemonSet(const models::DaemonSetInfo *ds, qint64 now);

    QTreeWidget *view() const { return m_view; }
    // The revision number a rollout's hash has now in `ds`, 0 when it is gone.
    static qint64 numberNow(const models::DaemonSetInfo &ds, const QString &hash);
    // "Rollback", "Pause", ... (translated).
    static QString actionTitle(models::ActionKind kind);

private:
    void rebuild(const models::DaemonSetInfo &ds, qint64 now);

    QLabel *m_title = nullptr;
    QTreeWidget *m_view = nullptr;
    const void *m_record = nullptr;
    const void *m_revisions = nullptr;
    QString m_key;
    qint64 m_builtAt = 0;
};

} // namespace gui
