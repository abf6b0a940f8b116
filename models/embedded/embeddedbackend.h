#pragma once
// EmbeddedBackend — the ClusterBackend over the embedded engine. The engine (sim::Cluster)
// lives on a worker thread inside an EmbeddedWorker; this object stays on the GUI thread and
// only forwards commands as queued calls and re-emits the worker's snapshots and results.
// Nothing here touches the Cluster.
//
// Clock: every tick (kTickMs real ms) the worker advances the virtual clock by tick x speed.
// Snapshots are coalesced: at most one per kPublishIntervalMs real ms, plus one right after
// every command so an action's effect shows at once. While suspended (the window shows another
// backend) the clock does not run and nothing is published: no timer of the worker runs.

#include "models/backend/clusterbackend.h"

#include <QThread>

#include <vector>

namespace models {

class EmbeddedWorker;

struct EmbeddedBackendOptions
{
    QString scenarioPath; // empty: start without a cluster until loadScenario
    double speed = 1.0;
    int tickMs = 50;
    int publishIntervalMs = 100;
    // Snapshots are built on the engine thread: the interval between two is at least this many
    // times the last one's build time, so that building them takes at most about 1/N of the
    // engine's time however large the cluster (a 5,000-node upgrade page builds in ~40 ms:
    // about 2.5 snapshots a second instead of 5, and the simulation runs that much faster).
    // 0: publishIntervalMs alone.
    int publishCostFactor = 10;
    // A scenario whose steps take longer than loadingFirstShowMs to run is shown while it
    // loads (BackendInfo::loading), then every loadingIntervalMs; negative: only when loaded.
    int loadingFirstShowMs = 300;
    int loadingIntervalMs = 500;
    QString user; // for the action log; empty: operatingSystemUser()
    // A drain's retries of evictions a budget refuses (ms after each attempt); empty:
    // api::drainRetryDelaysMs().
    std::vector<int> drainRetryDelaysMs;
};

class EmbeddedBackend : public ClusterBackend
{
    Q_OBJECT

public:
    explicit EmbeddedBackend(EmbeddedBackendOptions options = {}, QObject *parent = nullptr);
    ~EmbeddedBackend() override; // stops and joins the worker thread

    BackendKind kind() const override { return BackendKind::Embedded; }
    bool isSimulation() const override { return true; }

public Q_SLOTS:
    void rollback(const QString &dsKey, qint64 toRevision) override;
    void pause(const QString &dsKey) override;
    void resume(const QString &dsKey) override;
    void loadScenario(const QString &path) override;
    void setSpeed(double speed) override;
    void step(qint64 ms) override;
    void setSeed(quint64 seed) override;
    void injectFault(const QString &node, const QString &faultKind) override;
    void setSuspended(bool suspended) override;
    void startUpgrade(const QString &rolloutJson) override;
    void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                        const QString &note) override;
    void cordon(const QString &node, bool unschedulable) override;
    void drain(const QString &node, bool deleteEmptyDirData) override;

    // ---- Starting a rollout
    void setImage(const QString &dsKey, const QMap<QString, QString> &images) override;
    void restartRollout(const QString &dsKey) override;
    void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                           const QString &maxSurge) override;

    // ---- drill-down: answered by the worker from the engine
    quint64 requestDetail(const QString &kind, const QString &ns, const QString &name) override;
    quint64 startLogs(const LogRequest &request) override;
    void stopLogs(quint64 id) override;

private:
    QThread m_thread;
    EmbeddedWorker *m_worker = nullptr; // lives on m_thread, deleted when it finishes
};

} // namespace models
