#pragma once
// LiveWorker — LiveBackend's side on the worker thread. It owns the client (transport,
// KubeClient), the Reflectors and the LiveSnapshotBuilder. Reflector threads only append what
// they see to a queue under a mutex; the worker drains it on a timer (every publishIntervalMs),
// applies it to the builder and publishes at most one snapshot per drain, and none while the
// GUI has not taken the previous one. At rest the timer stops; the next queued object wakes it. Commands
// arrive as queued calls and block this thread for their API calls (never the GUI thread).

#include "models/api/kubectldrain.h"
#include "models/backend/clusterbackend.h"
#include "models/backend/livebackend.h"

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <variant>
#include <vector>

namespace client {
class KubeClient;
template <typename T> class Reflector;
} // namespace client

namespace models {

class LiveDrillDown;
class LiveSnapshotBuilder;

class LiveWorker : public QObject
{
    Q_OBJECT

public:
    LiveWorker(LiveBackendOptions options, std::shared_ptr<std::atomic<int>> inFlight);
    ~LiveWorker() override;

public Q_SLOTS:
    void start(); // on the worker thread: resolve the context, start the watches
    void stop();  // on the worker thread: stop every watch (before the thread ends)
    void rollback(const QString &dsKey, qint64 toRevision);
    void pause(const QString &dsKey);
    void resume(const QString &dsKey);
    void unavailable(models::ActionKind kind, const QString &target);
    // ---- node actions (kubectl cordon / uncordon / drain)
    void cordon(const QString &node, bool unschedulable);
    void drainNode(const QString &node, bool deleteEmptyDirData);

    // ---- Starting a rollout: kubectl's PATCH through LiveActions.
    void setImage(const QString &dsKey, const QMap<QString, QString> &images);
    void restartRollout(const QString &dsKey);
    void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable, const QString &maxSurge);

    // ---- Node-agent upgrade: through the LiveUpgradeRuntime.
    void startUpgrade(const QString &rolloutJson);
    void requestUpgradeInventory();
    void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                        const QString &note);

    // ---- drill-down: the helper that gets this worker's client once it is configured
    void setDrillDown(std::shared_ptr<LiveDrillDown> drill) { m_drill = std::move(drill); }

Q_SIGNALS:
    void snapshotReady(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void actionFinished(const models::ActionResult &result);
    void errorOccurred(const QString &message);

private:
    enum class Kind { DaemonSet, Revision, Pod, Node, Event };
    struct Pending
    {
        int source = 0;    // reflector id; events of stopped reflectors are dropped
        std::string dsKey; // Revision / Pod: the DaemonSet watched for
        Kind kind = Kind::DaemonSet;
        int type = 0; // client::ReflectorEventType
        std::shared_ptr<const void> object;
        bool error = false;     // an error report (message) instead of an object
        bool recovered = false; // the source answers again
        std::string message;
    };
    struct Watched // the per-DaemonSet watches
    {
        std::string uid;
        int source = 0;
        std::unique_ptr<client::Reflector<kube::ControllerRevision>> revisions;
        std::unique_ptr<client::Reflector<kube::Pod>> pods;
    };

    template <typename T>
    std::unique_ptr<client::Reflector<T>> makeReflector(Kind kind, int source, const std::string &ns,
                                                        const std::string &labelSelector,
                                                        const std::string &dsKey);
    // Backoff and watch timeouts of every watch this connection keeps (the options' values).
    client::ReflectorOptions reflectorOptions() const;
    void startNodesAndEvents();
    void push(Pending p);
    void drain();
    void apply(const Pending &p);
    void watchDaemonSet(const kube::DaemonSet &ds);
    void unwatchDaemonSet(const std::string &dsKey);
    void setError(const QString &message);
    void publish(bool force);
    void finish(ActionKind kind, const QString &target, bool ok, const QString &message, qint64 revision = 0,
                const QString &parameters = {});
    void applyUpdated(const kube::DaemonSet &ds);
    bool splitKey(const QString &dsKey, std::string &ns, std::string &name, ActionKind kind);
    QString backendName() const;

    LiveBackendOptions m_options;
    std::shared_ptr<std::atomic<int>> m_inFlight;
    std::unique_ptr<LiveSnapshotBuilder> m_builder;
    std::shared_ptr<client::KubeClient> m_client;
    QString m_contextName;
    QString m_server;
    std::string m_namespace; // empty: all namespaces
    bool m_configured = false;

    std::unique_ptr<client::Reflector<kube::DaemonSet>> m_dsReflector;
    std::unique_ptr<client::Reflector<kube::Node>> m_nodeReflector;
    std::unique_ptr<client::Reflector<kube::Event>> m_eventReflector;
    std::map<std::string, Watched> m_watched; // dsKey -> watches
    std::set<int> m_liveSources;
    std::set<int> m_failingSources;
    std::set<int> m_syncedBase;                        // of the three base reflectors
    std::map<std::string, std::uint64_t> m_dsVersions; // dsKey -> newest resourceVersion applied
    int m_nextSource = 1;

    std::mutex m_queueMutex;
    std::vector<Pending> m_queue;
    bool m_stopped = false;     // stop() ran: nothing is drained or woken any more (worker thread)
    bool m_drainQueued = false; // a drain has been posted for a new DaemonSet (under m_queueMutex)

    QTimer *m_drainTimer = nullptr;
    QString m_error;
    bool m_connectReported = false;
    bool m_connectFailureReported = false;
    qint64 m_lastPublish = 0;
    bool m_timeDependent = false;             // the last snapshot shows a badge that changes with time
    std::atomic<bool> m_drainSleeping{false}; // the drain timer is stopped until push() wakes it

    // ---- node actions and permissions
    void evictPending(const QString &node);
    // SelfSubjectAccessReviews for the actions the console offers: on (re)connection, and for the
    // namespace of a DaemonSet seen for the first time.
    void refreshPermissions();
    void askDaemonSetPermission(const std::string &ns);
    std::map<QString, api::DrainRun> m_nodeDrains; // by node
    BackendPermissions m_permissions;
    QString m_clusterName;
    // ---- drill-down
    std::shared_ptr<LiveDrillDown> m_drill;
    // ---- node-agent upgrade
    void upgradeChanged(); // the runtime has a new view
    // ---- memory: freed heap given back once a burst of objects is over
    static constexpr std::size_t kTrimAfterObjects = 5000;
    static constexpr int kTrimQuietMs = 3000;
    void releaseFreedMemory();
    QTimer *m_trimTimer = nullptr;
    std::size_t m_appliedSinceTrim = 0;
    std::unique_ptr<LiveUpgradeRuntime> m_upgrade;
    bool m_inventoryWanted = false; // requestUpgradeInventory() was called (worker thread)
};

} // namespace models
