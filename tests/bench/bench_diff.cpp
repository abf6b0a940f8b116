// Line diff of two generated 5,000-line YAML texts with about 5 % of the lines changed — the
// size of a large pod template dump — plus the renderers built on it and the worst case of two
// texts without a common line. Then `daemonscope diff` end to end on two 5,000-line DaemonSet
// manifests (~5 % of the lines changed): in process (load, extract, compare, render), and the
// real binary run as a process next to GNU `diff -u` on the same two files, in the same run. The
// binary is build/release/app/daemonscope beside this program, or $DAEMONSCOPE_BIN.

#include "models/diff/linediff.h"
#include "models/diff/podtemplateof.h"
#include "models/diff/renderers.h"
#include "models/kube/manifest.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// A DaemonSet whose manifest has `lines` lines: containers with env, limits and mounts.
std::vector<std::string> daemonSetManifest(int lines)
{
    std::mt19937 rng(1);
    std::vector<std::string> out = {
        "apiVersion: apps/v1",      "kind: DaemonSet", "metadata:",        "  name: agent",
        "  namespace: kube-system", "spec:",           "  selector:",      "    matchLabels:",
        "      app: agent",         "  template:",     "    metadata:",    "      labels:",
        "        app: agent",       "    spec:",       "      containers:"};
    for (int block = 0; static_cast<int>(out.size()) < lines; ++block) {
        const std::string n = std::to_string(block);
        for (const std::string &l : std::vector<std::string>{
                 "      - name: agent-" + n,
                 "        image: registry.example.com/agent:1." + std::to_string(rng() % 40),
                 "        env:", "        - name: LOG_LEVEL", "          value: info",
                 "        - name: SHARD", "          value: \"" + n + "\"", "        resources:",
                 "          limits:", "            memory: " + std::to_string(64 << (rng() % 4)) + "Mi",
                 "        volumeMounts:", "        - mountPath: /var/log", "          name: varlog"})
            out.push_back(l);
    }
    return out;
}

// The same manifest with about `percent` % of its lines given another value (log level, image,
// memory limit, mount path), so that it stays a valid DaemonSet.
std::vector<std::string> changedManifest(std::vector<std::string> lines, int percent)
{
    std::mt19937 rng(2);
    const auto replace = [](std::string &line, const std::string &from, const std::string &to) {
        const std::size_t at = line.find(from);
        if (at == std::string::npos)
            return false;
        line.replace(at, from.size(), to);
        return true;
    };
    for (std::string &line : lines) {
        if (static_cast<int>(rng() % 100) >= percent * 3) // a third of the lines hold such a value
            continue;
        replace(line, "value: info", "value: debug") || replace(line, "agent:1.", "agent:2.") ||
            replace(line, "Mi", "0Mi") || replace(line, "/var/log", "/var/log/agent");
    }
    return lines;
}

struct ManifestFiles
{
    std::filesystem::path dir, a, b;
    std::size_t changedLines = 0;

    ManifestFiles()
    {
        dir = std::filesystem::temp_directory_path() / ("bench_diff." + std::to_string(getpid()));
        std::filesystem::create_directories(dir);
        a = dir / "agent-a.yaml";
        b = dir / "agent-b.yaml";
        const auto oldLines = daemonSetManifest(5000);
        const auto newLines = changedManifest(oldLines, 5);
        for (std::size_t i = 0; i < oldLines.size(); ++i)
            changedLines += oldLines[i] != newLines[i];
        std::ofstream(a) << join(oldLines);
        std::ofstream(b) << join(newLines);
    }
    ~ManifestFiles() { std::filesystem::remove_all(dir); }
};

const ManifestFiles &manifestFiles()
{
    static const ManifestFiles files;
    return files;
}

std::string daemonscopeBinary()
{
    if (const char *bin = std::getenv("DAEMONSCOPE_BIN"))
        return bin;
    return (std::filesystem::canonical("/proc/self/exe").parent_path() / "../../app/daemonscope").string();
}

// Runs a program with its output to /dev/null; returns its exit status, or -1.
int run(const std::vector<std::string> &argv)
{
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawned != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

void runProcess(benchmark::State &state, const std::vector<std::string> &argv)
{
    const ManifestFiles &files = manifestFiles();
    for (auto _ : state) {
        if (run(argv) != 1) { // diff(1) and daemonscope diff: 1 = the files differ
            state.SkipWithError(("failed: " + argv[0]).c_str());
            break;
        }
    }
    state.counters["changed_lines"] = static_cast<double>(files.changedLines);
}

void BM_ManifestDiffInProcess5000(benchmark::State &state)
{
    const ManifestFiles &files = manifestFiles();
    for (auto _ : state) {
        auto a = kube::loadManifestFile(files.a.string());
        auto b = kube::loadManifestFile(files.b.string());
        if (!a || !b) {
            state.SkipWithError("manifest not loaded");
            break;
        }
        auto oldTemplate = diff::podTemplateOf(a->front().object);
        auto newTemplate = diff::podTemplateOf(b->front().object);
        diff::TemplateDiffInput input;
        input.oldName = "agent-a.yaml";
        input.newName = "agent-b.yaml";
        input.patchPath = diff::podTemplatePatchPath("agent");
        input.oldTemplate = std::move(oldTemplate).value();
        input.newTemplate = std::move(newTemplate).value();
        benchmark::DoNotOptimize(
            diff::renderUnified(diff::TemplateDiff::compute(std::move(input), 0)).data());
    }
}
BENCHMARK(BM_ManifestDiffInProcess5000)->Unit(benchmark::kMillisecond);

void BM_DaemonscopeDiffProcess5000(benchmark::State &state)
{
    const ManifestFiles &files = manifestFiles();
    runProcess(state, {daemonscopeBinary(), "diff", files.a.string(), files.b.string()});
}
BENCHMARK(BM_DaemonscopeDiffProcess5000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GnuDiffUProcess5000(benchmark::State &state)
{
    const ManifestFiles &files = manifestFiles();
    runProcess(state, {"diff", "-u", files.a.string(), files.b.string()});
}
BENCHMARK(BM_GnuDiffUProcess5000)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
