#include "models/engine/nodeupgradecontroller.h"
#include "models/api/kubectldrain.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <array>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <time.h>

namespace engine {

using kube::Json;
using kube::Timestamp;

namespace {

constexpr std::size_t kMaxNodeDurations = 64;

bool matches(const kube::StringMap &selector, const kube::StringMap &labels)
{
    for (const auto &[k, v] : selector) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v)
            return false;
    }
    return true;
}

std::string podKey(const kube::Pod &p)
{
    return p.metadata.namespace_ + "/" + p.metadata.name;
}

std::string joinNames(const std::vector<std::string> &v, std::size_t max = 5)
{
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < max; ++i)
        out += (i ? ", " : "") + v[i];
    if (v.size() > max)
        out += " and " + std::to_string(v.size() - max) + " more";
    return out;
}

std::string dur(kube::Duration d)
{
    return kube::formatDuration(std::max<kube::Duration>(0, d / 1000 * 1000));
}

// joinNames as a phrase: the same names, the "and N more" tail translatable.
api::Phrase names(const std::vector<std::string> &v, std::size_t max = 5)
{
    return api::Phrase::list(v, ", ", max);
}
api::Phrase names(std::vector<api::Phrase> v, std::size_t max = 5)
{
    return api::Phrase::list(std::move(v), ", ", max);
}
api::Phrase uncordonSuffix(bool ours)
{
    return ours ? api::phrase(api::UpgradePhrase::UncordonedSuffix) : api::Phrase();
}

} // namespace

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
    std::optional<Timestamp> deletionTimestamp;
    std::int64_t grace = 30;
    std::string controller; // "replicaset/NS/NAME" (managed pods)
    std::string owner;      // "rs/NAME", "none"
    Timestamp created = 0;
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
    std::optional<Timestamp> readySince; // Ready condition's last transition
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
    std::optional<Timestamp> time(const std::string &k) const
    {
        const std::string &v = get(k);
        return v.empty() ? std::nullopt : api::parseUpgradeTime(v);
    }
    void setTime(const std::string &k, Timestamp t) { set(k, api::formatUpgradeTime(t)); }
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
    Timestamp now = 0;
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
    std::vector<std::size_t> queue;
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
    Timestamp activeNow() const { return paused && st.pausedAt ? std::min(*st.pausedAt, now) : now; }
};

// What drain()'s sections share about the node's drain in this pass.
struct NodeUpgradeController::DrainStep
{
    bool held = false;
    bool canAct = false; // neither paused nor held
    std::string forcedBy;
    bool force = false;
    Timestamp now = 0;
    Timestamp active = 0; // now without paused time
    int remaining = 0;    // managed and unmanaged pods left
    std::string blockedReason;
    bool managedLeft = false;
};

// ---- the view kept from the watches ----------------------------------------------------------

namespace {

const std::string kSkipKey = "upgrade/skip-requested";
const std::string kRetryKey = "upgrade/retry-requested";
const std::string kAbortKey = "upgrade/abort-requested";

std::int64_t threadNanos()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Adds the thread CPU time of its scope to a counter.
struct Timed
{
    explicit Timed(std::int64_t &counter) : acc(counter) {}
    ~Timed() { acc += threadNanos() - start; }
    Timed(const Timed &) = delete;
    Timed &operator=(const Timed &) = delete;
    std::int64_t &acc;
    std::int64_t start = threadNanos();
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
    Timestamp since = 0;
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
    bool quiet = false;         // a pass would do nothing with it (see quietNode)
    bool volatileSince = false; // a candidate without a readable incompatible-since (sorts as now)
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

PodInfo podInfo(const kube::Pod &p, const std::string &controller)
{
    PodInfo pi;
    pi.cls = api::classifyPod(p, !controller.empty());
    if (pi.cls == api::PodClass::Ignored)
        return pi;
    const auto *ref = p.metadata.controllerRef();
    pi.ns = p.metadata.namespace_;
    pi.name = p.metadata.name;
    pi.uid = p.metadata.uid;
    pi.ready = p.ready;
    pi.deleting = p.isDeleting();
    pi.localData = api::hasLocalStorage(p);
    pi.deletionTimestamp = p.metadata.deletionTimestamp;
    pi.grace = p.metadata.deletionGracePeriodSeconds.value_or(
        p.spec ? kube::integerOr<std::int64_t>(*p.spec, "terminationGracePeriodSeconds", 30) : 30);
    pi.controller = controller;
    pi.owner = ref ? (ref->kind == "ReplicaSet" ? "rs/" : ref->kind + "/") + ref->name : std::string("none");
    pi.created = p.metadata.creationTimestamp.value_or(0);
    return pi;
}

void addPod(NodeUpgradeController::NodeState &ns, PodInfo pi);

} // namespace

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

namespace {

// Out of flight (and not Failed, which keeps its cordon) but still cordoned by the controller:
// only after a refused uncordon.
bool owesUncordon(const NodeUpgradeController::NodeState &ns)
{
    return ns.unschedulable && !api::isInFlight(ns.phase) && ns.phase != api::NodePhase::Failed && ns.ours();
}

void addPod(NodeUpgradeController::NodeState &ns, PodInfo pi)
{
    (pi.cls == api::PodClass::Managed     ? ns.managed
     : pi.cls == api::PodClass::Unmanaged ? ns.unmanaged
                                          : ns.daemon)
        .push_back(std::move(pi));
}

// Whether processNode() would do nothing with the node, for as long as neither the node, its
// pods nor the rollout's spec change (time only moves incompatible-since further into the past).
bool quietNode(const NodeUpgradeController::NodeState &ns, bool atTarget, bool aborting, Timestamp now)
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

} // namespace

api::Phrase NodeUpgradePreview::summaryPhrase() const
{
    std::vector<api::Phrase> parts;
    if (!nextNodes.empty())
        parts.push_back(api::phrase(api::UpgradePhrase::PreviewSelect, {{"nodes", names(nextNodes)}}));
    if (!deletions.empty()) {
        std::vector<api::Phrase> pods;
        for (const auto &d : deletions)
            pods.push_back(api::phrase(api::UpgradePhrase::PreviewPod, {{"pod", d.pod}, {"why", d.why}}));
        parts.push_back(api::phrase(api::UpgradePhrase::PreviewDelete, {{"pods", names(std::move(pods))}}));
    }
    if (!kamikazes.empty())
        parts.push_back(api::phrase(api::UpgradePhrase::PreviewRestart, {{"nodes", names(kamikazes)}}));
    if (parts.empty())
        return api::phrase(api::UpgradePhrase::PreviewNothing);
    return api::Phrase::list(std::move(parts), "; ");
}

std::string NodeUpgradePreview::summary() const
{
    return api::english(summaryPhrase());
}

// ---- lifecycle ---------------------------------------------------------------------------

NodeUpgradeController::NodeUpgradeController(UpgradeCluster &cluster, api::NodeUpgradeEvents &events,
                                             std::map<std::string, NodeUpgradeMetrics> &metrics,
                                             NodeUpgradeControllerOptions options)
    : m_cluster(cluster), m_events(events), m_metrics(metrics), m_options(options),
      m_view(std::make_unique<View>())
{
    m_podWatch = m_cluster.watch(api::Kind::Pod, [this](const WatchEvent &ev) { onPod(ev); });
    m_nodeWatch = m_cluster.watch(api::Kind::Node, [this](const WatchEvent &ev) { onNode(ev); });
    m_rsWatch = m_cluster.watch(api::Kind::ReplicaSet, [this](const WatchEvent &ev) { onReplicaSet(ev); });
    resyncPods();
    // Pods already terminating on draining nodes were deleted before a restart, most likely by
    // this controller: do not report them as someone else's deletion.
    std::set<std::string> draining;
    for (const auto *n : m_cluster.nodes())
        if (auto p = api::nodePhaseFromString(n->metadata.annotation(api::ann::kPhase));
            p && api::isPreRestart(*p))
            draining.insert(n->metadata.name);
    for (const auto *p : m_cluster.pods())
        if (p->isDeleting() && draining.count(p->node()))
            m_ourDeletions.insert(p->metadata.uid);
    if (m_cluster.runsTimers()) {
        // Passes run on a fixed grid of absolute virtual time, so a restarted controller passes
        // at the same instants as the one it replaces.
        std::weak_ptr<char> alive = m_alive;
        const kube::Duration step = std::max<kube::Duration>(1, m_options.passInterval);
        const Timestamp now = m_cluster.now();
        const Timestamp first = (now % step == 0) ? now : now - ((now % step) + step) % step + step;
        m_cluster.schedule(first, [this, alive] {
            if (!alive.expired())
                tick();
        });
    }
}

NodeUpgradeController::~NodeUpgradeController()
{
    m_cluster.unwatch(m_podWatch);
    m_cluster.unwatch(m_nodeWatch);
    m_cluster.unwatch(m_rsWatch);
}

void NodeUpgradeController::tick()
{
    pass();
    std::weak_ptr<char> alive = m_alive;
    m_cluster.schedule(m_cluster.now() + m_options.passInterval, [this, alive] {
        if (!alive.expired())
            tick();
    });
}

// ---- watch (reporting only) ---------------------------------------------------------------

void NodeUpgradeController::markDirty(const std::string &node)
{
    if (node.empty())
        return;
    for (auto &[name, rv] : m_view->rollouts)
        if (rv.built)
            rv.dirty.insert(node);
}

void NodeUpgradeController::resyncPods()
{
    View &v = *m_view;
    v.pods.clear();
    v.podsByNode.clear();
    v.rsKeyByUid.clear();
    v.health.clear();
    for (const auto *rs : m_cluster.replicaSets()) {
        const std::string key = "replicaset/" + rs->metadata.namespace_ + "/" + rs->metadata.name;
        v.rsKeyByUid.emplace(rs->metadata.uid, key);
        v.health[key].desired = rs->replicas();
    }
    for (const auto *p : m_cluster.pods()) {
        PodEntry e = v.entry(*p);
        if (e.countsReady)
            ++v.health[e.controller].ready;
        std::string key = e.ns + "/" + e.name;
        if (!e.node.empty())
            v.podsByNode[e.node].insert(key);
        v.pods.emplace(std::move(key), std::move(e));
    }
    v.rsDirty = false;
    ++v.rsEpoch;
}

void NodeUpgradeController::notePod(const WatchEvent &ev)
{
    View &v = *m_view;
    if (v.rsDirty || !ev.pod)
        return; // read afresh at the next pass
    const std::string key = ev.pod->metadata.namespace_ + "/" + ev.pod->metadata.name;
    auto it = v.pods.find(key);
    if (it != v.pods.end()) {
        const PodEntry &old = it->second;
        if (old.countsReady)
            if (auto h = v.health.find(old.controller); h != v.health.end())
                --h->second.ready;
        if (!old.node.empty())
            if (auto n = v.podsByNode.find(old.node); n != v.podsByNode.end()) {
                n->second.erase(key);
                if (n->second.empty())
                    v.podsByNode.erase(n);
            }
        markDirty(old.node);
        v.pods.erase(it);
    }
    if (ev.type == WatchEvent::Type::Deleted)
        return;
    PodEntry e = v.entry(*ev.pod);
    if (e.countsReady)
        ++v.health[e.controller].ready;
    if (!e.node.empty()) {
        v.podsByNode[e.node].insert(key);
        markDirty(e.node);
    }
    v.pods.emplace(key, std::move(e));
}

void NodeUpgradeController::onReplicaSet(const WatchEvent &ev)
{
    const std::int64_t start = threadNanos();
    View &v = *m_view;
    if (ev.type != WatchEvent::Type::Modified || !ev.replicaSet) {
        v.rsDirty = true; // the pods' owners change: everything is read afresh at the next pass
    } else if (!v.rsDirty) {
        auto it = v.rsKeyByUid.find(ev.replicaSet->metadata.uid);
        if (it == v.rsKeyByUid.end())
            v.rsDirty = true;
        else
            v.health[it->second].desired = ev.replicaSet->replicas();
    }
    ++m_timing.watchEvents;
    m_timing.watchNanos += threadNanos() - start;
}

void NodeUpgradeController::onPod(const WatchEvent &ev)
{
    const std::int64_t start = threadNanos();
    notePod(ev);
    reportPod(ev);
    ++m_timing.watchEvents;
    m_timing.watchNanos += threadNanos() - start;
}

void NodeUpgradeController::reportPod(const WatchEvent &ev)
{
    const kube::Pod &pod = *ev.pod;
    const std::string nodeName = pod.node();
    if (nodeName.empty())
        return;
    const kube::Node *node = m_cluster.node(nodeName);
    if (!node)
        return;
    auto phase = api::nodePhaseFromString(node->metadata.annotation(api::ann::kPhase));
    if (!phase || !api::isPreRestart(*phase))
        return;
    bool exists = false;
    if (const auto *ref = pod.metadata.controllerRef(); ref && ref->kind == "ReplicaSet")
        if (const auto *rs = m_cluster.replicaSet(pod.metadata.namespace_, ref->name))
            exists = rs->metadata.uid == ref->uid;
    const api::PodClass cls = api::classifyPod(pod, exists);
    if (cls != api::PodClass::Managed && cls != api::PodClass::Unmanaged)
        return;
    const std::string &uid = pod.metadata.uid;
    const bool gone = ev.type == WatchEvent::Type::Deleted || pod.isDeleting();
    if (gone) {
        if (m_ourDeletions.count(uid) || m_reportedPods.count(uid + "/deleted"))
            return;
        m_reportedPods.insert(uid + "/deleted");
        m_notes.push_back({nodeName, api::UpgradeReason::ManualPodDeletionObserved, {{"pod", podKey(pod)}}});
        return;
    }
    // A pod bound after the node was selected: it tolerates the cordon (or was pinned there).
    const auto selectedAt = api::parseUpgradeTime(node->metadata.annotation(api::ann::kSelectedAt));
    const Timestamp created = pod.metadata.creationTimestamp.value_or(0);
    if (selectedAt && created > *selectedAt && !pod.nodeName.empty() &&
        !m_reportedPods.count(uid + "/rebound")) {
        m_reportedPods.insert(uid + "/rebound");
        m_notes.push_back(
            {nodeName, api::UpgradeReason::PodRescheduledToDrainingNode, {{"pod", podKey(pod)}}});
    }
}

void NodeUpgradeController::onNode(const WatchEvent &ev)
{
    if (ev.type == WatchEvent::Type::Modified)
        markDirty(ev.name);
    else
        ++m_view->nodeEpoch; // a node added or removed: the rollouts' views are rebuilt
    if (ev.type != WatchEvent::Type::Deleted || !ev.node)
        return;
    const std::string owner = ev.node->metadata.annotation(api::ann::kRollout);
    const std::string phase = ev.node->metadata.annotation(api::ann::kPhase);
    if (owner.empty() || phase.empty() || phase == "UpToDate")
        return;
    m_removedNodes.insert(ev.name);
    m_removedOwner[ev.name] = owner.substr(0, owner.rfind('/'));
}

// ---- events --------------------------------------------------------------------------------

void NodeUpgradeController::timedStatus(PassContext &ctx, const api::NodeUpgradeRolloutStatus &st)
{
    const kube::Result<void> r = [&] {
        const Timed timed(m_timing.statusNanos);
        return m_cluster.updateRolloutStatus(ctx.name, st);
    }();
    accepted(ctx, ctx.object, api::phrase(api::UpgradePhrase::WriteStatus), r ? nullptr : &r.error());
}

bool NodeUpgradeController::accepted(PassContext &ctx, const std::string &object, api::Phrase write,
                                     const kube::ApiStatus *refusal)
{
    constexpr kube::Duration kFirstBackoff = 1000, kMaxBackoff = 5 * 60 * 1000;
    if (!refusal) {
        if (!m_backoff.empty())
            m_backoff.erase(object);
        return true;
    }
    Backoff &b = m_backoff[object];
    b.rollout = ctx.name;
    ++b.refusals;
    const kube::Duration delay = std::min(kMaxBackoff, kFirstBackoff << std::min(b.refusals - 1, 20));
    b.retryAt = ctx.now + delay;
    const std::string code = std::to_string(refusal->code);
    b.message =
        api::phrase(api::UpgradePhrase::WritesRefusedCondition, {{"object", object},
                                                                 {"write", write},
                                                                 {"code", code},
                                                                 {"count", std::to_string(b.refusals)},
                                                                 {"time", kube::formatRfc3339(b.retryAt)}});
    report(
        ctx, object, api::UpgradeReason::WriteRefused,
        {{"write", std::move(write)}, {"code", code}, {"message", refusal->message}, {"delay", dur(delay)}});
    return false;
}

bool NodeUpgradeController::backingOff(const PassContext &ctx, const std::string &object) const
{
    if (m_backoff.empty())
        return false;
    auto it = m_backoff.find(object);
    return it != m_backoff.end() && ctx.now < it->second.retryAt;
}

void NodeUpgradeController::setHeadline(PassContext &ctx, api::Phrase headline)
{
    ctx.st.headline = api::english(headline);
    if (!ctx.dry)
        m_headlines[ctx.name] = std::move(headline);
}

const api::Phrase *NodeUpgradeController::headlinePhrase(const std::string &rollout) const
{
    auto it = m_headlines.find(rollout);
    return it == m_headlines.end() ? nullptr : &it->second;
}

void NodeUpgradeController::report(PassContext &ctx, const std::string &object, api::UpgradeReason reason,
                                   const api::UpgradeEventParams &params, bool repeating)
{
    if (ctx.dry)
        return;
    const Timestamp now = m_cluster.now();
    if (repeating) {
        const std::string key =
            object + "\n" + api::upgradeReasonName(reason) + "\n" + api::upgradeEventMessage(reason, params);
        auto it = m_lastEmitted.find(key);
        if (it != m_lastEmitted.end() && now - it->second < m_options.eventRepeatInterval)
            return;
        m_lastEmitted[key] = now;
    }
    const Timed timed(m_timing.writeNanos);
    m_events.record(now, object, reason, params);
    const std::string type = api::isWarning(reason) ? "Warning" : "Normal";
    const std::string message = api::upgradeEventMessage(reason, params);
    if (object.rfind("node/", 0) == 0)
        m_cluster.recordEvent(type, api::upgradeReasonName(reason), message, api::Kind::Node, "",
                              object.substr(5));
    else if (object.rfind("nodeupgraderollout/", 0) == 0)
        m_cluster.recordEvent(type, api::upgradeReasonName(reason), message, api::Kind::NodeUpgradeRollout,
                              "", object.substr(19));
}

// ---- the pass ------------------------------------------------------------------------------

void NodeUpgradeController::pass()
{
    const std::int64_t start = threadNanos();
    const auto rollouts = m_cluster.rollouts();
    for (auto it = m_view->rollouts.begin(); it != m_view->rollouts.end();)
        it = m_cluster.rollout(it->first) ? std::next(it) : m_view->rollouts.erase(it);
    for (const auto *r : rollouts) {
        PassContext ctx;
        syncRollout(*r, ctx);
    }
    m_notes.clear();
    m_removedNodes.clear();
    m_removedOwner.clear();
    ++m_timing.passes;
    m_timing.passNanos += threadNanos() - start;
}

NodeUpgradePreview NodeUpgradeController::preview(const std::string &rollout)
{
    NodeUpgradePreview p;
    const auto *r = m_cluster.rollout(rollout);
    if (!r)
        return p;
    api::NodeUpgradeRollout copy = *r;
    copy.spec.paused = false;
    PassContext ctx;
    ctx.dry = true;
    ctx.preview = &p;
    syncRollout(copy, ctx);
    return p;
}

void NodeUpgradeController::syncRollout(const api::NodeUpgradeRollout &rollout, PassContext &ctx)
{
    ctx.name = rollout.metadata.name;
    ctx.object = "nodeupgraderollout/" + ctx.name;
    ctx.meta = rollout.metadata;
    ctx.spec = rollout.spec;
    ctx.st = rollout.status;
    ctx.now = m_cluster.now();
    ctx.target = ctx.spec.targetVersion;
    auto &st = ctx.st;
    ctx.before = st.phase;
    ctx.metrics = ctx.dry ? nullptr : &m_metrics[ctx.name];

    // A new generation (spec edit) is observed; an aborted generation stays aborted.
    if (st.observedGeneration != rollout.metadata.generation) {
        if (st.phase == api::RolloutPhase::Aborted && !ctx.spec.abort)
            st.phase = api::RolloutPhase::Pending;
        st.observedGeneration = rollout.metadata.generation;
        st.targetVersion = ctx.spec.targetVersion;
    }
    if (st.phase == api::RolloutPhase::Aborted) {
        if (!ctx.dry)
            timedStatus(ctx, st);
        return;
    }

    // ---- observe -----------------------------------------------------------------------------
    RolloutView freshView;
    RolloutView &rv = ctx.dry ? freshView : m_view->rollouts[ctx.name];
    ctx.rv = &rv;
    refresh(rv, ctx, ctx.dry);
    if (m_options.verifyIncremental && !ctx.dry)
        verify(rv, ctx);
    if (m_view->countEpoch != m_view->nodeEpoch) {
        m_view->nodeCount = m_cluster.nodes().size();
        m_view->countEpoch = m_view->nodeEpoch;
    }
    if (refuse(ctx))
        return;
    // Pods by node and the health of every ReplicaSet: the view, kept from the watches.
    ctx.health = m_view->health;
    settleInflight(ctx);
    bookkeeping(ctx);

    // ---- act per node, select, status ------------------------------------------------------
    actOnNodes(ctx);
    queueNodes(ctx);
    startNodes(ctx);
    countNodes(ctx);
    findStall(ctx);
    decidePhase(ctx);
    phaseEvents(ctx);
    if (ctx.dry)
        return;
    timedStatus(ctx, st);
    sample(ctx);
    endPass(ctx);
}

// Refusals: overlapping rollouts and a lone self-hosting node. True when the rollout is refused
// (its status says why).
bool NodeUpgradeController::refuse(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    auto &st = ctx.st;
    // Refusals: overlapping rollouts (SUC's exclusive plans) and a lone self-hosting node.
    api::Phrase refusal;
    api::UpgradeEventParams refusalParams;
    api::UpgradeReason refusalReason = api::UpgradeReason::OverlapWithRollout;
    for (const auto *other : m_cluster.rollouts()) {
        if (other->metadata.name == ctx.name)
            continue;
        const api::RolloutPhase op = other->status.phase;
        if (op != api::RolloutPhase::Progressing && op != api::RolloutPhase::Paused &&
            op != api::RolloutPhase::Halted && op != api::RolloutPhase::Aborting)
            continue;
        const auto oc = other->metadata.creationTimestamp.value_or(0),
                   mc = ctx.meta.creationTimestamp.value_or(0);
        if (oc > mc || (oc == mc && other->metadata.name > ctx.name))
            continue;
        std::vector<std::string> overlap;
        for (const auto *n : m_cluster.nodes())
            if (matches(ctx.spec.nodeSelector, n->metadata.labels) &&
                matches(other->spec.nodeSelector, n->metadata.labels))
                overlap.push_back(n->metadata.name);
        if (!overlap.empty()) {
            refusalParams = {{"nodes", names(overlap)}, {"other", other->metadata.name}};
            refusal = api::upgradeEventPhrase(api::UpgradeReason::OverlapWithRollout, refusalParams);
            break;
        }
    }
    if (refusal.empty() && m_view->nodeCount == 1 && !ctx.spec.allowSelfRestart && !nodes.empty() &&
        nodes.front().controllerHost && nodes.front().version != ctx.target) {
        refusalReason = api::UpgradeReason::SelfRestartNotAllowed;
        refusalParams = {{"node", nodes.front().name}};
        refusal = api::upgradeEventPhrase(refusalReason, refusalParams);
    }
    if (!refusal.empty()) {
        const std::string refusalText = api::english(refusal);
        if (st.refusal != refusalText)
            report(ctx, ctx.object, refusalReason, refusalParams);
        st.refusal = refusalText;
        st.phase = api::RolloutPhase::Pending;
        st.counts = {};
        st.counts.nodes = static_cast<int>(nodes.size());
        st.setCondition("Progressing", false, api::upgradeReasonName(refusalReason), refusalText, ctx.now);
        api::HeadlineInput hi;
        hi.refusal = refusal;
        hi.counts = st.counts;
        setHeadline(ctx, api::headline(hi));
        if (!ctx.dry)
            timedStatus(ctx, st);
        return true;
    }
    st.refusal.clear();
    return false;
}

// In-flight deletions of the rollout's status.
void NodeUpgradeController::settleInflight(PassContext &ctx)
{
    auto &st = ctx.st;
    // In-flight deletions: cleared once the controller is back to its ready count from just
    // before the deletion (or its reduced desired count); slow replacements are reported.
    for (auto it = st.inflight.begin(); it != st.inflight.end();) {
        auto h = ctx.health.find(it->controller);
        if (h == ctx.health.end() || h->second.ready >= std::min(it->readyBefore, h->second.desired)) {
            it = st.inflight.erase(it);
            continue;
        }
        if (!it->slowReported && ctx.now - it->time >= ctx.spec.timeouts.replacementTimeout) {
            report(ctx, "node/" + it->node, api::UpgradeReason::ReplacementSlow,
                   {{"pod", it->pod},
                    {"controller", "rs/" + it->controller.substr(it->controller.rfind('/') + 1)},
                    {"elapsed", dur(ctx.now - it->time)}});
            if (!ctx.dry)
                it->slowReported = true;
        }
        ++h->second.inflight;
        ++it;
    }
}

// Failure budget, pause and resume, the start, observations from the watch.
void NodeUpgradeController::bookkeeping(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    const auto &nodeIndex = rv.nodeIndex;
    auto &st = ctx.st;
    // Failure budget, pause bookkeeping.
    const int failedUnacked = rv.failedUnacked;
    ctx.failedUnacked = failedUnacked;
    ctx.halted = !ctx.spec.abort && failedUnacked >= ctx.spec.maxFailedNodes;
    ctx.aborting = ctx.spec.abort;
    ctx.paused = ctx.spec.paused || ctx.halted;
    const std::string pausedBy = ctx.meta.annotation("upgrade/paused-by");
    if (ctx.paused && !st.pausedAt) {
        st.pausedAt = ctx.now;
        if (ctx.spec.paused && !ctx.halted)
            report(ctx, ctx.object, api::UpgradeReason::RolloutPaused,
                   {{"actor", pausedBy.empty() ? std::string("spec") : pausedBy},
                    {"note", ctx.spec.pauseReason.empty() ? api::Phrase()
                                                          : api::phrase(api::UpgradePhrase::NoteSuffix,
                                                                        {{"note", ctx.spec.pauseReason}})}});
    } else if (!ctx.paused && st.pausedAt) {
        // Resume: drain and stall timers skip the paused time.
        const Timestamp pausedAt = *st.pausedAt;
        for (const std::size_t i : rv.inflight) {
            NodeState &ns = nodes[i];
            if (!api::isPreRestart(ns.phase))
                continue;
            for (const char *k : {api::ann::kDrainStart, api::ann::kLastProgress})
                if (auto t = ns.time(k))
                    ns.setTime(k, *t + (ctx.now - std::max(pausedAt, *t)));
        }
        if (!ctx.dry) {
            NodeUpgradePreview p = preview(ctx.name);
            const std::string resumedBy = ctx.meta.annotation("upgrade/resumed-by");
            report(ctx, ctx.object, api::UpgradeReason::RolloutResumed,
                   {{"actor", resumedBy.empty() ? std::string("spec") : resumedBy},
                    {"preview", p.summaryPhrase()}});
        }
        st.pausedAt.reset();
    }

    if (!st.startedAt && !ctx.dry) {
        st.startedAt = ctx.now;
        const int incompatible = static_cast<int>(nodes.size()) - rv.upToDate;
        report(ctx, ctx.object, api::UpgradeReason::RolloutStarted,
               {{"target", ctx.target},
                {"nodes", std::to_string(incompatible)},
                {"maxUnavailable", ctx.spec.maxUnavailable.toString()}});
    }

    // Observations from the watch since the last pass.
    if (!ctx.dry) {
        for (const auto &note : m_notes)
            if (nodeIndex.count(note.node))
                report(ctx, "node/" + note.node, note.reason, note.params);
        for (const auto &name : m_removedNodes)
            if (m_removedOwner[name] == ctx.name) {
                report(ctx, "node/" + name, api::UpgradeReason::NodeRemoved, {});
                if (std::find(st.removedNodes.begin(), st.removedNodes.end(), name) == st.removedNodes.end())
                    st.removedNodes.push_back(name);
            }
    }
    // A removed node that came back is a node again.
    st.removedNodes.erase(std::remove_if(st.removedNodes.begin(), st.removedNodes.end(),
                                         [&](const std::string &n) { return nodeIndex.count(n) > 0; }),
                          st.removedNodes.end());
}

// Every node that can act takes its step.
void NodeUpgradeController::actOnNodes(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    // Quiet nodes (see quietNode) would do nothing: only the others are visited, in node order.
    rv.touched.assign(rv.active.begin(), rv.active.end());
    for (const std::size_t i : rv.touched) {
        NodeState &ns = nodes[i];
        if (!backingOff(ctx, ns.object())) { // a refused write: the node waits for its retry
            processNode(ns, ctx);
            flush(ns, ctx);
        }
        if (!ctx.dry) {
            const std::string key = ctx.name + "/" + ns.name;
            if (ns.blockers.empty())
                m_blockers.erase(key);
            else
                m_blockers[key] = ns.blockers;
        }
        unsummarize(rv, i);
        summarize(rv, i, ctx);
    }
    if (!ctx.dry)
        m_timing.nodesVisited += static_cast<std::int64_t>(rv.touched.size());
}

// The budget, the nodes holding it from outside, and the queue.
void NodeUpgradeController::queueNodes(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    ctx.budget = api::resolveMaxUnavailable(ctx.spec.maxUnavailable, static_cast<int>(nodes.size()));
    ctx.unavailable = rv.unavailable;
    for (const std::size_t i : rv.holders) {
        const NodeState &ns = nodes[i];
        const bool pending = ns.phase == api::NodePhase::Pending;
        const api::UpgradePhrase what = ns.phase == api::NodePhase::Failed ? api::UpgradePhrase::HolderFailed
                                        : ns.ready ? (pending ? api::UpgradePhrase::HolderCordonedPending
                                                              : api::UpgradePhrase::HolderCordonedOutside)
                                                   : (pending ? api::UpgradePhrase::HolderNotReadyPending
                                                              : api::UpgradePhrase::HolderNotReadyOutside);
        ctx.foreignHolders.push_back(api::phrase(what, {{"node", ns.name}}));
    }
    // The queue (orderCandidates' order): the candidates are kept sorted; a zone-serial queue
    // takes the active zone first within each readiness group. The active zone (activeZone's
    // rule): the first zone in flight, else the first zone of the first non-empty group.
    if (ctx.spec.zoneSerial) {
        if (!rv.inflightZones.empty()) {
            ctx.zone = rv.inflightZones.begin()->first;
        } else {
            for (int pass = 0; pass < 4; ++pass) {
                CandKey probe;
                probe.host = pass % 2 == 1;
                probe.notReady = pass >= 2;
                probe.managed = std::numeric_limits<int>::min();
                probe.since = std::numeric_limits<Timestamp>::min();
                auto it = rv.cands.lower_bound(probe);
                if (it != rv.cands.end() && it->host == probe.host && it->notReady == probe.notReady) {
                    ctx.zone = it->zone;
                    break;
                }
            }
        }
    }
    ctx.queue.clear();
    ctx.queue.reserve(rv.cands.size());
    if (!ctx.spec.zoneSerial) {
        for (const auto &c : rv.cands)
            ctx.queue.push_back(c.index);
    } else {
        std::vector<std::size_t> others;
        for (auto it = rv.cands.begin(); it != rv.cands.end();) {
            const bool host = it->host, notReady = it->notReady;
            others.clear();
            for (; it != rv.cands.end() && it->host == host && it->notReady == notReady; ++it)
                (it->zone == ctx.zone ? ctx.queue : others).push_back(it->index);
            ctx.queue.insert(ctx.queue.end(), others.begin(), others.end());
        }
    }
}

// The cluster gates, then the nodes that start now, in the queue's order, within the budget.
void NodeUpgradeController::startNodes(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    auto &st = ctx.st;
    if (ctx.spec.postNodeDelay > 0 && st.lastCompletion &&
        ctx.now - *st.lastCompletion < ctx.spec.postNodeDelay)
        ctx.gateFailure =
            api::phrase(api::UpgradePhrase::PostNodeDelay, {{"elapsed", dur(ctx.now - *st.lastCompletion)},
                                                            {"delay", dur(ctx.spec.postNodeDelay)}});
    if (ctx.spec.minReadyRatio > 0) {
        const int outside = rv.outside, readyOutside = rv.readyOutside;
        if (outside > 0 && static_cast<double>(readyOutside) / outside < ctx.spec.minReadyRatio)
            ctx.gateFailure = api::phrase(api::UpgradePhrase::MinReadyRatio,
                                          {{"ready", std::to_string(readyOutside)},
                                           {"nodes", std::to_string(outside)},
                                           {"ratio", std::to_string(ctx.spec.minReadyRatio).substr(0, 4)}});
    }

    ctx.unavailableBefore = ctx.unavailable;
    ctx.mayStart = !ctx.paused && !ctx.aborting && ctx.gateFailure.empty();
    ctx.budgetHeld = false; // no slot free, and something other than this rollout's nodes holds them
    std::vector<std::size_t> selectedIdx;
    if (ctx.mayStart && !ctx.queue.empty()) {
        int starts = api::startsAllowed(ctx.budget.value, ctx.unavailable, ctx.spec.maxStartsPerPass);
        ctx.budgetHeld = starts == 0 && !ctx.foreignHolders.empty();
        int perPass = std::max(1, ctx.spec.maxStartsPerPass);
        if (starts == 0 && !ctx.foreignHolders.empty())
            report(ctx, ctx.object, api::UpgradeReason::BudgetExhausted,
                   {{"used", std::to_string(ctx.unavailable)},
                    {"max", std::to_string(ctx.budget.value)},
                    {"holders", names(ctx.foreignHolders)}},
                   true);
        int position = 0;
        for (const std::size_t qi : ctx.queue) {
            ++position;
            if (perPass <= 0)
                break;
            NodeState &ns = nodes[qi];
            if (ctx.spec.zoneSerial && ns.zone != ctx.zone)
                break;
            if (!ns.ready)
                continue; // a NotReady node cannot take a restart request; it waits
            if (backingOff(ctx, ns.object()))
                continue; // its cordon was refused: retried after the backoff
            // A node someone else already cordoned is unavailable already: taking it costs no
            // slot, but nothing is taken while the budget is overrun.
            const bool free = ns.unschedulable && ctx.unavailable <= ctx.budget.value;
            if (!free && starts <= 0)
                continue;
            if (!select(ns, ctx, position, free ? ctx.unavailable : ctx.unavailable + 1, ctx.budget.value))
                continue;
            flush(ns, ctx);
            if (!ctx.dry)
                selectedIdx.push_back(qi);
            --perPass;
            if (!free) {
                ++ctx.unavailable;
                --starts;
            }
        }
    } else if (!ctx.gateFailure.empty() && !ctx.paused && !ctx.aborting && !ctx.queue.empty()) {
        report(ctx, ctx.object, api::UpgradeReason::HealthGateFailed, {{"gate", ctx.gateFailure}}, true);
    }

    // The status shows the head of the queue that is left.
    st.queue.clear();
    const std::unordered_set<std::string> selected(ctx.selected.begin(), ctx.selected.end());
    for (const std::size_t i : ctx.queue) {
        if (st.queue.size() >= api::kStatusQueueLength)
            break;
        if (!selected.count(nodes[i].name))
            st.queue.push_back(nodes[i].name);
    }
    // The selected nodes count as in flight from now on (the queue's indices stay valid; it is
    // read again below only when nothing was selected).
    for (const std::size_t i : selectedIdx) {
        unsummarize(rv, i);
        summarize(rv, i, ctx);
        rv.touched.push_back(i);
    }
}

// Counts and the sentences about failed, in-flight and blocked nodes.
void NodeUpgradeController::countNodes(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    auto &st = ctx.st;
    api::NodeUpgradeCounts &counts = ctx.counts;
    counts.nodes = static_cast<int>(nodes.size());
    counts.upToDate = rv.upToDate;
    counts.upgraded = rv.upgraded;
    counts.inFlight = rv.inFlight;
    counts.pending = rv.phases[static_cast<int>(api::NodePhase::Pending)];
    counts.held = rv.held;
    counts.blocked = rv.blocked;
    counts.failed = rv.phases[static_cast<int>(api::NodePhase::Failed)];
    counts.skipped = rv.phases[static_cast<int>(api::NodePhase::Skipped)];
    ctx.inFlightPostKamikaze = rv.postKamikaze;
    Timestamp blockedSince = ctx.now;
    for (const std::size_t i : rv.failed) {
        const NodeState &ns = nodes[i];
        ctx.failedText.push_back(ns.name + " " + ns.get(api::ann::kReason));
    }
    for (const std::size_t i : rv.inflight) {
        const NodeState &ns = nodes[i];
        if (ns.phase == api::NodePhase::Restarting || ns.phase == api::NodePhase::Soaking) {
            const auto since = ns.time(api::ann::kPhaseSince).value_or(ctx.now);
            const kube::Duration limit =
                ns.phase == api::NodePhase::Soaking ? ctx.spec.soakDuration : ctx.spec.timeouts.returnTimeout;
            ctx.stillInFlight.push_back(
                api::phrase(ns.phase == api::NodePhase::Soaking ? api::UpgradePhrase::StillSoaking
                                                                : api::UpgradePhrase::StillRestarting,
                            {{"node", ns.name}, {"elapsed", dur(ctx.now - since)}, {"limit", dur(limit)}}));
        } else if (ctx.paused) {
            ctx.stillInFlight.push_back(api::phrase(
                api::UpgradePhrase::HoldsSlot, {{"node", ns.name}, {"phase", api::nodePhaseName(ns.phase)}}));
        }
        for (const auto &p : ns.managed)
            ctx.affected.insert(p.controller);
    }
    for (const std::size_t i : rv.blockedNodes) {
        const NodeState &ns = nodes[i];
        const auto since = ns.time(api::ann::kLastProgress).value_or(ctx.now);
        if (ctx.blockedHeadline.empty() || since < blockedSince) {
            blockedSince = since;
            ctx.blockedHeadline =
                api::phrase(api::UpgradePhrase::NodeBlocked,
                            {{"node", ns.name},
                             {"elapsed", dur(ctx.now - since)},
                             {"why", ns.blockers.empty() ? api::Phrase(ns.get(api::ann::kBlocked))
                                                         : names(ns.blockers, 2)}});
        }
    }
    for (const auto &d : st.inflight)
        ctx.affected.insert(d.controller);
}

// Why a rollout that cannot move does not.
void NodeUpgradeController::findStall(PassContext &ctx)
{
    const api::NodeUpgradeCounts &counts = ctx.counts;
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    // A rollout that cannot move says so, and names the nodes: nothing in flight, nothing
    // started this pass, nodes pending — because the budget is held by nodes outside it, the
    // pending nodes are all NotReady, or all of them are held.
    if (ctx.mayStart && counts.inFlight == 0 && ctx.selected.empty() && counts.pending > 0) {
        std::vector<std::string> notReady;
        bool anyReady = false;
        for (const std::size_t qi : ctx.queue) {
            const NodeState &c = nodes[qi];
            if (c.ready)
                anyReady = true;
            else
                notReady.push_back(c.name);
        }
        if (ctx.budgetHeld) {
            ctx.stallReason = "BudgetHeld";
            ctx.stalled =
                api::phrase(api::UpgradePhrase::BudgetUsedBy, {{"used", std::to_string(ctx.unavailable)},
                                                               {"max", std::to_string(ctx.budget.value)},
                                                               {"holders", names(ctx.foreignHolders)}});
        } else if (!ctx.queue.empty() && !anyReady) {
            ctx.stallReason = "PendingNodesNotReady";
            ctx.stalled = api::phrase(notReady.size() == 1 ? api::UpgradePhrase::NotReadyOne
                                                           : api::UpgradePhrase::NotReadyMany,
                                      {{"nodes", names(notReady)}});
            report(ctx, ctx.object, api::UpgradeReason::PendingNodesNotReady, {{"nodes", names(notReady)}},
                   true);
        } else if (ctx.queue.empty()) {
            ctx.stallReason = "PendingNodesHeld";
            ctx.stalled =
                api::phrase(counts.held == 1 ? api::UpgradePhrase::HeldOne : api::UpgradePhrase::HeldMany,
                            {{"count", std::to_string(counts.held)}});
        }
    }
}

// The phase, the headline and the conditions.
void NodeUpgradeController::decidePhase(PassContext &ctx)
{
    const api::NodeUpgradeCounts &counts = ctx.counts;
    auto &st = ctx.st;
    const std::string pausedBy = ctx.meta.annotation("upgrade/paused-by");
    if (ctx.aborting)
        ctx.phase = ctx.inFlightPostKamikaze > 0 ? api::RolloutPhase::Aborting : api::RolloutPhase::Aborted;
    else if (ctx.halted)
        ctx.phase = api::RolloutPhase::Halted;
    else if (ctx.spec.paused)
        ctx.phase = api::RolloutPhase::Paused;
    else if (counts.pending == 0 && counts.inFlight == 0)
        ctx.phase = counts.skipped + counts.failed > 0 ? api::RolloutPhase::CompletedWithExceptions
                                                       : api::RolloutPhase::Completed;
    else
        ctx.phase = api::RolloutPhase::Progressing;
    st.phase = ctx.phase;
    st.counts = counts;
    st.unavailable = ctx.unavailable;
    st.maxUnavailableResolved = ctx.budget.value;
    st.maxUnavailableClamped = ctx.budget.clamped;
    st.eta = ctx.stalled.empty()
                 ? api::estimateEta(st.nodeDurations, counts.nodes - counts.upToDate, ctx.budget.value)
                 : std::nullopt; // no estimate for a rollout that cannot move

    api::HeadlineInput hi;
    hi.phase = ctx.phase;
    hi.failed = ctx.failedText;
    hi.pausedBy = pausedBy.empty() ? std::string("spec") : pausedBy;
    if (ctx.spec.paused && !ctx.spec.pauseReason.empty())
        hi.pausedBy += " (" + ctx.spec.pauseReason + ")";
    hi.pausedAt = st.pausedAt;
    hi.stillInFlight = ctx.stillInFlight;
    hi.gateFailure = ctx.gateFailure;
    hi.budgetUsed = ctx.unavailable;
    hi.budgetMax = ctx.budget.value;
    hi.foreignHolders = ctx.foreignHolders;
    hi.blockedNode = ctx.blockedHeadline;
    hi.stalled = ctx.phase == api::RolloutPhase::Progressing ? ctx.stalled : api::Phrase();
    hi.counts = counts;
    hi.eta = st.eta;
    setHeadline(ctx, api::headline(hi));

    const auto now = ctx.now;
    st.setCondition("Progressing", ctx.phase == api::RolloutPhase::Progressing,
                    ctx.phase == api::RolloutPhase::Progressing ? "NodesUpgrading"
                                                                : api::rolloutPhaseName(ctx.phase),
                    st.headline, now);
    st.setCondition("Paused",
                    ctx.phase == api::RolloutPhase::Paused || ctx.phase == api::RolloutPhase::Halted,
                    ctx.phase == api::RolloutPhase::Halted ? "FailureThresholdReached"
                    : ctx.spec.paused                      ? "ByUser"
                                                           : "NotPaused",
                    ctx.phase == api::RolloutPhase::Paused ? st.headline : std::string(), now);
    st.setCondition("Halted", ctx.phase == api::RolloutPhase::Halted,
                    ctx.halted ? "FailureThresholdReached" : "BelowThreshold",
                    ctx.halted ? st.headline : std::string(), now);
    const bool stalledNow = ctx.phase == api::RolloutPhase::Progressing && !ctx.stallReason.empty();
    st.setCondition(
        "Blocked", counts.blocked > 0 || stalledNow,
        counts.blocked > 0 ? "NodesBlocked" : (stalledNow ? ctx.stallReason : "NoneBlocked"),
        api::english(counts.blocked > 0 ? ctx.blockedHeadline : (stalledNow ? ctx.stalled : api::Phrase())),
        now);
    st.setCondition("Complete",
                    ctx.phase == api::RolloutPhase::Completed ||
                        ctx.phase == api::RolloutPhase::CompletedWithExceptions,
                    api::rolloutPhaseName(ctx.phase), std::string(), now);
    st.setCondition("Degraded", counts.failed > 0, counts.failed > 0 ? "NodesFailed" : "NoFailures",
                    joinNames(ctx.failedText), now);
    // Refused writes backing off (present only once a write of this rollout was refused).
    const Backoff *refused = nullptr;
    for (const auto &[object, b] : m_backoff)
        if (b.rollout == ctx.name && (!refused || b.retryAt > refused->retryAt))
            refused = &b;
    if (refused)
        st.setCondition("WritesRefused", true, "WriteRefused", api::english(refused->message), now);
    else if (st.condition("WritesRefused"))
        st.setCondition("WritesRefused", false, "WritesAccepted", std::string(), now);
}

// Events of a phase change.
void NodeUpgradeController::phaseEvents(PassContext &ctx)
{
    const api::NodeUpgradeCounts &counts = ctx.counts;
    if (ctx.phase != ctx.before) {
        switch (ctx.phase) {
        case api::RolloutPhase::Halted:
            report(ctx, ctx.object, api::UpgradeReason::RolloutHalted,
                   {{"failed", std::to_string(ctx.failedUnacked)}, {"nodes", names(ctx.failedText)}});
            break;
        case api::RolloutPhase::Completed:
            report(ctx, ctx.object, api::UpgradeReason::RolloutCompleted,
                   {{"nodes", std::to_string(counts.nodes)}, {"target", ctx.target}});
            break;
        case api::RolloutPhase::CompletedWithExceptions:
            report(ctx, ctx.object, api::UpgradeReason::RolloutCompletedWithExceptions,
                   {{"skipped", std::to_string(counts.skipped)}, {"failed", std::to_string(counts.failed)}});
            break;
        case api::RolloutPhase::Aborting:
        case api::RolloutPhase::Aborted:
            if (ctx.before != api::RolloutPhase::Aborting) {
                const std::string by = ctx.meta.annotation("upgrade/aborted-by");
                report(ctx, ctx.object, api::UpgradeReason::RolloutAborting,
                       {{"actor", by.empty() ? std::string("spec") : by},
                        {"inFlight", std::to_string(ctx.inFlightPostKamikaze)}});
            }
            if (ctx.phase == api::RolloutPhase::Aborted)
                report(ctx, ctx.object, api::UpgradeReason::RolloutAborted, {});
            break;
        default:
            break;
        }
    }
}

// One metrics sample per pass, also while paused (I6), and the observer's report.
void NodeUpgradeController::sample(PassContext &ctx)
{
    const api::NodeUpgradeCounts &counts = ctx.counts;
    RolloutView &rv = *ctx.rv;
    auto &st = ctx.st;
    const auto now = ctx.now;
    // Metrics: one sample per pass, also while paused (I6).
    NodeUpgradeSample s;
    s.time = now;
    s.phases = rv.phases;
    s.phases[static_cast<int>(api::NodePhase::Removed)] = static_cast<int>(st.removedNodes.size());
    s.unavailable = ctx.unavailable;
    s.maxUnavailable = ctx.budget.value;
    s.blocked = counts.blocked;
    for (const auto &c : ctx.affected) {
        auto h = ctx.health.find(c);
        if (h == ctx.health.end() || h->second.desired <= 0)
            continue;
        const double ratio = static_cast<double>(h->second.ready) / h->second.desired;
        if (!s.minControllerReadyRatio || ratio < *s.minControllerReadyRatio)
            s.minControllerReadyRatio = ratio;
    }
    s.eta = st.eta;
    s.rolloutPhase = ctx.phase;
    s.headline = st.headline;
    ctx.metrics->sample(std::move(s));

    if (m_observer) {
        NodeUpgradePassReport report;
        report.time = now;
        report.rollout = ctx.name;
        report.phase = ctx.phase;
        report.unavailableBefore = ctx.unavailableBefore;
        report.unavailableAfter = ctx.unavailable;
        report.maxUnavailable = ctx.budget.value;
        report.selected = ctx.selected;
        m_observer->afterPass(report);
    }
}

// Visited nodes start the next pass as read.
void NodeUpgradeController::endPass(PassContext &ctx)
{
    RolloutView &rv = *ctx.rv;
    std::vector<NodeState> &nodes = rv.nodes;
    // Visited nodes start the next pass as read: what they wrote comes back through the watch
    // (a refused write is read again too).
    for (const std::size_t i : rv.touched) {
        NodeState &ns = nodes[i];
        if (!ns.applied.empty())
            rv.dirty.insert(ns.name);
        ns.blockers.clear();
    }
    rv.touched.clear();
}

// ---- the view ----------------------------------------------------------------------------------

bool NodeUpgradeController::buildNode(const kube::Node &n, NodeState &ns, PassContext &ctx) const
{
    if (!matches(ctx.spec.nodeSelector, n.metadata.labels))
        return false;
    ns.name = n.metadata.name;
    static const std::string zoneKey = api::kZoneLabel, hostKey = api::kControllerHostLabel;
    if (auto z = n.metadata.labels.find(zoneKey); z != n.metadata.labels.end())
        ns.zone = z->second;
    ns.version = n.kubeletVersion;
    ns.bootID = n.info.bootID;
    ns.ready = n.isReady();
    ns.unschedulable = n.unschedulable;
    if (const auto *c = n.condition("Ready"))
        ns.readySince = c->lastTransitionTime;
    if (auto h = n.metadata.labels.find(hostKey); h != n.metadata.labels.end())
        ns.controllerHost = h->second == "true";
    for (const auto &t : n.taints)
        ns.tainted = ns.tainted || t.key == api::kPendingTaintKey;
    ns.base = &n.metadata.annotations;
    const std::string owner = ns.get(api::ann::kRollout);
    const std::string ownerName = owner.substr(0, owner.rfind('/'));
    auto phase = api::nodePhaseFromString(ns.get(api::ann::kPhase)).value_or(api::NodePhase::UpToDate);
    // A node claimed by another rollout that is still running is that rollout's business;
    // the nodes of a finished or aborted rollout are free for whichever rollout targets them.
    if (!owner.empty() && ownerName != ctx.name)
        if (const auto *other = m_cluster.rollout(ownerName)) {
            const api::RolloutPhase op = other->status.phase;
            if (op != api::RolloutPhase::Aborted && op != api::RolloutPhase::Completed &&
                op != api::RolloutPhase::CompletedWithExceptions)
                return false;
        }
    ns.phase = phase;
    return true;
}

void NodeUpgradeController::fillPods(NodeState &ns) const
{
    const View &v = *m_view;
    auto it = v.podsByNode.find(ns.name);
    if (it == v.podsByNode.end())
        return;
    for (const auto &key : it->second) {
        auto e = v.pods.find(key);
        if (e == v.pods.end())
            continue;
        const kube::Pod *p = m_cluster.pod(e->second.ns, e->second.name);
        if (!p)
            continue;
        PodInfo pi = podInfo(*p, e->second.controller);
        if (pi.cls != api::PodClass::Ignored)
            addPod(ns, std::move(pi));
    }
}

namespace {

void toggle(std::set<std::size_t> &set, std::size_t i, int d)
{
    if (d > 0)
        set.insert(i);
    else
        set.erase(i);
}

void account(NodeUpgradeController::RolloutView &rv, std::size_t i, int d);

} // namespace

void NodeUpgradeController::summarize(RolloutView &rv, std::size_t i, PassContext &ctx)
{
    const NodeState &ns = rv.nodes[i];
    NodeSummary s;
    s.phase = ns.phase;
    s.ready = ns.ready;
    s.unschedulable = ns.unschedulable;
    s.atTarget = ns.version == ctx.target;
    s.held = ns.held();
    s.blockedAnn = !ns.get(api::ann::kBlocked).empty();
    s.failedUnacked = s.phase == api::NodePhase::Failed && !ns.has(api::ann::kFailureAcknowledged);
    s.quiet = quietNode(ns, s.atTarget, ctx.spec.abort, ctx.now);
    if (s.phase == api::NodePhase::Pending && !s.held && !s.atTarget) {
        CandKey c;
        c.host = ns.controllerHost;
        c.notReady = !ns.ready;
        c.zone = ns.zone;
        c.nonEmpty = ns.managed.size() + ns.unmanaged.size() != 0;
        c.managed = static_cast<int>(ns.managed.size());
        const auto since = ns.time(api::ann::kIncompatibleSince);
        c.since = since.value_or(ctx.now);
        s.volatileSince = !since;
        c.name = ns.name;
        c.index = i;
        s.cand = std::move(c);
    }
    rv.sums[i] = std::move(s);
    account(rv, i, +1);
}

void NodeUpgradeController::unsummarize(RolloutView &rv, std::size_t i)
{
    account(rv, i, -1);
}

namespace {

void account(NodeUpgradeController::RolloutView &rv, std::size_t i, int d)
{
    const NodeSummary &s = rv.sums[i];
    rv.phases[static_cast<int>(s.phase)] += d;
    if (s.atTarget)
        rv.upToDate += d;
    if (s.blockedAnn && api::isPreRestart(s.phase)) {
        rv.blocked += d;
        toggle(rv.blockedNodes, i, d);
    }
    if (s.held)
        rv.held += d;
    if (s.phase == api::NodePhase::Upgraded && s.atTarget)
        rv.upgraded += d;
    const bool inflight = api::isInFlight(s.phase);
    if (inflight) {
        rv.inFlight += d;
        toggle(rv.inflight, i, d);
        const std::string &zone = rv.nodes[i].zone;
        if ((rv.inflightZones[zone] += d) == 0)
            rv.inflightZones.erase(zone);
    }
    if (s.phase == api::NodePhase::Restarting || s.phase == api::NodePhase::Soaking)
        rv.postKamikaze += d;
    if (s.failedUnacked)
        rv.failedUnacked += d;
    const bool unavailable = inflight || s.phase == api::NodePhase::Failed || !s.ready || s.unschedulable;
    if (unavailable)
        rv.unavailable += d;
    if (unavailable && !inflight)
        toggle(rv.holders, i, d);
    if (!inflight) {
        rv.outside += d;
        if (s.ready)
            rv.readyOutside += d;
    }
    if (s.phase == api::NodePhase::Failed)
        toggle(rv.failed, i, d);
    if (!s.quiet)
        toggle(rv.active, i, d);
    if (s.cand) {
        if (d > 0)
            rv.cands.insert(*s.cand);
        else
            rv.cands.erase(*s.cand);
    }
}

} // namespace

void NodeUpgradeController::refresh(RolloutView &rv, PassContext &ctx, bool fresh)
{
    View &v = *m_view;
    if (v.rsDirty)
        resyncPods();
    api::NodeUpgradeRolloutSpec spec = ctx.spec; // pausing changes no node
    spec.paused = false;
    spec.pauseReason.clear();
    // Node ownership between rollouts depends on the other rollouts' phases: with more than
    // one rollout the view is read afresh at every pass.
    bool full = fresh || !rv.built || !(rv.spec == spec) || rv.nodeEpoch != v.nodeEpoch ||
                rv.rsEpoch != v.rsEpoch || m_cluster.rollouts().size() != 1;
    if (!full) {
        std::set<std::string> dirty;
        dirty.swap(rv.dirty);
        for (const auto &name : dirty) {
            auto it = rv.nodeIndex.find(name);
            const kube::Node *n = m_cluster.node(name);
            NodeState ns;
            const bool member = n && buildNode(*n, ns, ctx);
            if (member != (it != rv.nodeIndex.end())) {
                full = true; // the node joined or left the rollout (labels)
                break;
            }
            if (!member)
                continue;
            fillPods(ns);
            const std::size_t i = it->second;
            unsummarize(rv, i);
            rv.nodes[i] = std::move(ns);
            summarize(rv, i, ctx);
            if (rv.sums[i].quiet)
                m_blockers.erase(ctx.name + "/" + name);
            ++m_timing.nodesRebuilt;
        }
        if (!full) {
            std::vector<std::size_t> moving; // candidates that sort as "now"
            for (const std::size_t i : rv.active)
                if (rv.sums[i].volatileSince)
                    moving.push_back(i);
            for (const std::size_t i : moving) {
                unsummarize(rv, i);
                summarize(rv, i, ctx);
            }
            return;
        }
    }
    rv = RolloutView(spec.zoneSerial);
    rv.spec = spec;
    rv.nodeEpoch = v.nodeEpoch;
    rv.rsEpoch = v.rsEpoch;
    rv.built = !fresh;
    for (const auto *n : m_cluster.nodes()) {
        NodeState ns;
        if (!buildNode(*n, ns, ctx))
            continue;
        fillPods(ns);
        rv.nodeIndex.emplace(ns.name, rv.nodes.size());
        rv.nodes.push_back(std::move(ns));
    }
    rv.sums.resize(rv.nodes.size());
    for (std::size_t i = 0; i < rv.nodes.size(); ++i) {
        summarize(rv, i, ctx);
        if (!fresh && rv.sums[i].quiet)
            m_blockers.erase(ctx.name + "/" + rv.nodes[i].name);
    }
    if (!fresh)
        ++m_timing.fullRebuilds;
}

namespace {

std::vector<std::string> describe(const NodeUpgradeController::RolloutView &rv,
                                  const std::map<std::string, api::ControllerHealth> &health)
{
    std::vector<std::string> out;
    auto line = [&](const std::ostringstream &o) { out.push_back(o.str()); };
    for (std::size_t i = 0; i < rv.nodes.size(); ++i) {
        const auto &ns = rv.nodes[i];
        std::ostringstream o;
        o << "node " << i << ' ' << ns.name << " zone=" << ns.zone << " version=" << ns.version
          << " ready=" << ns.ready << " unschedulable=" << ns.unschedulable
          << " readySince=" << (ns.readySince ? *ns.readySince : -1) << " host=" << ns.controllerHost
          << " tainted=" << ns.tainted << " phase=" << api::nodePhaseName(ns.phase)
          << " patch=" << ns.patch.size() << " applied=" << ns.applied.size()
          << " blockers=" << ns.blockers.size() << " wanted=" << ns.taintWanted << ns.untaintWanted
          << ns.uncordonWanted;
        for (const auto &k : ns.committedKeys())
            o << ' ' << k << '=' << *ns.committed(k);
        line(o);
        for (const auto *list : {&ns.managed, &ns.unmanaged, &ns.daemon})
            for (const auto &p : *list) {
                std::ostringstream q;
                q << "  pod " << api::podClassName(p.cls) << ' ' << p.key() << ' ' << p.uid
                  << " ready=" << p.ready << " deleting=" << p.deleting
                  << " deletion=" << p.deletionTimestamp.value_or(-1) << " grace=" << p.grace
                  << " controller=" << p.controller << " owner=" << p.owner << " created=" << p.created;
                line(q);
            }
        const auto &s = rv.sums[i];
        std::ostringstream q;
        q << "  summary " << api::nodePhaseName(s.phase) << ' ' << s.ready << s.unschedulable << s.atTarget
          << s.held << s.blockedAnn << s.failedUnacked << s.quiet << s.volatileSince;
        if (s.cand)
            q << " candidate " << s.cand->host << s.cand->notReady << ' ' << s.cand->zone << ' '
              << s.cand->nonEmpty << ' ' << s.cand->managed << ' ' << s.cand->since << ' ' << s.cand->index;
        line(q);
    }
    std::ostringstream o;
    o << "sums";
    for (int p : rv.phases)
        o << ' ' << p;
    o << " upToDate=" << rv.upToDate << " blocked=" << rv.blocked << " held=" << rv.held
      << " upgraded=" << rv.upgraded << " inFlight=" << rv.inFlight << " postKamikaze=" << rv.postKamikaze
      << " failedUnacked=" << rv.failedUnacked << " unavailable=" << rv.unavailable
      << " outside=" << rv.outside << " readyOutside=" << rv.readyOutside;
    line(o);
    for (const auto *set : {&rv.active, &rv.holders, &rv.failed, &rv.inflight, &rv.blockedNodes}) {
        std::ostringstream q;
        q << "set";
        for (auto i : *set)
            q << ' ' << i;
        line(q);
    }
    std::ostringstream z;
    z << "zones";
    for (const auto &[zone, n] : rv.inflightZones)
        z << ' ' << zone << '=' << n;
    line(z);
    std::ostringstream c;
    c << "queue";
    for (const auto &k : rv.cands)
        c << ' ' << k.name;
    line(c);
    for (const auto &[k, h] : health) {
        std::ostringstream q;
        q << "health " << k << ' ' << h.desired << ' ' << h.ready << ' ' << h.inflight;
        line(q);
    }
    return out;
}

} // namespace

void NodeUpgradeController::verify(RolloutView &rv, PassContext &ctx)
{
    // A fresh reading of the store, as a pass that keeps nothing would take it.
    std::unordered_map<std::string, std::string> rsKeyByUid;
    std::map<std::string, api::ControllerHealth> health;
    for (const auto *rs : m_cluster.replicaSets()) {
        const std::string key = "replicaset/" + rs->metadata.namespace_ + "/" + rs->metadata.name;
        rsKeyByUid.emplace(rs->metadata.uid, key);
        health[key].desired = rs->replicas();
    }
    RolloutView fresh(rv.spec.zoneSerial);
    for (const auto *n : m_cluster.nodes()) {
        NodeState ns;
        if (!buildNode(*n, ns, ctx))
            continue;
        fresh.nodeIndex.emplace(ns.name, fresh.nodes.size());
        fresh.nodes.push_back(std::move(ns));
    }
    for (const auto *p : m_cluster.pods()) {
        std::string controller;
        const auto *ref = p->metadata.controllerRef();
        if (ref && ref->kind == "ReplicaSet")
            if (auto it = rsKeyByUid.find(ref->uid); it != rsKeyByUid.end())
                controller = it->second;
        if (!controller.empty() && p->ready && !p->isDeleting())
            ++health[controller].ready;
        auto ni = fresh.nodeIndex.find(p->node());
        if (ni == fresh.nodeIndex.end())
            continue;
        PodInfo pi = podInfo(*p, controller);
        if (pi.cls != api::PodClass::Ignored)
            addPod(fresh.nodes[ni->second], std::move(pi));
    }
    fresh.sums.resize(fresh.nodes.size());
    for (std::size_t i = 0; i < fresh.nodes.size(); ++i)
        summarize(fresh, i, ctx);
    const auto a = describe(rv, m_view->health), b = describe(fresh, health);
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string x = i < a.size() ? a[i] : "(nothing)", y = i < b.size() ? b[i] : "(nothing)";
        if (x != y) {
            m_divergences.push_back(api::formatUpgradeTime(ctx.now) + " " + ctx.name + ": kept \"" + x +
                                    "\", store \"" + y + "\"");
            break;
        }
    }
}

// ---- per node --------------------------------------------------------------------------------

void NodeUpgradeController::setPhase(NodeState &ns, PassContext &ctx, api::NodePhase phase)
{
    if (!ctx.dry && ns.phase != phase && api::isInFlight(ns.phase))
        if (auto since = ns.time(api::ann::kPhaseSince))
            m_metrics[ctx.name].observePhaseDuration(api::nodePhaseName(ns.phase), ctx.now - *since);
    ns.phase = phase;
    ns.set(api::ann::kPhase, api::nodePhaseName(phase));
    ns.setTime(api::ann::kPhaseSince, ctx.now);
    ns.set(api::ann::kRollout, ctx.name + "/" + std::to_string(ctx.meta.generation));
}

void NodeUpgradeController::flush(NodeState &ns, PassContext &ctx)
{
    if (ctx.dry) {
        ns.patch.clear();
        return;
    }
    if (!ns.patch.empty()) {
        const Timed timed(m_timing.writeNanos); // only around writes: a clock read is a system call
        Json a = Json::object();
        for (const auto &[k, v] : ns.patch)
            a[k] = v ? Json(*v) : Json();
        const auto r = m_cluster.patchNode(ns.name, {{"metadata", {{"annotations", a}}}});
        if (accepted(ctx, ns.object(), api::phrase(api::UpgradePhrase::WriteAnnotations),
                     r ? nullptr : &r.error())) {
            for (auto &[k, v] : ns.patch)
                ns.applied[k] = std::move(v);
        } else {
            markDirty(ns.name); // the next pass reads the node as the API server kept it
            ns.patch.clear();
            ns.taintWanted = ns.untaintWanted = false; // the node backs off
            return;
        }
        ns.patch.clear();
    }
    syncDrainConditions(ns, ctx);
    if (!ns.taintWanted && !ns.untaintWanted)
        return;
    const Timed timed(m_timing.writeNanos);
    if (ns.taintWanted) {
        const auto r = m_cluster.taint(ns.name, {api::kPendingTaintKey, "", "PreferNoSchedule"});
        ns.taintWanted = false;
        if (!accepted(ctx, ns.object(),
                      api::phrase(api::UpgradePhrase::WriteTaint, {{"taint", api::kPendingTaintKey}}),
                      r ? nullptr : &r.error())) {
            markDirty(ns.name);
            ns.untaintWanted = false; // the node backs off
        }
    }
    if (ns.untaintWanted) {
        const auto r = m_cluster.untaint(ns.name, api::kPendingTaintKey);
        if (!accepted(ctx, ns.object(),
                      api::phrase(api::UpgradePhrase::WriteUntaint, {{"taint", api::kPendingTaintKey}}),
                      r ? nullptr : &r.error()))
            markDirty(ns.name);
        ns.untaintWanted = false;
    }
}

void NodeUpgradeController::syncDrainConditions(const NodeState &ns, PassContext &ctx)
{
    // The node lifecycle conditions a drain is visible by to other tools: DrainInProgress while
    // pods are being moved off, Drained from the restart until the node is released. They only
    // inform: a server that refuses them (an admission policy) is not asked again for this node.
    if (m_conditionsRefused.count(ns.name))
        return;
    const kube::Node *n = m_cluster.node(ns.name);
    if (!n)
        return;
    const bool draining =
        ns.phase == api::NodePhase::DrainingManaged || ns.phase == api::NodePhase::DrainingUnmanaged;
    const bool drained = ns.phase == api::NodePhase::Restarting || ns.phase == api::NodePhase::Soaking;
    std::vector<kube::NodeCondition> set;
    std::vector<std::string> remove;
    const auto want = [&](const char *type, bool present, const char *message) {
        const kube::NodeCondition *c = n->condition(type);
        if (present && (!c || c->status != "True"))
            set.push_back({type, "True", "NodeUpgrade", std::string(message) + ctx.name, ctx.now});
        else if (!present && c)
            remove.emplace_back(type);
    };
    want(api::kDrainInProgressCondition, draining, "Pods are being moved off for the node-agent upgrade ");
    want(api::kDrainedCondition, drained, "Drained for the node-agent upgrade ");
    if (set.empty() && remove.empty())
        return;
    const Timed timed(m_timing.writeNanos);
    if (!m_cluster.setNodeConditions(ns.name, set, remove))
        m_conditionsRefused.insert(ns.name);
}

void NodeUpgradeController::markPending(NodeState &ns, PassContext &ctx)
{
    auto since = ns.time(api::ann::kIncompatibleSince);
    if (!ns.get(api::ann::kIncompatibleSince).empty() && since && *since > ctx.now) {
        report(ctx, ns.object(), api::UpgradeReason::InvalidTimestamp,
               {{"value", ns.get(api::ann::kIncompatibleSince)}});
        since.reset();
    }
    if (!since) {
        since = ctx.now;
        ns.setTime(api::ann::kIncompatibleSince, ctx.now);
    }
    for (const char *k :
         {api::ann::kReason, api::ann::kBlocked, api::ann::kDrainTimedOut, api::ann::kForce,
          api::ann::kKamikaze, api::ann::kKamikazeAck, api::ann::kKamikazeSent, api::ann::kKamikazeSends,
          api::ann::kAckAt, api::ann::kBootId, api::ann::kUnmanagedDeleted, api::ann::kFailureAcknowledged,
          api::ann::kDrainStart, api::ann::kLastProgress, api::ann::kRemaining, api::ann::kSelectedAt,
          api::ann::kRestartJob})
        ns.erase(k);
    setPhase(ns, ctx, api::NodePhase::Pending);
    ns.taintWanted = !ctx.aborting;
    report(ctx, ns.object(), api::UpgradeReason::NodeIncompatible,
           {{"version", ns.version}, {"target", ctx.target}, {"since", api::formatUpgradeTime(*since)}});
}

bool NodeUpgradeController::uncordon(NodeState &ns, PassContext &ctx)
{
    if (ctx.dry)
        return true;
    const kube::Node *n = m_cluster.node(ns.name);
    if (!n)
        return true;
    if (m_observer)
        m_observer->beforeUncordon(ctx.name, *n);
    const kube::Result<void> r = [&] {
        const Timed timed(m_timing.writeNanos);
        return m_cluster.uncordon(ns.name);
    }();
    if (!accepted(ctx, ns.object(), api::phrase(api::UpgradePhrase::WriteUncordon), r ? nullptr : &r.error()))
        return false;
    ns.unschedulable = false;
    return true;
}

void NodeUpgradeController::releaseNode(NodeState &ns, PassContext &ctx, api::NodePhase to, bool hold)
{
    bool owed = false; // the uncordon was refused: the cordon stays ours, retried later
    if (ns.ours()) {
        owed = !uncordon(ns, ctx);
        if (!owed)
            report(ctx, ns.object(), api::UpgradeReason::NodeUncordoned, {});
    }
    if (!owed)
        ns.erase(api::ann::kCordonedByController);
    if (hold)
        ns.set(api::ann::kHold, "true");
    for (const char *k :
         {api::ann::kBlocked, api::ann::kDrainTimedOut, api::ann::kForce, api::ann::kDrainStart,
          api::ann::kLastProgress, api::ann::kRemaining, api::ann::kSelectedAt, api::ann::kUnmanagedDeleted})
        ns.erase(k);
    if (to != api::NodePhase::Pending)
        ns.untaintWanted = true;
    setPhase(ns, ctx, to);
}

// Admin requests written as annotations by control() (abort, skip, retry): acted on here so that
// they survive a restart between the request and the pass. True when one was acted on.
bool NodeUpgradeController::adminRequest(NodeState &ns, PassContext &ctx)
{
    const bool atTarget = ns.version == ctx.target;
    static const std::string skipKey = "upgrade/skip-requested", retryKey = "upgrade/retry-requested",
                             abortKey = "upgrade/abort-requested";
    const std::string skipBy = ns.take(skipKey);
    const std::string retryBy = ns.take(retryKey);
    const std::string abortBy = ns.take(abortKey);
    if (!abortBy.empty() && api::isPreRestart(ns.phase)) {
        const bool ours = ns.ours();
        releaseNode(ns, ctx, api::NodePhase::Pending, true);
        report(ctx, ns.object(), api::UpgradeReason::NodeAborted,
               {{"actor", abortBy}, {"uncordon", uncordonSuffix(ours)}});
        return true;
    }
    if (!skipBy.empty() && (ns.phase == api::NodePhase::Pending || ns.phase == api::NodePhase::Failed ||
                            api::isPreRestart(ns.phase))) {
        const bool ours = ns.ours();
        releaseNode(ns, ctx, api::NodePhase::Skipped, false);
        report(ctx, ns.object(), api::UpgradeReason::NodeSkipped,
               {{"actor", skipBy}, {"uncordon", uncordonSuffix(ours)}});
        return true;
    }
    if (!retryBy.empty() && ns.phase == api::NodePhase::Failed) {
        const int attempt = ns.integer(api::ann::kAttempt, 1) + 1;
        ns.set(api::ann::kAttempt, std::to_string(attempt));
        ns.erase(api::ann::kFailureAcknowledged);
        ns.erase(api::ann::kReason);
        if (atTarget) {
            // Failed while soaking on the target version: soak again.
            report(ctx, ns.object(), api::UpgradeReason::NodeRetry,
                   {{"attempt", std::to_string(attempt)},
                    {"actor", retryBy},
                    {"what", api::phrase(api::UpgradePhrase::RetrySoak)}});
            setPhase(ns, ctx, api::NodePhase::Soaking);
            report(ctx, ns.object(), api::UpgradeReason::SoakStarted,
                   {{"duration", dur(ctx.spec.soakDuration)}});
        } else if (!ns.stillHasPods()) {
            report(ctx, ns.object(), api::UpgradeReason::NodeRetry,
                   {{"attempt", std::to_string(attempt)},
                    {"actor", retryBy},
                    {"what", api::phrase(api::UpgradePhrase::RetryResend)}});
            ns.erase(api::ann::kAckAt);
            ns.erase(api::ann::kKamikazeAck);
            ns.erase(api::ann::kHandover);
            ns.erase(api::ann::kRestartJob);
            sendKamikaze(ns, ctx, 1);
        } else {
            report(ctx, ns.object(), api::UpgradeReason::NodeRetry,
                   {{"attempt", std::to_string(attempt)},
                    {"actor", retryBy},
                    {"what", api::phrase(api::UpgradePhrase::RetryPending)}});
            releaseNode(ns, ctx, api::NodePhase::Pending, false);
        }
        return true;
    }
    return false;
}

void NodeUpgradeController::processNode(NodeState &ns, PassContext &ctx)
{
    const bool atTarget = ns.version == ctx.target;
    if (adminRequest(ns, ctx))
        return;

    // An uncordon the API server refused: the node is out of flight but still cordoned by us.
    if (owesUncordon(ns) && uncordon(ns, ctx)) {
        report(ctx, ns.object(), api::UpgradeReason::NodeUncordoned, {});
        ns.erase(api::ann::kCordonedByController);
    }

    switch (ns.phase) {
    case api::NodePhase::UpToDate:
    case api::NodePhase::Upgraded:
    case api::NodePhase::Removed:
        if (!atTarget && !ctx.aborting)
            markPending(ns, ctx);
        return;
    case api::NodePhase::Pending:
        if (atTarget) {
            complete(ns, ctx, true);
            return;
        }
        if (!ns.has(api::ann::kIncompatibleSince) ||
            ns.time(api::ann::kIncompatibleSince).value_or(0) > ctx.now)
            markPending(ns, ctx);
        if (!ctx.aborting) {
            bool tainted = false;
            if (const kube::Node *n = m_cluster.node(ns.name))
                for (const auto &t : n->taints)
                    tainted = tainted || t.key == api::kPendingTaintKey;
            ns.taintWanted = !tainted;
        }
        return;
    case api::NodePhase::Skipped:
        if (atTarget)
            complete(ns, ctx, true);
        return;
    case api::NodePhase::Failed:
        return; // kept cordoned, keeps its slot; only an admin moves it on
    case api::NodePhase::Cordoned:
    case api::NodePhase::DrainingManaged:
    case api::NodePhase::DrainingUnmanaged:
        if (atTarget) {
            complete(ns, ctx, true);
            return;
        }
        if (ctx.aborting) {
            const bool ours = ns.ours();
            releaseNode(ns, ctx, api::NodePhase::Pending, false);
            ns.untaintWanted = true;
            report(ctx, ns.object(), api::UpgradeReason::NodeAborted,
                   {{"actor", ctx.meta.annotation("upgrade/aborted-by").empty()
                                  ? std::string("spec")
                                  : ctx.meta.annotation("upgrade/aborted-by")},
                    {"uncordon", uncordonSuffix(ours)}});
            return;
        }
        if (!ns.unschedulable) {
            // The admin uncordoned a node we were draining: respect it, never re-cordon.
            report(ctx, ns.object(), api::UpgradeReason::ExternalUncordonObserved, {});
            ns.set(api::ann::kCordonedByController, "false");
            releaseNode(ns, ctx, api::NodePhase::Pending, true);
            return;
        }
        if (ns.phase == api::NodePhase::Cordoned) {
            setPhase(ns, ctx, api::NodePhase::DrainingManaged);
            ns.setTime(api::ann::kDrainStart, ctx.now);
            ns.setTime(api::ann::kLastProgress, ctx.now);
            ns.set(api::ann::kRemaining, std::to_string(ns.managed.size() + ns.unmanaged.size()));
            return;
        }
        drain(ns, ctx);
        return;
    case api::NodePhase::Restarting:
        restarting(ns, ctx);
        return;
    case api::NodePhase::Soaking:
        soaking(ns, ctx);
        return;
    }
}

bool NodeUpgradeController::deletePod(NodeState &ns, PassContext &ctx, const kube::Pod &pod,
                                      api::PodClass cls, api::GateVerdict verdict, bool forced,
                                      const api::Phrase &why)
{
    if (ctx.dry) {
        if (ctx.preview)
            ctx.preview->deletions.push_back({podKey(pod), ns.name, why});
        return true;
    }
    if (m_observer)
        m_observer->beforePodDelete(ctx.name, pod, cls, verdict, forced);
    const std::string uid = pod.metadata.uid, key = podKey(pod);
    m_ourDeletions.insert(uid); // before the write: its watch event arrives during it
    // Evicted: a PodDisruptionBudget has its say (evictionAllowed asked it first in this pass).
    // A forced deletion, or any with respectPDBs false, deletes, with the pod's own grace period.
    const bool remove = forced || !ctx.spec.respectPDBs;
    const kube::Result<void> r = [&] {
        const Timed timed(m_timing.writeNanos);
        return remove ? m_cluster.deletePod(pod.metadata.namespace_, pod.metadata.name)
                      : m_cluster.evict(pod.metadata.namespace_, pod.metadata.name);
    }();
    if (!accepted(ctx, ns.object(),
                  api::phrase(remove ? api::UpgradePhrase::WriteDeletion : api::UpgradePhrase::WriteEviction,
                              {{"pod", key}}),
                  r ? nullptr : &r.error())) {
        m_ourDeletions.erase(uid);
        return false;
    }
    m_metrics[ctx.name].countDeletion(forced ? "forced" : api::podClassName(cls));
    return true;
}

bool NodeUpgradeController::evictionAllowed(NodeState &ns, PassContext &ctx, const PodInfo &p,
                                            std::string &blockedReason)
{
    if (!ctx.spec.respectPDBs)
        return true; // deleted without asking the budgets (deletePod)
    EvictOptions probe;
    probe.dryRun = true;
    const auto r = [&] {
        const Timed timed(m_timing.writeNanos);
        return m_cluster.evict(p.ns, p.name, probe);
    }();
    if (r.ok() || r.error().code == 404)
        return true;
    api::Phrase budget;
    if (r.error().code == 429) {
        const kube::Pod *pod = m_cluster.pod(p.ns, p.name);
        for (const auto *b : m_cluster.podDisruptionBudgets())
            if (pod && b->metadata.namespace_ == p.ns && b->covers(pod->metadata.labels))
                budget = api::phrase(api::UpgradePhrase::PdbNumbers,
                                     {{"pdb", p.ns + "/" + b->metadata.name},
                                      {"desired", std::to_string(b->status.desiredHealthy)},
                                      {"current", std::to_string(b->status.currentHealthy)}});
    }
    if (budget.empty())
        budget = r.error().message;
    ns.blockers.push_back(api::phrase(api::UpgradePhrase::PodBlockedBy, {{"pod", p.key()}, {"why", budget}}));
    report(ctx, ns.object(), api::UpgradeReason::EvictionRefused, {{"pod", p.key()}, {"budget", budget}},
           true);
    if (blockedReason.empty())
        blockedReason = "DisruptionBudget";
    return false;
}

bool NodeUpgradeController::localDataAllowed(NodeState &ns, PassContext &ctx, const PodInfo &p,
                                             std::string &blockedReason)
{
    if (!p.localData || ctx.spec.localDataPolicy == api::LocalDataPolicy::Delete)
        return true;
    const api::Phrase rule = api::phrase(api::UpgradePhrase::PodLocalData, {{"pod", p.key()}});
    ns.blockers.push_back(rule);
    if (!ctx.dry)
        m_metrics[ctx.name].countDeferral("LocalData");
    report(ctx, ns.object(), api::UpgradeReason::PodDeletionDeferred, {{"pod", p.key()}, {"rule", rule}},
           true);
    if (blockedReason.empty())
        blockedReason = "LocalData";
    return false;
}

void NodeUpgradeController::drain(NodeState &ns, PassContext &ctx)
{
    DrainStep d;
    d.held = ns.held();
    d.canAct = !ctx.paused && !d.held;
    d.forcedBy = ns.get(api::ann::kForce);
    d.force = !d.forcedBy.empty();
    d.now = ctx.now;
    d.active = ctx.activeNow();

    d.remaining = static_cast<int>(ns.managed.size() + ns.unmanaged.size());
    const int before = ns.integer(api::ann::kRemaining, d.remaining);
    if (d.remaining < before)
        ns.setTime(api::ann::kLastProgress, d.now);
    if (d.remaining != before || !ns.has(api::ann::kRemaining))
        ns.set(api::ann::kRemaining, std::to_string(d.remaining));

    drainStuck(ns, ctx, d);
    if (!drainManaged(ns, ctx, d))
        return;
    if (ns.phase == api::NodePhase::DrainingManaged && !d.managedLeft) {
        report(ctx, ns.object(), api::UpgradeReason::ManagedPodsDrained, {});
        setPhase(ns, ctx, api::NodePhase::DrainingUnmanaged);
    } else if (ns.phase == api::NodePhase::DrainingUnmanaged && d.managedLeft) {
        setPhase(ns, ctx, api::NodePhase::DrainingManaged); // a managed pod was bound here again
    }
    if (ns.phase == api::NodePhase::DrainingUnmanaged) {
        if (!drainUnmanaged(ns, ctx, d))
            return;
        if (d.remaining == 0 && d.canAct) {
            sendKamikaze(ns, ctx, 1);
            return;
        }
    }
    if (!drainDeadlines(ns, ctx, d))
        return;
    if (!d.blockedReason.empty())
        ns.set(api::ann::kBlocked, d.blockedReason);
    else if (d.canAct)
        ns.erase(api::ann::kBlocked);
}

// Pods terminating longer than their grace period and the margin: reported as stuck, a stall.
void NodeUpgradeController::drainStuck(NodeState &ns, PassContext &ctx, DrainStep &d)
{
    const auto &spec = ctx.spec;
    const Timestamp now = d.now;
    std::string &blockedReason = d.blockedReason;
    // Terminating pods: wait up to grace + margin, then report them as stuck (a stall).
    for (const auto *list : {&ns.managed, &ns.unmanaged})
        for (const auto &p : *list) {
            if (!p.deleting || !p.deletionTimestamp)
                continue;
            if (now > *p.deletionTimestamp + spec.timeouts.terminationMargin) {
                report(ctx, ns.object(), api::UpgradeReason::PodStuckTerminating,
                       {{"pod", p.key()},
                        {"elapsed",
                         api::phrase(api::UpgradePhrase::MoreThan,
                                     {{"duration", dur(p.grace * 1000 + spec.timeouts.terminationMargin)}})},
                        {"grace", dur(p.grace * 1000)},
                        {"margin", dur(spec.timeouts.terminationMargin)}},
                       true);
                ns.blockers.push_back(api::phrase(api::UpgradePhrase::PodTerminating,
                                                  {{"pod", p.key()},
                                                   {"grace", dur(p.grace * 1000)},
                                                   {"margin", dur(spec.timeouts.terminationMargin)}}));
                blockedReason = "PodStuckTerminating";
            }
        }
}

// One pod deleted by the drain (evicted; deleted when forced), after its event. False when
// the API server refused it: the node backs off (see accepted()).
bool NodeUpgradeController::drainDelete(NodeState &ns, PassContext &ctx, const DrainStep &d, const PodInfo &p,
                                        api::GateVerdict v, bool forced, const api::Phrase &why)
{
    const kube::Pod *pod = m_cluster.pod(p.ns, p.name);
    if (!pod)
        return true;
    if (forced)
        report(ctx, ns.object(), api::UpgradeReason::DrainForced, {{"pod", p.key()}, {"actor", d.forcedBy}});
    else
        report(ctx, ns.object(), api::UpgradeReason::PodDeleted,
               {{"pod", p.key()}, {"class", api::podClassName(p.cls)}, {"owner", p.owner}});
    return deletePod(ns, ctx, *pod, p.cls, v, forced, why);
}

// Managed pods, one controller-gate check at a time (I2). False when a deletion was refused.
bool NodeUpgradeController::drainManaged(NodeState &ns, PassContext &ctx, DrainStep &d)
{
    const auto &spec = ctx.spec;
    const bool held = d.held;
    const bool canAct = d.canAct;
    const bool force = d.force;
    const Timestamp now = d.now;
    std::string &blockedReason = d.blockedReason;
    for (const auto &p : ns.managed) {
        d.managedLeft = true;
        if (p.deleting)
            continue;
        if (!canAct) {
            ns.blockers.push_back(
                api::phrase(held ? api::UpgradePhrase::PodNodeHeld : api::UpgradePhrase::PodRolloutPaused,
                            {{"pod", p.key()}}));
            continue;
        }
        if (force) {
            if (!drainDelete(ns, ctx, d, p, api::GateVerdict::Delete, true,
                             api::phrase(api::UpgradePhrase::WhyForced)))
                return false; // refused: the node backs off
            continue;
        }
        api::ControllerHealth &h = ctx.health[p.controller];
        const api::GateVerdict v = api::controllerGate(h, p.ready, spec);
        const std::string controllerShort = "rs/" + p.controller.substr(p.controller.rfind('/') + 1);
        if (api::allowsDeletion(v)) {
            if (!localDataAllowed(ns, ctx, p, blockedReason) || !evictionAllowed(ns, ctx, p, blockedReason))
                continue;
            const api::Phrase why = api::phrase(api::UpgradePhrase::WhyManaged,
                                                {{"rule", api::gateRule(controllerShort, h, v, spec)}});
            if (api::consumesInflight(v) && !ctx.dry)
                ctx.st.inflight.push_back({p.controller, p.uid, p.key(), ns.name, now, h.ready, false});
            if (v == api::GateVerdict::DeleteSingleReplica)
                report(ctx, ns.object(), api::UpgradeReason::SingleReplicaDisrupted,
                       {{"pod", p.key()}, {"controller", controllerShort}});
            if (!drainDelete(ns, ctx, d, p, v, false, why)) {
                if (api::consumesInflight(v) && !ctx.dry)
                    ctx.st.inflight.pop_back(); // nothing is in flight: the pod stays
                return false;                   // refused: the node backs off
            }
            if (api::consumesInflight(v)) {
                ++h.inflight;
                if (p.ready)
                    --h.ready;
            }
            continue;
        }
        api::Phrase rule = api::gateRule(controllerShort, h, v, spec);
        ns.blockers.push_back(rule);
        if (!ctx.dry)
            m_metrics[ctx.name].countDeferral(api::gateVerdictName(v));
        report(ctx, ns.object(), api::UpgradeReason::PodDeletionDeferred, {{"pod", p.key()}, {"rule", rule}},
               true);
        if (v == api::GateVerdict::DeferSingleReplica)
            blockedReason = "SingleReplicaBlocked";
    }

    return true;
}

// Unmanaged pods by the rollout's policy. False when a deletion was refused.
bool NodeUpgradeController::drainUnmanaged(NodeState &ns, PassContext &ctx, DrainStep &step)
{
    const auto &spec = ctx.spec;
    const bool held = step.held;
    const bool canAct = step.canAct;
    const bool force = step.force;
    const Timestamp now = step.now;
    std::string &blockedReason = step.blockedReason;
    std::vector<const PodInfo *> live;
    std::vector<std::string> podNames;
    for (const auto &p : ns.unmanaged)
        if (!p.deleting) {
            live.push_back(&p);
            podNames.push_back(p.key());
        }
    if (!live.empty()) {
        const auto since = ns.time(api::ann::kIncompatibleSince).value_or(now);
        const api::UnmanagedDecision d =
            api::unmanagedDecision(spec.unmanagedPodPolicy, spec.timeouts.unmanagedTimeout, since, now);
        if (!canAct) {
            for (const auto &n : podNames)
                ns.blockers.push_back(
                    api::phrase(held ? api::UpgradePhrase::PodNodeHeld : api::UpgradePhrase::PodRolloutPaused,
                                {{"pod", n}}));
        } else if (force) {
            for (const auto *p : live)
                if (!drainDelete(ns, ctx, step, *p, api::GateVerdict::Delete, true,
                                 api::phrase(api::UpgradePhrase::WhyForced)))
                    return false; // refused: the node backs off
        } else if (d.deleteNow) {
            // Pods a budget keeps wait; the rest go now.
            std::vector<const PodInfo *> evictable;
            std::vector<std::string> evictableNames;
            for (const auto *p : live)
                if (localDataAllowed(ns, ctx, *p, blockedReason) &&
                    evictionAllowed(ns, ctx, *p, blockedReason)) {
                    evictable.push_back(p);
                    evictableNames.push_back(p->key());
                }
            live = std::move(evictable);
            podNames = std::move(evictableNames);
            if (!live.empty())
                report(ctx, ns.object(), api::UpgradeReason::UnmanagedPodsDeleted,
                       {{"count", std::to_string(live.size())}, {"pods", names(podNames)}});
            for (const auto *p : live)
                if (!drainDelete(ns, ctx, step, *p, api::GateVerdict::Delete, false,
                                 spec.unmanagedPodPolicy == api::UnmanagedPodPolicy::AfterTimeout
                                     ? api::phrase(api::UpgradePhrase::WhyCountdownExpired)
                                     : api::phrase(api::UpgradePhrase::WhyImmediate)))
                    return false; // refused: the node backs off
            ns.set(api::ann::kUnmanagedDeleted, "true");
        } else if (d.never) {
            report(ctx, ns.object(), api::UpgradeReason::UnmanagedPodsRetained, {{"pods", names(podNames)}},
                   true);
            for (const auto &n : podNames)
                ns.blockers.push_back(api::phrase(api::UpgradePhrase::UnmanagedNever, {{"pod", n}}));
            blockedReason = "UnmanagedPodsRetained";
            ns.set(api::ann::kReason, "UnmanagedPodsRetained");
        } else {
            report(ctx, ns.object(), api::UpgradeReason::UnmanagedPodsPending,
                   {{"count", std::to_string(live.size())},
                    {"remaining", api::phrase(api::UpgradePhrase::DurationAt,
                                              {{"duration", dur(d.remaining)},
                                               {"time", api::clockTime(now + d.remaining)}})},
                    {"pods", names(podNames)}},
                   true);
            for (const auto &n : podNames)
                ns.blockers.push_back(api::phrase(api::UpgradePhrase::UnmanagedDeletedIn,
                                                  {{"pod", n}, {"remaining", dur(d.remaining)}}));
        }
    }
    return true;
}

// Stall and timeout, on active (unpaused, unheld) time only. False when the node was skipped.
bool NodeUpgradeController::drainDeadlines(NodeState &ns, PassContext &ctx, DrainStep &d)
{
    const auto &spec = ctx.spec;
    const bool canAct = d.canAct;
    const Timestamp now = d.now;
    const Timestamp active = d.active;
    const int remaining = d.remaining;
    std::string &blockedReason = d.blockedReason;
    // Stall and timeout: active (unpaused, unheld) time only.
    if (canAct && remaining > 0) {
        const auto lastProgress = ns.time(api::ann::kLastProgress).value_or(now);
        if (active - lastProgress >= spec.timeouts.drainStall) {
            if (blockedReason.empty())
                blockedReason = "DrainStalled";
            report(ctx, ns.object(), api::UpgradeReason::DrainStalled,
                   {{"elapsed", api::phrase(api::UpgradePhrase::MoreThan,
                                            {{"duration", dur(spec.timeouts.drainStall)}})},
                    {"blockers", names(ns.blockers, 3)}},
                   true);
        }
        const auto drainStart = ns.time(api::ann::kDrainStart).value_or(now);
        if (active - drainStart >= spec.timeouts.drainTimeout && !ns.has(api::ann::kDrainTimedOut)) {
            ns.set(api::ann::kDrainTimedOut, "true");
            report(ctx, ns.object(), api::UpgradeReason::DrainTimeout,
                   {{"limit", dur(spec.timeouts.drainTimeout)},
                    {"policy", api::drainTimeoutPolicyName(spec.onDrainTimeout)}});
            if (spec.onDrainTimeout == api::DrainTimeoutPolicy::Skip) {
                const bool ours = ns.ours();
                releaseNode(ns, ctx, api::NodePhase::Skipped, false);
                report(ctx, ns.object(), api::UpgradeReason::NodeSkipped,
                       {{"actor", "onDrainTimeout"}, {"uncordon", uncordonSuffix(ours)}});
                return false;
            }
            if (spec.onDrainTimeout == api::DrainTimeoutPolicy::Force) {
                ns.set(api::ann::kForce, "onDrainTimeout");
                report(ctx, ns.object(), api::UpgradeReason::NodeForced, {{"actor", "onDrainTimeout"}});
            }
        }
        if (ns.has(api::ann::kDrainTimedOut) && spec.onDrainTimeout == api::DrainTimeoutPolicy::Hold &&
            blockedReason.empty())
            blockedReason = "DrainTimeout";
    }
    return true;
}

void NodeUpgradeController::sendKamikaze(NodeState &ns, PassContext &ctx, int send)
{
    // I4: decide on a fresh pod list of this node, not on the one this pass started with: the
    // pods the store has on the node now (the view's index follows every write synchronously),
    // each read from the store.
    std::vector<const kube::Pod *> fresh;
    if (m_view->rsDirty) {
        fresh = m_cluster.podsOnNode(ns.name);
    } else if (auto on = m_view->podsByNode.find(ns.name); on != m_view->podsByNode.end()) {
        for (const auto &key : on->second)
            if (auto e = m_view->pods.find(key); e != m_view->pods.end())
                if (const kube::Pod *p = m_cluster.pod(e->second.ns, e->second.name);
                    p && p->node() == ns.name)
                    fresh.push_back(p);
    }
    for (const auto *p : fresh) {
        bool exists = false;
        if (const auto *ref = p->metadata.controllerRef(); ref && ref->kind == "ReplicaSet")
            if (const auto *rs = m_cluster.replicaSet(p->metadata.namespace_, ref->name))
                exists = rs->metadata.uid == ref->uid;
        const api::PodClass c = api::classifyPod(*p, exists);
        if (c == api::PodClass::Managed || c == api::PodClass::Unmanaged)
            return; // something appeared since the pass began; the next pass deals with it
    }
    if (ctx.dry) {
        if (ctx.preview)
            ctx.preview->kamikazes.push_back(ns.name);
        return;
    }
    if (m_observer)
        if (const kube::Node *n = m_cluster.node(ns.name))
            m_observer->beforeKamikaze(ctx.name, *n);
    const int attempt = ns.integer(api::ann::kAttempt, 1);
    ns.set(api::ann::kAttempt, std::to_string(attempt));
    if (ctx.spec.restart == api::RestartMechanism::External) {
        // Nothing is asked of the node's agent: another tool restarts or replaces the node, and
        // the return is awaited from now (restartingExternal).
        ns.erase(api::ann::kRestartJob);
        ns.set(api::ann::kHandover, api::kamikazeToken(ctx.target, attempt, 0));
        ns.setTime(api::ann::kAckAt, ctx.now);
        ns.erase(api::ann::kBlocked);
        ns.erase(api::ann::kReason);
        setPhase(ns, ctx, api::NodePhase::Restarting);
        report(ctx, ns.object(), api::UpgradeReason::RestartHandedOver, {{"target", ctx.target}});
        return;
    }
    if (ctx.spec.restart == api::RestartMechanism::Job) {
        startRestartJob(ns, ctx, attempt);
        return;
    }
    ns.erase(api::ann::kHandover);
    ns.erase(api::ann::kRestartJob);
    ns.set(api::ann::kKamikaze, api::kamikazeToken(ctx.target, attempt, send));
    ns.setTime(api::ann::kKamikazeSent, ctx.now);
    ns.set(api::ann::kKamikazeSends, std::to_string(send));
    ns.erase(api::ann::kBlocked);
    ns.erase(api::ann::kReason);
    if (send == 1) {
        ns.erase(api::ann::kAckAt);
        if (ns.bootID.empty())
            ns.erase(api::ann::kBootId);
        else
            ns.set(api::ann::kBootId, ns.bootID);
        setPhase(ns, ctx, api::NodePhase::Restarting);
    }
    report(ctx, ns.object(), api::UpgradeReason::KamikazeSent,
           {{"target", ctx.target}, {"attempt", std::to_string(attempt)}, {"send", std::to_string(send)}});
}

void NodeUpgradeController::startRestartJob(NodeState &ns, PassContext &ctx, int attempt)
{
    // The Job of this attempt, created once: AlreadyExists means a previous leader created it
    // before it could record so, and it is adopted as it is.
    if (backingOff(ctx, ns.object()))
        return;
    const auto &spec = ctx.spec;
    const std::string name = api::restartJobName(ctx.name, ns.name, attempt);
    const std::string ref = spec.restartJobNamespace + "/" + name;
    const kube::Result<void> created = m_cluster.createJob(api::restartJobManifest(
        spec.restartJobTemplate, spec.restartJobNamespace, name, ctx.name, ns.name, ctx.target));
    if (!created && created.error().code != 409) {
        accepted(ctx, ns.object(), api::phrase(api::UpgradePhrase::WriteCreateJob, {{"job", ref}}),
                 &created.error());
        return;
    }
    accepted(ctx, ns.object(), api::phrase(api::UpgradePhrase::WriteCreateJob, {{"job", ref}}), nullptr);
    ns.erase(api::ann::kHandover);
    ns.erase(api::ann::kKamikaze);
    ns.set(api::ann::kRestartJob, api::restartJobToken(ctx.target, spec.restartJobNamespace, name));
    ns.setTime(api::ann::kKamikazeSent, ctx.now);
    ns.erase(api::ann::kAckAt);
    ns.erase(api::ann::kBlocked);
    ns.erase(api::ann::kReason);
    if (ns.bootID.empty())
        ns.erase(api::ann::kBootId);
    else
        ns.set(api::ann::kBootId, ns.bootID);
    setPhase(ns, ctx, api::NodePhase::Restarting);
    report(ctx, ns.object(), api::UpgradeReason::RestartJobCreated,
           {{"job", ref}, {"target", ctx.target}, {"attempt", std::to_string(attempt)}});
}

void NodeUpgradeController::restartingJob(NodeState &ns, PassContext &ctx)
{
    // Acknowledged once the Job's pod runs (or the Job already succeeded); Failed when the Job
    // fails, or when no pod of it ran within the time the annotation handshake would allow
    // (ackTimeout, doubled per re-send, ackRetries re-sends). Then back like any restart: Ready
    // again since the acknowledgement on the target version — or, the Job having succeeded,
    // Ready on the target at all (an upgrade in place that never left Ready).
    const std::string token = ns.get(api::ann::kRestartJob);
    const auto [jobNs, jobName] = api::restartJobOf(token);
    const std::string ref = jobNs + "/" + jobName;
    const std::string want = api::kamikazeTarget(token);
    const std::optional<kube::Job> job = m_cluster.job(jobNs, jobName);
    if (job && job->failedCondition) {
        fail(ns, ctx, "RestartJobFailed",
             api::phrase(api::UpgradePhrase::RestartJobFailed,
                         {{"job", ref}, {"reason", job->failureReason}, {"message", job->failureMessage}}));
        return;
    }
    const auto ackAt = ns.time(api::ann::kAckAt);
    if (!ackAt) {
        bool running = job && (job->succeeded > 0 || job->ready > 0);
        for (const kube::Pod *p : m_cluster.podsOnNode(ns.name))
            if (!running && p->metadata.namespace_ == jobNs &&
                (p->phase == "Running" || p->phase == "Succeeded"))
                if (const auto *owner = p->metadata.controllerRef();
                    owner && owner->kind == "Job" && owner->name == jobName)
                    running = true;
        if (running) {
            ns.setTime(api::ann::kAckAt, ctx.now);
            report(ctx, ns.object(), api::UpgradeReason::RestartJobRunning, {{"job", ref}});
            return;
        }
        const kube::Duration budget = ctx.spec.timeouts.acknowledgementBudget();
        const auto sent = ns.time(api::ann::kKamikazeSent).value_or(ctx.now);
        if (ctx.now - sent >= budget)
            fail(ns, ctx, "RestartJobNotRunning",
                 api::phrase(api::UpgradePhrase::RestartJobNotRunning,
                             {{"job", ref}, {"limit", dur(budget)}}));
        return;
    }
    const bool succeeded = job && job->complete;
    if (ns.ready && (rejoinedSince(ns, *ackAt) || (succeeded && ns.version == want))) {
        if (ns.version == want)
            returned(ns, ctx);
        else
            fail(ns, ctx, "VersionMismatch",
                 api::phrase(api::UpgradePhrase::RejoinedOn, {{"version", ns.version}, {"target", want}}));
        return;
    }
    awaitReturn(ns, ctx, *ackAt);
}

bool NodeUpgradeController::rejoinedSince(const NodeState &ns, kube::Timestamp ackAt) const
{
    const std::string bootAtRequest = ns.get(api::ann::kBootId);
    const bool rebooted = !bootAtRequest.empty() && !ns.bootID.empty() && ns.bootID != bootAtRequest;
    return ns.ready && ((ns.readySince && *ns.readySince / 1000 > ackAt / 1000) || rebooted);
}

void NodeUpgradeController::restartingExternal(NodeState &ns, PassContext &ctx)
{
    // Back when the node is Ready on the target version — the same node object after a reboot or
    // an in-place upgrade (a replaced node comes back as a new, up-to-date node and this one is
    // Removed).
    const std::string want = api::kamikazeTarget(ns.get(api::ann::kHandover));
    if (ns.ready && ns.version == want)
        returned(ns, ctx);
    else
        awaitReturn(ns, ctx, ns.time(api::ann::kAckAt).value_or(ctx.now));
}

void NodeUpgradeController::returned(NodeState &ns, PassContext &ctx)
{
    setPhase(ns, ctx, api::NodePhase::Soaking);
    report(ctx, ns.object(), api::UpgradeReason::NodeRejoined, {{"version", ns.version}});
    report(ctx, ns.object(), api::UpgradeReason::SoakStarted, {{"duration", dur(ctx.spec.soakDuration)}});
}

void NodeUpgradeController::awaitReturn(NodeState &ns, PassContext &ctx, Timestamp since)
{
    if (ctx.now - since >= ctx.spec.timeouts.returnTimeout)
        fail(
            ns, ctx, "NodeDidNotReturn",
            api::phrase(api::UpgradePhrase::DidNotReturn, {{"limit", dur(ctx.spec.timeouts.returnTimeout)}}));
}

void NodeUpgradeController::restarting(NodeState &ns, PassContext &ctx)
{
    if (ns.has(api::ann::kRestartJob)) {
        restartingJob(ns, ctx);
        return;
    }
    if (ns.has(api::ann::kHandover)) {
        restartingExternal(ns, ctx);
        return;
    }
    const auto &t = ctx.spec.timeouts;
    const std::string token = ns.get(api::ann::kKamikaze);
    const auto ackAt = ns.time(api::ann::kAckAt);
    if (!ackAt) {
        if (!token.empty() && ns.get(api::ann::kKamikazeAck) == token) {
            ns.setTime(api::ann::kAckAt, ctx.now);
            report(ctx, ns.object(), api::UpgradeReason::KamikazeAcknowledged, {});
            return;
        }
        const int sends = ns.integer(api::ann::kKamikazeSends, 1);
        const auto sent = ns.time(api::ann::kKamikazeSent).value_or(ctx.now);
        const kube::Duration timeout = t.ackTimeout << std::min(sends - 1, 20); // backoff x2
        if (ctx.now - sent < timeout)
            return;
        if (sends <= t.ackRetries) {
            const std::string target =
                api::kamikazeTarget(token).empty() ? ctx.target : api::kamikazeTarget(token);
            const std::string saved = ctx.target;
            ctx.target = target; // a re-send keeps the version it promised
            sendKamikaze(ns, ctx, sends + 1);
            ctx.target = saved;
            return;
        }
        fail(ns, ctx, "AgentUnresponsive",
             api::phrase(sends == 1 ? api::UpgradePhrase::NoAcknowledgementOne
                                    : api::UpgradePhrase::NoAcknowledgementMany,
                         {{"count", std::to_string(sends)}}));
        return;
    }
    // Rejoined: Ready again after the acknowledgement — the Ready condition moved since, or the
    // node booted since the request (a reboot too fast to be seen NotReady changes only the
    // bootID).
    if (rejoinedSince(ns, *ackAt)) {
        const std::string want = api::kamikazeTarget(token);
        if (ns.version == want) {
            returned(ns, ctx);
        } else {
            fail(ns, ctx, "VersionMismatch",
                 api::phrase(api::UpgradePhrase::RejoinedOn, {{"version", ns.version}, {"target", want}}));
        }
        return;
    }
    awaitReturn(ns, ctx, *ackAt);
}

void NodeUpgradeController::soaking(NodeState &ns, PassContext &ctx)
{
    const auto since = ns.time(api::ann::kPhaseSince).value_or(ctx.now);
    if (!ns.ready || (ns.readySince && *ns.readySince / 1000 > since / 1000)) {
        fail(ns, ctx, "UnstableAfterUpgrade", api::phrase(api::UpgradePhrase::NotReadyDuringSoak));
        return;
    }
    bool dsReady = true;
    for (const auto &p : ns.daemon)
        if (!p.deleting && !p.ready)
            dsReady = false;
    const kube::Duration elapsed = ctx.now - since;
    if (elapsed >= ctx.spec.soakDuration && dsReady) {
        complete(ns, ctx, false);
        return;
    }
    if (!dsReady && elapsed >= ctx.spec.soakDuration + ctx.spec.timeouts.returnTimeout)
        fail(ns, ctx, "UnstableAfterUpgrade", api::phrase(api::UpgradePhrase::PodsNotReadyAfterSoak));
}

void NodeUpgradeController::complete(NodeState &ns, PassContext &ctx, bool outOfBand)
{
    if (outOfBand)
        report(ctx, ns.object(), api::UpgradeReason::OutOfBandUpgrade, {{"version", ns.version}});
    const auto selectedAt = ns.time(api::ann::kSelectedAt);
    bool owed = false; // the uncordon was refused: the cordon stays ours, retried later
    if (ns.ours()) {
        owed = !uncordon(ns, ctx);
        if (!owed)
            report(ctx, ns.object(), api::UpgradeReason::NodeUncordoned, {});
    }
    ns.untaintWanted = true;
    // Upgraded keeps only its phase, owner and time; everything else goes.
    for (const auto &k : ns.committedKeys())
        if (k.rfind("upgrade/", 0) == 0 && k != api::ann::kPhase && k != api::ann::kRollout &&
            k != api::ann::kPhaseSince && k != api::ann::kHold &&
            !(owed && k == api::ann::kCordonedByController))
            ns.erase(k);
    for (auto it = ns.patch.begin(); it != ns.patch.end();)
        if (it->second && !ns.committed(it->first))
            it = ns.patch.erase(it);
        else
            ++it;
    setPhase(ns, ctx, api::NodePhase::Upgraded);
    if (!outOfBand && selectedAt) {
        const kube::Duration d = ctx.now - *selectedAt;
        ctx.st.nodeDurations.push_back(d);
        if (ctx.st.nodeDurations.size() > kMaxNodeDurations)
            ctx.st.nodeDurations.erase(ctx.st.nodeDurations.begin());
        ctx.st.lastCompletion = ctx.now;
        report(ctx, ns.object(), api::UpgradeReason::NodeUpgraded,
               {{"version", ns.version}, {"duration", dur(d)}});
    } else if (!outOfBand) {
        report(ctx, ns.object(), api::UpgradeReason::NodeUpgraded,
               {{"version", ns.version}, {"duration", "?"}});
    }
}

void NodeUpgradeController::fail(NodeState &ns, PassContext &ctx, const std::string &reason,
                                 const api::Phrase &detail)
{
    ns.set(api::ann::kReason, reason);
    setPhase(ns, ctx, api::NodePhase::Failed);
    // The failure budget applies at once: nodes later in this pass see the halt.
    if (++ctx.failedUnacked >= ctx.spec.maxFailedNodes && !ctx.spec.abort)
        ctx.halted = ctx.paused = true;
    report(ctx, ns.object(), api::UpgradeReason::NodeFailed, {{"reason", reason}, {"detail", detail}});
}

bool NodeUpgradeController::select(NodeState &ns, PassContext &ctx, int position, int slot, int slots)
{
    if (ctx.dry) {
        if (ctx.preview)
            ctx.preview->nextNodes.push_back(ns.name);
        return true;
    }
    // An admin's cordon is respected and never undone: ownership stays false.
    const bool alreadyCordoned = ns.unschedulable;
    if (!alreadyCordoned) {
        const kube::Result<void> r = [&] {
            const Timed timed(m_timing.writeNanos);
            return m_cluster.cordon(ns.name);
        }();
        if (!accepted(ctx, ns.object(), api::phrase(api::UpgradePhrase::WriteCordon),
                      r ? nullptr : &r.error()))
            return false; // not selected: the node stays Pending
        ns.unschedulable = true;
    }
    ns.set(api::ann::kCordonedByController, alreadyCordoned ? "false" : "true");
    ns.setTime(api::ann::kSelectedAt, ctx.now);
    if (!ns.has(api::ann::kAttempt))
        ns.set(api::ann::kAttempt, "1");
    ns.erase(api::ann::kReason);
    setPhase(ns, ctx, api::NodePhase::Cordoned);
    ctx.selected.push_back(ns.name);
    report(ctx, ns.object(), api::UpgradeReason::NodeSelected,
           {{"position", std::to_string(position)},
            {"slot", std::to_string(slot)},
            {"slots", std::to_string(slots)}});
    report(ctx, ns.object(), api::UpgradeReason::NodeCordoned,
           {{"how", api::phrase(alreadyCordoned ? api::UpgradePhrase::AlreadyCordoned
                                                : api::UpgradePhrase::CordonedByController)}});
    return true;
}

// ---- admin actions -------------------------------------------------------------------------

kube::Result<void> requestNodeUpgradeControl(UpgradeCluster &cluster, api::NodeUpgradeEvents &events,
                                             const std::string &rollout, const std::string &action,
                                             const std::string &node, const std::string &actor,
                                             const std::string &note)
{
    const auto *r = cluster.rollout(rollout);
    if (!r)
        return kube::ApiStatus::notFound("nodeupgraderollouts", rollout);
    const Timestamp now = cluster.now();
    const std::string object = "nodeupgraderollout/" + rollout;
    auto annotate = [&](const std::string &key,
                        const std::optional<std::string> &value) -> kube::Result<void> {
        if (!cluster.node(node))
            return kube::ApiStatus::notFound("nodes", node);
        auto res = cluster.patchNode(
            node, {{"metadata", {{"annotations", {{key, value ? Json(*value) : Json()}}}}}});
        if (!res)
            return res.error();
        return {};
    };
    kube::Result<void> result;
    if (action == "pause") {
        result = cluster.editRollout(rollout, [&](api::NodeUpgradeRollout &x) {
            x.spec.paused = true;
            if (!note.empty())
                x.spec.pauseReason = note;
            x.metadata.annotations["upgrade/paused-by"] = actor;
        });
    } else if (action == "resume") {
        result = cluster.editRollout(rollout, [&](api::NodeUpgradeRollout &x) {
            x.spec.paused = false;
            x.spec.pauseReason.clear();
            x.metadata.annotations["upgrade/resumed-by"] = actor;
        });
    } else if (action == "abort" && node.empty()) {
        result = cluster.editRollout(rollout, [&](api::NodeUpgradeRollout &x) {
            x.spec.abort = true;
            x.metadata.annotations["upgrade/aborted-by"] = actor;
        });
    } else if (action == "acknowledge") {
        std::vector<std::string> acked;
        for (const auto *n : cluster.nodes())
            if (n->metadata.annotation(api::ann::kPhase) == "Failed" &&
                n->metadata.annotation(api::ann::kRollout).rfind(rollout + "/", 0) == 0 &&
                n->metadata.annotation(api::ann::kFailureAcknowledged).empty())
                acked.push_back(n->metadata.name);
        for (const auto &n : acked)
            if (auto r = cluster.patchNode(
                    n, {{"metadata", {{"annotations", {{api::ann::kFailureAcknowledged, actor}}}}}});
                !r) {
                // Nodes acknowledged before stay acknowledged; the admin repeats the action.
                kube::ApiStatus refusal = r.error();
                refusal.message = "acknowledging " + n + ": " + refusal.message;
                return refusal;
            }
        const api::UpgradeEventParams params = {
            {"nodes", acked.empty() ? api::phrase(api::UpgradePhrase::NoNode) : names(acked)},
            {"actor", actor}};
        events.record(now, object, api::UpgradeReason::RolloutAcknowledged, params);
        cluster.recordEvent("Normal", api::upgradeReasonName(api::UpgradeReason::RolloutAcknowledged),
                            api::upgradeEventMessage(api::UpgradeReason::RolloutAcknowledged, params),
                            api::Kind::NodeUpgradeRollout, "", rollout);
    } else if (action == "hold") {
        const api::Phrase noteSuffix =
            note.empty() ? api::Phrase() : api::phrase(api::UpgradePhrase::NoteSuffix, {{"note", note}});
        result = annotate(api::ann::kHold, std::string("true"));
        if (result) {
            events.record(now, "node/" + node, api::UpgradeReason::NodeHeld,
                          {{"actor", actor}, {"note", noteSuffix}});
            cluster.recordEvent("Normal", "NodeHeld",
                                api::upgradeEventMessage(api::UpgradeReason::NodeHeld,
                                                         {{"actor", actor}, {"note", noteSuffix}}),
                                api::Kind::Node, "", node);
        }
    } else if (action == "release") {
        result = annotate(api::ann::kHold, std::nullopt);
        if (result) {
            events.record(now, "node/" + node, api::UpgradeReason::NodeReleased, {{"actor", actor}});
            cluster.recordEvent(
                "Normal", "NodeReleased",
                api::upgradeEventMessage(api::UpgradeReason::NodeReleased, {{"actor", actor}}),
                api::Kind::Node, "", node);
        }
    } else if (action == "skip") {
        result = annotate("upgrade/skip-requested", actor);
    } else if (action == "retry") {
        result = annotate("upgrade/retry-requested", actor);
    } else if (action == "abort") {
        result = annotate("upgrade/abort-requested", actor);
    } else if (action == "force") {
        result = annotate(api::ann::kForce, actor);
        if (result) {
            events.record(now, "node/" + node, api::UpgradeReason::NodeForced, {{"actor", actor}});
            cluster.recordEvent("Warning", "NodeForced",
                                api::upgradeEventMessage(api::UpgradeReason::NodeForced, {{"actor", actor}}),
                                api::Kind::Node, "", node);
        }
    } else {
        return kube::ApiStatus::badRequest("unknown action \"" + action + "\"");
    }
    return result;
}

kube::Result<void> NodeUpgradeController::control(const std::string &rollout, const std::string &action,
                                                  const std::string &node, const std::string &actor,
                                                  const std::string &note)
{
    if (auto r = requestNodeUpgradeControl(m_cluster, m_events, rollout, action, node, actor, note); !r)
        return r;
    pass();
    return {};
}

// ---- per-node table ------------------------------------------------------------------------

const char *cordonOwnerName(CordonOwner owner)
{
    switch (owner) {
    case CordonOwner::Controller:
        return "controller";
    case CordonOwner::SomeoneElse:
        return "someone else";
    case CordonOwner::None:
        break;
    }
    return "";
}

std::vector<NodeUpgradeRow> nodeUpgradeTable(const UpgradeCluster &cluster, const std::string &rollout,
                                             const std::map<std::string, std::vector<api::Phrase>> *blockers)
{
    std::vector<NodeUpgradeRow> rows;
    const auto *r = cluster.rollout(rollout);
    if (!r)
        return rows;
    const Timestamp now = cluster.now();
    std::map<std::string, int> queuePos;
    for (std::size_t i = 0; i < r->status.queue.size(); ++i)
        queuePos[r->status.queue[i]] = static_cast<int>(i) + 1;
    for (const auto *n : cluster.nodes()) {
        if (!matches(r->spec.nodeSelector, n->metadata.labels))
            continue;
        NodeUpgradeRow row;
        row.name = n->metadata.name;
        row.zone = n->metadata.label(api::kZoneLabel);
        row.agentVersion = n->kubeletVersion;
        row.phase = api::nodePhaseFromString(n->metadata.annotation(api::ann::kPhase))
                        .value_or(api::NodePhase::UpToDate);
        if (auto since = api::parseUpgradeTime(n->metadata.annotation(api::ann::kPhaseSince)))
            row.timeInPhase = now - *since;
        row.queuePosition = queuePos.count(row.name) ? queuePos[row.name] : 0;
        row.reason = n->metadata.annotation(api::ann::kReason);
        if (row.reason.empty())
            row.reason = n->metadata.annotation(api::ann::kBlocked);
        if (row.reason.empty() && row.phase == api::NodePhase::Pending && !n->isReady())
            row.reason = api::phrase(api::UpgradePhrase::NotReadyWaits);
        const std::string attempt = n->metadata.annotation(api::ann::kAttempt);
        row.attempt = attempt.empty() ? 0 : std::atoi(attempt.c_str());
        const std::string owned = n->metadata.annotation(api::ann::kCordonedByController);
        row.cordonOwner = owned == "true"    ? CordonOwner::Controller
                          : n->unschedulable ? CordonOwner::SomeoneElse
                                             : CordonOwner::None;
        row.held = n->metadata.annotation(api::ann::kHold) == "true";
        row.blocked = !n->metadata.annotation(api::ann::kBlocked).empty() && api::isPreRestart(row.phase);
        if (blockers && api::isPreRestart(row.phase)) {
            if (auto b = blockers->find(rollout + "/" + row.name); b != blockers->end())
                row.blockers = b->second;
        }
        if (api::isPreRestart(row.phase)) {
            if (auto start = api::parseUpgradeTime(n->metadata.annotation(api::ann::kDrainStart))) {
                const Timestamp active = r->status.pausedAt ? std::min(*r->status.pausedAt, now) : now;
                row.nextDeadline = api::phrase(
                    api::UpgradePhrase::DeadlineDrain,
                    {{"elapsed", dur(active - *start)}, {"limit", dur(r->spec.timeouts.drainTimeout)}});
            }
        } else if (row.phase == api::NodePhase::Restarting) {
            if (auto ack = api::parseUpgradeTime(n->metadata.annotation(api::ann::kAckAt)))
                row.nextDeadline = api::phrase(
                    api::UpgradePhrase::DeadlineReturn,
                    {{"elapsed", dur(now - *ack)}, {"limit", dur(r->spec.timeouts.returnTimeout)}});
            else if (auto sent = api::parseUpgradeTime(n->metadata.annotation(api::ann::kKamikazeSent)))
                row.nextDeadline =
                    api::phrase(api::UpgradePhrase::DeadlineAck,
                                {{"elapsed", dur(now - *sent)},
                                 {"limit", dur(n->metadata.annotation(api::ann::kRestartJob).empty()
                                                   ? r->spec.timeouts.ackTimeout
                                                   : r->spec.timeouts.acknowledgementBudget())}});
        } else if (row.phase == api::NodePhase::Soaking) {
            row.nextDeadline =
                api::phrase(api::UpgradePhrase::DeadlineSoak,
                            {{"elapsed", dur(row.timeInPhase)}, {"limit", dur(r->spec.soakDuration)}});
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<NodeUpgradeRow> NodeUpgradeController::table(const std::string &rollout) const
{
    return nodeUpgradeTable(m_cluster, rollout, &m_blockers);
}

} // namespace engine
