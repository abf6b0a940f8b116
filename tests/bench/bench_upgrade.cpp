// Node-agent upgrade at scale: 5,000 nodes in 5 zones, 20 ReplicaSets of 100 replicas,
// maxUnavailable 5 % (250 nodes), the whole upgrade simulated in virtual time until the rollout
// is Completed. Reports the CPU time (Google Benchmark's), the virtual duration, the number of
// controller passes and the process's peak RSS, and the upgrade controller's own share: its
// CPU time per pass (controller_ms_per_pass; of it, controller_own_ms_per_pass without its
// writes and status updates, controller_writes_s and controller_status_s, which include what the
// engine does synchronously for them) and in its watch handlers (controller_watch_s),
// against the rest of the engine (engine_other_s: scheduler, kubelets, ReplicaSet controller,
// API writes of the controller's own requests included).
//
//   build/tests/bench/bench_upgrade [NODES] [benchmark flags]   (one iteration; NODES defaults
//                                                                to 5000, e.g. 1000 for a quick run)
//
// Peak RSS is the process high-water mark (getrusage), so it includes the cluster itself.

#include "models/sim/nodeupgraderuntime.h"
#include "tests/support/replicaset.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <time.h>

namespace {

using kube::Json;
using namespace sim;
using namespace api;

int gNodes = 5000; // set from the optional first argument
constexpr int kZones = 5;
constexpr int kReplicaSets = 20;
constexpr int kReplicas = 100;

Json replicaSet(int i)
{
    return testsupport::replicaSetManifest("app-" + std::to_string(i), "default", kReplicas, "c",
                                           "nginx:1.27");
}

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

long peakRssKb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

void BM_FullUpgrade5000Nodes(benchmark::State &state)
{
    for (auto _ : state) {
        state.PauseTiming();
        ClusterOptions o;
        o.seed = 1;
        o.start = 1767225600000;
        o.kubelet.jitter = 0.2;
        auto cluster = std::make_unique<Cluster>(o);
        for (int i = 0; i < gNodes; ++i) {
            kube::Node n;
            n.metadata.name = "node-" + std::to_string(i);
            n.metadata.labels["topology.kubernetes.io/zone"] = "zone-" + std::to_string(i % kZones);
            n.kubeletVersion = "v1.0.0";
            n.setCondition({"Ready", "True", "KubeletReady", "", o.start});
            (void)cluster->addNode(n);
        }
        for (int i = 0; i < kReplicaSets; ++i)
            (void)cluster->apply(replicaSet(i));
        cluster->runUntil([&] { return cluster->podsReady(kReplicaSets * kReplicas); }, 10 * 60 * 1000);
        NodeUpgradeRuntimeOptions runtimeOptions;
        runtimeOptions.controller.measureCpu = true; // the controller_* counters
        auto runtime = std::make_unique<NodeUpgradeRuntime>(*cluster, runtimeOptions);
        const kube::Timestamp begin = cluster->now();
        state.ResumeTiming();
        const double cpuStart = cpuSeconds();

        (void)runtime->upgradeStep({{"name", "agents-v2"},
                                    {"targetVersion", "v2.0.0"},
                                    {"maxUnavailable", "5%"},
                                    {"maxStartsPerPass", 25},
                                    {"unmanagedPodPolicy", "immediate"}});
        const bool done =
            cluster->runUntil([&] { return runtime->upgradeComplete("agents-v2"); }, 24LL * 3600 * 1000);

        state.PauseTiming();
        const auto *r = runtime->rollouts().get("agents-v2");
        state.counters["completed"] = done ? 1 : 0;
        state.counters["upgraded"] = r ? r->status.counts.upgraded : 0;
        state.counters["virtual_minutes"] = static_cast<double>(cluster->now() - begin) / 60000.0;
        const auto *m = runtime->metrics("agents-v2");
        state.counters["passes"] = m ? static_cast<double>(m->totalSamples()) : 0;
        state.counters["events"] = static_cast<double>(runtime->events().emissions().size());
        const auto &t = runtime->controller().timing();
        const double passS = static_cast<double>(t.passNanos) / 1e9,
                     watchS = static_cast<double>(t.watchNanos) / 1e9;
        state.counters["controller_ms_per_pass"] =
            t.passes ? passS * 1000.0 / static_cast<double>(t.passes) : 0;
        const double writeS = static_cast<double>(t.writeNanos) / 1e9,
                     statusS = static_cast<double>(t.statusNanos) / 1e9;
        state.counters["controller_own_ms_per_pass"] =
            t.passes ? (passS - writeS - statusS) * 1000.0 / static_cast<double>(t.passes) : 0;
        state.counters["controller_writes_s"] = writeS;
        state.counters["controller_status_s"] = statusS;
        state.counters["controller_passes"] = static_cast<double>(t.passes);
        state.counters["controller_pass_s"] = passS;
        state.counters["controller_watch_s"] = watchS;
        state.counters["controller_watch_us_per_event"] =
            t.watchEvents ? watchS * 1e6 / static_cast<double>(t.watchEvents) : 0;
        state.counters["cpu_s"] = cpuSeconds() - cpuStart;
        state.counters["engine_other_s"] = cpuSeconds() - cpuStart - passS - watchS;
        runtime.reset();
        cluster.reset();
        state.ResumeTiming();
    }
    state.counters["peak_rss_MiB"] = static_cast<double>(peakRssKb()) / 1024.0;
}

} // namespace

BENCHMARK(BM_FullUpgrade5000Nodes)->Unit(benchmark::kSecond)->Iterations(1);

int main(int argc, char **argv)
{
    // A leading positive integer is the node count; everything else goes to Google Benchmark.
    std::vector<char *> args(argv, argv + argc);
    if (argc > 1) {
        char *end = nullptr;
        const long n = std::strtol(argv[1], &end, 10);
        if (end != argv[1] && *end == '\0' && n > 0) {
            gNodes = static_cast<int>(n);
            args.erase(args.begin() + 1);
        }
    }
    int count = static_cast<int>(args.size());
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data()))
        return 1;
    benchmark::AddCustomContext("nodes", std::to_string(gNodes));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
