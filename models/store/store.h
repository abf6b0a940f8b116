#pragma once
// Store — the object store and the one API handler over it, as kube-apiserver's registry and
// etcd are one to their clients: an ordered map per kind keyed "namespace/name", its indexes,
// the global resourceVersion, and every request the API serves — create, update (PUT), apply,
// patch, the status and scale subresources, get, list, delete with preconditions and
// propagation, eviction through PodDisruptionBudgets, watches — with the defaulting, validation,
// admission and preconditions of models/api. The console, the API server (models/server) and
// kubectl through it get the same answer from the same rules.
//
// What the store knows of the rest of the cluster is its informers: handlers registered per kind
// (addInformer) that every write reaches, in registration order, before the public watchers
// (watch), and two observers of index changes (setOwnedPodsObserver, setNodeReadinessObserver).
// The simulated cluster (models/sim) registers its controllers and components there; nothing here
// includes them (cmake/IncludeRules.cmake).
//
// The clock (`now`) and the random stream names and uids are drawn from (`rng`) are the
// simulation's: the cluster advances the one and draws its delays from the other, so that one
// seed gives one cluster, byte for byte.
//
// Invariants: every write goes through commit*/erase* below, which bump the one global
// resourceVersion, keep the pod indexes in step and fan the change out (informers first, then
// public watchers); a write that changes nothing is not made. Iteration that can affect output
// walks ordered maps or sorted vectors only. Not thread-safe: its owner drives it alone.
//
// The stored objects and indexes are public to the simulated components that live inside the
// cluster (kubelets, scheduler, disruption and taint controllers) and read them as a cache;
// controllers (models/controllers) see the store only through their clients.

#include "models/api/deleteoptions.h"
#include "models/api/kind.h"
#include "models/api/strategicmerge.h"
#include "models/api/watchevent.h"
#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"
#include "models/store/rng.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace api {
struct NodeUpgradeRolloutStatus;
}

namespace store {

using api::DeleteOptions;
using api::DeletePropagation;
using api::EvictOptions;
using api::WatchEvent;

// Options of a create, update or patch (metav1.CreateOptions / UpdateOptions / PatchOptions).
struct WriteOptions
{
    // dryRun=All: everything a write does up to storing it (defaulting, validation,
    // preconditions, generations, generated names and uids); the answer is the object as it
    // would be stored, and nothing is stored, counted or watched. A would-be created object has
    // no resourceVersion; an updated one keeps the stored one.
    bool dryRun = false;
    // A patch: the API server's decoding of the patched object (its unknown fields), called
    // before it is validated; an error refuses the patch.
    std::function<kube::Result<void>(kube::Json &object)> decode;
};

// An event as recorded (also stored as a core/v1 Event object).
struct EmittedEvent
{
    kube::Timestamp time = 0;
    std::string object; // "daemonset/default/web", "node/node-3", "pod/default/web-x8k2p"
    std::string type;   // Normal or Warning
    std::string reason;
    std::string message;
};

// What a typed status write stored: nothing (the status was already that), the status as given,
// or the status as the server read it back (it differed from the one given).
enum class StatusStored { Unchanged, AsGiven, Normalized };

// A page of a consistent paged read of the pods (Store::podPage).
struct PodPage
{
    std::vector<kube::Pod> pods; // copies, in key order (namespace, then name)
    std::string lastKey;         // "namespace/name" of the last pod in `pods`
    bool more = false;           // pods that `keep` accepts remain after lastKey
};

struct StoreOptions
{
    std::uint64_t seed = 1;
    kube::Timestamp start = 0;
    // Pods bound to a node are deleted gracefully (a deletionTimestamp, then a kubelet removes
    // them); otherwise every deletion is at once (the stepped unit-test harness).
    bool gracefulDeletion = true;
};

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

// Calls f(key, object) for each entry of a store map in `ns` (every entry when ns is empty or
// the kind is cluster-scoped), in key order.
template <typename Map, typename F>
void forRange(const Map &map, const std::string &ns, bool namespaced, F &&f)
{
    if (!namespaced || ns.empty()) {
        for (const auto &[k, v] : map)
            f(k, v);
        return;
    }
    const std::string prefix = ns + "/";
    for (auto it = map.lower_bound(prefix); it != map.end() && it->first.rfind(prefix, 0) == 0; ++it)
        f(it->first, it->second);
}

class Store
{
public:
    explicit Store(const StoreOptions &options);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // ---- the API handler (requests.cpp) --------------------------------------------------
    // Manifests carry apiVersion/kind/metadata. Namespaces referenced by objects exist
    // implicitly. All writes bump the one global resourceVersion; no-op writes change nothing.
    kube::Result<kube::Json> create(const kube::Json &manifest, const WriteOptions &options = {});
    // PUT: full replacement. A metadata.resourceVersion that differs from the stored one is a
    // Conflict. Status in the body is ignored (use updateStatus).
    kube::Result<kube::Json> update(const kube::Json &manifest, const WriteOptions &options = {});
    // PUT .../status: only status changes (DaemonSet: collisionCount may not decrease).
    kube::Result<kube::Json> updateStatus(const kube::Json &manifest, const WriteOptions &options = {});
    // Server-side apply by the field manager "daemonscope" with forced conflicts (fieldmanager.h).
    kube::Result<kube::Json> apply(const kube::Json &manifest);
    // PUT nodes/NAME/status of a typed node (see Cluster::updateNodeStatus).
    kube::Result<void> updateNodeStatus(kube::Node node);
    // PUT nodeupgraderollouts/NAME/status of a typed status (see Cluster::updateRolloutStatus).
    kube::Result<StatusStored> updateRolloutStatus(const std::string &name,
                                                   const std::string &resourceVersion,
                                                   const api::NodeUpgradeRolloutStatus &status);
    kube::Result<kube::Json> get(api::Kind kind, const std::string &ns, const std::string &name) const;
    // List JSON ({"kind":"DaemonSetList","items":[...]}); ns empty = all namespaces.
    kube::Result<kube::Json> list(api::Kind kind, const std::string &ns = {},
                                  const std::string &labelSelector = {}) const;
    kube::Result<kube::Json> patch(api::Kind kind, const std::string &ns, const std::string &name,
                                   api::PatchType type, const kube::Json &patch,
                                   const WriteOptions &options = {});
    kube::Result<kube::Json> patchStatus(api::Kind kind, const std::string &ns, const std::string &name,
                                         api::PatchType type, const kube::Json &patch,
                                         const WriteOptions &options = {});
    kube::Result<void> remove(api::Kind kind, const std::string &ns, const std::string &name,
                              std::optional<std::int64_t> gracePeriodSeconds = std::nullopt,
                              DeletePropagation propagation = DeletePropagation::Background);
    // DELETE as the API serves it: the preconditions checked against the stored object, then
    // the deletion (none for a dry run); the answer is the object as it is afterwards.
    kube::Result<kube::Json> remove(api::Kind kind, const std::string &ns, const std::string &name,
                                    const DeleteOptions &options);
    // POST pods/NAME/eviction (eviction.cpp).
    kube::Result<void> evict(const std::string &ns, const std::string &name,
                             const EvictOptions &options = {});
    // The scale subresource of a ReplicaSet (scale.cpp).
    kube::Result<kube::Json> getScale(api::Kind kind, const std::string &ns, const std::string &name) const;
    kube::Result<kube::Json> updateScale(api::Kind kind, const std::string &ns, const std::string &name,
                                         const kube::Json &scale, const WriteOptions &options = {});
    kube::Result<kube::Json> patchScale(api::Kind kind, const std::string &ns, const std::string &name,
                                        api::PatchType type, const kube::Json &patch,
                                        const WriteOptions &options = {});
    // The next `count` writes to one object are refused with `status` (Cluster::refuseWrites).
    void refuseWrites(api::Kind kind, const std::string &ns, const std::string &name, int count,
                      kube::ApiStatus status);
    // A refusal due for a write to the object (and one fewer left), or none.
    std::optional<kube::ApiStatus> refusedWrite(api::Kind kind, const std::string &ns,
                                                const std::string &name);

    // ---- consistent paged reads of the pods (see Cluster::pinPods) -----------------------
    std::uint64_t pinPods();
    void unpinPods(std::uint64_t resourceVersion);
    PodPage podPage(std::uint64_t resourceVersion, const std::string &ns, const std::string &after,
                    std::size_t limit, const std::function<bool(const kube::Pod &)> &keep) const;
    std::size_t podCount(const std::string &ns) const;
    std::size_t keptPodVersions() const;

    // ---- informers and watches -----------------------------------------------------------
    using Handler = std::function<void(const WatchEvent &)>;
    // An internal informer's handler for one kind: every write of that kind reaches it, in the
    // order handlers were added, before any public watcher.
    void addInformer(api::Kind kind, Handler handler);
    // Told (controller uid, node) of every write of a pod that controller owns, for the node the
    // pod was on (and, when it moved, the node it is on now), before the write's informers.
    void
    setOwnedPodsObserver(std::function<void(const std::string &ownerUid, const std::string &node)> observer);
    // Told a node's name after a write changed whether it is Ready, once the write has reached
    // every informer and watcher.
    void setNodeReadinessObserver(std::function<void(const std::string &node)> observer);
    // Public watches: synchronous fan-out from every write, in write order.
    int watch(std::optional<api::Kind> kind, Handler callback);
    void unwatch(int id);

    // ---- state -----------------------------------------------------------------------------
    kube::Timestamp now = 0;
    Rng rng;
    // Event UIDs come from a stream of their own, so how many Events are recorded never shifts
    // the simulation's names, delays or choices.
    Rng eventRng;
    std::uint64_t rv = 0;
    bool gracefulDeletion = true;
    bool logs = true; // recorded events are kept for takeEvents (Cluster::stopLogs)
    std::vector<EmittedEvent> emitted;

    std::map<std::string, kube::ObjectMeta> namespaces;
    std::map<std::string, kube::Node> nodes;
    std::map<std::string, kube::Pod> pods;
    std::map<std::string, kube::DaemonSet> daemonSets;
    std::map<std::string, kube::ControllerRevision> revisions;
    std::map<std::string, kube::ReplicaSet> replicaSets;
    std::map<std::string, kube::Event> events;
    std::map<std::string, kube::PodDisruptionBudget> pdbs;
    // JSON kinds (NodeUpgradeRollout, Lease, Service, Job), kept as the JSON object the API
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
    std::uint64_t nodeSetVersion = 1;  // bumped when a node is added or removed (never 0)

    static std::string key(const std::string &ns, const std::string &name)
    {
        return ns.empty() ? name : ns + "/" + name;
    }
    std::string nextResourceVersion() { return std::to_string(++rv); }
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

    // API-level pod operations used by controllers and the cluster.
    kube::Result<const kube::Pod *> createPod(kube::Pod pod);
    // The checks of a pod create before anything is written: the default namespace, the
    // generated name, AlreadyExists.
    kube::Result<void> preparePod(kube::Pod &pod);
    // Graceful with gracefulDeletion (deletionTimestamp, then the kubelet removes it); at once
    // otherwise or with grace 0. Deleting a pod already being deleted changes nothing.
    kube::Result<void> deletePod(const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> gracePeriodSeconds = std::nullopt);
    // A controller's DELETE of a pod, as its pod control sends it through the API: a refusal
    // injected with refuseWrites is its answer, otherwise deletePod's.
    kube::Result<void> deletePodAsClient(const std::string &ns, const std::string &name);

    // `source`: the reporting component ("node-controller"); by default the controller of `kind`.
    // `fieldPath`: the part of the object the event is about (a container: spec.containers{c}).
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &name,
                     const std::string &uid = {}, const char *source = nullptr,
                     const std::string &fieldPath = {});

private:
    // The handler behind the requests (apiserver.cpp).
    // dryRun: everything up to the store write (see WriteOptions).
    kube::Result<kube::Json> apiCreate(const kube::Json &manifest, bool dryRun = false);
    // `current`: the stored object as JSON when the caller has just read it (null: read here).
    kube::Result<kube::Json> apiUpdate(kube::Json manifest, bool statusOnly, bool dryRun = false,
                                       kube::Json current = kube::Json());
    kube::Result<kube::Json> apiPatch(api::Kind kind, const std::string &ns, const std::string &name,
                                      api::PatchType type, const kube::Json &patch,
                                      const WriteOptions &options, bool statusOnly = false);
    kube::Result<void> apiDelete(api::Kind kind, const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> grace,
                                 DeletePropagation propagation = DeletePropagation::Background);
    kube::Json objectJson(api::Kind kind, const std::string &key) const; // null if absent

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
    kube::Result<void> writeNodeStatus(kube::Node node);
    kube::Result<StatusStored> writeRolloutStatus(const std::string &name, const std::string &resourceVersion,
                                                  const api::NodeUpgradeRolloutStatus &status);
    kube::Result<kube::Json> updatePod(WriteContext &u);
    kube::Result<kube::Json> updateDaemonSet(WriteContext &u);
    kube::Result<kube::Json> updateRevision(WriteContext &u);
    kube::Result<kube::Json> updateReplicaSet(WriteContext &u);
    kube::Result<kube::Json> updateEvent(WriteContext &u);
    kube::Result<kube::Json> updatePdb(WriteContext &u);
    kube::Result<kube::Json> updateJsonKind(WriteContext &u);
    kube::Result<void> deleteWorkload(api::Kind kind, const std::string &ns, const std::string &name,
                                      std::optional<std::int64_t> grace, DeletePropagation propagation);
    kube::Result<void> deleteJob(const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> grace, DeletePropagation propagation);
    kube::Result<void> deleteNamespace(const std::string &name);
    // The orphan finalizer's work: the owner's reference removed from every pod and revision
    // that carries it (MODIFIED writes); the objects themselves stay.
    void orphanDependents(const std::string &ownerUid);
    // The pods/eviction subresource's decision and deletion (eviction.cpp).
    kube::Result<void> evictPod(const std::string &ns, const std::string &name, const EvictOptions &options);

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

    void fanOut(WatchEvent &ev); // to the informers, then the watchers
    // A namespace's write (its resourceVersion already set) fanned out.
    void fanOutNamespace(WatchEvent::Type type, const kube::ObjectMeta &ns);
    void ownedPodsChanged(const std::string &ownerUid, const std::string &node)
    {
        if (m_ownedPodsObserver)
            m_ownedPodsObserver(ownerUid, node);
    }
    void indexPod(const std::string &k, const kube::Pod &p); // k: the pod's key in `pods`
    void unindexPod(const kube::Pod &p, const std::string &node);
    const kube::Pod *emitPod(const std::string &k, const kube::Pod &slot, bool isNew);

    // A refusal due for a write that names its object by a manifest (none for a dry run).
    std::optional<kube::ApiStatus> refusedManifest(const kube::Json &manifest, bool dryRun);
    // Refusals injected with refuseWrites: "Kind/ns/name" -> refusals left and the answer.
    std::map<std::string, std::pair<int, kube::ApiStatus>> m_writeRefusals;
    // Pod specs with the DefaultTolerationSeconds tolerations, by the spec they were made from
    // (kept alive here, so its address cannot be reused).
    std::map<const kube::Json *,
             std::pair<std::shared_ptr<const kube::Json>, std::shared_ptr<const kube::Json>>>
        m_admittedSpecs;

    // Versioned pod reads (pinPods, podPage): while a resourceVersion is pinned, a pod write
    // keeps the version it replaces, as an immutable shared record, as long as a pin falls in
    // that version's lifetime [from, until); the live map stays the one copy of every other pod.
    // Nothing is kept while nothing is pinned.
    struct PodVersion
    {
        std::uint64_t from = 0;  // the write that made it
        std::uint64_t until = 0; // the write that replaced or deleted it
        std::shared_ptr<const kube::Pod> pod;
    };
    std::map<std::uint64_t, int> m_podPins;                      // resourceVersion -> lists reading it
    std::map<std::string, std::vector<PodVersion>> m_podHistory; // key -> versions, oldest first
    bool podVersionWanted(const kube::Pod &current) const;       // a pin falls in its lifetime
    void keepPodVersion(const std::string &k, const kube::Pod &old, std::uint64_t until);
    void prunePodHistory();
    // The version of the pod at `k` a read at `rv` sees: `live` (the stored pod, or null) if it
    // was written at or before rv, else the kept version alive at rv; null if none was.
    const kube::Pod *podAt(const std::string &k, const kube::Pod *live, std::uint64_t rv) const;

    struct Watcher
    {
        int id;
        std::optional<api::Kind> kind;
        Handler callback;
    };
    std::vector<Watcher> m_watchers;
    int m_nextWatchId = 1;
    std::vector<std::vector<Handler>> m_informers; // by api::Kind
    std::function<void(const std::string &, const std::string &)> m_ownedPodsObserver;
    std::function<void(const std::string &)> m_nodeReadinessObserver;
};

} // namespace store
