#include "models/server/apiserverimpl.h"

namespace server {

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

void setBody(httplib::Response &res, std::string body, const std::string &contentType)
{
    res.body = std::move(body);
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", contentType);
}

void send(httplib::Response &res, int code, const Json &body, const std::string &contentType)
{
    res.status = code;
    setBody(res, kube::goJson(body), contentType);
}

void sendError(httplib::Response &res, const ApiStatus &st, const ResourcePath &path, const std::string &name)
{
    if (st.retryAfterSeconds > 0)
        res.set_header("Retry-After", std::to_string(st.retryAfterSeconds));
    send(res, st.code, statusJson(st, path, name));
}

ApiStatus notFoundPath()
{
    return {404, "NotFound", "the server could not find the requested resource"};
}

ApiStatus methodNotAllowed()
{
    return {405, "MethodNotAllowed", "the server does not allow this method on the requested resource"};
}

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

void closeAfter(httplib::Response &res)
{
    res.set_header("Connection", "close");
    provideBody(res, std::move(res.body), true);
}

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

bool ApiServer::Impl::authorized(const httplib::Request &req) const
{
    if (options.token.empty() || isViewer(req))
        return true;
    return bearerIs(req, options.token);
}

bool ApiServer::Impl::bearerIs(const httplib::Request &req, const std::string &token)
{
    const std::string header = req.get_header_value("Authorization");
    const auto space = header.find(' ');
    if (space == std::string::npos || lower(header.substr(0, space)) != "bearer")
        return false;
    std::string got = header.substr(space + 1);
    got = got.substr(0, got.find(' '));
    return got.size() == token.size() && CRYPTO_memcmp(got.data(), token.data(), got.size()) == 0;
}

bool ApiServer::Impl::isViewer(const httplib::Request &req) const
{
    return !options.viewerToken.empty() && bearerIs(req, options.viewerToken);
}

Identity ApiServer::Impl::identityOf(const httplib::Request &req) const
{
    if (isViewer(req))
        return Identity::Viewer;
    return options.token.empty() ? Identity::Anonymous : Identity::Admin;
}

bool ApiServer::Impl::admit(const httplib::Request &req, httplib::Response &res) const
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
        const std::string verb =
            Reviews::verbOf(req.method, path.type == ResourcePath::Type::Collection,
                            req.get_param_value("watch") == "true" || req.get_param_value("watch") == "1");
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

ApiStatus ApiServer::Impl::tooLarge() const
{
    return {413, "RequestEntityTooLarge",
            "the request body is larger than the limit of " + std::to_string(options.maxBodyBytes) +
                " bytes"};
}

void ApiServer::Impl::handleWithBody(const httplib::Request &req, httplib::Response &res,
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
        return sendAndClose(res, 400, ApiStatus::badRequest("the request body could not be read").toJson());
    handle(req, text, res);
    // httplib reads no body of a DELETE without Content-Length: a chunked one is still in
    // the connection, which therefore must not carry another request.
    if (req.method == "DELETE" && req.has_header("Transfer-Encoding") && !req.has_header("Content-Length"))
        closeAfter(res);
}

void ApiServer::Impl::handle(const httplib::Request &req, const std::string &text, httplib::Response &res)
{
    if (const ReviewResource *review = Reviews::match(req.path))
        return answerReview(req, text, res, *review);
    const ResourcePath path = ResourcePath::parse(req.path);
    const std::string &m = req.method;
    switch (path.type) {
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
        if (handleObject(req, text, res, path))
            return;
        break;
    default:
        if (serveDocument(req, res, path))
            return;
        break;
    }
    sendError(res, methodNotAllowed());
}

bool ApiServer::Impl::serveDocument(const httplib::Request &req, httplib::Response &res,
                                    const ResourcePath &path)
{
    const bool get = req.method == "GET";
    switch (path.type) {
    case ResourcePath::Type::NotFound:
        sendError(res, notFoundPath());
        return true;
    case ResourcePath::Type::Version:
        send(res, 200, Discovery::version());
        return true;
    case ResourcePath::Type::OpenApiV2: {
        if (!get)
            return false;
        const auto doc = Discovery::openApiV2(req.get_header_value("Accept"));
        res.status = 200;
        res.set_content(doc.body, doc.contentType.c_str());
        return true;
    }
    case ResourcePath::Type::OpenApiV3:
        if (!get)
            return false;
        serveOpenApiV3(req, res, path);
        return true;
    case ResourcePath::Type::Health:
        res.status = 200;
        res.set_content("ok", "text/plain");
        return true;
    case ResourcePath::Type::CoreVersions:
    case ResourcePath::Type::Groups: {
        if (!get)
            return false;
        const auto format = Discovery::negotiate(req.get_header_value("Accept"));
        const Json doc = path.type == ResourcePath::Type::CoreVersions
                             ? Discovery::core(format, options.host + ":" + std::to_string(port))
                             : Discovery::groups(format);
        send(res, 200, doc, Discovery::contentType(format));
        return true;
    }
    case ResourcePath::Type::Group:
        if (!get)
            return false;
        send(res, 200, Discovery::group(path.group));
        return true;
    case ResourcePath::Type::ResourceList:
        if (!get)
            return false;
        send(res, 200, Discovery::resourceList(path.group));
        return true;
    case ResourcePath::Type::Collection:
    case ResourcePath::Type::Object:
        break;
    }
    return false;
}

void ApiServer::Impl::serveOpenApiV3(const httplib::Request &req, httplib::Response &res,
                                     const ResourcePath &path)
{
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
}

bool ApiServer::Impl::handleObject(const httplib::Request &req, const std::string &text,
                                   httplib::Response &res, const ResourcePath &path)
{
    const std::string &m = req.method;
    if (path.subresource == "eviction" && *path.kind == Kind::Pod) {
        if (m == "POST")
            evict(req, text, res, path);
        else
            sendError(res, methodNotAllowed());
        return true;
    }
    if (path.subresource == "log" && *path.kind == Kind::Pod) {
        if (m != "GET")
            sendError(res, methodNotAllowed());
        else if (auto r = PodLogStream::serve(*engine, req, res, path.ns, path.name, options.tick * 4); !r)
            sendError(res, r.error(), path, path.name);
        return true;
    }
    if (path.subresource == "scale" && *path.kind == Kind::ReplicaSet) {
        if (m == "GET" || m == "PUT" || m == "PATCH")
            scale(req, text, res, path);
        else
            sendError(res, methodNotAllowed());
        return true;
    }
    if ((!path.subresource.empty() && path.subresource != "status") ||
        (path.subresource == "status" &&
         (*path.kind == Kind::ControllerRevision || *path.kind == Kind::Event))) {
        sendError(res, notFoundPath());
        return true;
    }
    if (m == "GET")
        get(req, res, path);
    else if (m == "PUT")
        update(req, text, res, path);
    else if (m == "PATCH")
        patch(req, text, res, path);
    else if (m == "DELETE" && path.subresource.empty())
        remove(req, text, res, path);
    else
        return false;
    return true;
}

void ApiServer::Impl::answerReview(const httplib::Request &req, const std::string &text,
                                   httplib::Response &res, const ReviewResource &review)
{
    if (req.method != "POST")
        return sendError(res, methodNotAllowed());
    auto b = objectBody(req, text);
    if (!b)
        return sendError(res, b.error());
    auto answer = Reviews::answer(review, *b, identityOf(req));
    if (!answer)
        return sendError(res, answer.error());
    send(res, 201, *answer);
}

ApiServer::ApiServer(std::unique_ptr<sim::Cluster> cluster, ServerOptions options)
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
    if (auto made = d->makeHttpServer(); !made)
        return made.error();
    d->route();
    if (auto bound = d->bind(); !bound)
        return bound.error();
    d->bootstrap();
    d->listen();
    return {};
}

kube::Result<void> ApiServer::Impl::makeHttpServer()
{
    if (!options.tls) {
        http = std::make_unique<httplib::Server>();
        return {};
    }
    auto material =
        options.tlsMaterial ? kube::Result<TlsMaterial>(*options.tlsMaterial) : TlsMaterial::generate();
    if (!material)
        return material.error();
    caPem = material->caCertificatePem();
    // httplib takes the certificate and key as OpenSSL objects: nothing touches the disk.
    BIO *certBio = BIO_new_mem_buf(material->serverCertificatePem().data(),
                                   static_cast<int>(material->serverCertificatePem().size()));
    BIO *keyBio =
        BIO_new_mem_buf(material->serverKeyPem().data(), static_cast<int>(material->serverKeyPem().size()));
    X509 *cert = certBio ? PEM_read_bio_X509(certBio, nullptr, nullptr, nullptr) : nullptr;
    EVP_PKEY *key = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr) : nullptr;
    if (cert && key)
        http = std::make_unique<httplib::SSLServer>(cert, key);
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(certBio);
    BIO_free(keyBio);
    if (!http || !http->is_valid())
        return ApiStatus::internal("TLS setup: the server certificate was not accepted");
    return {};
}

void ApiServer::Impl::route()
{
    const ServerOptions &o = options;
    const auto threads = static_cast<std::size_t>(std::max({4, o.threads, o.maxWatches + 4}));
    http->new_task_queue = [threads] { return new ConnectionPool(threads); };
    http->set_read_timeout(o.readTimeout);
    http->set_write_timeout(o.writeTimeout);
    http->set_keep_alive_timeout(static_cast<time_t>(std::max<std::int64_t>(1, o.keepAliveTimeout.count())));
    http->set_keep_alive_max_count(static_cast<std::size_t>(std::max(1, o.keepAliveMaxRequests)));
    http->set_payload_max_length(o.maxBodyBytes);
    // Small responses go out at once: with Nagle's algorithm a reused connection waits for the
    // client's delayed ACK (40 ms or more) before each short write.
    http->set_tcp_nodelay(true);
    // Every body leaves through finishBody: compressed as kube-apiserver compresses, or not at all.
    http->set_pre_routing_handler([this](const httplib::Request &req, httplib::Response &res) {
        if (admit(req, res))
            return httplib::Server::HandlerResponse::Unhandled;
        finishBody(req, res);
        return httplib::Server::HandlerResponse::Handled;
    });
    const httplib::Server::Handler handler = [this](const httplib::Request &req, httplib::Response &res) {
        try {
            handle(req, {}, res);
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
                handleWithBody(req, res, reader);
            } catch (const std::exception &e) {
                sendError(res, ApiStatus::internal(e.what()));
            }
            finishBody(req, res);
        };
    const std::string any = R"(/.*)";
    http->Get(any, handler);
    http->Post(any, withBody);
    http->Put(any, withBody);
    http->Patch(any, withBody);
    http->Delete(any, withBody);
}

kube::Result<void> ApiServer::Impl::bind()
{
    std::string bindHost = options.host == "localhost" ? std::string("127.0.0.1") : options.host;
    if (bindHost.size() > 2 && bindHost.front() == '[')
        bindHost = bindHost.substr(1, bindHost.size() - 2);
    if (options.port == 0) {
        port = http->bind_to_any_port(bindHost);
        if (port <= 0)
            return ApiStatus::internal("cannot bind to " + options.host);
        return {};
    }
    if (!http->bind_to_port(bindHost, options.port))
        return ApiStatus::internal("cannot bind to " + options.host + ":" + std::to_string(options.port) +
                                   " (address in use?)");
    port = options.port;
    return {};
}

// What kube-apiserver's bootstrap controller keeps: the `kubernetes` Service in default, on the
// range's first cluster IP, pointing at the server's own port — created at start and put back
// every bootstrapInterval when someone deleted it. Then the engine starts.
void ApiServer::Impl::bootstrap()
{
    auto ensureKubernetesService = [port = port](sim::Cluster &c) {
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
    engine->call([&](sim::Cluster &c) {
        ensureKubernetesService(c);
        return 0;
    });
    engine->setReconcile(ensureKubernetesService, options.bootstrapInterval);
    engine->start();
}

void ApiServer::Impl::listen()
{
    listenThread = std::thread([this] {
        // Writing to a client that hung up raises SIGPIPE where OpenSSL writes to the socket;
        // blocked here, it is inherited by every worker and the write just fails with EPIPE.
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
        http->listen_after_bind();
    });
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

void ApiServer::withCluster(const std::function<void(sim::Cluster &)> &fn)
{
    d->engine->call([&](sim::Cluster &c) {
        fn(c);
        return 0;
    });
}

} // namespace server
