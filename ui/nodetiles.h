#pragma once
// The pod-to-revision map's tiles for one DaemonSet, built from a snapshot: one tile per node,
// grouped by zone (or pool when a node has no zone label), coloured by the revision of the
// DaemonSet pod on it.

#include "models/itemmodels/nodetile.h"
#include "models/snapshot/snapshot.h"

#include <vector>

namespace gui {

// A node without a pod is "missing" when the DaemonSet wants more pods than it has and the
// node matches the template's nodeSelector; otherwise the DaemonSet does not target it. The
// snapshot carries no taints, so a tainted node the DaemonSet cannot tolerate counts as
// missing only while the DaemonSet is short of pods — which then is the truth for its counts.
std::vector<models::NodeTile> buildNodeTiles(const models::ClusterSnapshot &snapshot,
                                             const models::DaemonSetInfo &daemonSet);

} // namespace gui
