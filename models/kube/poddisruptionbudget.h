#pragma once
// PodDisruptionBudget (policy/v1): how many of the pods it selects must stay healthy while
// they are evicted (node drains, node-agent upgrades). The spec is the user's; the status is
// kept by the disruption controller and read by the eviction subresource.

#include "models/kube/intorstring.h"
#include "models/kube/labelselector.h"
#include "models/kube/objectmeta.h"

#include <map>
#include <optional>
#include <vector>

namespace kube {

// metav1.Condition, as PDB status carries it.
struct StatusCondition
{
    std::string type;
    std::string status; // True, False, Unknown
    std::int64_t observedGeneration = 0;
    Timestamp lastTransitionTime = 0;
    std::string reason;
    std::string message;
    bool operator==(const StatusCondition &) const = default;
};

struct PodDisruptionBudgetSpec
{
    std::optional<IntOrString> minAvailable;
    std::optional<IntOrString> maxUnavailable;
    // Null selects no pod, {} every pod of the namespace (the policy/v1 rule).
    std::optional<LabelSelector> selector;
    std::string unhealthyPodEvictionPolicy; // "" (IfHealthyBudget), IfHealthyBudget, AlwaysAllow
    bool operator==(const PodDisruptionBudgetSpec &) const = default;
};

struct PodDisruptionBudgetStatus
{
    std::int64_t observedGeneration = 0;
    std::map<std::string, Timestamp> disruptedPods; // pod name -> when its eviction was allowed
    int disruptionsAllowed = 0;
    int currentHealthy = 0;
    int desiredHealthy = 0;
    int expectedPods = 0;
    std::vector<StatusCondition> conditions;
    bool operator==(const PodDisruptionBudgetStatus &) const = default;

    const StatusCondition *condition(const std::string &type) const;
};

struct PodDisruptionBudget
{
    ObjectMeta metadata;
    PodDisruptionBudgetSpec spec;
    PodDisruptionBudgetStatus status;

    // The unhealthy-pod eviction policy in force: the default is IfHealthyBudget.
    bool alwaysAllowUnhealthy() const { return spec.unhealthyPodEvictionPolicy == "AlwaysAllow"; }
    // Whether the budget covers a pod with these labels (no selector covers none).
    bool covers(const StringMap &podLabels) const;

    Json toJson() const;
    // Decodes the object; the type of every field is checked and named in the error
    // ("spec.minAvailable: …").
    static Result<PodDisruptionBudget> fromJson(const Json &j);
};

} // namespace kube
