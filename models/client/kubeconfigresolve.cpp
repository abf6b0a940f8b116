// Kubeconfig::resolve: the chosen context's namespace, cluster and user checked as kubectl checks
// them and turned into a RestConfig, reading the files they name. Loading and merging the
// kubeconfig files is in kubeconfig.cpp.
#include "models/client/kubeconfig.h"

#include "models/client/kubeconfigdetail.h"

#include <string>
#include <tuple>
#include <vector>

namespace client {

using detail::configError;
using detail::readFile;
using detail::shown;
using detail::splitUserInfo;
using kube::Result;

namespace {

// A file path: spaces are common in paths, control characters and great lengths are not.
std::string shownPath(const std::string &s)
{
    bool plain = s.size() <= 256;
    for (unsigned char c : s)
        plain = plain && c >= ' ' && c != 0x7f;
    return plain ? s : "(a path of " + std::to_string(s.size()) + " characters, not shown)";
}

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

bool isDnsLabel(const std::string &s)
{
    if (s.empty() || s.size() > 63)
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    return s.front() != '-' && s.back() != '-';
}

bool containsPem(const std::string &bytes, const char *label)
{
    return bytes.find(std::string("-----BEGIN ") + label) != std::string::npos;
}

std::string joinFiles(const std::vector<std::string> &files)
{
    std::string out;
    for (const auto &f : files)
        out += (out.empty() ? "" : ", ") + f;
    return out;
}

// Where a cluster's field is set (the entry, when the field is not), for a message.
std::string clusterWhere(const Kubeconfig::Cluster &cl, const char *field)
{
    auto it = cl.fields.find(field);
    const Kubeconfig::Location &loc = it != cl.fields.end() ? it->second : cl.where;
    return loc.text() + ": cluster " + shown(cl.name);
}

// Where a user's field is set (the entry, when the field is not), for a message.
std::string userWhere(const Kubeconfig::User &u, const char *field)
{
    auto it = u.fields.find(field);
    const Kubeconfig::Location &loc = it != u.fields.end() ? it->second : u.where;
    return loc.text() + ": user " + shown(u.name);
}

// The cluster's server, TLS settings, proxy and CA into rc.
Result<void> applyCluster(const Kubeconfig::Cluster &cl, RestConfig &rc)
{
    auto clWhere = [&](const char *field) { return clusterWhere(cl, field); };
    if (cl.server.empty())
        return configError(cl.where.text() + ": cluster " + shown(cl.name) + " has no server");
    std::string server = cl.server;
    const auto schemeEnd = server.find("://");
    if (schemeEnd == std::string::npos) {
        server = "https://" + server; // client-go's default for a bare host:port
    } else {
        const std::string scheme = server.substr(0, schemeEnd);
        if (scheme != "https" && scheme != "http")
            return configError(clWhere("server") + ": server URL scheme must be https or http, found " +
                               shown(scheme));
    }
    {
        const auto hostStart = server.find("://") + 3;
        const auto hostEnd = server.find_first_of("/?#", hostStart);
        const std::string host =
            server.substr(hostStart, hostEnd == std::string::npos ? std::string::npos : hostEnd - hostStart);
        if (host.empty() || host.front() == ':')
            return configError(clWhere("server") + ": server URL has no host");
    }
    while (!server.empty() && server.back() == '/')
        server.pop_back();
    rc.server = server;
    rc.tlsServerName = cl.tlsServerName;
    rc.insecureSkipTlsVerify = cl.insecureSkipTlsVerify;
    rc.disableCompression = cl.disableCompression;

    if (!cl.proxyUrl.empty()) {
        // The proxy URL may carry credentials, so only its scheme is ever quoted.
        const auto pe = cl.proxyUrl.find("://");
        const std::string scheme = pe == std::string::npos ? std::string() : cl.proxyUrl.substr(0, pe);
        if (scheme != "http" && scheme != "https" && scheme != "socks5")
            return configError(clWhere("proxy-url") + ": unsupported proxy-url scheme " + shown(scheme) +
                               ", must be http, https, or socks5");
        rc.proxyUrl = cl.proxyUrl;
    }
    const bool hasCaFile = !cl.certificateAuthority.empty();
    const bool hasCaData =
        cl.fields.count("certificate-authority-data") && !cl.certificateAuthorityData.empty();
    if (hasCaFile && hasCaData)
        return configError(
            clWhere("certificate-authority-data") +
            ": certificate-authority-data and certificate-authority are both specified; remove one");
    if (cl.insecureSkipTlsVerify && (hasCaFile || hasCaData))
        return configError(clWhere("insecure-skip-tls-verify") +
                           ": specifying a root certificates file with the insecure flag is not allowed");
    if (hasCaFile) {
        auto ca = readFile(cl.certificateAuthority);
        if (!ca)
            return configError(clWhere("certificate-authority") + ": cannot read certificate-authority " +
                               shownPath(cl.certificateAuthority) + ": " + ca.error().message);
        if (!containsPem(*ca, "CERTIFICATE"))
            return configError(clWhere("certificate-authority") + ": certificate-authority " +
                               shownPath(cl.certificateAuthority) + " contains no PEM certificate");
        rc.caPem = std::move(*ca);
    } else if (hasCaData) {
        if (!containsPem(cl.certificateAuthorityData, "CERTIFICATE"))
            return configError(clWhere("certificate-authority-data") +
                               ": certificate-authority-data does not decode to a PEM certificate");
        rc.caPem = cl.certificateAuthorityData;
    }
    return {};
}

// The client certificate and key, from files or inline data, into rc.
Result<void> applyClientCertificate(const Kubeconfig::User &u, RestConfig &rc)
{
    auto uWhere = [&](const char *field) { return userWhere(u, field); };
    const bool certSet = !u.clientCertificate.empty() || !u.clientCertificateData.empty();
    const bool keySet = !u.clientKey.empty() || !u.clientKeyData.empty();
    if (!u.clientCertificate.empty() && !u.clientCertificateData.empty())
        return configError(uWhere("client-certificate-data") +
                           ": client-certificate-data and client-certificate are both specified; remove one");
    if (!u.clientKey.empty() && !u.clientKeyData.empty())
        return configError(uWhere("client-key-data") +
                           ": client-key-data and client-key are both specified; remove one");
    if (certSet && !keySet)
        return configError(
            uWhere(u.clientCertificate.empty() ? "client-certificate-data" : "client-certificate") +
            ": a client certificate needs client-key or client-key-data");
    if (keySet && !certSet)
        return configError(uWhere(u.clientKey.empty() ? "client-key-data" : "client-key") +
                           ": a client key needs client-certificate or client-certificate-data");
    if (certSet) {
        if (!u.clientCertificate.empty()) {
            auto cert = readFile(u.clientCertificate);
            if (!cert)
                return configError(uWhere("client-certificate") + ": cannot read client-certificate " +
                                   shownPath(u.clientCertificate) + ": " + cert.error().message);
            rc.clientCertPem = std::move(*cert);
        } else {
            rc.clientCertPem = u.clientCertificateData;
        }
        if (!containsPem(rc.clientCertPem, "CERTIFICATE"))
            return configError(
                uWhere(u.clientCertificate.empty() ? "client-certificate-data" : "client-certificate") +
                ": the client certificate is not a PEM certificate");
        if (!u.clientKey.empty()) {
            auto key = readFile(u.clientKey);
            if (!key)
                return configError(uWhere("client-key") + ": cannot read client-key " +
                                   shownPath(u.clientKey) + ": " + key.error().message);
            rc.clientKeyPem = std::move(*key);
        } else {
            rc.clientKeyPem = u.clientKeyData;
        }
        if (!containsPem(rc.clientKeyPem, "PRIVATE KEY"))
            return configError(uWhere(u.clientKey.empty() ? "client-key-data" : "client-key") +
                               ": the client key is not a PEM private key");
    }
    return {};
}

// The user's exec plugin, checked, with what it may be told about the cluster, into rc.exec.
Result<void> applyExec(const Kubeconfig::User &u, const Kubeconfig::Cluster &cl, RestConfig &rc)
{
    auto uWhere = [&](const char *field) { return userWhere(u, field); };
    const Kubeconfig::ExecEntry &e = *u.exec;
    ExecConfig ec;
    if (e.command.empty())
        return configError(uWhere("exec") + ": exec needs a command");
    if (e.apiVersion.empty())
        return configError(uWhere("exec") + ": exec needs an apiVersion (client.authentication.k8s.io/v1)");
    if (e.apiVersion != "client.authentication.k8s.io/v1" &&
        e.apiVersion != "client.authentication.k8s.io/v1beta1")
        return configError(uWhere("exec") + ": exec apiVersion " + shown(e.apiVersion) +
                           " is not supported; use client.authentication.k8s.io/v1 or v1beta1");
    if (e.interactiveMode.empty()) {
        if (e.apiVersion == "client.authentication.k8s.io/v1")
            return configError(uWhere("exec") + ": exec needs interactiveMode (Never, IfAvailable or Always) "
                                                "with client.authentication.k8s.io/v1");
        ec.interactiveMode = InteractiveMode::IfAvailable;
    } else if (e.interactiveMode == "Never") {
        ec.interactiveMode = InteractiveMode::Never;
    } else if (e.interactiveMode == "IfAvailable") {
        ec.interactiveMode = InteractiveMode::IfAvailable;
    } else if (e.interactiveMode == "Always") {
        ec.interactiveMode = InteractiveMode::Always;
    } else {
        return configError(uWhere("exec") + ": invalid exec interactiveMode " + shown(e.interactiveMode) +
                           "; use Never, IfAvailable or Always");
    }
    ec.apiVersion = e.apiVersion;
    ec.command = e.command;
    ec.args = e.args;
    ec.env = e.env;
    ec.installHint = e.installHint;
    ec.provideClusterInfo = e.provideClusterInfo;
    ec.server = rc.server;
    ec.caPem = rc.caPem;
    ec.tlsServerName = rc.tlsServerName;
    ec.proxyUrl = rc.proxyUrl;
    ec.insecureSkipTlsVerify = rc.insecureSkipTlsVerify;
    ec.disableCompression = rc.disableCompression;
    ec.clusterConfig = cl.execExtension;
    ec.userName = u.name;
    ec.sourceFile = u.where.file;
    rc.exec = std::move(ec);
    return {};
}

// The user's credentials and impersonation into rc (cl is for its exec plugin).
Result<void> applyUser(const Kubeconfig::User &u, const Kubeconfig::Cluster &cl, RestConfig &rc)
{
    auto uWhere = [&](const char *field) { return userWhere(u, field); };
    if (!u.authProvider.empty() && u.exec)
        return configError(uWhere("auth-provider") +
                           ": auth-provider cannot be provided in combination with an exec plugin");
    if (!u.authProvider.empty())
        return configError(uWhere("auth-provider") + ": unsupported auth-provider " + shown(u.authProvider) +
                           "; use an exec credential plugin (client.authentication.k8s.io) instead, e.g. "
                           "kubelogin or gke-gcloud-auth-plugin");

    std::vector<std::string> methods;
    if (!u.token.empty())
        methods.push_back("token");
    if (!u.username.empty() || !u.password.empty())
        methods.push_back("basicAuth");
    if (methods.size() > 1)
        return configError(uWhere("token") + ": more than one authentication method found (token and "
                                             "username/password); only one is allowed");

    if (auto r = applyClientCertificate(u, rc); !r)
        return r.error();

    // `token` wins over `tokenFile`; the file's surrounding whitespace is stripped.
    if (!u.token.empty()) {
        rc.token = u.token;
    } else if (!u.tokenFile.empty()) {
        auto tok = readFile(u.tokenFile);
        if (!tok)
            return configError(uWhere("tokenFile") + ": cannot read tokenFile " + shownPath(u.tokenFile) +
                               ": " + tok.error().message);
        rc.token = trimmed(*tok);
        rc.tokenFile = u.tokenFile;
        if (rc.token.empty())
            return configError(uWhere("tokenFile") + ": tokenFile " + shownPath(u.tokenFile) + " is empty");
    }
    rc.username = u.username;
    rc.password = u.password;

    if ((!u.impersonateUid.empty() || !u.impersonateGroups.empty() || !u.impersonateExtra.empty()) &&
        u.impersonate.empty())
        return configError(uWhere("as-uid") +
                           ": requesting uid, groups or user-extra without impersonating a "
                           "user (set as)");
    rc.impersonateUser = u.impersonate;
    rc.impersonateUid = u.impersonateUid;
    rc.impersonateGroups = u.impersonateGroups;
    rc.impersonateExtra = u.impersonateExtra;

    if (u.exec) {
        if (auto r = applyExec(u, cl, rc); !r)
            return r.error();
    }
    return {};
}

} // namespace

Result<RestConfig> Kubeconfig::resolve(const std::string &contextOverride,
                                       const std::string &namespaceOverride) const
{
    auto rc = resolveContext(contextOverride, namespaceOverride);
    if (!rc)
        return redacted(rc.error());
    return rc;
}

Result<RestConfig> Kubeconfig::resolveContext(const std::string &contextOverride,
                                              const std::string &namespaceOverride) const
{
    const std::string files =
        m_files.empty() ? std::string("(no kubeconfig file found)") : joinFiles(m_files);
    const std::string contextName = contextOverride.empty() ? m_currentContext : contextOverride;
    if (contextName.empty()) {
        if (m_files.empty())
            return configError(
                "no kubeconfig file found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config");
        return configError("no current-context is set in " + files + "; choose a context with --context");
    }
    const auto ctxIt = m_contexts.find(contextName);
    if (ctxIt == m_contexts.end()) {
        if (contextOverride.empty())
            return configError("current-context " + shown(contextName) + " (set in " + m_currentContextFile +
                               ") does not exist in " + files);
        return configError("context " + shown(contextName) + " does not exist in " + files);
    }
    const Context &ctx = ctxIt->second;
    const std::string ctxWhere = "context " + shown(ctx.name) + " (" + ctx.where.text() + ")";

    RestConfig rc;
    rc.contextName = ctx.name;
    rc.clusterName = ctx.cluster;
    rc.userName = ctx.user;

    // Namespace: --namespace, else the context's, else "default".
    rc.namespace_ = !namespaceOverride.empty() ? namespaceOverride
                                               : (ctx.namespace_.empty() ? "default" : ctx.namespace_);
    if (!isDnsLabel(rc.namespace_)) {
        if (!namespaceOverride.empty())
            return configError("namespace " + shown(rc.namespace_) + " is not a valid DNS label");
        return configError(ctxWhere + ": namespace " + shown(rc.namespace_) +
                           " does not conform to the kubernetes DNS_LABEL rules");
    }

    // Cluster.
    if (ctx.cluster.empty())
        return configError(ctxWhere + " names no cluster");
    const auto clIt = m_clusters.find(ctx.cluster);
    if (clIt == m_clusters.end())
        return configError(ctxWhere + " names cluster " + shown(ctx.cluster) + ", which is not defined in " +
                           files);
    const Cluster &cl = clIt->second;
    if (auto r = applyCluster(cl, rc); !r)
        return r.error();

    // User: a context without a user is anonymous; a named user must exist.
    if (!ctx.user.empty()) {
        const auto uIt = m_users.find(ctx.user);
        if (uIt == m_users.end())
            return configError(ctxWhere + " names user " + shown(ctx.user) + ", which is not defined in " +
                               files);
        if (auto r = applyUser(uIt->second, cl, rc); !r)
            return r.error();
    }
    // Credentials in the server URL are basic auth, as Go's HTTP client sends them, when the
    // user has none of its own.
    if (!cl.serverUserInfo.empty() && rc.token.empty() && rc.username.empty() && rc.password.empty() &&
        !rc.exec)
        std::tie(rc.username, rc.password) = splitUserInfo(cl.serverUserInfo);
    return rc;
}

} // namespace client
