#pragma once
// Patches as an API server applies them: JSON merge patch (RFC 7386), JSON patch (RFC 6902,
// through nlohmann's patch) and strategic merge patch for the built-in types the engine
// stores (pod templates, pods, DaemonSets, ReplicaSets, nodes).
//
// Strategic merge knows the merge keys of core/v1 by field name (a field name means the same
// list type everywhere in these objects): containers, initContainers, ephemeralContainers,
// env, volumes, imagePullSecrets, resourceClaims by name; volumeMounts by mountPath; ports by
// containerPort; hostAliases by ip; ownerReferences by uid; topologySpreadConstraints by
// topologyKey; conditions by type; finalizers as a merged set of strings. Every other list is
// replaced whole. Directives: $patch (replace/delete/merge) in maps and list elements,
// $retainKeys, $setElementOrder/<list>, $deleteFromPrimitiveList/<list>.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

namespace api {

// The PATCH content types: merge-patch+json, json-patch+json, strategic-merge-patch+json.
enum class PatchType { Merge, Json, Strategic };

kube::Json mergePatch(const kube::Json &target, const kube::Json &patch);
// The patch of `type` applied to `target` (a merge patch must be an object); the result must
// be an object.
kube::Result<kube::Json> patchDocument(const kube::Json &target, PatchType type, const kube::Json &patch);
kube::Result<kube::Json> jsonPatch(const kube::Json &target, const kube::Json &patch);
kube::Result<kube::Json> strategicMergePatch(const kube::Json &original, const kube::Json &patch);

// Merge key of a list field, "" when the list is replaced as a whole.
const char *strategicMergeKey(const std::string &field);

} // namespace api
