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

    QString node;
    QString zone;       // group key: topology.kubernetes.io/zone or a pool label
    QStringList labels; // "key=value"
    QString podName;
    QString revisionHash;
    qint64 revisionNumber = -1; // -1 when the node has no pod
    PodState podState = PodState::Missing;
    qint64 podCreatedMs = 0; // ms since epoch, 0 when unknown
    QString nodeConditions;  // e.g. "Ready" or "NotReady, DiskPressure"
    bool nodeReady = true;

    bool operator==(const NodeTile &) const = default;
};

} // namespace models

Q_DECLARE_METATYPE(models::NodeTile)
