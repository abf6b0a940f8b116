#pragma once
// Node as a compact typed record: labels, taints, schedulability, conditions and the agent
// (kubelet) version are what the controllers and views need.

#include "models/kube/objectmeta.h"
#include "models/kube/taint.h"

namespace kube {

struct NodeCondition
{
    std::string type;   // Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable
    std::string status; // True, False, Unknown
    std::string reason;
    std::string message;
    std::optional<Timestamp> lastTransitionTime;
    bool operator==(const NodeCondition &) const = default;
};

struct Node
{
    ObjectMeta metadata;
    bool unschedulable = false;
    std::vector<Taint> taints;
    std::vector<NodeCondition> conditions;
    std::string kubeletVersion;
    int allocatablePods = 110;

    bool isReady() const; // Ready condition is True
    const NodeCondition *condition(const std::string &type) const;
    void setCondition(NodeCondition c); // replaces by type; keeps the transition time if unchanged

    Json toJson() const;
    static Result<Node> fromJson(const Json &j);
};

} // namespace kube
