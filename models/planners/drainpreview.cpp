#include "models/planners/drainpreview.h"

namespace models {

DrainPreview previewDrain(const ClusterSnapshot &snapshot, const QString &node)
{
    DrainPreview p;
    const NodeInfo *info = snapshot.node(node);
    p.nodeKnown = info != nullptr;
    p.cordoned = info && info->unschedulable;
    for (const auto &ds : snapshot.daemonSets) {
        if (!ds.pods)
            continue;
        for (const auto &pod : *ds.pods)
            if (pod.node == node && !pod.deleting)
                p.daemonSetPods
                    << QStringLiteral("%1/%2 (DaemonSet %3)").arg(ds.namespace_, pod.name, ds.name);
    }
    p.daemonSetPods.sort();
    if (snapshot.upgradeInventory) {
        for (const auto &w : *snapshot.upgradeInventory) {
            if (w.node != node)
                continue;
            p.workloadKnown = true;
            p.evictCount = w.managedPods;
            p.unmanagedPods = w.unmanagedPods;
        }
        // An embedded cluster lists every node with pods; a node without an entry has none.
        if (!p.workloadKnown && snapshot.backend.kind == BackendKind::Embedded &&
            !snapshot.upgradeInventory->empty())
            p.workloadKnown = true;
    }
    return p;
}

} // namespace models
