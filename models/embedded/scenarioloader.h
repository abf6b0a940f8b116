#pragma once
// ScenarioLoader — builds a simulated cluster from a scenario file and runs its steps
// (expects are not checked), for the embedded backend and the headless export/diff commands.
// A SnapshotBuilder is attached when the runner creates the cluster (before the scenario's
// nodes, objects and steps), so rollout timings and events cover the scenario's own steps.
//
// Files are read through QFile, so Qt resource paths (":/scenarios/demo.yaml") work too.

#include "models/embedded/snapshotbuilder.h"

#include "models/kube/result.h"
#include "models/scenario/scenario.h"
#include "models/sim/cluster.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace models {

struct LoadedScenario
{
    scenario::Scenario scenario;
    std::unique_ptr<sim::Cluster> cluster;
    std::unique_ptr<SnapshotBuilder> builder; // attached to *cluster
    int exitCode = 0;                         // the runner's: 1 = a step could not complete
    QString messages;                         // the runner's messages, one per line
};

// Called while the scenario's steps run, after each virtual instant (continuous mode): a
// read-only look at the cluster being built, through its attached builder, e.g. to publish
// snapshots of a long load. It decides itself how often to do anything (it is called often).
using ScenarioLoadProgress = std::function<void(const scenario::Scenario &scenario,
                                                const sim::Cluster &cluster, SnapshotBuilder &builder)>;

class ScenarioLoader
{
public:
    // Parses `path` and runs it; `seed` overrides the file's seed. Errors: the file cannot be
    // read or is invalid (message names file:line:column), or the runner rejected it (exit 2).
    static kube::Result<LoadedScenario> load(const QString &path, std::optional<quint64> seed = std::nullopt,
                                             const ScenarioLoadProgress &progress = {});
    // Runs an already parsed scenario (e.g. again with another seed).
    static kube::Result<LoadedScenario> run(scenario::Scenario parsed,
                                            const ScenarioLoadProgress &progress = {});
};

} // namespace models
