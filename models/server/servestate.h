#pragma once
// ServeState — what `serve --tls` keeps between runs in its state folder, so a restarted
// server is still trusted by the kubeconfigs written for it: the CA certificate, the server
// certificate and key (ca.crt, server.crt, server.key) and the bearer token (token).
//
// The folder is created 0700 (an existing one is narrowed to 0700), every file is written
// atomically with mode 0600. Material that is missing, unreadable or no longer valid
// (TlsMaterial::fromPem) is made anew and saved; a token that is not 64 hex digits likewise.

#include "models/kube/result.h"
#include "models/server/tlsmaterial.h"

#include <string>

namespace server {

class ServeState
{
public:
    static kube::Result<ServeState> open(const std::string &dir);

    const TlsMaterial &tls() const { return m_tls; }
    const std::string &token() const { return m_token; }
    bool reusedTls() const { return m_reusedTls; }
    bool reusedToken() const { return m_reusedToken; }

private:
    TlsMaterial m_tls;
    std::string m_token;
    bool m_reusedTls = false;
    bool m_reusedToken = false;
};

} // namespace server
