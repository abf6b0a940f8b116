#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

namespace {

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

void addPod(NodeUpgradeController::NodeState &ns, PodInfo pi)
{
    (pi.cls == api::PodClass::Managed     ? ns.managed
     : pi.cls == api::PodClass::Unmanaged ? ns.unmanaged
                                          : ns.daemon)
        .push_back(std::move(pi));
}

} // namespace

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
    s.waitsUntil = s.quiet ? 0 : ns.waitsUntil;
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
        if (s.unschedulable)
            rv.unschedulableCands += d;
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
      << " outside=" << rv.outside << " readyOutside=" << rv.readyOutside
      << " unschedulableCands=" << rv.unschedulableCands;
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

} // namespace controllers
