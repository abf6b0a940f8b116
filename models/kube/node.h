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

struct NodeAddress
{
    std::string type; // InternalIP, ExternalIP, Hostname, InternalDNS, ExternalDNS
    std::string address;
    bool operator==(const NodeAddress &) const = default;
};

// status.nodeInfo besides kubeletVersion (which Node keeps on its own: the controllers read it).
struct NodeSystemInfo
{
    std::string machineID;
    std::string systemUUID;
    std::string bootID; // changes with every reboot
    std::string kernelVersion;
    std::string osImage;
    std::string containerRuntimeVersion;
    std::string kubeProxyVersion;
    std::string operatingSystem;
    std::string architecture;
    bool operator==(const NodeSystemInfo &) const = default;
};

struct Node
{
    ObjectMeta metadata;
    bool unschedulable = false;
    std::vector<Taint> taints;
    std::vector<NodeCondition> conditions;
    std::string kubeletVersion;
    int allocatablePods = 110;          // status.allocatable.pods (and capacity.pods)
    std::string podCIDR;                // spec.podCIDR
    StringMap capacity;                 // status.capacity besides pods: cpu, memory, ...
    StringMap allocatable;              // status.allocatable besides pods
    std::vector<NodeAddress> addresses; // status.addresses
    NodeSystemInfo info;                // status.nodeInfo
    std::int32_t kubeletPort = 0;       // status.daemonEndpoints.kubeletEndpoint.Port, 0: none

    bool isReady() const; // Ready condition is True
    const NodeCondition *condition(const std::string &type) const;
    void setCondition(NodeCondition c); // replaces by type; keeps the transition time if unchanged
    // What a simulated kubelet reports of its machine when it registers the node: capacity
    // and allocatable (4 CPUs, 16 GiB), addresses (the InternalIP from `index`), node info
    // (Debian 12, containerd, a machine and boot id derived from the name). Fields already
    // set are kept.
    void fillSimulatedMachine(std::size_t index);

    Json toJson() const;
    static Result<Node> fromJson(const Json &j);
    bool operator==(const Node &) const = default;
};

} // namespace kube
