#pragma once
// PodSelector — the scenario format's pod selector: one owner (a DaemonSet, a ReplicaSet, or
// every pod), narrowed by nodes, revision hash and readiness, then limited after sorting by
// node name and pod name. The scenario parser (models/scenario) fills it in; the cluster
// answers it (Cluster::selectPods).

#include <optional>
#include <string>
#include <vector>

namespace sim {

struct PodSelector
{
    std::string daemonSet;          // "NS/NAME": pods controlled by this DaemonSet
    std::string replicaSet;         // "NS/NAME": pods controlled by this ReplicaSet
    bool all = false;               // every pod in the cluster
    std::vector<std::string> nodes; // empty = any node
    std::string hash;               // "" = any, "current" = the DaemonSet's current revision hash
    std::optional<bool> ready;
    std::optional<int> limit;
};

} // namespace sim
