#include "models/backend/liveconnection.h"

#include "models/backend/liveactions.h"
#include "models/snapshot/livesnapshotbuilder.h"

#include "models/client/httptransport.h"
#include "models/client/kubeconfig.h"

#include <QDateTime>

namespace models {

kube::Result<LiveConnection> LiveConnection::open(const std::string &kubeconfig, const std::string &context,
                                                  const std::string &namespace_,
                                                  std::optional<std::chrono::milliseconds> requestTimeout)
{
    client::KubeconfigOptions options;
    options.explicitPath = kubeconfig;
    options.context = context;
    options.namespace_ = namespace_;
    auto config = client::Kubeconfig::load(options);
    if (!config)
        return config.error();
    auto rest = config->resolve(options);
    if (!rest)
        return rest.error();
    LiveConnection c;
    c.namespace_ = rest->namespace_.empty() ? std::string("default") : rest->namespace_;
    client::HttpTransportOptions transportOptions;
    transportOptions.requestTimeout = requestTimeout;
    c.client = std::make_shared<client::KubeClient>(
        std::make_shared<client::HttpTransport>(*rest, transportOptions), c.namespace_);
    return c;
}

kube::Result<SnapshotPtr> LiveConnection::daemonSetSnapshot(const std::string &name) const
{
    LiveActions actions(*client);
    auto history = actions.history(namespace_, name);
    if (!history)
        return history.error();
    const kube::Timestamp now = QDateTime::currentMSecsSinceEpoch();
    LiveSnapshotBuilder builder;
    builder.daemonSetChanged(history->daemonSet, false, now);
    const std::string key = history->daemonSet.metadata.key();
    for (const auto &cr : history->revisions)
        builder.revisionChanged(key, cr, false);
    if (auto selector = history->daemonSet.selector()) {
        client::ListOptions lo;
        lo.labelSelector = selector->toQueryString();
        auto pods = client->list<kube::Pod>(namespace_, lo);
        if (!pods)
            return pods.error();
        for (const auto &p : pods->items)
            builder.podChanged(key, p, false, false, now);
    }
    BackendInfo info;
    info.kind = BackendKind::Live;
    info.connected = true;
    info.name = QString::fromStdString(client->transport().server());
    builder.setBackendInfo(info);
    ClockInfo clock;
    clock.now = now;
    return builder.build(clock);
}

} // namespace models
