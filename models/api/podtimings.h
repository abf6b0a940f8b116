#pragma once
// The timings of a small node-agent pod that nothing has measured yet: the embedded kubelet's
// defaults (sim::KubeletTimings) and the rollout estimate's per-node time before any rollout
// of the DaemonSet was observed (models/planners/rollbackpreview.h), on either backend.

#include "models/kube/timeutil.h"

namespace api {

inline constexpr kube::Duration kAssumedPodStartMs = 4000;       // created (bound) -> Running
inline constexpr kube::Duration kAssumedPodReadyMs = 2000;       // Running -> Ready
inline constexpr kube::Duration kAssumedPodTerminationMs = 3000; // deletion -> gone

} // namespace api
