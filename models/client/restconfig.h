#pragma once
// RestConfig — everything needed to talk to one API server, resolved from a kubeconfig context:
// file paths are already read, base64 data decoded, precedence rules applied. It holds secrets
// (token, password, key), so it is never printed or logged.

#include "models/client/execconfig.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace client {

struct RestConfig
{
    std::string server; // scheme://host[:port][/prefix], no trailing slash
    std::string caPem;  // empty: the system's trust store
    std::string clientCertPem;
    std::string clientKeyPem;
    std::string token;
    std::string tokenFile; // where the token came from, if it came from a file
    std::string username;
    std::string password;
    std::string tlsServerName;
    std::string proxyUrl;
    bool insecureSkipTlsVerify = false;
    bool disableCompression = false;
    std::optional<ExecConfig> exec;

    // Impersonation (user `as`, `as-groups`, `as-uid`, `as-user-extra`).
    std::string impersonateUser;
    std::string impersonateUid;
    std::vector<std::string> impersonateGroups;
    std::map<std::string, std::vector<std::string>> impersonateExtra;

    std::string namespace_ = "default";
    std::string contextName;
    std::string clusterName;
    std::string userName;

    // Credentials and TLS settings apply only to https:// servers, as in kubectl.
    bool isTls() const { return server.rfind("https://", 0) == 0; }
};

} // namespace client
