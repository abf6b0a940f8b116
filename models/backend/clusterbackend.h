#pragma once
// ClusterBackend — the one interface the GUI sees, whether the data comes from the embedded
// engine or a live cluster. It lives on the GUI thread. Every command returns at once and
// completes asynchronously: its outcome arrives as actionFinished, the resulting state as the
// next snapshotReady. Snapshots are immutable and shared (std::shared_ptr<const ...>), so
// the GUI thread never touches the backend's working state and no mutex is shared.
//
// A backend publishes the snapshot showing an action's effect before it emits the action's
// actionFinished, so latest() is up to date when the result arrives.
//
// Commands a backend cannot perform (simulation controls on a live cluster) finish with
// ActionResult{ok = false} and a message saying so; they never block or throw.

#include "models/snapshot/snapshot.h"

#include <QMap>
#include <QObject>
#include <QString>

#include <memory>
#include <type_traits>
#include <vector>

namespace models {

struct ActionResult
{
    ActionKind kind = ActionKind::Rollback;
    QString target; // "default/web", a node name, a scenario path; empty for clock controls
    bool ok = false;
    QString message;     // "rolled back", "skipped rollback (current template already matches
                         // revision 5)", "paused", or the error text
    qint64 revision = 0; // rollback: the revision rolled back to (0 if none)
};

// A pod's or node's full object for the drill-down view, as the API server has it, and the events
// about it. Answer to ClusterBackend::requestDetail.
struct ObjectDetail
{
    quint64 requestId = 0;
    QString kind; // "Pod", "Node"
    QString namespace_;
    QString name;
    bool ok = false;
    QString error;                            // when !ok: the API's message or "not found"
    std::shared_ptr<const kube::Json> object; // the object's JSON when ok, never null then
    std::vector<EventInfo> events;            // involvedObject = this object, newest first
};

// What `kubectl logs` asks for: one container of one pod.
struct LogRequest
{
    QString namespace_;
    QString pod;
    QString container;     // empty: the pod's only (or first) container
    bool previous = false; // the previous (terminated) instance's lines
    bool follow = false;   // keep streaming until stopLogs or the container ends
    int tailLines = -1;    // -1: all retained lines
};

// The action log's user: $USER, else $USERNAME, else the account of the process's user id
// (getpwuid), else "uid N" — never empty.
QString operatingSystemUser();
// A rollback's recorded parameters: the revision it went to when known ("toRevision=4"), with
// the request when that was "the previous one" ("toRevision=4, requested=0"); the request
// alone when no revision was chosen.
QString rollbackParameters(qint64 requested, qint64 resolved);

// The node-upgrade actions (ClusterBackend::upgradeControl), checked the same way by every
// backend: empty when `action` is known and has the node it needs, else why not ("unknown
// upgrade action "x"", "hold needs a node"), translated.
QString upgradeControlProblem(const QString &action, const QString &node);
// What a finished upgrade action reports: "pause done", "hold node-3 done"; its action log
// parameters: "action=pause", "action=hold node=node-3".
QString upgradeControlDone(const QString &action, const QString &node);
QString upgradeControlParameters(const QString &action, const QString &node);
// What a started upgrade reports: "started" or "spec updated".
QString upgradeStartedMessage(bool created);

class ClusterBackend : public QObject
{
    Q_OBJECT

public:
    explicit ClusterBackend(QObject *parent = nullptr);
    ~ClusterBackend() override;

    virtual BackendKind kind() const = 0;
    // Whether setSpeed/step/setSeed/injectFault/loadScenario do anything.
    virtual bool isSimulation() const = 0;

    // The last published snapshot (GUI thread); ClusterSnapshot::empty() before the first.
    std::shared_ptr<const ClusterSnapshot> latest() const;

public Q_SLOTS:
    // kubectl rollout undo daemonset/NAME [--to-revision=N]; 0 = the previous revision.
    virtual void rollback(const QString &dsKey, qint64 toRevision) = 0;
    // The app's pause: updateStrategy switched to OnDelete, the old one saved in an annotation.
    virtual void pause(const QString &dsKey) = 0;
    virtual void resume(const QString &dsKey) = 0;
    // Embedded: replaces the cluster by the scenario's (its steps are run first).
    virtual void loadScenario(const QString &path) = 0;
    // Embedded: virtual ms per real ms, 0 = clock paused, clamped to 0..1000.
    virtual void setSpeed(double speed) = 0;
    // Embedded: advance the virtual clock by ms at once (works while paused).
    virtual void step(qint64 ms) = 0;
    // Embedded: rebuild the current scenario with this seed.
    virtual void setSeed(quint64 seed) = 0;
    // Embedded: sim::FaultKind name (NotReady, Ready, Unreachable, ...).
    virtual void injectFault(const QString &node, const QString &faultKind) = 0;
    // While another backend is shown: a simulation stops its clock and publishes nothing until it
    // is resumed, then publishes at once and goes on where it stopped. Does nothing by default
    // (a live backend's watches follow the cluster for as long as it exists).
    virtual void setSuspended(bool suspended);
    // The per-node workload the node-upgrade pre-flight report and the drain preview read
    // (ClusterSnapshot::upgradeInventory) is wanted: a live backend reads every node's pods
    // for it from now on (until then only when a NodeUpgradeRollout exists). The embedded
    // backend always has it (the default does nothing).
    virtual void requestUpgradeInventory();

    // Node-agent upgrade (docs node-upgrade.md). A backend that cannot do it finishes with
    // ActionResult{ok = false, "not supported by this backend"} (the default).
    // Creates or updates a NodeUpgradeRollout from a manifest ({metadata:{name}, spec:{...}}) or
    // the scenario step's flat map, as JSON; outcome ActionKind::StartUpgrade, target = name.
    virtual void startUpgrade(const QString &rolloutJson);
    // action: pause, resume, abort, acknowledge (rollout; node empty) or hold, release, skip,
    // retry, force, abort (one node); note: the pause reason. Outcome ActionKind::UpgradeControl,
    // target = rollout name.
    virtual void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                const QString &note);

    // ---- Starting a rollout (outcome ActionKind SetImage / RestartRollout / SetStrategy,
    // target = dsKey). Each is one PATCH of the DaemonSet, as kubectl sends it; a backend that
    // cannot do it finishes with "not supported by this backend" (the default).
    // kubectl set image daemonset/NAME C=IMAGE...: images by container name (containers and
    // initContainers); a name the template lacks fails the whole action and nothing is sent.
    virtual void setImage(const QString &dsKey, const QMap<QString, QString> &images);
    // kubectl rollout restart: the template annotation kubectl.kubernetes.io/restartedAt = now.
    virtual void restartRollout(const QString &dsKey);
    // spec.updateStrategy RollingUpdate with these IntOrString values ("1", "10%", "0"). On a
    // DaemonSet the app paused, the saved strategy is edited and it stays paused.
    virtual void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                   const QString &maxSurge);

    // ---- Node actions (outcome ActionKind Cordon / Uncordon / Drain, target = node).
    // kubectl cordon / uncordon: spec.unschedulable.
    virtual void cordon(const QString &node, bool unschedulable);
    // kubectl drain NODE --ignore-daemonsets [--delete-emptydir-data]: cordon, then evict every
    // pod on the node through the Eviction API (PodDisruptionBudgets decide), skipping DaemonSet
    // pods, mirror pods and finished pods. The outcome names every pod that could not be evicted
    // and why (the PDB and its numbers).
    virtual void drain(const QString &node, bool deleteEmptyDirData);

    // ---- Drill-down. Returns a request id; the answer arrives as detailReady with that id.
    // kind: "Pod" or "Node". Default: answers ok = false, "not supported by this backend".
    virtual quint64 requestDetail(const QString &kind, const QString &ns, const QString &name);
    // Container logs: logData(id, text) zero or more times, then logFinished(id, ...) once (at
    // once after the lines when !follow; when following, when the stream ends or on stopLogs).
    virtual quint64 startLogs(const LogRequest &request);
    virtual void stopLogs(quint64 id);

Q_SIGNALS:
    void detailReady(const models::ObjectDetail &detail);
    void logData(quint64 id, const QString &text);
    void logFinished(quint64 id, bool ok, const QString &message);
    void snapshotReady(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void actionFinished(const models::ActionResult &result);
    void errorOccurred(const QString &message);

protected:
    // Emits actionFinished{kind, target, ok = false, "not supported by this backend"}, queued.
    void finishUnsupported(ActionKind kind, const QString &target);
    // A fresh id for requestDetail / startLogs (GUI thread).
    quint64 nextRequestId() { return ++m_lastRequestId; }
    // Stores the snapshot as latest() and emits snapshotReady. GUI thread only.
    void publish(std::shared_ptr<const ClusterSnapshot> snapshot);
    // Calls `method` of `worker` on the worker's thread with copies of `args`, after whatever
    // was posted to it before (the backends' commands to their workers).
    template <typename Worker, typename... Params, typename... Args>
    static void post(Worker *worker, void (Worker::*method)(Params...), Args &&...args)
    {
        QMetaObject::invokeMethod(
            worker,
            [worker, method, ... values = std::decay_t<Args>(std::forward<Args>(args))] {
                (worker->*method)(values...);
            },
            Qt::QueuedConnection);
    }

private:
    std::shared_ptr<const ClusterSnapshot> m_latest;
    quint64 m_lastRequestId = 0;
};

} // namespace models

Q_DECLARE_METATYPE(models::ActionResult)
Q_DECLARE_METATYPE(models::ObjectDetail)
