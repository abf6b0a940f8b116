#include "models/sim/containerlog.h"
#include "models/sim/cluster.h"
#include "models/sim/kubelet.h"

#include "models/kube/jsonfield.h"
#include "models/kube/simulatedcrash.h"
#include "models/kube/timeutil.h"

#include <algorithm>

namespace sim {

namespace {

constexpr kube::Duration kHeartbeat = 30'000;
constexpr std::size_t kMaxHeartbeats = 100'000; // a container running for ~35 virtual days

std::vector<std::string> containerNames(const kube::Pod &pod)
{
    std::vector<std::string> names;
    if (!pod.spec)
        return names;
    if (const kube::Json *c = kube::member(*pod.spec, "containers"); c && c->is_array())
        for (const auto &container : *c)
            names.push_back(kube::stringOr(container, "name"));
    return names;
}

std::string imageOf(const kube::Pod &pod, const std::string &container)
{
    if (const kube::Json *c = pod.spec ? kube::member(*pod.spec, "containers") : nullptr; c && c->is_array())
        for (const auto &entry : *c)
            if (kube::stringOr(entry, "name") == container)
                return kube::stringOr(entry, "image");
    return {};
}

// When attempt k (1-based) of a crash-looping container ended: after the j-th crash the kubelet
// waits Kubelet::crashBackoff(j).
kube::Timestamp crashTime(kube::Timestamp start, int k)
{
    kube::Timestamp t = start;
    for (int j = 1; j < k; ++j)
        t += Kubelet::crashBackoff(j);
    return t;
}

std::string startLine(const kube::Pod &pod, const std::string &container, const std::string &image,
                      int attempt)
{
    std::string line = "starting container " + container + " (image " + image + ") on node " + pod.node();
    if (attempt > 1)
        line += ", attempt " + std::to_string(attempt);
    return line;
}

// An attempt that ended: a crash of a failing image, or (a pod restarted for another reason) an
// exit the record says nothing more about.
void endedAttempt(std::vector<LogLine> &out, const kube::Pod &pod, const std::string &container,
                  const std::string &image, int attempt, bool failing)
{
    const kube::Timestamp end = failing ? crashTime(*pod.startTime, attempt) : *pod.startTime;
    out.push_back({end, startLine(pod, container, image, attempt)});
    out.push_back({end, "loading configuration"});
    out.push_back({end, failing ? kube::simulatedCrashMessage(container, image) : std::string("exited")});
}

void runningAttempt(std::vector<LogLine> &out, const kube::Pod &pod, const std::string &container,
                    const std::string &image, kube::Timestamp now)
{
    const kube::Timestamp start = *pod.startTime;
    out.push_back({start, startLine(pod, container, image, pod.restartCount + 1)});
    const bool readyLine = pod.ready && pod.readyTransitionTime && *pod.readyTransitionTime >= start;
    // A deleted pod's container is told to stop when the deletion is asked for: deletionTimestamp
    // minus the grace period.
    std::optional<kube::Timestamp> sigterm;
    if (pod.metadata.deletionTimestamp)
        sigterm =
            *pod.metadata.deletionTimestamp - pod.metadata.deletionGracePeriodSeconds.value_or(0) * 1000;
    const kube::Timestamp end = sigterm ? std::min(now, *sigterm) : now;
    std::int64_t beats = end > start ? (end - start) / kHeartbeat : 0;
    const std::int64_t first =
        std::max<std::int64_t>(1, beats - static_cast<std::int64_t>(kMaxHeartbeats) + 1);
    bool readyDone = !readyLine;
    for (std::int64_t i = first; i <= beats; ++i) {
        const kube::Timestamp t = start + i * kHeartbeat;
        if (!readyDone && *pod.readyTransitionTime <= t) {
            out.push_back({*pod.readyTransitionTime, "ready: accepting work"});
            readyDone = true;
        }
        out.push_back({t, "healthy: up " + kube::formatDuration(t - start)});
    }
    if (!readyDone)
        out.push_back({*pod.readyTransitionTime, "ready: accepting work"});
    if (sigterm && *sigterm <= now)
        out.push_back({*sigterm, "received SIGTERM, shutting down"});
}

kube::ApiStatus badRequest(std::string message)
{
    return kube::ApiStatus::badRequest(std::move(message));
}

} // namespace

kube::Result<ContainerLog> containerLog(const kube::Pod &pod, const ContainerLogQuery &query,
                                        kube::Timestamp now, bool failing)
{
    const std::string &podName = pod.metadata.name;
    const std::vector<std::string> names = containerNames(pod);
    ContainerLog log;
    log.container = query.container;
    if (log.container.empty()) {
        if (names.size() != 1) {
            std::string list;
            for (const auto &n : names)
                list += (list.empty() ? "" : " ") + n;
            return badRequest("a container name must be specified for pod " + podName + ", choose one of: [" +
                              list + "]");
        }
        log.container = names.front();
    } else if (std::find(names.begin(), names.end(), log.container) == names.end()) {
        return badRequest("container " + log.container + " is not valid for pod " + podName);
    }
    const std::string &c = log.container;
    const std::string image = imageOf(pod, c);
    if (!pod.startTime || pod.phase == "Pending") {
        if (query.previous)
            return badRequest("previous terminated container \"" + c + "\" in pod \"" + podName +
                              "\" not found");
        const std::string reason = pod.waitingReason.empty() ? "ContainerCreating" : pod.waitingReason;
        return badRequest("container \"" + c + "\" in pod \"" + podName +
                          "\" is waiting to start: " + reason);
    }
    // A crash-looping container shows its last attempt (the kubelet keeps the exited container
    // while it backs off); `previous` the one before.
    const bool crashLoop = failing && pod.restartCount > 0;
    const int current = crashLoop ? pod.restartCount : pod.restartCount + 1;
    const int attempt = query.previous ? current - 1 : current;
    if (attempt < 1)
        return badRequest("previous terminated container \"" + c + "\" in pod \"" + podName + "\" not found");
    if (crashLoop || query.previous)
        endedAttempt(log.lines, pod, c, image, attempt, failing);
    else
        runningAttempt(log.lines, pod, c, image, now);
    log.running = !crashLoop && !query.previous && !pod.isTerminal();

    auto keep = [&](const LogLine &l) {
        return (!query.after || l.time > *query.after) && (!query.since || l.time >= *query.since);
    };
    log.lines.erase(
        std::remove_if(log.lines.begin(), log.lines.end(), [&](const LogLine &l) { return !keep(l); }),
        log.lines.end());
    if (query.tailLines >= 0 && log.lines.size() > static_cast<std::size_t>(query.tailLines))
        log.lines.erase(log.lines.begin(), log.lines.end() - query.tailLines);
    return log;
}

kube::Result<ContainerLog> containerLog(const Cluster &cluster, const std::string &ns,
                                        const std::string &name, const ContainerLogQuery &query)
{
    const kube::Pod *p = cluster.pod(ns, name);
    if (!p)
        return kube::ApiStatus::notFound("pods", name);
    bool failing = false;
    if (p->spec)
        if (const kube::Json *c = kube::member(*p->spec, "containers"); c && c->is_array())
            for (const auto &container : *c)
                for (const auto &pattern : cluster.options().kubelet.failingImages)
                    failing = failing || Kubelet::globMatch(pattern, kube::stringOr(container, "image"));
    return sim::containerLog(*p, query, cluster.now(), failing);
}

std::string logTimestamp(kube::Timestamp t)
{
    std::string micro = kube::formatMicroTime(t); // ...:00.250000Z
    micro.insert(micro.size() - 1, "000");        // RFC 3339 with nanoseconds, as the kubelet writes it
    return micro + " ";
}

std::string formatLogLines(const std::vector<LogLine> &lines, bool timestamps)
{
    std::string out;
    for (const auto &l : lines) {
        if (timestamps)
            out += logTimestamp(l.time);
        out += l.text;
        out += '\n';
    }
    return out;
}

} // namespace sim
