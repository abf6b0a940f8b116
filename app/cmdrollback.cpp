// daemonscope rollback daemonset/NAME (--scenario FILE | [--kubeconfig FILE] [--context NAME])
// [--to-revision N] [-n NS] — what `kubectl rollout undo` does and prints, on the cluster a
// scenario builds or on a real one (with kubectl's API calls: GET the DaemonSet, LIST its
// revisions, strategic-merge PATCH with the chosen revision's data). A scenario's steps run
// first (expectations are not checked); an invalid scenario exits 2. Success prints
// "daemonset.apps/NAME rolled back" (or "skipped rollback (...)"); a refusal prints
// "error: ..." and exits 1, as kubectl does.

#include "app/clusterargs.h"
#include "app/commands.h"

#include "models/backend/liveactions.h"
#include "models/scenario/scenariorunner.h"

#include <QCommandLineParser>

#include <cstdio>

namespace app {

namespace {

int rollbackOnCluster(const ClusterArgs &args, const std::string &name, std::int64_t toRevision)
{
    auto cluster = connectCluster(args);
    if (!cluster) {
        std::fprintf(stderr, "error: %s\n", cluster.error().message.c_str());
        return 1;
    }
    models::LiveActions actions(*cluster->client);
    // kubectl's resource builder reads the object first: a missing one is the API's NotFound.
    auto ds = cluster->client->get<kube::DaemonSet>(cluster->namespace_, name);
    if (!ds) {
        std::fprintf(stderr, "%s\n", models::LiveActions::kubectlError(ds.error()).c_str());
        return 1;
    }
    const models::LiveRollback r = actions.rollback(cluster->namespace_, name, toRevision);
    const std::string line = r.outcome.kubectlOutput(name) + "\n";
    std::fputs(line.c_str(), r.outcome.ok() ? stdout : stderr);
    return r.outcome.ok() ? 0 : 1;
}

} // namespace

int cmdRollback(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Roll a DaemonSet of a scenario or a cluster back, as kubectl rollout undo."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("daemonset/NAME"), QStringLiteral("The DaemonSet."));
    ClusterArgs::addOptions(parser);
    const QCommandLineOption toRevision(QStringLiteral("to-revision"),
                                        QStringLiteral("The revision to roll back to (0: the previous one)."),
                                        QStringLiteral("N"), QStringLiteral("0"));
    parser.addOption(toRevision);
    if (const int exit = ClusterArgs::parse(parser, arguments); exit >= 0)
        return exit;
    QString error;
    const QString name = ClusterArgs::daemonSetName(parser.positionalArguments(), error);
    if (name.isEmpty()) {
        std::fprintf(stderr,
                     "error: %s\nUsage: daemonscope rollback daemonset/NAME --scenario FILE [--to-revision "
                     "N] [-n NS]\n",
                     error.toUtf8().constData());
        return 2;
    }
    bool ok = false;
    const qlonglong to = parser.value(toRevision).toLongLong(&ok);
    if (!ok) {
        std::fprintf(stderr, "error: invalid argument \"%s\" for \"--to-revision\" flag\n",
                     parser.value(toRevision).toUtf8().constData());
        return 1;
    }
    const ClusterArgs args = ClusterArgs::from(parser);
    if (args.live())
        return rollbackOnCluster(args, name.toStdString(), to);
    const auto result = scenario::ScenarioRunner::rollback(
        args.scenario.toStdString(), args.scenarioNamespace().toStdString(), name.toStdString(), to);
    std::fwrite(result.out.data(), 1, result.out.size(), stdout);
    std::fwrite(result.err.data(), 1, result.err.size(), stderr);
    return result.exitCode;
}

} // namespace app
