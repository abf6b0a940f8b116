#pragma once
// Why is this node behind? For one node of a DaemonSet's map, the cause that keeps its pod from
// being ready on the current revision, with the evidence (an event message, the waiting reason,
// the budget in use). The same rules for the embedded engine and a live cluster: they read only
// the snapshot (node, pod, DaemonSet, events).
//
// A node is behind when the DaemonSet targets it and it has no pod, or its newest pod is not
// ready, is terminating, is not on the current revision, or still shares the node with the old
// pod (surge). The first rule that applies names the cause:
//   1. the node is NotReady                          NodeNotReady  (its conditions)
//   2. a node-agent upgrade has it in flight         NodeUpgrading
//   3. no pod                                        NoPod
//   4. the pod is terminating                        Replacing
//   5. ErrImagePull, ImagePullBackOff, ...           ImagePull     (the newest Warning, or the reason)
//   6. CrashLoopBackOff, or restarts and not ready   CrashLoop     (restarts, the BackOff message)
//   7. Pending with a FailedScheduling Warning       Unschedulable (its message: resources, taints)
//   8. Pending or a creating reason                  Starting
//   9. running, not ready                            ReadinessFailing (an Unhealthy Warning), or
//                                                    Starting while younger than kStuckPodThreshold
//  10. ready on an old revision                      RolloutPaused / WaitingForDelete (OnDelete) /
//                                                    WaitingForBudget (maxUnavailable, unavailable now)
//  11. ready on the current revision beside the old pod (surge)  Replacing
#include "models/itemmodels/nodetile.h"
#include "models/snapshot/snapshot.h"

#include <QCoreApplication>
#include <QHash>

#include <vector>

namespace models {

// The newest Warning event of each pod, found by namespace and name. Built once per list of
// events (newest first, as a snapshot keeps them).
class PodWarnings
{
public:
    explicit PodWarnings(const std::vector<EventInfo> *events);
    const EventInfo *newest(const QString &namespace_, const QString &pod) const;

private:
    QHash<QString, const EventInfo *> m_byPod; // "namespace/name"
};

struct NodeLag
{
    NodeTile::LagCause cause = NodeTile::LagCause::None;
    QString detail;
    bool operator==(const NodeLag &) const = default;

    Q_DECLARE_TR_FUNCTIONS(models::NodeLag) // last: it ends in "private:"
};

// `pod` is the pod that stands for the node (the newest one), null when it has none; `podsOnNode`
// counts its pods that are not terminating; `targeted` is false when the DaemonSet does not
// want a pod there (then nothing is behind). `now` is the snapshot's clock.
struct LagInputs
{
    const NodeInfo *node = nullptr;
    const PodInfo *pod = nullptr;
    int podsOnNode = 0;
    bool targeted = true;
    const DaemonSetInfo *daemonSet = nullptr;
    const PodWarnings *warnings = nullptr;
    qint64 now = 0;
};

NodeLag classifyLag(const LagInputs &in);

// The cause as a few words for tooltips, the legend and the filter ("image pull failing").
QString lagCauseName(NodeTile::LagCause cause);

} // namespace models
