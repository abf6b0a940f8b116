#pragma once
// EmbeddedWorker — the embedded engine's side of EmbeddedBackend. It lives on the backend's
// worker thread and owns everything the simulation needs: the sim::Cluster, the parsed
// scenario (to rebuild it with another seed), the SnapshotBuilder and the clock timer.
// Commands arrive as queued calls; results and snapshots leave as queued signals. Nothing else
// touches the Cluster.
//
// Publication is coalesced: at most one snapshot per publishIntervalMs, and none while the
// previous one has not been taken by the GUI thread (the backend acknowledges each through
// the shared atomic counter), so a slow GUI never builds up a queue of stale snapshots.

#include "models/api/kubectldrain.h"
#include "models/backend/clusterbackend.h"
#include "models/embedded/clockpacer.h"
#include "models/embedded/embeddedbackend.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "models/kube/result.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sim {
class Cluster;
} // namespace sim
namespace scenario {
struct Scenario;
} // namespace scenario

namespace models {

class SnapshotBuilder;

class EmbeddedWorker : public QObject
{
    Q_OBJECT

public:
    EmbeddedWorker(EmbeddedBackendOptions options, std::shared_ptr<std::atomic<int>> inFlight);
    ~EmbeddedWorker() override;

public Q_SLOTS:
    void start(); // on the worker thread: timers, initial scenario
    void rollback(const QString &dsKey, qint64 toRevision);
    void pause(const QString &dsKey);
    void resume(const QString &dsKey);
    void loadScenario(const QString &path);
    void setSpeed(double speed);
    void step(qint64 ms);
    void setSeed(quint64 seed);
    void injectFault(const QString &node, const QString &faultKind);
    void setSuspended(bool suspended);
    // Whether a timer of this worker is active (the clock tick or a deferred publication).
    bool timersActive() const { return m_tickTimer->isActive() || m_publishTimer->isActive(); }
    void startUpgrade(const QString &rolloutJson);
    void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                        const QString &note);

    // ---- node actions (kubectl cordon / uncordon / drain)
    void cordon(const QString &node, bool unschedulable);
    void drainNode(const QString &node, bool deleteEmptyDirData);
    // ---- Starting a rollout: kubectl's PATCH (api/startrollout.h) through the engine's API.
    void setImage(const QString &dsKey, const QMap<QString, QString> &images);
    void restartRollout(const QString &dsKey);
    void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable, const QString &maxSurge);
    // ---- drill-down (ClusterBackend::requestDetail / startLogs / stopLogs)
    void requestDetail(quint64 id, const QString &kind, const QString &ns, const QString &name);
    void startLogs(quint64 id, const QString &ns, const QString &pod, const QString &container, bool previous,
                   bool follow, int tailLines);
    void stopLogs(quint64 id);

Q_SIGNALS:
    void detailReady(const models::ObjectDetail &detail);
    void logData(quint64 id, const QString &text);
    void logFinished(quint64 id, bool ok, const QString &message);
    void snapshotReady(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void actionFinished(const models::ActionResult &result);
    void errorOccurred(const QString &message);

private:
    void tick();
    void publish(bool force);
    BackendInfo backendInfo(const QString &path, const scenario::Scenario *scenario, quint64 seed,
                            bool loading);
    void publishLoading(const QString &path, const scenario::Scenario &scenario, const sim::Cluster &cluster,
                        SnapshotBuilder &builder);
    void finish(ActionKind kind, const QString &target, bool ok, const QString &message, qint64 revision = 0,
                const QString &parameters = {});
    bool splitKey(const QString &dsKey, std::string &ns, std::string &name, ActionKind kind);
    bool install(const QString &path, std::optional<quint64> seed, ActionKind kind);
    void updateTimer();

    EmbeddedBackendOptions m_options;
    std::shared_ptr<std::atomic<int>> m_inFlight;
    std::unique_ptr<scenario::Scenario> m_scenario;
    std::unique_ptr<sim::Cluster> m_cluster;
    std::unique_ptr<SnapshotBuilder> m_builder;
    QString m_scenarioPath;
    quint64 m_seed = 1;
    double m_speed = 1.0;
    QTimer *m_tickTimer = nullptr;
    QElapsedTimer m_tickClock; // real time between ticks, for m_pacer
    qint64 m_lastTickNs = 0;
    ClockPacer m_pacer;
    QTimer *m_publishTimer = nullptr; // single shot: a deferred publication
    QElapsedTimer m_sincePublish;
    qint64 m_lastBuildMs = 0; // how long the last snapshot took to build
    qint64 m_publishedNow = -1;
    bool m_publishedRunning = false;
    double m_publishedSpeed = -1;
    bool m_suspended = false;

    // ---- node actions
    struct DrainRun
    {
        const sim::Cluster *cluster = nullptr; // the run ends when the cluster is replaced
        api::DrainRun run;
    };
    kube::Result<void> patchUnschedulable(const std::string &node, bool unschedulable);
    void evictPending(const QString &node);
    std::map<QString, DrainRun> m_drains; // by node
    // ---- drill-down: the logs being followed, fed on every tick and step
    struct Follower
    {
        std::string ns;
        std::string pod;
        std::string container;
        qint64 readAt = 0; // lines up to this virtual time were sent
    };
    void pumpLogs();
    std::map<quint64, Follower> m_followers;
};

} // namespace models
