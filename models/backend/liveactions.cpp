#include "models/backend/liveactions.h"

#include "models/api/startrollout.h"

#include <algorithm>

namespace models {

std::vector<const kube::ControllerRevision *> LiveHistory::pointers() const
{
    std::vector<const kube::ControllerRevision *> out;
    out.reserve(revisions.size());
    for (const auto &cr : revisions)
        out.push_back(&cr);
    return out;
}

LiveActions::LiveActions(client::KubeClient &client, int maxConflictRetries)
    : m_client(client), m_maxRetries(std::max(0, maxConflictRetries))
{}

kube::Result<std::vector<kube::ControllerRevision>> LiveActions::revisionsOf(const kube::DaemonSet &ds)
{
    auto selector = ds.selector();
    if (!selector)
        return selector.error();
    client::ListOptions options;
    options.labelSelector = selector->toQueryString();
    auto list = m_client.list<kube::ControllerRevision>(ds.metadata.namespace_, options);
    if (!list)
        return list.error();
    // The same filter and order as kubectl, through the engine's shared function.
    std::vector<const kube::ControllerRevision *> candidates;
    for (const auto &cr : list->items)
        candidates.push_back(&cr);
    std::vector<kube::ControllerRevision> out;
    for (const auto *cr : api::controlledRevisions(ds, candidates))
        out.push_back(*cr);
    return out;
}

kube::Result<LiveHistory> LiveActions::history(const std::string &ns, const std::string &name)
{
    auto ds = m_client.get<kube::DaemonSet>(ns, name);
    if (!ds)
        return ds.error();
    auto revisions = revisionsOf(*ds);
    if (!revisions)
        return revisions.error();
    return LiveHistory{std::move(*ds), std::move(*revisions)};
}

LiveRollback LiveActions::rollback(const std::string &ns, const std::string &name, std::int64_t toRevision,
                                   bool *notFound)
{
    LiveRollback result;
    if (notFound)
        *notFound = false;
    for (int attempt = 0;; ++attempt) {
        auto ds = m_client.get<kube::DaemonSet>(ns, name);
        if (!ds) {
            result.outcome = {};
            result.outcome.requestedRevision = toRevision;
            result.outcome.message = "failed to retrieve DaemonSet " + name + ": " + ds.error().message;
            if (notFound)
                *notFound = ds.error().code == 404;
            return result;
        }
        auto revisions = revisionsOf(*ds);
        if (!revisions) {
            result.outcome = {};
            result.outcome.requestedRevision = toRevision;
            result.outcome.message = "failed to retrieve history: " + revisions.error().message;
            return result;
        }
        std::vector<const kube::ControllerRevision *> pointers;
        for (const auto &cr : *revisions)
            pointers.push_back(&cr);
        result.outcome = api::decideRollback(*ds, pointers, toRevision);
        if (result.outcome.action != api::RollbackOutcome::Action::Patch)
            return result;
        ++result.attempts;
        // As kubectl sends it: the revision's data verbatim, no fieldManager, no dryRun.
        auto patched = m_client.patch<kube::DaemonSet>(ns, name, client::PatchType::Strategic,
                                                       result.outcome.patch, std::string());
        if (patched) {
            result.outcome.performed = true;
            result.updated = std::move(*patched);
            return result;
        }
        if (isConflict(patched.error()) && attempt < m_maxRetries)
            continue; // someone else wrote in between: decide again on what is there now
        result.outcome.action = api::RollbackOutcome::Action::Error;
        result.outcome.message =
            "failed restoring revision " + std::to_string(toRevision) + ": " + patched.error().message;
        return result;
    }
}

LiveStrategyChange LiveActions::pause(const std::string &ns, const std::string &name)
{
    return changeStrategy(ns, name, true);
}

LiveStrategyChange LiveActions::resume(const std::string &ns, const std::string &name)
{
    return changeStrategy(ns, name, false);
}

LiveStrategyChange LiveActions::changeStrategy(const std::string &ns, const std::string &name, bool pause)
{
    LiveStrategyChange result;
    for (int attempt = 0;; ++attempt) {
        auto ds = m_client.get<kube::DaemonSet>(ns, name);
        if (!ds) {
            result.message = ds.error().message;
            return result;
        }
        std::optional<kube::Json> patch;
        if (pause) {
            patch = api::pausePatch(*ds);
        } else {
            auto p = api::resumePatch(*ds);
            if (!p) {
                result.message = p.error().message;
                return result;
            }
            patch = std::move(*p);
        }
        if (!patch) {
            result.ok = true;
            return result;
        }
        // The saved strategy must describe what is really there: the write only applies to the
        // version read (409 otherwise, then read again).
        (*patch)["metadata"]["resourceVersion"] = ds->metadata.resourceVersion;
        ++result.attempts;
        auto patched = m_client.patch<kube::DaemonSet>(ns, name, client::PatchType::Merge, patch->dump());
        if (patched) {
            result.ok = true;
            result.changed = true;
            result.updated = std::move(*patched);
            return result;
        }
        if (isConflict(patched.error()) && attempt < m_maxRetries)
            continue;
        result.message = patched.error().message;
        return result;
    }
}

LiveRolloutStart
LiveActions::startRollout(const std::string &ns, const std::string &name, const std::string &verb,
                          const std::function<kube::Result<StartDecision>(const kube::DaemonSet &)> &decide)
{
    LiveRolloutStart result;
    for (int attempt = 0;; ++attempt) {
        auto ds = m_client.get<kube::DaemonSet>(ns, name);
        if (!ds) {
            result.status = ds.error();
            result.message = ds.error().message;
            return result;
        }
        auto decision = decide(*ds);
        if (!decision) {
            result.message = decision.error().message;
            return result;
        }
        if (!decision->patch) {
            result.ok = true;
            return result;
        }
        if (decision->precondition)
            (*decision->patch)["metadata"]["resourceVersion"] = ds->metadata.resourceVersion;
        ++result.attempts;
        auto patched =
            m_client.patch<kube::DaemonSet>(ns, name, client::PatchType::Strategic, decision->patch->dump());
        if (patched) {
            result.ok = true;
            // A patch that changes nothing is not stored: the resourceVersion stays.
            result.changed = patched->metadata.resourceVersion != ds->metadata.resourceVersion;
            result.message = api::kubectlResourceLine(name, verb);
            result.updated = std::move(*patched);
            return result;
        }
        if (isConflict(patched.error()) && attempt < m_maxRetries)
            continue; // someone else wrote in between: decide again on what is there now
        result.status = patched.error();
        result.message = patched.error().message;
        return result;
    }
}

LiveRolloutStart LiveActions::setImage(const std::string &ns, const std::string &name,
                                       const std::map<std::string, std::string> &images)
{
    return startRollout(ns, name, "image updated",
                        [&](const kube::DaemonSet &ds) -> kube::Result<StartDecision> {
                            auto patch = api::setImagePatch(ds, images);
                            if (!patch)
                                return patch.error();
                            return StartDecision{std::move(*patch), false};
                        });
}

LiveRolloutStart LiveActions::restart(const std::string &ns, const std::string &name, const std::string &now)
{
    return startRollout(ns, name, "restarted", [&](const kube::DaemonSet &ds) -> kube::Result<StartDecision> {
        auto patch = api::restartPatch(ds, now);
        if (!patch)
            return patch.error();
        return StartDecision{std::move(*patch), false};
    });
}

LiveRolloutStart LiveActions::setStrategy(const std::string &ns, const std::string &name,
                                          const kube::IntOrString &maxUnavailable,
                                          const kube::IntOrString &maxSurge)
{
    auto r = startRollout(ns, name, "patched", [&](const kube::DaemonSet &ds) -> kube::Result<StartDecision> {
        auto decided = api::strategyPatch(ds, maxUnavailable, maxSurge);
        if (!decided)
            return decided.error();
        // The saved strategy is rewritten from what was read: only onto that version.
        return StartDecision{std::move(decided->patch), decided->editsSavedStrategy};
    });
    if (r.ok && !r.changed)
        r.message = api::kubectlResourceLine(name, "patched (no change)");
    return r;
}

std::string LiveActions::kubectlError(const kube::ApiStatus &status)
{
    if (status.code > 0 && !status.reason.empty())
        return "Error from server (" + status.reason + "): " + status.message;
    if (status.code > 0)
        return "Error from server: " + status.message;
    return "error: " + status.message;
}

} // namespace models
