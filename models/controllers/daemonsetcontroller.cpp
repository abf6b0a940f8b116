#include "models/controllers/daemonsetcontroller.h"
#include "models/controllers/podtemplate.h"
#include "models/kube/jsonfield.h"

#include <algorithm>

namespace controllers {

using api::WatchEvent;
using kube::ApiStatus;
using kube::ControllerRevision;
using kube::Json;
using kube::Pod;

struct DaemonSetController::SyncContext
{
    std::string key;
    kube::DaemonSet ds;
    kube::LabelSelector selector;
    std::string hash;
    std::vector<ControllerRevision> old; // copies: cleanup runs after pod writes
    bool claimed = false;
    SyncResult result;
};

namespace {

// The key of the object `name` in the namespace of `owner` ("namespace/name").
std::string keyBeside(const kube::ObjectMeta &owner, const std::string &name)
{
    return owner.namespace_.empty() ? name : owner.namespace_ + "/" + name;
}

} // namespace

DaemonSetController::DaemonSetController(DaemonSetClient &client)
    : m_c(client), m_queue(client.timers(), [this](const std::string &key) { processKey(key); })
{}

// ---- handlers ----------------------------------------------------------------------------

void DaemonSetController::onDaemonSet(const WatchEvent &ev)
{
    const std::string key = ev.key();
    if (ev.type == WatchEvent::Type::Deleted) {
        m_views.erase(ev.daemonSet->metadata.uid);
        m_c.deliver([this, key] {
            m_expectations.erase(key);
            enqueue(key);
        });
        return;
    }
    m_c.deliver([this, key] { enqueue(key); });
}

void DaemonSetController::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    const kube::OwnerReference *ref = pod.metadata.controllerRef();
    std::vector<std::string> keys;
    if (ref) {
        if (ref->kind != "DaemonSet")
            return;
        const std::string *key = m_c.daemonSetKeyOfUid(ref->uid);
        if (!key)
            return;
        keys.push_back(*key);
    } else {
        if (ev.type == WatchEvent::Type::Deleted)
            return;
        // An orphan: every DaemonSet of its namespace whose selector matches may adopt it.
        for (const kube::DaemonSet *ds : m_c.daemonSetsIn(pod.metadata.namespace_)) {
            auto sel = ds->selector();
            if (sel && !sel->empty() && sel->matches(pod.metadata.labels))
                keys.push_back(ds->metadata.key());
        }
        if (keys.empty())
            return;
    }
    const bool deleting = pod.isDeleting();
    const auto type = ev.type;
    m_c.deliver([this, keys, deleting, type, hasRef = ref != nullptr] {
        for (const auto &key : keys) {
            if (hasRef) {
                if (type == WatchEvent::Type::Deleted || deleting)
                    deletionObserved(key);
                else if (type == WatchEvent::Type::Added)
                    creationObserved(key);
            }
            enqueue(key);
        }
    });
}

void DaemonSetController::onNode(const WatchEvent &ev)
{
    // updateNode's rule: a node written in place matters to a DaemonSet only when it changes
    // whether the DaemonSet's pod should run or keep running there. Each view built for the
    // current node set compares its answer for the node with the new one; a DaemonSet without
    // such a view, and every DaemonSet when a node is added or removed (which changes the node
    // set, so the views are built again in full), is synced.
    const std::uint64_t nodesAt = m_c.nodeSetVersion();
    const bool inPlace = ev.type == WatchEvent::Type::Modified && ev.node && m_nodesAt == nodesAt;
    const auto idx = inPlace ? m_nodeIndex.find(ev.name) : m_nodeIndex.end();
    std::vector<std::string> keys;
    m_c.forEachDaemonSet([&](const std::string &key, const kube::DaemonSet &ds) {
        auto view = m_views.find(ds.metadata.uid);
        if (idx == m_nodeIndex.end() || view == m_views.end() || view->second.nodesAt != nodesAt) {
            keys.push_back(key);
            return;
        }
        NodeView &v = view->second;
        const api::ShouldRun now = api::nodeShouldRunDaemonPod(*ev.node, v.predicate);
        const api::ShouldRun &was = v.entries[idx->second].should;
        if (now.shouldRun == was.shouldRun && now.shouldContinueRunning == was.shouldContinueRunning)
            return;
        markDirty(v, idx->second, kNodeDirty);
        keys.push_back(key);
    });
    if (keys.empty())
        return;
    m_c.deliver([this, keys] {
        for (const auto &key : keys)
            enqueue(key);
    });
}

void DaemonSetController::onRevision(const WatchEvent &ev)
{
    const kube::OwnerReference *ref = ev.controllerRevision->metadata.controllerRef();
    if (!ref || ref->kind != "DaemonSet")
        return;
    const std::string *key = m_c.daemonSetKeyOfUid(ref->uid);
    if (!key)
        return;
    m_c.deliver([this, key = *key] { enqueue(key); });
}

// ---- work queue --------------------------------------------------------------------------

void DaemonSetController::enqueue(const std::string &key)
{
    scheduleAt(key, m_queue.spaced(key, m_c.now(),
                                   kSyncInterval + static_cast<kube::Duration>(m_c.nodeCount()) *
                                                       kSyncMicrosPerNode / 1000));
}

void DaemonSetController::enqueueAfter(const std::string &key, kube::Duration delay)
{
    scheduleAt(key, m_c.now() + std::max<kube::Duration>(0, delay));
}

void DaemonSetController::scheduleAt(const std::string &key, kube::Timestamp due)
{
    if (!m_c.continuous())
        return; // stepped mode: only explicit syncs run
    m_queue.scheduleAt(key, due);
}

void DaemonSetController::processKey(const std::string &key)
{
    SyncResult r = sync(key);
    if (!r.ok)
        enqueueAfter(key, m_queue.retryDelay(key)); // rate-limited requeue
    else
        m_queue.succeeded(key);
}

// ---- expectations ------------------------------------------------------------------------

bool DaemonSetController::satisfiedExpectations(const std::string &key) const
{
    auto it = m_expectations.find(key);
    if (it == m_expectations.end())
        return true;
    const auto &e = it->second;
    if (e.add <= 0 && e.del <= 0)
        return true;
    return m_c.now() - e.timestamp > kExpectationsTimeout;
}

void DaemonSetController::setExpectations(const std::string &key, int add, int del)
{
    m_expectations[key] = Expectations{add, del, m_c.now()};
}

void DaemonSetController::creationObserved(const std::string &key)
{
    if (auto it = m_expectations.find(key); it != m_expectations.end())
        --it->second.add;
}

void DaemonSetController::deletionObserved(const std::string &key)
{
    if (auto it = m_expectations.find(key); it != m_expectations.end())
        --it->second.del;
}

void DaemonSetController::lowerExpectations(const std::string &key, int add, int del)
{
    if (auto it = m_expectations.find(key); it != m_expectations.end()) {
        it->second.add -= add;
        it->second.del -= del;
    }
}

// ---- claims ------------------------------------------------------------------------------

std::vector<const Pod *> DaemonSetController::daemonPods(const kube::DaemonSet &ds,
                                                         const kube::LabelSelector &sel)
{
    const std::string &uid = ds.metadata.uid;
    // Release owned pods that no longer match; adopt matching orphans (ClaimPods).
    std::vector<std::string> release, adopt;
    if (const auto *owned = m_c.podsControlledBy(uid)) {
        for (const auto &[name, pod] : *owned)
            if (!sel.matches(pod->metadata.labels))
                release.push_back(pod->metadata.key());
    }
    if (!ds.metadata.deletionTimestamp) {
        if (const auto *orphans = m_c.orphanPods(ds.metadata.namespace_)) {
            for (const auto &[name, pod] : *orphans)
                if (!pod->isDeleting() && sel.matches(pod->metadata.labels))
                    adopt.push_back(pod->metadata.key());
        }
    }
    for (const auto &k : release) {
        kube::Pod p = *m_c.pod(k);
        auto &refs = p.metadata.ownerReferences;
        refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const auto &r) { return r.uid == uid; }),
                   refs.end());
        m_c.updatePod(std::move(p));
    }
    for (const auto &k : adopt) {
        kube::Pod p = *m_c.pod(k);
        p.metadata.ownerReferences.push_back(
            {"apps/v1", "DaemonSet", ds.metadata.name, ds.metadata.uid, true, true});
        m_c.updatePod(std::move(p));
    }
    std::vector<const Pod *> out;
    if (const auto *owned = m_c.podsControlledBy(uid)) {
        out.reserve(owned->size());
        for (const auto &[name, pod] : *owned)
            if (pod->metadata.namespace_ == ds.metadata.namespace_)
                out.push_back(pod);
    }
    return out;
}

kube::Result<std::vector<const ControllerRevision *>>
DaemonSetController::controlledHistories(const kube::DaemonSet &ds, const kube::LabelSelector &sel)
{
    std::vector<std::string> claimed, release, adopt;
    for (const ControllerRevision *revision : m_c.revisionsIn(ds.metadata.namespace_)) {
        const auto &cr = *revision;
        const std::string key = cr.metadata.key();
        const kube::OwnerReference *ref = cr.metadata.controllerRef();
        const bool match = sel.matches(cr.metadata.labels);
        if (ref) {
            if (ref->uid != ds.metadata.uid)
                continue;
            if (match)
                claimed.push_back(key);
            else if (!ds.metadata.deletionTimestamp)
                release.push_back(key);
        } else if (match && !ds.metadata.deletionTimestamp && !cr.metadata.deletionTimestamp) {
            adopt.push_back(key);
        }
    }
    for (const auto &k : release) {
        kube::ControllerRevision cr = *m_c.revision(k);
        auto &refs = cr.metadata.ownerReferences;
        refs.erase(
            std::remove_if(refs.begin(), refs.end(), [&](const auto &r) { return r.uid == ds.metadata.uid; }),
            refs.end());
        m_c.updateRevision(std::move(cr));
    }
    for (const auto &k : adopt) {
        kube::ControllerRevision cr = *m_c.revision(k);
        cr.metadata.ownerReferences.push_back(
            {"apps/v1", "DaemonSet", ds.metadata.name, ds.metadata.uid, true, true});
        m_c.updateRevision(std::move(cr));
        claimed.push_back(k);
    }
    std::sort(claimed.begin(), claimed.end());
    std::vector<const ControllerRevision *> out;
    for (const auto &k : claimed)
        out.push_back(m_c.revision(k));
    return out;
}

void DaemonSetController::podsChanged(const std::string &ownerUid, const std::string &node)
{
    auto it = m_views.find(ownerUid);
    // A view built for other nodes is rebuilt in full anyway.
    if (it == m_views.end() || it->second.nodesAt != m_c.nodeSetVersion())
        return;
    NodeView &v = it->second;
    if (node.empty())
        return; // an untargeted pod belongs to no node (nodeView skips it)
    if (auto idx = m_nodeIndex.find(node); idx != m_nodeIndex.end()) {
        markDirty(v, idx->second, kPodsDirty);
        return;
    }
    if (v.dirtyMissing.size() > v.entries.size() + 64) {
        // Many writes for nodes that do not exist without a sync in between: rebuild instead.
        v.nodesAt = 0;
        std::vector<std::string>().swap(v.dirtyMissing);
        return;
    }
    v.dirtyMissing.push_back(node);
}

void DaemonSetController::markDirty(NodeView &v, std::size_t index, char what)
{
    if (!v.isDirty[index])
        v.dirty.push_back(index);
    v.isDirty[index] |= what;
}

void DaemonSetController::refreshNodeList()
{
    const std::uint64_t nodesAt = m_c.nodeSetVersion();
    if (m_nodesAt == nodesAt)
        return;
    m_nodeIndex.clear();
    m_nodeList = m_c.nodes();
    m_nodeIndex.reserve(m_nodeList.size());
    for (std::size_t i = 0; i < m_nodeList.size(); ++i)
        m_nodeIndex.emplace(m_nodeList[i]->metadata.name, i);
    m_nodesAt = nodesAt;
}

void DaemonSetController::fillEntry(const kube::DaemonSet &ds, const std::string &node,
                                    std::vector<const Pod *> &out, bool includeDeletedTerminal) const
{
    out.clear();
    const auto *owner = m_c.podsControlledByPerNode(ds.metadata.uid);
    if (!owner)
        return;
    auto n = owner->find(node);
    if (n == owner->end())
        return;
    for (const auto &[name, pod] : n->second)
        if (pod->metadata.namespace_ == ds.metadata.namespace_ &&
            (includeDeletedTerminal || !(pod->isTerminal() && pod->isDeleting())))
            out.push_back(pod);
}

namespace {

// podsShouldBeOnNode decides nothing for such an entry: nothing to run and no pods, or one
// live pod where one may continue to run.
bool idle(const api::NodeDaemonPods &e)
{
    if (e.pods.empty())
        return !e.should.shouldRun;
    return e.should.shouldContinueRunning && e.pods.size() == 1 && !e.pods[0]->isDeleting() &&
           !e.pods[0]->isTerminal();
}

} // namespace

void DaemonSetController::refilled(NodeView &v, std::size_t index, const SyncContext &ctx)
{
    const api::NodeDaemonPods &e = v.entries[index];
    if (idle(e))
        v.busy.erase(index);
    else
        v.busy.insert(index);
    const bool timeless = ctx.ds.minReadySeconds() == 0;
    const auto generation = ctx.ds.templateGeneration();
    if (v.rollsFor.holds(ctx.hash, generation, timeless))
        v.rolls[index] = api::rollingNode(e, ctx.hash, generation, 0, m_c.now());
    else
        v.rollsFor.valid = false;
    if (v.sharesFor.holds(ctx.hash, generation, timeless)) {
        v.total -= v.shares[index];
        v.shares[index] = api::daemonSetStatusShare(e, ctx.hash, generation, 0, m_c.now());
        v.total += v.shares[index];
    } else {
        v.sharesFor.valid = false;
    }
}

DaemonSetController::NodeView &DaemonSetController::nodeView(SyncContext &ctx)
{
    refreshNodeList();
    NodeView &v = m_views[ctx.ds.metadata.uid];
    static const Json nullSpec;
    const Json &tpl = ctx.ds.podTemplate();
    const Json &spec = tpl.is_object() && tpl.contains("spec") ? tpl["spec"] : nullSpec;
    if (v.nodesAt == m_c.nodeSetVersion() && v.podSpec == spec) {
        for (std::size_t i : v.dirty) {
            if (v.isDirty[i] & kNodeDirty)
                v.entries[i].should = api::nodeShouldRunDaemonPod(*m_nodeList[i], v.predicate);
            v.isDirty[i] = 0;
            fillEntry(ctx.ds, v.entries[i].node, v.entries[i].pods, false);
            refilled(v, i, ctx);
        }
        v.dirty.clear();
        for (const auto &node : v.dirtyMissing) {
            std::vector<const Pod *> pods;
            fillEntry(ctx.ds, node, pods, false);
            if (pods.empty())
                v.missing.erase(node);
            else
                v.missing.insert(node);
        }
        v.dirtyMissing.clear();
        return v;
    }
    // Full build: nodeShouldRunDaemonPod per node, then the owner index merged in node order.
    v.podSpec = spec;
    v.predicate = api::daemonPodPredicate(ctx.ds);
    v.predicate.spec = &v.podSpec; // the view's copy: the DaemonSet object is replaced by its writes
    const api::DaemonPodPredicate &predicate = v.predicate;
    v.entries.resize(m_nodeList.size());
    for (std::size_t i = 0; i < m_nodeList.size(); ++i) {
        api::NodeDaemonPods &e = v.entries[i];
        e.node = m_nodeList[i]->metadata.name;
        e.should = api::nodeShouldRunDaemonPod(*m_nodeList[i], predicate);
        e.nodeExists = true;
        e.pods.clear();
    }
    v.missing.clear();
    const std::string &ns = ctx.ds.metadata.namespace_;
    if (const auto *owner = m_c.podsControlledByPerNode(ctx.ds.metadata.uid)) {
        for (const auto &[node, pods] : *owner) {
            // A pod with no target node (no nodeName, no metadata.name matchFields) is skipped,
            // as upstream's getNodesToDaemonPods skips what util.GetTargetNodeName cannot place.
            if (node.empty())
                continue;
            auto idx = m_nodeIndex.find(node);
            for (const auto &[name, pod] : pods) {
                if (pod->metadata.namespace_ != ns || (pod->isTerminal() && pod->isDeleting()))
                    continue;
                if (idx == m_nodeIndex.end()) {
                    v.missing.insert(node);
                    break;
                }
                v.entries[idx->second].pods.push_back(pod);
            }
        }
    }
    v.busy.clear();
    for (std::size_t i = 0; i < v.entries.size(); ++i)
        if (!idle(v.entries[i]))
            v.busy.insert(v.busy.end(), i);
    v.sharesFor.valid = false;
    v.rollsFor.valid = false;
    v.nodesAt = m_c.nodeSetVersion();
    v.dirty.clear();
    v.isDirty.assign(v.entries.size(), 0);
    v.dirtyMissing.clear();
    return v;
}

const std::vector<api::NodeDaemonPods> &DaemonSetController::nodesToDaemonPods(SyncContext &ctx,
                                                                               bool includeDeletedTerminal)
{
    // Claim once per sync (adoption and release write to the store); later passes read the
    // owner index directly. The result is valid until the next call.
    if (!ctx.claimed) {
        // Claims only change after orphan pods appear or labels/owners change.
        auto &claimed = m_claimedAt[ctx.ds.metadata.uid];
        if (claimed != m_c.podClaimVersion() + 1) {
            (void)daemonPods(ctx.ds, ctx.selector);
            claimed = m_c.podClaimVersion() + 1;
        }
        ctx.claimed = true;
    }
    const NodeView &view = nodeView(ctx);
    if (!includeDeletedTerminal && view.missing.empty())
        return view.entries;
    // Rare: terminal deleted pods included (history cleanup), or pods targeting nodes that do
    // not exist (any more), which get entries of their own in node order.
    std::vector<api::NodeDaemonPods> &entries = includeDeletedTerminal ? m_entriesAll : m_entries;
    entries.resize(view.entries.size());
    for (std::size_t i = 0; i < view.entries.size(); ++i) {
        api::NodeDaemonPods &e = entries[i];
        e.node = view.entries[i].node;
        e.should = view.entries[i].should;
        e.nodeExists = true;
        if (includeDeletedTerminal)
            fillEntry(ctx.ds, e.node, e.pods, true);
        else
            e.pods = view.entries[i].pods;
    }
    bool missing = false;
    if (const auto *owner = m_c.podsControlledByPerNode(ctx.ds.metadata.uid)) {
        for (const auto &[node, pods] : *owner) {
            if (node.empty() || m_nodeIndex.count(node))
                continue;
            api::NodeDaemonPods e;
            e.node = node;
            e.nodeExists = false;
            fillEntry(ctx.ds, node, e.pods, includeDeletedTerminal);
            if (e.pods.empty())
                continue;
            entries.push_back(std::move(e));
            missing = true;
        }
    }
    if (missing)
        std::sort(entries.begin(), entries.end(),
                  [](const api::NodeDaemonPods &a, const api::NodeDaemonPods &b) { return a.node < b.node; });
    return entries;
}

// ---- history -----------------------------------------------------------------------------

kube::Result<const ControllerRevision *> DaemonSetController::snapshot(SyncContext &ctx,
                                                                       std::int64_t revision)
{
    const kube::DaemonSet &ds = ctx.ds;
    const std::string hash = api::templateHash(ds.podTemplate(), ds.status.collisionCount);
    const std::string name = ds.metadata.name + "-" + hash;
    const std::string crKey = keyBeside(ds.metadata, name);
    if (const ControllerRevision *existing = m_c.revision(crKey)) {
        // AlreadyExists: ours (informer lag) when the data matches, else a genuine collision.
        if (api::matchRevision(ds, *existing))
            return existing;
        const kube::DaemonSet *live = m_c.daemonSet(ctx.key);
        if (!live)
            return ApiStatus::notFound("daemonsets.apps", ds.metadata.name);
        if (live->status.collisionCount != ds.status.collisionCount) {
            auto fmt = [](std::optional<int> v) { return v ? std::to_string(*v) : std::string("<nil>"); };
            return ApiStatus::internal("found a stale collision count (" + fmt(ds.status.collisionCount) +
                                       ", expected " + fmt(live->status.collisionCount) +
                                       ") of DaemonSet \"" + ds.metadata.name +
                                       "\" while processing; will retry until it is updated");
        }
        kube::DaemonSet updated = *live;
        updated.status.collisionCount = live->status.collisionCount.value_or(0) + 1;
        m_c.updateDaemonSetStatus(std::move(updated));
        return ApiStatus::alreadyExists("controllerrevisions.apps", name);
    }
    ControllerRevision cr;
    cr.metadata.name = name;
    cr.metadata.namespace_ = ds.metadata.namespace_;
    const Json &tpl = ds.podTemplate();
    if (tpl.contains("metadata") && tpl["metadata"].contains("labels"))
        if (auto l = kube::stringMapFromJson(tpl["metadata"]["labels"], "labels"))
            cr.metadata.labels = *l;
    cr.metadata.labels[kube::kRevisionHashLabel] = hash;
    cr.metadata.annotations = ds.metadata.annotations;
    cr.metadata.ownerReferences.push_back(
        {"apps/v1", "DaemonSet", ds.metadata.name, ds.metadata.uid, true, true});
    cr.data = api::daemonSetPatch(tpl);
    cr.revision = revision;
    return m_c.createRevision(std::move(cr));
}

kube::Result<std::string> DaemonSetController::constructHistory(SyncContext &ctx)
{
    auto claimed = controlledHistories(ctx.ds, ctx.selector);
    if (!claimed)
        return claimed.error();
    // Legacy label fix-up: the CR's name stands in for a missing hash label.
    std::vector<std::string> fix;
    for (const auto *cr : *claimed)
        if (!cr->metadata.labels.count(kube::kRevisionHashLabel))
            fix.push_back(cr->metadata.key());
    for (const auto &k : fix) {
        kube::ControllerRevision cr = *m_c.revision(k);
        cr.metadata.labels[kube::kRevisionHashLabel] = cr.metadata.name;
        m_c.updateRevision(std::move(cr));
    }
    const api::HistorySplit split = api::constructHistory(ctx.ds, *claimed);
    for (const auto *cr : split.old)
        ctx.old.push_back(*cr);
    const ControllerRevision *cur = nullptr;
    if (split.current.empty()) {
        auto s = snapshot(ctx, split.currRevision);
        if (!s)
            return s.error();
        cur = *s;
    } else {
        const api::DedupDecision dedup = api::dedupCurHistories(split.current);
        const std::string keepKey = dedup.keep->metadata.key();
        std::vector<std::string> removeKeys;
        for (const auto *cr : dedup.remove)
            removeKeys.push_back(cr->metadata.key());
        const std::string keepHash = dedup.keep->metadata.label(kube::kRevisionHashLabel);
        for (const auto &rk : removeKeys) {
            // Relabel every pod whose hash differs from the kept one (upstream quirk: old ones too).
            std::vector<std::string> relabel;
            for (const Pod *pod : daemonPods(ctx.ds, ctx.selector))
                if (pod->metadata.label(kube::kRevisionHashLabel) != keepHash)
                    relabel.push_back(pod->metadata.key());
            for (const auto &pk : relabel) {
                kube::Pod p = *m_c.pod(pk);
                p.metadata.labels[kube::kRevisionHashLabel] = keepHash;
                m_c.updatePod(std::move(p));
            }
            m_c.deleteRevision(rk);
        }
        cur = m_c.revision(keepKey);
        if (cur->revision < split.currRevision) {
            kube::ControllerRevision updated = *cur;
            updated.revision = split.currRevision;
            cur = m_c.updateRevision(std::move(updated));
        }
    }
    return cur->metadata.label(kube::kRevisionHashLabel);
}

kube::Result<void> DaemonSetController::cleanupHistory(SyncContext &ctx)
{
    const int limit = ctx.ds.revisionHistoryLimit();
    if (static_cast<int>(ctx.old.size()) - limit <= 0)
        return {};
    std::set<std::string> live;
    for (const auto &e : nodesToDaemonPods(ctx, true))
        for (const Pod *pod : e.pods)
            if (auto h = pod->metadata.label(kube::kRevisionHashLabel); !h.empty())
                live.insert(h);
    std::vector<const ControllerRevision *> old;
    for (const auto &cr : ctx.old)
        old.push_back(&cr);
    for (const auto *cr : api::cleanupHistory(old, limit, live)) {
        const std::string k = cr->metadata.key();
        if (!m_c.revision(k))
            return ApiStatus::notFound("controllerrevisions.apps", cr->metadata.name);
        m_c.deleteRevision(k);
    }
    return {};
}

// ---- pods --------------------------------------------------------------------------------

bool DaemonSetController::failedPodAllowed(const kube::DaemonSet &ds, const std::string &node,
                                           kube::Duration *delay)
{
    const std::string key = ds.metadata.uid + "/" + std::to_string(ds.status.observedGeneration) + "/" + node;
    constexpr kube::Duration initial = 1000, maxDuration = 15 * 60 * 1000;
    auto it = m_failedPodBackoff.find(key);
    if (it != m_failedPodBackoff.end() && m_c.now() - it->second.lastUpdate < it->second.duration) {
        *delay = it->second.duration;
        return false; // IsInBackOffSinceUpdate
    }
    // Next: start at 1 s, double, reset after 2 x max without failures.
    if (it == m_failedPodBackoff.end() || m_c.now() - it->second.lastUpdate > 2 * maxDuration)
        m_failedPodBackoff[key] = Backoff{initial, m_c.now()};
    else
        it->second = Backoff{std::min(it->second.duration * 2, maxDuration), m_c.now()};
    return true;
}

kube::Result<void> DaemonSetController::manage(SyncContext &ctx)
{
    const auto &entries = nodesToDaemonPods(ctx, false);
    const bool surge = api::allowsSurge(ctx.ds);
    const int mrs = ctx.ds.minReadySeconds();
    std::vector<std::string> needing, toDelete;
    kube::Duration delay = 0;
    const api::NodeDaemonPods *current = nullptr;
    // Built once: the callback is consulted only for failed pods, of the node being decided.
    const std::function<bool(const Pod &)> allowed = [&](const Pod &) {
        kube::Duration d = 0;
        const bool ok = failedPodAllowed(ctx.ds, current->node, &d);
        delay = std::max(delay, d);
        return ok;
    };
    auto decide = [&](const api::NodeDaemonPods &e) {
        if (!e.nodeExists) {
            // getUnscheduledPodsWithoutNode: never-bound pods pinned to a node that is gone.
            return;
        }
        delay = 0;
        current = &e;
        const api::PodsOnNodeDecision d =
            api::podsShouldBeOnNode(e, ctx.hash, surge, mrs, m_c.now(), allowed);
        if (d.backoffRequeue)
            enqueueAfter(ctx.key, delay);
        for (const Pod *p : d.failed)
            m_c.recordEvent(ctx.ds, "Warning", "FailedDaemonPod",
                            "Found failed daemon pod " + p->metadata.namespace_ + "/" + p->metadata.name +
                                " on node " + e.node + ", will try to kill it");
        for (const Pod *p : d.succeeded)
            m_c.recordEvent(ctx.ds, "Normal", "SucceededDaemonPod",
                            "Found succeeded daemon pod " + p->metadata.namespace_ + "/" + p->metadata.name +
                                " on node " + e.node + ", will try to delete it");
        if (d.createPod)
            needing.push_back(e.node);
        for (const Pod *p : d.toDelete)
            toDelete.push_back(p->metadata.name);
    };
    const NodeView &view = m_views[ctx.ds.metadata.uid];
    if (&entries == &view.entries) {
        // Every node exists; only the busy entries can yield anything, visited in node order.
        for (std::size_t i : view.busy)
            decide(entries[i]);
        return syncNodes(ctx, toDelete, needing);
    }
    for (const auto &e : entries)
        decide(e);
    for (const auto &e : entries) {
        if (e.nodeExists)
            continue;
        for (const Pod *p : e.pods)
            if (p->nodeName.empty())
                toDelete.push_back(p->metadata.name);
    }
    return syncNodes(ctx, toDelete, needing);
}

kube::Result<void> DaemonSetController::syncNodes(SyncContext &ctx,
                                                  const std::vector<std::string> &podsToDelete,
                                                  const std::vector<std::string> &nodesNeedingPods)
{
    const kube::DaemonSet &ds = ctx.ds;
    const int createDiff = std::min(static_cast<int>(nodesNeedingPods.size()), kBurstReplicas);
    const int deleteDiff = std::min(static_cast<int>(podsToDelete.size()), kBurstReplicas);
    setExpectations(ctx.key, createDiff, deleteDiff);
    std::vector<ApiStatus> errors;

    if (createDiff > 0) {
        // CreatePodTemplate: template + default tolerations + generation and hash labels.
        const Json &tpl = ds.podTemplate();
        Json spec = tpl.contains("spec") ? tpl["spec"] : Json::object();
        api::addOrUpdateDaemonPodTolerations(spec);
        Pod prototype = podFromTemplate(tpl, m_c.sharedSpec(std::move(spec)), ds.metadata.namespace_,
                                        {"apps/v1", "DaemonSet", ds.metadata.name, ds.metadata.uid});
        if (auto gen = ds.templateGeneration())
            prototype.metadata.labels[kube::kPodTemplateGenerationLabel] = std::to_string(*gen);
        if (!ctx.hash.empty())
            prototype.metadata.labels[kube::kRevisionHashLabel] = ctx.hash;

        int batch = std::min(createDiff, 1);
        for (int pos = 0; pos < createDiff;) {
            const std::size_t errorsBefore = errors.size();
            for (int i = pos; i < pos + batch; ++i) {
                Pod pod = prototype;
                pod.targetNode = nodesNeedingPods[static_cast<std::size_t>(i)];
                auto created = m_c.createPod(std::move(pod));
                if (!created) {
                    creationObserved(ctx.key);
                    errors.push_back(created.error());
                    m_c.recordEvent(ds, "Warning", "FailedCreate",
                                    "Error creating: " + created.error().message);
                    continue;
                }
                const std::string name = (*created)->metadata.name;
                const std::string node = nodesNeedingPods[static_cast<std::size_t>(i)];
                ctx.result.creates.push_back({node, name});
                m_c.podWritten(ctx.key, true, name, node);
                m_c.recordEvent(ds, "Normal", "SuccessfulCreate", "Created pod: " + name);
            }
            pos += batch;
            const int skipped = createDiff - pos;
            if (errors.size() > errorsBefore && skipped > 0) {
                lowerExpectations(ctx.key, skipped, 0);
                break;
            }
            batch = std::min(2 * batch, createDiff - pos);
        }
    }

    for (int i = 0; i < deleteDiff; ++i) {
        const std::string &name = podsToDelete[static_cast<std::size_t>(i)];
        const kube::Pod *pod = m_c.pod(keyBeside(ds.metadata, name));
        const std::string node = pod ? pod->node() : std::string();
        auto r = m_c.deletePod(ds.metadata.namespace_, name);
        if (!r) {
            deletionObserved(ctx.key);
            if (r.error().reason != "NotFound") {
                errors.push_back(r.error());
                m_c.recordEvent(ds, "Warning", "FailedDelete", "Error deleting: " + r.error().message);
            }
            continue;
        }
        ctx.result.deletes.push_back({name, node});
        m_c.podWritten(ctx.key, false, name, node);
        m_c.recordEvent(ds, "Normal", "SuccessfulDelete", "Deleted pod: " + name);
    }
    if (!errors.empty()) {
        if (errors.size() == 1)
            return errors.front();
        std::string msg = "[";
        for (std::size_t i = 0; i < errors.size(); ++i)
            msg += (i ? ", " : "") + errors[i].message;
        return ApiStatus::internal(msg + "]");
    }
    return {};
}

kube::Result<void> DaemonSetController::rollingUpdate(SyncContext &ctx)
{
    const auto &entries = nodesToDaemonPods(ctx, false);
    int desired = 0;
    for (const auto &e : entries)
        if (e.nodeExists && e.should.shouldRun)
            ++desired;
    auto budget = api::updatedDesiredNodeCounts(ctx.ds, desired);
    if (!budget)
        return ApiStatus::internal("couldn't get unavailable numbers: " + budget.error().message);
    const auto generation = ctx.ds.templateGeneration();
    NodeView &view = m_views[ctx.ds.metadata.uid];
    if (&entries != &view.entries || ctx.ds.minReadySeconds() != 0) {
        const api::RollingUpdatePlan plan =
            api::rollingUpdate(entries, *budget, ctx.hash, generation, ctx.ds.minReadySeconds(), m_c.now());
        return syncNodes(ctx, plan.podsToDelete, plan.nodesToCreate);
    }
    // Each node's part is kept up to date as entries are refilled (availability does not depend
    // on the time with minReadySeconds 0).
    if (!view.rollsFor.holds(ctx.hash, generation, true)) {
        view.rolls.resize(entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i)
            view.rolls[i] = api::rollingNode(entries[i], ctx.hash, generation, 0, m_c.now());
        view.rollsFor.keep(ctx.hash, generation);
    }
    const api::RollingUpdatePlan plan = api::rollingUpdatePlan(view.rolls, *budget);
    return syncNodes(ctx, plan.podsToDelete, plan.nodesToCreate);
}

void DaemonSetController::updateDaemonSetStatus(SyncContext &ctx, bool updateObservedGen)
{
    const auto &entries = nodesToDaemonPods(ctx, false);
    const auto generation = ctx.ds.templateGeneration();
    NodeView &view = m_views[ctx.ds.metadata.uid];
    kube::DaemonSetStatus computed;
    if (&entries == &view.entries && ctx.ds.minReadySeconds() == 0) {
        // The counters are sums of per-node shares: kept up to date as entries are refilled.
        if (!view.sharesFor.holds(ctx.hash, generation, true)) {
            view.shares.resize(entries.size());
            view.total = {};
            for (std::size_t i = 0; i < entries.size(); ++i) {
                view.shares[i] = api::daemonSetStatusShare(entries[i], ctx.hash, generation, 0, m_c.now());
                view.total += view.shares[i];
            }
            view.sharesFor.keep(ctx.hash, generation);
        }
        computed = api::daemonSetStatusOf(view.total);
    } else {
        computed =
            api::computeDaemonSetStatus(entries, ctx.hash, generation, ctx.ds.minReadySeconds(), m_c.now());
    }
    const kube::DaemonSet *current = m_c.daemonSet(ctx.key);
    if (current && !api::statusUnchanged(*current, computed)) {
        kube::DaemonSet updated = *current;
        auto &s = updated.status;
        if (updateObservedGen)
            s.observedGeneration = ctx.ds.metadata.generation;
        s.desiredNumberScheduled = computed.desiredNumberScheduled;
        s.currentNumberScheduled = computed.currentNumberScheduled;
        s.numberMisscheduled = computed.numberMisscheduled;
        s.numberReady = computed.numberReady;
        s.updatedNumberScheduled = computed.updatedNumberScheduled;
        s.numberAvailable = computed.numberAvailable;
        s.numberUnavailable = computed.numberUnavailable;
        m_c.updateDaemonSetStatus(std::move(updated));
    }
    if (ctx.ds.minReadySeconds() > 0 && computed.numberReady != computed.numberAvailable)
        enqueueAfter(ctx.key, kube::Duration{ctx.ds.minReadySeconds()} * 1000);
}

// ---- sync --------------------------------------------------------------------------------

SyncResult DaemonSetController::sync(const std::string &key)
{
    SyncContext ctx;
    ctx.key = key;
    m_c.syncStarted();
    m_queue.synced(key, m_c.now());
    const kube::DaemonSet *current = m_c.daemonSet(key);
    if (!current) {
        m_expectations.erase(key);
        return ctx.result;
    }
    ctx.ds = *current;
    auto fail = [&](const ApiStatus &e) {
        ctx.result.ok = false;
        ctx.result.error = e;
        return ctx.result;
    };
    auto sel = ctx.ds.selector();
    if (!sel)
        return fail(sel.error());
    ctx.selector = *sel;
    if (ctx.selector.empty()) {
        m_c.recordEvent(ctx.ds, "Warning", "SelectingAll",
                        "This daemon set is selecting all pods. A non-empty selector is required.");
        return ctx.result;
    }
    if (ctx.ds.metadata.deletionTimestamp)
        return ctx.result;

    auto hash = constructHistory(ctx);
    if (!hash)
        return fail(hash.error());
    ctx.hash = *hash;

    if (!satisfiedExpectations(key)) {
        updateDaemonSetStatus(ctx, false);
        return ctx.result;
    }

    kube::Result<void> err = manage(ctx);
    if (err.ok() && satisfiedExpectations(key) && ctx.ds.updateStrategyType() == "RollingUpdate")
        err = rollingUpdate(ctx);
    if (err.ok()) {
        err = cleanupHistory(ctx);
        if (!err)
            err = ApiStatus::internal("failed to clean up revisions of DaemonSet: " + err.error().message);
    }
    updateDaemonSetStatus(ctx, true);
    if (!err)
        return fail(err.error());
    return ctx.result;
}

} // namespace controllers
