#pragma once
// KubeClient — typed calls against one API server through an injected Transport: get, list
// (paged with limit/continue), patch (merge, JSON, strategic), update, and a single watch
// stream. Instantiated for kube::DaemonSet, ControllerRevision, Pod, Node, Event, ReplicaSet and
// PodDisruptionBudget; update is not offered for Pod, whose compact record does not keep every
// field, nor for ReplicaSet and PodDisruptionBudget, which the console only reads.
//
// Namespaces: get/patch/update use the given namespace, or the client's default when empty;
// list/watch read all namespaces when the namespace is empty. Cluster-scoped kinds (Node)
// ignore it. Thread-safe as far as the transport is (HttpTransport is).

#include "models/client/listoptions.h"
#include "models/client/objectlist.h"
#include "models/client/resourcetype.h"
#include "models/client/transport.h"
#include "models/client/watchevent.h"
#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace client {

enum class PatchType { Merge, Json, Strategic };

class KubeClient
{
public:
    template <typename T> using WatchHandler = std::function<bool(WatchEvent<T> &&event)>; // false: stop

    explicit KubeClient(std::shared_ptr<Transport> transport, std::string defaultNamespace = "default");

    const std::string &defaultNamespace() const { return m_namespace; }
    Transport &transport() { return *m_transport; }

    template <typename T> kube::Result<T> get(const std::string &namespace_, const std::string &name);
    // `cancel`, when given, aborts the list (reason Cancelled) once set; Transport::interrupt
    // with the same flag ends a page in transfer at once.
    template <typename T>
    kube::Result<ObjectList<T>> list(const std::string &namespace_, const ListOptions &options = {},
                                     const std::atomic<bool> *cancel = nullptr);
    template <typename T>
    kube::Result<T> patch(const std::string &namespace_, const std::string &name, PatchType type,
                          const std::string &body, const std::string &fieldManager = "daemonscope");
    // PUT of the whole object; a resourceVersion in it makes the write conditional (409 Conflict).
    template <typename T> kube::Result<T> update(const T &object);
    // One watch stream: returns when the server ends it (ok), the handler returns false or
    // `cancel` is set (ok), or on an error, including an ERROR event (e.g. 410 Expired).
    template <typename T>
    kube::Result<void> watch(const std::string &namespace_, const WatchOptions &options,
                             const WatchHandler<T> &handler, const std::atomic<bool> &cancel);

    // Untyped building blocks.
    kube::Result<kube::Json> getJson(const ResourceType &resource, const std::string &namespace_,
                                     const std::string &name);
    struct PageInfo
    {
        std::string resourceVersion;
        std::string continueToken;
    };
    // Follows `continue` tokens, handing each page's body to onPage, which decodes it and
    // returns its list metadata; returns the list's resourceVersion (that of the first page).
    // An expired continue token (410) restarts the list once without paging, as client-go's
    // pager does: onPage then sees `restart` = true and must drop what it collected.
    using PageHandler = std::function<kube::Result<PageInfo>(const std::string &body, bool restart)>;
    kube::Result<std::string> listPages(const ResourceType &resource, const std::string &namespace_,
                                        const ListOptions &options, const PageHandler &onPage,
                                        const std::atomic<bool> *cancel = nullptr);
    kube::Result<kube::Json> patchJson(const ResourceType &resource, const std::string &namespace_,
                                       const std::string &name, PatchType type, const std::string &body,
                                       const std::string &fieldManager);
    kube::Result<void> watchLines(const ResourceType &resource, const std::string &namespace_,
                                  const WatchOptions &options,
                                  const std::function<kube::Result<bool>(const kube::Json &event)> &onEvent,
                                  const std::atomic<bool> &cancel);

    static const char *contentTypeFor(PatchType type);

    // ---- container logs: GET /api/v1/namespaces/NS/pods/NAME/log, as `kubectl logs` asks.
    struct LogOptions
    {
        std::string container; // empty: the server picks the only one (or refuses)
        bool previous = false;
        bool follow = false; // the transfer stays open until the container ends or cancel
        int tailLines = -1;  // -1: all
        bool timestamps = false;
    };
    // Hands each line (without its newline) to onLine as it arrives. Ends ok when the server
    // ends the answer, onLine returns false or `cancel` is set (Transport::interrupt(cancel)
    // wakes it at once); an error carries the HTTP status and the API's message.
    kube::Result<void> streamLogs(const std::string &namespace_, const std::string &pod,
                                  const LogOptions &options, const Transport::LineHandler &onLine,
                                  const std::atomic<bool> &cancel);

private:
    std::string ns(const std::string &given) const { return given.empty() ? m_namespace : given; }

    std::shared_ptr<Transport> m_transport;
    std::string m_namespace;
};

} // namespace client
