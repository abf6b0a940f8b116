#pragma once
// ApiServer — serves an engine::Cluster over the Kubernetes REST API on loopback, so a real
// kubectl (1.27 to 1.33) can drive the simulated cluster: discovery (aggregated v2 / v2beta1 and
// legacy), /version, GET / LIST / WATCH / POST / PUT / PATCH / DELETE on namespaces, nodes,
// pods, events, DaemonSets, ControllerRevisions and ReplicaSets, the status subresource,
// Tables, label and field selectors, limit/continue, resourceVersion semantics with 410 Expired,
// bookmarks and streaming lists (sendInitialEvents), Status error bodies (kube-api.md).
//
// Threads: the Cluster lives on one engine thread (EngineHost) that also moves the virtual
// clock at `speed` times real time; HTTP handlers run on cpp-httplib's worker pool and post
// their work to the engine thread; watch streams read the WatchHub window.
//
// Limits: no dryRun, no deletecollection, no server-side apply, no protobuf (kubectl accepts
// JSON), no OpenAPI documents (kubectl get/rollout/patch do not ask for them).

#include "models/engine/cluster.h"
#include "models/kube/result.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace server {

struct ServerOptions
{
    std::string host = "127.0.0.1";     // loopback only: anything else is refused by start()
    int port = 0;                       // 0: pick a free port (see ApiServer::port())
    double speed = 1.0;                 // virtual seconds per real second; 0 freezes the clock
    bool tls = false;                   // HTTPS with a generated CA and server certificate
    std::string token;                  // when set, every API request needs "Authorization: Bearer TOKEN"
    std::size_t watchWindow = 10000;    // recent events kept for resourceVersion resume
    std::chrono::milliseconds tick{50}; // real time between clock advances
    std::chrono::milliseconds bookmarkInterval{1000}; // idle time before a BOOKMARK (when allowed)
    std::chrono::seconds defaultWatchTimeout{1800};   // without timeoutSeconds
    int threads = 64;                                 // HTTP workers; each open watch holds one
};

class ApiServer
{
public:
    ApiServer(std::unique_ptr<engine::Cluster> cluster, ServerOptions options);
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
    void withCluster(const std::function<void(engine::Cluster &)> &fn);

    // 127.0.0.0/8, ::1 and "localhost".
    static bool isLoopback(const std::string &host);

    struct Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace server
