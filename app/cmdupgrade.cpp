// daemonscope upgrade status NAME --scenario FILE — runs the scenario's steps (its expectations
// are not checked: this command shows the state, it does not test it), then prints the
// rollout's headline, counts, conditions, resume preview (when paused or halted) and the
// per-node table. Exit 0 when the rollout exists, 1 when it does not, 2 for an invalid
// scenario or command line.

#include "app/cmdupgrade.h"
#include "app/usage.h"

#include "models/scenario/scenarioparser.h"
#include "models/scenario/scenariorunner.h"
#include "models/sim/nodeupgraderuntime.h"

#include <QCommandLineParser>

#include <cstdio>

namespace app {

int cmdUpgrade(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Show a node-agent upgrade rollout of a scenario: headline, counts and the per-node table."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("status"), QStringLiteral("The sub-command (status)."));
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("The NodeUpgradeRollout."));
    const QCommandLineOption scenarioFile(QStringLiteral("scenario"), QStringLiteral("The scenario file."),
                                          QStringLiteral("FILE"));
    parser.addOption(scenarioFile);
    // arguments: argv[0], "upgrade", ...
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "daemonscope upgrade: %s\n", qPrintable(parseError(parser)));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("upgrade"))), stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2 || positional[0] != QLatin1String("status") || !parser.isSet(scenarioFile)) {
        std::fputs("Usage: daemonscope upgrade status NAME --scenario FILE\n", stderr);
        return 2;
    }
    auto parsed = scenario::ScenarioParser::parseFile(parser.value(scenarioFile).toStdString());
    if (!parsed) {
        std::fprintf(stderr, "%s\n", parsed.error().message.c_str());
        return 2;
    }
    scenario::ScenarioRunner runner(std::move(*parsed));
    scenario::ScenarioRunOptions options;
    options.checkExpects = false;
    const auto result = runner.run(options);
    if (result.exitCode == 2) {
        for (const auto &m : result.messages)
            std::fprintf(stderr, "%s\n", m.c_str());
        return 2;
    }
    for (const auto &m : result.messages) // a step that could not complete: shown, not fatal
        std::fprintf(stderr, "warning: %s\n", m.c_str());
    const std::string name = positional[1].toStdString();
    sim::NodeUpgradeRuntime *upgrade = runner.upgradeRuntime();
    if (!upgrade || !upgrade->rollouts().get(name)) {
        std::fprintf(stderr, "error: nodeupgraderollouts \"%s\" not found\n", name.c_str());
        return 1;
    }
    std::fputs(upgrade->statusText(name).c_str(), stdout);
    return 0;
}

} // namespace app
