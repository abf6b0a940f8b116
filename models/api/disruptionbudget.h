#pragma once
// The DisruptionAllowed condition of a PodDisruptionBudget's status (pdbhelper's
// UpdateDisruptionAllowedCondition and apimeta.SetStatusCondition), set by the disruption
// controller after each sync and by the eviction subresource when an eviction spends the last
// disruption the budget allowed.

#include "models/kube/poddisruptionbudget.h"

namespace api {

inline constexpr const char *kDisruptionAllowed = "DisruptionAllowed";

// apimeta.SetStatusCondition: the condition replaces the one of its type (added if none); the
// transition time moves only when the status changes.
void setBudgetCondition(kube::PodDisruptionBudgetStatus &status, kube::StatusCondition condition);

// True/SufficientPods while disruptions are allowed, else False/InsufficientPods.
void updateDisruptionAllowedCondition(kube::PodDisruptionBudgetStatus &status, kube::Timestamp now);

} // namespace api
