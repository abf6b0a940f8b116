#pragma once
// DrainPreview — what a drain of a node would do, as far as the snapshot knows it, for the
// question asked before kubectl drain --ignore-daemonsets: the DaemonSet pods it leaves alone
// (the snapshot has every DaemonSet's pods), how many other pods it would evict and which it
// refuses for want of a controller (the node-upgrade inventory, when the backend keeps one).
// The node's full pod list and the PodDisruptionBudgets' state are read by the drain itself
// (api::getPodsForDeletion); the preview says when it cannot know.

#include "models/snapshot/snapshot.h"

#include <QString>
#include <QStringList>

namespace models {

struct DrainPreview
{
    bool nodeKnown = false;
    bool cordoned = false;
    QStringList daemonSetPods;  // "NS/POD (DaemonSet NAME)", skipped
    bool workloadKnown = false; // the backend reports the node's other pods (inventory)
    int evictCount = 0;         // controller-managed pods, evicted through their budgets
    QStringList unmanagedPods;  // NS/NAME, refused (kubectl: "declare no controller")
};

DrainPreview previewDrain(const ClusterSnapshot &snapshot, const QString &node);

} // namespace models
