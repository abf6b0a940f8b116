// daemonscope diff — the pod templates of two manifests (or of two revisions of a DaemonSet, in
// a scenario with --scenario or in a cluster through --kubeconfig/--context) as a unified diff,
// HTML, Markdown or JSON. Exit codes follow diff(1): 0 when
// the templates are equal, 1 when they differ, 2 on bad input or usage. Two manifest files are
// compared here, by the executable alone; revisions are the program module's
// (cmddiffrevisions.cpp).

#include "app/commands.h"
#include "app/diffcommon.h"
#include "app/usage.h"

#include "models/diff/podtemplateof.h"
#include "models/kube/manifest.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <cstdio>
#include <optional>
#include <utility>

namespace app {
namespace {

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
        printDiffError(QString::fromStdString(manifests.error().message));
        return std::nullopt;
    }
    if (manifests->size() != 1) {
        printDiffError(
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
        printDiffError(QStringLiteral("%1:%2:%3: %4")
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

int diffManifests(const QCommandLineParser &parser, const QString &format)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printDiffError(QStringLiteral("expected two manifest files, got %1 arguments (see --help)")
                           .arg(positional.size()));
        return kDiffTrouble;
    }
    auto oldTemplate = loadTemplate(positional[0]);
    if (!oldTemplate)
        return kDiffTrouble;
    auto newTemplate = loadTemplate(positional[1]);
    if (!newTemplate)
        return kDiffTrouble;

    diff::TemplateDiffInput input;
    // The file names label the two sides; the unified diff modifies the pod template named
    // after the old manifest's object ("web.pod-template.yaml"), not either file.
    input.oldName = QFileInfo(positional[0]).fileName().toStdString();
    input.newName = QFileInfo(positional[1]).fileName().toStdString();
    input.patchPath = diff::podTemplatePatchPath(oldTemplate->name);
    input.oldTemplate = std::move(oldTemplate->podTemplate);
    input.newTemplate = std::move(newTemplate->podTemplate);
    return runDiff(std::move(input), format, parser);
}

} // namespace

int cmdDiff(const QStringList &arguments)
{
    QCommandLineParser parser;
    addDiffOptions(parser);
    if (!parseDiffArguments(parser, arguments))
        return kDiffTrouble;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(commandHelp(parser, QStringLiteral("diff"))), stdout);
        return kDiffEqual;
    }
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("scenario")) ||
        (!positional.isEmpty() && positional.front().startsWith(QLatin1String("daemonset/"))))
        return kDiffNeedsModule;
    const auto format = diffFormat(parser);
    if (!format)
        return kDiffTrouble;
    return diffManifests(parser, *format);
}

} // namespace app
