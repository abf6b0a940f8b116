#include "models/embedded/scenarioloader.h"

#include "models/scenario/scenarioparser.h"
#include "models/scenario/scenariorunner.h"

#include <QFile>

namespace models {

kube::Result<LoadedScenario> ScenarioLoader::load(const QString &path, std::optional<quint64> seed,
                                                  const ScenarioLoadProgress &progress)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return kube::ApiStatus::badRequest(path.toStdString() + ": " + file.errorString().toStdString());
    const QByteArray text = file.readAll();
    auto parsed = scenario::ScenarioParser::parseText(text.toStdString(), path.toStdString());
    if (!parsed)
        return parsed.error();
    if (seed)
        parsed->seed = *seed;
    return run(std::move(*parsed), progress);
}

kube::Result<LoadedScenario> ScenarioLoader::run(scenario::Scenario parsed,
                                                 const ScenarioLoadProgress &progress)
{
    LoadedScenario loaded;
    loaded.scenario = parsed;
    scenario::ScenarioRunner runner(std::move(parsed));
    scenario::ScenarioRunOptions options;
    options.checkExpects = false;
    // Attached before the scenario's nodes, objects and steps, so rollout timings cover them.
    std::unique_ptr<SnapshotBuilder> builder;
    options.onClusterCreated = [&](sim::Cluster &c) {
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
