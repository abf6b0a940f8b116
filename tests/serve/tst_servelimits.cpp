// The embedded API server under hostile or unlucky clients: JSON nested too deep, request
// bodies too large (sized or chunked) or sent without credentials, slow and idle connections
// beside many open watches, the Bearer scheme in another case, resourceVersions across two
// server lives, and the TLS state kept between runs. Raw requests go through a loopback socket
// so the test controls every byte; everything else through the client library. Every load here
// is bounded in size and time.

#include "models/client/httptransport.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/server/responsecompression.h"
#include "models/server/servestate.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <memory>
#include <thread>

using kube::Json;

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<sim::Cluster> testCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    return c ? std::move(*c) : nullptr;
}

struct Running
{
    std::unique_ptr<server::ApiServer> server;
    std::unique_ptr<client::HttpTransport> transport;
};

Running startServer(server::ServerOptions options = {}, const std::string &clientToken = {})
{
    Running r;
    options.speed = 0;
    r.server = std::make_unique<server::ApiServer>(testCluster(), options);
    if (auto s = r.server->start(); !s) {
        qWarning("start: %s", s.error().message.c_str());
        r.server.reset();
        return r;
    }
    client::RestConfig config;
    config.server = r.server->url();
    config.caPem = r.server->caCertificatePem();
    config.token = clientToken;
    r.transport = std::make_unique<client::HttpTransport>(config);
    return r;
}

std::uint64_t wallClockMicros()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

// One plain TCP connection to the server, for requests the client library would not send.
class RawConnection
{
public:
    explicit RawConnection(int port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (m_fd >= 0 && ::connect(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~RawConnection()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    RawConnection(const RawConnection &) = delete;
    RawConnection &operator=(const RawConnection &) = delete;

    bool ok() const { return m_fd >= 0; }

    bool send(const std::string &data)
    {
        std::size_t done = 0;
        while (done < data.size()) {
            const ssize_t n = ::send(m_fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

    // True when the server has sent something (or closed) within `ms`.
    bool readable(int ms) const
    {
        pollfd p{m_fd, POLLIN, 0};
        return ::poll(&p, 1, ms) > 0;
    }

    // Reads until `until` appears, the server closes, or `ms` pass.
    std::string read(int ms, const std::string &until = "\r\n\r\n")
    {
        QElapsedTimer timer;
        timer.start();
        while (m_in.find(until) == std::string::npos && timer.elapsed() < ms) {
            if (!readable(static_cast<int>(std::max<qint64>(1, ms - timer.elapsed()))))
                break;
            char buf[8192];
            const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
            if (n <= 0) {
                m_closed = true;
                break;
            }
            m_in.append(buf, static_cast<std::size_t>(n));
        }
        return m_in;
    }

    // Waits for the server to close the connection.
    bool closedWithin(int ms)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_closed && timer.elapsed() < ms) {
            if (!readable(static_cast<int>(std::max<qint64>(1, ms - timer.elapsed()))))
                break;
            char buf[8192];
            const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
            if (n <= 0)
                m_closed = true;
            else
                m_in.append(buf, static_cast<std::size_t>(n));
        }
        return m_closed;
    }

    // One whole response with a Content-Length body: its head (status line and headers) and body.
    std::pair<std::string, std::string> response(int ms)
    {
        read(ms);
        const auto end = m_in.find("\r\n\r\n");
        if (end == std::string::npos)
            return {};
        const std::string head = m_in.substr(0, end + 2);
        const auto at = lowered(head).find("\r\ncontent-length:");
        if (at == std::string::npos)
            return {head, {}};
        const std::size_t length = std::strtoull(head.c_str() + at + 17, nullptr, 10);
        QElapsedTimer timer;
        timer.start();
        while (m_in.size() < end + 4 + length && !m_closed && timer.elapsed() < ms)
            read(static_cast<int>(ms - timer.elapsed()), std::string(1, '\0') + "never");
        std::string body = m_in.substr(end + 4, length);
        m_in.erase(0, end + 4 + body.size());
        return {head, body};
    }

    static std::string lowered(std::string s)
    {
        for (char &c : s)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }

    int status()
    {
        const std::string head = read(5000);
        if (head.rfind("HTTP/1.1 ", 0) != 0)
            return 0;
        return std::atoi(head.c_str() + 9);
    }

private:
    int m_fd = -1;
    std::string m_in;
    bool m_closed = false;
};

std::string request(const std::string &method, const std::string &path, const std::string &headers,
                    const std::string &body = {})
{
    std::string r = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers;
    if (!body.empty())
        r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

std::string chunk(const std::string &data)
{
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
}

std::string nested(int depth)
{
    std::string s;
    for (int i = 0; i < depth; ++i)
        s += "{\"a\":";
    s += "1";
    s += std::string(static_cast<std::size_t>(depth), '}');
    return s;
}

// The data of a gzip member; empty when it is not one.
std::string gunzip(const std::string &data)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return {};
    std::string out;
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        char buf[65536];
        zs.next_out = reinterpret_cast<Bytef *>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, sizeof buf - zs.avail_out);
    }
    inflateEnd(&zs);
    return rc == Z_STREAM_END ? out : std::string();
}

// The server still answers an ordinary request.
bool answers(client::Transport &t)
{
    auto r =
        t.request("GET", "/apis/apps/v1/namespaces/default/daemonsets/web", {}, {}, {}, "application/json");
    return r.ok();
}

} // namespace

class TstServeLimits : public QObject
{
    Q_OBJECT

private slots:
    void deeplyNestedBodiesAreBadRequests_data();
    void deeplyNestedBodiesAreBadRequests();
    void nestingWithinTheLimitIsServed();
    void chunkedBodiesOverTheLimitAre413();
    void unauthenticatedBodiesAreRefusedBeforeTheyAreRead();
    void oversizedContentLengthIsRefusedAtOnce();
    void watchesHaveABudgetAndSlowClientsTimeOut();
    void bearerSchemeIsCaseInsensitive_data();
    void bearerSchemeIsCaseInsensitive();
    void resourceVersionsClimbAcrossServerLives();
    void watchFromTheFutureIsTooLargeResourceVersion();
    void serveStateIsReusedAndOwnerOnly();
    void largeResponsesAreGzippedAsKubeApiserverDoes_data();
    void largeResponsesAreGzippedAsKubeApiserverDoes();
};

void TstServeLimits::deeplyNestedBodiesAreBadRequests_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("contentType");
    const QString ds = u"/apis/apps/v1/namespaces/default/daemonsets"_s;
    QTest::newRow("a merge patch") << u"PATCH"_s << ds + u"/web"_s << u"application/merge-patch+json"_s;
    QTest::newRow("a strategic merge patch")
        << u"PATCH"_s << ds + u"/web"_s << u"application/strategic-merge-patch+json"_s;
    QTest::newRow("a merge patch of the status")
        << u"PATCH"_s << ds + u"/web/status"_s << u"application/merge-patch+json"_s;
    QTest::newRow("a PUT") << u"PUT"_s << ds + u"/web"_s << u"application/json"_s;
    QTest::newRow("a POST") << u"POST"_s << ds << u"application/json"_s;
    QTest::newRow("a ControllerRevision whose data is JSON text")
        << u"POST"_s << u"/apis/apps/v1/namespaces/default/controllerrevisions"_s << u"application/json"_s;
}

void TstServeLimits::deeplyNestedBodiesAreBadRequests()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(QString, contentType);
    auto s = startServer();
    QVERIFY(s.server);
    // 100,000 levels in about 600 KB: recursive copies under mergePatch overflowed the stack.
    const std::string body =
        path.contains(u"controllerrevisions"_s)
            ? R"({"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"deep"},"revision":9,"data":")" +
                  std::string(100000, '[') + std::string(100000, ']') + "\"}"
            : R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"web"},"spec":)" +
                  nested(100000) + "}";
    auto r = s.transport->request(method.toStdString(), path.toStdString(), {}, body,
                                  contentType.toStdString(), "application/json");
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 400);
    QCOMPARE(QString::fromStdString(r.error().reason), u"BadRequest"_s);
    QVERIFY2(r.error().message.find("deeper than 1000 levels") != std::string::npos,
             r.error().message.c_str());
    QVERIFY(answers(*s.transport));
}

void TstServeLimits::nestingWithinTheLimitIsServed()
{
    auto s = startServer();
    QVERIFY(s.server);
    // An annotation-free field the engine keeps as given, 900 levels down: merged, stored and
    // printed back without trouble.
    const std::string patch = R"({"metadata":{"labels":{"deep":"yes"}},"spec":{"template":{"metadata":)"
                              R"({"annotations":{"x":"y"}}}},"status":)" +
                              nested(900) + "}";
    auto r = s.transport->request("PATCH", "/apis/apps/v1/namespaces/default/daemonsets/web", {}, patch,
                                  "application/merge-patch+json", "application/json");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QVERIFY(answers(*s.transport));
}

void TstServeLimits::chunkedBodiesOverTheLimitAre413()
{
    server::ServerOptions o;
    o.maxBodyBytes = 256 * 1024;
    auto s = startServer(o);
    QVERIFY(s.server);
    RawConnection c(s.server->port());
    QVERIFY(c.ok());
    QVERIFY(c.send(request("POST", "/apis/apps/v1/namespaces/default/daemonsets",
                           "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n")));
    // Up to 16 MiB offered in 64 KiB chunks; the server must answer long before the end.
    const std::string piece = chunk(std::string(64 * 1024, ' '));
    std::size_t sent = 0;
    while (sent < 16u * 1024 * 1024 && !c.readable(0) && c.send(piece))
        sent += 64 * 1024;
    QCOMPARE(c.status(), 413);
    QVERIFY2(sent < 12u * 1024 * 1024, QByteArray::number(qulonglong(sent)).constData());
    QVERIFY(c.read(2000, "}").find("RequestEntityTooLarge") != std::string::npos);
    QVERIFY(c.closedWithin(5000));
    QVERIFY(answers(*s.transport));

    // Within the limit, a chunked body is read as a whole.
    RawConnection ok(s.server->port());
    const std::string ns = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"chunked"}})";
    QVERIFY(ok.send(request("POST", "/api/v1/namespaces",
                            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n") +
                    chunk(ns.substr(0, 10)) + chunk(ns.substr(10)) + "0\r\n\r\n"));
    QCOMPARE(ok.status(), 201);
}

void TstServeLimits::unauthenticatedBodiesAreRefusedBeforeTheyAreRead()
{
    server::ServerOptions o;
    o.token = "the-token";
    auto s = startServer(o, "the-token");
    QVERIFY(s.server);
    RawConnection c(s.server->port());
    QVERIFY(c.ok());
    // A 1 GiB chunked upload without credentials: refused after the headers.
    QVERIFY(c.send(request("POST", "/apis/apps/v1/namespaces/default/daemonsets",
                           "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n") +
                   chunk(std::string(1024, 'x'))));
    QCOMPARE(c.status(), 401);
    QVERIFY(c.closedWithin(5000)); // the rest of the body is never read
    // The same without a body keeps the connection.
    RawConnection plain(s.server->port());
    QVERIFY(plain.send(request("GET", "/api/v1/namespaces", {})));
    QCOMPARE(plain.status(), 401);
    // With the token (sent by hand: the client library sends credentials over https only).
    RawConnection authorized(s.server->port());
    QVERIFY(authorized.send(request("GET", "/api/v1/namespaces", "Authorization: Bearer the-token\r\n")));
    QCOMPARE(authorized.status(), 200);
}

void TstServeLimits::oversizedContentLengthIsRefusedAtOnce()
{
    server::ServerOptions o;
    o.maxBodyBytes = 1024;
    auto s = startServer(o);
    QVERIFY(s.server);
    RawConnection c(s.server->port());
    QVERIFY(c.send("POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   "Content-Length: 1073741824\r\n\r\n"));
    QCOMPARE(c.status(), 413);
    QVERIFY(c.closedWithin(5000));
    // Many header lines together are refused too.
    RawConnection h(s.server->port());
    std::string headers;
    for (int i = 0; i < 40; ++i)
        headers += "X-Filler-" + std::to_string(i) + ": " + std::string(2000, 'h') + "\r\n";
    QVERIFY(h.send(request("GET", "/api/v1/namespaces", headers)));
    QCOMPARE(h.status(), 431);
}

void TstServeLimits::watchesHaveABudgetAndSlowClientsTimeOut()
{
    server::ServerOptions o;
    o.threads = 24;
    o.maxWatches = 8;
    o.readTimeout = std::chrono::seconds(2);
    o.keepAliveTimeout = std::chrono::seconds(1);
    auto s = startServer(o);
    QVERIFY(s.server);
    // 12 watches: 8 stream, the others are told to come back later.
    std::vector<std::unique_ptr<RawConnection>> watches;
    int streaming = 0;
    int refused = 0;
    for (int i = 0; i < 12; ++i) {
        auto w = std::make_unique<RawConnection>(s.server->port());
        QVERIFY(w->send(request("GET", "/api/v1/pods?watch=true", {})));
        const std::string head = w->read(5000);
        if (head.rfind("HTTP/1.1 200", 0) == 0)
            ++streaming;
        else if (head.rfind("HTTP/1.1 429", 0) == 0 && head.find("Retry-After: 1") != std::string::npos)
            ++refused;
        watches.push_back(std::move(w));
    }
    QCOMPARE(streaming, 8);
    QCOMPARE(refused, 4);
    // Slow clients: connected and silent, or stuck halfway through their headers.
    std::vector<std::unique_ptr<RawConnection>> slow;
    for (int i = 0; i < 6; ++i) {
        slow.push_back(std::make_unique<RawConnection>(s.server->port()));
        if (i % 2)
            QVERIFY(slow.back()->send("GET /api/v1/nodes HTTP/1.1\r\nHost: x\r\n"));
    }
    QElapsedTimer timer;
    timer.start();
    QVERIFY(answers(*s.transport));
    QVERIFY2(timer.elapsed() < 1500, QByteArray::number(timer.elapsed()).constData());
    // The slow ones are dropped after the read or keep-alive timeout.
    for (auto &c : slow)
        QVERIFY(c->closedWithin(8000));
}

void TstServeLimits::bearerSchemeIsCaseInsensitive_data()
{
    QTest::addColumn<QString>("authorization");
    QTest::addColumn<int>("status");
    QTest::newRow("Bearer") << u"Bearer tok-123"_s << 200;
    QTest::newRow("bearer in lower case") << u"bearer tok-123"_s << 200;
    QTest::newRow("BEARER in upper case") << u"BEARER tok-123"_s << 200;
    QTest::newRow("another token") << u"bearer tok-124"_s << 401;
    QTest::newRow("another scheme") << u"Basic tok-123"_s << 401;
    QTest::newRow("no token") << u"Bearer"_s << 401;
}

void TstServeLimits::bearerSchemeIsCaseInsensitive()
{
    QFETCH(QString, authorization);
    QFETCH(int, status);
    server::ServerOptions o;
    o.token = "tok-123";
    auto s = startServer(o, "tok-123");
    QVERIFY(s.server);
    RawConnection c(s.server->port());
    QVERIFY(c.send(
        request("GET", "/api/v1/namespaces", "Authorization: " + authorization.toStdString() + "\r\n")));
    QCOMPARE(c.status(), status);
}

void TstServeLimits::resourceVersionsClimbAcrossServerLives()
{
    std::string firstRv;
    {
        server::ServerOptions o;
        o.resourceVersionFloor = wallClockMicros();
        auto s = startServer(o);
        QVERIFY(s.server);
        s.server->withCluster([](sim::Cluster &c) {
            (void)c.patch(api::Kind::DaemonSet, "default", "web", api::PatchType::Merge,
                          Json::parse(R"({"metadata":{"labels":{"life":"1"}}})"));
        });
        auto r = s.transport->request("GET", "/apis/apps/v1/daemonsets", {}, {}, {}, "application/json");
        QVERIFY(r.ok());
        firstRv = Json::parse(r->body)["metadata"]["resourceVersion"];
        QVERIFY(std::stoull(firstRv) > o.resourceVersionFloor);
    }
    server::ServerOptions o;
    o.resourceVersionFloor = wallClockMicros();
    auto s = startServer(o);
    QVERIFY(s.server);
    auto r = s.transport->request("GET", "/apis/apps/v1/daemonsets", {}, {}, {}, "application/json");
    QVERIFY(r.ok());
    const std::string secondRv = Json::parse(r->body)["metadata"]["resourceVersion"];
    QVERIFY2(std::stoull(secondRv) > std::stoull(firstRv), (firstRv + " then " + secondRv).c_str());
    // A client resuming from the first life is told its version is too old.
    std::vector<Json> lines;
    std::atomic<bool> cancel{false};
    client::RequestOptions ro;
    ro.totalTimeout = std::chrono::seconds(10);
    auto w = s.transport->watch(
        "/apis/apps/v1/daemonsets", {{"watch", "true"}, {"resourceVersion", firstRv}},
        [&](std::string_view line) {
            lines.push_back(Json::parse(line));
            return true;
        },
        cancel, ro);
    QVERIFY(w.ok());
    QCOMPARE(lines.size(), 1u);
    QCOMPARE(lines[0]["object"]["code"], 410);
}

void TstServeLimits::watchFromTheFutureIsTooLargeResourceVersion()
{
    auto s = startServer();
    QVERIFY(s.server);
    std::vector<Json> lines;
    std::atomic<bool> cancel{false};
    client::RequestOptions ro;
    ro.totalTimeout = std::chrono::seconds(10);
    auto w = s.transport->watch(
        "/apis/apps/v1/daemonsets", {{"watch", "true"}, {"resourceVersion", "999999999"}},
        [&](std::string_view line) {
            lines.push_back(Json::parse(line));
            return true;
        },
        cancel, ro);
    QVERIFY(w.ok());
    QCOMPARE(lines.size(), 1u);
    QCOMPARE(lines[0]["type"], "ERROR");
    const Json &st = lines[0]["object"];
    QCOMPARE(st["code"], 504);
    QCOMPARE(st["reason"], "Timeout");
    QVERIFY(st["message"].get<std::string>().rfind("Too large resource version: 999999999, current: ", 0) ==
            0);
    QCOMPARE(st["details"]["causes"][0]["reason"], "ResourceVersionTooLarge");
    // A list asks the same way.
    auto l = s.transport->request("GET", "/apis/apps/v1/daemonsets", {{"resourceVersion", "999999999"}}, {},
                                  {}, "application/json");
    QVERIFY(!l.ok());
    QCOMPARE(l.error().code, 504);
}

void TstServeLimits::serveStateIsReusedAndOwnerOnly()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.filePath(u"state/serve"_s).toStdString();
    auto first = server::ServeState::open(dir);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    QVERIFY(!first->reusedTls() && !first->reusedToken());
    auto second = server::ServeState::open(dir);
    QVERIFY(second.ok());
    QVERIFY(second->reusedTls() && second->reusedToken());
    QCOMPARE(second->token(), first->token());
    QCOMPARE(second->tls().caCertificatePem(), first->tls().caCertificatePem());
    QCOMPARE(second->tls().serverKeyPem(), first->tls().serverKeyPem());

    struct stat st
    {};
    QCOMPARE(::stat(dir.c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0700u);
    for (const char *name : {"ca.crt", "server.crt", "server.key", "token"}) {
        QCOMPARE(::stat((dir + "/" + name).c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
    }

    // A server started from the state is trusted by a client that kept the first CA and token.
    server::ServerOptions o;
    o.tls = true;
    o.tlsMaterial = std::make_shared<const server::TlsMaterial>(second->tls());
    o.token = second->token();
    auto s = startServer(o, first->token());
    QVERIFY(s.server);
    QCOMPARE(s.server->caCertificatePem(), first->tls().caCertificatePem());
    QVERIFY(answers(*s.transport));

    // A damaged certificate is replaced (with a new CA), the token kept.
    {
        QFile cert(QString::fromStdString(dir + "/server.crt"));
        QVERIFY(cert.open(QIODevice::WriteOnly | QIODevice::Truncate));
        cert.write("not a certificate\n");
    }
    auto third = server::ServeState::open(dir);
    QVERIFY(third.ok());
    QVERIFY(!third->reusedTls());
    QVERIFY(third->reusedToken());
    QVERIFY(third->tls().caCertificatePem() != first->tls().caCertificatePem());
}

void TstServeLimits::largeResponsesAreGzippedAsKubeApiserverDoes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("acceptEncoding");
    QTest::addColumn<bool>("gzipped");
    // The core API's OpenAPI v3 document is well over 128 KiB; one DaemonSet is well under it.
    const QString large = u"/openapi/v3/api/v1"_s;
    const QString small = u"/apis/apps/v1/namespaces/default/daemonsets/web"_s;
    QTest::newRow("large, gzip accepted") << large << u"gzip"_s << true;
    QTest::newRow("large, gzip among others") << large << u"deflate, gzip ,br"_s << true;
    QTest::newRow("large, no Accept-Encoding") << large << QString() << false;
    QTest::newRow("large, only brotli") << large << u"br"_s << false;
    QTest::newRow("large, gzip with a weight is not the token") << large << u"gzip;q=1"_s << false;
    QTest::newRow("small, gzip accepted") << small << u"gzip"_s << false;
}

void TstServeLimits::largeResponsesAreGzippedAsKubeApiserverDoes()
{
    QFETCH(QString, path);
    QFETCH(QString, acceptEncoding);
    QFETCH(bool, gzipped);
    auto s = startServer();
    QVERIFY(s.server);
    auto plain = s.transport->request("GET", path.toStdString(), {}, {}, {}, "application/json");
    QVERIFY(plain);
    const std::string expected = plain->body;
    QVERIFY(!expected.empty());
    QCOMPARE(expected.size() > server::kGzipThresholdBytes, path.startsWith(u"/openapi"_s));

    RawConnection c(s.server->port());
    QVERIFY(c.ok());
    const std::string header =
        acceptEncoding.isNull() ? std::string() : "Accept-Encoding: " + acceptEncoding.toStdString() + "\r\n";
    QVERIFY(c.send(request("GET", path.toStdString(), "Accept: application/json\r\n" + header)));
    const auto [head, body] = c.response(10000);
    QVERIFY2(head.rfind("HTTP/1.1 200", 0) == 0, head.c_str());
    const std::string h = RawConnection::lowered(head);
    QVERIFY2(h.find("\r\ncontent-type: application/json\r\n") != std::string::npos, head.c_str());
    QCOMPARE(h.find("\r\ncontent-encoding: gzip\r\n") != std::string::npos, gzipped);
    QCOMPARE(h.find("\r\nvary: accept-encoding\r\n") != std::string::npos, gzipped);
    QCOMPARE(h.find("\r\ncontent-encoding:") != std::string::npos, gzipped); // never brotli
    if (gzipped) {
        QVERIFY(body.size() < expected.size() / 4);
        QCOMPARE(gunzip(body), expected);
        // Level 1, as kube-apiserver: the deflate header's FLEVEL bits say "fastest".
        QCOMPARE(static_cast<unsigned char>(body[8]), 4u); // gzip XFL 4: fastest algorithm
    } else {
        QCOMPARE(body, expected);
    }
}

QTEST_GUILESS_MAIN(TstServeLimits)
#include "tst_servelimits.moc"
