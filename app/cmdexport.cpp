// daemonscope export daemonset/NAME (--scenario FILE | [--kubeconfig FILE] [--context NAME])
// --format markdown|html|json [-o OUT] [-n NS] — runs the scenario's steps in the embedded engine
// (or reads the DaemonSet, its revisions and pods from a cluster), then writes the DaemonSet's
// history report: revisions, diffs between consecutive revisions, rollout timings and actions.
// Exit 0 written; 1 the DaemonSet does not exist; 2 bad usage, scenario or output file.

#include "app/clusterargs.h"
#include "app/commands.h"
#include "app/usage.h"

#include "models/backend/liveactions.h"
#include "models/embedded/scenarioloader.h"
#include "models/history/historyexport.h"

#include <QCommandLineParser>
#include <QSaveFile>

#include <cstdio>

namespace app {
namespace {

void printError(const QString &message)
{
    std::fprintf(stderr, "daemonscope export: %s\n", message.toUtf8().constData());
}

bool writeOutput(const std::string &text, const QString &outPath)
{
    if (outPath.isEmpty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return true;
    }
    // Atomic: an interrupted export never leaves half a report behind.
    QSaveFile file(outPath);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit()) {
        printError(QStringLiteral("cannot write %1: %2").arg(outPath, file.errorString()));
        return false;
    }
    return true;
}

} // namespace

int cmdExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Export the revision history of a DaemonSet in a scenario: revisions, diffs between "
                       "consecutive revisions, rollout timings and actions."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("daemonset/NAME"), QStringLiteral("The DaemonSet."));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("The scenario file (YAML)."),
                                      QStringLiteral("file"));
    const QCommandLineOption format({QStringLiteral("f"), QStringLiteral("format")},
                                    QStringLiteral("Output format: markdown (default), html or json."),
                                    QStringLiteral("format"), QStringLiteral("markdown"));
    const QCommandLineOption output(
        {QStringLiteral("o"), QStringLiteral("output")},
        QStringLiteral("Write to this file (atomically) instead of standard output."),
        QStringLiteral("file"));
    const QCommandLineOption ns({QStringLiteral("n"), QStringLiteral("namespace")},
                                QStringLiteral("The DaemonSet's namespace (default: default)."),
                                QStringLiteral("namespace"), QStringLiteral("default"));
    const QCommandLineOption noise(QStringLiteral("ignore-noise"),
                                   QStringLiteral("Hide fields the API server fills in, in the diffs."));
    const QCommandLineOption kubeconfig(
        QStringLiteral("kubeconfig"),
        QStringLiteral(
            "Without --scenario: the cluster's kubeconfig file (default: KUBECONFIG, ~/.kube/config)."),
        QStringLiteral("FILE"));
    const QCommandLineOption context(QStringLiteral("context"),
                                     QStringLiteral("Without --scenario: the kubeconfig context."),
                                     QStringLiteral("NAME"));
    parser.addOptions({scenario, format, output, ns, noise, kubeconfig, context, requestTimeoutOption()});

    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1); // "export"
    if (!parser.parse(args)) {
        printError(parseError(parser));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("export"))), stdout);
        return 0;
    }
    QString refError;
    const QString name = ClusterArgs::daemonSetName(parser.positionalArguments(), refError);
    if (name.isEmpty()) {
        printError(refError);
        printError(QStringLiteral("usage: daemonscope export daemonset/NAME --scenario FILE --format "
                                  "markdown|html|json [-o OUT] [-n NS]"));
        return 2;
    }
    QString fmt = parser.value(format).toLower();
    if (fmt == QLatin1String("md"))
        fmt = QStringLiteral("markdown");
    if (fmt != QLatin1String("markdown") && fmt != QLatin1String("html") && fmt != QLatin1String("json")) {
        printError(QStringLiteral("unknown format \"%1\" (expected markdown, html or json)").arg(fmt));
        return 2;
    }

    models::SnapshotPtr snapshot;
    QString key = parser.value(ns) + QLatin1Char('/') + name;
    if (!parser.isSet(scenario)) {
        // A real cluster: the DaemonSet, its revisions and pods as kubectl reads them.
        ClusterArgs args = ClusterArgs::from(parser);
        args.namespace_ = parser.isSet(ns) ? parser.value(ns) : QString();
        auto cluster = connectCluster(args);
        if (!cluster) {
            printError(QString::fromStdString(cluster.error().message));
            // Without any cluster option the user may simply have forgotten --scenario.
            if (!parser.isSet(kubeconfig) && !parser.isSet(context))
                printError(
                    QStringLiteral("usage: daemonscope export daemonset/NAME (--scenario FILE | --kubeconfig "
                                   "FILE [--context NAME]) --format markdown|html|json [-o OUT] [-n NS]"));
            return 2;
        }
        key = QString::fromStdString(cluster->namespace_) + QLatin1Char('/') + name;
        auto live = cluster->daemonSetSnapshot(name.toStdString());
        if (!live && live.error().code != 404) {
            std::fprintf(stderr, "%s\n", models::LiveActions::kubectlError(live.error()).c_str());
            return 1;
        }
        snapshot = live ? *live : models::ClusterSnapshot::empty(models::BackendKind::Live);
    } else {
        auto loaded = models::ScenarioLoader::load(parser.value(scenario));
        if (!loaded) {
            std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
            return 2;
        }
        models::ClockInfo clock;
        clock.now = loaded->cluster->now();
        clock.running = false;
        clock.speed = 0;
        models::BackendInfo info;
        info.kind = models::BackendKind::Embedded;
        info.connected = true;
        info.name = QStringLiteral("scenario %1").arg(parser.value(scenario));
        info.scenarioPath = parser.value(scenario);
        info.seed = loaded->scenario.seed;
        loaded->builder->setBackendInfo(info);
        snapshot = loaded->builder->build(clock);
    }
    const auto report = models::HistoryExport::report(*snapshot, key, nullptr, parser.isSet(noise));
    if (!report) {
        std::fprintf(stderr, "Error from server (NotFound): daemonsets.apps \"%s\" not found\n",
                     name.toUtf8().constData());
        return 1;
    }
    const std::string text = fmt == QLatin1String("markdown") ? report->markdown()
                             : fmt == QLatin1String("html")   ? report->html()
                                                              : report->json();
    return writeOutput(text, parser.value(output)) ? 0 : 2;
}

} // namespace app
