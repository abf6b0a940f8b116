#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

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
    m_podWatch = m_cluster.watch(api::Kind::Pod, [this](const api::WatchEvent &ev) { onPod(ev); });
    m_nodeWatch = m_cluster.watch(api::Kind::Node, [this](const api::WatchEvent &ev) { onNode(ev); });
    m_rsWatch =
        m_cluster.watch(api::Kind::ReplicaSet, [this](const api::WatchEvent &ev) { onReplicaSet(ev); });
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

void NodeUpgradeController::notePod(const api::WatchEvent &ev)
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
    if (ev.type == api::WatchEvent::Type::Deleted)
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

void NodeUpgradeController::onReplicaSet(const api::WatchEvent &ev)
{
    const Timed timed(m_timing.watchNanos, m_options.measureCpu);
    View &v = *m_view;
    if (ev.type != api::WatchEvent::Type::Modified || !ev.replicaSet) {
        v.rsDirty = true; // the pods' owners change: everything is read afresh at the next pass
    } else if (!v.rsDirty) {
        auto it = v.rsKeyByUid.find(ev.replicaSet->metadata.uid);
        if (it == v.rsKeyByUid.end())
            v.rsDirty = true;
        else
            v.health[it->second].desired = ev.replicaSet->replicas();
    }
    ++m_timing.watchEvents;
}

void NodeUpgradeController::onPod(const api::WatchEvent &ev)
{
    const Timed timed(m_timing.watchNanos, m_options.measureCpu);
    notePod(ev);
    reportPod(ev);
    ++m_timing.watchEvents;
}

void NodeUpgradeController::reportPod(const api::WatchEvent &ev)
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
    const bool gone = ev.type == api::WatchEvent::Type::Deleted || pod.isDeleting();
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

void NodeUpgradeController::onNode(const api::WatchEvent &ev)
{
    if (ev.type == api::WatchEvent::Type::Modified)
        markDirty(ev.name);
    else
        ++m_view->nodeEpoch; // a node added or removed: the rollouts' views are rebuilt
    if (ev.type != api::WatchEvent::Type::Deleted || !ev.node)
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
        const Timed timed(m_timing.statusNanos, m_options.measureCpu);
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
    const kube::Duration delay = kube::doubledDelay(kFirstBackoff, kMaxBackoff, b.refusals - 1);
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

// The status carries the headline twice: as English text (kubectl's Headline column, the CLI)
// and as the phrase itself, which any console phrases in its own language.
void NodeUpgradeController::setHeadline(PassContext &ctx, api::Phrase headline)
{
    ctx.st.headline = api::english(headline);
    ctx.st.headlinePhrase = std::move(headline);
}

void NodeUpgradeController::report(PassContext &ctx, const std::string &object, api::UpgradeReason reason,
                                   const api::UpgradeEventParams &params, bool repeating)
{
    if (ctx.dry)
        return;
    const Timestamp now = m_cluster.now();
    const std::string *repeated = nullptr;
    if (repeating) {
        repeated = &rendered(object, reason, params);
        const std::string key = object + "\n" + api::upgradeReasonName(reason) + "\n" + *repeated;
        auto it = m_lastEmitted.find(key);
        if (it != m_lastEmitted.end() && now - it->second < m_options.eventRepeatInterval)
            return;
        m_lastEmitted[key] = now;
    }
    const Timed timed(m_timing.writeNanos, m_options.measureCpu);
    m_events.record(now, object, reason, params);
    const std::string type = api::isWarning(reason) ? "Warning" : "Normal";
    const std::string message = repeated ? *repeated : api::upgradeEventMessage(reason, params);
    if (object.rfind("node/", 0) == 0)
        m_cluster.recordEvent(type, api::upgradeReasonName(reason), message, api::Kind::Node, "",
                              object.substr(5));
    else if (object.rfind("nodeupgraderollout/", 0) == 0)
        m_cluster.recordEvent(type, api::upgradeReasonName(reason), message, api::Kind::NodeUpgradeRollout,
                              "", object.substr(19));
}

const std::string &NodeUpgradeController::rendered(const std::string &object, api::UpgradeReason reason,
                                                   const api::UpgradeEventParams &params)
{
    constexpr std::size_t kKept = 8; // a node's pods waiting at once, typically
    auto &kept = m_rendered[object + "\n" + api::upgradeReasonName(reason)];
    for (auto it = kept.begin(); it != kept.end(); ++it)
        if (it->params == params) {
            std::rotate(kept.begin(), it, it + 1); // the most recent first
            return kept.front().message;
        }
    if (kept.size() == kKept)
        kept.pop_back();
    kept.insert(kept.begin(), {params, api::upgradeEventMessage(reason, params)});
    return kept.front().message;
}

} // namespace controllers
