#pragma once
// Kubeconfig — kubeconfig files loaded and merged the way kubectl does it, and resolved into a
// RestConfig for one context.
//
// Loading: an explicit file (--kubeconfig) is used alone and must exist; otherwise the files in
// KUBECONFIG (':'-separated; empty entries, duplicates and missing files skipped); otherwise
// $HOME/.kube/config. Merging: the first file that defines a cluster, user or context name wins
// the whole entry; the first non-empty current-context wins. Relative paths are resolved
// against the directory of the file that defined the entry.
//
// Type errors (a list where a string belongs, bad base64 in *-data) fail the load, naming the
// file, line:column and field, as kubectl refuses to decode such a file. Semantic checks (no
// server, unreadable files, conflicting auth methods) apply only to the context being resolved,
// as in kubectl. No message ever contains a secret value: values from the file are quoted only
// when they look like a name, and every message is scrubbed of every credential the files hold
// (tokens, passwords, key data, exec environment values, URL userinfo), read from the text
// itself so that a value an open quote swallowed is known too.

#include "models/client/restconfig.h"
#include "models/kube/result.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace client {

struct KubeconfigOptions
{
    std::string explicitPath;                 // --kubeconfig
    std::optional<std::string> kubeconfigEnv; // KUBECONFIG; nullopt: read from the environment
    std::optional<std::string> home;          // $HOME; nullopt: read from the environment
    std::string context;                      // --context
    std::string namespace_;                   // --namespace
};

class Kubeconfig
{
public:
    struct Location
    {
        std::string file;
        int line = 0; // 1-based; 0 when unknown
        int column = 0;
        std::string text() const; // file:line:column
    };

    struct Cluster
    {
        std::string name;
        std::string server;               // without "user:password@", which goes to serverUserInfo
        std::string serverUserInfo;       // basic auth credentials written into the URL; never shown
        std::string certificateAuthority; // absolute path
        std::string certificateAuthorityData;
        bool insecureSkipTlsVerify = false;
        std::string tlsServerName;
        std::string proxyUrl;
        bool disableCompression = false;
        kube::Json execExtension; // extension named client.authentication.k8s.io/exec
        Location where;           // the entry
        std::map<std::string, Location> fields;
    };

    struct ExecEntry
    {
        std::string apiVersion;
        std::string command;
        std::vector<std::string> args;
        std::vector<std::pair<std::string, std::string>> env;
        std::string installHint;
        bool provideClusterInfo = false;
        std::string interactiveMode;
    };

    struct User
    {
        std::string name;
        std::string clientCertificate; // absolute path
        std::string clientCertificateData;
        std::string clientKey; // absolute path
        std::string clientKeyData;
        std::string token;
        std::string tokenFile; // absolute path
        std::string username;
        std::string password;
        std::string impersonate;
        std::string impersonateUid;
        std::vector<std::string> impersonateGroups;
        std::map<std::string, std::vector<std::string>> impersonateExtra;
        std::optional<ExecEntry> exec;
        std::string authProvider; // name of an auth-provider, which is unsupported
        Location where;
        std::map<std::string, Location> fields;
    };

    struct Context
    {
        std::string name;
        std::string cluster;
        std::string user;
        std::string namespace_;
        Location where;
    };

    // Chooses the files (explicit, KUBECONFIG, ~/.kube/config) and merges them.
    static kube::Result<Kubeconfig> load(const KubeconfigOptions &options = {});
    // Merges the given files in order; missing files are skipped unless `mustExist`.
    static kube::Result<Kubeconfig> loadFiles(const std::vector<std::string> &files, bool mustExist = false);
    // The file list kubectl would read for these options (before existence checks).
    static std::vector<std::string> filesFor(const KubeconfigOptions &options);

    // Resolves a context: `context` overrides current-context, `namespaceOverride` the context's
    // namespace. Reads referenced files and validates what the context uses.
    kube::Result<RestConfig> resolve(const std::string &context = {},
                                     const std::string &namespaceOverride = {}) const;
    kube::Result<RestConfig> resolve(const KubeconfigOptions &options) const
    {
        return resolve(options.context, options.namespace_);
    }

    const std::string &currentContext() const { return m_currentContext; }
    const std::map<std::string, Context> &contexts() const { return m_contexts; }
    const std::map<std::string, Cluster> &clusters() const { return m_clusters; }
    const std::map<std::string, User> &users() const { return m_users; }
    const std::vector<std::string> &files() const { return m_files; } // files actually read

private:
    kube::Result<void> mergeFile(const std::string &path);
    kube::Result<RestConfig> resolveContext(const std::string &context,
                                            const std::string &namespaceOverride) const;
    kube::ApiStatus redacted(kube::ApiStatus status, const RestConfig *resolved = nullptr) const;

    std::vector<std::string> m_secrets; // what no message may contain

    std::vector<std::string> m_files;
    std::string m_currentContext;
    std::string m_currentContextFile;
    std::map<std::string, Cluster> m_clusters;
    std::map<std::string, User> m_users;
    std::map<std::string, Context> m_contexts;
};

} // namespace client
