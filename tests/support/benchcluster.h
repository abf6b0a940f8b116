#pragma once
// The scenario the live benchmarks serve: NODES nodes and kBenchDaemonSets DaemonSets in the
// namespace `bench` (agent-0 … agent-4, one pod per node each), stepped mode, seed 1, starting
// 2026-01-01. One sync creates at most a slow-start batch of pods (the controller's burst of 250),
// so each DaemonSet is synced until every node has its pod. `atRest` then marks every pod Ready
// and syncs each DaemonSet once more for its status, so every rollout is complete when served.

#include <string>

namespace testsupport {

inline constexpr int kBenchDaemonSets = 5;

inline std::string benchScenarioYaml(int nodes, const std::string &title, bool atRest)
{
    std::string y = "name: " + title + " — " + std::to_string(nodes) + " nodes x " +
                    std::to_string(kBenchDaemonSets) +
                    " DaemonSets\nseed: 1\nmode: stepped\nstart: 2026-01-01T00:00:00Z\ncluster:\n"
                    "  nodes: [{count: " +
                    std::to_string(nodes) + "}]\n  objects:\n";
    for (int i = 0; i < kBenchDaemonSets; ++i) {
        const std::string name = "agent-" + std::to_string(i);
        y += "    - apiVersion: apps/v1\n      kind: DaemonSet\n      metadata: {name: " + name +
             ", namespace: bench}\n      spec:\n        selector: {matchLabels: {app: " + name +
             "}}\n        template:\n          metadata: {labels: {app: " + name +
             "}}\n          spec:\n            containers: [{name: agent, image: "
             "\"registry.example/agent:1.2." +
             std::to_string(i) +
             "\", resources: {requests: {cpu: 50m, memory: 64Mi}}}]\n            tolerations: [{operator: "
             "Exists}]\n";
    }
    y += "steps:\n";
    for (int i = 0; i < kBenchDaemonSets; ++i)
        for (int s = 0; s <= nodes / 250 + 1; ++s)
            y += "  - sync: bench/agent-" + std::to_string(i) + "\n";
    if (atRest) {
        y += "  - markReady: {all: true}\n";
        for (int i = 0; i < kBenchDaemonSets; ++i)
            y += "  - sync: bench/agent-" + std::to_string(i) + "\n";
    }
    return y;
}

} // namespace testsupport
