#include "models/api/nodeupgradeevents.h"

namespace api {

namespace {

struct ReasonInfo
{
    const char *name;
    bool warning;
    const char *text;
};

// Indexed by UpgradeReason.
const ReasonInfo kReasons[] = {
    {"RolloutStarted", false,
     "Rollout to {target} started: {nodes} incompatible node(s), maxUnavailable {maxUnavailable}"},
    {"RolloutCompleted", false, "All {nodes} node(s) run {target}"},
    {"RolloutCompletedWithExceptions", false,
     "Completed with exceptions: {skipped} skipped, {failed} failed; they still run the old agent"},
    {"RolloutPaused", false, "Paused by {actor}{note}; nodes already restarting or soaking finish"},
    {"RolloutResumed", false, "Resumed by {actor}; first pass: {preview}"},
    {"RolloutAborting", false,
     "Abort requested by {actor}; waiting for {inFlight} node(s) restarting or soaking"},
    {"RolloutAborted", false, "Rollout aborted; remaining nodes stay incompatible for a later rollout"},
    {"RolloutHalted", true, "Halted: {failed} node(s) failed ({nodes}); acknowledge to resume"},
    {"RolloutAcknowledged", false, "Failures of {nodes} acknowledged by {actor}"},
    {"OutsideMaintenanceWindow", false, "No new node outside the maintenance window"},
    {"HealthGateFailed", false, "No new node: {gate}"},
    {"InsufficientCapacity", false, "No new node: pod {pod} would not fit elsewhere"},
    {"BudgetExhausted", false, "No new node: budget {used}/{max} in use ({holders})"},
    {"PendingNodesNotReady", true,
     "No new node: every pending node is NotReady ({nodes}); each is upgraded once Ready again, or skip it"},
    {"OverlapWithRollout", true, "Refused: node(s) {nodes} already belong to rollout {other}"},
    {"SelfRestartNotAllowed", true,
     "Refused: the only node {node} hosts the controller; set allowSelfRestart to upgrade it"},
    {"NodeIncompatible", false, "Agent {version} is not the target {target}; incompatible since {since}"},
    {"InvalidTimestamp", true, "incompatible-since {value} lies in the future; treated as now"},
    {"NodeSelected", false, "Selected: queue position {position}, slot {slot}/{slots}"},
    {"NodeCordoned", false, "{how}"},
    {"PodDeleted", false, "Deleted pod {pod} ({class}, owner {owner})"},
    {"PodDeletionDeferred", false, "Deletion of {pod} deferred: {rule}"},
    {"ManagedPodsDrained", false, "No managed pods left"},
    {"UnmanagedPodsPending", false, "{count} unmanaged pod(s) deleted in {remaining}: {pods}"},
    {"UnmanagedPodsDeleted", false, "Deleted {count} unmanaged pod(s): {pods}"},
    {"UnmanagedPodsRetained", false, "Waiting for you: delete pods {pods} or skip the node (policy Never)"},
    {"DrainStalled", true, "No pod has left for {elapsed}; blockers: {blockers}"},
    {"DrainTimeout", true, "Drain not finished after {limit}; onDrainTimeout {policy}"},
    {"PodStuckTerminating", true, "Pod {pod} terminating for {elapsed} (grace {grace} + margin {margin})"},
    {"ReplacementSlow", true,
     "Replacement for {pod} of {controller} not Ready after {elapsed}; {controller} stays gated"},
    {"SingleReplicaDisrupted", true, "Deleted {pod}, the only replica of {controller}"},
    {"DrainForced", true, "Deleted {pod} bypassing the gates (forced by {actor})"},
    {"PodRescheduledToDrainingNode", true,
     "Pod {pod} was bound to the draining node; it is deleted again under the same gates"},
    {"KamikazeSent", false, "Asked the agent to restart on {target} (attempt {attempt}, send {send})"},
    {"KamikazeAcknowledged", false, "Agent acknowledged the restart"},
    {"NodeRejoined", false, "Node rejoined on {version}"},
    {"SoakStarted", false, "Soaking for {duration}"},
    {"NodeUncordoned", false, "Uncordoned (the controller had cordoned it)"},
    {"NodeUpgraded", false, "Upgraded to {version} in {duration}"},
    {"NodeFailed", true, "{reason}: {detail}"},
    {"NodeHeld", false, "Held by {actor}{note}"},
    {"NodeReleased", false, "Released by {actor}"},
    {"NodeAborted", false,
     "Aborted by {actor}: stopped{uncordon}; deleted pods are not restored, their controllers recreate them"},
    {"NodeSkipped", false, "Skipped by {actor}{uncordon}; the node keeps its old agent"},
    {"NodeRetry", false, "Retry {attempt} by {actor}: {what}"},
    {"NodeForced", true, "Drain forced by {actor}: remaining pods are deleted bypassing the gates"},
    {"ManualPodDeletionObserved", false, "Pod {pod} was deleted by someone else; counted as progress"},
    {"ExternalUncordonObserved", false,
     "Someone uncordoned the node while the controller drained it; held (the controller never re-cordons)"},
    {"OutOfBandUpgrade", false, "Agent already runs {version}; accepted as upgraded"},
    {"NodeRemoved", false, "Node deleted from the cluster; its slot is free"},
    {"EvictionRefused", false, "Eviction of {pod} refused: {budget}; retried on the next pass"},
    {"WriteRefused", true, "The API server refused the {write} ({code}: {message}); retried in {delay}"},
    {"RestartHandedOver", false,
     "Drained; the restart is left to an external tool: waiting for the node to return on {target}"},
    {"RestartJobCreated", false, "Created restart Job {job} for {target} (attempt {attempt})"},
    {"RestartJobRunning", false, "Restart Job {job} runs on the node"},
};

static_assert(sizeof(kReasons) / sizeof(kReasons[0]) == static_cast<std::size_t>(kUpgradeReasonCount),
              "one entry per UpgradeReason");

} // namespace

const char *upgradeReasonName(UpgradeReason reason)
{
    return kReasons[static_cast<int>(reason)].name;
}

std::optional<UpgradeReason> upgradeReasonNamed(std::string_view name)
{
    for (int i = 0; i < kUpgradeReasonCount; ++i)
        if (name == kReasons[i].name)
            return static_cast<UpgradeReason>(i);
    return std::nullopt;
}

bool isWarning(UpgradeReason reason)
{
    return kReasons[static_cast<int>(reason)].warning;
}

const char *upgradeReasonText(UpgradeReason reason)
{
    return kReasons[static_cast<int>(reason)].text;
}

Phrase upgradeEventPhrase(UpgradeReason reason, UpgradeEventParams params)
{
    return Phrase::of(PhraseCatalog::Event, static_cast<int>(reason), std::move(params));
}

std::string upgradeEventMessage(UpgradeReason reason, const UpgradeEventParams &params)
{
    return english(upgradeEventPhrase(reason, params));
}

bool NodeUpgradeEvents::record(kube::Timestamp now, const std::string &object, UpgradeReason reason,
                               const UpgradeEventParams &params)
{
    const std::string type = isWarning(reason) ? "Warning" : "Normal";
    const std::string message = upgradeEventMessage(reason, params);
    const std::string key = object + "\n" + type + "\n" + upgradeReasonName(reason) + "\n" + message;
    auto it = m_index.find(key);
    if (it != m_index.end()) {
        auto &e = m_entries[it->second];
        ++e.count;
        e.lastTime = now;
        m_emissions.emplace_back(now, it->second);
        return false;
    }
    m_index.emplace(key, m_entries.size());
    m_emissions.emplace_back(now, m_entries.size());
    m_entries.push_back({object, type, upgradeReasonName(reason), message, reason, params, 1, now, now});
    return true;
}

std::size_t NodeUpgradeEvents::countOf(const std::string &reason, const std::string &object) const
{
    std::size_t n = 0;
    for (const auto &e : m_entries)
        if (e.reason == reason && (object.empty() || e.object == object))
            n += static_cast<std::size_t>(e.count);
    return n;
}

} // namespace api
