#pragma once
// Container logs of the simulated kubelet. The engine runs no containers, so their output is
// derived on demand from what the pod's record says happened to it: when it started, when it
// became Ready, its restarts and, for an image the kubelet's failingImages matches, the crash
// that ended every attempt (the message status.containerStatuses[].lastState.terminated carries,
// kube::simulatedCrashMessage). Nothing is stored and no random number is drawn, so reading logs
// changes no trace; the same pod at the same virtual time always gives the same lines.
//
// Instances follow the kubelet's back-off (10 s doubling up to 5 min): a crash-looping
// container's attempt k ended at start + 10 s + 20 s + ... (k - 1 terms); a healthy one writes a
// heartbeat line every 30 s of virtual time while it runs.
//
// Errors are kube-apiserver's answers to GET pods/NAME/log (400 BadRequest): a container name
// is required when the pod has several, an unknown name is refused, a container that has not
// started is "waiting to start", and `previous` without an earlier attempt is "not found".

#include "models/kube/pod.h"
#include "models/kube/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sim {

struct LogLine
{
    kube::Timestamp time = 0;
    std::string text;
};

struct ContainerLogQuery
{
    std::string container; // empty: the pod's only container
    bool previous = false; // the previous (terminated) attempt
    // Only lines written after this virtual time (a follow reading on); none: every line.
    std::optional<kube::Timestamp> after;
    std::optional<kube::Timestamp> since; // sinceSeconds / sinceTime: lines at or after it
    int tailLines = -1;                   // -1: all
};

struct ContainerLog
{
    std::string container;      // the container the lines are of
    std::vector<LogLine> lines; // oldest first
    bool running = false;       // the attempt still runs: more lines will come (follow)
};

// The simulated lines of one container of `pod` at virtual time `now`. `failing`: the pod's image
// matches the kubelet's failingImages (it never becomes Ready).
kube::Result<ContainerLog> containerLog(const kube::Pod &pod, const ContainerLogQuery &query,
                                        kube::Timestamp now, bool failing);

class Cluster;

// GET pods/NAME/log on the cluster: the simulated container's lines now. NotFound for a missing
// pod; the API's 400 answers for a bad container or a missing previous attempt. Reads only.
kube::Result<ContainerLog> containerLog(const Cluster &cluster, const std::string &ns,
                                        const std::string &name, const ContainerLogQuery &query);

// "2026-01-01T00:00:00.250000000Z " — the prefix the kubelet writes with timestamps=true.
std::string logTimestamp(kube::Timestamp t);

// Lines as the log endpoint sends them: each ends with "\n", with the timestamp prefix when asked.
std::string formatLogLines(const std::vector<LogLine> &lines, bool timestamps);

} // namespace sim
