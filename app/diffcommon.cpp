#include "app/diffcommon.h"

#include "app/usage.h"

#include "models/diff/renderers.h"

#include <QSaveFile>

#include <cstdio>

namespace app {

void printDiffError(const QString &message)
{
    std::fprintf(stderr, "daemonscope diff: %s\n", message.toUtf8().constData());
}

void addDiffOptions(QCommandLineParser &parser)
{
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
    parser.addOption(requestTimeoutOption());
}

bool parseDiffArguments(QCommandLineParser &parser, const QStringList &arguments)
{
    // QCommandLineParser takes the first element as the program name; "diff" is not a positional.
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args)) {
        printDiffError(parseError(parser));
        return false;
    }
    return true;
}

std::optional<QString> diffFormat(const QCommandLineParser &parser)
{
    QString format = parser.value(QStringLiteral("format")).toLower();
    if (format == QLatin1String("md"))
        format = QStringLiteral("markdown");
    if (format != QLatin1String("unified") && format != QLatin1String("html") &&
        format != QLatin1String("markdown") && format != QLatin1String("json")) {
        printDiffError(
            QStringLiteral("unknown format \"%1\" (expected unified, html, markdown or json)").arg(format));
        return std::nullopt;
    }
    return format;
}

namespace {

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

std::string renderDiff(const diff::TemplateDiff &result, const QString &format)
{
    if (format == QLatin1String("html"))
        return diff::renderHtml(result);
    if (format == QLatin1String("markdown"))
        return diff::renderMarkdown(result);
    if (format == QLatin1String("json"))
        return diff::renderJson(result);
    return diff::renderUnified(result);
}

// Standard output, or the file written atomically (an interrupted export leaves no half file).
bool writeDiffOutput(const std::string &text, const QString &outPath)
{
    if (outPath.isEmpty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return true;
    }
    QSaveFile file(outPath);
    if (!file.open(QIODevice::WriteOnly)) {
        printDiffError(QStringLiteral("cannot write %1: %2").arg(outPath, file.errorString()));
        return false;
    }
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit()) {
        printDiffError(QStringLiteral("cannot write %1: %2").arg(outPath, file.errorString()));
        return false;
    }
    return true;
}

} // namespace

int runDiff(diff::TemplateDiffInput input, const QString &format, const QCommandLineParser &parser)
{
    input.ignoreServerNoise = parser.isSet(QStringLiteral("ignore-noise"));
    const diff::TemplateDiff result = diff::TemplateDiff::compute(std::move(input), partsShownBy(format));
    if (!writeDiffOutput(renderDiff(result, format), parser.value(QStringLiteral("output"))))
        return kDiffTrouble;
    return result.identical() ? kDiffEqual : kDiffDifferent;
}

} // namespace app
