#pragma once
// The state of one ScenarioRunner::run and the execution of the steps other than `expect` on the
// simulated cluster. Private to the scenario runner's files (scenariorunner.cpp,
// scenariosteps.cpp).

#include "models/scenario/scenariorunner.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace scenario {

using OJson = nlohmann::ordered_json; // the trace keeps the documented key order

struct ScenarioRunner::State
{
    ScenarioRunOptions options;
    std::vector<std::string> trace;
    std::vector<sim::EmittedEvent> events; // every event so far, in emission order
    std::optional<std::string> lastRollback;
    std::optional<std::pair<int, int>> lastSync; // creates, deletes
    ScenarioRunResult result;
    // The cluster's node-upgrade runtime, started before step 1 when the scenario uses it (so
    // its controller passes from the same instant on as in tests/upgrade's driver); null else.
    sim::NodeUpgradeRuntime *upgrade = nullptr;
};

// A step that could not complete: exit 1 for runtime failures, 2 for input the API rejected.
struct StepError
{
    StepError(int code, std::string text, std::string at = {})
        : exitCode(code), message(std::move(text)), where(std::move(at))
    {}
    int exitCode = 1;
    std::string message;
    std::string where; // a position inside the step (an apply's manifest), if more precise
};

// The node a scenario's `nodes` entry (or an addNodes step) names, Ready at `now`.
kube::Node makeNode(const ScenarioNodeSpec &spec, const std::string &name, kube::Timestamp now);

// Executes one step (not expect). Returns the error that stops it, if any.
std::optional<StepError> execute(sim::Cluster &cluster, const ScenarioStep &st, ScenarioRunner::State &state,
                                 OJson &record);

} // namespace scenario
