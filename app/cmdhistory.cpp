// daemonscope history daemonset/NAME --scenario FILE [--revision N] [-n NS] — what
// `kubectl rollout history` prints for a DaemonSet of a simulated cluster. The scenario's steps
// run first (its expectations are not checked: this command shows the state, it does not test
// it); an invalid scenario exits 2, a kubectl error prints "error: ..." and exits 1.

#include "app/commands.h"

#include "models/engine/scenariorunner.h"

#include <QCommandLineParser>

#include <cstdio>
#include <optional>

namespace app {
namespace {

// "daemonset/NAME", "ds/NAME", "daemonsets.apps/NAME", or the type and name as two words.
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

int cmdHistory(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print a DaemonSet's rollout history from a scenario, as kubectl rollout history."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("daemonset/NAME"), QStringLiteral("The DaemonSet."));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("The scenario file."),
                                      QStringLiteral("FILE"));
    const QCommandLineOption revision(QStringLiteral("revision"),
                                      QStringLiteral("Show the pod template of this revision."),
                                      QStringLiteral("N"));
    const QCommandLineOption ns({QStringLiteral("n"), QStringLiteral("namespace")},
                                QStringLiteral("The DaemonSet's namespace (default: default)."),
                                QStringLiteral("NS"), QStringLiteral("default"));
    parser.addOption(scenario);
    parser.addOption(revision);
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
            "error: %s\nUsage: daemonscope history daemonset/NAME --scenario FILE [--revision N] [-n NS]\n",
            (error.isEmpty() ? QStringLiteral("--scenario FILE is required") : error).toUtf8().constData());
        return 2;
    }
    std::optional<std::int64_t> rev;
    if (parser.isSet(revision)) {
        bool ok = false;
        const qlonglong n = parser.value(revision).toLongLong(&ok);
        if (!ok) {
            std::fprintf(stderr, "error: invalid argument \"%s\" for \"--revision\" flag\n",
                         parser.value(revision).toUtf8().constData());
            return 1;
        }
        if (n != 0) // kubectl: 0 (the default) prints the table
            rev = n;
    }
    const auto result = engine::ScenarioRunner::history(
        parser.value(scenario).toStdString(), parser.value(ns).toStdString(), name.toStdString(), rev);
    std::fwrite(result.out.data(), 1, result.out.size(), stdout);
    std::fwrite(result.err.data(), 1, result.err.size(), stderr);
    return result.exitCode;
}

} // namespace app
