// daemonscope history daemonset/NAME (--scenario FILE | [--kubeconfig FILE] [--context NAME])
// [--revision N] [-n NS] — what `kubectl rollout history` prints for a DaemonSet, of a simulated
// cluster or of a real one. A scenario's steps run first (its expectations are not checked:
// this command shows the state, it does not test it); an invalid scenario exits 2. On a real
// cluster the same API calls as kubectl are made (GET the DaemonSet, LIST its revisions). A
// kubectl error prints "error: ..." and exits 1.

#include "app/clusterargs.h"
#include "app/commands.h"

#include "models/api/kubectlrollout.h"
#include "models/backend/liveactions.h"
#include "models/scenario/scenariorunner.h"

#include <QCommandLineParser>

#include <cstdio>
#include <optional>

namespace app {

namespace {

int historyOfCluster(const ClusterArgs &args, const std::string &name, std::optional<std::int64_t> revision)
{
    auto cluster = connectCluster(args);
    if (!cluster) {
        std::fprintf(stderr, "error: %s\n", cluster.error().message.c_str());
        return 1;
    }
    models::LiveActions actions(*cluster->client);
    auto history = actions.history(cluster->namespace_, name);
    if (!history) {
        std::fprintf(stderr, "%s\n", models::LiveActions::kubectlError(history.error()).c_str());
        return 1;
    }
    const auto revisions = history->pointers();
    if (!revision) {
        const std::string text = api::historyTable(name, revisions);
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    auto text = api::historyRevisionText(history->daemonSet, revisions, *revision);
    if (!text) {
        std::fprintf(stderr, "error: %s\n", text.error().message.c_str());
        return 1;
    }
    std::fwrite(text->data(), 1, text->size(), stdout);
    return 0;
}

} // namespace

int cmdHistory(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print a DaemonSet's rollout history from a scenario or a cluster, as kubectl rollout history."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("daemonset/NAME"), QStringLiteral("The DaemonSet."));
    ClusterArgs::addOptions(parser);
    const QCommandLineOption revision(QStringLiteral("revision"),
                                      QStringLiteral("Show the pod template of this revision."),
                                      QStringLiteral("N"));
    parser.addOption(revision);
    if (const int exit = ClusterArgs::parse(parser, arguments); exit >= 0)
        return exit;
    QString error;
    const QString name = ClusterArgs::daemonSetName(parser.positionalArguments(), error);
    if (name.isEmpty()) {
        std::fprintf(
            stderr,
            "error: %s\nUsage: daemonscope history daemonset/NAME --scenario FILE [--revision N] [-n NS]\n",
            error.toUtf8().constData());
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
    const ClusterArgs args = ClusterArgs::from(parser);
    if (args.live())
        return historyOfCluster(args, name.toStdString(), rev);
    const auto result = scenario::ScenarioRunner::history(
        args.scenario.toStdString(), args.scenarioNamespace().toStdString(), name.toStdString(), rev);
    std::fwrite(result.out.data(), 1, result.out.size(), stdout);
    std::fwrite(result.err.data(), 1, result.err.size(), stderr);
    return result.exitCode;
}

} // namespace app
