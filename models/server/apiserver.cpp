#include "models/server/apiserver.h"
#include "models/kube/jsonfield.h"

#include "models/api/fieldmanager.h"
#include "models/api/strategicmerge.h"
#include "models/api/validation.h"
#include "models/kube/apischema.h"
#include "models/kube/gojson.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/timeutil.h"
#include "models/kube/yamldocument.h"
#include "models/server/connectionpool.h"
#include "models/server/discovery.h"
#include "models/server/enginehost.h"
#include "models/server/openapi.h"
#include "models/server/podlistpager.h"
#include "models/server/podlogstream.h"
#include "models/server/protobufbody.h"
#include "models/server/resourcepath.h"
#include "models/server/responsecompression.h"
#include "models/server/reviews.h"
#include "models/server/selector.h"
#include "models/server/tableprinter.h"
#include "models/server/tlsmaterial.h"

#include <httplib.h>
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/pem.h>

#include <arpa/inet.h>
#include <csignal>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace server {

using api::FieldManager;
using api::FieldManagerContext;
using api::Kind;
using kube::ApiStatus;
using kube::Json;

namespace {

constexpr const char *kJson = "application/json";
// Not "application/json": cpp-httplib gzips that content type when the client accepts gzip,
// and its compressor holds back data until the stream ends. Go's client reads the media type
// and ignores the parameter; kube-apiserver uses the same form for streaming media types.
constexpr const char *kWatchJson = "application/json;stream=watch";

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool wantsTable(const httplib::Request &req)
{
    const std::string accept = lower(req.get_header_value("Accept"));
    std::size_t start = 0;
    while (start <= accept.size()) {
        const auto comma = accept.find(',', start);
        const std::string range =
            accept.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (range.find("as=table") != std::string::npos && range.find("g=meta.k8s.io") != std::string::npos)
            return true;
        if (range.find("application/json") != std::string::npos)
            return false; // a plain JSON range preferred before any Table range
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return false;
}

std::string param(const httplib::Request &req, const char *name)
{
    return req.has_param(name) ? req.get_param_value(name) : std::string();
}

bool flag(const httplib::Request &req, const char *name)
{
    const std::string v = lower(param(req, name));
    return v == "true" || v == "1";
}

// Kubernetes Status for an error, with details naming what failed.
Json statusJson(const ApiStatus &st, const ResourcePath &path, const std::string &name)
{
    Json j = st.toJson();
    if (path.kind && (st.code == 404 || st.code == 409 || st.code == 422 || st.code == 403)) {
        Json &details = j["details"];
        if (!details.is_object())
            details = Json::object();
        if (!path.group.empty())
            details["group"] = path.group;
        details["kind"] = st.code == 422 ? api::kindName(*path.kind) : api::resourceName(*path.kind);
        if (!name.empty())
            details["name"] = name;
    }
    return j;
}

// res.set_content without its copy of the body.
void setBody(httplib::Response &res, std::string body, const std::string &contentType)
{
    res.body = std::move(body);
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", contentType);
}

void send(httplib::Response &res, int code, const Json &body, const std::string &contentType = kJson)
{
    res.status = code;
    setBody(res, kube::goJson(body), contentType);
}

void sendError(httplib::Response &res, const ApiStatus &st, const ResourcePath &path = {},
               const std::string &name = {})
{
    if (st.retryAfterSeconds > 0)
        res.set_header("Retry-After", std::to_string(st.retryAfterSeconds));
    send(res, st.code, statusJson(st, path, name));
}

ApiStatus notFoundPath()
{
    return {404, "NotFound", "the server could not find the requested resource"};
}

// kube-apiserver's answer to a resourceVersion newer than any it has (storage's
// NewTooLargeResourceVersionError): 504 Timeout with a ResourceVersionTooLarge cause, retry in 1s.
Json tooLargeResourceVersion(const std::string &requested, std::uint64_t current)
{
    Json j = ApiStatus{504, "Timeout",
                       "Too large resource version: " + requested + ", current: " + std::to_string(current)}
                 .toJson();
    j["details"] = {{"causes", Json::array({{{"reason", "ResourceVersionTooLarge"},
                                             {"message", "Too large resource version"}}})},
                    {"retryAfterSeconds", 1}};
    return j;
}

// Hands `body` to cpp-httplib as a content provider of known length, which it sends as it is (it
// compresses only bodies it holds itself). `thenClose`: the provider reports failure once it has
// written, which is how cpp-httplib is told not to read another request from the connection.
void provideBody(httplib::Response &res, std::string body, bool thenClose)
{
    res.body.clear();
    std::string type = res.get_header_value("Content-Type");
    res.headers.erase("Content-Type");
    auto text = std::make_shared<const std::string>(std::move(body));
    res.set_content_provider(
        text->size(), type.empty() ? kJson : type.c_str(),
        [text, thenClose](std::size_t offset, std::size_t length, httplib::DataSink &sink) {
            return sink.write(text->data() + offset, length) && !thenClose;
        });
}

// Closes the connection after this response (so the rest of a refused request body is never
// read).
void closeAfter(httplib::Response &res)
{
    res.set_header("Connection", "close");
    provideBody(res, std::move(res.body), true);
}

// Compresses res.body when kube-apiserver would (responsecompression.h) and hands it over.
void finishBody(const httplib::Request &req, httplib::Response &res)
{
    if (res.content_provider_ || res.body.empty())
        return;
    std::string body = std::move(res.body);
    if (body.size() > kGzipThresholdBytes && acceptsGzip(req.get_header_value("Accept-Encoding"))) {
        body = gzipCompress(body);
        res.set_header("Content-Encoding", "gzip");
        res.set_header("Vary", "Accept-Encoding");
    }
    provideBody(res, std::move(body), false);
}

void sendAndClose(httplib::Response &res, int code, const Json &body)
{
    send(res, code, body);
    closeAfter(res);
}

bool hasBody(const httplib::Request &req)
{
    return req.has_header("Transfer-Encoding") ||
           (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0");
}

kube::Result<std::uint64_t> parseRv(const std::string &text)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
        return ApiStatus::badRequest("invalid resource version: " + text);
    return std::stoull(text);
}

std::string resourceVersionOf(const Json &o)
{
    if (auto m = o.find("metadata"); m != o.end() && m->is_object())
        return kube::stringOr(*m, "resourceVersion");
    return {};
}

std::string objectNamespace(const Json &o)
{
    if (auto m = o.find("metadata"); m != o.end() && m->is_object())
        return kube::stringOr(*m, "namespace");
    return {};
}

// ---- continue tokens ---------------------------------------------------------------------------
// Pods are paged by PodListPager, from the engine's versioned store. Other kinds: a paged list is served from
// a snapshot taken by its first page, so every page shows the same resourceVersion, as the API promises. A
// snapshot is let go when its last page has been served, after five minutes, or when more than kMaxSnapshots
// lists are open at once (the oldest first); its tokens get 410 Expired then. Nodes are kept as the engine's
// records (encoded a page at a time), the other kinds as JSON; the two pagers draw their ids from one
// sequence, so a token of one never names a list of the other.
std::atomic<std::uint64_t> gListIds{0};

template <typename Item> class ListPager
{
public:
    static constexpr std::size_t kMaxSnapshots = 64;

    struct Page
    {
        std::vector<Item> items;
        std::string resourceVersion;
        std::string continueToken;
        std::int64_t remaining = 0;
    };

    Page first(std::vector<Item> items, const std::string &rv, std::size_t limit)
    {
        auto snap = std::make_shared<Snapshot>();
        snap->items = std::move(items);
        snap->resourceVersion = rv;
        return page(snap, 0, limit);
    }

    kube::Result<Page> next(const std::string &token, std::size_t limit)
    {
        const auto dash = token.rfind('-');
        std::shared_ptr<Snapshot> snap;
        std::size_t offset = 0;
        if (dash != std::string::npos && dash > 0 && dash + 1 < token.size() &&
            token.find_first_not_of("0123456789-") == std::string::npos && dash <= 19 &&
            token.size() - dash - 1 <= 19) {
            const std::uint64_t id = std::strtoull(token.c_str(), nullptr, 10);
            std::lock_guard lock(m_mutex);
            expire();
            if (auto it = m_snapshots.find(id); it != m_snapshots.end()) {
                snap = it->second;
                offset = static_cast<std::size_t>(std::strtoull(token.c_str() + dash + 1, nullptr, 10));
            }
        }
        if (!snap || offset > snap->size())
            return ApiStatus{
                410, "Expired",
                "The provided continue parameter is too old to display a consistent list result. You "
                "can start a new list without the continue parameter."};
        return page(snap, offset, limit);
    }

private:
    struct Snapshot
    {
        std::vector<Item> items;
        std::size_t size() const { return items.size(); }
        std::string resourceVersion;
        std::uint64_t id = 0; // 0 until a page leaves some items for a continue token
        std::chrono::steady_clock::time_point created = std::chrono::steady_clock::now();
    };

    Page page(const std::shared_ptr<Snapshot> &snap, std::size_t offset, std::size_t limit)
    {
        Page p;
        p.resourceVersion = snap->resourceVersion;
        const std::size_t size = snap->size();
        const std::size_t end = limit == 0 ? size : std::min(size, offset + limit);
        p.items.assign(snap->items.begin() + static_cast<std::ptrdiff_t>(offset),
                       snap->items.begin() + static_cast<std::ptrdiff_t>(end));
        std::lock_guard lock(m_mutex);
        if (end < size) {
            if (snap->id == 0) {
                snap->id = ++gListIds;
                m_snapshots[snap->id] = snap;
            }
            expire();
            p.continueToken = std::to_string(snap->id) + "-" + std::to_string(end);
            p.remaining = static_cast<std::int64_t>(size - end);
        } else if (snap->id != 0) {
            m_snapshots.erase(snap->id); // the last page: nothing refers to it any more
        }
        return p;
    }

    // With m_mutex held.
    void expire()
    {
        const auto now = std::chrono::steady_clock::now();
        for (auto it = m_snapshots.begin(); it != m_snapshots.end();) {
            if (now - it->second->created > std::chrono::minutes(5))
                it = m_snapshots.erase(it);
            else
                ++it;
        }
        while (m_snapshots.size() > kMaxSnapshots)
            m_snapshots.erase(m_snapshots.begin()); // ids count up: the oldest list
    }

    std::mutex m_mutex;
    std::map<std::uint64_t, std::shared_ptr<Snapshot>> m_snapshots;
};

// ---- watch streams -----------------------------------------------------------------------------
struct WatchStream
{
    Kind kind = Kind::Pod;
    std::string ns;
    Selector labels;
    Selector fields;
    bool table = false;
    TablePrinter::IncludeObject include = TablePrinter::IncludeObject::Metadata;
    bool bookmarks = false;
    bool sentColumns = false;
    bool finished = false;
    std::uint64_t cursor = 0;
    std::uint64_t lastRv = 0; // every event up to here has been considered
    std::chrono::steady_clock::time_point deadline;
    std::deque<std::string> pending;

    bool matches(const Json *o) const
    {
        return o && (ns.empty() || objectNamespace(*o) == ns) && labels.matches(*o) && fields.matches(*o);
    }

    std::string line(const char *type, const Json &object, kube::Timestamp now)
    {
        std::string out = std::string("{\"type\":\"") + type + "\",\"object\":";
        if (table && std::string(type) != "ERROR") {
            out += kube::goJson(TablePrinter::table(kind, {object}, now, include, resourceVersionOf(object),
                                                    {}, !sentColumns));
            sentColumns = true;
        } else {
            out += kube::goJson(object);
        }
        out += "}\n";
        return out;
    }

    std::string bookmark(bool initialEventsEnd)
    {
        Json meta = {{"resourceVersion", std::to_string(lastRv)}};
        if (initialEventsEnd)
            meta["annotations"] = {{"k8s.io/initial-events-end", "true"}};
        const Json object = {
            {"kind", api::kindName(kind)}, {"apiVersion", api::apiVersion(kind)}, {"metadata", meta}};
        return "{\"type\":\"BOOKMARK\",\"object\":" + kube::goJson(object) + "}\n";
    }

    // The watch cache's rule: an object that starts matching is ADDED, one that stops is DELETED.
    void translate(const HubEvent &e)
    {
        lastRv = std::max(lastRv, e.resourceVersion);
        using T = api::WatchEvent::Type;
        const bool now = e.type != T::Deleted && matches(e.object.get());
        const bool before = matches(e.previous.get());
        const char *type = nullptr;
        if (e.type == T::Deleted)
            type = (before || matches(e.object.get())) ? "DELETED" : nullptr;
        else if (now)
            type = before ? "MODIFIED" : "ADDED";
        else if (before)
            type = "DELETED";
        if (type)
            pending.push_back(line(type, *e.object, e.time));
    }
};

} // namespace

// ---- the server ----------------------------------------------------------------------------------

struct ApiServer::Impl
{
    ServerOptions options;
    std::unique_ptr<EngineHost> engine;
    std::unique_ptr<httplib::Server> http;
    std::thread listenThread;
    int port = 0;
    std::string caPem;
    ListPager<Json> pager;
    ListPager<kube::Node> nodePager;
    PodListPager podPager; // used on the engine thread only
    std::atomic<bool> started{false};
    std::atomic<bool> stopped{false};

    Impl(std::unique_ptr<engine::Cluster> cluster, ServerOptions o) : options(std::move(o))
    {
        if (cluster && options.resourceVersionFloor > 0)
            cluster->seedResourceVersion(options.resourceVersionFloor);
        engine = std::make_unique<EngineHost>(std::move(cluster), options.speed, options.tick,
                                              options.watchWindow);
        engine->setNodeUpgradeController(options.nodeUpgradeController);
    }

    std::atomic<int> openWatches{0};

    // Held by a watch stream while it is open.
    class WatchSlot
    {
    public:
        explicit WatchSlot(std::atomic<int> &count) : m_count(count) {}
        ~WatchSlot() { --m_count; }
        WatchSlot(const WatchSlot &) = delete;
        WatchSlot &operator=(const WatchSlot &) = delete;

    private:
        std::atomic<int> &m_count;
    };

    // "Bearer TOKEN", the scheme in any case (RFC 7235), as kube-apiserver's bearer token
    // authenticator reads it: the token ends at the next space.
    bool authorized(const httplib::Request &req) const
    {
        if (options.token.empty() || isViewer(req))
            return true;
        return bearerIs(req, options.token);
    }

    static bool bearerIs(const httplib::Request &req, const std::string &token)
    {
        const std::string header = req.get_header_value("Authorization");
        const auto space = header.find(' ');
        if (space == std::string::npos || lower(header.substr(0, space)) != "bearer")
            return false;
        std::string got = header.substr(space + 1);
        got = got.substr(0, got.find(' '));
        return got.size() == token.size() && CRYPTO_memcmp(got.data(), token.data(), got.size()) == 0;
    }

    // The restricted identity of ServerOptions::viewerToken (reviews.h).
    bool isViewer(const httplib::Request &req) const
    {
        return !options.viewerToken.empty() && bearerIs(req, options.viewerToken);
    }

    Identity identityOf(const httplib::Request &req) const
    {
        if (isViewer(req))
            return Identity::Viewer;
        return options.token.empty() ? Identity::Anonymous : Identity::Admin;
    }

    // cpp-httplib's pre-routing handler: runs after the headers and before any of the body is
    // read. Refusals of requests that carry a body close the connection, so the body is never
    // read at all.
    bool admit(const httplib::Request &req, httplib::Response &res) const
    {
        std::size_t headerBytes = 0;
        for (const auto &[name, value] : req.headers)
            headerBytes += name.size() + value.size() + 4;
        if (headerBytes > options.maxHeaderBytes) {
            sendAndClose(res, 431,
                         ApiStatus{431, "RequestHeaderFieldsTooLarge",
                                   "the request headers are larger than " +
                                       std::to_string(options.maxHeaderBytes) + " bytes"}
                             .toJson());
            return false;
        }
        const ResourcePath path = ResourcePath::parse(req.path);
        const bool anonymous =
            path.type == ResourcePath::Type::Version || path.type == ResourcePath::Type::Health;
        if (!anonymous && !authorized(req)) {
            const Json status = ApiStatus{401, "Unauthorized", "Unauthorized"}.toJson();
            if (hasBody(req))
                sendAndClose(res, 401, status);
            else
                send(res, 401, status);
            return false;
        }
        if (const Identity who = identityOf(req); who == Identity::Viewer && !Reviews::match(req.path)) {
            const std::string verb = Reviews::verbOf(req.method, path.type == ResourcePath::Type::Collection,
                                                     req.get_param_value("watch") == "true" ||
                                                         req.get_param_value("watch") == "1");
            if (!verb.empty() && !Reviews::allows(who, verb)) {
                const std::string resource = path.kind ? api::resourceName(*path.kind) : std::string();
                const Json status =
                    Reviews::forbidden(who, verb, path.group, resource, path.subresource, path.ns, path.name)
                        .toJson();
                if (hasBody(req))
                    sendAndClose(res, 403, status);
                else
                    send(res, 403, status);
                return false;
            }
        }
        if (req.has_header("Content-Length")) {
            const std::string length = req.get_header_value("Content-Length");
            if (length.empty() || length.size() > 19 ||
                length.find_first_not_of("0123456789") != std::string::npos ||
                std::stoull(length) > options.maxBodyBytes) {
                sendAndClose(res, 413, tooLarge().toJson());
                return false;
            }
        }
        return true;
    }

    ApiStatus tooLarge() const
    {
        return {413, "RequestEntityTooLarge",
                "the request body is larger than the limit of " + std::to_string(options.maxBodyBytes) +
                    " bytes"};
    }

    // Reads the body through cpp-httplib's content reader, which undoes chunking and
    // Content-Encoding, counting as it goes: nothing beyond maxBodyBytes is kept.
    void handleWithBody(const httplib::Request &req, httplib::Response &res,
                        const httplib::ContentReader &reader)
    {
        std::string text;
        bool overLimit = false;
        const bool complete = reader([&](const char *data, std::size_t n) {
            if (text.size() + n > options.maxBodyBytes) {
                overLimit = true;
                return false;
            }
            text.append(data, n);
            return true;
        });
        if (overLimit)
            return sendAndClose(res, 413, tooLarge().toJson());
        if (!complete)
            return sendAndClose(res, 400,
                                ApiStatus::badRequest("the request body could not be read").toJson());
        handle(req, text, res);
        // httplib reads no body of a DELETE without Content-Length: a chunked one is still in
        // the connection, which therefore must not carry another request.
        if (req.method == "DELETE" && req.has_header("Transfer-Encoding") &&
            !req.has_header("Content-Length"))
            closeAfter(res);
    }

    void handle(const httplib::Request &req, const std::string &text, httplib::Response &res)
    {
        if (const ReviewResource *review = Reviews::match(req.path))
            return answerReview(req, text, res, *review);
        const ResourcePath path = ResourcePath::parse(req.path);
        const std::string &m = req.method;
        switch (path.type) {
        case ResourcePath::Type::NotFound:
            sendError(res, notFoundPath());
            return;
        case ResourcePath::Type::Version:
            send(res, 200, Discovery::version());
            return;
        case ResourcePath::Type::OpenApiV2: {
            if (m != "GET")
                break;
            const auto doc = Discovery::openApiV2(req.get_header_value("Accept"));
            res.status = 200;
            res.set_content(doc.body, doc.contentType.c_str());
            return;
        }
        case ResourcePath::Type::OpenApiV3: {
            if (m != "GET")
                break;
            if (path.openApiPath.empty()) {
                res.status = 200;
                res.set_content(OpenApi::index(), kJson);
                return;
            }
            const std::string *doc = OpenApi::document(path.openApiPath);
            if (!doc)
                return sendError(res, notFoundPath());
            // A URL with the index's hash names this exact document: clients may keep it.
            if (req.has_param("hash") && req.get_param_value("hash") == OpenApi::hash(path.openApiPath))
                res.set_header("Cache-Control", "public, immutable");
            else
                res.set_header("Cache-Control", "no-cache, private");
            res.status = 200;
            res.set_content(*doc, kJson);
            return;
        }
        case ResourcePath::Type::Health:
            res.status = 200;
            res.set_content("ok", "text/plain");
            return;
        case ResourcePath::Type::CoreVersions:
        case ResourcePath::Type::Groups: {
            if (m != "GET")
                break;
            const auto format = Discovery::negotiate(req.get_header_value("Accept"));
            const Json doc = path.type == ResourcePath::Type::CoreVersions
                                 ? Discovery::core(format, options.host + ":" + std::to_string(port))
                                 : Discovery::groups(format);
            send(res, 200, doc, Discovery::contentType(format));
            return;
        }
        case ResourcePath::Type::Group:
            if (m != "GET")
                break;
            send(res, 200, Discovery::group(path.group));
            return;
        case ResourcePath::Type::ResourceList:
            if (m != "GET")
                break;
            send(res, 200, Discovery::resourceList(path.group));
            return;
        case ResourcePath::Type::Collection:
            if (m == "GET") {
                if (flag(req, "watch"))
                    watch(req, res, path);
                else
                    list(req, res, path);
                return;
            }
            if (m == "POST") {
                create(req, text, res, path);
                return;
            }
            break;
        case ResourcePath::Type::Object:
            if (path.subresource == "eviction" && *path.kind == Kind::Pod) {
                if (m == "POST")
                    evict(req, text, res, path);
                else
                    sendError(res, {405, "MethodNotAllowed",
                                    "the server does not allow this method on the requested resource"});
                return;
            }
            if (path.subresource == "log" && *path.kind == Kind::Pod) {
                if (m != "GET")
                    return sendError(res,
                                     {405, "MethodNotAllowed",
                                      "the server does not allow this method on the requested resource"});
                if (auto r = PodLogStream::serve(*engine, req, res, path.ns, path.name, options.tick * 4); !r)
                    sendError(res, r.error(), path, path.name);
                return;
            }
            if (path.subresource == "scale" && *path.kind == Kind::ReplicaSet) {
                if (m == "GET" || m == "PUT" || m == "PATCH")
                    scale(req, text, res, path);
                else
                    sendError(res, {405, "MethodNotAllowed",
                                    "the server does not allow this method on the requested resource"});
                return;
            }
            if (!path.subresource.empty() && path.subresource != "status") {
                sendError(res, notFoundPath());
                return;
            }
            if (path.subresource == "status" &&
                (*path.kind == Kind::ControllerRevision || *path.kind == Kind::Event)) {
                sendError(res, notFoundPath());
                return;
            }
            if (m == "GET") {
                get(req, res, path);
                return;
            }
            if (m == "PUT") {
                update(req, text, res, path);
                return;
            }
            if (m == "PATCH") {
                patch(req, text, res, path);
                return;
            }
            if (m == "DELETE" && path.subresource.empty()) {
                remove(req, text, res, path);
                return;
            }
            break;
        }
        sendError(res, {405, "MethodNotAllowed",
                        "the server does not allow this method on the requested resource"});
    }

    // kubectl auth can-i / whoami: POST only, nothing stored.
    void answerReview(const httplib::Request &req, const std::string &text, httplib::Response &res,
                      const ReviewResource &review)
    {
        if (req.method != "POST")
            return sendError(res, {405, "MethodNotAllowed",
                                   "the server does not allow this method on the requested resource"});
        auto b = objectBody(req, text);
        if (!b)
            return sendError(res, b.error());
        auto answer = Reviews::answer(review, *b, identityOf(req));
        if (!answer)
            return sendError(res, answer.error());
        send(res, 201, *answer);
    }

    // ---- reads -------------------------------------------------------------------------------

    void get(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
    {
        struct Out
        {
            kube::Result<Json> object = Json();
            kube::Timestamp now = 0;
        };
        Out out = engine->call([&](engine::Cluster &c) {
            return Out{c.get(*path.kind, path.ns, path.name), c.now()};
        });
        if (!out.object) {
            sendError(res, out.object.error(), path, path.name);
            return;
        }
        if (wantsTable(req)) {
            const Json &o = *out.object;
            send(res, 200,
                 TablePrinter::table(*path.kind, {o}, out.now,
                                     TablePrinter::includeObjectFrom(param(req, "includeObject")),
                                     resourceVersionOf(o)));
            return;
        }
        send(res, 200, *out.object);
    }

    void list(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
    {
        auto labels = Selector::parseLabels(param(req, "labelSelector"));
        if (!labels)
            return sendError(res, labels.error());
        auto fields = Selector::parseFields(param(req, "fieldSelector"), *path.kind);
        if (!fields)
            return sendError(res, fields.error());
        std::size_t limit = 0;
        if (const std::string l = param(req, "limit"); !l.empty()) {
            auto n = parseRv(l);
            if (!n)
                return sendError(res, ApiStatus::badRequest("invalid limit: " + l));
            limit = static_cast<std::size_t>(*n);
        }
        const std::string rvParam = param(req, "resourceVersion");
        const std::string rvMatch = param(req, "resourceVersionMatch");
        const std::string cont = param(req, "continue");
        if (!rvMatch.empty() && rvMatch != "NotOlderThan" && rvMatch != "Exact")
            return sendError(res, ApiStatus::badRequest("unsupported resourceVersionMatch: " + rvMatch));
        if (!rvMatch.empty() && rvParam.empty())
            return sendError(res,
                             ApiStatus::badRequest(
                                 "resourceVersionMatch is forbidden unless resourceVersion is provided"));
        if (!cont.empty() && !rvParam.empty() && rvParam != "0")
            return sendError(
                res, ApiStatus::badRequest("specifying resource version is not allowed when using continue"));

        std::uint64_t wantRv = 0;
        if (cont.empty() && !rvParam.empty()) {
            auto n = parseRv(rvParam);
            if (!n)
                return sendError(res, n.error());
            wantRv = *n;
        }
        // Only the current state is kept: an exact read of an older version is gone, a version
        // from the future is one the client cannot have seen from this server.
        const auto readable = [&](std::uint64_t current) {
            return wantRv <= current && (rvMatch != "Exact" || wantRv == current);
        };
        const auto refuse = [&](std::uint64_t current) {
            if (wantRv > current)
                return send(res, 504, tooLargeResourceVersion(rvParam, current));
            sendError(res, ApiStatus::gone("too old resource version: " + rvParam + " (" +
                                           std::to_string(current) + ")"));
        };
        if (*path.kind == Kind::Pod)
            return listPods(req, res, path, *labels, *fields, limit, cont, readable, refuse);
        if (*path.kind == Kind::Node)
            return listNodes(req, res, path, *labels, *fields, limit, cont, readable, refuse);

        ListPager<Json>::Page page;
        kube::Timestamp now = 0;
        if (!cont.empty()) {
            if (!continued(res, pager, cont, limit, page, now))
                return;
        } else {
            struct Out
            {
                kube::Result<Json> list = Json();
                kube::Timestamp now = 0;
                std::uint64_t rv = 0;
            };
            Out out = engine->call([&](engine::Cluster &c) {
                return Out{c.list(*path.kind, path.ns), c.now(), c.resourceVersion()};
            });
            if (!out.list)
                return sendError(res, out.list.error(), path);
            if (!readable(out.rv))
                return refuse(out.rv);
            now = out.now;
            std::vector<Json> items;
            for (auto &item : (*out.list)["items"])
                if (labels->matches(item) && fields->matches(item))
                    items.push_back(std::move(item));
            page = pager.first(std::move(items), std::to_string(out.rv), limit);
        }
        sendList(req, res, path, std::move(page.items), now, page.resourceVersion, page.continueToken,
                 page.continueToken.empty() ? std::nullopt : std::optional<std::int64_t>(page.remaining));
    }

    // Pods, the kind a large cluster has most of, are read a page at a time from the engine's
    // versioned store (PodListPager): selectors are applied to the engine's records as the page
    // fills, and only the page's pods are copied out and encoded, here, off the engine thread.
    template <typename Readable, typename Refuse>
    void listPods(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                  const Selector &labels, const Selector &fields, std::size_t limit, const std::string &cont,
                  const Readable &readable, const Refuse &refuse)
    {
        const bool selective = !labels.empty() || !fields.empty();
        PodListPager::Filter keep;
        if (selective)
            keep = [&](const kube::Pod &p) { return labels.matchesPod(p) && fields.matchesPod(p); };
        struct Out
        {
            kube::Result<PodListPager::Page> page = PodListPager::Page();
            kube::Timestamp now = 0;
            std::uint64_t rv = 0;
        };
        Out out = engine->call([&](engine::Cluster &c) {
            Out o;
            o.now = c.now();
            o.rv = c.resourceVersion();
            if (!cont.empty())
                o.page = podPager.next(c, cont, path.ns, keep, selective, limit);
            else if (readable(o.rv))
                o.page = podPager.first(c, path.ns, keep, selective, limit);
            return o;
        });
        if (!out.page)
            return sendError(res, out.page.error());
        if (cont.empty() && !readable(out.rv))
            return refuse(out.rv);
        const std::string rv = std::to_string(out.page->resourceVersion);
        if (wantsTable(req)) {
            std::vector<Json> items;
            items.reserve(out.page->pods.size());
            for (const auto &p : out.page->pods)
                items.push_back(p.toJson());
            return sendList(req, res, path, std::move(items), out.now, rv, out.page->continueToken,
                            out.page->remaining);
        }
        kube::PodJsonWriter writer;
        sendListText(
            res, Kind::Pod, out.page->pods.size(),
            [&](std::string &body, std::size_t i) { writer.append(body, out.page->pods[i]); },
            listMeta(rv, out.page->continueToken, out.page->remaining));
    }

    // A list written as text, the same bytes as the tree sendList() would encode (keys in order:
    // apiVersion, items, kind, metadata); `item(body, i)` appends the i-th item.
    template <typename AppendItem>
    void sendListText(httplib::Response &res, Kind kind, std::size_t count, const AppendItem &item,
                      const Json &meta)
    {
        std::string body = R"({"apiVersion":)";
        kube::appendGoString(body, api::apiVersion(kind));
        body += R"(,"items":[)";
        for (std::size_t i = 0; i < count; ++i) {
            if (i)
                body += ',';
            item(body, i);
        }
        body += R"(],"kind":)";
        kube::appendGoString(body, std::string(api::kindName(kind)) + "List");
        body += R"(,"metadata":)";
        kube::appendGoJson(body, meta);
        body += '}';
        res.status = 200;
        setBody(res, std::move(body), kJson);
    }

    // The page after a continue token, and the engine's clock; false when the token is refused
    // (the answer is sent).
    template <typename Item>
    bool continued(httplib::Response &res, ListPager<Item> &from, const std::string &cont, std::size_t limit,
                   typename ListPager<Item>::Page &page, kube::Timestamp &now)
    {
        auto p = from.next(cont, limit);
        if (!p) {
            sendError(res, p.error());
            return false;
        }
        page = std::move(*p);
        now = engine->call([](engine::Cluster &c) { return c.now(); });
        return true;
    }

    // Nodes: the first page copies the matching records out of the engine (selectors applied to
    // them), and each page is encoded here, off the engine thread, when it is asked for.
    template <typename Readable, typename Refuse>
    void listNodes(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                   const Selector &labels, const Selector &fields, std::size_t limit, const std::string &cont,
                   const Readable &readable, const Refuse &refuse)
    {
        ListPager<kube::Node>::Page page;
        kube::Timestamp now = 0;
        if (!cont.empty()) {
            if (!continued(res, nodePager, cont, limit, page, now))
                return;
        } else {
            struct Out
            {
                std::vector<kube::Node> nodes;
                kube::Timestamp now = 0;
                std::uint64_t rv = 0;
            };
            Out out = engine->call([&](engine::Cluster &c) {
                Out o{{}, c.now(), c.resourceVersion()};
                if (!readable(o.rv))
                    return o;
                for (const kube::Node *n : c.nodes())
                    if (labels.matchesNode(*n) && fields.matchesNode(*n))
                        o.nodes.push_back(*n);
                return o;
            });
            if (!readable(out.rv))
                return refuse(out.rv);
            now = out.now;
            page = nodePager.first(std::move(out.nodes), std::to_string(out.rv), limit);
        }
        const std::optional<std::int64_t> remaining = page.remaining; // read with a continue token only
        if (wantsTable(req)) {
            std::vector<Json> items;
            items.reserve(page.items.size());
            for (const auto &n : page.items)
                items.push_back(n.toJson());
            return sendList(req, res, path, std::move(items), now, page.resourceVersion, page.continueToken,
                            remaining);
        }
        sendListText(
            res, Kind::Node, page.items.size(),
            [&](std::string &body, std::size_t i) { kube::appendGoJson(body, page.items[i].toJson()); },
            listMeta(page.resourceVersion, page.continueToken, remaining));
    }

    static Json listMeta(const std::string &resourceVersion, const std::string &continueToken,
                         std::optional<std::int64_t> remaining)
    {
        Json meta = {{"resourceVersion", resourceVersion}};
        if (!continueToken.empty()) {
            meta["continue"] = continueToken;
            if (remaining)
                meta["remainingItemCount"] = *remaining;
        }
        return meta;
    }

    void sendList(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                  std::vector<Json> pageItems, kube::Timestamp now, const std::string &resourceVersion,
                  const std::string &continueToken, std::optional<std::int64_t> remaining)
    {
        if (wantsTable(req)) {
            send(res, 200,
                 TablePrinter::table(*path.kind, pageItems, now,
                                     TablePrinter::includeObjectFrom(param(req, "includeObject")),
                                     resourceVersion, continueToken));
            return;
        }
        Json meta = listMeta(resourceVersion, continueToken, remaining);
        Json items = Json::array();
        for (auto &i : pageItems)
            items.push_back(std::move(i));
        send(res, 200,
             {{"apiVersion", api::apiVersion(*path.kind)},
              {"kind", std::string(api::kindName(*path.kind)) + "List"},
              {"metadata", std::move(meta)},
              {"items", std::move(items)}});
    }

    void watch(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
    {
        // kube-apiserver's max-in-flight filter answers the same way.
        if (openWatches.fetch_add(1) >= options.maxWatches) {
            --openWatches;
            res.set_header("Retry-After", "1");
            Json status = ApiStatus{429, "TooManyRequests",
                                    "too many open watches (" + std::to_string(options.maxWatches) +
                                        "), please try again later"}
                              .toJson();
            status["details"] = {{"retryAfterSeconds", 1}};
            return send(res, 429, status);
        }
        auto slot = std::make_shared<WatchSlot>(openWatches);
        auto stream = std::make_shared<WatchStream>();
        stream->kind = *path.kind;
        stream->ns = path.ns;
        auto labels = Selector::parseLabels(param(req, "labelSelector"));
        if (!labels)
            return sendError(res, labels.error());
        auto fields = Selector::parseFields(param(req, "fieldSelector"), *path.kind);
        if (!fields)
            return sendError(res, fields.error());
        stream->labels = std::move(*labels);
        stream->fields = std::move(*fields);
        stream->table = wantsTable(req);
        stream->include = TablePrinter::includeObjectFrom(param(req, "includeObject"));
        stream->bookmarks = flag(req, "allowWatchBookmarks");
        const bool sendInitial = flag(req, "sendInitialEvents");
        const std::string rvParam = param(req, "resourceVersion");
        if (req.has_param("sendInitialEvents") && param(req, "resourceVersionMatch") != "NotOlderThan")
            return sendError(res, {422, "Invalid",
                                   "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: "
                                   "sendInitialEvents is allowed with watch and resourceVersionMatch set to "
                                   "NotOlderThan"});
        std::uint64_t fromRv = 0;
        const bool synthetic = sendInitial || rvParam.empty() || rvParam == "0";
        if (!synthetic) {
            auto n = parseRv(rvParam);
            if (!n)
                return sendError(res, n.error());
            fromRv = *n;
        }
        std::chrono::seconds timeout = options.defaultWatchTimeout;
        if (const std::string t = param(req, "timeoutSeconds"); !t.empty()) {
            auto n = parseRv(t);
            if (!n)
                return sendError(res, ApiStatus::badRequest("invalid timeoutSeconds: " + t));
            timeout = std::chrono::seconds(std::min<std::uint64_t>(*n, 24 * 3600));
        }
        stream->deadline = std::chrono::steady_clock::now() + timeout;

        // The starting point and the initial state are read in one engine task, so no write
        // falls between them.
        WatchHub::Start start = WatchHub::Start::Ok;
        engine->call([&](engine::Cluster &c) {
            WatchHub &hub = engine->hub();
            if (synthetic) {
                stream->cursor = hub.headCursor(*path.kind);
                stream->lastRv = c.resourceVersion();
                auto list = c.list(*path.kind, path.ns);
                if (list)
                    for (const auto &item : (*list)["items"])
                        if (stream->matches(&item))
                            stream->pending.push_back(stream->line("ADDED", item, c.now()));
                if (sendInitial && stream->bookmarks)
                    stream->pending.push_back(stream->bookmark(true));
                return 0;
            }
            start = hub.cursorAfter(*path.kind, fromRv, stream->cursor);
            stream->lastRv = fromRv;
            return 0;
        });
        if (start == WatchHub::Start::TooNew) {
            // After the watch is set up, errors are ERROR events (as the watch cache does it).
            stream->pending.push_back(stream->line(
                "ERROR", tooLargeResourceVersion(rvParam, engine->hub().headResourceVersion()), 0));
            stream->finished = true;
        } else if (start == WatchHub::Start::TooOld) {
            // kube-apiserver's watch cache answers 200 and one ERROR event, then ends.
            const Json status =
                ApiStatus::gone("too old resource version: " + rvParam + " (" +
                                std::to_string(engine->hub().oldestResourceVersion(*path.kind) + 1) + ")")
                    .toJson();
            stream->pending.push_back(stream->line("ERROR", status, 0));
            stream->finished = true;
        }
        res.status = 200;
        res.set_header("Cache-Control", "no-cache, private");
        res.set_chunked_content_provider(
            kWatchJson,
            [this, stream, slot](std::size_t, httplib::DataSink &sink) { return pump(*stream, sink); });
    }

    // Writes what is pending, or waits for the next events; ends the stream at its deadline,
    // on an ERROR, or when the server stops.
    bool pump(WatchStream &s, httplib::DataSink &sink)
    {
        while (true) {
            if (!s.pending.empty()) {
                std::string chunk;
                for (auto &l : s.pending)
                    chunk += l;
                s.pending.clear();
                return sink.write(chunk.data(), chunk.size());
            }
            const auto now = std::chrono::steady_clock::now();
            if (s.finished || now >= s.deadline || engine->hub().closed()) {
                sink.done();
                return true;
            }
            std::vector<HubEvent> events;
            const auto wake = std::min(s.deadline, now + options.bookmarkInterval);
            switch (engine->hub().next(s.kind, s.cursor, wake, events, s.lastRv)) {
            case WatchHub::Wait::Closed:
                sink.done();
                return true;
            case WatchHub::Wait::Expired:
                s.pending.push_back(s.line(
                    "ERROR",
                    ApiStatus::gone("too old resource version: " + std::to_string(s.lastRv) + " (" +
                                    std::to_string(engine->hub().oldestResourceVersion(s.kind) + 1) + ")")
                        .toJson(),
                    0));
                s.finished = true;
                break;
            case WatchHub::Wait::Timeout:
                if (s.bookmarks && std::chrono::steady_clock::now() < s.deadline)
                    s.pending.push_back(s.bookmark(false));
                break;
            case WatchHub::Wait::Events:
                for (const auto &e : events)
                    s.translate(e);
                break;
            }
        }
    }

    // ---- writes ------------------------------------------------------------------------------

    static kube::Result<Json> body(const std::string &text)
    {
        auto parsed = kube::JsonLimits::parse(text);
        if (!parsed)
            return ApiStatus::badRequest("the request body is refused: " + parsed.error().message);
        // A ControllerRevision's data may come as JSON text, which the engine parses in turn:
        // the same limit applies to it, in a body and in a JSON patch that sets it.
        auto embedded = [](const Json &v) -> kube::Result<void> {
            if (!v.is_string())
                return {};
            if (auto inner = kube::JsonLimits::parse(v.get<std::string>()); !inner)
                return ApiStatus::badRequest("the request body is refused: data: " + inner.error().message);
            return {};
        };
        if (parsed->is_object()) {
            if (auto d = parsed->find("data"); d != parsed->end())
                if (auto r = embedded(*d); !r)
                    return r.error();
        } else if (parsed->is_array()) {
            for (const auto &op : *parsed)
                if (op.is_object() && op.contains("path") && op["path"].is_string() &&
                    op["path"].get<std::string>().rfind("/data", 0) == 0 && op.contains("value"))
                    if (auto r = embedded(op["value"]); !r)
                        return r.error();
        }
        return parsed;
    }

    // The body of a DELETE or an eviction: JSON, or the protobuf encoding kubectl 1.32 and later
    // send for DeleteOptions and Eviction.
    static kube::Result<Json> optionsBody(const httplib::Request &req, const std::string &text)
    {
        if (isProtobufContentType(req.get_header_value("Content-Type")))
            return decodeProtobufBody(text);
        return body(text);
    }

    // dryRun from the query (and, for deletions and evictions, from the options in the body):
    // "All" is the one value the API defines.
    static kube::Result<bool> dryRunFrom(const httplib::Request &req, std::vector<std::string> values = {})
    {
        for (std::size_t i = 0, n = req.get_param_value_count("dryRun"); i < n; ++i)
            values.push_back(req.get_param_value("dryRun", i));
        for (const auto &v : values)
            if (v != "All")
                return ApiStatus{400, "BadRequest",
                                 "Invalid dry run value: " + v + " (supported values: \"All\")"};
        return !values.empty();
    }

    static kube::Result<engine::WriteOptions> writeOptions(const httplib::Request &req)
    {
        auto dry = dryRunFrom(req);
        if (!dry)
            return dry.error();
        engine::WriteOptions o;
        o.dryRun = *dry;
        return o;
    }

    // metav1.FieldValidation: what a write does with fields the kind's schema does not have.
    // Without the parameter kube-apiserver warns (Warn); kubectl sends Strict.
    enum class FieldValidation { Ignore, Warn, Strict };

    static kube::Result<FieldValidation> fieldValidationFrom(const httplib::Request &req,
                                                             const char *optionsKind)
    {
        const std::string v = param(req, "fieldValidation");
        if (v.empty() || v == "Warn")
            return FieldValidation::Warn;
        if (v == "Ignore")
            return FieldValidation::Ignore;
        if (v == "Strict")
            return FieldValidation::Strict;
        const std::string why =
            "Unsupported value: " + kube::goQuote(v) + ": supported values: \"Ignore\", \"Strict\", \"Warn\"";
        ApiStatus st =
            ApiStatus::invalid(std::string(optionsKind) + ".meta.k8s.io", "", "fieldValidation: " + why);
        st.causes.push_back({"FieldValueNotSupported", why, "fieldValidation"});
        return st;
    }

    // The decoding of a body into the kind's type: unknown fields are dropped, and of a key
    // given twice the last value kept (Ignore; Warn: one warning each), or both refused
    // (Strict). `jsonText`: the body as sent, for the repeated keys (none looked for when
    // empty). Returns the strict decoding error's text ("strict decoding error: duplicate field
    // \"spec.replicas\", unknown field \"spec.foo\"") when Strict refuses.
    static std::optional<std::string> decodeFields(Json &object, FieldValidation mode,
                                                   std::vector<std::string> &warnings,
                                                   std::string_view jsonText = {})
    {
        std::vector<std::string> problems;
        if (mode != FieldValidation::Ignore)
            for (const auto &d : kube::schema::duplicateFields(jsonText))
                problems.push_back("duplicate field " + kube::goQuote(d.path));
        const kube::schema::Struct *type = kube::schema::structForObject(object);
        if (type)
            for (const auto &u : kube::schema::unknownFields(object, *type))
                problems.push_back("unknown field " + kube::goQuote(u.path));
        if (problems.empty())
            return std::nullopt;
        if (mode == FieldValidation::Strict) {
            std::string text = "strict decoding error: ";
            for (std::size_t i = 0; i < problems.size(); ++i)
                text += (i ? ", " : "") + problems[i];
            return text;
        }
        if (mode == FieldValidation::Warn)
            warnings.insert(warnings.end(), problems.begin(), problems.end());
        if (type)
            kube::schema::pruneUnknownFields(object, *type);
        return std::nullopt;
    }

    // The body's JSON text for decodeFields, or nothing when it came as protobuf.
    static std::string_view jsonTextOf(const httplib::Request &req, const std::string &text)
    {
        return isProtobufContentType(req.get_header_value("Content-Type")) ? std::string_view() : text;
    }

    // A create or update body that Strict refuses: 400, as the decoder's error.
    static ApiStatus strictBodyError(const Json &object, const std::string &error)
    {
        const std::string kind = kube::stringOr(object, "kind");
        const std::string apiVersion = kube::stringOr(object, "apiVersion");
        const std::string version =
            apiVersion.substr(apiVersion.find('/') == std::string::npos ? 0 : apiVersion.find('/') + 1);
        return ApiStatus::badRequest(kind + " in version " + kube::goQuote(version) +
                                     " cannot be handled as a " + kind + ": " + error);
    }

    // Warning headers, as kube-apiserver sends them (kubectl prints "Warning: <text>").
    static void addWarnings(httplib::Response &res, const std::vector<std::string> &warnings)
    {
        for (const auto &w : warnings)
            res.set_header("Warning", "299 - " + kube::goQuote(w));
    }

    // Who writes: the fieldManager parameter, else the product of the User-Agent ("kubectl",
    // "curl"), as kube-apiserver names managers.
    static FieldManagerContext managerFor(const httplib::Request &req, const ResourcePath &path)
    {
        FieldManagerContext ctx;
        ctx.manager = param(req, "fieldManager");
        if (ctx.manager.empty()) {
            const std::string agent = req.get_header_value("User-Agent");
            ctx.manager = agent.substr(0, agent.find('/'));
        }
        ctx.apiVersion = api::apiVersion(*path.kind);
        ctx.subresource = path.subresource;
        return ctx;
    }

    static void setManagedFields(Json &object, Json managed)
    {
        if (managed.empty())
            object["metadata"].erase("managedFields");
        else
            object["metadata"]["managedFields"] = std::move(managed);
    }

    // Puts the URL's namespace into the object; a different one in the body is an error.
    // The object of a create or update: JSON, or protobuf for the kinds protobufbody.h decodes
    // (another kind is a 415).
    static kube::Result<Json> objectBody(const httplib::Request &req, const std::string &text)
    {
        if (isProtobufContentType(req.get_header_value("Content-Type"))) {
            auto decoded = decodeProtobufBody(text);
            if (!decoded)
                return decoded.error();
            const std::string kind = kube::stringOr(*decoded, "kind");
            if (kind == "DeleteOptions" || kind == "Eviction")
                return ApiStatus::badRequest("the body is a " + kind + ", not an object to store");
            return decoded;
        }
        return body(text);
    }

    bool placeInNamespace(Json &object, const ResourcePath &path, httplib::Response &res)
    {
        if (!object.is_object()) {
            sendError(res, ApiStatus::badRequest("the body must be a JSON object"));
            return false;
        }
        if (!object.contains("metadata") || !object["metadata"].is_object())
            object["metadata"] = Json::object();
        if (!api::isNamespaced(*path.kind))
            return true;
        const std::string bodyNs = kube::stringOr(object["metadata"], "namespace");
        if (!bodyNs.empty() && !path.ns.empty() && bodyNs != path.ns) {
            sendError(res, ApiStatus::badRequest("the namespace of the provided object does not match the "
                                                 "namespace sent on the request"));
            return false;
        }
        if (!path.ns.empty())
            object["metadata"]["namespace"] = path.ns;
        return true;
    }

    bool checkKind(Json &object, const ResourcePath &path, httplib::Response &res)
    {
        const std::string kind = kube::stringOr(object, "kind");
        const std::string apiVersion = kube::stringOr(object, "apiVersion");
        if (kind.empty())
            object["kind"] = api::kindName(*path.kind);
        if (apiVersion.empty())
            object["apiVersion"] = api::apiVersion(*path.kind);
        if ((!kind.empty() && kind != api::kindName(*path.kind)) ||
            (!apiVersion.empty() && apiVersion != api::apiVersion(*path.kind))) {
            sendError(res, ApiStatus::badRequest("the API version in the data (" + apiVersion +
                                                 ") and kind (" + kind + ") do not match the resource " +
                                                 api::qualifiedResource(*path.kind)));
            return false;
        }
        return true;
    }

    void create(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path)
    {
        const auto opts = writeOptions(req);
        if (!opts)
            return sendError(res, opts.error());
        auto object = objectBody(req, text);
        if (!object)
            return sendError(res, object.error());
        if (api::isNamespaced(*path.kind) && path.ns.empty())
            return sendError(res, notFoundPath());
        if (!placeInNamespace(*object, path, res) || !checkKind(*object, path, res))
            return;
        const auto validation = fieldValidationFrom(req, "CreateOptions");
        if (!validation)
            return sendError(res, validation.error());
        std::vector<std::string> warnings;
        if (const auto strict = decodeFields(*object, *validation, warnings, jsonTextOf(req, text)))
            return sendError(res, strictBodyError(*object, *strict));
        const std::string name = kube::stringOr((*object)["metadata"], "name");
        FieldManagerContext ctx = managerFor(req, path);
        auto created = engine->call([&](engine::Cluster &c) -> kube::Result<Json> {
            // The creator owns every field of the object as it will be stored (defaults too).
            engine::WriteOptions dry = *opts;
            dry.dryRun = true;
            auto would = c.create(*object, dry);
            if (!would)
                return would.error();
            ctx.time = kube::formatRfc3339(c.now());
            setManagedFields(*object, FieldManager::update(nullptr, *would, ctx));
            return c.create(*object, *opts);
        });
        addWarnings(res, warnings);
        if (!created)
            return sendError(res, created.error(), path, name);
        send(res, 201, *created);
    }

    void update(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path)
    {
        const auto opts = writeOptions(req);
        if (!opts)
            return sendError(res, opts.error());
        auto object = objectBody(req, text);
        if (!object)
            return sendError(res, object.error());
        if (!placeInNamespace(*object, path, res) || !checkKind(*object, path, res))
            return;
        const std::string bodyName = kube::stringOr((*object)["metadata"], "name");
        if (bodyName != path.name)
            return sendError(res, api::nameMismatch(bodyName, path.name));
        const auto validation = fieldValidationFrom(req, "UpdateOptions");
        if (!validation)
            return sendError(res, validation.error());
        std::vector<std::string> warnings;
        if (const auto strict = decodeFields(*object, *validation, warnings, jsonTextOf(req, text)))
            return sendError(res, strictBodyError(*object, *strict));
        const bool status = path.subresource == "status";
        FieldManagerContext ctx = managerFor(req, path);
        auto updated = engine->call([&](engine::Cluster &c) -> kube::Result<Json> {
            auto write = [&](const engine::WriteOptions &o) {
                return status ? c.updateStatus(*object, o) : c.update(*object, o);
            };
            const auto live = c.get(*path.kind, path.ns, path.name);
            engine::WriteOptions dry = *opts;
            dry.dryRun = true;
            auto would = write(dry);
            if (!would)
                return would.error();
            ctx.time = kube::formatRfc3339(c.now());
            setManagedFields(*object, FieldManager::update(live ? &*live : nullptr, *would, ctx));
            return write(*opts);
        });
        addWarnings(res, warnings);
        if (!updated)
            return sendError(res, updated.error(), path, path.name);
        send(res, 200, *updated);
    }

    void patch(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path)
    {
        auto opts = writeOptions(req);
        if (!opts)
            return sendError(res, opts.error());
        const auto validation = fieldValidationFrom(req, "PatchOptions");
        if (!validation)
            return sendError(res, validation.error());
        if (req.has_param("force") &&
            lower(req.get_header_value("Content-Type")).rfind("application/apply-patch+yaml", 0) != 0) {
            ApiStatus st = ApiStatus::invalid("PatchOptions.meta.k8s.io", "",
                                              "force: Forbidden: may not be specified for non-apply patch");
            st.causes.push_back(
                {"FieldValueForbidden", "Forbidden: may not be specified for non-apply patch", "force"});
            return sendError(res, st);
        }
        // The patched object is decoded like a body (Strict refuses it as an invalid patch), and
        // the patcher owns what it changed.
        std::vector<std::string> warnings;
        FieldManagerContext ctx = managerFor(req, path);
        std::optional<Json> live;
        opts->decode = [&](Json &object) -> kube::Result<void> {
            const auto strict = decodeFields(object, *validation, warnings);
            if (!strict) {
                if (live)
                    setManagedFields(object, FieldManager::update(&*live, object, ctx));
                return {};
            }
            const std::string why = "Invalid value: " + kube::goQuote(kube::goJson(object)) + ": " + *strict;
            ApiStatus st = ApiStatus::invalid(api::qualifiedKind(*path.kind), path.name, "patch: " + why);
            st.causes.push_back({"FieldValueInvalid", why, "patch"});
            return st;
        };
        const std::optional<api::PatchType> known = patchTypeOf(req);
        // Strategic merge is for the built-in kinds only.
        const bool takesIt =
            known && !(*known == api::PatchType::Strategic && *path.kind == api::Kind::NodeUpgradeRollout);
        if (!takesIt && mediaType(req) == "application/apply-patch+yaml")
            return applyPatch(req, text, res, path, *opts, *validation);
        if (!takesIt)
            return sendError(res, {415, "UnsupportedMediaType",
                                   "the body of the request was in an unknown format - accepted media types "
                                   "include: application/json-patch+json, application/merge-patch+json, "
                                   "application/apply-patch+yaml" +
                                       std::string(*path.kind == api::Kind::NodeUpgradeRollout
                                                       ? ""
                                                       : ", application/strategic-merge-patch+json")});
        const api::PatchType type = *known;
        auto patchBody = body(text);
        if (!patchBody)
            return sendError(res, patchBody.error());
        const bool status = path.subresource == "status";
        auto patched = engine->call([&](engine::Cluster &c) -> kube::Result<Json> {
            ctx.time = kube::formatRfc3339(c.now());
            if (auto current = c.get(*path.kind, path.ns, path.name))
                live = std::move(*current);
            return status ? c.patchStatus(*path.kind, path.ns, path.name, type, *patchBody, *opts)
                          : c.patch(*path.kind, path.ns, path.name, type, *patchBody, *opts);
        });
        addWarnings(res, warnings);
        if (!patched)
            return sendError(res, patched.error(), path, path.name);
        send(res, 200, *patched);
    }

    // The Content-Type without parameters, lower case.
    static std::string mediaType(const httplib::Request &req)
    {
        const std::string contentType = lower(req.get_header_value("Content-Type"));
        return contentType.substr(0, contentType.find(';'));
    }

    // The patch type a PATCH's Content-Type names (an apply patch is none of them).
    static std::optional<api::PatchType> patchTypeOf(const httplib::Request &req)
    {
        const std::string type = mediaType(req);
        if (type == "application/merge-patch+json")
            return api::PatchType::Merge;
        if (type == "application/json-patch+json")
            return api::PatchType::Json;
        if (type == "application/strategic-merge-patch+json")
            return api::PatchType::Strategic;
        return std::nullopt;
    }

    // GET, PUT and PATCH of replicasets/NAME/scale (an autoscaling/v1 Scale); the engine owns
    // the subresource, this only decodes the request.
    void scale(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path)
    {
        const std::string &m = req.method;
        if (m == "GET") {
            auto got =
                engine->call([&](engine::Cluster &c) { return c.getScale(*path.kind, path.ns, path.name); });
            if (!got)
                return sendError(res, got.error(), path, path.name);
            return send(res, 200, *got);
        }
        auto opts = writeOptions(req);
        if (!opts)
            return sendError(res, opts.error());
        std::optional<api::PatchType> type;
        if (m == "PATCH") {
            type = patchTypeOf(req);
            if (!type)
                return sendError(res,
                                 {415, "UnsupportedMediaType",
                                  "the body of the request was in an unknown format - accepted media types "
                                  "include: application/json-patch+json, application/merge-patch+json, "
                                  "application/strategic-merge-patch+json"});
        }
        auto in = m == "PATCH" ? body(text) : objectBody(req, text);
        if (!in)
            return sendError(res, in.error());
        auto written = engine->call([&](engine::Cluster &c) {
            return type ? c.patchScale(*path.kind, path.ns, path.name, *type, *in, *opts)
                        : c.updateScale(*path.kind, path.ns, path.name, *in, *opts);
        });
        if (!written)
            return sendError(res, written.error(), path, path.name);
        send(res, 200, *written);
    }

    // Server-side apply: the body is the manager's configuration (YAML or JSON); the object is
    // created when it does not exist.
    void applyPatch(const httplib::Request &req, const std::string &text, httplib::Response &res,
                    const ResourcePath &path, const engine::WriteOptions &opts, FieldValidation validation)
    {
        FieldManagerContext ctx = managerFor(req, path);
        if (param(req, "fieldManager").empty()) {
            ApiStatus st = ApiStatus::invalid("PatchOptions.meta.k8s.io", "",
                                              "fieldManager: Required value: is required for apply patch");
            st.causes.push_back(
                {"FieldValueRequired", "Required value: is required for apply patch", "fieldManager"});
            return sendError(res, st);
        }
        const std::string force = param(req, "force");
        if (!force.empty() && force != "true" && force != "false")
            return sendError(res,
                             ApiStatus::badRequest("force: invalid boolean value " + kube::goQuote(force)));
        auto docs = kube::parseYamlDocuments(text, "body");
        if (!docs)
            return sendError(res, ApiStatus::badRequest("error decoding YAML: " + docs.error().message));
        if (docs->size() != 1 || !(*docs)[0].value.is_object())
            return sendError(res, ApiStatus::badRequest("the apply configuration must be one object"));
        Json config = std::move((*docs)[0].value);
        if (!placeInNamespace(config, path, res) || !checkKind(config, path, res))
            return;
        const std::string name = kube::stringOr(config["metadata"], "name");
        if (name.empty())
            config["metadata"]["name"] = path.name;
        else if (name != path.name)
            return sendError(res, api::nameMismatch(name, path.name));
        std::vector<std::string> warnings;
        if (const auto strict = decodeFields(config, validation, warnings))
            return sendError(res, strictBodyError(config, *strict));
        const bool status = path.subresource == "status";
        bool created = false;
        auto applied = engine->call([&](engine::Cluster &c) -> kube::Result<Json> {
            ctx.time = kube::formatRfc3339(c.now());
            auto live = c.get(*path.kind, path.ns, path.name);
            if (!live && live.error().code != 404)
                return live.error();
            if (!live && status)
                return live.error();
            auto merged = FieldManager::apply(live ? &*live : nullptr, config, ctx, force == "true");
            if (!merged)
                return merged.error();
            if (!live) {
                created = true;
                return c.create(*merged, opts);
            }
            (*merged)["metadata"]["resourceVersion"] = kube::stringOr((*live)["metadata"], "resourceVersion");
            return status ? c.updateStatus(*merged, opts) : c.update(*merged, opts);
        });
        addWarnings(res, warnings);
        if (!applied)
            return sendError(res, applied.error(), path, path.name);
        send(res, created ? 201 : 200, *applied);
    }

    // DeleteOptions come from the body (kubectl sends dryRun, propagationPolicy, the grace
    // period and preconditions there) and from the query (curl, older clients); the query wins
    // where both are set (the caller applies a query's grace period).
    static kube::Result<api::DeleteOptions> deleteOptions(const httplib::Request &req, const Json &body)
    {
        api::DeleteOptions o;
        if (auto g = body.find("gracePeriodSeconds"); g != body.end() && g->is_number_integer())
            o.gracePeriodSeconds = g->get<std::int64_t>();
        if (auto p = body.find("preconditions"); p != body.end() && p->is_object()) {
            o.preconditions.uid = kube::stringOr(*p, "uid");
            o.preconditions.resourceVersion = kube::stringOr(*p, "resourceVersion");
        }
        std::vector<std::string> dryRun;
        if (auto d = body.find("dryRun"); d != body.end() && !d->is_null()) {
            if (!d->is_array())
                return ApiStatus::badRequest("DeleteOptions.dryRun must be a list of strings");
            for (const auto &v : *d) {
                if (!v.is_string())
                    return ApiStatus::badRequest("DeleteOptions.dryRun must be a list of strings");
                dryRun.push_back(v.get<std::string>());
            }
        }
        auto dry = dryRunFrom(req, std::move(dryRun));
        if (!dry)
            return dry.error();
        o.dryRun = *dry;
        std::string policy;
        if (auto p = body.find("propagationPolicy"); p != body.end() && p->is_string())
            policy = p->get<std::string>();
        else if (p != body.end() && !p->is_null())
            return ApiStatus::badRequest("DeleteOptions.propagationPolicy must be a string");
        if (const std::string q = req.get_param_value("propagationPolicy"); !q.empty())
            policy = q;
        // The deprecated orphanDependents flag, when no policy is given.
        bool orphan = false;
        if (auto od = body.find("orphanDependents"); od != body.end() && od->is_boolean())
            orphan = od->get<bool>();
        if (const std::string q = req.get_param_value("orphanDependents"); !q.empty())
            orphan = q == "true";
        if (!policy.empty() && body.contains("orphanDependents") && !body["orphanDependents"].is_null())
            return ApiStatus{422, "Invalid",
                             "DeleteOptions: orphanDependents and propagationPolicy cannot both be set"};
        if (policy == "Orphan" || (policy.empty() && orphan))
            o.propagation = api::DeletePropagation::Orphan;
        else if (policy == "Foreground")
            o.propagation = api::DeletePropagation::Foreground;
        else if (policy.empty() || policy == "Background")
            o.propagation = api::DeletePropagation::Background;
        else
            return ApiStatus{422, "Invalid",
                             "DeleteOptions.propagationPolicy: Unsupported value: \"" + policy +
                                 "\": supported values: \"Foreground\", \"Background\", \"Orphan\""};
        return o;
    }

    void remove(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path)
    {
        Json options = Json::object();
        if (!text.empty()) {
            auto b = optionsBody(req, text);
            if (!b)
                return sendError(res, b.error());
            if (b->is_object())
                options = std::move(*b);
        }
        auto deleteOpts = deleteOptions(req, options);
        if (!deleteOpts)
            return sendError(res, deleteOpts.error());
        if (const std::string g = param(req, "gracePeriodSeconds"); !g.empty()) {
            auto n = parseRv(g);
            if (!n)
                return sendError(res, ApiStatus::badRequest("invalid gracePeriodSeconds: " + g));
            deleteOpts->gracePeriodSeconds = static_cast<std::int64_t>(*n);
        }
        auto removed = engine->call(
            [&](engine::Cluster &c) { return c.remove(*path.kind, path.ns, path.name, *deleteOpts); });
        if (!removed)
            return sendError(res, removed.error(), path, path.name);
        send(res, 200, *removed);
    }

    // POST pods/NAME/eviction with a policy/v1 (or v1beta1) Eviction. The dry run comes from
    // the query or the body's deleteOptions; when both name one they must agree.
    void evict(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path)
    {
        auto b = optionsBody(req, text);
        if (!b)
            return sendError(res, b.error());
        if (!b->is_object())
            return sendError(res, ApiStatus::badRequest("the body must be an Eviction object"));
        const std::string kind =
            b->contains("kind") && (*b)["kind"].is_string() ? (*b)["kind"].get<std::string>() : std::string();
        const std::string apiVersion = b->contains("apiVersion") && (*b)["apiVersion"].is_string()
                                           ? (*b)["apiVersion"].get<std::string>()
                                           : std::string();
        if ((!kind.empty() && kind != "Eviction") ||
            (!apiVersion.empty() && apiVersion != "policy/v1" && apiVersion != "policy/v1beta1"))
            return sendError(
                res, ApiStatus::badRequest("not a Eviction object: " + apiVersion + ", Kind=" + kind));
        std::string bodyName;
        if (auto m = b->find("metadata"); m != b->end() && m->is_object())
            if (auto n = m->find("name"); n != m->end() && n->is_string())
                bodyName = n->get<std::string>();
        if (bodyName != path.name)
            return sendError(res,
                             ApiStatus::badRequest("name in URL does not match name in Eviction object"));
        Json opts = Json::object();
        if (auto d = b->find("deleteOptions"); d != b->end() && d->is_object())
            opts = *d;
        const bool bodyDryRun =
            opts.contains("dryRun") && opts["dryRun"].is_array() && !opts["dryRun"].empty();
        const bool queryDryRun = req.get_param_value_count("dryRun") > 0;
        if (bodyDryRun && queryDryRun) {
            Json fromQuery = Json::array();
            for (std::size_t i = 0, n = req.get_param_value_count("dryRun"); i < n; ++i)
                fromQuery.push_back(req.get_param_value("dryRun", i));
            if (fromQuery != opts["dryRun"])
                return sendError(res, ApiStatus::badRequest(
                                          "Non-matching dry-run options in request and content: " +
                                          kube::goJson(fromQuery) + " and " + kube::goJson(opts["dryRun"])));
        }
        const auto parsed = deleteOptions(req, opts);
        if (!parsed)
            return sendError(res, parsed.error());
        auto done = engine->call([&](engine::Cluster &c) { return c.evict(path.ns, path.name, *parsed); });
        if (!done)
            return sendError(res, done.error(), path, path.name);
        // metav1.Status{Status: Success}, answered with 201 Created as for any create.
        send(res, 201,
             {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", Json::object()}, {"status", "Success"}});
    }
};

ApiServer::ApiServer(std::unique_ptr<engine::Cluster> cluster, ServerOptions options)
    : d(std::make_unique<Impl>(std::move(cluster), std::move(options)))
{}

ApiServer::~ApiServer()
{
    stop();
}

bool ApiServer::isLoopback(const std::string &host)
{
    if (host == "localhost")
        return true;
    std::string h = host;
    if (h.size() > 2 && h.front() == '[' && h.back() == ']')
        h = h.substr(1, h.size() - 2);
    in_addr v4{};
    if (inet_pton(AF_INET, h.c_str(), &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    if (inet_pton(AF_INET6, h.c_str(), &v6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&v6);
    return false;
}

kube::Result<void> ApiServer::start()
{
    if (d->started.exchange(true))
        return ApiStatus::internal("the server was already started");
    if (!isLoopback(d->options.host))
        return ApiStatus::badRequest("refusing to listen on " + d->options.host +
                                     ": the embedded API server serves loopback addresses only");
    if (d->options.tls) {
        auto material = d->options.tlsMaterial ? kube::Result<TlsMaterial>(*d->options.tlsMaterial)
                                               : TlsMaterial::generate();
        if (!material)
            return material.error();
        d->caPem = material->caCertificatePem();
        // httplib takes the certificate and key as OpenSSL objects: nothing touches the disk.
        BIO *certBio = BIO_new_mem_buf(material->serverCertificatePem().data(),
                                       static_cast<int>(material->serverCertificatePem().size()));
        BIO *keyBio = BIO_new_mem_buf(material->serverKeyPem().data(),
                                      static_cast<int>(material->serverKeyPem().size()));
        X509 *cert = certBio ? PEM_read_bio_X509(certBio, nullptr, nullptr, nullptr) : nullptr;
        EVP_PKEY *key = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr) : nullptr;
        if (cert && key)
            d->http = std::make_unique<httplib::SSLServer>(cert, key);
        X509_free(cert);
        EVP_PKEY_free(key);
        BIO_free(certBio);
        BIO_free(keyBio);
        if (!d->http || !d->http->is_valid())
            return ApiStatus::internal("TLS setup: the server certificate was not accepted");
    } else {
        d->http = std::make_unique<httplib::Server>();
    }
    const ServerOptions &o = d->options;
    const auto threads = static_cast<std::size_t>(std::max({4, o.threads, o.maxWatches + 4}));
    d->http->new_task_queue = [threads] { return new ConnectionPool(threads); };
    d->http->set_read_timeout(o.readTimeout);
    d->http->set_write_timeout(o.writeTimeout);
    d->http->set_keep_alive_timeout(
        static_cast<time_t>(std::max<std::int64_t>(1, o.keepAliveTimeout.count())));
    d->http->set_keep_alive_max_count(static_cast<std::size_t>(std::max(1, o.keepAliveMaxRequests)));
    d->http->set_payload_max_length(o.maxBodyBytes);
    // Small responses go out at once: with Nagle's algorithm a reused connection waits for the
    // client's delayed ACK (40 ms or more) before each short write.
    d->http->set_tcp_nodelay(true);
    // Every body leaves through finishBody: compressed as kube-apiserver compresses, or not at all.
    d->http->set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
        if (d->admit(req, res))
            return httplib::Server::HandlerResponse::Unhandled;
        finishBody(req, res);
        return httplib::Server::HandlerResponse::Handled;
    });
    const httplib::Server::Handler handler = [this](const httplib::Request &req, httplib::Response &res) {
        try {
            d->handle(req, {}, res);
        } catch (const std::exception &e) {
            sendError(res, ApiStatus::internal(e.what()));
        }
        finishBody(req, res);
    };
    // POST, PUT, PATCH and DELETE go through the content reader, so the body is read (and
    // limited) by the handler rather than buffered whole by httplib.
    const httplib::Server::HandlerWithContentReader withBody =
        [this](const httplib::Request &req, httplib::Response &res, const httplib::ContentReader &reader) {
            try {
                d->handleWithBody(req, res, reader);
            } catch (const std::exception &e) {
                sendError(res, ApiStatus::internal(e.what()));
            }
            finishBody(req, res);
        };
    const std::string any = R"(/.*)";
    d->http->Get(any, handler);
    d->http->Post(any, withBody);
    d->http->Put(any, withBody);
    d->http->Patch(any, withBody);
    d->http->Delete(any, withBody);

    std::string bindHost = d->options.host == "localhost" ? std::string("127.0.0.1") : d->options.host;
    if (bindHost.size() > 2 && bindHost.front() == '[')
        bindHost = bindHost.substr(1, bindHost.size() - 2);
    if (d->options.port == 0) {
        d->port = d->http->bind_to_any_port(bindHost);
        if (d->port <= 0)
            return ApiStatus::internal("cannot bind to " + d->options.host);
    } else {
        if (!d->http->bind_to_port(bindHost, d->options.port))
            return ApiStatus::internal("cannot bind to " + d->options.host + ":" +
                                       std::to_string(d->options.port) + " (address in use?)");
        d->port = d->options.port;
    }
    // What kube-apiserver's bootstrap controller keeps: the `kubernetes` Service in default,
    // on the range's first cluster IP, pointing at the server's own port — created at start and
    // put back every bootstrapInterval when someone deleted it.
    const int port = d->port;
    auto ensureKubernetesService = [port](engine::Cluster &c) {
        const Json service = {
            {"apiVersion", "v1"},
            {"kind", "Service"},
            {"metadata",
             {{"name", "kubernetes"},
              {"namespace", "default"},
              {"labels", {{"component", "apiserver"}, {"provider", "kubernetes"}}}}},
            {"spec",
             {{"type", "ClusterIP"},
              {"clusterIP", "10.96.0.1"},
              {"ports",
               Json::array(
                   {{{"name", "https"}, {"port", 443}, {"protocol", "TCP"}, {"targetPort", port}}})}}}};
        if (!c.get(api::Kind::Service, "default", "kubernetes"))
            (void)c.create(service);
    };
    d->engine->call([&](engine::Cluster &c) {
        ensureKubernetesService(c);
        return 0;
    });
    d->engine->setReconcile(ensureKubernetesService, d->options.bootstrapInterval);
    d->engine->start();
    d->listenThread = std::thread([this] {
        // Writing to a client that hung up raises SIGPIPE where OpenSSL writes to the socket;
        // blocked here, it is inherited by every worker and the write just fails with EPIPE.
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
        d->http->listen_after_bind();
    });
    return {};
}

void ApiServer::stop()
{
    if (!d->started || d->stopped.exchange(true))
        return;
    d->engine->hub().close();
    if (d->http)
        d->http->stop();
    if (d->listenThread.joinable())
        d->listenThread.join();
    d->engine->stop();
}

int ApiServer::port() const
{
    return d->port;
}

std::string ApiServer::url() const
{
    std::string host = d->options.host;
    if (host.find(':') != std::string::npos && host.front() != '[')
        host = "[" + host + "]";
    return std::string(d->options.tls ? "https://" : "http://") + host + ":" + std::to_string(d->port);
}

const std::string &ApiServer::caCertificatePem() const
{
    return d->caPem;
}

const ServerOptions &ApiServer::options() const
{
    return d->options;
}

void ApiServer::withCluster(const std::function<void(engine::Cluster &)> &fn)
{
    d->engine->call([&](engine::Cluster &c) {
        fn(c);
        return 0;
    });
}

} // namespace server
