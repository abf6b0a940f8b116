#include "models/backend/scenarioloader.h"

#include "models/engine/scenarioparser.h"
#include "models/engine/scenariorunner.h"

#include <QFile>

namespace models {

kube::Result<LoadedScenario> ScenarioLoader::load(const QString &path, std::optional<quint64> seed,
                                                  const ScenarioLoadProgress &progress)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return kube::ApiStatus::badRequest(path.toStdString() + ": " + file.errorString().toStdString());
    const QByteArray text = file.readAll();
    auto scenario = engine::ScenarioParser::parseText(text.toStdString(), path.toStdString());
    if (!scenario)
        return scenario.error();
    if (seed)
        scenario->seed = *seed;
    return run(std::move(*scenario), progress);
}

kube::Result<LoadedScenario> ScenarioLoader::run(engine::Scenario scenario,
                                                 const ScenarioLoadProgress &progress)
{
    LoadedScenario loaded;
    loaded.scenario = scenario;
    engine::ScenarioRunner runner(std::move(scenario));
    engine::ScenarioRunOptions options;
    options.checkExpects = false;
    // Attached before the scenario's nodes, objects and steps, so rollout timings cover them.
    std::unique_ptr<SnapshotBuilder> builder;
    options.onClusterCreated = [&](engine::Cluster &c) {
        builder = std::make_unique<SnapshotBuilder>(c);
        if (progress)
            c.setInstantObserver([&, cluster = &c] { progress(loaded.scenario, *cluster, *builder); });
    };
    const auto result = runner.run(options);
    if (runner.cluster())
        runner.cluster()->setInstantObserver({});
    QStringList messages;
    for (const auto &m : result.messages)
        messages.append(QString::fromStdString(m));
    if (result.exitCode == 2 || !runner.cluster())
        return kube::ApiStatus::badRequest(messages.join(QLatin1Char('\n')).toStdString());
    loaded.exitCode = result.exitCode;
    loaded.messages = messages.join(QLatin1Char('\n'));
    loaded.cluster = runner.takeCluster();
    loaded.builder = builder ? std::move(builder) : std::make_unique<SnapshotBuilder>(*loaded.cluster);
    return loaded;
}

} // namespace models
