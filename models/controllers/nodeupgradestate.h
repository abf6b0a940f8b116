#pragma once
// The node-upgrade controller's private state, shared by the files that implement it
// (nodeupgradecontroller.cpp: lifecycle, watches, events; nodeupgradepass.cpp: the pass;
// nodeupgradeview.cpp: the view kept from the watches; nodeupgradenode.cpp: one node's step
// and its drain; nodeupgraderestart.cpp: the restart, return, soak and selection of a node;
// nodeupgradeadmin.cpp: admin actions and the per-node table), and the helpers more than one of
// them uses. Included by those files only.

#include "models/api/kubectldrain.h"
#include "models/controllers/nodeupgradecontroller.h"
#include "models/kube/jsonfield.h"

#include <array>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <time.h>

namespace controllers {

inline bool matches(const kube::StringMap &selector, const kube::StringMap &labels)
{
    for (const auto &[k, v] : selector) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v)
            return false;
    }
    return true;
}

inline std::string podKey(const kube::Pod &p)
{
    return p.metadata.namespace_ + "/" + p.metadata.name;
}

inline std::string dur(kube::Duration d)
{
    return kube::formatDuration(std::max<kube::Duration>(0, d / 1000 * 1000));
}

// Names as a phrase, the "and N more" tail translatable (joinNames in nodeupgradepass.cpp is
// the plain-text form the Degraded condition's message uses).
inline api::Phrase names(const std::vector<std::string> &v, std::size_t max = 5)
{
    return api::Phrase::list(v, ", ", max);
}
inline api::Phrase names(std::vector<api::Phrase> v, std::size_t max = 5)
{
    return api::Phrase::list(std::move(v), ", ", max);
}

// ---- per-pass views ----------------------------------------------------------------------------

struct PodInfo
{
    std::string ns;
    std::string name;
    std::string uid;
    api::PodClass cls = api::PodClass::Unmanaged;
    bool ready = false;
    bool deleting = false;
    bool localData = false; // emptyDir volumes (localDataPolicy)
    std::optional<kube::Timestamp> deletionTimestamp;
    std::int64_t grace = 30;
    std::string controller; // "replicaset/NS/NAME" (managed pods)
    std::string owner;      // "rs/NAME", "none"
    kube::Timestamp created = 0;
    std::string key() const { return ns + "/" + name; }
};

struct NodeUpgradeController::NodeState
{
    std::string name;
    std::string zone;
    std::string version;
    std::string bootID; // status.nodeInfo.bootID
    bool ready = false;
    bool unschedulable = false;
    std::optional<kube::Timestamp> readySince; // Ready condition's last transition
    bool controllerHost = false;
    bool tainted = false; // carries the upgrade/pending taint
    // The node's annotations are read in place from the store (its map nodes are stable and only
    // this controller writes node annotations during a pass); `applied` holds what flush() wrote
    // this pass, so reads see the controller's own writes even if the API server refused them.
    const kube::StringMap *base = nullptr;
    std::map<std::string, std::optional<std::string>> applied;
    std::map<std::string, std::optional<std::string>> patch;
    api::NodePhase phase = api::NodePhase::UpToDate;
    std::vector<PodInfo> managed, unmanaged, daemon;
    std::vector<api::Phrase> blockers;
    // Set by the pass that visited the node when its step only waits for a deadline of its own
    // (an acknowledgement, a return, a soak) and depends on nothing but the node, its pods and
    // the time: until then the node is not visited, unless it or its pods change (which reads
    // it again, with 0 here). 0: visit at every pass.
    kube::Timestamp waitsUntil = 0;
    bool uncordonWanted = false;
    bool taintWanted = false;
    bool untaintWanted = false;

    const std::string *committed(const std::string &k) const
    {
        if (auto it = applied.find(k); it != applied.end())
            return it->second ? &*it->second : nullptr;
        if (!base)
            return nullptr;
        auto it = base->find(k);
        return it == base->end() ? nullptr : &it->second;
    }
    // Committed annotation keys (store plus this pass's flushed writes), in order.
    std::vector<std::string> committedKeys() const
    {
        std::vector<std::string> out;
        if (base)
            for (const auto &[k, v] : *base)
                if (!applied.count(k))
                    out.push_back(k);
        for (const auto &[k, v] : applied)
            if (v)
                out.push_back(k);
        std::sort(out.begin(), out.end());
        return out;
    }
    const std::string &get(const std::string &k) const
    {
        static const std::string empty;
        if (auto it = patch.find(k); it != patch.end())
            return it->second ? *it->second : empty;
        const std::string *c = committed(k);
        return c ? *c : empty;
    }
    bool has(const std::string &k) const { return !get(k).empty(); }
    void set(const std::string &k, const std::string &v)
    {
        if (get(k) != v || !committed(k))
            patch[k] = v;
    }
    void erase(const std::string &k)
    {
        if (committed(k))
            patch[k] = std::nullopt;
        else
            patch.erase(k);
    }
    // get() then erase(), with one lookup in the common case of nothing written yet.
    std::string take(const std::string &k)
    {
        if (patch.empty() && applied.empty()) {
            if (!base)
                return {};
            auto it = base->find(k);
            if (it == base->end())
                return {};
            patch[k] = std::nullopt;
            return it->second;
        }
        std::string v = get(k);
        erase(k);
        return v;
    }
    std::optional<kube::Timestamp> time(const std::string &k) const
    {
        const std::string &v = get(k);
        return v.empty() ? std::nullopt : api::parseUpgradeTime(v);
    }
    void setTime(const std::string &k, kube::Timestamp t) { set(k, api::formatUpgradeTime(t)); }
    int integer(const std::string &k, int def) const
    {
        const std::string &v = get(k);
        if (v.empty())
            return def;
        try {
            return std::stoi(v);
        } catch (...) {
            return def;
        }
    }
    bool ours() const { return get(api::ann::kCordonedByController) == "true"; }
    bool held() const { return get(api::ann::kHold) == "true"; }
    bool stillHasPods() const { return !managed.empty() || !unmanaged.empty(); }
    std::string object() const { return "node/" + name; }
};

struct NodeUpgradeController::PassContext
{
    bool dry = false;
    NodeUpgradePreview *preview = nullptr;
    std::string name;
    std::string object;
    kube::ObjectMeta meta;
    api::NodeUpgradeRolloutSpec spec;
    api::NodeUpgradeRolloutStatus st;
    std::string target;
    kube::Timestamp now = 0;
    bool paused = false; // spec.paused or halted: no disruption
    bool halted = false;
    bool aborting = false;
    int failedUnacked = 0;
    std::map<std::string, api::ControllerHealth> health; // by "replicaset/NS/NAME"
    std::set<std::string> affected;                      // controllers with pods on in-flight nodes
    std::vector<std::string> selected;
    bool changedNodes = false;
    // Handed from section to section of syncRollout().
    RolloutView *rv = nullptr;
    NodeUpgradeMetrics *metrics = nullptr; // null in a dry run
    api::RolloutPhase before = api::RolloutPhase::Pending;
    api::ResolvedBudget budget;
    int unavailable = 0;
    int unavailableBefore = 0;
    std::vector<api::Phrase> foreignHolders;
    std::string zone; // zone-serial: the active zone
    api::Phrase gateFailure;
    bool mayStart = false;
    bool budgetHeld = false;
    api::NodeUpgradeCounts counts;
    int inFlightPostKamikaze = 0;
    std::vector<std::string> failedText;
    std::vector<api::Phrase> stillInFlight;
    api::Phrase blockedHeadline;
    std::string stallReason;
    api::Phrase stalled;
    api::RolloutPhase phase = api::RolloutPhase::Pending;
    // Active (unpaused) time: drain and stall timers do not advance while paused.
    kube::Timestamp activeNow() const { return paused && st.pausedAt ? std::min(*st.pausedAt, now) : now; }
};

// What drain()'s sections share about the node's drain in this pass.
struct NodeUpgradeController::DrainStep
{
    bool held = false;
    bool canAct = false; // neither paused nor held
    std::string forcedBy;
    bool force = false;
    kube::Timestamp now = 0;
    kube::Timestamp active = 0; // now without paused time
    int remaining = 0;          // managed and unmanaged pods left
    std::string blockedReason;
    bool managedLeft = false;
};

// ---- the view kept from the watches ----------------------------------------------------------

inline const std::string kSkipKey = "upgrade/skip-requested";
inline const std::string kRetryKey = "upgrade/retry-requested";
inline const std::string kAbortKey = "upgrade/abort-requested";

inline std::int64_t threadNanos()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Adds the thread CPU time of its scope to a counter, when `on`.
struct Timed
{
    Timed(std::int64_t &counter, bool on) : acc(counter), on(on), start(on ? threadNanos() : 0) {}
    ~Timed()
    {
        if (on)
            acc += threadNanos() - start;
    }
    Timed(const Timed &) = delete;
    Timed &operator=(const Timed &) = delete;
    std::int64_t &acc;
    bool on;
    std::int64_t start;
};

// A selection candidate in queue order (orderCandidates' rules; zone-serial queues put the
// active zone first when the queue is read).
struct CandKey
{
    bool host = false;
    bool notReady = false;
    std::string zone;
    bool nonEmpty = false;
    int managed = 0;
    kube::Timestamp since = 0;
    std::string name;
    std::size_t index = 0;
};

struct CandLess
{
    bool zoneSerial = true;
    bool operator()(const CandKey &a, const CandKey &b) const
    {
        if (a.host != b.host)
            return b.host;
        if (a.notReady != b.notReady)
            return b.notReady;
        if (zoneSerial && a.zone != b.zone)
            return a.zone < b.zone;
        if (a.nonEmpty != b.nonEmpty)
            return b.nonEmpty;
        if (a.managed != b.managed)
            return a.managed < b.managed;
        if (a.since != b.since)
            return a.since < b.since;
        return a.name < b.name;
    }
};

// The queue in order, read lazily (a pass reads only its head): the candidates as they are kept
// sorted, and in a zone-serial queue the active zone's first within each readiness group.
class QueueWalk
{
public:
    using Cands = std::set<CandKey, CandLess>;
    QueueWalk(const Cands &cands, bool zoneSerial, const std::string &zone)
        : m_cands(cands), m_zoneSerial(zoneSerial), m_zone(zone), m_it(cands.begin())
    {}
    // The next node's index; false at the end of the queue.
    bool next(std::size_t &index)
    {
        if (!m_zoneSerial) {
            if (m_it == m_cands.end())
                return false;
            index = (m_it++)->index;
            return true;
        }
        for (;;) {
            if (m_stage == Stage::Start) {
                if (m_it == m_cands.end())
                    return false;
                m_group = m_it;
                CandKey probe;
                probe.host = m_group->host;
                probe.notReady = m_group->notReady;
                probe.zone = m_zone;
                probe.managed = std::numeric_limits<int>::min();
                probe.since = std::numeric_limits<kube::Timestamp>::min();
                m_active = m_cands.lower_bound(probe);
                m_it = m_active;
                m_stage = Stage::Active;
            }
            if (m_stage == Stage::Active) {
                if (m_it != m_cands.end() && sameGroup(*m_it) && m_it->zone == m_zone) {
                    index = (m_it++)->index;
                    return true;
                }
                m_after = m_it;
                m_it = m_group;
                m_stage = Stage::Before;
            }
            if (m_stage == Stage::Before) {
                if (m_it != m_active) {
                    index = (m_it++)->index;
                    return true;
                }
                m_it = m_after;
                m_stage = Stage::After;
            }
            if (m_it != m_cands.end() && sameGroup(*m_it)) {
                index = (m_it++)->index;
                return true;
            }
            m_stage = Stage::Start; // m_it: the next group's first candidate
        }
    }

private:
    bool sameGroup(const CandKey &c) const
    {
        return c.host == m_group->host && c.notReady == m_group->notReady;
    }
    enum class Stage { Start, Active, Before, After };
    const Cands &m_cands;
    bool m_zoneSerial;
    const std::string &m_zone;
    Cands::const_iterator m_it, m_group, m_active, m_after;
    Stage m_stage = Stage::Start;
};

// What the rollout's counts, budget and queue need of one node.
struct NodeSummary
{
    api::NodePhase phase = api::NodePhase::UpToDate;
    bool ready = false;
    bool unschedulable = false;
    bool atTarget = false;
    bool held = false;
    bool blockedAnn = false;
    bool failedUnacked = false;
    bool quiet = false;             // a pass would do nothing with it (see quietNode)
    bool volatileSince = false;     // a candidate without a readable incompatible-since (sorts as now)
    kube::Timestamp waitsUntil = 0; // not quiet, but nothing to do before then (NodeState::waitsUntil)
    std::optional<CandKey> cand;
};

struct PodEntry
{
    std::string ns;
    std::string name;
    std::string node;
    std::string controller; // "replicaset/NS/NAME" when its ReplicaSet exists
    bool countsReady = false;
};

struct NodeUpgradeController::RolloutView
{
    explicit RolloutView(bool zoneSerial = true) : cands(CandLess{zoneSerial}) {}

    bool built = false;
    api::NodeUpgradeRolloutSpec spec; // as built (pause fields cleared: they change no node)
    std::uint64_t nodeEpoch = 0;
    std::uint64_t rsEpoch = 0;
    std::vector<NodeState> nodes; // in node name order
    std::unordered_map<std::string, std::size_t> nodeIndex;
    std::vector<NodeSummary> sums;
    std::set<std::string> dirty; // nodes whose object or pods changed since the last pass
    std::vector<std::size_t> touched;

    // Sums over `sums`.
    std::array<int, kNodePhaseCount> phases{};
    int upToDate = 0, blocked = 0, held = 0, upgraded = 0, inFlight = 0, postKamikaze = 0, failedUnacked = 0,
        unavailable = 0, outside = 0, readyOutside = 0;
    std::set<std::size_t> active;   // not quiet
    std::set<std::size_t> holders;  // unavailable, not in flight
    std::set<std::size_t> failed;   // phase Failed
    std::set<std::size_t> inflight; // phase Cordoned..Soaking
    std::set<std::size_t> blockedNodes;
    std::map<std::string, int> inflightZones;
    std::set<CandKey, CandLess> cands;
    int unschedulableCands = 0; // candidates already cordoned (a full budget can still take them)
};

struct NodeUpgradeController::View
{
    std::unordered_map<std::string, PodEntry> pods; // "NS/NAME"
    std::unordered_map<std::string, std::set<std::string>> podsByNode;
    std::unordered_map<std::string, std::string> rsKeyByUid;
    std::map<std::string, api::ControllerHealth> health; // desired and ready of every ReplicaSet
    bool rsDirty = true;
    std::uint64_t nodeEpoch = 1;
    std::uint64_t rsEpoch = 0;
    std::uint64_t countEpoch = 0;
    std::size_t nodeCount = 0;
    std::map<std::string, RolloutView> rollouts;

    PodEntry entry(const kube::Pod &p) const
    {
        PodEntry e;
        e.ns = p.metadata.namespace_;
        e.name = p.metadata.name;
        e.node = p.node();
        const auto *ref = p.metadata.controllerRef();
        if (ref && ref->kind == "ReplicaSet")
            if (auto it = rsKeyByUid.find(ref->uid); it != rsKeyByUid.end())
                e.controller = it->second;
        e.countsReady = !e.controller.empty() && p.ready && !p.isDeleting();
        return e;
    }
};

// Out of flight (and not Failed, which keeps its cordon) but still cordoned by the controller:
// only after a refused uncordon.
inline bool owesUncordon(const NodeUpgradeController::NodeState &ns)
{
    return ns.unschedulable && !api::isInFlight(ns.phase) && ns.phase != api::NodePhase::Failed && ns.ours();
}

// Whether processNode() would do nothing with the node, for as long as neither the node, its
// pods nor the rollout's spec change (time only moves incompatible-since further into the past).
inline bool quietNode(const NodeUpgradeController::NodeState &ns, bool atTarget, bool aborting,
                      kube::Timestamp now)
{
    if (ns.committed(kSkipKey) || ns.committed(kRetryKey) || ns.committed(kAbortKey) || owesUncordon(ns))
        return false;
    switch (ns.phase) {
    case api::NodePhase::UpToDate:
    case api::NodePhase::Upgraded:
    case api::NodePhase::Removed:
        return atTarget || aborting;
    case api::NodePhase::Pending: {
        if (atTarget || !ns.has(api::ann::kIncompatibleSince))
            return false;
        const auto since = ns.time(api::ann::kIncompatibleSince);
        if (!since || *since > now)
            return false;
        return aborting || ns.tainted;
    }
    case api::NodePhase::Skipped:
        return !atTarget;
    case api::NodePhase::Failed:
        return true;
    default:
        return false;
    }
}

// Ready again since the restart was acknowledged at `ackAt`: the Ready condition moved since,
// or the node booted since the request (a reboot too fast to be seen NotReady changes only the
// bootID).
inline bool rejoinedSince(const NodeUpgradeController::NodeState &ns, kube::Timestamp ackAt)
{
    const std::string &bootAtRequest = ns.get(api::ann::kBootId);
    const bool rebooted = !bootAtRequest.empty() && !ns.bootID.empty() && ns.bootID != bootAtRequest;
    return ns.ready && ((ns.readySince && *ns.readySince / 1000 > ackAt / 1000) || rebooted);
}

} // namespace controllers
