// Prints how long a PodList of N pods takes to decode with the SAX decoder and with a full DOM.
// Usage: bench_podlistdecode [pods=50000] [sax|dom|both]  (one mode per run to compare peak RSS)
#include "models/client/podlistdecoder.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 50000;
    std::string json =
        R"({"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"123"},"items":[)";
    for (int i = 0; i < n; ++i) {
        const std::string name = "agent-" + std::to_string(i);
        json += (i ? "," : "");
        json +=
            R"({"metadata":{"name":")" + name + R"(","namespace":"kube-system","uid":"uid-)" +
            std::to_string(i) + R"(","resourceVersion":")" + std::to_string(1000 + i) +
            R"(","labels":{"app":"agent","controller-revision-hash":"6d4b7c9f8"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"ds-uid","controller":true}]},)"
            R"("spec":{"nodeName":"node-)" +
            std::to_string(i) +
            R"(","containers":[{"name":"agent","image":"registry.example/agent:1.2.3","resources":{"requests":{"cpu":"50m","memory":"64Mi"}},"env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}]}],"tolerations":[{"operator":"Exists"}]},)"
            R"("status":{"phase":"Running","startTime":"2026-01-01T00:00:00Z","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:10Z"}],"containerStatuses":[{"name":"agent","restartCount":0,"ready":true,"state":{"running":{}}}]}})";
    }
    json += "]}";
    auto time = [&](const char *label, auto &&fn) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = fn();
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
                .count();
        std::printf("%-4s %d pods, %.1f MB: %lld ms, %zu items\n", label, n, double(json.size()) / 1e6,
                    static_cast<long long>(ms), r.ok() ? r->items.size() : 0);
    };
    const std::string mode = argc > 2 ? argv[2] : "both";
    if (mode != "dom")
        time("SAX", [&] { return client::PodListDecoder().decode(json); });
    if (mode != "sax")
        time("DOM", [&] { return client::PodListDecoder().decodeWithDom(json); });
    return 0;
}
