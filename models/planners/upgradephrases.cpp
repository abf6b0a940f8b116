#include "models/planners/upgradephrases.h"

#include "models/api/nodeupgradeevents.h"
#include "models/api/nodeupgradephrases.h"

#include <QCoreApplication>

#include <iterator>

namespace models {

namespace {

// The engine's templates, for lupdate: each must equal api::upgradePhraseText() of its code
// and api::upgradeReasonText() of its reason, in order (tst_upgradephrases checks both).
const char *const kPhraseSources[] = {
    QT_TRANSLATE_NOOP("UpgradePhrase", "{items} and {count} more"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{upToDate}/{nodes} upgraded"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{progress} · {inFlight} in flight"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{progress} · {inFlight} in flight · ETA {eta}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Aborted: {progress}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Aborting: waiting for {nodes}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Completed: {progress}"),
    QT_TRANSLATE_NOOP("UpgradePhrase",
                      "Completed with exceptions: {progress} · {skipped} skipped · {failed} failed"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Not started: {refusal}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Halted: 1 node failed ({nodes}); acknowledge to resume"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Halted: {count} nodes failed ({nodes}); acknowledge to resume"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Paused by {actor}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Paused by {actor} {time}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Paused by {actor} — {nodes}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Paused by {actor} {time} — {nodes}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Waiting: {why}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "budget {used}/{max} used by {holders}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} still soaking ({elapsed}/{limit})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} still restarting ({elapsed}/{limit})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} holds its slot ({phase})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "postNodeDelay {elapsed}/{delay} since the last node finished"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "only {ready}/{nodes} nodes Ready (minReadyRatio {ratio})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} (Failed)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} (cordoned, pending)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} (cordoned, not part of this rollout)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} (NotReady, pending)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} (NotReady, not part of this rollout)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{nodes} is NotReady; upgraded once Ready again, or skip it"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{nodes} are NotReady; upgraded once Ready again, or skip them"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "waiting for you: 1 pending node is held; release or skip it"),
    QT_TRANSLATE_NOOP("UpgradePhrase",
                      "waiting for you: {count} pending nodes are held; release or skip them"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{node} blocked {elapsed}: {why}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} {why}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "pdb {pdb}: needs {desired} healthy, has {current}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} terminating > grace {grace} + {margin}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} (node held)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} (rollout paused)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{controller} {ready}/{desired} ready"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{ratio} (below {threshold} %)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{ratio} (not above {threshold} %)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{ratio}, 1 deletion in flight"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{ratio}, {count} deletions in flight"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{controller} has a single replica (policy Block)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} unmanaged, policy Never"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} unmanaged, deleted in {remaining}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} keeps data in emptyDir, localDataPolicy Block"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "NotReady: waits until the node is Ready again"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "drainTimeout {elapsed}/{limit}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "returnTimeout {elapsed}/{limit}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "ackTimeout {elapsed}/{limit}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "soak {elapsed}/{limit}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "more than {duration}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{duration} (at {time})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", " ({note})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", ", uncordoned"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Cordoned by the controller"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "Already cordoned by someone else; that cordon is left as it is"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "soaking again"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "re-sending the restart"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "back to Pending"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "no node"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "rejoined on {version} instead of {target}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "did not return within {limit} after restart"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "NotReady during the soak"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "DaemonSet pods not Ready after the soak"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "no acknowledgement after 1 restart request(s)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "no acknowledgement after {count} restart request(s)"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "managed, {rule}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "unmanaged, countdown expired"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "unmanaged, policy Immediate"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "forced"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "select {nodes}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "delete {pods}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "restart {nodes}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "{pod} ({why})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "nothing"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "cordon"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "uncordon"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "update of the node's upgrade annotations"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "taint {taint}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "removal of taint {taint}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "eviction of {pod}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "deletion of {pod}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "status update"),
    QT_TRANSLATE_NOOP("UpgradePhrase",
                      "{object}: {write} refused ({code}), {count} time(s) in a row; next try at {time}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "creation of Job {job}"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "restart Job {job} failed ({reason}: {message})"),
    QT_TRANSLATE_NOOP("UpgradePhrase", "restart Job {job} has no running pod after {limit}"),
};
const char *const kEventSources[] = {
    QT_TRANSLATE_NOOP("UpgradeEvent", "Rollout to {target} started: {nodes} incompatible node(s), "
                                      "maxUnavailable {maxUnavailable}"),  // RolloutStarted
    QT_TRANSLATE_NOOP("UpgradeEvent", "All {nodes} node(s) run {target}"), // RolloutCompleted
    QT_TRANSLATE_NOOP("UpgradeEvent", "Completed with exceptions: {skipped} skipped, {failed} failed; they "
                                      "still run the old agent"), // RolloutCompletedWithExceptions
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Paused by {actor}{note}; nodes already restarting or soaking finish"), // RolloutPaused
    QT_TRANSLATE_NOOP("UpgradeEvent", "Resumed by {actor}; first pass: {preview}"), // RolloutResumed
    QT_TRANSLATE_NOOP("UpgradeEvent", "Abort requested by {actor}; waiting for {inFlight} node(s) restarting "
                                      "or soaking"), // RolloutAborting
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Rollout aborted; remaining nodes stay incompatible for a later rollout"), // RolloutAborted
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Halted: {failed} node(s) failed ({nodes}); acknowledge to resume"), // RolloutHalted
    QT_TRANSLATE_NOOP("UpgradeEvent", "Failures of {nodes} acknowledged by {actor}"), // RolloutAcknowledged
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "No new node outside the maintenance window"), // OutsideMaintenanceWindow
    QT_TRANSLATE_NOOP("UpgradeEvent", "No new node: {gate}"),        // HealthGateFailed
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "No new node: pod {pod} would not fit elsewhere"), // InsufficientCapacity
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "No new node: budget {used}/{max} in use ({holders})"), // BudgetExhausted
    QT_TRANSLATE_NOOP("UpgradeEvent", "No new node: every pending node is NotReady ({nodes}); each is "
                                      "upgraded once Ready again, or skip it"), // PendingNodesNotReady
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Refused: node(s) {nodes} already belong to rollout {other}"), // OverlapWithRollout
    QT_TRANSLATE_NOOP("UpgradeEvent", "Refused: the only node {node} hosts the controller; set "
                                      "allowSelfRestart to upgrade it"), // SelfRestartNotAllowed
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Agent {version} is not the target {target}; incompatible since {since}"), // NodeIncompatible
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "incompatible-since {value} lies in the future; treated as now"), // InvalidTimestamp
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Selected: queue position {position}, slot {slot}/{slots}"),   // NodeSelected
    QT_TRANSLATE_NOOP("UpgradeEvent", "{how}"),                                      // NodeCordoned
    QT_TRANSLATE_NOOP("UpgradeEvent", "Deleted pod {pod} ({class}, owner {owner})"), // PodDeleted
    QT_TRANSLATE_NOOP("UpgradeEvent", "Deletion of {pod} deferred: {rule}"),         // PodDeletionDeferred
    QT_TRANSLATE_NOOP("UpgradeEvent", "No managed pods left"),                       // ManagedPodsDrained
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "{count} unmanaged pod(s) deleted in {remaining}: {pods}"),  // UnmanagedPodsPending
    QT_TRANSLATE_NOOP("UpgradeEvent", "Deleted {count} unmanaged pod(s): {pods}"), // UnmanagedPodsDeleted
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Waiting for you: delete pods {pods} or skip the node (policy Never)"), // UnmanagedPodsRetained
    QT_TRANSLATE_NOOP("UpgradeEvent", "No pod has left for {elapsed}; blockers: {blockers}"), // DrainStalled
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Drain not finished after {limit}; onDrainTimeout {policy}"), // DrainTimeout
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Pod {pod} terminating for {elapsed} (grace {grace} + margin {margin})"), // PodStuckTerminating
    QT_TRANSLATE_NOOP("UpgradeEvent", "Replacement for {pod} of {controller} not Ready after {elapsed}; "
                                      "{controller} stays gated"), // ReplacementSlow
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Deleted {pod}, the only replica of {controller}"), // SingleReplicaDisrupted
    QT_TRANSLATE_NOOP("UpgradeEvent", "Deleted {pod} bypassing the gates (forced by {actor})"), // DrainForced
    QT_TRANSLATE_NOOP("UpgradeEvent", "Pod {pod} was bound to the draining node; it is deleted again under "
                                      "the same gates"), // PodRescheduledToDrainingNode
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Asked the agent to restart on {target} (attempt {attempt}, send {send})"),   // KamikazeSent
    QT_TRANSLATE_NOOP("UpgradeEvent", "Agent acknowledged the restart"),              // KamikazeAcknowledged
    QT_TRANSLATE_NOOP("UpgradeEvent", "Node rejoined on {version}"),                  // NodeRejoined
    QT_TRANSLATE_NOOP("UpgradeEvent", "Soaking for {duration}"),                      // SoakStarted
    QT_TRANSLATE_NOOP("UpgradeEvent", "Uncordoned (the controller had cordoned it)"), // NodeUncordoned
    QT_TRANSLATE_NOOP("UpgradeEvent", "Upgraded to {version} in {duration}"),         // NodeUpgraded
    QT_TRANSLATE_NOOP("UpgradeEvent", "{reason}: {detail}"),                          // NodeFailed
    QT_TRANSLATE_NOOP("UpgradeEvent", "Held by {actor}{note}"),                       // NodeHeld
    QT_TRANSLATE_NOOP("UpgradeEvent", "Released by {actor}"),                         // NodeReleased
    QT_TRANSLATE_NOOP("UpgradeEvent", "Aborted by {actor}: stopped{uncordon}; deleted pods are not restored, "
                                      "their controllers recreate them"), // NodeAborted
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Skipped by {actor}{uncordon}; the node keeps its old agent"), // NodeSkipped
    QT_TRANSLATE_NOOP("UpgradeEvent", "Retry {attempt} by {actor}: {what}"),         // NodeRetry
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Drain forced by {actor}: remaining pods are deleted bypassing the gates"), // NodeForced
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "Pod {pod} was deleted by someone else; counted as progress"), // ManualPodDeletionObserved
    QT_TRANSLATE_NOOP("UpgradeEvent", "Someone uncordoned the node while the controller drained it; held "
                                      "(the controller never re-cordons)"), // ExternalUncordonObserved
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Agent already runs {version}; accepted as upgraded"),              // OutOfBandUpgrade
    QT_TRANSLATE_NOOP("UpgradeEvent", "Node deleted from the cluster; its slot is free"), // NodeRemoved
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Eviction of {pod} refused: {budget}; retried on the next pass"), // EvictionRefused
    QT_TRANSLATE_NOOP(
        "UpgradeEvent",
        "The API server refused the {write} ({code}: {message}); retried in {delay}"), // WriteRefused
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Drained; the restart is left to an external tool: waiting for the node to return on "
                      "{target}"), // RestartHandedOver
    QT_TRANSLATE_NOOP("UpgradeEvent",
                      "Created restart Job {job} for {target} (attempt {attempt})"), // RestartJobCreated
    QT_TRANSLATE_NOOP("UpgradeEvent", "Restart Job {job} runs on the node"),         // RestartJobRunning
};

const char *contextOf(api::PhraseCatalog catalog)
{
    return catalog == api::PhraseCatalog::Event ? "UpgradeEvent" : "UpgradePhrase";
}

std::string translated(api::PhraseCatalog catalog, int code)
{
    const char *source = catalog == api::PhraseCatalog::Event
                             ? api::upgradeReasonText(static_cast<api::UpgradeReason>(code))
                             : api::upgradePhraseText(static_cast<api::UpgradePhrase>(code));
    return QCoreApplication::translate(contextOf(catalog), source).toStdString();
}

} // namespace

QString phraseText(const api::Phrase &phrase)
{
    static const api::PhraseLookup lookup = translated;
    return QString::fromStdString(api::render(phrase, lookup));
}

QStringList phraseTexts(const std::vector<api::Phrase> &phrases)
{
    QStringList out;
    out.reserve(static_cast<qsizetype>(phrases.size()));
    for (const auto &p : phrases)
        out << phraseText(p);
    return out;
}

std::vector<const char *> phraseSources(api::PhraseCatalog catalog)
{
    if (catalog == api::PhraseCatalog::Event)
        return {std::begin(kEventSources), std::end(kEventSources)};
    return {std::begin(kPhraseSources), std::end(kPhraseSources)};
}

} // namespace models
