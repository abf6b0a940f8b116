#pragma once
// ApiServer — serves an sim::Cluster over the Kubernetes REST API on loopback, so a real
// kubectl (1.27 to 1.33) can drive the simulated cluster: discovery (aggregated v2 / v2beta1 and
// legacy), /version, /openapi/v2 and v3 (openapi.h), GET / LIST / WATCH / POST / PUT / PATCH / DELETE on
// namespaces, nodes, pods, services, events, DaemonSets, ControllerRevisions, ReplicaSets,
// Leases, PodDisruptionBudgets and NodeUpgradeRollouts, the status and eviction subresources,
// Tables, label and field selectors, limit/continue, resourceVersion semantics with 410 Expired,
// bookmarks and streaming lists (sendInitialEvents), fieldValidation (unknown fields refused,
// warned about or dropped, against kube::schema), Status error bodies (kube-api.md).
//
// Threads: the Cluster lives on one engine thread (EngineHost) that also moves the virtual
// clock at `speed` times real time; HTTP handlers run on a ConnectionPool thread per connection
// and post their work to the engine thread; watch streams read the WatchHub window.
//
// Abuse: authentication comes before any request body is read; bodies are limited whether
// sized or chunked, JSON nesting is limited (kube::JsonLimits), slow and idle connections time
// out, and watches have a budget of their own (ServerOptions).
//
// Limits: no deletecollection, no server-side apply; protobuf only for the request bodies
// kubectl sends that way (DeleteOptions, Eviction) and the OpenAPI v2 document.

#include "models/kube/result.h"
#include "models/server/tlsmaterial.h"
#include "models/sim/cluster.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace server {

struct ServerOptions
{
    std::string host = "127.0.0.1";                 // loopback only: anything else is refused by start()
    int port = 0;                                   // 0: pick a free port (see ApiServer::port())
    double speed = 1.0;                             // virtual seconds per real second; 0 freezes the clock
    bool tls = false;                               // HTTPS with a generated CA and server certificate
    std::shared_ptr<const TlsMaterial> tlsMaterial; // with tls: these instead of new ones
    std::string token;                  // when set, every API request needs "Authorization: Bearer TOKEN"
    std::size_t watchWindow = 10000;    // recent events kept for resourceVersion resume
    std::chrono::milliseconds tick{50}; // real time between clock advances
    std::chrono::milliseconds bookmarkInterval{1000}; // idle time before a BOOKMARK (when allowed)
    // How often the bootstrap controller puts back the `kubernetes` Service if it was deleted.
    std::chrono::milliseconds bootstrapInterval{10000};
    std::chrono::seconds defaultWatchTimeout{1800}; // without timeoutSeconds
    // When larger than the cluster's resourceVersion, the next write gets floor + 1. `serve`
    // passes the wall clock in microseconds, so every server life starts above every earlier
    // one and a client resuming across a restart sees its resourceVersion as too old (410).
    std::uint64_t resourceVersionFloor = 0;

    // Connections: each open connection holds one HTTP thread (started on demand) for its
    // whole life, a watch for as long as it streams. Watches beyond maxWatches are refused with
    // 429 TooManyRequests and Retry-After, so at least threads - maxWatches threads are left
    // for ordinary requests.
    int threads = 256;
    int maxWatches = 128;
    std::chrono::seconds readTimeout{10};     // a request that stops arriving for this long is dropped
    std::chrono::seconds writeTimeout{10};    // a client that stops reading for this long is dropped
    std::chrono::seconds keepAliveTimeout{5}; // an idle connection between requests
    int keepAliveMaxRequests = 1000;          // requests on one connection before it is closed
    // Request bodies (after Content-Encoding is undone), Content-Length or chunked alike: 413
    // beyond this. Authentication happens before any of the body is read.
    std::size_t maxBodyBytes = 64 * 1024 * 1024;
    std::size_t maxHeaderBytes = 64 * 1024; // all header lines together: 431 beyond this
    // When set, a request with "Authorization: Bearer VIEWERTOKEN" is the restricted user
    // daemonscope-viewer: reads and reviews only, every write 403 Forbidden (reviews.h).
    std::string viewerToken;
    // False: NodeUpgradeRollouts are left to an external controller (daemonscope controller);
    // the simulated node agents still answer restart requests.
    bool nodeUpgradeController = true;
};

class ApiServer
{
public:
    ApiServer(std::unique_ptr<sim::Cluster> cluster, ServerOptions options);
    ~ApiServer();
    ApiServer(const ApiServer &) = delete;
    ApiServer &operator=(const ApiServer &) = delete;

    // Binds, generates TLS material when asked, starts the engine and HTTP threads.
    kube::Result<void> start();
    // Ends every watch stream, stops HTTP, then the engine. Idempotent.
    void stop();

    int port() const;
    std::string url() const;                     // "https://127.0.0.1:PORT"
    const std::string &caCertificatePem() const; // empty without TLS
    const ServerOptions &options() const;

    // Runs fn on the engine thread (tests, embedding).
    void withCluster(const std::function<void(sim::Cluster &)> &fn);

    // 127.0.0.0/8, ::1 and "localhost".
    static bool isLoopback(const std::string &host);

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace server
