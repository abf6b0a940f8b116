#pragma once
// DaemonSetController — the upstream DaemonSet controller (pkg/controller/daemon) on a
// DaemonSetClient (its listers and writes; the simulated cluster implements it). Handlers only
// enqueue keys and observe expectations; sync(key) re-reads everything and is idempotent;
// decisions are the pure functions of daemonsetlogic.h.
//
// Engine decisions and assumptions (see daemonset-semantics.md, "Engine decisions"):
// - Models Kubernetes 1.32/1.33: template metadata keeps "creationTimestamp":null, so
//   ControllerRevision data is byte-identical to such a cluster's and kubectl's byte-equality
//   check ("skipped rollback") agrees with the engine.
// - Revision names are <ds>-<hash> with the upstream hash shape (FNV-1a 32 + collision bytes,
//   decimal, SafeEncodeString), but the hashed bytes are the engine's canonical dump (sorted
//   compact JSON of the template), not Go's struct dump. Every decision compares names and data
//   bytes only, so behaviour is unaffected; against real clusters the app never hashes.
// - Where upstream iterates a Go map (random order), the engine walks nodes by name: rolling
//   update candidates are replaced in node-name order, creates are issued in node-name order.
// - Availability uses the recent boundary: lastTransitionTime + minReadySeconds <= now.
// - BurstReplicas = 250 creates and 250 deletes per sync; creates in slow-start batches
//   1, 2, 4, ...; expectations expire after 5 minutes as upstream.
// - Continuous mode: after a sync a key waits kSyncInterval (500 ms) plus 0.1 ms per node of
//   virtual time before its next sync; events in between coalesce into one sync (the work
//   queue's dedup), as they would while a real controller is busy with a large DaemonSet. The
//   first event after a quiet period is handled at once. The number of syncs is then bounded
//   by virtual time, not by pod events, and a rollout's cost grows about linearly with nodes.
// - Failed daemon pods are deleted with a per-node exponential backoff (1 s doubling to 15 min)
//   keyed by DaemonSet UID, observedGeneration and node, as upstream.

#include "models/api/daemonsetlogic.h"
#include "models/api/watchevent.h"
#include "models/controllers/daemonsetclient.h"
#include "models/controllers/syncqueue.h"

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace controllers {

class DaemonSetController
{
public:
    static constexpr int kBurstReplicas = 250;
    static constexpr kube::Duration kSyncInterval = 500;
    static constexpr kube::Duration kSyncMicrosPerNode = 100;
    static constexpr kube::Duration kExpectationsTimeout = 5 * 60 * 1000;

    explicit DaemonSetController(DaemonSetClient &client);

    // Informer handlers, called for every committed write of the kind.
    void onDaemonSet(const api::WatchEvent &ev);
    void onPod(const api::WatchEvent &ev);
    void onNode(const api::WatchEvent &ev);
    void onRevision(const api::WatchEvent &ev);

    // Called by the cluster whenever the pods a controller owns on a node may have changed
    // (added, removed, or written): keeps the per-DaemonSet node -> pods view current.
    void podsChanged(const std::string &ownerUid, const std::string &node);

    void enqueue(const std::string &key);
    void enqueueAfter(const std::string &key, kube::Duration delay);

    // One syncDaemonSet. Errors are returned (and, in continuous mode, requeued with backoff).
    SyncResult sync(const std::string &key);

    struct Expectations
    {
        int add = 0;
        int del = 0;
        kube::Timestamp timestamp = 0;
    };
    bool satisfiedExpectations(const std::string &key) const;
    const std::map<std::string, Expectations> &expectations() const { return m_expectations; }

private:
    struct SyncContext;

    void processKey(const std::string &key);
    void scheduleAt(const std::string &key, kube::Timestamp due);

    std::vector<const kube::Pod *> daemonPods(const kube::DaemonSet &ds, const kube::LabelSelector &selector);
    kube::Result<std::vector<const kube::ControllerRevision *>>
    controlledHistories(const kube::DaemonSet &ds, const kube::LabelSelector &sel);
    const std::vector<api::NodeDaemonPods> &nodesToDaemonPods(SyncContext &ctx, bool includeDeletedTerminal);
    kube::Result<std::string> constructHistory(SyncContext &ctx);
    kube::Result<const kube::ControllerRevision *> snapshot(SyncContext &ctx, std::int64_t revision);
    kube::Result<void> manage(SyncContext &ctx);
    kube::Result<void> rollingUpdate(SyncContext &ctx);
    kube::Result<void> syncNodes(SyncContext &ctx, const std::vector<std::string> &podsToDelete,
                                 const std::vector<std::string> &nodesNeedingPods);
    kube::Result<void> cleanupHistory(SyncContext &ctx);
    void updateDaemonSetStatus(SyncContext &ctx, bool updateObservedGen);

    void setExpectations(const std::string &key, int add, int del);
    void creationObserved(const std::string &key);
    void deletionObserved(const std::string &key);
    void lowerExpectations(const std::string &key, int add, int del);

    bool failedPodAllowed(const kube::DaemonSet &ds, const std::string &node, kube::Duration *delay);

    DaemonSetClient &m_c;
    std::map<std::string, Expectations> m_expectations;
    SyncQueue m_queue;
    struct Backoff
    {
        kube::Duration duration = 0;
        kube::Timestamp lastUpdate = 0;
    };
    std::map<std::string, Backoff> m_failedPodBackoff;
    std::map<std::string, std::uint64_t> m_claimedAt; // DS uid -> podClaimVersion + 1 of its last claim
    std::vector<api::NodeDaemonPods> m_entries;       // reused between passes and syncs
    std::vector<api::NodeDaemonPods> m_entriesAll;    // the same, terminal deleted pods included

    // The node list in name order and each node's position in it, for m_c.nodeSetVersion().
    std::uint64_t m_nodesAt = 0;
    std::vector<const kube::Node *> m_nodeList;
    std::unordered_map<std::string, std::size_t> m_nodeIndex;
    void refreshNodeList();

    // Per DaemonSet (by UID): nodesToDaemonPods' result for every existing node, kept between
    // syncs. Built in full when a node was added or removed or the template's pod spec (which
    // decides nodeShouldRunDaemonPod) changed; otherwise only the nodes named by podsChanged
    // since the last pass are refilled, and only the nodes written since (onNode) are asked
    // nodeShouldRunDaemonPod again, so a sync neither re-merges every node's pods nor re-reads
    // every node while a node-agent upgrade writes to a few of them at every pass.
    struct NodeView
    {
        NodeView() = default;
        NodeView(const NodeView &) = delete; // predicate.spec points into the view itself
        NodeView &operator=(const NodeView &) = delete;
        std::uint64_t nodesAt = 0;         // m_c.nodeSetVersion() of the layout; 0: none
        kube::Json podSpec;                // the template spec the `should` values are for
        api::DaemonPodPredicate predicate; // of podSpec (its spec points to podSpec)
        std::vector<api::NodeDaemonPods> entries;
        std::vector<std::size_t> dirty;        // entries whose pods or node changed since the last pass
        std::vector<char> isDirty;             // parallel to entries: kPodsDirty | kNodeDirty
        std::vector<std::string> dirtyMissing; // the same for nodes that do not exist
        std::set<std::string> missing;         // nodes that do not exist but still have pods
        // Entries podsShouldBeOnNode may act on (the others hold nothing to create or delete).
        std::set<std::size_t> busy;
        // Each entry's status share and their sum, and each entry's part in the rolling update,
        // kept as entries are refilled for one template (its hash and generation) while
        // minReadySeconds is 0 (availability then does not depend on the time).
        struct KeptFor
        {
            bool valid = false;
            std::string hash;
            std::optional<std::int64_t> generation;
            bool holds(const std::string &h, std::optional<std::int64_t> g, bool timeless) const
            {
                return valid && timeless && hash == h && generation == g;
            }
            void keep(const std::string &h, std::optional<std::int64_t> g)
            {
                valid = true;
                hash = h;
                generation = g;
            }
        };
        std::vector<api::StatusShare> shares;
        api::StatusShare total;
        KeptFor sharesFor;
        std::vector<api::RollingNode> rolls;
        KeptFor rollsFor;
    };
    std::unordered_map<std::string, NodeView> m_views;
    static constexpr char kPodsDirty = 1, kNodeDirty = 2;
    void markDirty(NodeView &v, std::size_t index, char what);
    NodeView &nodeView(SyncContext &ctx);
    void refilled(NodeView &v, std::size_t index, const SyncContext &ctx);
    void fillEntry(const kube::DaemonSet &ds, const std::string &node, std::vector<const kube::Pod *> &out,
                   bool includeDeletedTerminal) const;
};

} // namespace controllers
