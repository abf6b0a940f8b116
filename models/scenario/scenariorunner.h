#pragma once
// ScenarioRunner — builds the simulated cluster a scenario describes and executes its steps on
// it, checking `expect` steps and writing the JSON Lines trace (docs/scenarios.md).
//
// Exit codes follow the `sim run` contract: 0 every step ran and every expect held; 1 an
// expect failed or a step could not complete (a `run` timeout, a selector that matched no
// pod); 2 the file is invalid. Runtime input errors the parser cannot see (an object the API
// server rejects as Invalid, a container setImage cannot find) also give 2, and the trace is
// then not written, so nothing is half-run from the outside. A trace that cannot be written
// also gives 2.
//
// Trace: line 0 ("action":"cluster") records the cluster as built, then one line per step;
// "time" is the virtual clock after the step; "failures" is added to a step that failed.
// Keys are written in a fixed order; object lists are sorted by namespace, then name. The
// file is written to TRACE.tmp and renamed, once, at the end. With the same file and seed the
// bytes are identical.
//
// `expect.sync` compares against the most recent sync record: the last `sync` step in stepped
// mode, the creates/deletes issued during the most recent step that issued any in continuous
// mode. `expect.pods` counts what the selector returns, terminating pods included.

#include "models/scenario/scenario.h"
#include "models/sim/cluster.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scenario {

struct ScenarioRunOptions
{
    // false: expects are skipped, and a step that cannot complete (a run timeout, a selector
    // matching no pod) is reported in messages while the run goes on; exit 2 still stops it.
    bool checkExpects = true;
    std::string tracePath;   // empty: no trace
    bool traceState = false; // add the full state after each step
    // Called with the new cluster before the scenario's nodes, objects and steps, e.g. to
    // attach watches that should see every write.
    std::function<void(sim::Cluster &)> onClusterCreated;
};

struct ScenarioRunResult
{
    int exitCode = 0;
    std::vector<std::string> messages; // for stderr, one per line ("FILE:LINE:COLUMN: ...")
};

// What a headless command prints and returns.
struct ScenarioCommandOutput
{
    int exitCode = 0;
    std::string out;
    std::string err;
};

class ScenarioRunner
{
public:
    explicit ScenarioRunner(Scenario scenario);
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner &) = delete;
    ScenarioRunner &operator=(const ScenarioRunner &) = delete;

    // Builds the cluster and runs every step. Call once.
    ScenarioRunResult run(const ScenarioRunOptions &options = {});

    const Scenario &scenario() const { return m_scenario; }
    // The cluster after run(), e.g. for the GUI to continue the simulation; null before run().
    sim::Cluster *cluster() { return m_cluster.get(); }
    // The cluster runs on without this runner reading its logs: they are stopped.
    std::unique_ptr<sim::Cluster> takeCluster()
    {
        if (m_cluster)
            m_cluster->stopLogs();
        return std::move(m_cluster);
    }
    // The cluster's node-agent upgrade runtime when the scenario started one (upgrade steps);
    // null before run(), after takeCluster() (it moves with the cluster) or when none started.
    sim::NodeUpgradeRuntime *upgradeRuntime();

    // ClusterOptions for a scenario (seed, mode, start, kubelet timings).
    static sim::ClusterOptions clusterOptions(const Scenario &scenario);

    // The cluster a scenario leaves behind, for the console to keep simulating: parses the text,
    // builds the cluster and runs every step without checking expects. Fails only when the file
    // is invalid (the message lists "FILE:LINE:COLUMN: ..." lines).
    static kube::Result<std::unique_ptr<sim::Cluster>> buildCluster(const std::string &text,
                                                                    const std::string &fileName);
    // The same, with the virtual clock placed so that the steps end at `end` (for `serve`,
    // whose clients compute ages against the wall clock): the steps run once to learn how much
    // virtual time they take, then again from `end` minus that. The scenario's own `start` and
    // the instants its steps name (setTime, run until time T) move by the same amount;
    // everything else (seed, steps, the resulting objects) is as buildCluster makes it.
    static kube::Result<std::unique_ptr<sim::Cluster>>
    buildClusterEndingAt(const std::string &text, const std::string &fileName, kube::Timestamp end);

    // `daemonscope sim run FILE [--trace T] [--trace-state]`.
    static ScenarioCommandOutput simRun(const std::string &file, const std::string &tracePath,
                                        bool traceState);
    // `daemonscope history daemonset/NAME --scenario FILE [--revision N]`: runs the scenario's
    // steps (expects are not checked), then prints what `kubectl rollout history` prints.
    static ScenarioCommandOutput history(const std::string &file, const std::string &ns,
                                         const std::string &name, std::optional<std::int64_t> revision);
    // `daemonscope rollback daemonset/NAME --scenario FILE [--to-revision N]`: runs the steps,
    // then does what `kubectl rollout undo` does and prints its output.
    static ScenarioCommandOutput rollback(const std::string &file, const std::string &ns,
                                          const std::string &name, std::int64_t toRevision);

    struct State;

private:
    Scenario m_scenario;
    std::unique_ptr<sim::Cluster> m_cluster;
    std::unique_ptr<State> m_state;
};

} // namespace scenario
