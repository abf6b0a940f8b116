#pragma once
// Cluster::Impl — the state behind the Cluster facade: the object store (one ordered map per
// kind, keyed "namespace/name"), its indexes, the global resourceVersion, watch fan-out, the
// virtual clock, the RNG, the timer queue and the simulated components. Private to the engine.
//
// Invariants: every write goes through commit*/erase* below, which bump the one global
// resourceVersion, keep the pod indexes in step and fan the change out (internal informers
// first, then public watchers); a write that changes nothing is not made. Iteration that can
// affect output walks ordered maps or sorted vectors only.

#include "models/engine/cluster.h"
#include "models/engine/eventloop.h"
#include "models/engine/rng.h"

#include <deque>
#include <map>
#include <set>
#include <unordered_map>

namespace controllers {
class DaemonSetController;
class JobController;
class ReplicaSetController;
} // namespace controllers

namespace engine {

// What the API server and the node lifecycle controller keep true of every node written: a
// Ready condition, and the unschedulable taint following spec.unschedulable both ways.
void defaultNode(kube::Node &n, kube::Timestamp now);

// A stored JSON object with its status replaced: the status subresource's update of a kind kept
// as JSON (the rollout's, from a body or from the rollout store's typed write).
kube::Json withStatus(const kube::Json &object, kube::Json status);

// One create, update or status update, handed from apiCreate or apiUpdate to its kind's part:
// the manifest with the server-owned metadata already removed (create) or taken from the stored
// object (update).
struct WriteContext
{
    api::Kind kind;
    std::string ns;
    std::string name;
    std::string key;
    kube::Json m;       // the manifest
    kube::Json current; // update: the stored object as the API serves it
    bool statusOnly = false;
    bool dryRun = false;
    // A write that changes nothing is not made.
    bool unchanged(const kube::Json &candidate) const { return candidate == current; }
};

// A Service's type and what it implies (servicekind.cpp).
struct ServiceShape
{
    std::string type;
    bool external = false;  // ExternalName: no cluster IP, no ports allocated
    bool nodePorts = false; // NodePort or LoadBalancer: a node port per port
};

class EmbeddedDaemonSetClient;
class DisruptionController;
class EmbeddedJobClient;
class EmbeddedReplicaSetClient;
class Kubelet;
class TaintManager;
class Scheduler;

struct Cluster::Impl
{
    explicit Impl(ClusterOptions o);
    ~Impl();

    ClusterOptions options;
    kube::Timestamp now = 0;
    // Cluster::refuseWrites: "Kind/ns/name" -> refusals left and the answer.
    std::map<std::string, std::pair<int, kube::ApiStatus>> writeRefusals;
    // A refusal due for a write to the object (and one fewer left), or none.
    std::optional<kube::ApiStatus> refusedWrite(api::Kind kind, const std::string &ns,
                                                const std::string &name);
    Rng rng;
    // Event UIDs come from a stream of their own, so how many Events are recorded never shifts
    // the simulation's names, delays or choices.
    Rng eventRng;
    EventLoop loop;
    std::function<void()> instantObserver; // see Cluster::setInstantObserver
    std::uint64_t rv = 0;
    EngineStats stats;

    // ---- store -------------------------------------------------------------------------
    std::map<std::string, kube::ObjectMeta> namespaces;
    std::map<std::string, kube::Node> nodes;
    std::map<std::string, kube::Pod> pods;
    std::map<std::string, kube::DaemonSet> daemonSets;
    std::map<std::string, kube::ControllerRevision> revisions;
    std::map<std::string, kube::ReplicaSet> replicaSets;
    std::map<std::string, kube::Event> events;
    std::map<std::string, kube::PodDisruptionBudget> pdbs;
    // JSON kinds (NodeUpgradeRollout, Lease, Service), kept as the JSON object the API
    // serves: kind -> "namespace/name" -> object.
    std::map<api::Kind, std::map<std::string, kube::Json>> jsonObjects;
    const kube::Json *jsonObject(api::Kind kind, const std::string &key) const; // null if absent
    // The Service allocators' state: cluster IPs and node ports in use.
    std::set<std::string> serviceIps;
    std::set<int> nodePortsInUse;

    // Indexes (values point into the maps above; std::map nodes are stable). A PodIndex maps
    // a pod's name (podsByNode: "namespace/name") to the pod, keyed by a view of the key of
    // the pod's entry in `pods`: that string lives as long as the entry, and a pod leaves every
    // index before its entry is erased (erasePod) or its index keys change (commitPod).
    using PodIndex = std::map<std::string_view, const kube::Pod *>;
    std::unordered_map<std::string, PodIndex> podsByOwner; // controller uid
    std::unordered_map<std::string, PodIndex> podsByNode;  // node()
    // controller uid -> node() -> pod name -> pod: a controller's pods grouped by node, in node
    // order, so a DaemonSet sync merges it with the node list without hashing.
    std::unordered_map<std::string, std::map<std::string, PodIndex>> podsByOwnerNode;
    std::map<std::string, PodIndex> orphanPods; // by namespace
    std::unordered_map<std::string, std::string> daemonSetByUid;
    std::unordered_map<std::string, std::string> replicaSetByUid;
    std::map<std::string, std::shared_ptr<const kube::Json>> specCache; // canonical spec -> shared spec
    // Repeated events (same object, type, reason and message) update one Event: the hash of
    // that text -> the Event recordEvent made for it. Erasing an Event recomputes the hash from
    // its fields and drops the entry only if it still names that Event, as does a write that
    // changes those fields (commitEvent), so an entry never outlives the Event it names.
    std::unordered_map<std::uint64_t, std::map<std::string, kube::Event>::iterator> eventByAggregate;
    // FNV-1a 64 of "kind/namespace/name\ntype\nreason\nmessage" (kind in lower case, no
    // namespace part for a cluster-scoped object), hashed piece by piece without building it.
    static std::uint64_t aggregateHash(std::string_view kind, const std::string &ns, const std::string &name,
                                       const std::string &type, const std::string &reason,
                                       const std::string &message);
    // Events expire an hour after they were last seen, as with the API server's default
    // event TTL; this bounds memory in long sessions.
    static constexpr kube::Duration kEventTtl = 60 * 60 * 1000;
    // At most this many Events are kept: a rollout over thousands of nodes records an Event
    // per pod, and holding an hour of them would cost more memory than the pods themselves.
    // Beyond it the oldest recorded Events are deleted first (watchers see DELETED).
    static constexpr std::size_t kMaxEvents = 10000;
    std::deque<std::pair<kube::Timestamp, std::string>> eventExpiry;
    std::uint64_t eventCounter = 0;
    // Bumped when a pod appears without a controller or a pod's labels or owners change: the
    // only writes after which a controller's claim (adopt/release) can come out differently.
    std::uint64_t podClaimVersion = 0;
    std::uint64_t podWriteVersion = 0; // bumped by every pod write
    // Versioned pod reads (Cluster::pinPods, podPage): while a resourceVersion is pinned, a pod
    // write keeps the version it replaces, as an immutable shared record, as long as a pin falls
    // in that version's lifetime [from, until); the live map stays the one copy of every other
    // pod. Nothing is kept while nothing is pinned.
    struct PodVersion
    {
        std::uint64_t from = 0;  // the write that made it
        std::uint64_t until = 0; // the write that replaced or deleted it
        std::shared_ptr<const kube::Pod> pod;
    };
    std::map<std::uint64_t, int> podPins;                      // resourceVersion -> lists reading it
    std::map<std::string, std::vector<PodVersion>> podHistory; // key -> versions, oldest first
    bool podVersionWanted(const kube::Pod &current) const;     // a pin falls in its lifetime
    void keepPodVersion(const std::string &k, const kube::Pod &old, std::uint64_t until);
    void prunePodHistory();
    // The version of the pod at `k` a read at `rv` sees: `live` (the stored pod, or null) if it
    // was written at or before rv, else the kept version alive at rv; null if none was.
    const kube::Pod *podAt(const std::string &k, const kube::Pod *live, std::uint64_t rv) const;
    std::uint64_t nodeSetVersion = 1; // bumped when a node is added or removed (never 0)

    // ---- watch -------------------------------------------------------------------------
    struct Watcher
    {
        int id;
        std::optional<api::Kind> kind;
        std::function<void(const WatchEvent &)> callback;
    };
    std::vector<Watcher> watchers;
    int nextWatchId = 1;

    // ---- simulation --------------------------------------------------------------------
    std::map<std::string, FaultKind> faults;
    bool logs = true; // activity and emitted are kept (Cluster::stopLogs)
    std::vector<Activity> activity;
    std::vector<EmittedEvent> emitted;
    std::unique_ptr<EmbeddedDaemonSetClient> dsClient; // before the controller it serves
    std::unique_ptr<controllers::DaemonSetController> dsController;
    std::unique_ptr<EmbeddedReplicaSetClient> rsClient; // before the controller it serves
    std::unique_ptr<controllers::ReplicaSetController> rsController;
    std::unique_ptr<Kubelet> kubelet;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<DisruptionController> disruption;
    std::unique_ptr<TaintManager> taintManager;
    std::unique_ptr<EmbeddedJobClient> jobClient; // before the controller it serves
    std::unique_ptr<controllers::JobController> jobController;
    // Pod specs with the DefaultTolerationSeconds tolerations, by the spec they were made from
    // (kept alive here, so its address cannot be reused).
    std::map<const kube::Json *,
             std::pair<std::shared_ptr<const kube::Json>, std::shared_ptr<const kube::Json>>>
        admittedSpecs;

    bool continuous() const { return options.mode == Mode::Continuous; }
    static std::string key(const std::string &ns, const std::string &name)
    {
        return ns.empty() ? name : ns + "/" + name;
    }
    std::string nextResourceVersion() { return std::to_string(++rv); }
    // Informer delivery: immediate in stepped mode (the unit-test harness observes its own
    // writes at once); in continuous mode after everything already queued for this instant.
    void deliver(std::function<void()> fn);
    std::shared_ptr<const kube::Json> internSpec(kube::Json spec);
    std::string generateName(const std::string &prefix, const std::string &ns, api::Kind kind);
    // Creates the namespace unless it exists: `declared` (a create's metadata) brings its labels,
    // annotations, owners and the metadata kept verbatim.
    void ensureNamespace(const std::string &ns, const kube::ObjectMeta *declared = nullptr);

    // ---- typed writes ------------------------------------------------------------------
    const kube::Pod *commitPod(kube::Pod pod, bool isNew);
    // A MODIFIED write of the stored pod, edited in place (no copy of the pod): for status
    // writes. The edit may change status fields, nodeName and deletion fields, not the name,
    // namespace, labels or owner references.
    void updatePod(std::map<std::string, kube::Pod>::iterator it,
                   const std::function<void(kube::Pod &)> &edit);
    void erasePod(const std::string &key);
    const kube::Node *commitNode(kube::Node node, bool isNew);
    void eraseNode(const std::string &name);
    const kube::DaemonSet *commitDaemonSet(kube::DaemonSet ds, bool isNew);
    void eraseDaemonSet(const std::string &key);
    const kube::ControllerRevision *commitRevision(kube::ControllerRevision cr, bool isNew);
    void eraseRevision(const std::string &key);
    const kube::ReplicaSet *commitReplicaSet(kube::ReplicaSet rs, bool isNew);
    void eraseReplicaSet(const std::string &key);
    const kube::Event *commitEvent(kube::Event ev, bool isNew);
    void eraseEvent(const std::string &key);
    void expireEvents();
    const kube::PodDisruptionBudget *commitPdb(kube::PodDisruptionBudget pdb, bool isNew);
    void erasePdb(const std::string &key);
    const kube::Json *commitJson(api::Kind kind, kube::Json obj, bool isNew);
    void eraseJson(api::Kind kind, const std::string &key);
    // jsonkinds.cpp: a JSON kind's object decoded, checked, defaulted and in canonical form,
    // from a create (old null; uid and creation time set) or an update (server-owned metadata
    // already taken from old) or status update; allocates nothing yet.
    kube::Result<kube::Json> prepareJsonObject(api::Kind kind, kube::Json manifest, const kube::Json *old,
                                               bool statusOnly);
    // prepareJsonObject's part for a NodeUpgradeRollout (from the manifest, its own metadata).
    kube::Result<kube::Json> prepareRollout(kube::Json manifest, const kube::Json *old, bool statusOnly);
    // servicekind.cpp: prepareJsonObject's part for a Service, given the object with its
    // metadata; its ports (node ports allocated) and cluster IP (allocated) as parts of it.
    kube::Result<kube::Json> prepareService(kube::Json object, const kube::Json &manifest,
                                            const kube::Json *old, bool statusOnly);
    kube::Result<kube::Json> servicePorts(const kube::Json &spec, const kube::Json *oldSpec,
                                          const ServiceShape &shape, std::vector<std::string> &errors) const;
    kube::Result<void> serviceClusterIp(kube::Json &spec, const kube::Json *oldSpec, bool update,
                                        const ServiceShape &shape, std::vector<std::string> &errors) const;
    // jobkind.cpp: prepareJsonObject's part for a Job, given the object with its metadata.
    kube::Result<kube::Json> prepareJob(kube::Json object, const kube::Json &manifest, const kube::Json *old,
                                        bool statusOnly);
    // The allocations (Service cluster IPs, node ports) of an object about to be stored, and
    // of one leaving the store.
    void reserveJsonObject(api::Kind kind, const kube::Json &obj, const kube::Json *old);
    void releaseJsonObject(api::Kind kind, const kube::Json &gone);

    // API-level pod operations used by controllers and the facade.
    kube::Result<const kube::Pod *> createPod(kube::Pod pod);
    // The checks of a pod create before anything is written: the default namespace, the
    // generated name, AlreadyExists.
    kube::Result<void> preparePod(kube::Pod &pod);
    // Graceful in continuous mode (deletionTimestamp, then the kubelet removes it); at once in
    // stepped mode or with grace 0. Deleting a pod already being deleted changes nothing.
    kube::Result<void> deletePod(const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> gracePeriodSeconds = std::nullopt);
    // A controller's DELETE of a pod, as its pod control sends it through the API: a refusal
    // injected with Cluster::refuseWrites is its answer, otherwise deletePod's.
    kube::Result<void> deletePodAsClient(const std::string &ns, const std::string &name);
    // The pods/eviction subresource (eviction.cpp).
    kube::Result<void> evictPod(const std::string &ns, const std::string &name, const EvictOptions &options);

    // `source`: the reporting component ("node-controller"); by default the controller of `kind`.
    // `fieldPath`: the part of the object the event is about (a container: spec.containers{c}).
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &name,
                     const std::string &uid = {}, const char *source = nullptr,
                     const std::string &fieldPath = {});

    // ---- JSON API (apiserver.cpp) ------------------------------------------------------
    // dryRun: everything up to the store write (see WriteOptions).
    kube::Result<kube::Json> apiCreate(const kube::Json &manifest, bool dryRun = false);
    // `current`: the stored object as JSON when the caller has just read it (null: read here).
    kube::Result<kube::Json> apiUpdate(kube::Json manifest, bool statusOnly, bool dryRun = false,
                                       kube::Json current = kube::Json());
    // apiCreate's part for each kind (the JSON kinds share one; createPodObject ends in
    // createPod).
    kube::Result<kube::Json> createNamespace(WriteContext &u);
    kube::Result<kube::Json> createNode(WriteContext &u);
    kube::Result<kube::Json> createPodObject(WriteContext &u);
    kube::Result<kube::Json> createDaemonSet(WriteContext &u);
    kube::Result<kube::Json> createRevision(WriteContext &u);
    kube::Result<kube::Json> createReplicaSet(WriteContext &u);
    kube::Result<kube::Json> createEvent(WriteContext &u);
    kube::Result<kube::Json> createPdb(WriteContext &u);
    kube::Result<kube::Json> createJsonKind(WriteContext &u);
    // apiUpdate's part for each kind (the JSON kinds share one).
    kube::Result<kube::Json> updateNamespace(WriteContext &u);
    kube::Result<kube::Json> updateNode(WriteContext &u);
    kube::Result<void> updateNodeStatus(kube::Node node); // Cluster::updateNodeStatus
    kube::Result<Cluster::StatusStored> updateRolloutStatus(const std::string &name,
                                                            const std::string &resourceVersion,
                                                            const api::NodeUpgradeRolloutStatus &status);
    kube::Result<kube::Json> updatePod(WriteContext &u);
    kube::Result<kube::Json> updateDaemonSet(WriteContext &u);
    kube::Result<kube::Json> updateRevision(WriteContext &u);
    kube::Result<kube::Json> updateReplicaSet(WriteContext &u);
    kube::Result<kube::Json> updateEvent(WriteContext &u);
    kube::Result<kube::Json> updatePdb(WriteContext &u);
    kube::Result<kube::Json> updateJsonKind(WriteContext &u);
    kube::Result<kube::Json> apiGet(api::Kind kind, const std::string &ns, const std::string &name) const;
    kube::Result<kube::Json> apiPatch(api::Kind kind, const std::string &ns, const std::string &name,
                                      api::PatchType type, const kube::Json &patch,
                                      const WriteOptions &options, bool statusOnly = false);
    kube::Result<void> apiDelete(api::Kind kind, const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> grace,
                                 DeletePropagation propagation = DeletePropagation::Background);
    kube::Result<void> deleteWorkload(api::Kind kind, const std::string &ns, const std::string &name,
                                      std::optional<std::int64_t> grace, DeletePropagation propagation);
    kube::Result<void> deleteJob(const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> grace, DeletePropagation propagation);
    kube::Result<void> deleteNamespace(const std::string &name);
    // The orphan finalizer's work: the owner's reference removed from every pod and revision
    // that carries it (MODIFIED writes); the objects themselves stay.
    void orphanDependents(const std::string &ownerUid);
    kube::Json objectJson(api::Kind kind, const std::string &key) const; // null if absent

    // ---- clock -------------------------------------------------------------------------
    void runTimersUntil(kube::Timestamp t);
    bool runNextInstant(kube::Timestamp limit); // runs all timers of the next instant <= limit

private:
    void emit(WatchEvent &ev);
    void indexPod(const std::string &k, const kube::Pod &p); // k: the pod's key in `pods`
    void unindexPod(const kube::Pod &p, const std::string &node);
    const kube::Pod *emitPod(const std::string &k, const kube::Pod &slot, bool isNew);
};

} // namespace engine
