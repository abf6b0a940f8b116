#pragma once
// HttpTransport — the libcurl Transport for a resolved RestConfig.
//
// TLS is verified by default: against the kubeconfig's CA alone when it has one (passed as an
// in-memory blob, the system store is not consulted), otherwise against the system store.
// Client certificates, bearer tokens (static, from a file, or from an exec plugin) and basic
// auth are sent only to https:// servers, as kubectl does. `tls-server-name` is implemented
// by addressing the URL to that name and pinning the connection to the real host with
// CURLOPT_CONNECT_TO, so SNI and certificate verification use the name while the TCP
// connection goes to the configured server; the Host header keeps the real server's host.
//
// Thread-safe: concurrent requests use separate curl handles from a small pool, which keeps
// connections alive between calls. HTTP/2 is negotiated over TLS where the server offers it.
//
// Cancellation: each transfer runs in a multi handle of its own and waits in curl_multi_poll,
// which interrupt() wakes (curl_multi_wakeup) for the transfers watching the given flag; a woken
// transfer that finds its flag set is removed at once, its connection closed. So a stop does not
// wait for libcurl's once-a-second progress check of an idle watch.

#include "models/client/execcredentialprovider.h"
#include "models/client/restconfig.h"
#include "models/client/transport.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace client {

struct HttpTransportOptions
{
    std::string userAgent; // empty: daemonscope/<version>
    std::chrono::milliseconds execTimeout = std::chrono::seconds(60);
    // kubectl's --request-timeout: when set, replaces the total timeout of every request that
    // has one (watches have none and keep their idle timeout); 0 means no limit.
    std::optional<std::chrono::milliseconds> requestTimeout;
    std::optional<bool> terminalAvailable; // for interactive exec plugins; nullopt: isatty(stdin)
    ExecCredentialProvider::Clock clock;   // for exec credential expiry; empty: system clock
};

class HttpTransport : public Transport
{
public:
    explicit HttpTransport(RestConfig config, HttpTransportOptions options = {});
    ~HttpTransport() override;
    HttpTransport(const HttpTransport &) = delete;
    HttpTransport &operator=(const HttpTransport &) = delete;

    kube::Result<HttpResponse> request(const std::string &method, const std::string &path, const Query &query,
                                       const std::string &body, const std::string &contentType,
                                       const std::string &accept,
                                       const RequestOptions &options = {}) override;
    kube::Result<void> watch(const std::string &path, const Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel, const RequestOptions &options = {}) override;
    void interrupt(const std::atomic<bool> &cancel) override;
    std::string server() const override { return redactedUrl(m_config.server); }

    const RestConfig &config() const { return m_config; }
    // The exec plugin runner, when the user has one (for run counts and tests).
    ExecCredentialProvider *execProvider() const { return m_exec.get(); }
    static std::string defaultUserAgent();

private:
    struct Transfer;
    struct Handle // an easy handle and the multi handle it runs in (whose cache keeps its connections)
    {
        void *easy = nullptr;
        void *multi = nullptr;
    };
    kube::Result<void> perform(Transfer &t);
    // The exec plugin's credential, none without a plugin; a new client certificate empties the pool.
    kube::Result<std::optional<ExecCredential>> execCredential();
    // The error for a transfer that ended with CURLcode `code`; `host` is the configured server's.
    kube::ApiStatus failure(int code, const Transfer &t, const std::string &host) const;
    int drive(Transfer &t, void *multi); // runs the transfer to its end or its cancellation: a CURLcode
    Handle acquireHandle();
    void releaseHandle(Handle handle);
    static void cleanup(Handle handle);

    RestConfig m_config;
    HttpTransportOptions m_options;
    std::unique_ptr<ExecCredentialProvider> m_exec;
    std::mutex m_poolMutex;
    std::vector<Handle> m_pool;
    std::mutex m_activeMutex;
    std::multimap<const std::atomic<bool> *, void *> m_active; // cancel flag -> multi handle waiting
    std::string m_lastClientCert; // a changed exec client certificate drops pooled connections
};

} // namespace client
