#include "models/sim/faultkind.h"

namespace sim {

const std::vector<FaultKind> &allFaultKinds()
{
    static const std::vector<FaultKind> all = {FaultKind::NotReady,      FaultKind::Ready,
                                               FaultKind::Unreachable,   FaultKind::AgentUnresponsive,
                                               FaultKind::NeverReturns,  FaultKind::ReturnsOldVersion,
                                               FaultKind::FlapsNotReady, FaultKind::RebootsQuickly};
    return all;
}

std::optional<FaultKind> faultKindFromString(const std::string &text)
{
    for (FaultKind k : allFaultKinds())
        if (text == faultKindName(k))
            return k;
    return std::nullopt;
}

const char *faultKindName(FaultKind kind)
{
    switch (kind) {
    case FaultKind::NotReady:
        return "NotReady";
    case FaultKind::Ready:
        return "Ready";
    case FaultKind::Unreachable:
        return "Unreachable";
    case FaultKind::AgentUnresponsive:
        return "AgentUnresponsive";
    case FaultKind::NeverReturns:
        return "NeverReturns";
    case FaultKind::ReturnsOldVersion:
        return "ReturnsOldVersion";
    case FaultKind::FlapsNotReady:
        return "FlapsNotReady";
    case FaultKind::RebootsQuickly:
        return "RebootsQuickly";
    }
    return "";
}

} // namespace sim
