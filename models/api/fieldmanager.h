#pragma once
// FieldManager — field ownership (metadata.managedFields) and server-side apply, as
// kube-apiserver keeps them: every write records which manager set which fields (FieldsV1
// sets, list elements by their keys), and an apply (PATCH application/apply-patch+yaml)
// merges the manager's configuration into the object by the schema's list types, removes what
// the manager applied before and no longer applies (unless another manager owns it), and
// refuses with 409 a change to a field another manager owns with another value — unless forced,
// when the field changes hands.
//
// Managers are identified as upstream does: an applier by its name (and subresource), an
// updater by name, apiVersion and subresource. What is not modelled: the per-object cap on
// update managers (10 upstream, older ones merged), "before-first-apply" for objects that had no
// managed fields, ownership of the fields the engine's controllers write (they do not go
// through the HTTP server), and conversion between versions (each kind is served in one).

#include "models/kube/apistatus.h"
#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <string>

namespace api {

// The manager of the engine's own applies (scenario objects and apply steps, the console's
// manifests).
inline constexpr const char *kApplyManager = "daemonscope";

struct FieldManagerContext
{
    std::string manager;     // fieldManager, or the user agent's product ("kubectl", "curl")
    std::string apiVersion;  // "apps/v1"
    std::string subresource; // "" or "status"
    std::string time;        // RFC 3339, the server's now
};

class FieldManager
{
public:
    // The managedFields of `updated` after an Update by ctx.manager turned `live` (null: a
    // create) into `updated`: the manager gains the fields it added or changed; the others lose
    // what changed under them and what was removed. `updated`'s own managedFields are the
    // starting point when it carries them, `live`'s otherwise.
    static kube::Json update(const kube::Json *live, const kube::Json &updated,
                             const FieldManagerContext &ctx);

    // Server-side apply of `config` by ctx.manager onto `live` (null: the object does not exist
    // yet). Returns the object to store, its managedFields set; a 409 Conflict (causes of type
    // FieldManagerConflict) when a field another manager owns would change and `force` is false.
    static kube::Result<kube::Json> apply(const kube::Json *live, const kube::Json &config,
                                          const FieldManagerContext &ctx, bool force);
};

} // namespace api
