// daemonscope sim run FILE [--trace T] [--trace-state] — runs a scenario file and checks its
// expectations. Exit 0: all held; 1: an expect failed (stderr names step, path, expected and
// actual); 2: the file is invalid (stderr names file:line:column) or the usage is wrong.

#include "app/commands.h"
#include "app/usage.h"

#include "models/scenario/scenariorunner.h"

#include <QCommandLineParser>

#include <cstdio>

namespace app {

int cmdSim(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run a scenario file and check its expectations."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("run"), QStringLiteral("The sub-command: run."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The scenario file (YAML)."));
    const QCommandLineOption trace(QStringLiteral("trace"),
                                   QStringLiteral("Write one JSON object per step to TRACE (JSON Lines)."),
                                   QStringLiteral("TRACE"));
    const QCommandLineOption traceState(
        QStringLiteral("trace-state"),
        QStringLiteral("Add the full cluster state after each step to the trace."));
    parser.addOption(trace);
    parser.addOption(traceState);

    // arguments: program, "sim", then the sub-command's own arguments.
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "daemonscope sim: %s\n", parseError(parser).toUtf8().constData());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(commandHelp(parser, QStringLiteral("sim"))
                       .replace(QStringLiteral("[options] run FILE"), QStringLiteral("run FILE [options]"))
                       .toUtf8()
                       .constData(),
                   stdout);
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2 || positional[0] != QStringLiteral("run")) {
        std::fputs("Usage: daemonscope sim run FILE [--trace TRACE.jsonl] [--trace-state]\n", stderr);
        return 2;
    }
    if (parser.isSet(traceState) && !parser.isSet(trace)) {
        std::fputs("daemonscope sim: --trace-state needs --trace FILE\n", stderr);
        return 2;
    }
    const auto result = scenario::ScenarioRunner::simRun(
        positional[1].toStdString(), parser.value(trace).toStdString(), parser.isSet(traceState));
    std::fwrite(result.out.data(), 1, result.out.size(), stdout);
    std::fwrite(result.err.data(), 1, result.err.size(), stderr);
    return result.exitCode;
}

} // namespace app
