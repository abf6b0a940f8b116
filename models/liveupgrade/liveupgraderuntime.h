#pragma once
// LiveUpgradeRuntime — the node-agent upgrade of a live cluster, for the console (LiveWorker):
// the NodeUpgradeRollouts, their per-node tables and the pre-flight inventory as snapshot
// values, the admin's actions, and — while this console holds the controllers' Lease — the
// controller itself: the same NodeUpgradeController the embedded engine and `daemonscope
// controller` run, over a LiveUpgradeCluster.
//
// Who drives (docs live-node-upgrade.md; README "Node upgrades on a live cluster"):
// - The console never runs a second controller. While a rollout is unfinished it is a
//   candidate for the Lease the `daemonscope controller` replicas compete for (name
//   daemonscope-node-upgrade-controller by default; the namespace is the one where a Lease of
//   that name exists — the cluster's Leases of that name are listed — else the context's), and
//   it runs the controller only while it holds it. Once it leads, it stays a candidate until it
//   stops, then releases the Lease so that a controller elsewhere takes over at once.
// - While another process holds the Lease (an in-cluster controller, `serve`'s built-in one)
//   the console observes: the table comes from the node annotations, the headline from the
//   status, there is no resume preview, and the phase chart is sampled here once a second. An
//   action is the same request the controller would record (requestNodeUpgradeControl: a spec
//   edit or a node annotation); the holder acts on it at its next pass.
// - A cluster that does not serve the rollouts (no CRD: 404) is told in the view and asked
//   again every probeInterval; nothing else is watched until it does.
//
// Threads: a loop thread of its own owns the LiveUpgradeCluster, the elector and the
// controller. Callers post commands (any thread) and read latest(); results and view changes
// are reported through the callbacks, on the loop thread. Messages never carry credentials.

#include "models/snapshot/upgraderolloutinfo.h"

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgraderollout.h"
#include "models/client/reflector.h"
#include "models/controllers/nodeupgrademetrics.h"
#include "models/kube/jsonfield.h"
#include "models/kube/result.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace client {
class KubeClient;
}
namespace controllers {
class NodeUpgradeController;
}

namespace models {

class LeaderElector;
class LiveUpgradeCluster;

struct LiveUpgradeOptions
{
    std::string leaseName = api::kNodeUpgradeLeaseName;
    std::string leaseNamespace; // empty: where a Lease of that name exists, else defaultNamespace
    std::string defaultNamespace = "default"; // the context's namespace
    std::string identity;                     // empty: daemonscope-console_HOST_PID
    std::string actor = "admin";              // who the admin actions name
    bool electLeader = true;                  // false: never drive, only observe and request
    std::chrono::milliseconds leaseDuration{15000};
    std::chrono::milliseconds renewDeadline{10000};
    std::chrono::milliseconds retryPeriod{2000};
    std::chrono::milliseconds probeInterval{30000}; // asking again for a resource not served
    std::chrono::milliseconds buildInterval{250};   // at most one view per interval while changing
    client::ReflectorOptions reflector;             // backoff and watch timeouts of the caches
    // false: the nodes, pods, ReplicaSets, budgets and Jobs are read only once something needs
    // them — a NodeUpgradeRollout exists, or wantInventory() was called (the console's pre-flight
    // report, drain preview, node-upgrade page). A cluster nobody upgrades then costs the
    // console no second copy of every pod and node. true: read at once.
    bool readWorkloadsAtOnce = true;
    // The controller's clock (LiveUpgradeCluster::setClock); empty: the wall clock. Tests: a
    // simulated server's virtual clock running faster than real time.
    std::function<kube::Timestamp()> clock;
};

// What the console shows of the upgrade; immutable once published.
struct LiveUpgradeView
{
    std::shared_ptr<const UpgradeRolloutList> rollouts = emptyUpgradeRollouts();
    std::shared_ptr<const UpgradeInventory> inventory = emptyUpgradeInventory();
    bool inventoryRead = false; // the nodes and pods behind `inventory` have been listed
    UpgradeDriverInfo driver;
};

class LiveUpgradeRuntime
{
public:
    using StartDone = std::function<void(const std::string &name, const kube::Result<bool> &created)>;
    using ControlDone = std::function<void(const kube::Result<void> &result)>;

    // `changed` is called (loop thread) whenever latest() has a new view.
    LiveUpgradeRuntime(std::shared_ptr<client::KubeClient> client, LiveUpgradeOptions options,
                       std::function<void()> changed);
    ~LiveUpgradeRuntime(); // stop()
    LiveUpgradeRuntime(const LiveUpgradeRuntime &) = delete;
    LiveUpgradeRuntime &operator=(const LiveUpgradeRuntime &) = delete;

    void start();
    // Stops the controller, releases the Lease when held, stops the caches, joins. Idempotent.
    void stop();

    std::shared_ptr<const LiveUpgradeView> latest() const; // any thread
    const std::string &identity() const { return m_options.identity; }

    // Any thread; `done` runs on the loop thread. A manifest {metadata: {name}, spec}: created
    // or its spec updated (LiveUpgradeCluster::applyRollout), then a pass when this console
    // drives.
    void startUpgrade(const kube::Json &manifest, StartDone done);
    // pause, resume, abort, acknowledge (node empty) or hold, release, skip, retry, force, abort
    // (one node), as requestNodeUpgradeControl; a pass follows when this console drives.
    void control(const std::string &rollout, const std::string &action, const std::string &node,
                 const std::string &note, ControlDone done);
    // Any thread: read the nodes and pods now (readWorkloadsAtOnce false); they are kept from
    // then on.
    void wantInventory();

private:
    void run();
    bool probe(); // true: the rollouts are served
    bool tick();  // the cluster loop's stop predicate: commands, election, views; true: stop
    bool startWorkloadsWhenNeeded(); // true: they were started now (the caches read again)
    void elect();
    void findLease();
    void lead(bool leading);
    void buildView();
    void sampleObserved(const UpgradeRolloutList &list);
    void setDriver(UpgradeDriverInfo driver);
    void publish(std::shared_ptr<const LiveUpgradeView> view);
    void publishDriver(); // the latest view with m_driver, before the caches can build one
    void readFailed();    // not synced and a cache fails: say so, answer the waiting commands
    void post(std::function<void()> task);
    void afterWorkloads(std::function<void()> task); // post(), once the nodes and pods are read
    bool unfinishedRollout() const;
    kube::ApiStatus notReady() const; // why a command cannot run yet

    std::shared_ptr<client::KubeClient> m_client;
    LiveUpgradeOptions m_options;
    std::function<void()> m_changed;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_inventoryWanted{false};
    bool m_started = false;

    mutable std::mutex m_mutex; // guards m_latest, m_tasks, m_servedCluster, m_readError
    std::shared_ptr<const LiveUpgradeView> m_latest;
    std::vector<std::function<void()>> m_tasks;
    LiveUpgradeCluster *m_servedCluster = nullptr; // for wake() from other threads
    std::string m_readError; // the caches' last list/watch failure, empty once they answer again

    // Loop thread only.
    std::unique_ptr<LiveUpgradeCluster> m_cluster;
    std::unique_ptr<LeaderElector> m_elector;
    std::unique_ptr<controllers::NodeUpgradeController> m_controller;
    api::NodeUpgradeEvents m_events;
    std::map<std::string, controllers::NodeUpgradeMetrics> m_metrics;
    std::map<std::string, std::size_t> m_sampleTotals; // rollout -> samples in the last view
    std::map<std::string, std::int64_t> m_lastObservedSample;
    UpgradeDriverInfo m_driver;
    std::string m_leaseNamespace;
    bool m_lookAtLease = true; // not a candidate: read the Lease's holder at the next election step
    bool m_rolloutsDirty = true;
    bool m_inventoryDirty = true;
    bool m_driverDirty = true;
    std::chrono::steady_clock::time_point m_nextElection{};
    std::chrono::steady_clock::time_point m_nextLeaseSearch{};
    std::chrono::steady_clock::time_point m_lastBuild{};
    std::vector<int> m_watches;
};

} // namespace models
