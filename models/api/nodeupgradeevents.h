#pragma once
// NodeUpgradeEvents — the upgrade controller's event vocabulary (stable CamelCase reasons,
// docs node-upgrade.md §10) and its deduplicated log. The controller emits a reason code plus
// parameters, each a phrase (phrase.h); upgradeEventMessage() renders the design's English text
// from them, and a user interface renders its own translation from the same code and parameters
// (the log keeps them with every entry).
//
// The log keeps one entry per (object, type, reason, message) with a count and first/last
// time, so a node blocked for an hour is one entry with a count, not thousands.

#include "models/api/phrase.h"
#include "models/kube/timeutil.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace api {

enum class UpgradeReason {
    RolloutStarted,
    RolloutCompleted,
    RolloutCompletedWithExceptions,
    RolloutPaused,
    RolloutResumed,
    RolloutAborting,
    RolloutAborted,
    RolloutHalted,
    RolloutAcknowledged,
    OutsideMaintenanceWindow,
    HealthGateFailed,
    InsufficientCapacity,
    BudgetExhausted,
    PendingNodesNotReady,
    OverlapWithRollout,
    SelfRestartNotAllowed,
    NodeIncompatible,
    InvalidTimestamp,
    NodeSelected,
    NodeCordoned,
    PodDeleted,
    PodDeletionDeferred,
    ManagedPodsDrained,
    UnmanagedPodsPending,
    UnmanagedPodsDeleted,
    UnmanagedPodsRetained,
    DrainStalled,
    DrainTimeout,
    PodStuckTerminating,
    ReplacementSlow,
    SingleReplicaDisrupted,
    DrainForced,
    PodRescheduledToDrainingNode,
    KamikazeSent,
    KamikazeAcknowledged,
    NodeRejoined,
    SoakStarted,
    NodeUncordoned,
    NodeUpgraded,
    NodeFailed,
    NodeHeld,
    NodeReleased,
    NodeAborted,
    NodeSkipped,
    NodeRetry,
    NodeForced,
    ManualPodDeletionObserved,
    ExternalUncordonObserved,
    OutOfBandUpgrade,
    NodeRemoved,
    EvictionRefused,
    WriteRefused,
    RestartHandedOver,
    RestartJobCreated,
    RestartJobRunning,
};

inline constexpr int kUpgradeReasonCount = static_cast<int>(UpgradeReason::RestartJobRunning) + 1;

const char *upgradeReasonName(UpgradeReason reason);
std::optional<UpgradeReason> upgradeReasonNamed(std::string_view name); // nullopt: no such reason
bool isWarning(UpgradeReason reason);

// Named slot values of an event message; string values convert to literal phrases.
using UpgradeEventParams = std::vector<PhraseArg>;

// The design's template of a reason, with {name} slots.
const char *upgradeReasonText(UpgradeReason reason);
// The message as a phrase (catalogue Event), and its English text.
Phrase upgradeEventPhrase(UpgradeReason reason, UpgradeEventParams params);
std::string upgradeEventMessage(UpgradeReason reason, const UpgradeEventParams &params);

struct UpgradeEventRecord
{
    std::string object; // "node/node-3" or "nodeupgraderollout/agents-v2"
    std::string type;   // Normal | Warning
    std::string reason;
    std::string message;
    UpgradeReason code = UpgradeReason::RolloutStarted;
    UpgradeEventParams params; // the message's slots, for a translation of it
    int count = 1;
    kube::Timestamp firstTime = 0;
    kube::Timestamp lastTime = 0;
};

class NodeUpgradeEvents
{
public:
    // Returns true when this created a new entry (false: an existing one's count went up).
    bool record(kube::Timestamp now, const std::string &object, UpgradeReason reason,
                const UpgradeEventParams &params);
    // Entries in order of first emission.
    const std::vector<UpgradeEventRecord> &entries() const { return m_entries; }
    // Every emission (also repeats), in order: time and index into entries().
    const std::vector<std::pair<kube::Timestamp, std::size_t>> &emissions() const { return m_emissions; }
    std::size_t countOf(const std::string &reason, const std::string &object = {}) const;

private:
    std::vector<UpgradeEventRecord> m_entries;
    std::vector<std::pair<kube::Timestamp, std::size_t>> m_emissions;
    std::map<std::string, std::size_t> m_index;
};

} // namespace api
