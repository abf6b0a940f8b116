// Store: the pods/eviction subresource — a pod deletion that a PodDisruptionBudget may
// refuse, decided as kube-apiserver's EvictionREST.Create decides it (canIgnorePDB,
// getPodDisruptionBudgets, checkAndDecrement).

#include "models/api/disruptionbudget.h"
#include "models/api/preconditions.h"
#include "models/store/store.h"

namespace store {

using kube::ApiStatus;

namespace {

// Upstream's MaxDisruptedPodSize: evictions the disruption controller has not confirmed yet.
constexpr std::size_t kMaxDisruptedPods = 2000;

constexpr const char *kRefused = "Cannot evict pod as it would violate the pod's disruption budget.";

ApiStatus budgetRefusal(const std::string &message, int retryAfter, const std::string &cause)
{
    ApiStatus st = ApiStatus::tooManyRequests(message, retryAfter);
    st.causes.push_back({"DisruptionBudget", cause, ""});
    return st;
}

ApiStatus budgetForbidden(const std::string &name, const std::string &why)
{
    return {403, "Forbidden", "poddisruptionbudget.policy \"" + name + "\" is forbidden: " + why};
}

} // namespace

kube::Result<void> Store::evictPod(const std::string &ns, const std::string &name,
                                   const EvictOptions &options)
{
    const std::string k = key(ns, name);
    auto it = pods.find(k);
    if (it == pods.end())
        return ApiStatus::notFound("pods", name);
    const kube::Pod &pod = it->second;
    if (auto failed =
            api::preconditionFailure(options.preconditions, pod.metadata.uid, pod.metadata.resourceVersion))
        return *failed;
    auto remove = [&]() -> kube::Result<void> {
        if (options.dryRun)
            return {};
        return deletePod(ns, name, options.gracePeriodSeconds);
    };
    // canIgnorePDB: a finished or pending pod, or one already being deleted, disrupts nothing
    // more by going.
    if (pod.phase == "Succeeded" || pod.phase == "Failed" || pod.phase == "Pending" || pod.isDeleting())
        return remove();

    std::vector<std::string> covering;
    const std::string prefix = ns + "/";
    for (auto b = pdbs.lower_bound(prefix); b != pdbs.end() && b->first.rfind(prefix, 0) == 0; ++b)
        if (b->second.covers(pod.metadata.labels))
            covering.push_back(b->first);
    if (covering.size() > 1)
        return ApiStatus{500, "",
                         "This pod has more than one PodDisruptionBudget, which the eviction subresource "
                         "does not support."};
    if (covering.empty())
        return remove();

    kube::PodDisruptionBudget pdb = pdbs.at(covering.front());
    const auto &st = pdb.status;
    // An unready pod does not count as healthy: taking it away spends no budget when the
    // policy says so, or (IfHealthyBudget) while the budget is met.
    if (!pod.ready &&
        (pdb.alwaysAllowUnhealthy() || (st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0)))
        return remove();

    // checkAndDecrement.
    if (st.observedGeneration < pdb.metadata.generation)
        return budgetRefusal(kRefused, 10,
                             "The disruption budget " + pdb.metadata.name +
                                 " is still being processed by the server.");
    if (st.disruptionsAllowed < 0)
        return budgetForbidden(pdb.metadata.name, "pdb disruptions allowed is negative");
    if (st.disruptedPods.size() > kMaxDisruptedPods)
        return budgetForbidden(
            pdb.metadata.name,
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
    if (st.disruptionsAllowed == 0)
        return budgetRefusal(kRefused, 0,
                             "The disruption budget " + pdb.metadata.name + " needs " +
                                 std::to_string(st.desiredHealthy) + " healthy pods and has " +
                                 std::to_string(st.currentHealthy) + " currently");
    if (options.dryRun)
        return {};
    // The budget is spent before the pod goes: the disruption controller does not count the pod
    // as healthy while it is listed here.
    --pdb.status.disruptionsAllowed;
    if (pdb.status.disruptionsAllowed == 0)
        api::updateDisruptionAllowedCondition(pdb.status, now);
    pdb.status.disruptedPods[name] = now;
    commitPdb(std::move(pdb), false);
    return deletePod(ns, name, options.gracePeriodSeconds);
}

} // namespace store
