#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

namespace {

std::string joinNames(const std::vector<std::string> &v, std::size_t max = 5)
{
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < max; ++i)
        out += (i ? ", " : "") + v[i];
    if (v.size() > max)
        out += " and " + std::to_string(v.size() - max) + " more";
    return out;
}

} // namespace

// ---- the pass ------------------------------------------------------------------------------

void NodeUpgradeController::pass()
{
    const Timed timed(m_timing.passNanos, m_options.measureCpu);
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
    // Quiet nodes (see quietNode) would do nothing, nor would waiting ones before their deadline
    // (NodeState::waitsUntil): only the others are visited, in node order.
    rv.touched.clear();
    for (const std::size_t i : rv.active)
        if (rv.sums[i].waitsUntil <= ctx.now)
            rv.touched.push_back(i);
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
    if (ctx.mayStart && !rv.cands.empty()) {
        int starts = api::startsAllowed(ctx.budget.value, ctx.unavailable, ctx.spec.maxStartsPerPass);
        ctx.budgetHeld = starts == 0 && !ctx.foreignHolders.empty();
        int perPass = std::max(1, ctx.spec.maxStartsPerPass);
        if (starts == 0 && !ctx.foreignHolders.empty())
            report(ctx, ctx.object, api::UpgradeReason::BudgetExhausted,
                   {{"used", std::to_string(ctx.unavailable)},
                    {"max", std::to_string(ctx.budget.value)},
                    {"holders", names(ctx.foreignHolders)}},
                   true);
        // A full budget takes only nodes cordoned already (free), and none while it is overrun.
        const bool none = starts <= 0 && (rv.unschedulableCands == 0 || ctx.unavailable > ctx.budget.value);
        int position = 0;
        QueueWalk queue(rv.cands, ctx.spec.zoneSerial, ctx.zone);
        for (std::size_t qi = 0; !none && queue.next(qi);) {
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
    } else if (!ctx.gateFailure.empty() && !ctx.paused && !ctx.aborting && !rv.cands.empty()) {
        report(ctx, ctx.object, api::UpgradeReason::HealthGateFailed, {{"gate", ctx.gateFailure}}, true);
    }

    // The status shows the head of the queue that is left.
    st.queue.clear();
    const std::unordered_set<std::string> selected(ctx.selected.begin(), ctx.selected.end());
    QueueWalk queue(rv.cands, ctx.spec.zoneSerial, ctx.zone);
    for (std::size_t i = 0; st.queue.size() < api::kStatusQueueLength && queue.next(i);)
        if (!selected.count(nodes[i].name))
            st.queue.push_back(nodes[i].name);
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
    // Only a paused, halted or aborting rollout's headline names the nodes still in flight.
    const bool nameInFlight = ctx.paused || ctx.aborting;
    for (const std::size_t i : rv.inflight) {
        const NodeState &ns = nodes[i];
        const bool postRestart =
            ns.phase == api::NodePhase::Restarting || ns.phase == api::NodePhase::Soaking;
        if (nameInFlight && postRestart) {
            const auto since = ns.time(api::ann::kPhaseSince).value_or(ctx.now);
            const kube::Duration limit =
                ns.phase == api::NodePhase::Soaking ? ctx.spec.soakDuration : ctx.spec.timeouts.returnTimeout;
            ctx.stillInFlight.push_back(
                api::phrase(ns.phase == api::NodePhase::Soaking ? api::UpgradePhrase::StillSoaking
                                                                : api::UpgradePhrase::StillRestarting,
                            {{"node", ns.name}, {"elapsed", dur(ctx.now - since)}, {"limit", dur(limit)}}));
        } else if (ctx.paused && !postRestart) {
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
        QueueWalk queue(ctx.rv->cands, ctx.spec.zoneSerial, ctx.zone);
        for (std::size_t qi = 0; queue.next(qi);) {
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
        } else if (!ctx.rv->cands.empty() && !anyReady) {
            ctx.stallReason = "PendingNodesNotReady";
            ctx.stalled = api::phrase(notReady.size() == 1 ? api::UpgradePhrase::NotReadyOne
                                                           : api::UpgradePhrase::NotReadyMany,
                                      {{"nodes", names(notReady)}});
            report(ctx, ctx.object, api::UpgradeReason::PendingNodesNotReady, {{"nodes", names(notReady)}},
                   true);
        } else if (ctx.rv->cands.empty()) {
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

} // namespace controllers
