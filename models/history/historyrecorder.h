#pragma once
// HistoryRecorder — connects the app's live view of a cluster to its durable history
// (HistoryDatabase): when a cluster context is shown for the first time in a session it
// restores the revisions remembered for it into the timeline's RevisionMemory (so revisions the
// cluster deleted through revisionHistoryLimit stay visible after a restart), then records every
// snapshot's revisions, rollouts and actions, and every other action the user took.
//
// Assumptions:
// - It lives on the GUI thread and is fed the snapshots the views show, in order.
// - A context is "embedded:<scenario file name>" for the embedded cluster (the demo is
//   "embedded:demo.yaml") and "<kubeconfig context>@<server URL>" for a live one (from the
//   snapshot's BackendInfo, or as setLiveContextKey() names it).
// - Rollback, pause and resume reach the database through the snapshot's DaemonSetRecord when
//   the backend records them there (the embedded one does); recordAction() writes only actions
//   the latest snapshot does not already carry. Clock controls (speed, step) are not recorded.
// - A closed database (openError) makes every call a no-op; a failing write is reported once
//   through problem() and retried with the next snapshot.

#include "models/backend/clusterbackend.h"
#include "models/history/historydatabase.h"
#include "models/history/revisionmemory.h"

#include <QObject>

#include <memory>
#include <vector>

namespace models {

class HistoryRecorder : public QObject
{
    Q_OBJECT

public:
    // Owns `database`; `memory` is the timeline's and must outlive the recorder.
    HistoryRecorder(std::unique_ptr<HistoryDatabase> database, RevisionMemory *memory,
                    QObject *parent = nullptr);
    ~HistoryRecorder() override;

    HistoryDatabase *database() const { return m_db.get(); }
    RevisionMemory *memory() const { return m_memory; }

    // The context of a snapshot; empty when nothing is loaded.
    static QString contextKeyOf(const ClusterSnapshot &snapshot);
    QString contextKey() const { return m_context; }
    // For a live backend that knows its kubeconfig context and server.
    void setLiveContextKey(const QString &key) { m_liveContext = key; }

    // What to tell the user at start: the recovery message after a damaged file was moved
    // aside, or why history is not saved; empty when all is well.
    QString startupMessage() const;

    // The stored actions on a DaemonSet of the current context merged with the snapshot's (an
    // action in both appears once), in the order they were taken.
    std::vector<ActionRecord> actions(const ClusterSnapshot &snapshot, const QString &dsKey) const;

public Q_SLOTS:
    void recordSnapshot(const std::shared_ptr<const models::ClusterSnapshot> &snapshot);
    void recordAction(const models::ActionResult &result);

Q_SIGNALS:
    // The memory was replaced by the stored history of a newly shown context (views showing it
    // should rebuild).
    void memoryRestored(const QString &contextKey);
    // A write failed (user-visible text); emitted once per run.
    void problem(const QString &message);

private:
    void reportFailure();

    std::unique_ptr<HistoryDatabase> m_db;
    RevisionMemory *m_memory = nullptr;
    QString m_context;
    QString m_liveContext;
    std::shared_ptr<const ClusterSnapshot> m_latest;
    QString m_user;
    bool m_reported = false;
};

} // namespace models
