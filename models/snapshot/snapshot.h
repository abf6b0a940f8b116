#pragma once
// ClusterSnapshot — everything the views show about a cluster at one instant, as one immutable
// value. A backend builds it on its own thread and publishes std::shared_ptr<const
// ClusterSnapshot> through a queued signal; the GUI thread only reads it. Big parts that did not
// change since the previous snapshot (a DaemonSet's pods, its revisions, templates, the node
// list, events, rollout records) are shared by pointer, so consecutive snapshots of a
// 5,000-node cluster cost a few small allocations, not a deep copy.
//
// Invariants: vectors are sorted (daemonSets by key, pods and nodes by name, revisions by number
// ascending, events newest first with the event key as tie-breaker); every shared_ptr member is
// non-null in a published snapshot (possibly pointing at an empty vector); times are virtual
// milliseconds since the epoch (kube::Timestamp), 0 meaning "never / unknown".

#include "models/kube/gojson.h"
#include "models/snapshot/upgraderolloutinfo.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace models {

enum class BackendKind { Embedded, Live };

// What the user may do, as the API server answered SelfSubjectAccessReviews (kubectl auth can-i).
// A question that was not asked (embedded backend, or not yet answered) is allowed: the server
// decides anyway, and its refusal is the action's outcome.
struct BackendPermissions
{
    // "VERB RESOURCE[/SUB] [NAMESPACE]" -> allowed, e.g. "patch daemonsets default",
    // "patch nodes", "create pods/eviction", "create nodeupgraderollouts".
    std::map<QString, bool> answers;

    static QString question(const QString &verb, const QString &resource, const QString &ns = QString());
    bool allows(const QString &verb, const QString &resource, const QString &ns = QString()) const;
    // Empty when allowed, else "you may not patch daemonsets in default" / "you may not patch nodes".
    QString denial(const QString &verb, const QString &resource, const QString &ns = QString()) const;
    bool operator==(const BackendPermissions &) const = default;
};

struct BackendInfo
{
    BackendKind kind = BackendKind::Embedded;
    QString name; // "embedded: demo.yaml", "kind-prod / default"
    bool connected = false;
    QString errorText;    // last error that affects the whole backend, empty when fine
    QString scenarioPath; // embedded: the loaded scenario file, empty for the built-in one
    quint64 seed = 1;     // embedded: the RNG seed the cluster was built with
    QString context;      // live: the kubeconfig context, empty when none was named
    QString server;       // live: the API server URL
    // embedded: the scenario's steps are still running; the snapshot shows the cluster as it
    // is being built (the clock does not run, actions wait until the load has finished).
    bool loading = false;
    BackendPermissions permissions; // live: asked on every (re)connection; embedded: all allowed
    QString cluster;                // live: the kubeconfig cluster name, empty when none was named
};

struct ClockInfo
{
    qint64 now = 0;      // virtual time (embedded) or wall time of the last update (live)
    double speed = 1.0;  // virtual ms per real ms; 0 = paused
    bool running = true; // speed > 0 and a cluster is loaded
};

// The derived state of a DaemonSet rollout, one word for the explorer.
//
// Rule (computeBadge in snapshotassembler.h), first match wins:
// - Paused: the app paused it (updateStrategy switched to OnDelete, saved strategy in the
//   daemonscope.io/paused-update-strategy annotation).
// - Complete: observedGeneration >= generation and updated == available == desired and
//   nothing misscheduled — kubectl's "successfully rolled out".
// - Stuck: not complete, and either
//     (a) a non-terminating pod on the current revision has been not Ready for longer than
//         kStuckPodThreshold (5 min) since it was created, or
//     (b) the rollout made no progress (no pod became Ready on the current revision, no pod
//         was replaced) for longer than max(5 min, 10 x the mean per-node replace time
//         observed in this rollout).
// - Progressing: otherwise.
// A node-agent upgrade takes nodes down on purpose: pods that are not Ready (or missing) on
// nodes the upgrade has in flight are the upgrade's, not the DaemonSet's. They never make it
// Stuck, and a DaemonSet whose only shortfall is on such nodes stays Complete, its reason naming
// the nodes ("… 1 unavailable on nodes being upgraded: node-b-1").
// - Settled (checked right after Complete): done with exceptions — every pod that is down,
//   behind or missing sits on a NotReady node (or one being upgraded, with at least one NotReady),
//   and nothing else is wrong. The DaemonSet has gone as far as it can; the reason names the
//   nodes ("done with exceptions: 42 of 42 updated, 41 available; down on NotReady node-b-4").
//   Pods on NotReady nodes never make a DaemonSet Stuck by themselves; when the rollout stops
//   moving for other reasons, Stuck names the NotReady nodes that hold its pods, and a pod not
//   Ready elsewhere is named with its node.
enum class RolloutBadge { Progressing, Paused, Complete, Stuck, Settled };

inline constexpr qint64 kStuckPodThreshold = 5 * 60 * 1000;

struct DaemonSetCounts
{
    int desired = 0;      // desiredNumberScheduled
    int current = 0;      // currentNumberScheduled
    int updated = 0;      // updatedNumberScheduled
    int ready = 0;        // numberReady
    int available = 0;    // numberAvailable
    int unavailable = 0;  // numberUnavailable
    int misscheduled = 0; // numberMisscheduled
    bool operator==(const DaemonSetCounts &) const = default;
};

struct RevisionInfo
{
    QString name; // ControllerRevision name, "web-5d4f8c7b9"
    QString hash; // controller-revision-hash label (the suffix pods carry)
    qint64 number = 0;
    qint64 created = 0;
    QString changeCause;  // kubernetes.io/change-cause annotation, empty when absent
    QString imageSummary; // "nginx:1.27" or "a:1, b:2" (containers in template order)
    // The revision's pod template (data.spec.template, "$patch" removed), never null.
    std::shared_ptr<const kube::Json> podTemplate;
    int podCount = 0; // non-terminating pods carrying this hash
    bool current = false;
};

struct PodInfo
{
    QString name;
    QString node; // bound node, or the node the DaemonSet pinned it to
    QString hash; // controller-revision-hash label
    bool ready = false;
    bool deleting = false;
    QString phase;         // Pending, Running, Succeeded, Failed
    QString waitingReason; // ContainerCreating, CrashLoopBackOff, ...
    int restarts = 0;
    qint64 created = 0;
    qint64 readySince = 0; // Ready condition transition when ready, else 0
};

// The pods with a node, in node order, each node's in the order of `pods` (a stable sort): how
// the node map and the rollout headline walk a DaemonSet's pods alongside its nodes.
std::vector<const PodInfo *> podsInNodeOrder(const std::vector<PodInfo> &pods);

struct NodeInfo
{
    QString name;
    std::map<QString, QString> labels;
    QStringList labelTexts; // the labels as "key=value" ("key" when the value is empty), by key
    QString zone;           // topology.kubernetes.io/zone, empty when unlabelled
    QString pool;           // a pool label (see SnapshotAssembler::poolOf), empty when none
    bool ready = false;
    bool unschedulable = false;
    QString conditions;   // non-default conditions, "Ready=False (KubeletNotReady), DiskPressure=True"
    QString agentVersion; // kubelet version
    QString fault;        // embedded: the injected fault kind, empty when none
    // A node-agent upgrade has it in flight (cordoned .. soaking) — ours, or another tool's drain
    // shown by the node lifecycle conditions DrainInProgress / Drained (KEP-5683).
    bool upgrading = false;
    QString draining; // "DrainInProgress" or "Drained" while that condition is True, else empty
    // The key of a taint other tools put on a node they are about to drain or remove
    // (ToBeDeletedByClusterAutoscaler, karpenter.sh/disrupted, …), else empty.
    QString disruptionTaint;
    QString bootID; // status.nodeInfo.bootID: changes with every reboot
};

struct EventInfo
{
    QString key;          // namespace/name of the Event object (stable across count bumps)
    qint64 time = 0;      // lastTimestamp
    qint64 firstTime = 0; // firstTimestamp
    QString object;       // "daemonset/default/web", "pod/default/web-x8k2p", "node/node-3"
    QString daemonSetKey; // the DaemonSet the event concerns (itself or one of its pods), or empty
    QString source;       // the reporting component (kubelet, daemonset-controller), empty if unknown
    QString type;         // Normal, Warning
    QString reason;
    QString message;
    int count = 1;
};

// A node's pod being replaced during a rollout: from the old pod's deletion (or the new pod's
// creation, whichever came first) until the new pod was Ready.
struct NodeReplaceTiming
{
    QString node;
    qint64 started = 0;
    qint64 finished = 0; // 0 while in progress
};

// One rollout of a DaemonSet: from the moment a template change was observed until
// updated == available == desired.
struct RolloutTiming
{
    QString fromHash;
    QString toHash;
    qint64 fromRevision = 0;
    qint64 toRevision = 0;
    qint64 started = 0;
    qint64 completed = 0;                 // 0 while in progress (or superseded: see supersededBy)
    QString supersededBy;                 // hash of the rollout that replaced this one before it completed
    std::vector<NodeReplaceTiming> nodes; // in start order
    qint64 lastProgress = 0;              // last time a pod of toHash was created or became Ready

    // Mean duration of the finished node replacements, 0 when none finished yet.
    qint64 meanNodeMs() const
    {
        qint64 sum = 0;
        qint64 n = 0;
        for (const auto &t : nodes) {
            if (t.finished > 0) {
                sum += t.finished - t.started;
                ++n;
            }
        }
        return n > 0 ? sum / n : 0;
    }
};

enum class ActionKind {
    Rollback,
    Pause,
    Resume,
    LoadScenario,
    SetSpeed,
    Step,
    SetSeed,
    InjectFault,
    StartUpgrade,   // a NodeUpgradeRollout created (target = rollout name)
    UpgradeControl, // pause / resume / abort / acknowledge a rollout, or hold / release / skip /
                    // retry / force one node (target = rollout name, parameters name the action)
    Connect,        // a live backend connected to a kubeconfig context (target = context)
    SetImage,       // kubectl set image: containers' images changed (target = "ns/name")
    RestartRollout, // kubectl rollout restart: the restartedAt annotation (target = "ns/name")
    SetStrategy,    // the update strategy edited (maxUnavailable/maxSurge; target = "ns/name")
    Cordon,         // kubectl cordon (target = node name)
    Uncordon,       // kubectl uncordon (target = node name)
    Drain,          // kubectl drain: cordon, then evict through PodDisruptionBudgets (target = node)
    Last = Drain
};

struct ActionRecord
{
    qint64 time = 0;     // virtual time when it was executed
    qint64 wallTime = 0; // real time (ms since epoch)
    QString user;        // OS user (operatingSystemUser())
    ActionKind kind = ActionKind::Rollback;
    QString target;     // "default/web" or node name
    QString parameters; // "toRevision=0", "fault=NotReady"
    bool ok = false;
    QString outcome; // "rolled back", "skipped rollback (...)", error text
};

struct DaemonSetRecord
{
    std::vector<RolloutTiming> rollouts; // oldest first
    std::vector<ActionRecord> actions;   // oldest first
};

// A tool other than this console that manages a DaemonSet and reverts changes made past it
// (managedby.h detects them from its labels, annotations and managedFields).
struct ManagedBy
{
    enum class Tool { KubectlApply, Helm, ArgoCD, Flux, FieldManager };
    Tool tool = Tool::FieldManager;
    QString name;     // "kubectl apply", "Helm", "Argo CD", "Flux", or the field manager's name
    QString evidence; // "annotation kubectl.kubernetes.io/last-applied-configuration", ...
    bool operator==(const ManagedBy &) const = default;
};
// The shared empty list (a DaemonSet nothing else manages).
std::shared_ptr<const std::vector<ManagedBy>> noManagers();

struct DaemonSetInfo
{
    QString key; // namespace/name
    QString namespace_;
    QString name;
    QString uid;
    qint64 generation = 0;
    qint64 observedGeneration = 0;
    qint64 created = 0;
    DaemonSetCounts counts;

    QString strategyType;   // RollingUpdate, OnDelete
    QString maxUnavailable; // "1", "10%"; empty when not RollingUpdate
    QString maxSurge;       // "0", "25%"
    int minReadySeconds = 0;
    int revisionHistoryLimit = 10;
    bool paused = false;
    QString savedStrategy; // paused: the saved updateStrategy as compact JSON

    std::shared_ptr<const kube::Json> podTemplate; // spec.template, never null
    QString currentRevisionName;
    QString currentRevisionHash;
    qint64 currentRevisionNumber = 0;

    RolloutBadge badge = RolloutBadge::Progressing;
    QString badgeReason; // one line: why Stuck/Progressing ("pod web-x on node-3 not ready for 6m")

    std::shared_ptr<const std::vector<RevisionInfo>> revisions; // by number ascending
    std::shared_ptr<const std::vector<PodInfo>> pods;           // by name; controlled by this DS
    std::shared_ptr<const DaemonSetRecord> record;              // rollout timings and actions

    const RevisionInfo *revision(qint64 number) const;
    const RevisionInfo *currentRevision() const;

    // ---- Other tools that manage this DaemonSet (Helm, Argo CD, Flux, kubectl apply, other
    // field managers): found once per change of the DaemonSet, shared with the previous snapshot
    // while they stay the same; never null (empty when none).
    std::shared_ptr<const std::vector<ManagedBy>> managedBy = noManagers();
};

struct ClusterSnapshot
{
    quint64 sequence = 0; // increases with every published snapshot of one backend
    BackendInfo backend;
    ClockInfo clock;
    QStringList namespaces;                               // sorted
    std::vector<DaemonSetInfo> daemonSets;                // by key
    std::shared_ptr<const std::vector<NodeInfo>> nodes;   // by name
    std::shared_ptr<const std::vector<EventInfo>> events; // newest first, at most kMaxEvents
    static constexpr int kMaxEvents = 2000;
    // Node-agent upgrade rollouts (by name) and the per-node workload the pre-flight report
    // reads; never null (shared empty values by default, so every backend gets them).
    std::shared_ptr<const UpgradeRolloutList> upgrades = emptyUpgradeRollouts();
    std::shared_ptr<const UpgradeInventory> upgradeInventory = emptyUpgradeInventory();
    // False while a live backend has not read every node's pods for it (requestUpgradeInventory).
    bool upgradeInventoryRead = true;
    UpgradeDriverInfo upgradeDriver; // who drives the rollouts (Engine on the embedded backend)
    const UpgradeRolloutInfo *upgrade(const QString &name) const; // null when absent

    const DaemonSetInfo *daemonSet(const QString &key) const; // binary search, null when absent
    const NodeInfo *node(const QString &name) const;          // binary search, null when absent

    // An empty snapshot with every shared part allocated (a valid "nothing loaded" state).
    static std::shared_ptr<const ClusterSnapshot> empty(BackendKind kind = BackendKind::Embedded);
    // A new snapshot whose memory is released on a background thread when the last holder
    // lets go on the application's (GUI) thread: freeing a cluster-sized snapshot — tens of
    // thousands of strings — would otherwise stall the window. Builders create them this way.
    static std::shared_ptr<ClusterSnapshot> create();
};

using SnapshotPtr = std::shared_ptr<const ClusterSnapshot>;

QString badgeName(RolloutBadge badge);   // translated: "Progressing", "Paused", ...
QString actionKindName(ActionKind kind); // untranslated identifier: "rollback", "pause", ...

} // namespace models

Q_DECLARE_METATYPE(std::shared_ptr<const models::ClusterSnapshot>)
