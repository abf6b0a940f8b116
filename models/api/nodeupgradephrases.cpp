#include "models/api/nodeupgradephrases.h"

namespace api {

namespace {

// Indexed by UpgradePhrase.
const char *const kTexts[] = {
    "{items} and {count} more",
    // headline
    "{upToDate}/{nodes} upgraded",
    "{progress} · {inFlight} in flight",
    "{progress} · {inFlight} in flight · ETA {eta}",
    "Aborted: {progress}",
    "Aborting: waiting for {nodes}",
    "Completed: {progress}",
    "Completed with exceptions: {progress} · {skipped} skipped · {failed} failed",
    "Not started: {refusal}",
    "Halted: 1 node failed ({nodes}); acknowledge to resume",
    "Halted: {count} nodes failed ({nodes}); acknowledge to resume",
    "Paused by {actor}",
    "Paused by {actor} {time}",
    "Paused by {actor} — {nodes}",
    "Paused by {actor} {time} — {nodes}",
    "Waiting: {why}",
    "budget {used}/{max} used by {holders}",
    "{node} still soaking ({elapsed}/{limit})",
    "{node} still restarting ({elapsed}/{limit})",
    "{node} holds its slot ({phase})",
    "postNodeDelay {elapsed}/{delay} since the last node finished",
    "only {ready}/{nodes} nodes Ready (minReadyRatio {ratio})",
    "{node} (Failed)",
    "{node} (cordoned, pending)",
    "{node} (cordoned, not part of this rollout)",
    "{node} (NotReady, pending)",
    "{node} (NotReady, not part of this rollout)",
    "{nodes} is NotReady; upgraded once Ready again, or skip it",
    "{nodes} are NotReady; upgraded once Ready again, or skip them",
    "waiting for you: 1 pending node is held; release or skip it",
    "waiting for you: {count} pending nodes are held; release or skip them",
    "{node} blocked {elapsed}: {why}",
    // blockers and gate rules
    "{pod} {why}",
    "pdb {pdb}: needs {desired} healthy, has {current}",
    "{pod} terminating > grace {grace} + {margin}",
    "{pod} (node held)",
    "{pod} (rollout paused)",
    "{controller} {ready}/{desired} ready",
    "{ratio} (below {threshold} %)",
    "{ratio} (not above {threshold} %)",
    "{ratio}, 1 deletion in flight",
    "{ratio}, {count} deletions in flight",
    "{controller} has a single replica (policy Block)",
    "{pod} unmanaged, policy Never",
    "{pod} unmanaged, deleted in {remaining}",
    "{pod} keeps data in emptyDir, localDataPolicy Block",
    // per-node table
    "NotReady: waits until the node is Ready again",
    "drainTimeout {elapsed}/{limit}",
    "returnTimeout {elapsed}/{limit}",
    "ackTimeout {elapsed}/{limit}",
    "soak {elapsed}/{limit}",
    // event slots
    "more than {duration}",
    "{duration} (at {time})",
    " ({note})",
    ", uncordoned",
    "Cordoned by the controller",
    "Already cordoned by someone else; that cordon is left as it is",
    "soaking again",
    "re-sending the restart",
    "back to Pending",
    "no node",
    "rejoined on {version} instead of {target}",
    "did not return within {limit} after restart",
    "NotReady during the soak",
    "DaemonSet pods not Ready after the soak",
    "no acknowledgement after 1 restart request(s)",
    "no acknowledgement after {count} restart request(s)",
    // resume preview
    "managed, {rule}",
    "unmanaged, countdown expired",
    "unmanaged, policy Immediate",
    "forced",
    "select {nodes}",
    "delete {pods}",
    "restart {nodes}",
    "{pod} ({why})",
    "nothing",
    // writes
    "cordon",
    "uncordon",
    "update of the node's upgrade annotations",
    "taint {taint}",
    "removal of taint {taint}",
    "eviction of {pod}",
    "deletion of {pod}",
    "status update",
    "{object}: {write} refused ({code}), {count} time(s) in a row; next try at {time}",
    // restart Jobs
    "creation of Job {job}",
    "restart Job {job} failed ({reason}: {message})",
    "restart Job {job} has no running pod after {limit}",
};
static_assert(sizeof(kTexts) / sizeof(kTexts[0]) == static_cast<std::size_t>(UpgradePhrase::Count_),
              "one text per UpgradePhrase");

// Indexed by UpgradePhrase: the enumerators' own names.
const char *const kNames[] = {
    "AndMore",
    "Progress",
    "ProgressInFlight",
    "ProgressInFlightEta",
    "Aborted",
    "Aborting",
    "Completed",
    "CompletedWithExceptions",
    "NotStarted",
    "HaltedOne",
    "HaltedMany",
    "PausedBy",
    "PausedByAt",
    "PausedByInFlight",
    "PausedByAtInFlight",
    "Waiting",
    "BudgetUsedBy",
    "StillSoaking",
    "StillRestarting",
    "HoldsSlot",
    "PostNodeDelay",
    "MinReadyRatio",
    "HolderFailed",
    "HolderCordonedPending",
    "HolderCordonedOutside",
    "HolderNotReadyPending",
    "HolderNotReadyOutside",
    "NotReadyOne",
    "NotReadyMany",
    "HeldOne",
    "HeldMany",
    "NodeBlocked",
    "PodBlockedBy",
    "PdbNumbers",
    "PodTerminating",
    "PodNodeHeld",
    "PodRolloutPaused",
    "GateRatio",
    "GateBelow",
    "GateNotAbove",
    "GateInflightOne",
    "GateInflightMany",
    "GateSingleReplica",
    "UnmanagedNever",
    "UnmanagedDeletedIn",
    "PodLocalData",
    "NotReadyWaits",
    "DeadlineDrain",
    "DeadlineReturn",
    "DeadlineAck",
    "DeadlineSoak",
    "MoreThan",
    "DurationAt",
    "NoteSuffix",
    "UncordonedSuffix",
    "CordonedByController",
    "AlreadyCordoned",
    "RetrySoak",
    "RetryResend",
    "RetryPending",
    "NoNode",
    "RejoinedOn",
    "DidNotReturn",
    "NotReadyDuringSoak",
    "PodsNotReadyAfterSoak",
    "NoAcknowledgementOne",
    "NoAcknowledgementMany",
    "WhyManaged",
    "WhyCountdownExpired",
    "WhyImmediate",
    "WhyForced",
    "PreviewSelect",
    "PreviewDelete",
    "PreviewRestart",
    "PreviewPod",
    "PreviewNothing",
    "WriteCordon",
    "WriteUncordon",
    "WriteAnnotations",
    "WriteTaint",
    "WriteUntaint",
    "WriteEviction",
    "WriteDeletion",
    "WriteStatus",
    "WritesRefusedCondition",
    "WriteCreateJob",
    "RestartJobFailed",
    "RestartJobNotRunning",
};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<std::size_t>(UpgradePhrase::Count_),
              "one name per UpgradePhrase");

} // namespace

const char *upgradePhraseText(UpgradePhrase code)
{
    return kTexts[static_cast<int>(code)];
}

const char *upgradePhraseName(UpgradePhrase code)
{
    return kNames[static_cast<int>(code)];
}

std::optional<UpgradePhrase> upgradePhraseNamed(std::string_view name)
{
    for (int i = 0; i < static_cast<int>(UpgradePhrase::Count_); ++i)
        if (name == kNames[i])
            return static_cast<UpgradePhrase>(i);
    return std::nullopt;
}

Phrase phrase(UpgradePhrase code, std::vector<PhraseArg> args)
{
    return Phrase::of(PhraseCatalog::Upgrade, static_cast<int>(code), std::move(args));
}

} // namespace api
