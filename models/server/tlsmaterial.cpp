#include "models/server/tlsmaterial.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <vector>

namespace server {

namespace {

using kube::ApiStatus;

struct Free
{
    void operator()(EVP_PKEY *p) const { EVP_PKEY_free(p); }
    void operator()(X509 *p) const { X509_free(p); }
    void operator()(BIO *p) const { BIO_free(p); }
    void operator()(BIGNUM *p) const { BN_free(p); }
    void operator()(X509_EXTENSION *p) const { X509_EXTENSION_free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Free>;
using Cert = std::unique_ptr<X509, Free>;

std::string opensslError(const std::string &what)
{
    const unsigned long code = ERR_get_error();
    char buf[256] = {};
    if (code)
        ERR_error_string_n(code, buf, sizeof buf);
    ERR_clear_error();
    return "TLS setup: " + what + (code ? std::string(": ") + buf : std::string());
}

Key newKey()
{
    return Key(EVP_EC_gen("P-256"));
}

bool addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    std::unique_ptr<X509_EXTENSION, Free> ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
    return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

// A certificate for key, named cn, signed by issuerKey (issuer null: self-signed).
Cert newCertificate(EVP_PKEY *key, const std::string &cn, X509 *issuer, EVP_PKEY *issuerKey, bool ca)
{
    Cert cert(X509_new());
    if (!cert)
        return nullptr;
    std::unique_ptr<BIGNUM, Free> serial(BN_new());
    if (!serial || BN_rand(serial.get(), 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())))
        return nullptr;
    X509_set_version(cert.get(), 2);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 60L * 60 * 24 * 365);
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("Daemonscope"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(cn.c_str()),
                               -1, -1, 0);
    X509 *issuerCert = issuer ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(issuerCert));
    bool ok = true;
    if (ca) {
        ok = ok && addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:TRUE");
        ok = ok && addExtension(cert.get(), issuerCert, NID_key_usage,
                                "critical,keyCertSign,cRLSign,digitalSignature");
        ok = ok && addExtension(cert.get(), issuerCert, NID_subject_key_identifier, "hash");
    } else {
        ok = ok && addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:FALSE");
        ok = ok &&
             addExtension(cert.get(), issuerCert, NID_key_usage, "critical,digitalSignature,keyEncipherment");
        ok = ok && addExtension(cert.get(), issuerCert, NID_ext_key_usage, "serverAuth");
        ok = ok && addExtension(cert.get(), issuerCert, NID_subject_alt_name,
                                "DNS:localhost,IP:127.0.0.1,IP:0:0:0:0:0:0:0:1");
        ok = ok && addExtension(cert.get(), issuerCert, NID_authority_key_identifier, "keyid:always");
    }
    if (!ok || X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0)
        return nullptr;
    return cert;
}

std::string bioText(BIO *bio)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

std::string certPem(X509 *cert)
{
    std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return {};
    return bioText(bio.get());
}

std::string keyPem(EVP_PKEY *key)
{
    std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return bioText(bio.get());
}

} // namespace

kube::Result<TlsMaterial> TlsMaterial::generate(const std::string &commonName)
{
    Key caKey = newKey();
    Key serverKey = newKey();
    if (!caKey || !serverKey)
        return ApiStatus::internal(opensslError("generating keys"));
    Cert ca = newCertificate(caKey.get(), commonName + "-ca", nullptr, nullptr, true);
    if (!ca)
        return ApiStatus::internal(opensslError("creating the CA certificate"));
    Cert cert = newCertificate(serverKey.get(), commonName + "-apiserver", ca.get(), caKey.get(), false);
    if (!cert)
        return ApiStatus::internal(opensslError("creating the server certificate"));
    TlsMaterial m;
    m.m_caCertPem = certPem(ca.get());
    m.m_serverCertPem = certPem(cert.get());
    m.m_serverKeyPem = keyPem(serverKey.get());
    if (m.m_caCertPem.empty() || m.m_serverCertPem.empty() || m.m_serverKeyPem.empty())
        return ApiStatus::internal(opensslError("encoding PEM"));
    return m;
}

kube::Result<TlsMaterial> TlsMaterial::fromPem(const std::string &caCertPem, const std::string &serverCertPem,
                                               const std::string &serverKeyPem)
{
    auto readCert = [](const std::string &pem) {
        std::unique_ptr<BIO, Free> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
        return Cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    };
    Cert ca = readCert(caCertPem);
    Cert cert = readCert(serverCertPem);
    std::unique_ptr<BIO, Free> keyBio(
        BIO_new_mem_buf(serverKeyPem.data(), static_cast<int>(serverKeyPem.size())));
    Key key(keyBio ? PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr) : nullptr);
    ERR_clear_error();
    if (!ca || !cert || !key)
        return ApiStatus::badRequest("TLS material: a certificate or the key is not valid PEM");
    if (X509_check_private_key(cert.get(), key.get()) != 1) {
        ERR_clear_error();
        return ApiStatus::badRequest("TLS material: the key does not belong to the server certificate");
    }
    EVP_PKEY *caKey = X509_get0_pubkey(ca.get());
    if (!caKey || X509_verify(cert.get(), caKey) != 1) {
        ERR_clear_error();
        return ApiStatus::badRequest("TLS material: the server certificate is not signed by the CA");
    }
    // Valid for at least another day, so a server started now does not expire under its clients.
    const time_t soon = time(nullptr) + 24 * 3600;
    for (X509 *c : {ca.get(), cert.get()}) {
        if (X509_cmp_time(X509_get0_notAfter(c), const_cast<time_t *>(&soon)) <= 0 ||
            X509_cmp_current_time(X509_get0_notBefore(c)) >= 0)
            return ApiStatus::badRequest("TLS material: a certificate has expired or is not valid yet");
    }
    TlsMaterial m;
    m.m_caCertPem = caCertPem;
    m.m_serverCertPem = serverCertPem;
    m.m_serverKeyPem = serverKeyPem;
    return m;
}

kube::Result<std::string> TlsMaterial::randomToken()
{
    unsigned char bytes[32];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return ApiStatus::internal(opensslError("generating a token"));
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char b : bytes) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

std::string TlsMaterial::base64(const std::string &bytes)
{
    std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
    const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char *>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    return std::string(reinterpret_cast<const char *>(out.data()), static_cast<std::size_t>(std::max(0, n)));
}

} // namespace server
