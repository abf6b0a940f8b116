#pragma once
// The API server's private parts, shared by its three files: the request helpers (bodies,
// errors, parameters), the pagers of paged lists, the watch streams, and ApiServer::Impl — the
// handler of every request. apiserver.cpp holds the helpers, admission and the dispatch
// (Impl's core) and ApiServer itself; apiserverreads.cpp the reads (get, list, watch);
// apiserverwrites.cpp the writes (create, update, patch, scale, delete, eviction).

#include "models/kube/jsonfield.h"
#include "models/server/apiserver.h"

#include "models/api/fieldmanager.h"
#include "models/api/selector.h"
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

// List and watch selectors are the API's own (models/api/selector.h).
using api::Selector;

using api::FieldManager;
using api::FieldManagerContext;
using api::Kind;
using kube::ApiStatus;
using kube::Json;

constexpr const char *kJson = "application/json";
// Not "application/json": cpp-httplib gzips that content type when the client accepts gzip,
// and its compressor holds back data until the stream ends. Go's client reads the media type
// and ignores the parameter; kube-apiserver uses the same form for streaming media types.
constexpr const char *kWatchJson = "application/json;stream=watch";

std::string lower(std::string s);

bool wantsTable(const httplib::Request &req);

std::string param(const httplib::Request &req, const char *name);

bool flag(const httplib::Request &req, const char *name);

// Kubernetes Status for an error, with details naming what failed.
Json statusJson(const ApiStatus &st, const ResourcePath &path, const std::string &name);

// res.set_content without its copy of the body.
void setBody(httplib::Response &res, std::string body, const std::string &contentType);

void send(httplib::Response &res, int code, const Json &body, const std::string &contentType = kJson);

void sendError(httplib::Response &res, const ApiStatus &st, const ResourcePath &path = {},
               const std::string &name = {});

ApiStatus notFoundPath();
ApiStatus methodNotAllowed();

// kube-apiserver's answer to a resourceVersion newer than any it has (storage's
// NewTooLargeResourceVersionError): 504 Timeout with a ResourceVersionTooLarge cause, retry in 1s.
Json tooLargeResourceVersion(const std::string &requested, std::uint64_t current);

// Hands `body` to cpp-httplib as a content provider of known length, which it sends as it is (it
// compresses only bodies it holds itself). `thenClose`: the provider reports failure once it has
// written, which is how cpp-httplib is told not to read another request from the connection.
void provideBody(httplib::Response &res, std::string body, bool thenClose);

// Closes the connection after this response (so the rest of a refused request body is never
// read).
void closeAfter(httplib::Response &res);

// Compresses res.body when kube-apiserver would (responsecompression.h) and hands it over.
void finishBody(const httplib::Request &req, httplib::Response &res);

void sendAndClose(httplib::Response &res, int code, const Json &body);

bool hasBody(const httplib::Request &req);

kube::Result<std::uint64_t> parseRv(const std::string &text);

std::string resourceVersionOf(const Json &o);

std::string objectNamespace(const Json &o);

// ---- continue tokens ---------------------------------------------------------------------------
// Pods are paged by PodListPager, from the engine's versioned store. Other kinds: a paged list is served from
// a snapshot taken by its first page, so every page shows the same resourceVersion, as the API promises. A
// snapshot is let go when its last page has been served, after five minutes, or when more than kMaxSnapshots
// lists are open at once (the oldest first); its tokens get 410 Expired then. Nodes are kept as the engine's
// records (encoded a page at a time), the other kinds as JSON; the two pagers draw their ids from one
// sequence, so a token of one never names a list of the other.
inline std::atomic<std::uint64_t> gListIds{0};

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

    Impl(std::unique_ptr<sim::Cluster> cluster, ServerOptions o) : options(std::move(o))
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
    bool authorized(const httplib::Request &req) const;

    static bool bearerIs(const httplib::Request &req, const std::string &token);

    // The restricted identity of ServerOptions::viewerToken (reviews.h).
    bool isViewer(const httplib::Request &req) const;

    Identity identityOf(const httplib::Request &req) const;

    // cpp-httplib's pre-routing handler: runs after the headers and before any of the body is
    // read. Refusals of requests that carry a body close the connection, so the body is never
    // read at all.
    bool admit(const httplib::Request &req, httplib::Response &res) const;

    ApiStatus tooLarge() const;

    // Reads the body through cpp-httplib's content reader, which undoes chunking and
    // Content-Encoding, counting as it goes: nothing beyond maxBodyBytes is kept.
    void handleWithBody(const httplib::Request &req, httplib::Response &res,
                        const httplib::ContentReader &reader);

    void handle(const httplib::Request &req, const std::string &text, httplib::Response &res);
    // ApiServer::start's steps: the HTTP or HTTPS server, its options and handlers, the bound
    // port, the `kubernetes` Service and the engine, the listening thread.
    kube::Result<void> makeHttpServer();
    void route();
    kube::Result<void> bind();
    void bootstrap();
    void listen();
    // The discovery and OpenAPI documents, /version and /healthz; false when the method is
    // not the document's (the caller answers 405).
    bool serveDocument(const httplib::Request &req, httplib::Response &res, const ResourcePath &path);
    void serveOpenApiV3(const httplib::Request &req, httplib::Response &res, const ResourcePath &path);
    // One object and its subresources; false when the method is not one the object has.
    bool handleObject(const httplib::Request &req, const std::string &text, httplib::Response &res,
                      const ResourcePath &path);

    // kubectl auth can-i / whoami: POST only, nothing stored.
    void answerReview(const httplib::Request &req, const std::string &text, httplib::Response &res,
                      const ReviewResource &review);

    // ---- reads -------------------------------------------------------------------------------

    void get(const httplib::Request &req, httplib::Response &res, const ResourcePath &path);

    void list(const httplib::Request &req, httplib::Response &res, const ResourcePath &path);

    // Pods, the kind a large cluster has most of, are read a page at a time from the engine's
    // versioned store (PodListPager): selectors are applied to the engine's records as the page
    // fills, and only the page's pods are copied out and encoded, here, off the engine thread.
    template <typename Readable, typename Refuse>
    void listPods(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                  const Selector &labels, const Selector &fields, std::size_t limit, const std::string &cont,
                  const Readable &readable, const Refuse &refuse);

    // A list written as text, the same bytes as the tree sendList() would encode (keys in order:
    // apiVersion, items, kind, metadata); `item(body, i)` appends the i-th item.
    template <typename AppendItem>
    void sendListText(httplib::Response &res, Kind kind, std::size_t count, const AppendItem &item,
                      const Json &meta);

    // The page after a continue token, and the engine's clock; false when the token is refused
    // (the answer is sent).
    template <typename Item>
    bool continued(httplib::Response &res, ListPager<Item> &from, const std::string &cont, std::size_t limit,
                   typename ListPager<Item>::Page &page, kube::Timestamp &now);

    // Nodes: the first page copies the matching records out of the engine (selectors applied to
    // them), and each page is encoded here, off the engine thread, when it is asked for.
    template <typename Readable, typename Refuse>
    void listNodes(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                   const Selector &labels, const Selector &fields, std::size_t limit, const std::string &cont,
                   const Readable &readable, const Refuse &refuse);

    static Json listMeta(const std::string &resourceVersion, const std::string &continueToken,
                         std::optional<std::int64_t> remaining);

    void sendList(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                  std::vector<Json> pageItems, kube::Timestamp now, const std::string &resourceVersion,
                  const std::string &continueToken, std::optional<std::int64_t> remaining);

    void watch(const httplib::Request &req, httplib::Response &res, const ResourcePath &path);

    // Writes what is pending, or waits for the next events; ends the stream at its deadline,
    // on an ERROR, or when the server stops.
    bool pump(WatchStream &s, httplib::DataSink &sink);

    // ---- writes ------------------------------------------------------------------------------

    static kube::Result<Json> body(const std::string &text);

    // The body of a DELETE or an eviction: JSON, or the protobuf encoding kubectl 1.32 and later
    // send for DeleteOptions and Eviction.
    static kube::Result<Json> optionsBody(const httplib::Request &req, const std::string &text);

    // dryRun from the query (and, for deletions and evictions, from the options in the body):
    // "All" is the one value the API defines.
    static kube::Result<bool> dryRunFrom(const httplib::Request &req, std::vector<std::string> values = {});

    static kube::Result<sim::WriteOptions> writeOptions(const httplib::Request &req);

    // metav1.FieldValidation: what a write does with fields the kind's schema does not have.
    // Without the parameter kube-apiserver warns (Warn); kubectl sends Strict.
    enum class FieldValidation { Ignore, Warn, Strict };

    static kube::Result<FieldValidation> fieldValidationFrom(const httplib::Request &req,
                                                             const char *optionsKind);

    // The decoding of a body into the kind's type: unknown fields are dropped, and of a key
    // given twice the last value kept (Ignore; Warn: one warning each), or both refused
    // (Strict). `jsonText`: the body as sent, for the repeated keys (none looked for when
    // empty). Returns the strict decoding error's text ("strict decoding error: duplicate field
    // \"spec.replicas\", unknown field \"spec.foo\"") when Strict refuses.
    static std::optional<std::string> decodeFields(Json &object, FieldValidation mode,
                                                   std::vector<std::string> &warnings,
                                                   std::string_view jsonText = {});

    // The body's JSON text for decodeFields, or nothing when it came as protobuf.
    static std::string_view jsonTextOf(const httplib::Request &req, const std::string &text);

    // A create or update body that Strict refuses: 400, as the decoder's error.
    static ApiStatus strictBodyError(const Json &object, const std::string &error);

    // Warning headers, as kube-apiserver sends them (kubectl prints "Warning: <text>").
    static void addWarnings(httplib::Response &res, const std::vector<std::string> &warnings);

    // Who writes: the fieldManager parameter, else the product of the User-Agent ("kubectl",
    // "curl"), as kube-apiserver names managers.
    static FieldManagerContext managerFor(const httplib::Request &req, const ResourcePath &path);

    static void setManagedFields(Json &object, Json managed);

    // Puts the URL's namespace into the object; a different one in the body is an error.
    // The object of a create or update: JSON, or protobuf for the kinds protobufbody.h decodes
    // (another kind is a 415).
    static kube::Result<Json> objectBody(const httplib::Request &req, const std::string &text);

    bool placeInNamespace(Json &object, const ResourcePath &path, httplib::Response &res);

    bool checkKind(Json &object, const ResourcePath &path, httplib::Response &res);

    void create(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path);

    void update(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path);

    void patch(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path);

    // The Content-Type without parameters, lower case.
    static std::string mediaType(const httplib::Request &req);

    // The patch type a PATCH's Content-Type names (an apply patch is none of them).
    static std::optional<api::PatchType> patchTypeOf(const httplib::Request &req);

    // GET, PUT and PATCH of replicasets/NAME/scale (an autoscaling/v1 Scale); the engine owns
    // the subresource, this only decodes the request.
    void scale(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path);

    // Server-side apply: the body is the manager's configuration (YAML or JSON); the object is
    // created when it does not exist.
    void applyPatch(const httplib::Request &req, const std::string &text, httplib::Response &res,
                    const ResourcePath &path, const sim::WriteOptions &opts, FieldValidation validation);

    // DeleteOptions come from the body (kubectl sends dryRun, propagationPolicy, the grace
    // period and preconditions there) and from the query (curl, older clients); the query wins
    // where both are set (the caller applies a query's grace period).
    static kube::Result<api::DeleteOptions> deleteOptions(const httplib::Request &req, const Json &body);

    void remove(const httplib::Request &req, const std::string &text, httplib::Response &res,
                const ResourcePath &path);

    // POST pods/NAME/eviction with a policy/v1 (or v1beta1) Eviction. The dry run comes from
    // the query or the body's deleteOptions; when both name one they must agree.
    void evict(const httplib::Request &req, const std::string &text, httplib::Response &res,
               const ResourcePath &path);
};

} // namespace server
