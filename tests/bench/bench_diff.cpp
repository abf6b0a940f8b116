// Line diff of two generated 5,000-line YAML texts with about 5 % of the lines changed — the
// size of a large pod template dump — plus the renderers built on it and the worst case of two
// texts without a common line.

#include "models/diff/linediff.h"
#include "models/diff/renderers.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace {

// A YAML-like text: repeated container blocks, so many lines occur more than once.
std::vector<std::string> generateYaml(int lines, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::string> out;
    out.reserve(lines);
    int block = 0;
    while (static_cast<int>(out.size()) < lines) {
        const std::string n = std::to_string(block++);
        for (const std::string &l : std::vector<std::string>{
                 "- name: agent-" + n, "  image: registry.example.com/agent:1." + std::to_string(rng() % 40),
                 std::string("  env:"), "  - name: LOG_LEVEL", "    value: info", "  - name: SHARD",
                 "    value: \"" + n + "\"", std::string("  resources:"), std::string("    limits:"),
                 "      memory: " + std::to_string(64 << (rng() % 4)) + "Mi", std::string("  volumeMounts:"),
                 std::string("  - mountPath: /var/log"), std::string("    name: varlog")}) {
            if (static_cast<int>(out.size()) < lines)
                out.push_back(l);
        }
    }
    return out;
}

// About `percent` % of the lines changed: replaced, deleted or followed by an inserted line.
std::vector<std::string> mutate(const std::vector<std::string> &a, int percent, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dice(0, 299);
    std::vector<std::string> b;
    b.reserve(a.size() + a.size() / 20);
    for (const auto &line : a) {
        const int roll = dice(rng);
        if (roll < percent)
            b.push_back(line + " # changed");
        else if (roll < 2 * percent)
            continue;
        else
            b.push_back(line);
        if (roll >= 2 * percent && roll < 3 * percent)
            b.push_back("  - name: ADDED_" + std::to_string(roll));
    }
    return b;
}

std::string join(const std::vector<std::string> &lines)
{
    std::string text;
    for (const auto &l : lines)
        text += l + "\n";
    return text;
}

void BM_DiffLines5000(benchmark::State &state)
{
    const auto a = generateYaml(5000, 1);
    const auto b = mutate(a, 5, 2);
    std::size_t changes = 0;
    for (auto _ : state) {
        const auto lines = diff::diffLines(a, b);
        changes = 0;
        for (const auto &l : lines)
            changes += l.op != diff::LineOp::Equal;
        benchmark::DoNotOptimize(lines.data());
    }
    state.counters["edits"] = static_cast<double>(changes);
}
BENCHMARK(BM_DiffLines5000)->Unit(benchmark::kMillisecond);

void BM_DiffLinesNoCommonLine5000(benchmark::State &state)
{
    std::vector<std::string> a, b;
    for (int i = 0; i < 5000; ++i) {
        a.push_back("old " + std::to_string(i));
        b.push_back("new " + std::to_string(i));
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(diff::diffLines(a, b).data());
}
BENCHMARK(BM_DiffLinesNoCommonLine5000)->Unit(benchmark::kMillisecond);

// Worst case for Myers: every line is common but the order is scrambled, so D is close to N+M.
void BM_DiffLinesShuffled5000(benchmark::State &state)
{
    std::vector<std::string> a;
    for (int i = 0; i < 5000; ++i)
        a.push_back("line " + std::to_string(i));
    std::vector<std::string> b = a;
    std::shuffle(b.begin(), b.end(), std::mt19937(3));
    for (auto _ : state)
        benchmark::DoNotOptimize(diff::diffLines(a, b).data());
}
BENCHMARK(BM_DiffLinesShuffled5000)->Unit(benchmark::kMillisecond);

void BM_SideBySide5000(benchmark::State &state)
{
    const auto lines = diff::diffLines(generateYaml(5000, 1), mutate(generateYaml(5000, 1), 5, 2));
    for (auto _ : state)
        benchmark::DoNotOptimize(diff::sideBySide(lines).data());
}
BENCHMARK(BM_SideBySide5000)->Unit(benchmark::kMillisecond);

void BM_RenderUnified5000(benchmark::State &state)
{
    const auto a = generateYaml(5000, 1);
    const std::string oldText = join(a), newText = join(mutate(a, 5, 2));
    for (auto _ : state)
        benchmark::DoNotOptimize(
            diff::renderUnified(oldText, newText, "web.pod-template.yaml", "web@rev3.yaml", "web@rev5.yaml")
                .data());
}
BENCHMARK(BM_RenderUnified5000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
