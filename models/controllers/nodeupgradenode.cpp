#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

namespace {

api::Phrase uncordonSuffix(bool ours)
{
    return ours ? api::phrase(api::UpgradePhrase::UncordonedSuffix) : api::Phrase();
}

} // namespace

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
        const Timed timed(m_timing.writeNanos,
                          m_options.measureCpu); // only around writes: a clock read is a system call
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
    const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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
    const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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
        const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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
    ns.waitsUntil = 0; // a step that only waits sets it again
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
        const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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
    api::EvictOptions probe;
    probe.dryRun = true;
    const auto r = [&] {
        const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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

} // namespace controllers
