#pragma once
// kubectl rollout semantics for DaemonSets (history, undo, status) and the app's own
// pause/resume, as pure functions of a DaemonSet and its ControllerRevisions. They hold no
// state and talk to no server, so the embedded engine and the real-cluster backend share them:
// the caller reads the objects, asks these functions what kubectl would do, and sends the
// resulting PATCH itself.

#include "models/kube/daemonset.h"

#include <optional>
#include <string>
#include <vector>

namespace api {

inline constexpr const char *kPausedStrategyAnnotation = "daemonscope.io/paused-update-strategy";

// kubectl's view of a DaemonSet's history: the CRs in the DS namespace that match its
// selector and whose controller reference carries the DS UID, sorted by revision ascending
// (ties by name).
std::vector<const kube::ControllerRevision *>
controlledRevisions(const kube::DaemonSet &ds,
                    const std::vector<const kube::ControllerRevision *> &candidates);

struct RollbackOutcome
{
    enum class Action { Patch, Skip, Error };
    Action action = Action::Error;
    bool performed = false; // the PATCH was sent and accepted
    std::string message;    // "rolled back", "skipped rollback (...)", or the error text
    std::int64_t requestedRevision = 0;
    std::int64_t targetRevision = 0; // revision number of the chosen CR (0 if none)
    std::string targetName;          // name of the chosen CR
    std::string patch;               // strategic-merge PATCH body = the CR's data, verbatim

    bool ok() const { return action != Action::Error; }
    // kubectl's output line: "daemonset.apps/web rolled back" or "error: ...".
    std::string kubectlOutput(const std::string &dsName) const;
};

// DaemonSetRollbacker.Rollback without the write: decides target, skip or error. On Patch the
// caller sends `patch` as a strategic merge patch and sets `performed` (on failure the message
// becomes "failed restoring revision N: <err>").
RollbackOutcome decideRollback(const kube::DaemonSet &ds,
                               const std::vector<const kube::ControllerRevision *> &revisions,
                               std::int64_t toRevision);

// `kubectl rollout history daemonset/NAME`: table with trailing-space header line and final
// blank line, or "No rollout history found.".
std::string historyTable(const std::string &dsName,
                         const std::vector<const kube::ControllerRevision *> &revisions);

// `kubectl rollout history daemonset/NAME --revision=N`: the template of revision N applied to
// the DS, described like kubectl describe. Errors: "revision must be a positive integer: N",
// "unable to find the specified revision", "unable to parse history NAME".
kube::Result<std::string> historyRevisionText(const kube::DaemonSet &ds,
                                              const std::vector<const kube::ControllerRevision *> &revisions,
                                              std::int64_t revision);

// kubectl describe's "Pod Template:" block for a PodTemplateSpec, newline-terminated.
std::string describePodTemplate(const kube::Json &podTemplate);

struct RolloutStatus
{
    bool done = false;
    bool error = false;  // OnDelete: "rollout status is only available for RollingUpdate strategy type"
    std::string message; // without the trailing newline
};

// DaemonSetStatusViewer.Status.
RolloutStatus rolloutStatus(const kube::DaemonSet &ds);

// Pause: merge patch that saves spec.updateStrategy (compact JSON) in the annotation and
// switches to OnDelete; nullopt when already paused (idempotent: the first saved strategy stays).
std::optional<kube::Json> pausePatch(const kube::DaemonSet &ds);
// Resume: merge patch that restores the saved strategy and removes the annotation; nullopt
// when not paused. Error if the annotation does not hold a JSON object.
kube::Result<std::optional<kube::Json>> resumePatch(const kube::DaemonSet &ds);
bool isPaused(const kube::DaemonSet &ds);

} // namespace api
