// YAML reading and writing of Kubernetes-shaped documents: parseYamlDocuments() (the loader's
// own reader for block-style YAML, yaml-cpp for what it declines; Json with positions) and
// toYaml() on a generated DaemonSet list; and a PodList as a server sends it through the kube
// model: JSON text -> Json -> kube::Pod records and back.

#include "models/kube/pod.h"
#include "models/kube/timeutil.h"
#include "models/kube/yaml.h"
#include "models/kube/yamldocument.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

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

// One DaemonSet pod as the API server returns it (kubectl get pod -o json, without
// managedFields): labels and an owner reference, a pinned node affinity, the DaemonSet default
// tolerations, one container, and a Running status with conditions and a container status.
Json pod(int i)
{
    const std::string ds = "node-agent";
    const std::string node = "ip-10-" + std::to_string(i / 1000) + "-" + std::to_string(i % 1000);
    const std::string ip = "10.0." + std::to_string(i / 250) + "." + std::to_string(i % 250);
    const std::string started = kube::formatRfc3339(1767225604000 + i * 1000LL);
    Json p = {{"apiVersion", "v1"}, {"kind", "Pod"}};

    Json &meta = p["metadata"];
    meta["name"] = ds + "-" + std::to_string(100000 + i);
    meta["generateName"] = ds + "-";
    meta["namespace"] = "kube-system";
    meta["uid"] = "6f1c2a4e-0b7d-4c1e-9a3f-" + std::to_string(100000000000LL + i);
    meta["resourceVersion"] = std::to_string(4000000 + i);
    meta["creationTimestamp"] = kube::formatRfc3339(1767225600000 + i * 1000LL);
    meta["labels"] = {{"app.kubernetes.io/name", ds},
                      {"controller-revision-hash", "6d4b7c9f8"},
                      {"pod-template-generation", "4"}};
    meta["annotations"] = {{"prometheus.io/scrape", "true"}};
    Json owner = {{"apiVersion", "apps/v1"},
                  {"kind", "DaemonSet"},
                  {"name", ds},
                  {"uid", "0c7e9a52-3f1d-4b8e-8d2a-5e6f7a8b9c0d"},
                  {"controller", true},
                  {"blockOwnerDeletion", true}};
    meta["ownerReferences"] = Json::array({owner});

    Json container = {{"name", ds},
                      {"image", "registry.example/node-agent:1.4.2"},
                      {"imagePullPolicy", "IfNotPresent"},
                      {"args", {"--v=2", "--listen=:9100"}},
                      {"terminationMessagePath", "/dev/termination-log"},
                      {"terminationMessagePolicy", "File"}};
    Json env = {{"name", "NODE_NAME"}};
    env["valueFrom"]["fieldRef"] = {{"apiVersion", "v1"}, {"fieldPath", "spec.nodeName"}};
    container["env"] = Json::array({env});
    Json port = {{"name", "metrics"}, {"containerPort", 9100}, {"hostPort", 9100}, {"protocol", "TCP"}};
    container["ports"] = Json::array({port});
    container["resources"]["requests"] = {{"cpu", "50m"}, {"memory", "64Mi"}};
    container["resources"]["limits"] = {{"memory", "128Mi"}};
    Json hostMount = {{"name", "host"}, {"mountPath", "/host"}, {"readOnly", true}};
    Json tokenMount = {{"name", "kube-api-access-x7k2p"},
                       {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
                       {"readOnly", true}};
    container["volumeMounts"] = Json::array({hostMount, tokenMount});

    Json &spec = p["spec"];
    Json pin = {{"key", "metadata.name"}, {"operator", "In"}, {"values", Json::array({node})}};
    Json term;
    term["matchFields"] = Json::array({pin});
    spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] =
        Json::array({term});
    spec["containers"] = Json::array({container});
    spec["dnsPolicy"] = "ClusterFirst";
    spec["enableServiceLinks"] = true;
    spec["nodeName"] = node;
    spec["preemptionPolicy"] = "PreemptLowerPriority";
    spec["priority"] = 2000001000;
    spec["priorityClassName"] = "system-node-critical";
    spec["restartPolicy"] = "Always";
    spec["schedulerName"] = "default-scheduler";
    spec["securityContext"] = Json::object();
    spec["serviceAccount"] = ds;
    spec["serviceAccountName"] = ds;
    spec["terminationGracePeriodSeconds"] = 30;
    spec["tolerations"] = Json::array();
    for (const char *taint : {"not-ready", "unreachable"})
        spec["tolerations"].push_back({{"key", std::string("node.kubernetes.io/") + taint},
                                       {"operator", "Exists"},
                                       {"effect", "NoExecute"}});
    for (const char *taint : {"disk-pressure", "memory-pressure", "pid-pressure", "unschedulable"})
        spec["tolerations"].push_back({{"key", std::string("node.kubernetes.io/") + taint},
                                       {"operator", "Exists"},
                                       {"effect", "NoSchedule"}});
    Json hostVolume = {{"name", "host"}};
    hostVolume["hostPath"] = {{"path", "/"}, {"type", ""}};
    Json tokenVolume = {{"name", "kube-api-access-x7k2p"}};
    Json token, ca;
    token["serviceAccountToken"] = {{"expirationSeconds", 3607}, {"path", "token"}};
    ca["configMap"]["name"] = "kube-root-ca.crt";
    ca["configMap"]["items"] = Json::array({Json{{"key", "ca.crt"}, {"path", "ca.crt"}}});
    tokenVolume["projected"]["defaultMode"] = 420;
    tokenVolume["projected"]["sources"] = Json::array({token, ca});
    spec["volumes"] = Json::array({hostVolume, tokenVolume});

    Json &status = p["status"];
    status["phase"] = "Running";
    status["conditions"] = Json::array();
    for (const char *type :
         {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"})
        status["conditions"].push_back({{"type", type},
                                        {"status", "True"},
                                        {"lastProbeTime", nullptr},
                                        {"lastTransitionTime", started}});
    status["hostIP"] = ip;
    status["podIP"] = ip;
    status["startTime"] = started;
    status["qosClass"] = "Burstable";
    Json cs = {{"name", ds},
               {"image", "registry.example/node-agent:1.4.2"},
               {"imageID", "registry.example/node-agent@sha256:" + std::string(64, 'c')},
               {"containerID", "containerd://" + std::string(64, 'a')},
               {"ready", true},
               {"started", true},
               {"restartCount", 0},
               {"lastState", Json::object()}};
    cs["state"]["running"]["startedAt"] = started;
    status["containerStatuses"] = Json::array({cs});
    return p;
}

std::string podListText(int n)
{
    Json items = Json::array();
    for (int i = 0; i < n; ++i)
        items.push_back(pod(i));
    return Json{{"apiVersion", "v1"},
                {"kind", "PodList"},
                {"metadata", {{"resourceVersion", "4100000"}}},
                {"items", items}}
        .dump();
}

// PodList JSON text -> kube::Pod records (Json DOM, then Pod::fromJson per item).
void decodePodList(benchmark::State &state)
{
    const std::string text = podListText(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const Json list = Json::parse(text);
        std::vector<kube::Pod> pods;
        pods.reserve(list["items"].size());
        for (const auto &item : list["items"]) {
            auto p = kube::Pod::fromJson(item);
            if (!p) {
                state.SkipWithError(p.error().message.c_str());
                break;
            }
            pods.push_back(std::move(*p));
        }
        benchmark::DoNotOptimize(pods);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["bytes"] = static_cast<double>(text.size());
}

// kube::Pod records -> PodList JSON text (Pod::toJson per item, then compact dump).
void encodePodList(benchmark::State &state)
{
    const Json list = Json::parse(podListText(static_cast<int>(state.range(0))));
    std::vector<kube::Pod> pods;
    for (const auto &item : list["items"])
        pods.push_back(*kube::Pod::fromJson(item));
    std::size_t size = 0;
    for (auto _ : state) {
        Json items = Json::array();
        for (const auto &p : pods)
            items.push_back(p.toJson());
        const std::string text = Json{
            {"apiVersion", "v1"},
            {"kind", "PodList"},
            {"metadata", Json::object()},
            {"items",
             std::move(items)}}.dump();
        size = text.size();
        benchmark::DoNotOptimize(text);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
    state.counters["bytes"] = static_cast<double>(size);
}

} // namespace

BENCHMARK(decodePodList)->ArgName("pods")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(encodePodList)->ArgName("pods")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(parseYaml)->ArgName("lines")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(renderYaml)->ArgName("lines")->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(parseJsonText)->ArgName("yamlLines")->Arg(5000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
