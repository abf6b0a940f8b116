#pragma once
// TlsMaterial — a throw-away certificate authority and a server certificate signed by it, made
// in memory at startup with OpenSSL (ECDSA P-256, SHA-256). The server certificate names
// 127.0.0.1, ::1 and localhost as subject alternative names, which is what Go's TLS stack (and
// so kubectl) verifies. The private keys are never logged; only the CA certificate is handed
// out (for the kubeconfig). The CA's key is thrown away once it signed the server certificate;
// ServeState keeps the server's key, in a file only its owner can read, to reuse on restart.

#include "models/kube/result.h"

#include <string>

namespace server {

class TlsMaterial
{
public:
    static kube::Result<TlsMaterial> generate(const std::string &commonName = "daemonscope");
    // Material made earlier (ServeState): refused unless the key belongs to the server
    // certificate, the CA signed it and both stay valid for at least another day.
    static kube::Result<TlsMaterial> fromPem(const std::string &caCertPem, const std::string &serverCertPem,
                                             const std::string &serverKeyPem);

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
