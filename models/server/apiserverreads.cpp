#include "models/server/apiserverimpl.h"

namespace server {

void ApiServer::Impl::get(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
{
    struct Out
    {
        kube::Result<Json> object = Json();
        kube::Timestamp now = 0;
    };
    Out out = engine->call([&](sim::Cluster &c) {
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

void ApiServer::Impl::list(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
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
        return sendError(res, ApiStatus::badRequest(
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
        Out out = engine->call([&](sim::Cluster &c) {
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

template <typename Readable, typename Refuse>
void ApiServer::Impl::listPods(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                               const Selector &labels, const Selector &fields, std::size_t limit,
                               const std::string &cont, const Readable &readable, const Refuse &refuse)
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
    Out out = engine->call([&](sim::Cluster &c) {
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

template <typename AppendItem>
void ApiServer::Impl::sendListText(httplib::Response &res, Kind kind, std::size_t count,
                                   const AppendItem &item, const Json &meta)
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

template <typename Item>
bool ApiServer::Impl::continued(httplib::Response &res, ListPager<Item> &from, const std::string &cont,
                                std::size_t limit, typename ListPager<Item>::Page &page, kube::Timestamp &now)
{
    auto p = from.next(cont, limit);
    if (!p) {
        sendError(res, p.error());
        return false;
    }
    page = std::move(*p);
    now = engine->call([](sim::Cluster &c) { return c.now(); });
    return true;
}

template <typename Readable, typename Refuse>
void ApiServer::Impl::listNodes(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                                const Selector &labels, const Selector &fields, std::size_t limit,
                                const std::string &cont, const Readable &readable, const Refuse &refuse)
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
        Out out = engine->call([&](sim::Cluster &c) {
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

Json ApiServer::Impl::listMeta(const std::string &resourceVersion, const std::string &continueToken,
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

void ApiServer::Impl::sendList(const httplib::Request &req, httplib::Response &res, const ResourcePath &path,
                               std::vector<Json> pageItems, kube::Timestamp now,
                               const std::string &resourceVersion, const std::string &continueToken,
                               std::optional<std::int64_t> remaining)
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

void ApiServer::Impl::watch(const httplib::Request &req, httplib::Response &res, const ResourcePath &path)
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
    engine->call([&](sim::Cluster &c) {
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
        stream->pending.push_back(
            stream->line("ERROR", tooLargeResourceVersion(rvParam, engine->hub().headResourceVersion()), 0));
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
    res.set_chunked_content_provider(kWatchJson, [this, stream, slot](std::size_t, httplib::DataSink &sink) {
        return pump(*stream, sink);
    });
}

bool ApiServer::Impl::pump(WatchStream &s, httplib::DataSink &sink)
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
            s.pending.push_back(
                s.line("ERROR",
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

} // namespace server
