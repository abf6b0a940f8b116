#pragma once
// TlsMaterial — a throw-away certificate authority and a server certificate signed by it, made
// in memory at startup with OpenSSL (ECDSA P-256, SHA-256). The server certificate names
// 127.0.0.1, ::1 and localhost as subject alternative names, which is what Go's TLS stack (and
// so kubectl) verifies. The private keys never leave the process: they are not written to disk
// and not logged; only the CA certificate is handed out (for the kubeconfig).

#include "models/kube/result.h"

#include <string>

namespace server {

class TlsMaterial
{
public:
    static kube::Result<TlsMaterial> generate(const std::string &commonName = "daemonscope");

    const std::string &caCertificatePem() const { return m_caCertPem; }
    const std::string &serverCertificatePem() const { return m_serverCertPem; }
    const std::string &serverKeyPem() const { return m_serverKeyPem; }

    // A random bearer token (64 hex digits from the OpenSSL RNG).
    static kube::Result<std::string> randomToken();
    // Standard base64 (for certificate-authority-data).
    static std::string base64(const std::string &bytes);

private:
    std::string m_caCertPem;
    std::string m_serverCertPem;
    std::string m_serverKeyPem;
};

} // namespace server
