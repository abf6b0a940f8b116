#include "models/api/disruptionbudget.h"

namespace api {

void setBudgetCondition(kube::PodDisruptionBudgetStatus &status, kube::StatusCondition c)
{
    for (auto &existing : status.conditions) {
        if (existing.type != c.type)
            continue;
        if (existing.status == c.status)
            c.lastTransitionTime = existing.lastTransitionTime;
        existing = std::move(c);
        return;
    }
    status.conditions.push_back(std::move(c));
}

void updateDisruptionAllowedCondition(kube::PodDisruptionBudgetStatus &status, kube::Timestamp now)
{
    const bool allowed = status.disruptionsAllowed > 0;
    setBudgetCondition(status, {kDisruptionAllowed, allowed ? "True" : "False", status.observedGeneration,
                                now, allowed ? "SufficientPods" : "InsufficientPods", ""});
}

} // namespace api
