#pragma once
// The termination message of a simulated container whose image the kubelet's failingImages
// matches: the last line of each attempt's log (engine/containerlog.h) and, while it
// crash-loops, what Pod::toJson reports as status.containerStatuses[].lastState.terminated
// (exit code 1, reason Error).

#include <string>

namespace kube {

std::string simulatedCrashMessage(const std::string &container, const std::string &image);

} // namespace kube
