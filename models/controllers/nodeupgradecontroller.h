#pragma once
// NodeUpgradeController — walks the nodes of every NodeUpgradeRollout from Pending through
// Cordoned, DrainingManaged, DrainingUnmanaged, Restarting and Soaking to Upgraded (docs
// node-upgrade.md §3), one idempotent pass per rollout on a fixed virtual-time period and
// right after every admin action.
//
// Assumptions and invariants:
// - Every decision is taken from observed objects on each pass (I5): nodes, pods,
//   ReplicaSets, the rollout's spec and status, and the node annotations that carry the
//   per-node state machine. The observed view is kept up to date from the watches (every write
//   reaches them synchronously): a pass rebuilds only the nodes whose node object or pods
//   changed, keeps the ReplicaSets' ready counts pod by pod, and visits only the nodes that
//   can act (in flight, or with an admin request, a missing taint or timestamp); the others are
//   counted from per-node summaries. A spec change, a node added or removed, a ReplicaSet
//   created or deleted, or a second rollout rebuilds the view from the store. The view equals
//   a fresh reading of the store at every pass (`verifyIncremental` checks it), so dropping it
//   (restart) changes no decision. Besides it: the deadline a node that only waits (for an
//   acknowledgement, a return, a soak) set at its last visit, so it is not visited before then
//   unless it or its pods change (dropped, it costs one visit), and reporting conveniences
//   (event rate limits, deletions seen through the watch).
// - Managed pods are deleted one controller-gate check at a time (I2) and the count of
//   deletions in flight per controller is persisted in the rollout status.
// - Only nodes carrying `upgrade/cordoned-by-controller=true` are ever uncordoned (I3); an
//   admin's cordon is never undone and an admin's uncordon is never fought.
// - The kamikaze is sent only after a fresh pod list of the node shows no managed or
//   unmanaged pod (I4).
// - New nodes are selected only while the unavailable count is below the budget (I1).
// - Pause stops disruption only: classification, status, metrics, events and the uncordon of
//   an abort keep running (I6).
//
// Actor of admin actions: the `actor` argument of control(); scenario steps use "admin".

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradelogic.h"
#include "models/api/nodeupgradephrases.h"
#include "models/controllers/nodeupgrademetrics.h"
#include "models/controllers/upgradecluster.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace controllers {

struct PodInfo; // one pod of a node in a pass (nodeupgradecontroller.cpp)

struct NodeUpgradePassReport
{
    kube::Timestamp time = 0;
    std::string rollout;
    api::RolloutPhase phase = api::RolloutPhase::Pending;
    int unavailableBefore = 0; // before this pass selected anything
    int unavailableAfter = 0;
    int maxUnavailable = 1;
    std::vector<std::string> selected;
};

// Hooks for tests (invariant checks) and tracing; called synchronously, before the write.
class NodeUpgradeObserver
{
public:
    virtual ~NodeUpgradeObserver() = default;
    virtual void beforePodDelete(const std::string & /*rollout*/, const kube::Pod & /*pod*/,
                                 api::PodClass /*cls*/, api::GateVerdict /*verdict*/, bool /*forced*/)
    {}
    virtual void beforeUncordon(const std::string & /*rollout*/, const kube::Node & /*node*/) {}
    virtual void beforeKamikaze(const std::string & /*rollout*/, const kube::Node & /*node*/) {}
    virtual void afterPass(const NodeUpgradePassReport & /*report*/) {}
};

// What the first pass after a resume would do (docs §7 "resume preview").
struct NodeUpgradePreview
{
    std::vector<std::string> nextNodes; // to be selected, in order
    struct Deletion
    {
        std::string pod; // NS/NAME
        std::string node;
        api::Phrase why; // "managed, rs/web 10/10 ready", "unmanaged, countdown expired"
    };
    std::vector<Deletion> deletions;
    std::vector<std::string> kamikazes; // nodes whose agent would be told to restart
    api::Phrase summaryPhrase() const;  // one line for events and the CLI
    std::string summary() const;        // the same in English
};

// Who cordoned a node: this rollout's controller, someone else (an admin, another tool), nobody.
enum class CordonOwner { None, Controller, SomeoneElse };
const char *cordonOwnerName(CordonOwner owner); // "", "controller", "someone else"

// One row of the per-node table (docs §10).
struct NodeUpgradeRow
{
    std::string name;
    std::string zone;
    int queuePosition = 0; // 1-based among Pending nodes; 0 = not queued
    api::NodePhase phase = api::NodePhase::UpToDate;
    kube::Duration timeInPhase = 0;
    api::Phrase nextDeadline; // "drainTimeout 12m/30m"
    api::Phrase reason;       // a reason code (Failed, Blocked) or why a pending node waits
    std::vector<api::Phrase> blockers;
    int attempt = 0;
    CordonOwner cordonOwner = CordonOwner::None;
    bool held = false;
    bool blocked = false;
    std::string agentVersion;
};

// The per-node table of a rollout from what the cluster shows (node annotations, the rollout's
// status): what a console watching another controller's rollout can tell. `blockers`
// ("rollout/node" -> the last pass's blockers) is the driving controller's memory, null when
// only observing.
std::vector<NodeUpgradeRow> nodeUpgradeTable(const UpgradeCluster &cluster, const std::string &rollout,
                                             const std::map<std::string, std::vector<api::Phrase>> *blockers);

// An admin action as the API records it (docs node-upgrade.md §7): pause, resume and abort edit
// the rollout's spec; hold, release, skip, retry, force and a node's abort annotate the node;
// acknowledge annotates the rollout's failed nodes. Events go to `events` and to the cluster.
// The controller driving the rollout — this process's or another — acts on it at its next
// pass. NodeUpgradeController::control is this followed by a pass.
kube::Result<void> requestNodeUpgradeControl(UpgradeCluster &cluster, api::NodeUpgradeEvents &events,
                                             const std::string &rollout, const std::string &action,
                                             const std::string &node, const std::string &actor,
                                             const std::string &note);

struct NodeUpgradeControllerOptions
{
    kube::Duration passInterval = 1000;
    kube::Duration eventRepeatInterval = 60 * 1000; // repeating conditions re-emit at most this often
    // Tests: at every pass, also read the whole store afresh and compare it with the view kept
    // from the watches; every difference is recorded (divergences()).
    bool verifyIncremental = false;
    // Benchmarks: measure the controller's thread CPU time (the nanosecond fields of
    // NodeUpgradeControllerTiming). Each reading of that clock is a system call, two per watch
    // event and per write, so it is off unless asked; the counts are kept either way.
    bool measureCpu = false;
};

// The controller's own cost: how many passes and watch events, and (with
// NodeUpgradeControllerOptions::measureCpu) their thread CPU time — its passes, and its watch
// handlers (the view kept from the watches) between passes.
struct NodeUpgradeControllerTiming
{
    std::int64_t passes = 0;
    std::int64_t passNanos = 0;
    std::int64_t watchEvents = 0;
    std::int64_t watchNanos = 0;
    // Inside the passes: the controller's writes (node patches, cordons, taints, evictions and
    // their dry runs, events) and its status updates, with everything the engine does
    // synchronously for them (API validation, watch fan-out to the other informers).
    std::int64_t writeNanos = 0;
    std::int64_t statusNanos = 0;
    std::int64_t fullRebuilds = 0; // views rebuilt from the store (first pass, spec edits, ...)
    std::int64_t nodesRebuilt = 0; // nodes read again because they or their pods changed
    std::int64_t nodesVisited = 0; // nodes that could act, visited by a pass
};

class NodeUpgradeController
{
public:
    NodeUpgradeController(UpgradeCluster &cluster, api::NodeUpgradeEvents &events,
                          std::map<std::string, NodeUpgradeMetrics> &metrics,
                          NodeUpgradeControllerOptions options = {});
    ~NodeUpgradeController();
    NodeUpgradeController(const NodeUpgradeController &) = delete;
    NodeUpgradeController &operator=(const NodeUpgradeController &) = delete;

    // Runs one pass over every rollout now (also used after admin actions).
    void pass();
    // Admin actions: pause, resume, abort, acknowledge (rollout), hold, release, skip, retry,
    // force, abort (with node). Followed by a pass.
    kube::Result<void> control(const std::string &rollout, const std::string &action, const std::string &node,
                               const std::string &actor, const std::string &note);
    NodeUpgradePreview preview(const std::string &rollout);
    std::vector<NodeUpgradeRow> table(const std::string &rollout) const;

    void setObserver(NodeUpgradeObserver *observer) { m_observer = observer; }
    const NodeUpgradeControllerOptions &options() const { return m_options; }
    const NodeUpgradeControllerTiming &timing() const { return m_timing; }
    // Differences between the view kept from the watches and a fresh reading of the store
    // (only with verifyIncremental), "time rollout: what".
    const std::vector<std::string> &divergences() const { return m_divergences; }

    struct NodeState;
    struct PassContext;
    struct View;
    struct RolloutView;

private:
    void tick();
    void syncRollout(const api::NodeUpgradeRollout &rollout, PassContext &ctx);
    // syncRollout's sections, in order (docs node-upgrade.md §3, §7, §10)
    bool refuse(PassContext &ctx); // true: refused, the status says why
    void settleInflight(PassContext &ctx);
    void bookkeeping(PassContext &ctx);
    void actOnNodes(PassContext &ctx);
    void queueNodes(PassContext &ctx);
    void startNodes(PassContext &ctx);
    void countNodes(PassContext &ctx);
    void findStall(PassContext &ctx);
    void decidePhase(PassContext &ctx);
    void phaseEvents(PassContext &ctx);
    void sample(PassContext &ctx);
    void endPass(PassContext &ctx);
    void onPod(const api::WatchEvent &ev);
    void reportPod(const api::WatchEvent &ev);
    void onNode(const api::WatchEvent &ev);
    void onReplicaSet(const api::WatchEvent &ev);
    void notePod(const api::WatchEvent &ev); // the view: pod index and ReplicaSet ready counts
    void markDirty(const std::string &node);
    void resyncPods();
    // Brings the rollout's view up to date (dirty nodes, or a full rebuild); dry runs get a
    // fresh one.
    void refresh(RolloutView &rv, PassContext &ctx, bool fresh);
    bool buildNode(const kube::Node &n, NodeState &ns, PassContext &ctx) const;
    void fillPods(NodeState &ns) const;
    void summarize(RolloutView &rv, std::size_t i, PassContext &ctx);
    void unsummarize(RolloutView &rv, std::size_t i);
    void verify(RolloutView &rv, PassContext &ctx);

    // per-node steps
    void processNode(NodeState &ns, PassContext &ctx);
    bool adminRequest(NodeState &ns, PassContext &ctx); // true: abort, skip or retry acted on
    void drain(NodeState &ns, PassContext &ctx);
    struct DrainStep;
    void drainStuck(NodeState &ns, PassContext &ctx, DrainStep &d);
    bool drainManaged(NodeState &ns, PassContext &ctx, DrainStep &d);   // false: a deletion was refused
    bool drainUnmanaged(NodeState &ns, PassContext &ctx, DrainStep &d); // false: a deletion was refused
    bool drainDeadlines(NodeState &ns, PassContext &ctx, DrainStep &d); // false: the node was skipped
    bool drainDelete(NodeState &ns, PassContext &ctx, const DrainStep &d, const PodInfo &p,
                     api::GateVerdict v, bool forced, const api::Phrase &why);
    void restarting(NodeState &ns, PassContext &ctx);
    void restartingExternal(NodeState &ns, PassContext &ctx);
    void restartingJob(NodeState &ns, PassContext &ctx);
    void startRestartJob(NodeState &ns, PassContext &ctx, int attempt);
    void returned(NodeState &ns, PassContext &ctx);                           // back on the target: soak
    void awaitReturn(NodeState &ns, PassContext &ctx, kube::Timestamp since); // Failed after returnTimeout
    void syncDrainConditions(const NodeState &ns, PassContext &ctx);
    void soaking(NodeState &ns, PassContext &ctx);
    void markPending(NodeState &ns, PassContext &ctx);
    bool select(NodeState &ns, PassContext &ctx, int position, int slot, int slots); // false: cordon refused
    void sendKamikaze(NodeState &ns, PassContext &ctx, int send);
    void complete(NodeState &ns, PassContext &ctx, bool outOfBand);
    void fail(NodeState &ns, PassContext &ctx, const std::string &reason, const api::Phrase &detail);
    bool uncordon(NodeState &ns, PassContext &ctx); // ours only; false: refused, the cordon stays ours
    void releaseNode(NodeState &ns, PassContext &ctx, api::NodePhase to,
                     bool hold); // uncordon if ours, drop taint
    bool deletePod(NodeState &ns, PassContext &ctx, const kube::Pod &pod, api::PodClass cls,
                   api::GateVerdict verdict, bool forced, const api::Phrase &why);
    // localDataPolicy Block keeps a pod with emptyDir data (a blocker naming it, the node
    // blocked LocalData); false then. A forced drain deletes it anyway.
    bool localDataAllowed(NodeState &ns, PassContext &ctx, const PodInfo &p, std::string &blockedReason);
    // Whether the eviction subresource would let the pod go now (a dry-run eviction); when a
    // PodDisruptionBudget refuses, the node's blockers name it with its numbers and the refusal
    // is reported. Forced deletions do not ask.
    bool evictionAllowed(NodeState &ns, PassContext &ctx, const PodInfo &pod, std::string &blockedReason);
    void setPhase(NodeState &ns, PassContext &ctx, api::NodePhase phase);
    void flush(NodeState &ns, PassContext &ctx);

    void timedStatus(PassContext &ctx, const api::NodeUpgradeRolloutStatus &st);
    // Every write's answer passes here. A refusal is reported (event WriteRefused naming the write
    // and the API server's answer, the rollout's WritesRefused condition) and backs the object off
    // — 1 s, doubled with every refusal in a row up to 5 min, as client-go's rate-limited work
    // queue requeues an item; nothing is done to the object until then. An accepted write ends
    // the backoff. True when accepted.
    bool accepted(PassContext &ctx, const std::string &object, api::Phrase write,
                  const kube::ApiStatus *refusal);
    bool backingOff(const PassContext &ctx, const std::string &object) const;
    void setHeadline(PassContext &ctx, api::Phrase headline); // status.headline and the phrase
    // writes (no-ops in a dry run)
    void report(PassContext &ctx, const std::string &object, api::UpgradeReason reason,
                const api::UpgradeEventParams &params, bool repeating = false);

    UpgradeCluster &m_cluster;
    api::NodeUpgradeEvents &m_events;
    std::map<std::string, NodeUpgradeMetrics> &m_metrics;
    NodeUpgradeControllerOptions m_options;
    NodeUpgradeObserver *m_observer = nullptr;
    int m_podWatch = 0;
    int m_nodeWatch = 0;
    int m_rsWatch = 0;
    std::unique_ptr<View> m_view;
    NodeUpgradeControllerTiming m_timing;
    std::vector<std::string> m_divergences;
    std::shared_ptr<char> m_alive = std::make_shared<char>(0);

    // Reporting memory only (see the header comment).
    std::map<std::string, kube::Timestamp> m_lastEmitted; // repeating event key -> time
    // The English text of the last few parameter sets of each object's repeating reports (by
    // "object\nreason"): a report repeated at every pass is compared with them, not phrased again.
    struct Rendered
    {
        api::UpgradeEventParams params;
        std::string message;
    };
    std::unordered_map<std::string, std::vector<Rendered>> m_rendered;
    const std::string &rendered(const std::string &object, api::UpgradeReason reason,
                                const api::UpgradeEventParams &params);
    std::set<std::string> m_ourDeletions;      // pod UIDs this controller deleted
    std::set<std::string> m_conditionsRefused; // nodes whose drain conditions the server refused
    std::set<std::string> m_reportedPods;      // pod UIDs already reported (manual / rebound)
    struct Note
    {
        std::string node;
        api::UpgradeReason reason;
        api::UpgradeEventParams params;
    };
    std::vector<Note> m_notes;            // observations from the watch, emitted at the next pass
    std::set<std::string> m_removedNodes; // nodes deleted since the last pass
    std::map<std::string, std::string> m_removedOwner; // node -> rollout it belonged to
    struct Backoff
    {
        std::string rollout;
        int refusals = 0;            // in a row
        kube::Timestamp retryAt = 0; // nothing is written to the object before
        api::Phrase message;         // for the WritesRefused condition
    };
    std::map<std::string, Backoff> m_backoff;                   // object ("node/n1") -> its refused writes
    std::map<std::string, std::vector<api::Phrase>> m_blockers; // "rollout/node" -> blockers of the last pass
};

} // namespace controllers
