// Engine benchmark: one DaemonSet (maxUnavailable 10%) rolled out over N nodes in continuous
// mode, first the initial rollout, then a template update, both to completion. Prints CPU time
// per phase and the process's peak RSS. Usage: bench_engine [N ...] (default 1000 5000 20000;
// peak RSS is process-wide, so sizes run in ascending order).
#include "models/sim/cluster.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using kube::Json;

namespace {

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long peakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024; // KiB on Linux
}

Json daemonSet(const std::string &image)
{
    return {{"apiVersion", "apps/v1"},
            {"kind", "DaemonSet"},
            {"metadata", {{"name", "agent"}, {"namespace", "kube-system"}}},
            {"spec",
             {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
              {"updateStrategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", "10%"}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", "agent"}}}}},
                {"spec", {{"containers", Json::array({{{"name", "agent"}, {"image", image}}})}}}}}}}};
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty())
        sizes = {1000, 5000, 20000};
    std::sort(sizes.begin(), sizes.end());
    std::printf("%8s  %12s  %12s  %12s  %10s  %8s  %9s  %9s  %13s\n", "nodes", "setup CPU s", "create CPU s",
                "update CPU s", "virtual s", "syncs", "timers", "writes", "peak RSS MiB");
    for (int n : sizes) {
        double t0 = cpuSeconds();
        sim::ClusterOptions o;
        o.seed = 1;
        o.mode = sim::Mode::Continuous;
        o.start = 1767225600000;
        sim::Cluster c(o);
        c.stopLogs(); // as in serve and the console: nobody reads a trace
        for (int i = 0; i < n; ++i) {
            kube::Node node;
            char name[32];
            std::snprintf(name, sizeof name, "node-%05d", i);
            node.metadata.name = name;
            if (!c.addNode(node).ok())
                return 1;
        }
        const double t1 = cpuSeconds();
        if (!c.create(daemonSet("agent:1.0")).ok())
            return 1;
        const kube::Timestamp v0 = c.now();
        if (!c.runUntil([&] { return c.rolloutComplete("kube-system", "agent"); }, 24 * 3600 * 1000LL))
            return 2;
        const double t2 = cpuSeconds();
        if (!c.apply(daemonSet("agent:1.1")).ok())
            return 1;
        if (!c.runUntil([&] { return c.rolloutComplete("kube-system", "agent"); }, 24 * 3600 * 1000LL))
            return 3;
        const double t3 = cpuSeconds();
        const sim::EngineStats st = c.stats();
        std::printf("%8d  %12.3f  %12.3f  %12.3f  %10.1f  %8llu  %9llu  %9llu  %13ld\n", n, t1 - t0, t2 - t1,
                    t3 - t2, static_cast<double>(c.now() - v0) / 1000.0,
                    static_cast<unsigned long long>(st.syncs), static_cast<unsigned long long>(st.timers),
                    static_cast<unsigned long long>(st.writes), peakRssMiB());
        std::fflush(stdout);
    }
    return 0;
}
