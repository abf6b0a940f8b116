#pragma once
// JSON Patch (RFC 6902) between two documents, built on nlohmann::json's diff and patch. A
// patch that does not apply is an ApiStatus naming the failing operation, never an exception.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

namespace diff {

// Operations that turn `from` into `to` (replace/remove/add; array tails removed from the end).
kube::Json jsonPatch(const kube::Json &from, const kube::Json &to);

// Applies `patch` (an array of operations) to `document`. Errors are BadRequest statuses whose
// message names the operation index, its op and path, and why it failed.
kube::Result<kube::Json> applyJsonPatch(const kube::Json &document, const kube::Json &patch);

} // namespace diff
