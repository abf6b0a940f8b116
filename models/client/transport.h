#pragma once
// Transport — how KubeClient reaches an API server. HttpTransport is the libcurl
// implementation; tests inject fakes. A request answers 2xx with the body, anything else with
// the server's Status as an ApiStatus (or one made up from the HTTP code). Failures without an
// HTTP answer carry code 0 and a reason of their own: ConnectionFailed, TLSError, Timeout,
// Cancelled, TransportError, ExecPluginFailed, InvalidConfiguration.

#include "models/kube/result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace client {

using Query = std::vector<std::pair<std::string, std::string>>;

struct RequestOptions
{
    std::chrono::milliseconds connectTimeout = std::chrono::seconds(10);
    std::chrono::milliseconds totalTimeout = std::chrono::seconds(60); // 0: none (watches)
    // Abort when the connection delivers no byte for this long (the answer's headers not yet
    // included); 0: off. Watches use it as a read timeout so a silently dropped connection or a
    // frozen server is noticed: the request fails with reason Timeout. Checked about once a
    // second.
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(0);
    // When set and > 0, read during the transfer and used instead of idleTimeout (milliseconds):
    // the reflector tightens it once it has seen how often the server sends bookmarks.
    const std::atomic<std::int64_t> *idleTimeoutMs = nullptr;
    // Set to true to abort the transfer; Transport::interrupt(flag) then wakes it at once.
    const std::atomic<bool> *cancel = nullptr;
};

struct HttpResponse
{
    int status = 0;
    std::string body;
    std::string contentType;
};

class Transport
{
public:
    // Receives one line of a watch stream (without the newline). Return false to stop.
    using LineHandler = std::function<bool(std::string_view line)>;

    virtual ~Transport() = default;

    virtual kube::Result<HttpResponse> request(const std::string &method, const std::string &path,
                                               const Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const RequestOptions &options = {}) = 0;

    // A streaming GET: calls onLine for every line until the server ends the response (ok),
    // the handler returns false or `cancel` becomes true (ok), or an error occurs.
    virtual kube::Result<void> watch(const std::string &path, const Query &query, const LineHandler &onLine,
                                     const std::atomic<bool> &cancel, const RequestOptions &options = {}) = 0;

    // Wakes the transfers of this transport whose cancel flag (RequestOptions::cancel, or
    // watch's `cancel`) is `cancel`, after the caller has set it: they end at once instead of
    // at their next progress check (about once a second while a watch is idle). Thread-safe.
    // Without an override, transfers notice the flag on their own, later.
    virtual void interrupt(const std::atomic<bool> &cancel) { (void)cancel; }

    // The server URL, for messages.
    virtual std::string server() const = 0;

    // Percent-encoded "a=b&c=d" (RFC 3986 unreserved characters kept).
    static std::string encodeQuery(const Query &query);
    // A URL fit for a message: "user:password@" replaced by "***@" (RFC 3986 userinfo).
    static std::string redactedUrl(const std::string &url);
    // The error for a non-2xx answer: the Status body when there is one (its message kept),
    // otherwise "HTTP <code> from <server>" with the reason client-go would infer.
    static kube::ApiStatus errorFromResponse(int httpCode, const std::string &body,
                                             const std::string &server);
    // The Kubernetes reason client-go assigns to a bare HTTP code.
    static std::string reasonForCode(int httpCode);
};

} // namespace client
