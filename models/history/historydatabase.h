#pragma once
// HistoryDatabase — the app's durable local history in SQLite (through Qt SQL): every revision
// seen per DaemonSet (including the ones the cluster has since deleted, with every number a
// rollback gave them), the rollouts observed and every action the user took. It is what lets
// RevisionMemory survive an app restart and what attributes each rollback or pause to an OS
// user.
//
// Invariants and assumptions:
// - Nothing is ever deleted: a revision missing from the cluster is marked removed (removedAt),
//   a recreated revision (same name) is un-marked; a DaemonSet recreated with a new UID gets a
//   new row, so its history starts over, like RevisionMemory.
// - Every write runs in one transaction; a failed write leaves the database as it was.
// - Times are what the caller passes: virtual ms for the embedded cluster, wall ms for a live
//   one (kube::Timestamp); wall times of actions are stored separately.
// - A damaged file (not SQLite, or failing PRAGMA quick_check) is moved aside to
//   "<file>.corrupt-<UTC time>" (with its -wal/-shm companions), never deleted, and a fresh
//   database is started; recoveryMessage() tells the user both paths. Any other failure to open
//   (read-only location, full disk, a database written by a newer version) leaves the instance
//   closed: every call then fails with a message and the app runs on without history.
// - One connection per instance (unique connection name), used only from the thread that
//   created the instance. Several instances (or processes) may share one file: WAL journaling
//   and a busy timeout let a reader and a writer work side by side.

#include "models/history/revisionmemory.h"
#include "models/snapshot/snapshot.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace models {

// A revision as the cluster shows it now (the input of recordRevisions).
struct RevisionRecord
{
    QString name; // ControllerRevision name
    QString hash; // controller-revision-hash
    qint64 number = 0;
    qint64 created = 0;
    QString changeCause;
    QString imageSummary;
    std::shared_ptr<const kube::Json> podTemplate; // stored as canonical (goJson) text; may be null

    static RevisionRecord fromInfo(const RevisionInfo &info);
};

// One number a revision had, and when it was seen with it.
struct RevisionNumberSpan
{
    qint64 number = 0;
    qint64 firstSeen = 0;
    qint64 lastSeen = 0;
    bool operator==(const RevisionNumberSpan &) const = default;
};

// A revision as the database remembers it (the output of revisions()).
struct StoredRevision
{
    QString name;
    QString hash;
    qint64 number = 0;                 // the latest number (the one it had when it was removed)
    QList<RevisionNumberSpan> numbers; // every number it had, oldest first; last().number == number
    qint64 created = 0;
    QString changeCause;
    QString imageSummary;
    std::shared_ptr<const kube::Json> podTemplate; // never null (an empty object when unknown)
    qint64 firstSeen = 0;
    qint64 lastSeen = 0;
    bool removed = false;
    qint64 removedAt = 0; // when it was first missing from the cluster; 0 while present

    QList<qint64> numberHistory() const; // [1, 5] after a rollback renumbered revision 1
    RememberedRevision toRemembered() const;
};

// One rollout of a DaemonSet. Rollouts are keyed by (to hash, started): recording the same
// rollout again (it completed, or was superseded) updates it.
struct RolloutRecord
{
    QString fromHash;
    QString toHash;
    qint64 fromRevision = 0;
    qint64 toRevision = 0;
    qint64 started = 0;
    qint64 completed = 0; // 0 while in progress
    QString outcome;      // "in progress", "complete", "superseded by <hash>", or free text

    static RolloutRecord fromTiming(const RolloutTiming &timing);
    bool operator==(const RolloutRecord &) const = default;
};

class HistoryDatabase
{
    Q_DECLARE_TR_FUNCTIONS(models::HistoryDatabase)

public:
    // Opens or creates the database at `path` (defaultPath() when empty). Never throws; see
    // isOpen(), openError() and recoveryMessage().
    explicit HistoryDatabase(const QString &path = {});
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase &) = delete;
    HistoryDatabase &operator=(const HistoryDatabase &) = delete;

    // GenericDataLocation + "/Daemonscope/Daemonscope/history.sqlite" (the AppDataLocation of
    // organisation and application "Daemonscope", whatever the running application is called):
    // ~/.local/share/Daemonscope/Daemonscope/history.sqlite on Linux.
    static QString defaultPath();
    // Context keys: "embedded:<scenario name>" and "<kubeconfig context>@<server URL>".
    static QString embeddedContextKey(const QString &scenarioName);
    static QString liveContextKey(const QString &context, const QString &server);

    static constexpr int kSchemaVersion = 1;

    QString path() const { return m_path; }
    bool isOpen() const { return m_open; }
    // Why the history is unavailable (user-visible), empty when open.
    QString openError() const { return m_openError; }
    // Set when a damaged file was moved aside at open (user-visible; names both paths).
    QString recoveryMessage() const { return m_recoveryMessage; }
    QString movedAsidePath() const { return m_movedAside; } // empty when nothing was moved
    // The error of the last call, empty when it succeeded.
    QString lastError() const { return m_lastError; }
    int schemaVersion() const; // 0 when closed

    // Upserts the DaemonSet's live revisions as seen at `now`; revisions of this DaemonSet
    // (same UID) that are not in `live` are marked removed at `now` unless already removed.
    // Idempotent: recording the same list twice changes nothing but last-seen times.
    bool recordRevisions(const QString &contextKey, const QString &dsKey, const QString &uid,
                         const std::vector<RevisionRecord> &live, qint64 now);
    // Records every DaemonSet of the snapshot (revisions, rollouts, actions) at
    // snapshot.clock.now in one transaction. DaemonSets whose revisions and record are the same
    // objects as at the previous call are skipped (snapshots share unchanged parts by pointer),
    // so calling it for every published snapshot is cheap.
    bool recordSnapshot(const QString &contextKey, const ClusterSnapshot &snapshot);
    // All revisions of the DaemonSet's incarnation `uid` (the most recently seen one when
    // empty), removed ones included, sorted by number then name.
    std::vector<StoredRevision> revisions(const QString &contextKey, const QString &dsKey,
                                          const QString &uid = {});
    // The UID of the most recently seen incarnation, empty when unknown.
    QString daemonSetUid(const QString &contextKey, const QString &dsKey);
    // The DaemonSet keys ("namespace/name") with stored history in a context, sorted.
    QStringList daemonSetKeys(const QString &contextKey);
    // Restores a RevisionMemory from the database (every DaemonSet of the context).
    bool restore(const QString &contextKey, RevisionMemory &memory);

    bool recordRollout(const QString &contextKey, const QString &dsKey, const QString &uid,
                       const RolloutRecord &rollout);
    std::vector<RolloutRecord> rollouts(const QString &contextKey, const QString &dsKey,
                                        const QString &uid = {});

    // Actions are kept per context and target (a DaemonSet key, a node name, or empty for
    // cluster-wide actions such as loading a scenario), in the order they were recorded.
    // Recording an identical action again (same times, user, kind, target, parameters) is a
    // no-op, so a snapshot's action list may be recorded repeatedly.
    bool recordAction(const QString &contextKey, const ActionRecord &action);
    // The actions on `target` (every action of the context when target is empty), oldest first.
    std::vector<ActionRecord> actions(const QString &contextKey, const QString &target = {});

    // Parameters such as "toRevision=5, fault=NotReady" as a JSON object ({"toRevision":"5",...});
    // text that is already a JSON object is kept; anything else becomes {"text": ...}.
    static QString parametersJson(const QString &parameters);

private:
    bool openFile(bool allowRecovery);
    bool migrate(QString &corruptReason); // corruptReason set when it failed on a damaged file
    bool moveAside(const QString &reason);
    void closeConnection();
    bool fail(const QString &message);
    bool checkOpen();
    // Row ids: > 0 found (or created), kNotFound, kFailed (m_lastError says why).
    static constexpr qint64 kNotFound = 0;
    static constexpr qint64 kFailed = -1;
    qint64 contextId(const QString &contextKey, bool create);
    qint64 daemonSetId(qint64 contextId, const QString &dsKey, const QString &uid, qint64 now, bool create);
    bool writeRevisions(qint64 dsId, const std::vector<RevisionRecord> &live, qint64 now);
    bool writeRollout(qint64 dsId, const RolloutRecord &rollout);
    bool writeAction(qint64 contextId, const ActionRecord &action);

    QString m_path;
    QString m_connection;
    bool m_open = false;
    QString m_openError;
    QString m_recoveryMessage;
    QString m_movedAside;
    QString m_lastError;

    // What recordSnapshot last wrote per "context\ndsKey" (kept alive so pointers stay unique).
    struct Recorded
    {
        QString uid;
        std::shared_ptr<const std::vector<RevisionInfo>> revisions;
        std::shared_ptr<const DaemonSetRecord> record;
    };
    std::map<QString, Recorded> m_recorded;
};

} // namespace models
