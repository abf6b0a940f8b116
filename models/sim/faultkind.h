#pragma once
// FaultKind — the faults a scenario's `fault:` step or the console injects into a simulated
// node, with their names as scenario files and the API spell them (one list for the cluster,
// the scenario checker of models/scenario and the console).

#include <optional>
#include <string>
#include <vector>

namespace sim {

enum class FaultKind {
    NotReady,
    Ready,
    Unreachable,
    AgentUnresponsive,
    NeverReturns,
    ReturnsOldVersion,
    FlapsNotReady,
    // The next agent restart is over before the node is seen NotReady (a fast reboot): the
    // Ready condition never changes, only the kubelet version and the bootID do.
    RebootsQuickly
};
const std::vector<FaultKind> &allFaultKinds(); // in declaration order
std::optional<FaultKind> faultKindFromString(const std::string &text);
const char *faultKindName(FaultKind kind);

} // namespace sim
