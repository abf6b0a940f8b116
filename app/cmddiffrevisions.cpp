// daemonscope diff daemonset/NAME REV_A REV_B (--scenario FILE | a cluster): the half of the
// diff command that needs a simulated or a real cluster, run by the program module.

#include "app/clusterargs.h"
#include "app/commands.h"
#include "app/diffcommon.h"

#include "models/backend/liveactions.h"
#include "models/backend/liveconnection.h"
#include "models/diff/podtemplateof.h"
#include "models/embedded/scenarioloader.h"

#include <cstdio>

namespace app {
namespace {

// `diff daemonset/NAME REV_A REV_B --scenario FILE`: the revisions live in a simulated cluster,
// so the scenario's steps run first; then REV_A and REV_B (revision numbers, or "live" for the
// DaemonSet's current template) are compared like two manifests.
QString daemonSetName(const QString &ref)
{
    static const char *const prefixes[] = {"daemonset/", "daemonsets/", "ds/", "daemonset.apps/",
                                           "daemonsets.apps/"};
    for (const char *p : prefixes) {
        const QLatin1String prefix(p);
        if (ref.startsWith(prefix) && ref.size() > prefix.size())
            return ref.mid(prefix.size());
    }
    return {};
}

int diffScenarioRevisions(const QCommandLineParser &parser)
{
    const QStringList positional = parser.positionalArguments();
    const QString name = positional.size() == 3 ? daemonSetName(positional[0]) : QString();
    if (name.isEmpty()) {
        printDiffError(QStringLiteral("usage: daemonscope diff daemonset/NAME REV_A REV_B --scenario FILE"));
        return kDiffTrouble;
    }
    const auto format = diffFormat(parser);
    if (!format)
        return kDiffTrouble;
    // Both revision arguments are checked before the scenario runs.
    auto parseRev = [](const QString &text, qint64 &number) {
        if (text.compare(QLatin1String("live"), Qt::CaseInsensitive) == 0) {
            number = 0;
            return true;
        }
        bool ok = false;
        number = text.toLongLong(&ok);
        return ok && number > 0;
    };
    qint64 revs[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        if (!parseRev(positional[i + 1], revs[i])) {
            printDiffError(
                QStringLiteral("\"%1\" is not a revision: expected a positive revision number or \"live\"")
                    .arg(positional[i + 1]));
            return kDiffTrouble;
        }
    }

    const QString scenarioPath = parser.value(QStringLiteral("scenario"));
    models::SnapshotPtr snapshot;
    QString ns = parser.isSet(QStringLiteral("namespace")) ? parser.value(QStringLiteral("namespace"))
                                                           : QStringLiteral("default");
    QString source = scenarioPath;
    if (scenarioPath.isEmpty()) {
        // A real cluster: the DaemonSet and its revisions as kubectl reads them.
        auto cluster = connectCluster(ClusterArgs::from(parser));
        if (!cluster) {
            printDiffError(QString::fromStdString(cluster.error().message));
            return kDiffTrouble;
        }
        ns = QString::fromStdString(cluster->namespace_);
        source = QString::fromStdString(cluster->client->transport().server());
        auto live = cluster->daemonSetSnapshot(name.toStdString());
        if (!live) {
            if (live.error().code != 404) {
                printDiffError(QString::fromStdString(models::LiveActions::kubectlError(live.error())));
                return kDiffTrouble;
            }
            snapshot = models::ClusterSnapshot::empty(models::BackendKind::Live);
        } else {
            snapshot = *live;
        }
    } else {
        auto loaded = models::ScenarioLoader::load(scenarioPath);
        if (!loaded) {
            std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
            return kDiffTrouble;
        }
        models::ClockInfo clock;
        clock.now = loaded->cluster->now();
        snapshot = loaded->builder->build(clock);
    }
    const models::DaemonSetInfo *ds = snapshot->daemonSet(ns + QLatin1Char('/') + name);
    if (!ds) {
        printDiffError(
            QStringLiteral("daemonset \"%1\" not found in namespace \"%2\" of %3").arg(name, ns, source));
        return kDiffTrouble;
    }
    kube::Json templates[2];
    std::string names[2];
    for (int i = 0; i < 2; ++i) {
        if (revs[i] == 0) {
            templates[i] = *ds->podTemplate;
            names[i] = name.toStdString() + "@live.yaml";
            continue;
        }
        const models::RevisionInfo *r = ds->revision(revs[i]);
        if (!r || !r->podTemplate || r->podTemplate->is_null()) {
            QStringList known;
            for (const auto &x : *ds->revisions)
                known.append(QString::number(x.number));
            printDiffError(
                QStringLiteral("revision %1 of daemonset \"%2\" not found (revisions: %3)")
                    .arg(revs[i])
                    .arg(name, known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", "))));
            return kDiffTrouble;
        }
        templates[i] = *r->podTemplate;
        names[i] = name.toStdString() + "@rev" + std::to_string(revs[i]) + ".yaml";
    }

    diff::TemplateDiffInput input;
    input.oldName = names[0];
    input.newName = names[1];
    input.patchPath = diff::podTemplatePatchPath(name.toStdString());
    input.oldTemplate = std::move(templates[0]);
    input.newTemplate = std::move(templates[1]);
    return runDiff(std::move(input), *format, parser);
}

} // namespace

int cmdDiffRevisions(const QStringList &arguments)
{
    QCommandLineParser parser;
    addDiffOptions(parser);
    if (!parseDiffArguments(parser, arguments))
        return kDiffTrouble;
    return diffScenarioRevisions(parser);
}

} // namespace app
