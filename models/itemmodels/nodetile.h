#pragma once
// One node of the pod-to-revision map as plain values: the caller (the main window, fed by a
// snapshot) decides the grouping key and the pod state, so the map knows nothing about where
// the data came from.

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

namespace models {

struct NodeTile
{
    Q_GADGET

public:
    enum class PodState {
        Ready,        // the DaemonSet pod on the node is ready
        NotReady,     // a pod exists but is not ready (starting, crash-looping, image pull)
        Terminating,  // the pod has a deletion timestamp
        Missing,      // the node should run a pod but has none
        Surging,      // two pods on the node during a maxSurge rollout (old and new)
        NotScheduled, // the DaemonSet does not target the node (selector, taints)
    };
    Q_ENUM(PodState)

    // Why a node is behind its DaemonSet: its pod is not ready on the current revision (or it
    // has none). One cause per tile, the first that applies in this order; None when the node
    // is not behind (its pod is ready on the current revision, or the DaemonSet does not target
    // it). See models/planners/nodelag.h for the rules.
    enum class LagCause {
        None,
        NodeNotReady,     // the node is NotReady (or Unknown): nothing runs there until it returns
        NodeUpgrading,    // a node-agent upgrade has the node in flight
        Unschedulable,    // the pod cannot be placed: FailedScheduling (resources, taints, full node)
        ImagePull,        // the new image cannot be pulled (ErrImagePull, ImagePullBackOff, ...)
        CrashLoop,        // the pod's containers crash (CrashLoopBackOff, restarts while not ready)
        ReadinessFailing, // running but not ready (readiness probe failing)
        Starting,         // the pod was created and is still starting (pulling, creating)
        Replacing,        // the old pod is terminating; its replacement follows
        NoPod,            // the node should run a pod and has none yet
        WaitingForBudget, // old revision, ready: waits for a maxUnavailable / maxSurge slot
        WaitingForDelete, // old revision under OnDelete: replaced when someone deletes the pod
        RolloutPaused,    // old revision, the rollout is paused
    };
    Q_ENUM(LagCause)

    QString node;
    QString zone;       // group key: topology.kubernetes.io/zone or a pool label
    QStringList labels; // "key=value"
    QString podName;
    QString revisionHash;
    qint64 revisionNumber = -1; // -1 when the node has no pod
    // The revision's colour (RevisionPalette): the first number its template had, so a rollback
    // that renumbers a revision keeps its colour; revisionNumber when that is not known, -1
    // without pod.
    qint64 colorKey = -1;
    PodState podState = PodState::Missing;
    qint64 podCreatedMs = 0; // ms since epoch, 0 when unknown
    QString nodeConditions;  // e.g. "Ready" or "NotReady, DiskPressure"
    bool nodeReady = true;
    LagCause lag = LagCause::None;
    QString lagDetail;     // the evidence: an event message, the waiting reason, the budget in use
    bool cordoned = false; // spec.unschedulable (kubectl cordon): a "no entry" sign on the tile

    bool operator==(const NodeTile &) const = default;
};

} // namespace models

Q_DECLARE_METATYPE(models::NodeTile)
