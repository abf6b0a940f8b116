#include "models/planners/managedby.h"

#include <QCoreApplication>

#include <algorithm>

namespace models {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("models::ManagedBy", text);
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

// Managers that are kubectl's own (kubectl, kubectl-client-side-apply, kubectl-edit, kubectl-set
// ...) or this console's: their writes are the ones being made now, not a tool that reverts them.
bool isOwnManager(const std::string &manager)
{
    return manager == "kubectl" || startsWith(manager, "kubectl-") || manager == "daemonscope";
}

ManagedBy::Tool toolOfManager(const std::string &manager)
{
    if (manager == "helm")
        return ManagedBy::Tool::Helm;
    if (startsWith(manager, "argocd"))
        return ManagedBy::Tool::ArgoCD;
    if (manager == "kustomize-controller" || manager == "helm-controller")
        return ManagedBy::Tool::Flux;
    return ManagedBy::Tool::FieldManager;
}

QString toolName(ManagedBy::Tool tool)
{
    switch (tool) {
    case ManagedBy::Tool::KubectlApply:
        return QStringLiteral("kubectl apply");
    case ManagedBy::Tool::Helm:
        return QStringLiteral("Helm");
    case ManagedBy::Tool::ArgoCD:
        return QStringLiteral("Argo CD");
    case ManagedBy::Tool::Flux:
        return QStringLiteral("Flux");
    case ManagedBy::Tool::FieldManager:
        break;
    }
    return {};
}

QString changeNoun(ManagedChange change)
{
    switch (change) {
    case ManagedChange::SetImage:
        return tr("image change");
    case ManagedChange::Restart:
        return tr("restart");
    case ManagedChange::Strategy:
        return tr("strategy edit");
    case ManagedChange::Rollback:
        return tr("rollback");
    case ManagedChange::Pause:
        return tr("pause");
    }
    return {};
}

} // namespace

std::vector<ManagedBy> detectManagedBy(const kube::ObjectMeta &meta)
{
    std::vector<ManagedBy> out;
    auto add = [&](ManagedBy::Tool tool, const QString &name, const QString &evidence) {
        const bool known = tool != ManagedBy::Tool::FieldManager;
        const auto same = std::find_if(out.begin(), out.end(), [&](const ManagedBy &m) {
            return known ? m.tool == tool : m.name == name;
        });
        if (same == out.end())
            out.push_back(ManagedBy{tool, name, evidence});
    };
    const auto label = [&](const char *key) { return meta.label(key); };
    const auto annotation = [&](const char *key) { return meta.annotation(key); };

    if (meta.annotations.count("kubectl.kubernetes.io/last-applied-configuration"))
        add(ManagedBy::Tool::KubectlApply, toolName(ManagedBy::Tool::KubectlApply),
            tr("annotation kubectl.kubernetes.io/last-applied-configuration"));

    const std::string release = annotation("meta.helm.sh/release-name");
    if (!release.empty()) {
        const std::string ns = annotation("meta.helm.sh/release-namespace");
        add(ManagedBy::Tool::Helm, toolName(ManagedBy::Tool::Helm),
            tr("release %1").arg(q(ns.empty() ? release : ns + "/" + release)));
    } else if (label("app.kubernetes.io/managed-by") == "Helm") {
        add(ManagedBy::Tool::Helm, toolName(ManagedBy::Tool::Helm),
            tr("label app.kubernetes.io/managed-by=Helm"));
    }

    const std::string trackingId = annotation("argocd.argoproj.io/tracking-id");
    if (!trackingId.empty()) {
        const std::string app = trackingId.substr(0, trackingId.find(':'));
        add(ManagedBy::Tool::ArgoCD, toolName(ManagedBy::Tool::ArgoCD), tr("application %1").arg(q(app)));
    } else {
        for (const auto &[key, value] : meta.annotations)
            if (startsWith(key, "argocd.argoproj.io/")) {
                add(ManagedBy::Tool::ArgoCD, toolName(ManagedBy::Tool::ArgoCD),
                    tr("annotation %1").arg(q(key)));
                break;
            }
    }

    for (const char *key : {"kustomize.toolkit.fluxcd.io/name", "helm.toolkit.fluxcd.io/name"}) {
        const std::string name = label(key);
        if (name.empty())
            continue;
        const std::string kind = startsWith(key, "kustomize") ? "Kustomization" : "HelmRelease";
        const std::string nsKey = std::string(key, std::string(key).size() - 4) + "namespace";
        const std::string ns = meta.label(nsKey);
        add(ManagedBy::Tool::Flux, toolName(ManagedBy::Tool::Flux),
            tr("%1 %2").arg(q(kind), q(ns.empty() ? name : ns + "/" + name)));
        break;
    }

    // managedFields: the writers of the object itself, not of its status alone.
    std::vector<std::string> others;
    if (meta.extra.is_object()) {
        const auto fields = meta.extra.find("managedFields");
        if (fields != meta.extra.end() && fields->is_array()) {
            for (const kube::Json &entry : *fields) {
                if (!entry.is_object())
                    continue;
                const auto manager = entry.find("manager");
                if (manager == entry.end() || !manager->is_string())
                    continue;
                const auto sub = entry.find("subresource");
                if (sub != entry.end() && sub->is_string() && !sub->get_ref<const std::string &>().empty())
                    continue;
                const std::string &name = manager->get_ref<const std::string &>();
                if (name.empty() || isOwnManager(name))
                    continue;
                const ManagedBy::Tool tool = toolOfManager(name);
                if (tool == ManagedBy::Tool::FieldManager)
                    others.push_back(name);
                else
                    add(tool, toolName(tool), tr("field manager \"%1\"").arg(q(name)));
            }
        }
    }
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    for (const std::string &name : others)
        add(ManagedBy::Tool::FieldManager, q(name), tr("metadata.managedFields"));
    // Known tools first, in their fixed order; then the other managers by name.
    std::stable_sort(out.begin(), out.end(),
                     [](const ManagedBy &a, const ManagedBy &b) { return a.tool < b.tool; });
    return out;
}

std::shared_ptr<const std::vector<ManagedBy>>
managedByOf(const kube::ObjectMeta &meta, const std::shared_ptr<const std::vector<ManagedBy>> &previous)
{
    std::vector<ManagedBy> found = detectManagedBy(meta);
    if (found.empty())
        return noManagers();
    if (previous && *previous == found)
        return previous;
    return std::make_shared<const std::vector<ManagedBy>>(std::move(found));
}

QStringList managedByWarnings(const DaemonSetInfo &ds, ManagedChange change)
{
    QStringList out;
    if (!ds.managedBy)
        return out;
    const QString what = changeNoun(change);
    for (const ManagedBy &m : *ds.managedBy) {
        switch (m.tool) {
        case ManagedBy::Tool::KubectlApply:
            out << tr("Managed by kubectl apply (%1): the next kubectl apply of its manifest reverts this "
                      "%2.")
                       .arg(m.evidence, what);
            break;
        case ManagedBy::Tool::Helm:
            out << tr("Managed by Helm (%1): the next helm upgrade reverts this %2.").arg(m.evidence, what);
            break;
        case ManagedBy::Tool::ArgoCD:
            out << tr("Managed by Argo CD (%1): its next sync reverts this %2, at once when self-heal is on.")
                       .arg(m.evidence, what);
            break;
        case ManagedBy::Tool::Flux:
            out << tr("Managed by Flux (%1): its next reconciliation reverts this %2.").arg(m.evidence, what);
            break;
        case ManagedBy::Tool::FieldManager:
            out << tr("Also written by the field manager \"%1\" (%2): it may revert this %3.")
                       .arg(m.name, m.evidence, what);
            break;
        }
    }
    return out;
}

} // namespace models
