#pragma once
// LiveActions — the DaemonSet actions on a real cluster, with exactly kubectl's API calls, shared
// by the live backend and the headless commands (history, rollback, diff, export):
//
//  - reading history: GET the DaemonSet, LIST ControllerRevisions in its namespace with its
//    selector, keep those whose controller owner reference carries its UID (kubectl rollout
//    history/undo, daemonset-semantics.md §4.1);
//  - rollback: the same reads, the target chosen by api::decideRollback, then a strategic
//    merge PATCH whose body is the revision's data verbatim (§4.3);
//  - pause / resume: the engine's merge patches (annotation daemonscope.io/paused-update-strategy
//    plus OnDelete, restored on resume), made conditional on the resourceVersion that was read.
//
// A 409 Conflict is retried on a fresh read, up to maxConflictRetries times. Messages are
// kubectl's; they never contain credentials. Blocking: call off the GUI thread.

#include "models/api/kubectlrollout.h"
#include "models/client/kubeclient.h"
#include "models/kube/daemonset.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace models {

struct LiveHistory
{
    kube::DaemonSet daemonSet;
    std::vector<kube::ControllerRevision> revisions; // controlled by the DaemonSet, by revision ascending

    std::vector<const kube::ControllerRevision *> pointers() const;
};

struct LiveRollback
{
    api::RollbackOutcome outcome;
    std::optional<kube::DaemonSet> updated; // the PATCH answer, when one was sent and accepted
    int attempts = 0;                       // PATCH requests sent
};

struct LiveStrategyChange
{
    bool ok = false;
    bool changed = false; // false: already paused / not paused, nothing sent
    std::string message;  // error text when !ok
    std::optional<kube::DaemonSet> updated;
    int attempts = 0;
};

// Setting an image, restarting, editing the strategy: one PATCH each (api/startrollout.h).
struct LiveRolloutStart
{
    bool ok = false;
    bool changed = false;   // false: nothing was sent, or the server stored nothing new
    std::string message;    // kubectl's line ("daemonset.apps/web image updated") or the error text
    kube::ApiStatus status; // the API's status when the server refused (code 0 otherwise)
    std::optional<kube::DaemonSet> updated;
    int attempts = 0; // PATCH requests sent
};

class LiveActions
{
public:
    explicit LiveActions(client::KubeClient &client, int maxConflictRetries = 5);

    // GET daemonsets/NAME and its controlled ControllerRevisions. The error is the API's
    // (e.g. 404 `daemonsets.apps "web" not found`), unchanged.
    kube::Result<LiveHistory> history(const std::string &ns, const std::string &name);
    // The controlled ControllerRevisions of a DaemonSet already read.
    kube::Result<std::vector<kube::ControllerRevision>> revisionsOf(const kube::DaemonSet &ds);

    // kubectl rollout undo daemonset/NAME --to-revision=N. A failed GET gives an Error outcome
    // with "failed to retrieve DaemonSet NAME: <err>"; `notFound` is set when it was a 404.
    LiveRollback rollback(const std::string &ns, const std::string &name, std::int64_t toRevision,
                          bool *notFound = nullptr);

    LiveStrategyChange pause(const std::string &ns, const std::string &name);
    LiveStrategyChange resume(const std::string &ns, const std::string &name);

    // "Error from server (NotFound): daemonsets.apps "web" not found" for API errors,
    // "error: <message>" for failures without an HTTP answer.
    static std::string kubectlError(const kube::ApiStatus &status);
    static bool isConflict(const kube::ApiStatus &status) { return status.code == 409; }

    // ---- Starting a rollout. GET the DaemonSet, decide the PATCH as kubectl does, send it as a
    // strategic merge patch; a 409 is retried on a fresh read. API errors keep their message.
    // kubectl set image daemonset/NAME C=IMAGE...
    LiveRolloutStart setImage(const std::string &ns, const std::string &name,
                              const std::map<std::string, std::string> &images);
    // kubectl rollout restart daemonset/NAME; now: the time to stamp (RFC 3339).
    LiveRolloutStart restart(const std::string &ns, const std::string &name, const std::string &now);
    // The update strategy (the saved one on a DaemonSet the app paused, conditional on the
    // resourceVersion read, as pause and resume are).
    LiveRolloutStart setStrategy(const std::string &ns, const std::string &name,
                                 const kube::IntOrString &maxUnavailable, const kube::IntOrString &maxSurge);

private:
    struct StartDecision
    {
        std::optional<kube::Json> patch; // nullopt: nothing to send
        bool precondition = false;       // send the resourceVersion read
    };
    LiveRolloutStart
    startRollout(const std::string &ns, const std::string &name, const std::string &verb,
                 const std::function<kube::Result<StartDecision>(const kube::DaemonSet &)> &decide);

    LiveStrategyChange changeStrategy(const std::string &ns, const std::string &name, bool pause);

    client::KubeClient &m_client;
    int m_maxRetries;
};

} // namespace models
