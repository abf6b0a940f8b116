// daemonscope rollback daemonset/NAME --scenario FILE [--to-revision N] [-n NS] — what
// `kubectl rollout undo` does and prints, on the cluster a scenario builds. The scenario's steps
// run first (expectations are not checked); an invalid scenario exits 2. Success prints
// "daemonset.apps/NAME rolled back" (or "skipped rollback (...)"); a refusal prints
// "error: ..." and exits 1, as kubectl does.

#include "app/commands.h"

#include "models/engine/scenariorunner.h"

#include <QCommandLineParser>

#include <cstdio>

namespace app {
namespace {

QString daemonSetName(const QStringList &positional, QString &error)
{
    static const QStringList types = {QStringLiteral("daemonset"), QStringLiteral("daemonsets"),
                                      QStringLiteral("ds"), QStringLiteral("daemonset.apps"),
                                      QStringLiteral("daemonsets.apps")};
    QString type, name;
    if (positional.size() == 1 && positional[0].contains(QLatin1Char('/'))) {
        type = positional[0].section(QLatin1Char('/'), 0, 0);
        name = positional[0].section(QLatin1Char('/'), 1);
    } else if (positional.size() == 2) {
        type = positional[0];
        name = positional[1];
    } else {
        error = QStringLiteral("expected daemonset/NAME");
        return {};
    }
    if (!types.contains(type.toLower())) {
        error = QStringLiteral("only daemonsets are supported, got \"%1\"").arg(type);
        return {};
    }
    if (name.isEmpty() || name.contains(QLatin1Char('/'))) {
        error = QStringLiteral("expected daemonset/NAME");
        return {};
    }
    return name;
}

} // namespace

int cmdRollback(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Roll a DaemonSet of a scenario back, as kubectl rollout undo."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("daemonset/NAME"), QStringLiteral("The DaemonSet."));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("The scenario file."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption toRevision(QStringLiteral("to-revision"),
                                        QStringLiteral("The revision to roll back to (0: the previous one)."),
                                        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption ns({QStringLiteral("n"), QStringLiteral("namespace")},
                                QStringLiteral("The DaemonSet's namespace (default: default)."),
                                QStringLiteral("NS"), QStringLiteral("default"));
    parser.addOption(scenario);
    parser.addOption(toRevision);
    parser.addOption(ns);
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "error: %s\n", parser.errorText().toUtf8().constData());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(parser.helpText().toUtf8().constData(), stdout);
        return 0;
    }
    QString error;
    const QString name = daemonSetName(parser.positionalArguments(), error);
    if (name.isEmpty() || !parser.isSet(scenario)) {
        std::fprintf(
            stderr,
            "error: %s\nUsage: daemonscope rollback daemonset/NAME --scenario FILE [--to-revision N] [-n "
            "NS]\n",
            (error.isEmpty() ? QStringLiteral("--scenario FILE is required") : error).toUtf8().constData());
        return 2;
    }
    bool ok = false;
    const qlonglong to = parser.value(toRevision).toLongLong(&ok);
    if (!ok) {
        std::fprintf(stderr, "error: invalid argument \"%s\" for \"--to-revision\" flag\n",
                     parser.value(toRevision).toUtf8().constData());
        return 1;
    }
    const auto result = engine::ScenarioRunner::rollback(
        parser.value(scenario).toStdString(), parser.value(ns).toStdString(), name.toStdString(), to);
    std::fwrite(result.out.data(), 1, result.out.size(), stdout);
    std::fwrite(result.err.data(), 1, result.err.size(), stderr);
    return result.exitCode;
}

} // namespace app
