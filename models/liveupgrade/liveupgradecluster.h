#pragma once
// LiveUpgradeCluster — controllers::UpgradeCluster over a live API server: reflectors (list+watch)
// for Nodes, Pods (all namespaces), ReplicaSets, PodDisruptionBudgets, Jobs and
// NodeUpgradeRollouts fill a cache the controller reads, and the kube client makes its writes the way kubectl
// does (strategic-merge patches of spec.unschedulable for cordon/uncordon, merge patches of spec.taints, POST
// pods/NAME/eviction, DELETE, PUT of the rollout and of its status subresource, POST of core/v1 Events and of
// the restart Jobs).
//
// Threads and assumptions:
// - One loop thread owns the cache, the timers and the watchers: the thread that calls run()
//   (or waitSynced() and processPending() when a caller drives the loop itself). Every
//   UpgradeCluster call — the controller's — is made on that thread, from a timer or a watch
//   callback, or before run() starts. Only writeCounts(), writes(), wake() and stop() may be
//   called from other threads.
// - Reflector handlers run on the reflectors' threads and only queue the change and wake the
//   loop; the loop applies queued changes between the controller's calls, never during one.
// - Read your own writes: a write's answer goes into the cache, and the watchers hear of it, before
//   the write returns. A reflector event that is not newer than the cached object (numeric
//   resourceVersions compared; opaque ones always apply) is dropped, so the cache never goes back
//   to a state older than a write's answer. Evictions and deletions answer with a Status rather
//   than the pod: the pod is read again (GET) and the cache updated, or the pod dropped on 404.
// - Cordon follows `kubectl cordon`: only spec.unschedulable changes; the
//   node.kubernetes.io/unschedulable taint is the node lifecycle controller's (the simulated
//   cluster adds it itself). Taint edits are merge patches of the whole spec.taints list with the
//   cached resourceVersion as precondition, retried after a re-read on 409 Conflict.
// - now() is the wall clock in ms since the epoch and never goes back; timers run in time order
//   (ties in the order they were scheduled) on the loop thread.
// - The write log (writes(), writeCounts()) records every write the controller asked for, in
//   order, whether the server accepted it or not; a cordon of a node the cache shows cordoned
//   sends no request (kubectl says "already cordoned") but is logged.

#include "models/client/kubeclient.h"
#include "models/client/reflector.h"
#include "models/controllers/upgradecluster.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace models {

class RolloutReflector;

class LiveUpgradeCluster final : public controllers::UpgradeCluster
{
public:
    explicit LiveUpgradeCluster(std::shared_ptr<client::KubeClient> client,
                                client::ReflectorOptions reflectorOptions = {});
    ~LiveUpgradeCluster() override; // stop()
    LiveUpgradeCluster(const LiveUpgradeCluster &) = delete;
    LiveUpgradeCluster &operator=(const LiveUpgradeCluster &) = delete;

    // Before start(): the clock now() reads instead of the wall clock (tests: the virtual clock
    // of a simulated cluster running faster than real time). It must never go back.
    void setClock(std::function<kube::Timestamp()> clock) { m_clock = std::move(clock); }
    // Starts the reflectors (once; the constructor does not).
    void start();
    // The console's order: the NodeUpgradeRollouts alone first (what the node-upgrade page
    // lists), and the nodes, pods, ReplicaSets, budgets and Jobs — a large cluster's bulk: all
    // its pods — once something needs them: a rollout to show or drive, the pre-flight report
    // (startWorkloads, loop thread). synced() is false again until they have listed once.
    // start() is both at once.
    void startRollouts();
    void startWorkloads();
    bool workloadsStarted() const { return m_started[NodeSource]; }
    // Stops every reflector: each is asked first, then each is joined. Wakes run(). Idempotent.
    void stop();
    // Wakes the loop (run() then asks its stop predicate again). Any thread.
    void wake();

    // Loop thread. Waits until every reflector has listed once, then applies what they
    // reported (the watchers hear of it). False when the timeout passed first or stop() was
    // called.
    bool waitSynced(std::chrono::milliseconds timeout);
    bool synced() const;
    // Loop thread. Applies queued reflector changes and runs the timers that are due, in time
    // order (changes that arrive meanwhile are applied between two timers). Returns when the
    // next timer is due, if any.
    std::optional<kube::Timestamp> processPending();
    // Loop thread: waitSynced, then processPending and sleep until the next timer or a queued
    // change, until `stop` returns true (asked at least every 200 ms and after every wake()).
    void run(const std::function<bool()> &stop);

    // The writes made so far: "cordon NODE", "uncordon NODE", "taint NODE KEY=VALUE:EFFECT",
    // "untaint NODE KEY", "patchNode NODE", "evict NS/NAME" ("evict NS/NAME dry-run"),
    // "delete NS/NAME", "createJob NS/NAME", "apply NAME", "edit NAME", "status NAME",
    // "event KIND NAME REASON", in order; and their number by kind ("cordon", "uncordon",
    // "taint", "untaint", "patchNode", "evict", "delete", "createJob", "apply", "edit", "status",
    // "event"). Any thread.
    std::vector<std::string> writes() const;
    std::map<std::string, int> writeCounts() const;

    // ---- controllers::UpgradeCluster ----------------------------------------------------------
    kube::Timestamp now() const override;
    bool runsTimers() const override;
    void schedule(kube::Timestamp t, std::function<void()> fn) override;
    const kube::Node *node(const std::string &name) const override;
    std::vector<const kube::Node *> nodes() const override;
    const kube::Pod *pod(const std::string &ns, const std::string &name) const override;
    std::vector<const kube::Pod *> pods() const override;
    std::vector<const kube::Pod *> podsOnNode(const std::string &node) const override;
    const kube::ReplicaSet *replicaSet(const std::string &ns, const std::string &name) const override;
    std::vector<const kube::ReplicaSet *> replicaSets() const override;
    std::vector<const kube::PodDisruptionBudget *> podDisruptionBudgets() const override;
    std::optional<kube::Job> job(const std::string &ns, const std::string &name) const override;
    const api::NodeUpgradeRollout *rollout(const std::string &name) const override;
    std::vector<const api::NodeUpgradeRollout *> rollouts() const override;
    int watch(api::Kind kind, std::function<void(const api::WatchEvent &)> callback) override;
    void unwatch(int id) override;
    kube::Result<void> patchNode(const std::string &name, const kube::Json &mergePatch) override;
    kube::Result<void> cordon(const std::string &node) override;
    kube::Result<void> uncordon(const std::string &node) override;
    kube::Result<void> taint(const std::string &node, const kube::Taint &taint) override;
    kube::Result<void> untaint(const std::string &node, const std::string &key) override;
    kube::Result<void> setNodeConditions(const std::string &node, const std::vector<kube::NodeCondition> &set,
                                         const std::vector<std::string> &remove) override;
    kube::Result<void> evict(const std::string &ns, const std::string &name,
                             const api::EvictOptions &options) override;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) override;
    kube::Result<void> createJob(const kube::Json &job) override;
    kube::Result<void> editRollout(const std::string &name,
                                   const std::function<void(api::NodeUpgradeRollout &)> &fn) override;
    kube::Result<void> updateRolloutStatus(const std::string &name,
                                           const api::NodeUpgradeRolloutStatus &status) override;
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &name) override;

    // Loop thread. `kubectl apply` of a rollout manifest ({metadata: {name, labels,
    // annotations}, spec}) as a client-side create-or-update: POST when the rollout does not
    // exist, else a PUT of the stored object with the manifest's spec, labels and annotations
    // (the status stays), retried on 409 Conflict. The answer goes into the cache. True when
    // created. Logged as "apply NAME".
    kube::Result<bool> applyRollout(const kube::Json &manifest);

    // Where the rollouts live (cluster-scoped, upgrade.daemonscope.io/v1alpha1).
    static const client::ResourceType &rolloutResource();

private:
    using Key = std::pair<std::string, std::string>; // namespace (empty: cluster-scoped), name
    using Object =
        std::variant<std::shared_ptr<const kube::Node>, std::shared_ptr<const kube::Pod>,
                     std::shared_ptr<const kube::ReplicaSet>,
                     std::shared_ptr<const kube::PodDisruptionBudget>,
                     std::shared_ptr<const api::NodeUpgradeRollout>, std::shared_ptr<const kube::Job>>;
    struct Change
    {
        bool deleted = false;
        Object object; // the new state, or the last known one for a deletion
    };
    struct Watcher
    {
        api::Kind kind;
        std::shared_ptr<std::function<void(const api::WatchEvent &)>> callback;
    };
    enum Source {
        NodeSource,
        PodSource,
        ReplicaSetSource,
        BudgetSource,
        RolloutSource,
        JobSource,
        SourceCount
    };

    template <typename T> void enqueue(Source source, const client::ReflectorEvent<T> &e);
    template <typename T> std::unique_ptr<client::Reflector<T>> makeReflector(Source source);
    void applyQueued();
    // Puts the object into the cache (or drops it) and tells the watchers, unless the cache
    // holds the same or a newer version (numeric resourceVersions).
    void apply(const Change &change);
    template <typename T>
    bool store(std::map<Key, std::shared_ptr<T>> &cache, api::Kind kind, const Change &change);
    void deliver(api::Kind kind, api::WatchEvent::Type type, const void *object,
                 const kube::ObjectMeta &meta);
    void indexPod(const kube::Pod *before, const kube::Pod *after);
    void log(const std::string &kind, const std::string &line);

    kube::Result<void> patchNodeWith(const std::string &name, client::PatchType type, const kube::Json &body,
                                     const std::string &fieldManager);
    kube::Result<void> editTaints(const std::string &node,
                                  const std::function<bool(std::vector<kube::Taint> &)> &edit);
    kube::Result<void> rereadPod(const std::string &ns, const std::string &name);
    kube::Result<api::NodeUpgradeRollout> fetchRollout(const std::string &name);
    kube::Result<void> putRollout(const api::NodeUpgradeRollout &rollout, bool status);
    // Reads the rollout, lets `change` edit it (false: nothing to write) and PUTs it (or its
    // status), retried on 409 Conflict.
    kube::Result<void> rewriteRollout(const std::string &name, bool status,
                                      const std::function<bool(api::NodeUpgradeRollout &)> &change);

    std::shared_ptr<client::KubeClient> m_client;
    client::ReflectorOptions m_reflectorOptions;
    std::unique_ptr<client::Reflector<kube::Node>> m_nodeReflector;
    std::unique_ptr<client::Reflector<kube::Pod>> m_podReflector;
    std::unique_ptr<client::Reflector<kube::ReplicaSet>> m_replicaSetReflector;
    std::unique_ptr<client::Reflector<kube::PodDisruptionBudget>> m_budgetReflector;
    std::unique_ptr<RolloutReflector> m_rolloutReflector;
    std::unique_ptr<client::Reflector<kube::Job>> m_jobReflector;
    bool m_started[SourceCount] = {}; // by Source; loop thread
    std::atomic<bool> m_stopped{false};

    // Shared with the reflector threads.
    mutable std::mutex m_queueMutex;
    std::condition_variable m_queueWake;
    std::deque<Change> m_queue;
    bool m_syncedSources[SourceCount] = {};
    bool m_woken = false;

    // Loop thread only.
    bool m_synced = false;
    std::map<Key, std::shared_ptr<kube::Node>> m_nodes;
    std::map<Key, std::shared_ptr<kube::Pod>> m_pods;
    std::map<Key, std::shared_ptr<kube::ReplicaSet>> m_replicaSets;
    std::map<Key, std::shared_ptr<kube::PodDisruptionBudget>> m_budgets;
    std::map<Key, std::shared_ptr<api::NodeUpgradeRollout>> m_rollouts;
    std::map<Key, std::shared_ptr<kube::Job>> m_jobs;
    std::map<std::string, std::set<std::pair<std::string, std::string>>> m_podsByNode; // node -> (name, ns)
    std::map<int, Watcher> m_watchers;
    int m_nextWatcher = 1;
    std::map<std::pair<kube::Timestamp, std::uint64_t>, std::function<void()>> m_timers;
    std::uint64_t m_nextTimer = 0;
    std::uint64_t m_nextEvent = 0;
    mutable kube::Timestamp m_lastNow = 0;
    std::function<kube::Timestamp()> m_clock;

    mutable std::mutex m_logMutex;
    std::vector<std::string> m_writes;
    std::map<std::string, int> m_writeCounts;
};

} // namespace models
