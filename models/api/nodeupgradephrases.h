#pragma once
// The node-agent upgrade controller's sentences (headlines, blockers, deadlines, stall and gate
// reasons, resume previews) as template codes with named slots; phrase.h renders them. The
// English text of each is the controller's own, written into rollout status and node
// annotations and printed by the CLI; a user interface translates the same templates.
//
// Singular and plural sentences are separate codes (the engine chooses by the count), so a
// translation needs no plural rules of its own. Event messages are the other catalogue
// (UpgradeReason, nodeupgradeevents.h), their slots filled with phrases from here.

#include "models/api/phrase.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace api {

enum class UpgradePhrase {
    AndMore, // {items} and {count} more
    // headline
    Progress,
    ProgressInFlight,
    ProgressInFlightEta,
    Aborted,
    Aborting,
    Completed,
    CompletedWithExceptions,
    NotStarted,
    HaltedOne,
    HaltedMany,
    PausedBy,
    PausedByAt,
    PausedByInFlight,
    PausedByAtInFlight,
    Waiting,
    BudgetUsedBy,
    StillSoaking,
    StillRestarting,
    HoldsSlot,
    PostNodeDelay,
    MinReadyRatio,
    HolderFailed,
    HolderCordonedPending,
    HolderCordonedOutside,
    HolderNotReadyPending,
    HolderNotReadyOutside,
    NotReadyOne,
    NotReadyMany,
    HeldOne,
    HeldMany,
    NodeBlocked,
    // blockers and gate rules
    PodBlockedBy,
    PdbNumbers,
    PodTerminating,
    PodNodeHeld,
    PodRolloutPaused,
    GateRatio,
    GateBelow,
    GateNotAbove,
    GateInflightOne,
    GateInflightMany,
    GateSingleReplica,
    UnmanagedNever,
    UnmanagedDeletedIn,
    PodLocalData,
    // per-node table
    NotReadyWaits,
    DeadlineDrain,
    DeadlineReturn,
    DeadlineAck,
    DeadlineSoak,
    // event slots
    MoreThan,
    DurationAt,
    NoteSuffix,
    UncordonedSuffix,
    CordonedByController,
    AlreadyCordoned,
    RetrySoak,
    RetryResend,
    RetryPending,
    NoNode,
    RejoinedOn,
    DidNotReturn,
    NotReadyDuringSoak,
    PodsNotReadyAfterSoak,
    NoAcknowledgementOne,
    NoAcknowledgementMany,
    // resume preview
    WhyManaged,
    WhyCountdownExpired,
    WhyImmediate,
    WhyForced,
    PreviewSelect,
    PreviewDelete,
    PreviewRestart,
    PreviewPod,
    PreviewNothing,
    // writes the API server may refuse (event WriteRefused)
    WriteCordon,
    WriteUncordon,
    WriteAnnotations,
    WriteTaint,
    WriteUntaint,
    WriteEviction,
    WriteDeletion,
    WriteStatus,
    WritesRefusedCondition,
    // restart Jobs
    WriteCreateJob,
    RestartJobFailed,
    RestartJobNotRunning,
    Count_
};

// The English template of a code.
const char *upgradePhraseText(UpgradePhrase code);
// The code's name ("StillRestarting"), stable across versions: how a phrase names its template
// when it leaves the process (status.headlinePhrase, phrase.h's toJson), and back.
const char *upgradePhraseName(UpgradePhrase code);
std::optional<UpgradePhrase> upgradePhraseNamed(std::string_view name);

// A template phrase of this catalogue.
Phrase phrase(UpgradePhrase code, std::vector<PhraseArg> args = {});

} // namespace api
