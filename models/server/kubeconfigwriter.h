#pragma once
// KubeconfigWriter — the kubeconfig a client needs for the embedded API server: one cluster,
// one user, one context named "daemonscope" with namespace default. Over HTTPS it carries the
// CA certificate (certificate-authority-data) and the bearer token; over plain HTTP kubectl
// sends no credentials anyway (kube-api.md B.5), so none are written.

#include <string>

namespace server {

class KubeconfigWriter
{
public:
    static std::string render(const std::string &serverUrl, const std::string &caCertificatePem,
                              const std::string &token, const std::string &name = "daemonscope");
};

} // namespace server
