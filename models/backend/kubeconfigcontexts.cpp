#include "models/backend/kubeconfigcontexts.h"

#include "models/client/kubeconfig.h"

namespace models {

KubeconfigContexts KubeconfigContexts::read(const QString &explicitPath)
{
    client::KubeconfigOptions options;
    options.explicitPath = explicitPath.trimmed().toStdString();
    KubeconfigContexts out;
    auto config = client::Kubeconfig::load(options);
    if (!config) {
        out.problem = Problem::Unreadable;
        out.loadError = QString::fromStdString(config.error().message);
        return out;
    }
    for (const auto &[name, ctx] : config->contexts()) {
        const auto cluster = config->clusters().find(ctx.cluster);
        out.contexts.push_back({QString::fromStdString(name), QString::fromStdString(ctx.namespace_),
                                cluster == config->clusters().end()
                                    ? QString()
                                    : QString::fromStdString(cluster->second.server)});
    }
    out.current = QString::fromStdString(config->currentContext());
    if (config->files().empty()) {
        out.problem = Problem::NotFound;
        for (const auto &f : client::Kubeconfig::filesFor(options))
            out.searched << QString::fromStdString(f);
    } else if (out.contexts.empty()) {
        out.problem = Problem::NoContexts;
        out.file = QString::fromStdString(config->files().front());
    }
    return out;
}

} // namespace models
