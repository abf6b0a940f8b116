#pragma once
// What LiveUpgradeCluster's two files share about the wire: the content type, the field manager
// of its writes, how often a write retries a Conflict, the JSON text of a body (a stray invalid
// UTF-8 byte in a message or a name is replaced, never thrown), and the decoding of a rollout the
// server answered with. Private to liveupgradecluster.cpp and liveupgradewrites.cpp.

#include "models/api/nodeupgraderollout.h"
#include "models/kube/apistatus.h"
#include "models/kube/gojson.h"

#include <string>
#include <string_view>

namespace models::wire {

inline constexpr const char *kJson = "application/json";
inline constexpr const char *kComponent = "daemonscope-node-upgrade";
inline constexpr int kConflictRetries = 3;

std::string dump(const kube::Json &j);
kube::ApiStatus decodeError(const std::string &message);
kube::Result<api::NodeUpgradeRollout> decodeRollout(std::string_view body, const std::string &what);

} // namespace models::wire
