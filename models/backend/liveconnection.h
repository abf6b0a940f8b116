#pragma once
// LiveConnection — a client for one kubeconfig context, for one-shot work off the GUI (the
// headless commands): the kubeconfig loaded and resolved as kubectl does (an explicit file
// alone, else KUBECONFIG, else ~/.kube/config; --context; -n over the context's namespace).

#include "models/snapshot/snapshot.h"

#include "models/client/kubeclient.h"
#include "models/kube/result.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace models {

struct LiveConnection
{
    std::shared_ptr<client::KubeClient> client;
    std::string namespace_; // -n, else the context's, else "default"

    // Errors name the file and context, never a credential.
    // `requestTimeout` is kubectl's --request-timeout (nullopt: the transport's 60 s; 0: none).
    static kube::Result<LiveConnection> open(const std::string &kubeconfig, const std::string &context,
                                             const std::string &namespace_,
                                             std::optional<std::chrono::milliseconds> requestTimeout = {});

    // A snapshot of one DaemonSet read with kubectl's calls (GET it, LIST its revisions by its
    // selector, LIST its pods by its selector), for what renders snapshots (diff, export). The
    // error is the API's (404 when the DaemonSet does not exist).
    kube::Result<SnapshotPtr> daemonSetSnapshot(const std::string &name) const;
};

} // namespace models
