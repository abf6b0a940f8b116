#pragma once
// Cluster — the embedded, deterministic simulated Kubernetes cluster: an API server (the object
// store of models/store with resourceVersions, optimistic concurrency, defaulting, validation,
// patches and watches), the DaemonSet controller with controller history, a ReplicaSet
// controller, a minimal scheduler and a simulated kubelet, all on a virtual clock with a seeded
// RNG. This facade wires them (clusterimpl.h) and forwards its API calls to the store's handler.
//
// Models Kubernetes 1.32/1.33: pod templates keep "creationTimestamp":null in their metadata,
// so ControllerRevision data is byte-identical to what such a cluster stores and kubectl's
// byte-equality checks agree with the engine. Revision hashes use the engine's own canonical
// dump (sorted compact JSON of the template), not Go's struct dump; see controllers/daemonsetcontroller.h.
//
// Two modes:
// - Stepped: the upstream controller unit-test harness. Nothing runs by itself; syncDaemonSet
//   runs one sync whose creates/deletes hit the store at once and are observed immediately;
//   pods have no status until markReady; advance/setTime only move the clock.
// - Continuous: controllers, scheduler and kubelet run in virtual time through a timer queue
//   ordered by (time, sequence); informer deliveries are deferred, so expectations matter.
//
// Same options and same calls => same objects, names, uids, events and activity, byte for byte.
// Not thread-safe: the owner (a worker thread or a test) drives it alone.

#include "models/api/deleteoptions.h"
#include "models/api/kind.h"
#include "models/api/kubectlrollout.h"
#include "models/api/podtimings.h"
#include "models/api/preconditions.h"
#include "models/api/strategicmerge.h"
#include "models/api/watchevent.h"
#include "models/controllers/daemonsetclient.h"
#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"
#include "models/sim/faultkind.h"
#include "models/sim/podselector.h"
#include "models/store/store.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace api {
struct NodeUpgradeRolloutStatus;
}

namespace sim {

class NodeUpgradeRuntime;

enum class Mode { Stepped, Continuous };

struct KubeletTimings
{
    kube::Duration startDelay = api::kAssumedPodStartMs;             // created (bound) -> Running
    kube::Duration readyDelay = api::kAssumedPodReadyMs;             // Running -> Ready
    kube::Duration terminationGrace = api::kAssumedPodTerminationMs; // deletion -> gone
    double jitter = 0.2;                    // each delay is scaled by 1 +/- jitter (seeded RNG)
    std::vector<std::string> failingImages; // glob patterns ("*:broken"): never become Ready
};

struct ClusterOptions
{
    std::uint64_t seed = 1;
    Mode mode = Mode::Continuous;
    kube::Timestamp start = 0;
    KubeletTimings kubelet;
};

// The API's write options, recorded events and typed status writes are the store's
// (models/store).
using store::EmittedEvent;
using store::WriteOptions;
// A store's deletions and watch events are the API's own types (models/api).
using api::DeleteOptions;
using api::DeletePropagation;
using api::EvictOptions;
using api::WatchEvent;
using api::watchEventTypeName;

using controllers::PodCreate;
using controllers::PodDelete;
using controllers::SyncResult;

// One pod create/delete issued by the DaemonSet controller, in the order issued.
struct Activity
{
    enum class Op { Create, Delete };
    kube::Timestamp time = 0;
    std::string daemonSet; // "NS/NAME"
    Op op = Op::Create;
    std::string pod;
    std::string node;
};

// Counters for benchmarks and diagnostics.
struct EngineStats
{
    std::uint64_t syncs = 0;  // DaemonSet controller syncs
    std::uint64_t timers = 0; // timers run in continuous mode
    std::uint64_t writes = 0; // committed object writes (= resourceVersion increments)
};

class Cluster
{
public:
    explicit Cluster(ClusterOptions options = {});
    ~Cluster();
    Cluster(const Cluster &) = delete;
    Cluster &operator=(const Cluster &) = delete;

    kube::Timestamp now() const;
    Mode mode() const;
    std::uint64_t seed() const;
    const ClusterOptions &options() const;

    // ---- API server ----------------------------------------------------------------------
    // Manifests carry apiVersion/kind/metadata. Namespaces referenced by objects exist
    // implicitly. All writes bump the one global resourceVersion; no-op writes change nothing.
    kube::Result<kube::Json> create(const kube::Json &manifest, const WriteOptions &options = {});
    // PUT: full replacement. A metadata.resourceVersion that differs from the stored one is a
    // Conflict. Status in the body is ignored (use updateStatus).
    kube::Result<kube::Json> update(const kube::Json &manifest, const WriteOptions &options = {});
    // Apply of a manifest, as `kubectl apply --server-side --force-conflicts` by the field
    // manager "daemonscope" (fieldmanager.h): created when absent; otherwise merged into the
    // stored object by the schema's list types, so fields other clients set survive, and what an
    // earlier apply set and this one leaves out is removed. Status, uid and creationTimestamp
    // stay; generation bumps on a spec change.
    kube::Result<kube::Json> apply(const kube::Json &manifest);
    // PUT .../status: only status changes (DaemonSet: collisionCount may not decrease).
    kube::Result<kube::Json> updateStatus(const kube::Json &manifest, const WriteOptions &options = {});
    // PUT nodes/NAME/status from the simulated node agents, which hold the typed node they read
    // from the store: what updateStatus does with that node's JSON — refusals, the
    // resourceVersion and uid preconditions, spec and metadata kept from the stored node, times
    // to the second as the API carries them, no write when nothing changes — without encoding
    // and decoding the node three times.
    kube::Result<void> updateNodeStatus(kube::Node node);
    // PUT nodeupgraderollouts/NAME/status from the engine's rollout store, which holds the status
    // typed: what updateStatus does with {metadata: {name, resourceVersion}, status} —
    // refusals, the resourceVersion precondition, the status as the server stores it (as if
    // read back and written again: NodeUpgradeRolloutStatus::normalize), spec and metadata kept,
    // no write when nothing changes — without decoding the status or copying and comparing the
    // whole stored object.
    // The answer says what was stored: nothing (the status was already that), the status as
    // given, or the status as the server read it back (it differed from the one given).
    using StatusStored = store::StatusStored;
    kube::Result<StatusStored> updateRolloutStatus(const std::string &name,
                                                   const std::string &resourceVersion,
                                                   const api::NodeUpgradeRolloutStatus &status);
    kube::Result<kube::Json> get(api::Kind kind, const std::string &ns, const std::string &name) const;
    // The scale subresource of a ReplicaSet (replicasets/scale, autoscaling/v1 Scale: replicas
    // wanted and running, and the selector as text). An update sets spec.replicas; a
    // metadata.resourceVersion in the Scale is the ReplicaSet's precondition. A patch applies to
    // the Scale. Other kinds have none (NotFound).
    kube::Result<kube::Json> getScale(api::Kind kind, const std::string &ns, const std::string &name) const;
    kube::Result<kube::Json> updateScale(api::Kind kind, const std::string &ns, const std::string &name,
                                         const kube::Json &scale, const WriteOptions &options = {});
    kube::Result<kube::Json> patchScale(api::Kind kind, const std::string &ns, const std::string &name,
                                        api::PatchType type, const kube::Json &patch,
                                        const WriteOptions &options = {});
    // List JSON ({"kind":"DaemonSetList","items":[...]}); ns empty = all namespaces.
    kube::Result<kube::Json> list(api::Kind kind, const std::string &ns = {},
                                  const std::string &labelSelector = {}) const;
    kube::Result<kube::Json> patch(api::Kind kind, const std::string &ns, const std::string &name,
                                   api::PatchType type, const kube::Json &patch,
                                   const WriteOptions &options = {});
    // PATCH of the status subresource: the patch applies to the whole object (its metadata's
    // resourceVersion and uid are preconditions, as for a PATCH), only the status is written.
    kube::Result<kube::Json> patchStatus(api::Kind kind, const std::string &ns, const std::string &name,
                                         api::PatchType type, const kube::Json &patch,
                                         const WriteOptions &options = {});
    // DELETE. Pods in continuous mode get a deletionTimestamp first (MODIFIED), and are gone
    // after the grace period (DELETED); gracePeriodSeconds 0 removes at once. Deleting a DS or
    // RS removes the objects it controls (garbage collection: Background and Foreground delete
    // them — the engine's collector runs at once, so both end with the dependents gone), or,
    // with Orphan, keeps them and removes the owner's reference from each, as the garbage
    // collector's orphan finalizer does (kubectl delete --cascade=orphan).
    kube::Result<void> remove(api::Kind kind, const std::string &ns, const std::string &name,
                              std::optional<std::int64_t> gracePeriodSeconds = std::nullopt,
                              DeletePropagation propagation = DeletePropagation::Background);
    // DELETE as the API serves it: the preconditions checked against the stored object, then
    // the deletion (none for a dry run); the answer is the object as it is afterwards (with its
    // deletionTimestamp while a graceful deletion runs), or as it was when it is gone.
    kube::Result<kube::Json> remove(api::Kind kind, const std::string &ns, const std::string &name,
                                    const DeleteOptions &options);
    // POST pods/NAME/eviction: a deletion that respects the PodDisruptionBudget covering the
    // pod, as kube-apiserver's eviction subresource decides it. A refusal is 429
    // TooManyRequests with a DisruptionBudget cause naming the budget and its numbers; a pod
    // covered by two budgets is a 500; a finished or pending pod is deleted without a check.
    kube::Result<void> evict(const std::string &ns, const std::string &name,
                             const EvictOptions &options = {});
    // Tests: the next `count` writes to one object — patch, update, status update, delete,
    // eviction, cordon, uncordon, taint, untaint; not dry runs — are refused with `status`, as an
    // overloaded API server or an admission webhook refuses them. A count of 0 clears.
    void refuseWrites(api::Kind kind, const std::string &ns, const std::string &name, int count,
                      kube::ApiStatus status);

    // ---- typed read access (pointers valid until the next mutating call) -----------------
    const kube::DaemonSet *daemonSet(const std::string &ns, const std::string &name) const;
    std::vector<const kube::DaemonSet *> daemonSets() const;
    const kube::Node *node(const std::string &name) const;
    std::vector<const kube::Node *> nodes() const;
    const kube::Pod *pod(const std::string &ns, const std::string &name) const;
    std::vector<const kube::Pod *> pods() const;
    // Consistent paged reads of the pods, as etcd's revisions give them to kube-apiserver: a list
    // pins the resourceVersion of its first page, and every later page reads the pods as they
    // were at it. While a version is pinned, a pod write keeps the version it replaces (an
    // immutable shared record) for as long as a pin needs it; nothing else is copied, so a
    // pinned list costs only the writes made since. unpinPods lets it go.
    std::uint64_t pinPods(); // pins and returns the current resourceVersion
    void unpinPods(std::uint64_t resourceVersion);
    using PodPage = store::PodPage;
    // Up to `limit` (0: every) pods of `ns` (all namespaces when empty) after the key `after`
    // ("" for the start) that `keep` accepts, as they were at `resourceVersion`: the current
    // one, or one that is pinned.
    PodPage podPage(std::uint64_t resourceVersion, const std::string &ns, const std::string &after,
                    std::size_t limit, const std::function<bool(const kube::Pod &)> &keep) const;
    std::size_t podCount(const std::string &ns) const; // now, in `ns` (all namespaces when empty)
    std::size_t keptPodVersions() const;               // old versions held for pinned reads
    // Pods controlled by the DaemonSet (controller reference with its UID), by name.
    std::vector<const kube::Pod *> podsOf(const std::string &ns, const std::string &dsName) const;
    std::vector<const kube::Pod *> selectPods(const PodSelector &selector) const;
    std::vector<const kube::ControllerRevision *> controllerRevisions() const;
    // Owned by the DaemonSet (controller reference UID), sorted by revision then name.
    std::vector<const kube::ControllerRevision *> controllerRevisionsOf(const std::string &ns,
                                                                        const std::string &dsName) const;
    // Name of the CR whose data matches the DaemonSet's current template ("" if none).
    std::string currentRevisionName(const std::string &ns, const std::string &dsName) const;
    std::vector<const kube::ReplicaSet *> replicaSets() const;
    const kube::ReplicaSet *replicaSet(const std::string &ns, const std::string &name) const;
    std::vector<const kube::Event *> events() const; // sorted by namespace, then name
    const kube::Event *event(const std::string &ns, const std::string &name) const;
    std::vector<const kube::PodDisruptionBudget *> podDisruptionBudgets() const; // by namespace, name
    std::vector<std::string> namespaces() const;
    std::uint64_t resourceVersion() const; // the global counter's latest value
    // Raises the global counter to at least floor, so later writes get larger versions (the API
    // server seeds it so that every server life starts above the last one). Never lowers it.
    void seedResourceVersion(std::uint64_t floor);
    // From now on the simulated kubelets keep node Leases in kube-node-lease (Kubelet::
    // startNodeLeases). The API server starts them; scenario runs do not (their traces stay as
    // they are).
    void startNodeLeases();
    EngineStats stats() const;

    // ---- watch ---------------------------------------------------------------------------
    // Synchronous fan-out from every write, in write order. Returns an id for unwatch.
    int watch(api::Kind kind, std::function<void(const WatchEvent &)> callback);
    int watchAll(std::function<void(const WatchEvent &)> callback);
    void unwatch(int id);

    // ---- kubectl semantics ---------------------------------------------------------------
    api::RollbackOutcome rollback(const std::string &ns, const std::string &name, std::int64_t toRevision);
    kube::Result<std::string> historyText(const std::string &ns, const std::string &name,
                                          std::optional<std::int64_t> revision = std::nullopt) const;
    kube::Result<api::RolloutStatus> rolloutStatusOf(const std::string &ns, const std::string &name) const;
    kube::Result<void> pause(const std::string &ns, const std::string &name);
    kube::Result<void> resume(const std::string &ns, const std::string &name);
    static bool isPaused(const kube::DaemonSet &ds) { return api::isPaused(ds); }

    // ---- simulation control --------------------------------------------------------------
    SyncResult syncDaemonSet(const std::string &ns, const std::string &name);
    void advance(kube::Duration d);
    void setTime(kube::Timestamp t);
    // Continuous: advances timer by timer until done() holds (checked before the first step and
    // after each instant) or timeout passes. Stepped: checks done() once.
    bool runUntil(const std::function<bool()> &done, kube::Duration timeout);
    bool rolloutComplete(const std::string &ns, const std::string &name) const;
    bool podsReady(int n) const; // at least n non-terminating pods are Ready

    // ---- test and rehearsal hooks --------------------------------------------------------
    kube::Result<void> markReady(const std::vector<std::string> &podKeys, bool ready); // "ns/name"
    kube::Result<void> setPodLabels(const std::vector<std::string> &podKeys, const kube::StringMap &labels);
    kube::Result<void> addNode(kube::Node node);
    kube::Result<void> cordon(const std::string &node);
    kube::Result<void> uncordon(const std::string &node);
    kube::Result<void> taint(const std::string &node, const kube::Taint &taint);
    kube::Result<void> untaint(const std::string &node, const std::string &key); // every effect
    // Sets (a value) or removes (none) annotations of a node, as a merge patch of
    // metadata.annotations does: validated as the API server validates object metadata.
    kube::Result<void> annotateNode(const std::string &node,
                                    const std::map<std::string, std::optional<std::string>> &changes);
    // Sets conditions (by type; a transition time kept while the status stays) and removes
    // others, as a status update of the node that changes nothing else.
    kube::Result<void> setNodeConditions(const std::string &node, const std::vector<kube::NodeCondition> &set,
                                         const std::vector<std::string> &remove);
    kube::Result<void> fault(const std::string &node, FaultKind kind);
    std::optional<FaultKind> faultOf(const std::string &node) const;
    const std::map<std::string, FaultKind> &faults() const;

    // Drains the DaemonSet controller's pod creates/deletes since the last call.
    std::vector<Activity> takeActivity();
    // Drains the events emitted since the last call (in emission order).
    std::vector<EmittedEvent> takeEvents();
    // From now on nothing is kept for takeActivity and takeEvents (both stay empty): for a
    // cluster that runs on without a reader of its trace (serve, the console), where the logs
    // would otherwise grow with every pod start. The Event objects are kept as always.
    void stopLogs();
    // Whether takeActivity and takeEvents are kept (stopLogs not called).
    bool keepsLogs() const;

    // Called after each virtual instant has run to its end (continuous mode), while the clock
    // stands between two timers: a read-only look at a consistent cluster, e.g. to show a long
    // scenario load as it proceeds. It must not write to the cluster. Empty function: none.
    void setInstantObserver(std::function<void()> observer);

    // ---- extension points for further controllers ----------------------------------------
    // Runs fn at virtual time t (continuous mode), after everything already queued for t.
    void schedule(kube::Timestamp t, std::function<void()> fn);
    std::uint64_t randomU64(); // from the seeded RNG
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &name);

    // The node-agent upgrade machinery (NodeUpgradeRollout store, controller, simulated agent),
    // created on first use so clusters that never upgrade pay nothing. It lives as long as the
    // cluster: the scenario runner's `upgrade` steps (models/scenario), `daemonscope upgrade
    // status` and the console all reach the same instance through it.
    NodeUpgradeRuntime &nodeUpgrade();
    NodeUpgradeRuntime *nodeUpgradeIfStarted() const { return m_nodeUpgrade.get(); }

    struct Impl;

private:
    std::unique_ptr<Impl> d;
    // Declared after d: destroyed first, while the store it watches still exists.
    std::unique_ptr<NodeUpgradeRuntime> m_nodeUpgrade;
};

} // namespace sim
