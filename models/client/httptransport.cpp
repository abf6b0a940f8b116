#include "models/client/httptransport.h"

#include "models/client/base64.h"

#include <curl/curl.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#ifndef DAEMONSCOPE_VERSION
#define DAEMONSCOPE_VERSION "0"
#endif

namespace client {

using kube::ApiStatus;
using kube::Result;

namespace {

std::once_flag g_curlInit;

struct Authority
{
    std::string scheme;
    std::string host; // as written, brackets kept for IPv6
    std::string port;
    std::string rest; // path prefix
};

Authority splitServer(const std::string &server)
{
    Authority a;
    const auto se = server.find("://");
    a.scheme = server.substr(0, se);
    const auto hs = se + 3;
    const auto pe = server.find('/', hs);
    const std::string hostPort = server.substr(hs, pe == std::string::npos ? std::string::npos : pe - hs);
    a.rest = pe == std::string::npos ? std::string() : server.substr(pe);
    const auto bracket = hostPort.find(']');
    const auto colon = hostPort.rfind(':');
    if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
        a.host = hostPort.substr(0, colon);
        a.port = hostPort.substr(colon + 1);
    } else {
        a.host = hostPort;
        a.port = a.scheme == "https" ? "443" : "80";
    }
    return a;
}

// Header-safe form of an extra key (client-go percent-encodes it likewise).
std::string percentEncoded(const std::string &key)
{
    const std::string pair = Transport::encodeQuery({{key, ""}});
    return pair.substr(0, pair.size() - 1); // drop the '='
}

struct HeaderList
{
    curl_slist *list = nullptr;
    ~HeaderList() { curl_slist_free_all(list); }
    void add(const std::string &h) { list = curl_slist_append(list, h.c_str()); }
};

// The options every request sets: URL, error buffer, user agent, protocol, timeouts,
// compression, the tls-server-name pinning (connectTo, kept alive in connectToList) and proxy.
void setConnectionOptions(CURL *curl, const std::string &url, char *errorBuffer,
                          const RequestOptions &options, const HttpTransportOptions &transport,
                          const RestConfig &config, const std::string &connectTo, HeaderList &connectToList)
{
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, transport.userAgent.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connectTimeout.count()));
    std::chrono::milliseconds total = options.totalTimeout;
    if (total.count() > 0 && transport.requestTimeout)
        total = *transport.requestTimeout;
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(total.count()));
    if (!config.disableCompression)
        curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "gzip");
    if (!connectTo.empty()) {
        connectToList.add(connectTo);
        curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connectToList.list);
    }
    if (!config.proxyUrl.empty())
        curl_easy_setopt(curl, CURLOPT_PROXY, config.proxyUrl.c_str());
}

// The method, the body when it has one, and the Accept, Content-Type and Expect headers.
void setMethodAndContentHeaders(CURL *curl, const std::string &method, const std::string &body,
                                const std::string &accept, const std::string &contentType,
                                HeaderList &headers)
{
    if (method != "GET") {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
        if (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH") {
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
        }
    }
    if (!accept.empty())
        headers.add("Accept: " + accept);
    if (!contentType.empty())
        headers.add("Content-Type: " + contentType);
    headers.add("Expect:"); // no 100-continue round trip for PATCH/PUT bodies
}

// For https:// only: server verification, the client certificate, the bearer token or basic
// auth, and impersonation. The exec plugin's credential, when set, wins over the config's.
void setTlsAndAuthentication(CURL *curl, const RestConfig &config, const std::optional<ExecCredential> &cred,
                             HeaderList &headers)
{
    if (config.insecureSkipTlsVerify) {
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!config.caPem.empty()) {
        curl_blob blob{const_cast<char *>(config.caPem.data()), config.caPem.size(), CURL_BLOB_COPY};
        curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
        // Only the kubeconfig's CA is trusted, as in client-go.
        curl_easy_setopt(curl, CURLOPT_CAINFO, nullptr);
        curl_easy_setopt(curl, CURLOPT_CAPATH, nullptr);
    }
    const std::string &certPem =
        cred && !cred->clientCertPem.empty() ? cred->clientCertPem : config.clientCertPem;
    const std::string &keyPem =
        cred && !cred->clientKeyPem.empty() ? cred->clientKeyPem : config.clientKeyPem;
    if (!certPem.empty()) {
        curl_blob cert{const_cast<char *>(certPem.data()), certPem.size(), CURL_BLOB_COPY};
        curl_blob key{const_cast<char *>(keyPem.data()), keyPem.size(), CURL_BLOB_COPY};
        curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
        curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
        curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    }
    const std::string &token = cred && !cred->token.empty() ? cred->token : config.token;
    if (!token.empty())
        headers.add("Authorization: Bearer " + token);
    else if (!config.username.empty() || !config.password.empty())
        headers.add("Authorization: Basic " + encodeBase64(config.username + ":" + config.password));
    if (!config.impersonateUser.empty()) {
        headers.add("Impersonate-User: " + config.impersonateUser);
        if (!config.impersonateUid.empty())
            headers.add("Impersonate-Uid: " + config.impersonateUid);
        for (const auto &g : config.impersonateGroups)
            headers.add("Impersonate-Group: " + g);
        for (const auto &[k, values] : config.impersonateExtra)
            for (const auto &v : values)
                headers.add("Impersonate-Extra-" + percentEncoded(k) + ": " + v);
    }
}

} // namespace

struct HttpTransport::Transfer
{
    std::string method = "GET";
    std::string path;
    Query query;
    std::string body;
    std::string contentType;
    std::string accept;
    RequestOptions options;
    const LineHandler *onLine = nullptr; // streaming when set

    // results
    long status = 0;
    std::string responseBody;
    std::string contentTypeOut;
    std::string lineBuffer;
    bool stoppedByHandler = false;
    bool idleExpired = false;
    curl_off_t lastBytes = -1;
    std::chrono::steady_clock::time_point lastProgress = std::chrono::steady_clock::now();
    char errorBuffer[CURL_ERROR_SIZE] = {};
    CURL *curl = nullptr;

    // libcurl's CURLOPT_WRITEFUNCTION and CURLOPT_XFERINFOFUNCTION; `user` is the Transfer.
    static size_t write(char *data, size_t size, size_t n, void *user);
    static int progress(void *user, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t);
};

std::string HttpTransport::defaultUserAgent()
{
    return std::string("daemonscope/") + DAEMONSCOPE_VERSION;
}

HttpTransport::HttpTransport(RestConfig config, HttpTransportOptions options)
    : m_config(std::move(config)), m_options(std::move(options))
{
    std::call_once(g_curlInit, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    if (m_options.userAgent.empty())
        m_options.userAgent = defaultUserAgent();
    if (m_config.exec && m_config.isTls())
        m_exec = std::make_unique<ExecCredentialProvider>(*m_config.exec, m_options.clock,
                                                          m_options.execTimeout, m_options.terminalAvailable);
}

HttpTransport::~HttpTransport()
{
    for (Handle h : m_pool)
        cleanup(h);
}

void HttpTransport::cleanup(Handle handle)
{
    curl_multi_cleanup(static_cast<CURLM *>(handle.multi));
    curl_easy_cleanup(static_cast<CURL *>(handle.easy));
}

HttpTransport::Handle HttpTransport::acquireHandle()
{
    {
        std::lock_guard lock(m_poolMutex);
        if (!m_pool.empty()) {
            Handle h = m_pool.back();
            m_pool.pop_back();
            curl_easy_reset(static_cast<CURL *>(h.easy));
            return h;
        }
    }
    Handle h{curl_easy_init(), curl_multi_init()};
    if (!h.easy || !h.multi) {
        cleanup(h);
        return {};
    }
    return h;
}

void HttpTransport::releaseHandle(Handle handle)
{
    std::lock_guard lock(m_poolMutex);
    if (m_pool.size() < 8)
        m_pool.push_back(handle);
    else
        cleanup(handle);
}

void HttpTransport::interrupt(const std::atomic<bool> &cancel)
{
    std::lock_guard lock(m_activeMutex);
    const auto [first, last] = m_active.equal_range(&cancel);
    for (auto it = first; it != last; ++it)
        curl_multi_wakeup(static_cast<CURLM *>(it->second));
}

Result<HttpResponse> HttpTransport::request(const std::string &method, const std::string &path,
                                            const Query &query, const std::string &body,
                                            const std::string &contentType, const std::string &accept,
                                            const RequestOptions &options)
{
    Transfer t;
    t.method = method;
    t.path = path;
    t.query = query;
    t.body = body;
    t.contentType = contentType;
    t.accept = accept;
    t.options = options;
    if (auto r = perform(t); !r)
        return r.error();
    if (t.status < 200 || t.status > 299)
        return errorFromResponse(static_cast<int>(t.status), t.responseBody, server());
    return HttpResponse{static_cast<int>(t.status), std::move(t.responseBody), std::move(t.contentTypeOut)};
}

Result<void> HttpTransport::watch(const std::string &path, const Query &query, const LineHandler &onLine,
                                  const std::atomic<bool> &cancel, const RequestOptions &options)
{
    Transfer t;
    t.path = path;
    t.query = query;
    t.accept = "application/json";
    t.options = options;
    t.options.cancel = &cancel;
    t.onLine = &onLine;
    auto r = perform(t);
    if (!r) {
        if (cancel.load() || t.stoppedByHandler)
            return {};
        return r.error();
    }
    if (t.status < 200 || t.status > 299)
        return errorFromResponse(static_cast<int>(t.status), t.responseBody, server());
    // A last line without a newline is still an event.
    if (!t.lineBuffer.empty() && !t.stoppedByHandler && !cancel.load())
        onLine(t.lineBuffer);
    return {};
}

int HttpTransport::drive(Transfer &t, void *multiHandle)
{
    CURLM *multi = static_cast<CURLM *>(multiHandle);
    if (const CURLMcode mc = curl_multi_add_handle(multi, t.curl); mc != CURLM_OK) {
        std::snprintf(t.errorBuffer, sizeof t.errorBuffer, "%s", curl_multi_strerror(mc));
        return CURLE_FAILED_INIT;
    }
    // Registered before the flag is first read: a stop that sets it later also wakes the poll
    // (a wake-up is kept until the next poll consumes it).
    const std::atomic<bool> *cancel = t.options.cancel;
    std::multimap<const std::atomic<bool> *, void *>::iterator registration;
    if (cancel) {
        std::lock_guard lock(m_activeMutex);
        registration = m_active.emplace(cancel, multi);
    }
    CURLcode rc = CURLE_OK;
    for (;;) {
        if (cancel && cancel->load()) {
            rc = CURLE_ABORTED_BY_CALLBACK;
            break;
        }
        int running = 0;
        CURLMcode mc = curl_multi_perform(multi, &running);
        if (mc == CURLM_OK && running == 0) {
            rc = CURLE_GOT_NOTHING;
            int left = 0;
            while (CURLMsg *m = curl_multi_info_read(multi, &left))
                if (m->msg == CURLMSG_DONE && m->easy_handle == t.curl)
                    rc = m->data.result;
            break;
        }
        // libcurl shortens the wait to its own timers (timeouts, the progress check).
        if (mc == CURLM_OK)
            mc = curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
        if (mc != CURLM_OK) {
            std::snprintf(t.errorBuffer, sizeof t.errorBuffer, "%s", curl_multi_strerror(mc));
            rc = CURLE_FAILED_INIT;
            break;
        }
    }
    if (cancel) {
        std::lock_guard lock(m_activeMutex);
        m_active.erase(registration);
    }
    curl_multi_remove_handle(multi, t.curl); // closes the connection of an unfinished transfer
    return rc;
}

// Body: buffered, or split into lines for watches once the status is known to be 2xx.
size_t HttpTransport::Transfer::write(char *data, size_t size, size_t n, void *user)
{
    auto *tr = static_cast<Transfer *>(user);
    const size_t len = size * n;
    if (!tr->onLine) {
        tr->responseBody.append(data, len);
        return len;
    }
    long code = 0;
    curl_easy_getinfo(tr->curl, CURLINFO_RESPONSE_CODE, &code);
    if (code < 200 || code > 299) {
        tr->responseBody.append(data, len);
        return len;
    }
    tr->lineBuffer.append(data, len);
    std::size_t start = 0;
    for (;;) {
        const auto nl = tr->lineBuffer.find('\n', start);
        if (nl == std::string::npos)
            break;
        std::string_view line(tr->lineBuffer.data() + start, nl - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        start = nl + 1;
        if (!line.empty() && !(*tr->onLine)(line)) {
            tr->stoppedByHandler = true;
            return 0; // aborts the transfer
        }
    }
    tr->lineBuffer.erase(0, start);
    return len;
}

// Cancellation and the idle timeout. libcurl calls this about once a second when nothing
// arrives; received bytes count as activity whether they are headers or body.
int HttpTransport::Transfer::progress(void *user, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t)
{
    auto *tr = static_cast<Transfer *>(user);
    if (tr->options.cancel && tr->options.cancel->load())
        return 1;
    const auto now = std::chrono::steady_clock::now();
    curl_off_t received = dlnow;
    long headerBytes = 0;
    if (curl_easy_getinfo(tr->curl, CURLINFO_HEADER_SIZE, &headerBytes) == CURLE_OK)
        received += headerBytes;
    if (received != tr->lastBytes) {
        tr->lastBytes = received;
        tr->lastProgress = now;
        return 0;
    }
    std::int64_t limit = tr->options.idleTimeout.count();
    if (tr->options.idleTimeoutMs && tr->options.idleTimeoutMs->load() > 0)
        limit = tr->options.idleTimeoutMs->load();
    if (limit > 0 && now - tr->lastProgress >= std::chrono::milliseconds(limit)) {
        tr->idleExpired = true;
        return 1;
    }
    return 0;
}

Result<std::optional<ExecCredential>> HttpTransport::execCredential()
{
    std::optional<ExecCredential> cred;
    if (m_exec) {
        auto c = m_exec->credential();
        if (!c)
            return c.error();
        cred = std::move(*c);
        std::lock_guard lock(m_poolMutex);
        if (cred->clientCertPem != m_lastClientCert) {
            // A new client certificate must not ride on connections authenticated with the old one.
            for (Handle h : m_pool)
                cleanup(h);
            m_pool.clear();
            m_lastClientCert = cred->clientCertPem;
        }
    }
    return cred;
}

Result<void> HttpTransport::perform(Transfer &t)
{
    const bool tls = m_config.isTls();
    auto credential = execCredential();
    if (!credential)
        return credential.error();
    const std::optional<ExecCredential> &cred = *credential;

    const Handle handle = acquireHandle();
    if (!handle.easy)
        return ApiStatus{0, "TransportError", "cannot initialise libcurl"};
    struct Release
    {
        HttpTransport *self;
        Handle handle;
        ~Release() { self->releaseHandle(handle); }
    } release{this, handle};
    CURL *curl = static_cast<CURL *>(handle.easy);
    t.curl = curl;

    const Authority auth = splitServer(m_config.server);
    std::string base = m_config.server;
    std::string connectTo;
    HeaderList headers;
    if (tls && !m_config.tlsServerName.empty()) {
        base = auth.scheme + "://" + m_config.tlsServerName + ":" + auth.port + auth.rest;
        connectTo = m_config.tlsServerName + ":" + auth.port + ":" + auth.host + ":" + auth.port;
        headers.add("Host: " + auth.host + ":" + auth.port);
    }
    std::string url = base + t.path;
    const std::string q = encodeQuery(t.query);
    if (!q.empty())
        url += "?" + q;

    HeaderList connectToList; // read by libcurl until the transfer ends, like the headers
    setConnectionOptions(curl, url, t.errorBuffer, t.options, m_options, m_config, connectTo, connectToList);
    setMethodAndContentHeaders(curl, t.method, t.body, t.accept, t.contentType, headers);
    if (tls)
        setTlsAndAuthentication(curl, m_config, cred, headers);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);

    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Transfer::write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    if (t.options.cancel || t.options.idleTimeout.count() > 0 || t.options.idleTimeoutMs) {
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &Transfer::progress);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    }
    t.lastProgress = std::chrono::steady_clock::now();

    const auto rc = static_cast<CURLcode>(drive(t, handle.multi));
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &t.status);
    char *ct = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK && ct)
        t.contentTypeOut = ct;
    if (t.status == 401 && m_exec)
        m_exec->invalidate(); // the next request runs the plugin again

    if (rc == CURLE_OK)
        return {};
    return failure(rc, t, auth.host);
}

ApiStatus HttpTransport::failure(int code, const Transfer &t, const std::string &host) const
{
    const auto rc = static_cast<CURLcode>(code);
    const std::string detail =
        t.errorBuffer[0] ? std::string(t.errorBuffer) : std::string(curl_easy_strerror(rc));
    const std::string server = this->server();
    switch (rc) {
    case CURLE_ABORTED_BY_CALLBACK:
        if (t.idleExpired)
            return ApiStatus{0, "Timeout",
                             "no data from " + server + " for " +
                                 std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                    std::chrono::steady_clock::now() - t.lastProgress)
                                                    .count()) +
                                 " s: the server or the connection is not responding"};
        return ApiStatus{0, "Cancelled", "request to " + server + " cancelled"};
    case CURLE_WRITE_ERROR:
        if (t.stoppedByHandler)
            return ApiStatus{0, "Cancelled", "watch on " + server + " stopped"};
        break;
    case CURLE_PEER_FAILED_VERIFICATION:
        if (detail.find("subject name") != std::string::npos || detail.find("host name") != std::string::npos)
            return ApiStatus{
                0, "TLSError",
                "the server certificate of " + server + " does not name the host " +
                    (m_config.tlsServerName.empty() ? host : m_config.tlsServerName) +
                    " (set tls-server-name in the kubeconfig if it is issued for another name): " + detail};
        return ApiStatus{0, "TLSError",
                         "the server certificate of " + server + " is not trusted by " +
                             (m_config.caPem.empty()
                                  ? std::string("the system's certificate authorities "
                                                "(the kubeconfig has no certificate-authority)")
                                  : std::string("the kubeconfig's certificate-authority")) +
                             ": " + detail};
    case CURLE_SSL_CACERT_BADFILE:
        return ApiStatus{
            0, "TLSError",
            m_config.caPem.empty()
                ? "the system's certificate authorities cannot be read (the kubeconfig has no "
                  "certificate-authority; on Debian they come with the ca-certificates package): " +
                      detail
                : "the kubeconfig's certificate-authority cannot be used: " + detail};
    case CURLE_SSL_CERTPROBLEM:
        return ApiStatus{0, "TLSError", "the client certificate or key cannot be used: " + detail};
    case CURLE_SSL_CONNECT_ERROR:
        return ApiStatus{0, "TLSError", "TLS handshake with " + server + " failed: " + detail};
    case CURLE_OPERATION_TIMEDOUT:
        return ApiStatus{0, "Timeout", "request to " + server + " timed out: " + detail};
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
        return ApiStatus{0, "ConnectionFailed", "cannot reach " + server + ": " + detail};
    default:
        break;
    }
    return ApiStatus{0, "TransportError", "request to " + server + " failed: " + detail};
}

} // namespace client
