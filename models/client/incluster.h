#pragma once
// In-cluster configuration — what a pod uses to reach its own API server, as client-go's
// rest.InClusterConfig reads it: the service host and port from KUBERNETES_SERVICE_HOST and
// KUBERNETES_SERVICE_PORT, the service account's token, CA bundle and namespace from the files
// mounted at /var/run/secrets/kubernetes.io/serviceaccount. Errors name the variable or the
// file, never a credential.

#include "models/client/restconfig.h"
#include "models/kube/result.h"

#include <functional>
#include <optional>
#include <string>

namespace client {

struct InClusterSource
{
    std::string secretsDir = "/var/run/secrets/kubernetes.io/serviceaccount";
    // Reads an environment variable (nullopt when unset); the process environment by default.
    std::function<std::optional<std::string>(const char *)> env;
};

kube::Result<RestConfig> inClusterConfig(const InClusterSource &source = {});

} // namespace client
