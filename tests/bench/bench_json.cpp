// YAML reading and writing of Kubernetes-shaped documents: parseYamlDocuments() (yaml-cpp plus
// conversion to Json with positions) and toYaml() on a generated DaemonSet list.

#include "models/kube/yaml.h"
#include "models/kube/yamldocument.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

namespace {

using kube::Json;

Json daemonSet(int i)
{
    const std::string name = "agent-" + std::to_string(i);
    Json container = {{"name", name},
                      {"image", "registry.example/agent:1." + std::to_string(i % 7)},
                      {"imagePullPolicy", "IfNotPresent"},
                      {"args", {"--v=2", "--listen=:8080", "--config=/etc/agent/config.yaml"}},
                      {"ports", {{{"containerPort", 8080}, {"protocol", "TCP"}}}},
                      {"resources", {{"limits", {{"cpu", "200m"}, {"memory", "128Mi"}}}}},
                      {"terminationMessagePath", "/dev/termination-log"}};
    return {{"apiVersion", "apps/v1"},
            {"kind", "DaemonSet"},
            {"metadata",
             {{"name", name},
              {"namespace", "kube-system"},
              {"annotations", {{"deprecated.daemonset.template.generation", "3"}}},
              {"labels", {{"app", name}, {"tier", "node"}}},
              {"creationTimestamp", "2024-05-01T10:00:00Z"}}},
            {"spec",
             {{"revisionHistoryLimit", 10},
              {"selector", {{"matchLabels", {{"app", name}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", name}}}}},
                {"spec",
                 {{"containers", {container}},
                  {"tolerations", {{{"operator", "Exists"}, {"effect", "NoSchedule"}}}},
                  {"terminationGracePeriodSeconds", 30}}}}},
              {"updateStrategy",
               {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", 0}, {"maxUnavailable", 1}}}}}}}};
}

// A List of DaemonSets whose YAML form has at least `lines` lines.
Json documentOfLines(int lines)
{
    Json items = Json::array();
    const std::string one = kube::toYaml(daemonSet(0));
    const int perItem = static_cast<int>(std::count(one.begin(), one.end(), '\n'));
    for (int i = 0; i * perItem < lines; ++i)
        items.push_back(daemonSet(i));
    return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
}

void parseYaml(benchmark::State &state)
{
    const std::string text = kube::toYaml(documentOfLines(static_cast<int>(state.range(0))));
    for (auto _ : state) {
        auto docs = kube::parseYamlDocuments(text, "bench.yaml");
        if (!docs)
            state.SkipWithError(docs.error().message.c_str());
        benchmark::DoNotOptimize(docs);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["bytes"] = static_cast<double>(text.size());
}

void renderYaml(benchmark::State &state)
{
    const Json value = documentOfLines(static_cast<int>(state.range(0)));
    std::size_t size = 0;
    for (auto _ : state) {
        std::string yaml = kube::toYaml(value);
        size = yaml.size();
        benchmark::DoNotOptimize(yaml);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
    state.counters["bytes"] = static_cast<double>(size);
}

void parseJsonText(benchmark::State &state)
{
    const std::string text = documentOfLines(static_cast<int>(state.range(0))).dump(2);
    for (auto _ : state) {
        auto docs = kube::parseYamlDocuments(text, "bench.json");
        if (!docs)
            state.SkipWithError(docs.error().message.c_str());
        benchmark::DoNotOptimize(docs);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["bytes"] = static_cast<double>(text.size());
}

} // namespace

BENCHMARK(parseYaml)->ArgName("lines")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(renderYaml)->ArgName("lines")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(parseJsonText)->ArgName("yamlLines")->Arg(5000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
