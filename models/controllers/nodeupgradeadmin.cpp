#include "models/controllers/nodeupgradestate.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace controllers {

using kube::Json;
using kube::Timestamp;

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

} // namespace controllers
