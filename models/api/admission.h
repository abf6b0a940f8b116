#pragma once
// Admission plugins of kube-apiserver that change what a client creates, applied to every pod
// the engine stores (from kubectl, the console or a controller).

#include "models/kube/gojson.h"

#include <optional>

namespace api {

// The seconds DefaultTolerationSeconds gives a pod on a not-ready or unreachable node
// (--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds).
inline constexpr std::int64_t kDefaultTolerationSeconds = 300;

// DefaultTolerationSeconds: a pod that does not tolerate the NoExecute taints
// node.kubernetes.io/not-ready and node.kubernetes.io/unreachable (a toleration with that key
// or no key, and effect NoExecute or none) gets `Exists` tolerations for them with
// tolerationSeconds 300. The spec with the added tolerations, or nothing when it has both.
std::optional<kube::Json> withDefaultTolerationSeconds(const kube::Json &podSpec);

} // namespace api
