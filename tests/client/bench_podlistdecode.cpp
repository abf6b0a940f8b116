// Prints how long a PodList of N pods takes to decode with the SAX decoder and with a full DOM,
// next to the floor measured in the same run: a bare nlohmann SAX pass over the same bytes (a
// handler that does nothing), and the ratio to it; and the same bare pass with the decoder's own
// JSON reader (kube::parseJsonSax), the floor of the decoder as it is built. The pods are shaped like
// DaemonSet pods as `daemonscope serve` sends them: labels, an owner reference, the node pin, one container.
// Usage: bench_podlistdecode [pods=50000] [sax|dom|both|bare]  (one mode per run to compare peak
// RSS; bare: the bare pass alone)
#include "models/client/podlistdecoder.h"
#include "models/kube/jsonsax.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

// Accepts every event and keeps nothing: what parsing the bytes costs by itself.
struct BareSax : nlohmann::json_sax<kube::Json>
{
    std::size_t events = 0;
    bool null() override { return ++events; }
    bool boolean(bool) override { return ++events; }
    bool number_integer(number_integer_t) override { return ++events; }
    bool number_unsigned(number_unsigned_t) override { return ++events; }
    bool number_float(number_float_t, const string_t &) override { return ++events; }
    bool string(string_t &) override { return ++events; }
    bool binary(binary_t &) override { return ++events; }
    bool start_object(std::size_t) override { return ++events; }
    bool key(string_t &) override { return ++events; }
    bool end_object() override { return ++events; }
    bool start_array(std::size_t) override { return ++events; }
    bool end_array() override { return ++events; }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return false;
    }
};

std::string podList(int n)
{
    std::string json =
        R"({"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"123"},"items":[)";
    for (int i = 0; i < n; ++i) {
        const std::string name = "agent-" + std::to_string(i);
        const std::string node = "node-" + std::to_string(i);
        json += (i ? "," : "");
        json +=
            R"({"metadata":{"name":")" + name + R"(","namespace":"kube-system","uid":"uid-)" +
            std::to_string(i) + R"(","resourceVersion":")" + std::to_string(1000 + i) +
            R"(","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"agent","controller-revision-hash":"6d4b7c9f8","pod-template-generation":"1"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"ds-uid","controller":true,"blockOwnerDeletion":true}]},)"
            R"("spec":{"nodeName":")" +
            node +
            R"(","affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":[")" +
            node +
            R"("]}]}]}}},"containers":[{"name":"agent","image":"registry.example/agent:1.2.3","resources":{"requests":{"cpu":"50m","memory":"64Mi"}},"env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}]}],"tolerations":[{"operator":"Exists"}]},)"
            R"("status":{"phase":"Running","startTime":"2026-01-01T00:00:00Z","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:10Z"}],"containerStatuses":[{"name":"agent","restartCount":0,"ready":true,"state":{"running":{}}}]}})";
    }
    json += "]}";
    return json;
}

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024 / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 50000;
    const std::string json = podList(n);
    const std::string mode = argc > 2 ? argv[2] : "both";
    // CPU time of this (single) thread: on a shared machine the wall time also counts waiting for
    // a core. Both are printed; the ratio is of CPU times.
    struct Time
    {
        double wall, cpu;
    };
    const auto cpuNow = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    };
    const auto seconds = [&](auto &&fn) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpuNow();
        fn();
        return Time{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                    cpuNow() - c0};
    };

    BareSax bare;
    const Time floor = seconds([&] { kube::Json::sax_parse(json.begin(), json.end(), &bare); });
    std::printf("bare SAX pass, %d pods, %.1f MB: %.0f ms CPU (%.0f ms wall), %zu events\n", n,
                double(json.size()) / 1e6, floor.cpu * 1e3, floor.wall * 1e3, bare.events);
    BareSax own;
    const Time ownFloor = seconds([&] { kube::parseJsonSax(json, own); });
    std::printf("bare pass of kube::parseJsonSax: %.0f ms CPU (%.0f ms wall), %zu events, %.2fx nlohmann's\n",
                ownFloor.cpu * 1e3, ownFloor.wall * 1e3, own.events, ownFloor.cpu / floor.cpu);
    const auto report = [&](const char *label, Time t, const kube::Result<client::PodListPage> &r,
                            const client::PodListDecoder &decoder) {
        std::printf("%-4s %d pods: %.0f ms CPU (%.0f ms wall), %.2fx the bare pass (%.2fx parseJsonSax's), "
                    "%zu items, "
                    "%zu distinct specs\n",
                    label, n, t.cpu * 1e3, t.wall * 1e3, t.cpu / floor.cpu, t.cpu / ownFloor.cpu,
                    r.ok() ? r->items.size() : 0, decoder.distinctSpecs());
    };
    if (mode != "dom" && mode != "bare") {
        client::PodListDecoder decoder;
        kube::Result<client::PodListPage> r = client::PodListPage{};
        const Time s = seconds([&] { r = decoder.decode(json); });
        report("SAX", s, r, decoder);
    }
    if (mode != "sax" && mode != "bare") {
        client::PodListDecoder decoder;
        kube::Result<client::PodListPage> r = client::PodListPage{};
        const Time s = seconds([&] { r = decoder.decodeWithDom(json); });
        report("DOM", s, r, decoder);
    }
    std::printf("peak RSS %.0f MB\n", peakRssMb());
    return 0;
}
