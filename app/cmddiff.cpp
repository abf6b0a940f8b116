// daemonscope diff — the pod templates of two manifests (or of two revisions of a DaemonSet, in
// a scenario with --scenario or in a cluster through --kubeconfig/--context) as a unified diff,
// HTML, Markdown or JSON. Exit codes follow diff(1): 0 when
// the templates are equal, 1 when they differ, 2 on bad input or usage.

#include "app/clusterargs.h"
#include "app/commands.h"
#include "app/usage.h"

#include "models/diff/podtemplateof.h"
#include "models/diff/renderers.h"
#include "models/kube/manifest.h"
#include "models/liveactions.h"
#include "models/liveconnection.h"
#include "models/scenarioloader.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QSaveFile>

#include <cstdio>
#include <optional>
#include <utility>

namespace app {
namespace {

constexpr int exitEqual = 0;
constexpr int exitDifferent = 1;
constexpr int exitTrouble = 2;

void printError(const QString &message)
{
    std::fprintf(stderr, "daemonscope diff: %s\n", message.toUtf8().constData());
}

struct LoadedTemplate
{
    kube::Json podTemplate;
    std::string name; // the DaemonSet's: its own name, a ControllerRevision's owner, else the file's stem
};

// The one pod template a manifest file must hold.
std::optional<LoadedTemplate> loadTemplate(const QString &path)
{
    auto manifests = kube::loadManifestFile(path.toStdString());
    if (!manifests) {
        printError(QString::fromStdString(manifests.error().message));
        return std::nullopt;
    }
    if (manifests->size() != 1) {
        printError(
            QStringLiteral("%1: expected exactly one object with a pod template (such as a DaemonSet or "
                           "ControllerRevision), found %2 objects")
                .arg(path)
                .arg(manifests->size()));
        return std::nullopt;
    }
    kube::Manifest &m = manifests->front();
    // The loader has checked the object's field types. Only the template moves out of the
    // object: its metadata is still read below.
    auto tpl = diff::podTemplateOf(std::move(m.object), diff::FieldTypes::AlreadyChecked);
    if (!tpl) {
        printError(QStringLiteral("%1:%2:%3: %4")
                       .arg(QString::fromStdString(m.file))
                       .arg(m.pos.line)
                       .arg(m.pos.column)
                       .arg(QString::fromStdString(tpl.error().message)));
        return std::nullopt;
    }
    LoadedTemplate loaded{std::move(tpl).value(), {}};
    const kube::Json &meta = m.object.contains("metadata") ? m.object["metadata"] : kube::Json::object();
    if (meta.is_object() && meta.contains("ownerReferences") && meta["ownerReferences"].is_array())
        for (const auto &owner : meta["ownerReferences"])
            if (owner.is_object() && owner.value("kind", kube::Json()) == "DaemonSet" &&
                owner.contains("name") && owner["name"].is_string())
                loaded.name = owner["name"].get<std::string>();
    if (loaded.name.empty() && meta.is_object() && meta.contains("name") && meta["name"].is_string())
        loaded.name = meta["name"].get<std::string>();
    if (loaded.name.empty())
        loaded.name = QFileInfo(path).completeBaseName().toStdString();
    return loaded;
}

// What a format shows besides the YAML texts (renderers.h), so nothing else is computed.
unsigned partsShownBy(const QString &format)
{
    if (format == QLatin1String("html"))
        return diff::SummaryPart | diff::LineDiffPart;
    if (format == QLatin1String("markdown"))
        return diff::SummaryPart;
    if (format == QLatin1String("json"))
        return diff::SummaryPart | diff::JsonPatchPart;
    return 0; // unified
}

std::string render(const diff::TemplateDiff &result, const QString &format)
{
    if (format == QLatin1String("html"))
        return diff::renderHtml(result);
    if (format == QLatin1String("markdown"))
        return diff::renderMarkdown(result);
    if (format == QLatin1String("json"))
        return diff::renderJson(result);
    return diff::renderUnified(result);
}

bool writeOutput(const std::string &text, const QString &outPath)
{
    if (outPath.isEmpty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return true;
    }
    // Written atomically: an interrupted export never leaves half a file behind.
    QSaveFile file(outPath);
    if (!file.open(QIODevice::WriteOnly)) {
        printError(QStringLiteral("cannot write %1: %2").arg(outPath, file.errorString()));
        return false;
    }
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit()) {
        printError(QStringLiteral("cannot write %1: %2").arg(outPath, file.errorString()));
        return false;
    }
    return true;
}

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
        printError(QStringLiteral("usage: daemonscope diff daemonset/NAME REV_A REV_B --scenario FILE"));
        return exitTrouble;
    }
    QString format = parser.value(QStringLiteral("format")).toLower();
    if (format == QLatin1String("md"))
        format = QStringLiteral("markdown");
    if (format != QLatin1String("unified") && format != QLatin1String("html") &&
        format != QLatin1String("markdown") && format != QLatin1String("json")) {
        printError(
            QStringLiteral("unknown format \"%1\" (expected unified, html, markdown or json)").arg(format));
        return exitTrouble;
    }
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
            printError(
                QStringLiteral("\"%1\" is not a revision: expected a positive revision number or \"live\"")
                    .arg(positional[i + 1]));
            return exitTrouble;
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
            printError(QString::fromStdString(cluster.error().message));
            return exitTrouble;
        }
        ns = QString::fromStdString(cluster->namespace_);
        source = QString::fromStdString(cluster->client->transport().server());
        auto live = cluster->daemonSetSnapshot(name.toStdString());
        if (!live) {
            if (live.error().code != 404) {
                printError(QString::fromStdString(models::LiveActions::kubectlError(live.error())));
                return exitTrouble;
            }
            snapshot = models::ClusterSnapshot::empty(models::BackendKind::Live);
        } else {
            snapshot = *live;
        }
    } else {
        auto loaded = models::ScenarioLoader::load(scenarioPath);
        if (!loaded) {
            std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
            return exitTrouble;
        }
        models::ClockInfo clock;
        clock.now = loaded->cluster->now();
        snapshot = loaded->builder->build(clock);
    }
    const models::DaemonSetInfo *ds = snapshot->daemonSet(ns + QLatin1Char('/') + name);
    if (!ds) {
        printError(
            QStringLiteral("daemonset \"%1\" not found in namespace \"%2\" of %3").arg(name, ns, source));
        return exitTrouble;
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
            printError(
                QStringLiteral("revision %1 of daemonset \"%2\" not found (revisions: %3)")
                    .arg(revs[i])
                    .arg(name, known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", "))));
            return exitTrouble;
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
    input.ignoreServerNoise = parser.isSet(QStringLiteral("ignore-noise"));
    const diff::TemplateDiff result = diff::TemplateDiff::compute(std::move(input), partsShownBy(format));
    const std::string text = render(result, format);
    if (!writeOutput(text, parser.value(QStringLiteral("output"))))
        return exitTrouble;
    return result.identical() ? exitEqual : exitDifferent;
}

int diffManifests(const QCommandLineParser &parser, const QString &format)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printError(QStringLiteral("expected two manifest files, got %1 arguments (see --help)")
                       .arg(positional.size()));
        return exitTrouble;
    }
    auto oldTemplate = loadTemplate(positional[0]);
    if (!oldTemplate)
        return exitTrouble;
    auto newTemplate = loadTemplate(positional[1]);
    if (!newTemplate)
        return exitTrouble;

    diff::TemplateDiffInput input;
    // The file names label the two sides; the unified diff modifies the pod template named
    // after the old manifest's object ("web.pod-template.yaml"), not either file.
    input.oldName = QFileInfo(positional[0]).fileName().toStdString();
    input.newName = QFileInfo(positional[1]).fileName().toStdString();
    input.patchPath = diff::podTemplatePatchPath(oldTemplate->name);
    input.oldTemplate = std::move(oldTemplate->podTemplate);
    input.newTemplate = std::move(newTemplate->podTemplate);
    input.ignoreServerNoise = parser.isSet(QStringLiteral("ignore-noise"));
    const diff::TemplateDiff result = diff::TemplateDiff::compute(std::move(input), partsShownBy(format));

    const std::string text = render(result, format);
    if (!writeOutput(text, parser.value(QStringLiteral("output"))))
        return exitTrouble;
    return result.identical() ? exitEqual : exitDifferent;
}

} // namespace

int cmdDiff(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compare the pod templates of two manifests (DaemonSet, ControllerRevision, Deployment, "
        "ReplicaSet, StatefulSet or PodTemplate).\nExit status: 0 equal, 1 different, 2 trouble."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("A.yaml"), QStringLiteral("The old manifest."));
    parser.addPositionalArgument(QStringLiteral("B.yaml"), QStringLiteral("The new manifest."));
    parser.addOption({{QStringLiteral("f"), QStringLiteral("format")},
                      QStringLiteral("Output format: unified (default), html, markdown or json."),
                      QStringLiteral("format"),
                      QStringLiteral("unified")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Write to this file (atomically) instead of standard output."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("ignore-noise"),
                      QStringLiteral("Hide fields the API server fills in (defaults, creationTimestamp, "
                                     "controller-revision-hash, ...).")});
    parser.addOption(
        {QStringLiteral("scenario"),
         QStringLiteral("With daemonset/NAME REV_A REV_B: the scenario file holding the revisions."),
         QStringLiteral("file")});
    parser.addOption({{QStringLiteral("n"), QStringLiteral("namespace")},
                      QStringLiteral("With daemonset/NAME: the DaemonSet's namespace."),
                      QStringLiteral("namespace")});
    parser.addOption({QStringLiteral("kubeconfig"),
                      QStringLiteral("With daemonset/NAME and no --scenario: the cluster's kubeconfig file."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("context"),
                      QStringLiteral("With daemonset/NAME and no --scenario: the kubeconfig context."),
                      QStringLiteral("NAME")});
    parser.addOption(ClusterArgs::requestTimeoutOption());

    // QCommandLineParser takes the first element as the program name; "diff" is not a positional.
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args)) {
        printError(parseError(parser));
        return exitTrouble;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("diff"))), stdout);
        return exitEqual;
    }

    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("scenario")) ||
        (!positional.isEmpty() && positional.front().startsWith(QLatin1String("daemonset/"))))
        return diffScenarioRevisions(parser);

    QString format = parser.value(QStringLiteral("format")).toLower();
    if (format == QLatin1String("md"))
        format = QStringLiteral("markdown");
    if (format != QLatin1String("unified") && format != QLatin1String("html") &&
        format != QLatin1String("markdown") && format != QLatin1String("json")) {
        printError(
            QStringLiteral("unknown format \"%1\" (expected unified, html, markdown or json)").arg(format));
        return exitTrouble;
    }
    return diffManifests(parser, format);
}

} // namespace app
