#pragma once
// Starting a rollout rather than undoing one: the PATCH bodies of `kubectl set image`, `kubectl
// rollout restart` and an edit of the update strategy, as pure functions of the DaemonSet read.
// Like kubectlrollout.h they hold no state and talk to no server: the embedded engine and the
// live backend send what these return, so both make the same write.
//
// - set image: a strategic merge patch naming each changed container (containers and
//   initContainers) by its merge key `name` with its new image, as kubectl's two-way merge patch
//   of the object before and after. A name the template lacks fails the whole action (kubectl:
//   `unable to find container named "x"`), nothing is sent; "*" sets every container. Images that
//   are already set give no patch (kubectl then sends nothing and prints nothing).
// - restart: a strategic merge patch setting the template annotation
//   kubectl.kubernetes.io/restartedAt to the time given (RFC 3339). kubectl refuses a second
//   restart within the same second (the patch would be empty). kubectl does not check
//   DaemonSets for a pause (they have no spec.paused), but refuses to restart a paused
//   Deployment; the app's pause switches a DaemonSet to OnDelete, where a restart would only
//   record a revision that no pod moves to until it is resumed, so a DaemonSet the app paused is
//   refused the same way: "can't restart paused daemonset (run rollout resume first)".
// - strategy: spec.updateStrategy = RollingUpdate with maxUnavailable and maxSurge, checked by
//   the API server's own DaemonSet validation (api::rollingUpdateErrors). On a DaemonSet the
//   app paused, the saved strategy in daemonscope.io/paused-update-strategy is edited instead,
//   so it stays paused and resumes with the new budget.

#include "models/kube/daemonset.h"
#include "models/kube/intorstring.h"

#include <map>
#include <optional>
#include <string>

namespace api {

inline constexpr const char *kRestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt";

// kubectl set image daemonset/NAME C=IMAGE...: the strategic merge patch, nullopt when every
// named container already has its image. Error (400, kubectl's text) for a name the template
// lacks; an empty image is refused like kubectl's argument parser does.
kube::Result<std::optional<kube::Json>> setImagePatch(const kube::DaemonSet &ds,
                                                      const std::map<std::string, std::string> &images);

// kubectl rollout restart daemonset/NAME at `now` (RFC 3339, e.g. "2026-12-04T10:30:00Z").
kube::Result<kube::Json> restartPatch(const kube::DaemonSet &ds, const std::string &now);

// An IntOrString as the user types it: "2" is an int, "10%" (or anything else) a string, as
// `kubectl patch` would send it from JSON. Empty is 0.
kube::IntOrString intOrStringFromText(const std::string &text);

struct StrategyPatch
{
    kube::Json patch;                // strategic merge patch (also a valid merge patch)
    bool editsSavedStrategy = false; // paused: the saved strategy annotation is what changes
    kube::Json strategy;             // the updateStrategy that results (saved one when paused)
};

// spec.updateStrategy RollingUpdate with these values. Invalid (422) with the API server's field
// errors, e.g. `DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable:
// Required value: cannot be 0 when maxSurge is 0`.
kube::Result<StrategyPatch> strategyPatch(const kube::DaemonSet &ds, const kube::IntOrString &maxUnavailable,
                                          const kube::IntOrString &maxSurge);

// "daemonset.apps/web image updated" and the like, kubectl's success lines.
std::string kubectlResourceLine(const std::string &dsName, const std::string &verb);

} // namespace api
