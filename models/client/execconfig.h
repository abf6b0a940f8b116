#pragma once
// ExecConfig — a kubeconfig user's `exec` credential plugin (client.authentication.k8s.io/v1 or
// v1beta1), resolved: the command is absolute when the kubeconfig gave a path, otherwise it is
// looked up in PATH when run.

#include "models/kube/gojson.h"

#include <string>
#include <utility>
#include <vector>

namespace client {

enum class InteractiveMode { Never, IfAvailable, Always };

struct ExecConfig
{
    std::string apiVersion; // client.authentication.k8s.io/v1 or .../v1beta1
    std::string command;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env; // added to the inherited environment
    std::string installHint;
    bool provideClusterInfo = false;
    InteractiveMode interactiveMode = InteractiveMode::IfAvailable;

    // Cluster information for KUBERNETES_EXEC_INFO (only sent with provideClusterInfo).
    std::string server;
    std::string caPem;
    std::string tlsServerName;
    std::string proxyUrl;
    bool insecureSkipTlsVerify = false;
    bool disableCompression = false;
    kube::Json clusterConfig; // the cluster extension named client.authentication.k8s.io/exec

    std::string userName;   // kubeconfig user that defined the plugin, for messages
    std::string sourceFile; // kubeconfig file that defined the user, for messages

    bool operator==(const ExecConfig &) const = default;
};

} // namespace client
