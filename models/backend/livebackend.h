#pragma once
// LiveBackend — the ClusterBackend over a real cluster (or `daemonscope serve`) through
// models/client. A LiveWorker on its own thread resolves the kubeconfig context, keeps one
// list+watch Reflector per watched kind — DaemonSets of the namespace (or all), nodes, events,
// and per DaemonSet its ControllerRevisions and pods selected by its selector — and publishes
// the same ClusterSnapshots as the embedded backend. This object stays on the GUI thread and
// only forwards commands as queued calls.
//
// Actions use kubectl's API calls (LiveActions). Simulation commands (loadScenario, setSpeed,
// step, setSeed, injectFault) finish with ok = false: "not available on a live cluster".
// Connection problems (401, TLS, refused) arrive as errorOccurred and in BackendInfo::errorText;
// the reflectors keep retrying with backoff and clear the error when the server answers again.

#include "models/backend/clusterbackend.h"
#include "models/liveupgrade/liveupgraderuntime.h"

#include "models/client/restconfig.h"
#include "models/client/transport.h"

#include <QThread>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace models {

class LiveDrillDown;
class LiveWorker;

struct LiveBackendOptions
{
    QString kubeconfig; // an explicit file (--kubeconfig); empty: KUBECONFIG, then ~/.kube/config
    QString context;    // empty: the kubeconfig's current-context
    QString namespace_; // empty: the context's namespace (default: "default")
    bool allNamespaces = false;
    // A resolved configuration instead of a kubeconfig (embedding, tests).
    std::optional<client::RestConfig> restConfig;
    // Builds the transport; empty: client::HttpTransport. Lets tests observe or disturb requests.
    std::function<std::shared_ptr<client::Transport>(const client::RestConfig &)> transportFactory;
    int publishIntervalMs = 100;
    int initialBackoffMs = 800; // reconnect backoff of the watches, doubling up to maxBackoffMs
    int maxBackoffMs = 30000;
    int minWatchTimeoutSeconds = 300;
    int maxWatchTimeoutSeconds = 600;
    int maxConflictRetries = 5;
    QString user; // for the action log; empty: operatingSystemUser()
    // A drain's retries of evictions a budget refuses (ms after each attempt); empty:
    // api::drainRetryDelaysMs().
    std::vector<int> drainRetryDelaysMs;
    // The node-agent upgrade (LiveUpgradeRuntime): rollouts, and the controller while this
    // console holds the controllers' Lease. Off: the page says the backend cannot.
    bool nodeUpgrades = true;
    LiveUpgradeOptions upgrade; // identity, Lease, timings; actor and namespace are filled in
};

class LiveBackend : public ClusterBackend
{
    Q_OBJECT

public:
    explicit LiveBackend(LiveBackendOptions options, QObject *parent = nullptr);
    ~LiveBackend() override; // stops the watches and joins the worker thread

    BackendKind kind() const override { return BackendKind::Live; }
    bool isSimulation() const override { return false; }

public Q_SLOTS:
    void rollback(const QString &dsKey, qint64 toRevision) override;
    void pause(const QString &dsKey) override;
    void resume(const QString &dsKey) override;
    void loadScenario(const QString &path) override;
    void setSpeed(double speed) override;
    void step(qint64 ms) override;
    void setSeed(quint64 seed) override;
    void injectFault(const QString &node, const QString &faultKind) override;
    void cordon(const QString &node, bool unschedulable) override;
    void drain(const QString &node, bool deleteEmptyDirData) override;
    void startUpgrade(const QString &rolloutJson) override;
    void requestUpgradeInventory() override;
    void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                        const QString &note) override;

    // ---- Starting a rollout
    void setImage(const QString &dsKey, const QMap<QString, QString> &images) override;
    void restartRollout(const QString &dsKey) override;
    void setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                           const QString &maxSurge) override;

    // ---- drill-down: LiveDrillDown, one thread per request with the worker's client
    quint64 requestDetail(const QString &kind, const QString &ns, const QString &name) override;
    quint64 startLogs(const LogRequest &request) override;
    void stopLogs(quint64 id) override;

private:
    QThread m_thread;
    LiveWorker *m_worker = nullptr; // lives on m_thread, deleted when it finishes
    std::shared_ptr<LiveDrillDown> m_drill;
};

} // namespace models
