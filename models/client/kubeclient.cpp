#include "models/client/kubeclient.h"
#include "models/kube/jsonfield.h"

#include "models/client/podlistdecoder.h"
#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/job.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"

namespace client {

using kube::ApiStatus;
using kube::Json;
using kube::Result;

namespace {

constexpr const char *kJson = "application/json";

ApiStatus decodeError(const std::string &message)
{
    return {0, "DecodeError", message};
}

Result<Json> parseObject(std::string_view body, const std::string &what)
{
    auto j = kube::JsonLimits::parse(body);
    if (!j)
        return decodeError("the server's answer for " + what + " is refused: " + j.error().message);
    if (!j->is_object())
        return decodeError("the server's answer for " + what + " is not a JSON object");
    return j;
}

template <typename T> Result<T> decodeObject(const Json &j, const std::string &what)
{
    // A ControllerRevision may carry its data as JSON text, which kube parses on its own: the
    // nesting limit applies to it as to the answer around it.
    if constexpr (std::is_same_v<T, kube::ControllerRevision>) {
        if (auto data = j.find("data"); data != j.end() && data->is_string()) {
            if (auto parsed = kube::JsonLimits::parse(data->get<std::string>()); !parsed)
                return decodeError("cannot decode " + what + ": data is refused: " + parsed.error().message);
        }
    }
    auto r = T::fromJson(j);
    if (!r)
        return decodeError("cannot decode " + what + ": " + r.error().message);
    return r;
}

KubeClient::PageInfo pageInfoOf(const Json &list)
{
    KubeClient::PageInfo info;
    if (auto m = list.find("metadata"); m != list.end() && m->is_object()) {
        if (auto rv = m->find("resourceVersion"); rv != m->end() && rv->is_string())
            info.resourceVersion = rv->get<std::string>();
        if (auto c = m->find("continue"); c != m->end() && c->is_string())
            info.continueToken = c->get<std::string>();
    }
    return info;
}

bool isExpired(const ApiStatus &s)
{
    return s.code == 410 || s.reason == "Expired" || s.reason == "Gone";
}

} // namespace

KubeClient::KubeClient(std::shared_ptr<Transport> transport, std::string defaultNamespace)
    : m_transport(std::move(transport)),
      m_namespace(defaultNamespace.empty() ? "default" : std::move(defaultNamespace))
{}

const char *KubeClient::contentTypeFor(PatchType type)
{
    switch (type) {
    case PatchType::Merge:
        return "application/merge-patch+json";
    case PatchType::Json:
        return "application/json-patch+json";
    case PatchType::Strategic:
        return "application/strategic-merge-patch+json";
    }
    return "application/merge-patch+json";
}

Result<Json> KubeClient::getJson(const ResourceType &resource, const std::string &namespace_,
                                 const std::string &name)
{
    auto r = m_transport->request("GET", resource.objectPath(ns(namespace_), name), {}, {}, {}, kJson);
    if (!r)
        return r.error();
    return parseObject(r->body, resource.qualifiedName() + " \"" + name + "\"");
}

Result<std::string> KubeClient::listPages(const ResourceType &resource, const std::string &namespace_,
                                          const ListOptions &options, const PageHandler &onPage,
                                          const std::atomic<bool> *cancel)
{
    const std::string path = resource.collectionPath(namespace_);
    RequestOptions ro;
    ro.cancel = cancel;
    int limit = options.limit;
    bool restarted = false;
    bool restart = false;
    std::string continueToken;
    std::string listRv;
    for (;;) {
        Query q;
        if (!options.labelSelector.empty())
            q.emplace_back("labelSelector", options.labelSelector);
        if (!options.fieldSelector.empty())
            q.emplace_back("fieldSelector", options.fieldSelector);
        if (limit > 0)
            q.emplace_back("limit", std::to_string(limit));
        if (!continueToken.empty()) {
            q.emplace_back("continue", continueToken); // a continue token carries its own RV
        } else {
            if (!options.resourceVersion.empty())
                q.emplace_back("resourceVersion", options.resourceVersion);
            if (!options.resourceVersionMatch.empty())
                q.emplace_back("resourceVersionMatch", options.resourceVersionMatch);
        }
        if (cancel && cancel->load())
            return ApiStatus{0, "Cancelled", "list of " + resource.qualifiedName() + " cancelled"};
        auto r = m_transport->request("GET", path, q, {}, {}, kJson, ro);
        if (!r) {
            if (!continueToken.empty() && isExpired(r.error()) && !restarted) {
                restarted = true;
                restart = true;
                limit = 0;
                continueToken.clear();
                continue;
            }
            return r.error();
        }
        const bool first = continueToken.empty();
        auto info = onPage(r->body, restart);
        restart = false;
        if (!info)
            return info.error();
        if (first)
            listRv = info->resourceVersion;
        continueToken = info->continueToken;
        if (continueToken.empty() || limit <= 0)
            return listRv;
    }
}

Result<Json> KubeClient::patchJson(const ResourceType &resource, const std::string &namespace_,
                                   const std::string &name, PatchType type, const std::string &body,
                                   const std::string &fieldManager)
{
    Query q;
    if (!fieldManager.empty())
        q.emplace_back("fieldManager", fieldManager);
    auto r = m_transport->request("PATCH", resource.objectPath(ns(namespace_), name), q, body,
                                  contentTypeFor(type), kJson);
    if (!r)
        return r.error();
    return parseObject(r->body, resource.qualifiedName() + " \"" + name + "\"");
}

Result<void> KubeClient::watchLines(const ResourceType &resource, const std::string &namespace_,
                                    const WatchOptions &options,
                                    const std::function<Result<bool>(const Json &event)> &onEvent,
                                    const std::atomic<bool> &cancel)
{
    Query q;
    if (!options.labelSelector.empty())
        q.emplace_back("labelSelector", options.labelSelector);
    if (!options.fieldSelector.empty())
        q.emplace_back("fieldSelector", options.fieldSelector);
    if (!options.resourceVersion.empty())
        q.emplace_back("resourceVersion", options.resourceVersion);
    if (options.allowWatchBookmarks)
        q.emplace_back("allowWatchBookmarks", "true");
    if (options.timeoutSeconds > 0)
        q.emplace_back("timeoutSeconds", std::to_string(options.timeoutSeconds));
    q.emplace_back("watch", "true");

    RequestOptions ro;
    ro.totalTimeout = std::chrono::milliseconds(0);
    const int idle = options.idleTimeoutSeconds > 0
                         ? options.idleTimeoutSeconds
                         : (options.timeoutSeconds > 0 ? options.timeoutSeconds + 30 : 0);
    ro.idleTimeout = std::chrono::seconds(idle);
    ro.idleTimeoutMs = options.idleTimeoutMs;

    std::optional<ApiStatus> failure;
    const std::string what = "watch of " + resource.qualifiedName();
    auto r = m_transport->watch(
        resource.collectionPath(namespace_), q,
        [&](std::string_view line) {
            auto parsed = parseObject(line, what);
            if (!parsed) {
                failure = parsed.error();
                return false;
            }
            const Json &ev = *parsed;
            if (!ev.contains("type") || !ev["type"].is_string()) {
                failure = decodeError(what + ": the server sent a line that is not a watch event");
                return false;
            }
            if (ev["type"] == "ERROR") {
                const Json &obj = ev.contains("object") ? ev["object"] : Json();
                const int code = obj.is_object() && obj.contains("code") && obj["code"].is_number_integer()
                                     ? obj["code"].get<int>()
                                     : 500;
                ApiStatus s = ApiStatus::fromJson(obj, code);
                if (s.reason.empty())
                    s.reason = Transport::reasonForCode(s.code);
                failure = std::move(s);
                return false;
            }
            auto keep = onEvent(ev);
            if (!keep) {
                failure = keep.error();
                return false;
            }
            return *keep;
        },
        cancel, ro);
    if (failure)
        return *failure;
    return r;
}

template <typename T> Result<T> KubeClient::get(const std::string &namespace_, const std::string &name)
{
    const ResourceType &res = resourceFor<T>();
    auto j = getJson(res, namespace_, name);
    if (!j)
        return j.error();
    return decodeObject<T>(*j, res.qualifiedName() + " \"" + name + "\"");
}

template <typename T>
Result<ObjectList<T>> KubeClient::list(const std::string &namespace_, const ListOptions &options,
                                       const std::atomic<bool> *cancel)
{
    const ResourceType &res = resourceFor<T>();
    ObjectList<T> out;
    PodListDecoder podDecoder; // shared across pages so pod specs are interned list-wide
    auto rv = listPages(
        res, namespace_, options,
        [&](const std::string &body, bool restart) -> Result<PageInfo> {
            if (restart)
                out.items.clear();
            if constexpr (std::is_same_v<T, kube::Pod>) {
                auto page = podDecoder.decode(body);
                if (!page)
                    return page.error();
                for (auto &p : page->items)
                    out.items.push_back(std::move(p));
                return PageInfo{page->resourceVersion, page->continueToken};
            } else {
                auto j = parseObject(body, res.qualifiedName() + " list");
                if (!j)
                    return j.error();
                if (auto items = j->find("items"); items != j->end() && items->is_array()) {
                    for (std::size_t i = 0; i < items->size(); ++i) {
                        auto item = decodeObject<T>((*items)[i],
                                                    res.qualifiedName() + " list item " + std::to_string(i));
                        if (!item)
                            return item.error();
                        out.items.push_back(std::move(*item));
                    }
                }
                return pageInfoOf(*j);
            }
        },
        cancel);
    if (!rv)
        return rv.error();
    out.resourceVersion = std::move(*rv);
    return out;
}

template <typename T>
Result<T> KubeClient::patch(const std::string &namespace_, const std::string &name, PatchType type,
                            const std::string &body, const std::string &fieldManager)
{
    const ResourceType &res = resourceFor<T>();
    auto j = patchJson(res, namespace_, name, type, body, fieldManager);
    if (!j)
        return j.error();
    return decodeObject<T>(*j, res.qualifiedName() + " \"" + name + "\"");
}

template <typename T> Result<T> KubeClient::update(const T &object)
{
    const ResourceType &res = resourceFor<T>();
    const std::string &name = object.metadata.name;
    Json body = object.toJson();
    body["apiVersion"] = res.apiVersion;
    body["kind"] = res.kind;
    auto r = m_transport->request("PUT", res.objectPath(ns(object.metadata.namespace_), name), {},
                                  body.dump(), kJson, kJson);
    if (!r)
        return r.error();
    auto j = parseObject(r->body, res.qualifiedName() + " \"" + name + "\"");
    if (!j)
        return j.error();
    return decodeObject<T>(*j, res.qualifiedName() + " \"" + name + "\"");
}

template <typename T>
Result<void> KubeClient::watch(const std::string &namespace_, const WatchOptions &options,
                               const WatchHandler<T> &handler, const std::atomic<bool> &cancel)
{
    const ResourceType &res = resourceFor<T>();
    return watchLines(
        res, namespace_, options,
        [&](const Json &ev) -> Result<bool> {
            const std::string type = ev["type"].get<std::string>();
            const Json &obj = ev.contains("object") ? ev["object"] : Json();
            WatchEvent<T> out;
            if (type == "BOOKMARK") {
                out.type = WatchEventType::Bookmark;
                if (obj.is_object() && obj.contains("metadata") && obj["metadata"].is_object())
                    out.resourceVersion = kube::stringOr(obj["metadata"], "resourceVersion");
                return handler(std::move(out));
            }
            if (type == "ADDED")
                out.type = WatchEventType::Added;
            else if (type == "MODIFIED")
                out.type = WatchEventType::Modified;
            else if (type == "DELETED")
                out.type = WatchEventType::Deleted;
            else
                return decodeError("watch of " + res.qualifiedName() + ": unknown event type \"" + type +
                                   "\"");
            auto decoded = decodeObject<T>(obj, res.kind + " in a " + type + " event");
            if (!decoded)
                return decoded.error();
            out.object = std::move(*decoded);
            out.resourceVersion = out.object.metadata.resourceVersion;
            return handler(std::move(out));
        },
        cancel);
}

#define DAEMONSCOPE_CLIENT_INSTANTIATE_READ(T)                                                               \
    template Result<T> KubeClient::get<T>(const std::string &, const std::string &);                         \
    template Result<ObjectList<T>> KubeClient::list<T>(const std::string &, const ListOptions &,             \
                                                       const std::atomic<bool> *);                           \
    template Result<T> KubeClient::patch<T>(const std::string &, const std::string &, PatchType,             \
                                            const std::string &, const std::string &);                       \
    template Result<void> KubeClient::watch<T>(const std::string &, const WatchOptions &,                    \
                                               const WatchHandler<T> &, const std::atomic<bool> &);

DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::DaemonSet)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::ControllerRevision)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::Pod)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::Node)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::Event)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::ReplicaSet)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::PodDisruptionBudget)
DAEMONSCOPE_CLIENT_INSTANTIATE_READ(kube::Job)
template Result<kube::DaemonSet> KubeClient::update<kube::DaemonSet>(const kube::DaemonSet &);
template Result<kube::ControllerRevision>
KubeClient::update<kube::ControllerRevision>(const kube::ControllerRevision &);
template Result<kube::Node> KubeClient::update<kube::Node>(const kube::Node &);
template Result<kube::Event> KubeClient::update<kube::Event>(const kube::Event &);

Result<void> KubeClient::streamLogs(const std::string &namespace_, const std::string &pod,
                                    const LogOptions &options, const Transport::LineHandler &onLine,
                                    const std::atomic<bool> &cancel)
{
    Query q;
    if (!options.container.empty())
        q.emplace_back("container", options.container);
    if (options.follow)
        q.emplace_back("follow", "true");
    if (options.previous)
        q.emplace_back("previous", "true");
    if (options.tailLines >= 0)
        q.emplace_back("tailLines", std::to_string(options.tailLines));
    if (options.timestamps)
        q.emplace_back("timestamps", "true");
    RequestOptions ro;
    if (options.follow)
        ro.totalTimeout = std::chrono::milliseconds(0); // open for as long as the container writes
    return m_transport->watch(resourceFor<kube::Pod>().objectPath(ns(namespace_), pod) + "/log", q, onLine,
                              cancel, ro);
}

} // namespace client
