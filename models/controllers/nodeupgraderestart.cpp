#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

namespace {

constexpr std::size_t kMaxNodeDurations = 64;

} // namespace

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
    ns.waitsUntil = 0; // the Job can succeed while the node stays as it is: visited at every pass
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
    else
        ns.waitsUntil = since + ctx.spec.timeouts.returnTimeout;
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
        if (ctx.now - sent < timeout) {
            if (ns.has(api::ann::kKamikazeSent))
                ns.waitsUntil = sent + timeout;
            return;
        }
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
    const kube::Duration limit = ctx.spec.soakDuration + (dsReady ? 0 : ctx.spec.timeouts.returnTimeout);
    if (!dsReady && elapsed >= limit)
        fail(ns, ctx, "UnstableAfterUpgrade", api::phrase(api::UpgradePhrase::PodsNotReadyAfterSoak));
    else if (ns.has(api::ann::kPhaseSince))
        ns.waitsUntil = since + limit;
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
            const Timed timed(m_timing.writeNanos, m_options.measureCpu);
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

} // namespace controllers
