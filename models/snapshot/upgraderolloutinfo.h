#pragma once
// UpgradeRolloutInfo — the node-agent upgrade part of a ClusterSnapshot: one immutable value per
// NodeUpgradeRollout (spec summary, status, per-node rows, recent metrics samples, deduplicated
// events, resume preview) plus the workload inventory the pre-flight report needs before a
// rollout exists. Built on the backend's thread (UpgradeSnapshotBuilder for the embedded
// engine); the large parts are shared by pointer between consecutive snapshots when unchanged.
//
// Phases are kept as the engine's names would be on a live cluster's status: the enum below
// mirrors api::NodePhase value for value (checked by a static_assert where both are seen).

#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <vector>

namespace models {

enum class UpgradeNodePhase {
    UpToDate,
    Pending,
    Cordoned,
    DrainingManaged,
    DrainingUnmanaged,
    Restarting,
    Soaking,
    Upgraded,
    Failed,
    Skipped,
    Removed
};
inline constexpr int kUpgradeNodePhaseCount = 11;

QString upgradeNodePhaseName(UpgradeNodePhase phase);  // untranslated engine name: "DrainingManaged"
QString upgradeNodePhaseTitle(UpgradeNodePhase phase); // translated: "Draining managed pods"
bool upgradeNodeInFlight(UpgradeNodePhase phase);      // Cordoned .. Soaking
bool upgradeNodePreRestart(UpgradeNodePhase phase);    // Cordoned .. DrainingUnmanaged

// Who cordoned the node (mirrors sim::CordonOwner).
enum class UpgradeCordonOwner { None, Controller, SomeoneElse };

// The rollout's phase (mirrors api::RolloutPhase value for value).
enum class UpgradeRolloutPhase {
    Pending,
    Progressing,
    Paused,
    Halted,
    Aborting,
    Aborted,
    Completed,
    CompletedWithExceptions
};
QString upgradeRolloutPhaseName(UpgradeRolloutPhase phase); // untranslated: "CompletedWithExceptions"

struct UpgradeNodeRow
{
    QString name;
    QString zone;
    int queuePosition = 0; // 1-based among Pending nodes, 0 = not queued
    UpgradeNodePhase phase = UpgradeNodePhase::UpToDate;
    qint64 phaseSince = 0; // virtual ms; time in phase = snapshot clock - phaseSince
    // In the user's language (upgradephrases.h), except reason codes ("AgentUnresponsive").
    QString nextDeadline; // "drainTimeout 12m/30m"
    QString reason;       // engine reason code, or why a pending node waits
    QStringList blockers; // "rs/web 8/10 ready (below 90 %)"
    int attempt = 0;
    UpgradeCordonOwner cordonOwner = UpgradeCordonOwner::None;
    bool held = false;
    bool blocked = false;
    QString agentVersion;
    bool operator==(const UpgradeNodeRow &) const = default;
};

// One controller pass as the engine's metrics ring buffer recorded it.
struct UpgradeSample
{
    qint64 time = 0;
    std::array<int, kUpgradeNodePhaseCount> phases{}; // nodes per UpgradeNodePhase
    int unavailable = 0;
    int maxUnavailable = 1;
    int blocked = 0;
    double minReadyRatio = -1; // lowest ready/desired of the affected controllers; -1 = none
    bool operator==(const UpgradeSample &) const = default;
};

struct UpgradeEventInfo
{
    QString object; // "node/node-3", "nodeupgraderollout/agents-v2"
    QString type;   // Normal, Warning
    QString reason;
    QString message;
    int count = 1;
    qint64 firstTime = 0;
    qint64 lastTime = 0;
    bool operator==(const UpgradeEventInfo &) const = default;
};

// What the first pass after a resume would do (docs node-upgrade.md §7).
struct UpgradePreviewInfo
{
    QStringList nextNodes; // in selection order
    QStringList deletions; // "default/web-x on node-3: managed, rs/web 10/10 ready"
    QStringList kamikazes; // nodes whose agent would be told to restart
    QString summary;
    bool operator==(const UpgradePreviewInfo &) const = default;
};

struct UpgradeCountsInfo
{
    int nodes = 0;
    int upToDate = 0;
    int upgraded = 0;
    int inFlight = 0;
    int pending = 0;
    int held = 0;
    int blocked = 0;
    int failed = 0;
    int skipped = 0;
    bool operator==(const UpgradeCountsInfo &) const = default;
};

// The name of the observed upgrade (observedupgrade.h) in a snapshot's list: not a valid
// object name, so no NodeUpgradeRollout can carry it.
inline constexpr char kObservedUpgradeName[] = "(observed)";

struct UpgradeRolloutInfo
{
    QString name;
    // Inferred from the nodes (another tool drives it, no NodeUpgradeRollout exists): it can
    // only be watched.
    bool observed = false;
    qint64 generation = 0;
    qint64 observedGeneration = 0;
    qint64 created = 0;

    // spec summary
    QString targetVersion;
    QString nodeSelector;       // "pool=a, zone=b", empty = every node
    QString maxUnavailable;     // as written: "1", "10%"
    QString unmanagedPodPolicy; // Immediate, AfterTimeout(1h), Never
    QString onDrainTimeout;     // Hold, Skip, Force
    QString singleReplicaPolicy;
    double healthThreshold = 0.9;
    int maxFailedNodes = 1;
    bool zoneSerial = true;
    bool paused = false; // spec.paused (an admin pause)
    QString pauseReason;
    bool abort = false;

    // status
    UpgradeRolloutPhase phase = UpgradeRolloutPhase::Pending;
    bool blockedCondition = false; // the Blocked condition is True (nodes blocked, or nothing can start)
    QString headline;
    UpgradeCountsInfo counts;
    int unavailable = 0;
    int maxUnavailableResolved = 1;
    bool maxUnavailableClamped = false;
    qint64 eta = -1; // ms, -1 unknown
    QStringList queue;
    QString refusal;
    qint64 startedAt = 0;
    qint64 pausedAt = 0;
    QStringList conditions; // "Halted=True (FailureThresholdReached)"

    std::shared_ptr<const std::vector<UpgradeNodeRow>> nodes;    // by name
    std::shared_ptr<const std::vector<UpgradeSample>> samples;   // oldest first, the most recent passes
    std::shared_ptr<const std::vector<UpgradeEventInfo>> events; // in order of first emission
    std::shared_ptr<const UpgradePreviewInfo> preview;           // filled while paused or halted

    bool running() const; // not Completed*, not Aborted
    bool halted() const { return phase == UpgradeRolloutPhase::Halted; }
    // Nodes in Cordoned .. Soaking as "n7 (Restarting)".
    QStringList inFlightNodes() const;
    const UpgradeNodeRow *node(const QString &name) const; // binary search
};

// Per node: the pods an upgrade would have to move (for the pre-flight report).
struct UpgradeNodeWorkload
{
    QString node;
    int managedPods = 0;
    int daemonSetPods = 0;
    QStringList unmanagedPods;       // NS/NAME
    QStringList singleReplicaOwners; // "replicaset/NS/NAME" with replicas = 1
    QStringList localDataPods;       // NS/NAME of pods with emptyDir volumes (localDataPolicy)
    qint64 incompatibleSince = 0;    // node annotation, 0 when none
    bool controllerHost = false;
    bool operator==(const UpgradeNodeWorkload &) const = default;
};

using UpgradeRolloutList = std::vector<UpgradeRolloutInfo>;
using UpgradeInventory = std::vector<UpgradeNodeWorkload>; // by node name

// Who drives the cluster's NodeUpgradeRollouts, as the node-upgrade page tells the operator.
// The console runs a controller on a live cluster only while it holds the controllers' Lease
// (the one `daemonscope controller` replicas compete for); while another process holds it, the
// console only writes the admin's requests (spec edits, node annotations) and that process
// acts on them.
struct UpgradeDriverInfo
{
    enum class Mode {
        Engine,     // the embedded simulation's controller
        Console,    // this console holds the Lease and runs the controller
        Controller, // another process holds the Lease (holder)
        Nobody,     // no live holder and this console does not lead (yet): rollouts wait
        Unavailable // the cluster does not serve NodeUpgradeRollouts, or they cannot be read
    };
    Mode mode = Mode::Engine;
    QString holder; // Controller: the holder's identity; Console: this console's
    QString lease;  // "NS/NAME" of the Lease, empty when none is known
    // Why, in the server's or the client's words (untranslated), when something failed:
    // Unavailable (empty: the cluster does not serve the resource — no CRD), Nobody (the Lease
    // could not be taken), Console (a renewal failed; the renew deadline has not passed yet).
    QString error;
    bool consoleMayDrive = true; // Nobody: a rollout started here is driven by this console
    bool reading = false;        // Nobody: the caches are still being read
    bool operator==(const UpgradeDriverInfo &) const = default;
};

// The rollout called `name` in `list`, null when absent.
const UpgradeRolloutInfo *findUpgradeRollout(const UpgradeRolloutList &list, const QString &name);

// Shared empty values, so a snapshot's upgrade members are never null.
std::shared_ptr<const UpgradeRolloutList> emptyUpgradeRollouts();
std::shared_ptr<const UpgradeInventory> emptyUpgradeInventory();

} // namespace models
