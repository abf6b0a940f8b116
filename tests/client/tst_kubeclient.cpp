// KubeClient + HttpTransport against a loopback fake API server (plain HTTP): error mapping,
// paged lists, patches, watch decoding, and the Reflector's resume / relist behaviour.

#include "fakeapiserver.h"

#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/client/podlistdecoder.h"
#include "models/client/reflector.h"
#include "models/kube/daemonset.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <QElapsedTimer>
#include <QTest>

#include <mutex>
#include <thread>

using namespace client;

namespace {

std::string podJson(const std::string &name, const std::string &rv, const std::string &image = "nginx:1.27",
                    const std::string &phase = "Running")
{
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
           R"(","namespace":"default","resourceVersion":")" + rv +
           R"(","labels":{"app":"web"}},"spec":{"nodeName":"node-1","containers":[{"name":"web","image":")" +
           image + R"("}]},"status":{"phase":")" + phase +
           R"(","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}],)"
           R"("containerStatuses":[{"name":"web","restartCount":2}]}})";
}

std::string dsJson(const std::string &name, const std::string &rv)
{
    return R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":")" + name +
           R"(","namespace":"default","resourceVersion":")" + rv +
           R"(","generation":3},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}},"updateStrategy":{"type":"RollingUpdate"}},"status":{"desiredNumberScheduled":2,"numberReady":1,"observedGeneration":3}})";
}

std::string list(const std::string &kind, const std::vector<std::string> &items, const std::string &rv,
                 const std::string &cont = {})
{
    std::string s =
        R"({"apiVersion":"v1","kind":")" + kind + R"(","metadata":{"resourceVersion":")" + rv + "\"";
    if (!cont.empty())
        s += R"(,"continue":")" + cont + R"(","remainingItemCount":3)";
    s += R"(},"items":[)";
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i ? "," : "") + items[i];
    return s + "]}";
}

std::string watchLine(const std::string &type, const std::string &object)
{
    return R"({"type":")" + type + R"(","object":)" + object + "}";
}

std::string bookmark(const std::string &rv)
{
    return watchLine("BOOKMARK",
                     R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" + rv + R"("}})");
}

std::string status(int code, const std::string &reason, const std::string &message)
{
    return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
           R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

std::shared_ptr<KubeClient> clientFor(const FakeApiServer &server)
{
    RestConfig rc;
    rc.server = server.url();
    rc.token = "plain-http-token-never-sent"; // kubectl sends no credentials over http
    return std::make_shared<KubeClient>(std::make_shared<HttpTransport>(rc), "default");
}

// Collects reflector events on the reflector thread for the test thread.
template <typename T> struct Recorder
{
    mutable std::mutex m;
    std::vector<std::string> lines; // "Added a 11", "Synced  10"
    void operator()(const ReflectorEvent<T> &e)
    {
        static const char *names[] = {"Added", "Modified", "Deleted", "Synced"};
        std::lock_guard lock(m);
        lines.push_back(std::string(names[int(e.type)]) + " " + (e.object ? e.object->metadata.name : "") +
                        " " + e.resourceVersion);
    }
    std::vector<std::string> get() const
    {
        std::lock_guard lock(m);
        return lines;
    }
    int size() const { return int(get().size()); }
};

// HttpTransport with a record of how each request and watch ended: "ok" or the error's reason.
class RecordingTransport : public Transport
{
public:
    explicit RecordingTransport(std::shared_ptr<Transport> inner) : m_inner(std::move(inner)) {}

    kube::Result<HttpResponse> request(const std::string &method, const std::string &path, const Query &query,
                                       const std::string &body, const std::string &contentType,
                                       const std::string &accept, const RequestOptions &options = {}) override
    {
        auto r = m_inner->request(method, path, query, body, contentType, accept, options);
        note(r ? std::string("ok") : r.error().reason);
        return r;
    }
    kube::Result<void> watch(const std::string &path, const Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel, const RequestOptions &options = {}) override
    {
        auto r = m_inner->watch(path, query, onLine, cancel, options);
        note(r ? std::string("ok") : r.error().reason);
        return r;
    }
    void interrupt(const std::atomic<bool> &cancel) override { m_inner->interrupt(cancel); }
    std::string server() const override { return m_inner->server(); }

    std::vector<std::string> outcomes() const
    {
        std::lock_guard lock(m_mutex);
        return m_outcomes;
    }

private:
    void note(std::string outcome)
    {
        std::lock_guard lock(m_mutex);
        m_outcomes.push_back(std::move(outcome));
    }

    std::shared_ptr<Transport> m_inner;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_outcomes;
};

QStringList qlist(const std::vector<std::string> &v)
{
    QStringList out;
    for (const auto &s : v)
        out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestKubeClient : public QObject
{
    Q_OBJECT

private slots:
    void errorsMapToApiStatus_data()
    {
        QTest::addColumn<int>("httpCode");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("message");
        QTest::newRow("a 401 Status keeps the server's reason and message")
            << 401 << QString::fromStdString(status(401, "Unauthorized", "Unauthorized")) << "Unauthorized"
            << "Unauthorized";
        QTest::newRow("a 403 Status keeps the RBAC message")
            << 403
            << QString::fromStdString(
                   status(403, "Forbidden",
                          "daemonsets.apps \\\"web\\\" is forbidden: User \\\"x\\\" cannot get resource"))
            << "Forbidden"
            << "daemonsets.apps \"web\" is forbidden: User \"x\" cannot get resource";
        QTest::newRow("a 404 Status names the missing object")
            << 404 << QString::fromStdString(status(404, "NotFound", "daemonsets.apps \\\"web\\\" not found"))
            << "NotFound"
            << "daemonsets.apps \"web\" not found";
        QTest::newRow("a 409 Status is a conflict")
            << 409 << QString::fromStdString(status(409, "Conflict", "the object has been modified"))
            << "Conflict"
            << "the object has been modified";
        QTest::newRow("a 410 Status is expired")
            << 410 << QString::fromStdString(status(410, "Expired", "too old resource version: 1 (5)"))
            << "Expired"
            << "too old resource version: 1 (5)";
        QTest::newRow("a 500 Status is an internal error")
            << 500 << QString::fromStdString(status(500, "InternalError", "etcd is unhappy"))
            << "InternalError"
            << "etcd is unhappy";
        QTest::newRow("a 404 without a Status body gets a reason from the code and names the server")
            << 404 << QStringLiteral("404 page not found") << "NotFound"
            << "HTTP 404 from SERVER: 404 page not found";
        QTest::newRow("a 502 HTML page is summarised without its markup")
            << 502 << QStringLiteral("<html><body>Bad Gateway</body></html>") << "Unknown"
            << "HTTP 502 from SERVER";
        QTest::newRow("a Status without a reason gets the code's reason")
            << 422 << QStringLiteral(R"({"kind":"Status","code":422,"message":"spec.x: Invalid value"})")
            << "Invalid"
            << "spec.x: Invalid value";
    }
    void errorsMapToApiStatus()
    {
        QFETCH(int, httpCode);
        QFETCH(QString, body);
        QFETCH(QString, reason);
        QFETCH(QString, message);
        const std::string b = body.toStdString();
        FakeApiServer server([&](const FakeRequest &) {
            FakeResponse r = FakeResponse::json(b, httpCode);
            r.contentType = b.front() == '{' ? "application/json" : "text/plain";
            return r;
        });
        auto c = clientFor(server);
        auto r = c->get<kube::DaemonSet>("default", "web");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, httpCode);
        QCOMPARE(QString::fromStdString(r.error().reason), reason);
        QCOMPARE(QString::fromStdString(r.error().message),
                 message.replace(QStringLiteral("SERVER"), QString::fromStdString(server.url())));
    }

    void connectionRefusedIsAClearError()
    {
        quint16 port = 0;
        {
            FakeApiServer server({});
            port = server.port();
        }
        RestConfig rc;
        rc.server = "http://127.0.0.1:" + std::to_string(port);
        KubeClient c(std::make_shared<HttpTransport>(rc));
        auto r = c.get<kube::DaemonSet>("default", "web");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, 0);
        QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("ConnectionFailed"));
        QVERIFY2(r.error().message.find("cannot reach " + rc.server) != std::string::npos,
                 r.error().message.c_str());
    }

    void getSendsKubectlLikeHeadersAndNoCredentialsOverHttp()
    {
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(dsJson("web", "7")); });
        auto c = clientFor(server);
        auto ds = c->get<kube::DaemonSet>("", "web");
        QVERIFY2(ds.ok(), ds.ok() ? "" : ds.error().message.c_str());
        QCOMPARE(QString::fromStdString(ds->metadata.resourceVersion), QStringLiteral("7"));
        QCOMPARE(ds->status.desiredNumberScheduled, 2);
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(reqs[0].path),
                 QStringLiteral("/apis/apps/v1/namespaces/default/daemonsets/web"));
        QCOMPARE(QString::fromStdString(reqs[0].header("accept")), QStringLiteral("application/json"));
        QVERIFY(reqs[0].header("user-agent").rfind("daemonscope/", 0) == 0);
        QVERIFY(reqs[0].header("authorization").empty());
    }

    void listFollowsContinueTokens()
    {
        FakeApiServer server([](const FakeRequest &r) {
            const std::string cont = r.q("continue");
            if (cont.empty())
                return FakeResponse::json(
                    list("PodList", {podJson("a", "1"), podJson("b", "2")}, "100", "tok1"));
            if (cont == "tok1")
                return FakeResponse::json(
                    list("PodList", {podJson("c", "3"), podJson("d", "4")}, "100", "tok2"));
            return FakeResponse::json(list("PodList", {podJson("e", "5")}, "100"));
        });
        auto c = clientFor(server);
        ListOptions lo;
        lo.limit = 2;
        lo.labelSelector = "app=web";
        lo.resourceVersion = "0";
        auto pods = c->list<kube::Pod>("default", lo);
        QVERIFY2(pods.ok(), pods.ok() ? "" : pods.error().message.c_str());
        QCOMPARE(pods->items.size(), std::size_t(5));
        QCOMPARE(QString::fromStdString(pods->items[4].metadata.name), QStringLiteral("e"));
        QCOMPARE(QString::fromStdString(pods->resourceVersion), QStringLiteral("100"));
        // Pods from one template share their spec.
        QCOMPARE(pods->items[0].spec.get(), pods->items[4].spec.get());
        const auto reqs = server.requests();
        QCOMPARE(reqs.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(reqs[0].q("limit")), QStringLiteral("2"));
        QCOMPARE(QString::fromStdString(reqs[0].q("resourceVersion")), QStringLiteral("0"));
        QCOMPARE(QString::fromStdString(reqs[0].q("labelSelector")), QStringLiteral("app=web"));
        QCOMPARE(QString::fromStdString(reqs[1].q("continue")), QStringLiteral("tok1"));
        QVERIFY(!reqs[1].has("resourceVersion")); // a continue token carries its own RV
        QCOMPARE(QString::fromStdString(reqs[1].q("labelSelector")), QStringLiteral("app=web"));
        QCOMPARE(QString::fromStdString(reqs[2].q("continue")), QStringLiteral("tok2"));
    }

    void expiredContinueTokenRestartsTheListUnpaged()
    {
        FakeApiServer server([](const FakeRequest &r) {
            if (r.q("continue") == "tok1")
                return FakeResponse::json(
                    status(410, "Expired", "The provided continue parameter is too old"), 410);
            if (r.has("limit"))
                return FakeResponse::json(
                    list("NodeList", {R"({"metadata":{"name":"n1","resourceVersion":"1"}})"}, "50", "tok1"));
            return FakeResponse::json(list("NodeList",
                                           {R"({"metadata":{"name":"n1","resourceVersion":"1"}})",
                                            R"({"metadata":{"name":"n2","resourceVersion":"2"}})"},
                                           "60"));
        });
        auto c = clientFor(server);
        ListOptions lo;
        lo.limit = 1;
        auto nodes = c->list<kube::Node>("", lo);
        QVERIFY2(nodes.ok(), nodes.ok() ? "" : nodes.error().message.c_str());
        QCOMPARE(nodes->items.size(), std::size_t(2)); // page 1 of the failed attempt is dropped
        QCOMPARE(QString::fromStdString(nodes->resourceVersion), QStringLiteral("60"));
        QCOMPARE(QString::fromStdString(server.requests().back().path), QStringLiteral("/api/v1/nodes"));
        QVERIFY(!server.requests().back().has("limit"));
    }

    void patchSendsTheContentTypeOfItsKind_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("contentType");
        QTest::addColumn<QString>("body");
        QTest::newRow("a merge patch pauses a rollout")
            << int(PatchType::Merge) << "application/merge-patch+json"
            << R"({"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}})";
        QTest::newRow("a JSON patch is an operation list")
            << int(PatchType::Json) << "application/json-patch+json"
            << R"([{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"}])";
        QTest::newRow("a strategic merge patch rolls back a template")
            << int(PatchType::Strategic) << "application/strategic-merge-patch+json"
            << R"({"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}})";
    }
    void patchSendsTheContentTypeOfItsKind()
    {
        QFETCH(int, type);
        QFETCH(QString, contentType);
        QFETCH(QString, body);
        FakeApiServer server([](const FakeRequest &) { return FakeResponse::json(dsJson("web", "8")); });
        auto c = clientFor(server);
        auto ds = c->patch<kube::DaemonSet>("kube-system", "web", PatchType(type), body.toStdString());
        QVERIFY2(ds.ok(), ds.ok() ? "" : ds.error().message.c_str());
        const auto r = server.requests().at(0);
        QCOMPARE(QString::fromStdString(r.method), QStringLiteral("PATCH"));
        QCOMPARE(QString::fromStdString(r.path),
                 QStringLiteral("/apis/apps/v1/namespaces/kube-system/daemonsets/web"));
        QCOMPARE(QString::fromStdString(r.header("content-type")), contentType);
        QCOMPARE(QString::fromStdString(r.body), body);
        QCOMPARE(QString::fromStdString(r.q("fieldManager")), QStringLiteral("daemonscope"));
    }

    void updatePutsTheObjectWithItsResourceVersion()
    {
        FakeApiServer server([](const FakeRequest &r) {
            if (r.method == "GET")
                return FakeResponse::json(dsJson("web", "8"));
            return FakeResponse::json(
                status(409, "Conflict",
                       "Operation cannot be fulfilled on daemonsets.apps \\\"web\\\": the object "
                       "has been modified"),
                409);
        });
        auto c = clientFor(server);
        auto ds = c->get<kube::DaemonSet>("default", "web");
        QVERIFY(ds.ok());
        auto r = c->update(*ds);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("Conflict"));
        const auto put = server.requests().at(1);
        QCOMPARE(QString::fromStdString(put.method), QStringLiteral("PUT"));
        const auto sent = kube::Json::parse(put.body);
        QCOMPARE(QString::fromStdString(sent["metadata"]["resourceVersion"].get<std::string>()),
                 QStringLiteral("8"));
        QCOMPARE(QString::fromStdString(sent["kind"].get<std::string>()), QStringLiteral("DaemonSet"));
    }

    void watchDecodesEventsAndBookmarks()
    {
        FakeApiServer server([](const FakeRequest &) {
            return FakeResponse::watch({watchLine("ADDED", podJson("a", "11")),
                                        watchLine("MODIFIED", podJson("a", "12", "nginx:1.28")),
                                        bookmark("15"), watchLine("DELETED", podJson("a", "16"))},
                                       FakeResponse::Stream::End);
        });
        auto c = clientFor(server);
        std::vector<std::string> seen;
        std::atomic<bool> cancel{false};
        WatchOptions wo;
        wo.resourceVersion = "10";
        wo.labelSelector = "app=web";
        wo.timeoutSeconds = 300;
        auto r = c->watch<kube::Pod>(
            "default", wo,
            [&](WatchEvent<kube::Pod> &&e) {
                static const char *n[] = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK"};
                seen.push_back(std::string(n[int(e.type)]) + " " + e.resourceVersion);
                return true;
            },
            cancel);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(qlist(seen), qlist({"ADDED 11", "MODIFIED 12", "BOOKMARK 15", "DELETED 16"}));
        const auto req = server.requests().at(0);
        QCOMPARE(QString::fromStdString(req.q("watch")), QStringLiteral("true"));
        QCOMPARE(QString::fromStdString(req.q("allowWatchBookmarks")), QStringLiteral("true"));
        QCOMPARE(QString::fromStdString(req.q("resourceVersion")), QStringLiteral("10"));
        QCOMPARE(QString::fromStdString(req.q("timeoutSeconds")), QStringLiteral("300"));
        QCOMPARE(QString::fromStdString(req.q("labelSelector")), QStringLiteral("app=web"));
    }

    void watchErrorEventEndsWithTheStatus()
    {
        FakeApiServer server([](const FakeRequest &) {
            return FakeResponse::watch(
                {watchLine("ERROR", status(410, "Expired", "too old resource version: 10 (40)"))},
                FakeResponse::Stream::Hold);
        });
        auto c = clientFor(server);
        std::atomic<bool> cancel{false};
        auto r = c->watch<kube::Pod>(
            "default", {}, [](WatchEvent<kube::Pod> &&) { return true; }, cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, 410);
        QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("Expired"));
        QCOMPARE(QString::fromStdString(r.error().message),
                 QStringLiteral("too old resource version: 10 (40)"));
    }

    void watchOnAnHttp410FailsWithTheStatus()
    {
        FakeApiServer server([](const FakeRequest &) {
            return FakeResponse::json(status(410, "Gone", "too old resource version: 1 (2)"), 410);
        });
        auto c = clientFor(server);
        std::atomic<bool> cancel{false};
        auto r = c->watch<kube::Pod>(
            "default", {}, [](WatchEvent<kube::Pod> &&) { return true; }, cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, 410);
        QCOMPARE(QString::fromStdString(r.error().reason), QStringLiteral("Gone"));
    }

    void reflectorResumesFromTheLastResourceVersionAfterADisconnect()
    {
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true")
                return FakeResponse::json(list("PodList", {podJson("a", "8"), podJson("b", "9")}, "10"));
            if (++watches == 1)
                return FakeResponse::watch({watchLine("ADDED", podJson("c", "11")),
                                            watchLine("MODIFIED", podJson("a", "12", "nginx:1.28")),
                                            bookmark("15")},
                                           FakeResponse::Stream::Drop);
            return FakeResponse::watch({watchLine("DELETED", podJson("b", "16"))},
                                       FakeResponse::Stream::Hold);
        });
        auto c = clientFor(server);
        Recorder<kube::Pod> rec;
        ReflectorOptions opt;
        opt.namespace_ = "default";
        opt.labelSelector = "app=web";
        opt.initialBackoff = std::chrono::milliseconds(20);
        std::vector<std::string> errors;
        std::mutex em;
        opt.onError = [&](const kube::ApiStatus &s) {
            std::lock_guard lock(em);
            errors.push_back(s.reason);
        };
        Reflector<kube::Pod> reflector(c, opt, std::ref(rec));
        reflector.start();
        QTRY_COMPARE(rec.size(), 6);
        QCOMPARE(qlist(rec.get()), qlist({"Added a 8", "Added b 9", "Synced  10", "Added c 11",
                                          "Modified a 12", "Deleted b 16"}));
        const auto ws = server.requestsTo("/pods", true);
        QCOMPARE(ws.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(ws[0].q("resourceVersion")), QStringLiteral("10"));
        QCOMPARE(QString::fromStdString(ws[1].q("resourceVersion")),
                 QStringLiteral("15")); // from the bookmark
        QCOMPARE(QString::fromStdString(ws[1].q("allowWatchBookmarks")), QStringLiteral("true"));
        const int timeout = std::stoi(ws[1].q("timeoutSeconds"));
        QVERIFY(timeout >= 300 && timeout < 600);
        QCOMPARE(server.count("/pods", false), 1); // no relist after a plain disconnect
        const auto lists = server.requestsTo("/pods", false);
        QCOMPARE(QString::fromStdString(lists[0].q("resourceVersion")), QStringLiteral("0"));
        QCOMPARE(QString::fromStdString(lists[0].q("limit")), QStringLiteral("500"));
        {
            std::lock_guard lock(em);
            QCOMPARE(errors.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(errors[0]), QStringLiteral("ConnectionFailed"));
        }
        const auto items = reflector.items();
        QCOMPARE(items.size(), std::size_t(2));
        QVERIFY(items.count("default/a") && items.count("default/c"));
        QCOMPARE(QString::fromStdString(reflector.lastResourceVersion()), QStringLiteral("16"));
        reflector.stop();
    }

    void reflectorRewatchesAtOnceWhenTheServerEndsTheStream()
    {
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true")
                return FakeResponse::json(list("PodList", {}, "10"));
            if (++watches == 1)
                return FakeResponse::watch({watchLine("ADDED", podJson("a", "11"))},
                                           FakeResponse::Stream::End);
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        Recorder<kube::Pod> rec;
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::seconds(30); // a backoff would make this test time out
        Reflector<kube::Pod> reflector(clientFor(server), opt, std::ref(rec));
        reflector.start();
        QTRY_COMPARE(server.count("/pods", true), 2);
        QCOMPARE(QString::fromStdString(server.requestsTo("/pods", true)[1].q("resourceVersion")),
                 QStringLiteral("11"));
        QCOMPARE(server.requestsTo("/pods", true)[1].path, std::string("/api/v1/pods")); // all namespaces
        reflector.stop();
    }

    void reflectorRelistsAfter410()
    {
        std::atomic<int> lists{0};
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true") {
                const int n = ++lists;
                if (n == 1)
                    return FakeResponse::json(list("PodList", {podJson("a", "8"), podJson("b", "9")}, "10"));
                if (n == 2) // the last RV is gone as well
                    return FakeResponse::json(status(410, "Expired", "too old resource version: 10 (50)"),
                                              410);
                return FakeResponse::json(list("PodList", {podJson("b", "51"), podJson("d", "52")}, "60"));
            }
            if (++watches == 1)
                return FakeResponse::watch(
                    {watchLine("ERROR", status(410, "Expired", "too old resource version: 10 (50)"))},
                    FakeResponse::Stream::End);
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        Recorder<kube::Pod> rec;
        ReflectorOptions opt;
        opt.namespace_ = "default";
        Reflector<kube::Pod> reflector(clientFor(server), opt, std::ref(rec));
        reflector.start();
        QTRY_COMPARE(server.count("/pods", true), 2);
        QCOMPARE(qlist(rec.get()), qlist({"Added a 8", "Added b 9", "Synced  10", "Deleted a 8",
                                          "Modified b 51", "Added d 52", "Synced  60"}));
        const auto ls = server.requestsTo("/pods", false);
        QCOMPARE(ls.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(ls[1].q("resourceVersion")),
                 QStringLiteral("10")); // relist at the last RV
        QVERIFY(!ls[1].has("limit"));
        QVERIFY(!ls[2].has("resourceVersion")); // then a consistent read
        QCOMPARE(QString::fromStdString(server.requestsTo("/pods", true)[1].q("resourceVersion")),
                 QStringLiteral("60"));
        QCOMPARE(reflector.listCount(), 2);
        reflector.stop();
    }

    void reflectorBacksOffExponentiallyWhileTheServerFails()
    {
        FakeApiServer server([&](const FakeRequest &) {
            return FakeResponse::json(status(500, "InternalError", "etcd leader changed"), 500);
        });
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::milliseconds(10);
        opt.maxBackoff = std::chrono::milliseconds(40);
        std::atomic<int> errors{0};
        opt.onError = [&](const kube::ApiStatus &s) {
            if (s.message == "etcd leader changed")
                ++errors;
        };
        Reflector<kube::Pod> reflector(clientFor(server), opt, {});
        reflector.start();
        QTRY_VERIFY(errors.load() >= 4);
        reflector.stop();
        QCOMPARE(reflector.listCount(), 0);
        QVERIFY(server.count("/pods", true) == 0);
    }

    // Stopping a reflector whose request is in transfer — the server has sent the headers and
    // then nothing — aborts that request: stop() returns (a list would otherwise wait for its
    // 60 s timeout, a watch for its next progress check) and the transfer ends as cancelled.
    void reflectorStopAbortsTheRequestInTransfer_data()
    {
        QTest::addColumn<bool>("listing");
        QTest::newRow("a list whose answer never ends") << true;
        QTest::newRow("a watch with nothing to say") << false;
    }
    void reflectorStopAbortsTheRequestInTransfer()
    {
        QFETCH(bool, listing);
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true" && !listing)
                return FakeResponse::json(list("PodList", {}, "10"));
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        RestConfig rc;
        rc.server = server.url();
        auto transport = std::make_shared<RecordingTransport>(std::make_shared<HttpTransport>(rc));
        ReflectorOptions opt;
        opt.watchIdleTimeout = std::chrono::minutes(5);
        std::atomic<int> errors{0};
        opt.onError = [&](const kube::ApiStatus &) { ++errors; };
        Reflector<kube::Pod> reflector(std::make_shared<KubeClient>(transport), opt, {});
        reflector.start();
        QTRY_COMPARE(server.count("/pods", !listing), 1);
        QElapsedTimer timer;
        timer.start();
        reflector.stop();
        QVERIFY2(timer.elapsed() < 5000, QByteArray::number(timer.elapsed()).constData()); // hang guard
        const auto outcomes = transport->outcomes();
        QVERIFY(!outcomes.empty());
        // A cancelled watch ends without an error; a cancelled list with reason Cancelled.
        QCOMPARE(QString::fromStdString(outcomes.back()),
                 listing ? QStringLiteral("Cancelled") : QStringLiteral("ok"));
        QCOMPARE(errors.load(), 0); // a stop is not an error
        QCOMPARE(server.count("/pods", false), 1);
        QCOMPARE(server.count("/pods", true), listing ? 0 : 1);
    }

    // interrupt() wakes only the transfers watching the flag it is given.
    void interruptWakesOnlyTheTransfersOfItsFlag()
    {
        FakeApiServer server(
            [&](const FakeRequest &) { return FakeResponse::watch({}, FakeResponse::Stream::Hold); });
        RestConfig rc;
        rc.server = server.url();
        HttpTransport transport(rc);
        std::atomic<bool> stopA{false}, stopB{false};
        std::atomic<int> endedA{0}, endedB{0};
        auto watchOn = [&](const std::atomic<bool> &flag, std::atomic<int> &ended) {
            return std::thread([&] {
                (void)transport.watch(
                    "/api/v1/pods", {{"watch", "true"}}, [](std::string_view) { return true; }, flag);
                ++ended;
            });
        };
        std::thread a = watchOn(stopA, endedA);
        std::thread b = watchOn(stopB, endedB);
        QTRY_COMPARE(server.count("/pods", true), 2);
        stopA = true;
        transport.interrupt(stopA);
        QTRY_COMPARE_WITH_TIMEOUT(endedA.load(), 1, 5000);
        QCOMPARE(endedB.load(), 0);
        stopB = true;
        transport.interrupt(stopB);
        a.join();
        b.join();
        QCOMPARE(endedB.load(), 1);
    }

    void podListDecodersAgree_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("a paged list with metadata") << QString::fromStdString(
            list("PodList", {podJson("a", "1"), podJson("b", "2", "nginx:1.28", "Pending")}, "77", "next"));
        QTest::newRow("an empty list") << QString::fromStdString(list("PodList", {}, "5"));
        QTest::newRow("a list whose items come before its metadata")
            << QString::fromStdString(R"({"items":[)" + podJson("z", "3") +
                                      R"(],"metadata":{"resourceVersion":"9"},"kind":"PodList"})");
        // Metadata members of another type are ignored by both (the DOM decoder used to throw).
        QTest::newRow("list metadata of the wrong types")
            << QString::fromStdString(R"({"metadata":{"resourceVersion":[{"a":1}],"continue":{"x":1},)"
                                      R"("remainingItemCount":"3"},"items":[)" +
                                      podJson("y", "4") + "]}");
        // Items the SAX decoder reads straight from the events, and items it leaves to
        // Pod::fromJson (a wrong type, a repeated key, an affinity besides the node pin).
        const std::string pin =
            R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":)"
            R"([{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-7"]}]}]}}})";
        const auto item = [](const std::string &meta, const std::string &spec, const std::string &status) {
            return R"({"items":[{"metadata":)" + meta + R"(,"spec":)" + spec + R"(,"status":)" + status +
                   "}]}";
        };
        const std::string meta =
            R"({"name":"p","namespace":"ns","uid":"u","generation":3,"creationTimestamp":"2026-01-01T00:00:00Z",)"
            R"("deletionTimestamp":"2026-01-01T00:05:00Z","deletionGracePeriodSeconds":30,"labels":{"a":"b"},)"
            R"("annotations":{"c":"d"},"finalizers":["f"],"managedFields":[{"manager":"m"}],"ownerReferences":)"
            R"([{"apiVersion":"apps/v1","kind":"DaemonSet","name":"ds","uid":"x","controller":true,"blockOwnerDeletion":"yes"}]})";
        const std::string status =
            R"({"phase":"Running","startTime":"2026-01-01T00:00:01Z","conditions":[{"type":"Ready","status":"True",)"
            R"("lastTransitionTime":"2026-01-01T00:00:09Z"},{"type":"Ready","status":"False","lastTransitionTime":"bad"}],)"
            R"("containerStatuses":[{"restartCount":2147483647,"state":{"waiting":{"reason":"ErrImagePull"}}},)"
            R"({"restartCount":5,"state":{"waiting":{"reason":"Later"}}},{"restartCount":-3},"x"]})";
        const std::string spec =
            R"({"nodeName":"node-7",)" + pin + R"(,"containers":[{"name":"c","image":"i"}]})";
        QTest::newRow("every field the record keeps, pinned to a node")
            << QString::fromStdString(item(meta, spec, status));
        QTest::newRow("a pin with another operator is still taken out") << QString::fromStdString(
            item(meta, std::string(spec).replace(spec.find("\"In\""), 4, "\"NotIn\""), status));
        QTest::newRow("an affinity besides the pin stays in the spec") << QString::fromStdString(
            item(meta, R"({"affinity":{"podAntiAffinity":{},)" + pin.substr(12) + "}", status));
        QTest::newRow("a null affinity stays in the spec")
            << QString::fromStdString(item(meta, R"({"affinity":null,"nodeName":3})", status));
        QTest::newRow("a repeated key in the spec keeps its last value") << QString::fromStdString(
            item(meta, R"({"nodeName":"a","x":{"y":1,"y":2},"nodeName":"b"})", status));
        QTest::newRow("a repeated key in a condition") << QString::fromStdString(
            item(meta, spec, R"({"conditions":[{"type":"Ready","status":"True","status":"False"}]})"));
        QTest::newRow("an owner reference with a null name") << QString::fromStdString(
            item(R"({"name":"p","ownerReferences":[{"name":null,"kind":"DaemonSet"}]})", spec, "[]"));
        QTest::newRow("a generation beyond int64 and a null spec") << QString::fromStdString(
            item(R"({"name":"p","generation":18446744073709551615})", "null", "{}"));
    }
    void podListDecodersAgree()
    {
        QFETCH(QString, json);
        const std::string text = json.toStdString();
        PodListDecoder sax, dom;
        auto a = sax.decode(text);
        auto b = dom.decodeWithDom(text);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message.c_str());
        QVERIFY(b.ok());
        QCOMPARE(a->resourceVersion, b->resourceVersion);
        QCOMPARE(a->continueToken, b->continueToken);
        QCOMPARE(a->remainingItemCount, b->remainingItemCount);
        QCOMPARE(a->items.size(), b->items.size());
        for (std::size_t i = 0; i < a->items.size(); ++i)
            QCOMPARE(QString::fromStdString(a->items[i].toJson().dump()),
                     QString::fromStdString(b->items[i].toJson().dump()));
    }

    void podListDecoderReadsPodFieldsAndSharesSpecs()
    {
        auto page = decodePodList(list(
            "PodList", {podJson("a", "1"), podJson("b", "2"), podJson("c", "3", "nginx:1.28")}, "7", "more"));
        QVERIFY(page.ok());
        QCOMPARE(QString::fromStdString(page->continueToken), QStringLiteral("more"));
        QCOMPARE(page->remainingItemCount.value_or(-1), std::int64_t(3));
        const auto &p = page->items[0];
        QCOMPARE(QString::fromStdString(p.nodeName), QStringLiteral("node-1"));
        QCOMPARE(QString::fromStdString(p.phase), QStringLiteral("Running"));
        QVERIFY(p.ready);
        QCOMPARE(p.restartCount, 2);
        QCOMPARE(QString::fromStdString(p.metadata.label("app")), QStringLiteral("web"));
        QCOMPARE(page->items[0].spec.get(), page->items[1].spec.get());
        QVERIFY(page->items[0].spec.get() != page->items[2].spec.get());
    }

    void podListDecoderSharesSpecsWithoutTheirNodes()
    {
        // Pods of one DaemonSet differ in their node only: one spec, without nodeName and pin.
        // The last pod writes its spec's keys in another order.
        nlohmann::ordered_json items = nlohmann::ordered_json::array();
        for (int i = 0; i < 3; ++i) {
            const std::string node = "node-" + std::to_string(i);
            using Ordered = nlohmann::ordered_json;
            const Ordered containers = Ordered::array({Ordered{{"name", "c"}, {"image", "i"}}});
            const Ordered field = {
                {"key", "metadata.name"}, {"operator", "In"}, {"values", Ordered::array({node})}};
            const Ordered term = {{"matchFields", Ordered::array({field})}};
            Ordered spec = Ordered::object();
            if (i == 2)
                spec["containers"] = containers;
            spec["nodeName"] = node;
            spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                ["nodeSelectorTerms"] = Ordered::array({term});
            if (i != 2)
                spec["containers"] = containers;
            items.push_back({{"metadata", {{"name", "p" + std::to_string(i)}}}, {"spec", spec}});
        }
        const std::string json = nlohmann::ordered_json{{"items", items}}.dump();
        PodListDecoder decoder;
        auto page = decoder.decode(json);
        QVERIFY(page.ok());
        QCOMPARE(page->items.size(), std::size_t(3));
        QCOMPARE(decoder.distinctSpecs(), std::size_t(1));
        for (int i = 0; i < 3; ++i) {
            const kube::Pod &p = page->items[std::size_t(i)];
            QCOMPARE(QString::fromStdString(p.nodeName), QStringLiteral("node-%1").arg(i));
            QCOMPARE(QString::fromStdString(p.targetNode), QStringLiteral("node-%1").arg(i));
            QCOMPARE(p.spec.get(), page->items[0].spec.get()); // the last one with keys in another order
        }
        QCOMPARE(QString::fromStdString(page->items[0].spec->dump()),
                 QStringLiteral(R"({"containers":[{"image":"i","name":"c"}]})"));
        // A second page decoded by the same decoder shares the spec too.
        auto again = decoder.decode(json);
        QVERIFY(again.ok());
        QCOMPARE(again->items[1].spec.get(), page->items[0].spec.get());
    }

    void podListDecoderRejectsBrokenInput_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("truncated JSON names the byte") << R"({"items":[{"metadata":{"name":"a"})"
                                                       << "not valid JSON at byte";
        QTest::newRow("an item that is not an object") << R"({"items":[42]})"
                                                       << "item 0 is not an object";
        QTest::newRow("a list that is an array") << R"([1,2])"
                                                 << "not a JSON object";
        QTest::newRow("an item with a wrongly typed field")
            << R"({"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b","labels":{"x":1}}}]})"
            << "item 1";
    }
    void podListDecoderRejectsBrokenInput()
    {
        QFETCH(QString, json);
        QFETCH(QString, fragment);
        auto r = decodePodList(json.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find(fragment.toStdString()) != std::string::npos,
                 r.error().message.c_str());
    }

    // A server answering with JSON nested 100,000 levels deep (600 KB) used to crash whoever
    // copied or printed the value; every decoder refuses it now, with a message.
    void deeplyNestedAnswersAreRefused_data()
    {
        QTest::addColumn<QString>("whatText");
        QTest::newRow("an object") << QStringLiteral("get");
        QTest::newRow("a list, decoded into DaemonSets") << QStringLiteral("list");
        QTest::newRow("a pod list, decoded with SAX") << QStringLiteral("pods");
        QTest::newRow("a pod list, decoded into a DOM") << QStringLiteral("podsDom");
        QTest::newRow("a watch event") << QStringLiteral("watch");
        QTest::newRow("an error Status") << QStringLiteral("status");
    }
    void deeplyNestedAnswersAreRefused()
    {
        QFETCH(QString, whatText);
        const std::string what = whatText.toStdString();
        const int depth = 100000;
        const std::string deep = std::string(depth, '[') + std::string(depth, ']');
        const std::string object =
            R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"x","annotations":{"a":)" +
            deep + "}}}";
        const std::string deepList = R"({"metadata":{"resourceVersion":"1"},"items":[)" + object + "]}";
        if (what == "podsDom") {
            PodListDecoder decoder;
            auto r = decoder.decodeWithDom(deepList);
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find("deeper than 1000 levels") != std::string::npos,
                     r.error().message.c_str());
            return;
        }
        FakeApiServer server([&](const FakeRequest &r) {
            if (what == "status")
                return FakeResponse::json(R"({"kind":"Status","code":500,"message":)" + deep + "}", 500);
            if (r.q("watch") == "true")
                return FakeResponse::watch({watchLine("ADDED", object)}, FakeResponse::Stream::End);
            return FakeResponse::json(what == "get" ? object : deepList);
        });
        auto c = clientFor(server);
        kube::ApiStatus error;
        if (what == "get" || what == "status") {
            auto r = c->get<kube::DaemonSet>("default", "x");
            QVERIFY(!r.ok());
            error = r.error();
        } else if (what == "list") {
            auto r = c->list<kube::DaemonSet>("default");
            QVERIFY(!r.ok());
            error = r.error();
        } else if (what == "pods") {
            auto r = c->list<kube::Pod>("default");
            QVERIFY(!r.ok());
            error = r.error();
        } else {
            std::atomic<bool> cancel{false};
            WatchOptions wo;
            auto r = c->watch<kube::DaemonSet>(
                "default", wo, [](WatchEvent<kube::DaemonSet> &&) { return true; }, cancel);
            QVERIFY(!r.ok());
            error = r.error();
        }
        if (what == "status") {
            // The body is not used; the HTTP code speaks.
            QCOMPARE(error.code, 500);
            QVERIFY2(error.message.find("HTTP 500") != std::string::npos, error.message.c_str());
        } else {
            QCOMPARE(QString::fromStdString(error.reason), QStringLiteral("DecodeError"));
            QVERIFY2(error.message.find("deeper than 1000 levels") != std::string::npos,
                     error.message.c_str());
        }
    }

    void reflectorRelistsWhenTheResourceVersionIsTooLarge()
    {
        std::atomic<int> lists{0};
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true") {
                if (++lists == 1)
                    return FakeResponse::json(list("PodList", {podJson("a", "5000")}, "5000"));
                return FakeResponse::json(list("PodList", {podJson("b", "40")}, "42"));
            }
            // A restarted server that counts from scratch: the old RV lies in its future.
            if (++watches == 1)
                return FakeResponse::watch(
                    {watchLine("ERROR",
                               status(504, "Timeout", "Too large resource version: 5000, current: 42"))},
                    FakeResponse::Stream::End);
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        Recorder<kube::Pod> rec;
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::seconds(30); // an error path would make this test time out
        Reflector<kube::Pod> reflector(clientFor(server), opt, std::ref(rec));
        reflector.start();
        QTRY_COMPARE(server.count("/pods", true), 2);
        const auto ls = server.requestsTo("/pods", false);
        QCOMPARE(ls.size(), std::size_t(2));
        QVERIFY(!ls[1].has("resourceVersion")); // a consistent read of the new server
        QCOMPARE(QString::fromStdString(server.requestsTo("/pods", true)[1].q("resourceVersion")),
                 QStringLiteral("42"));
        QCOMPARE(qlist(rec.get()),
                 qlist({"Added a 5000", "Synced  5000", "Deleted a 5000", "Added b 40", "Synced  42"}));
        reflector.stop();
    }

    void reflectorRelistsWhenAWatchGoesBackInResourceVersion()
    {
        std::atomic<int> lists{0};
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true") {
                if (++lists == 1)
                    return FakeResponse::json(list("PodList", {podJson("a", "900")}, "1000"));
                return FakeResponse::json(list("PodList", {podJson("c", "70")}, "80"));
            }
            // Another server incarnation answers the resumed watch with its own, lower versions.
            if (++watches == 1)
                return FakeResponse::watch({watchLine("ADDED", podJson("b", "60"))},
                                           FakeResponse::Stream::Hold);
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        Recorder<kube::Pod> rec;
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::seconds(30);
        Reflector<kube::Pod> reflector(clientFor(server), opt, std::ref(rec));
        reflector.start();
        QTRY_COMPARE(server.count("/pods", true), 2);
        const auto ls = server.requestsTo("/pods", false);
        QCOMPARE(ls.size(), std::size_t(2));
        QVERIFY(!ls[1].has("resourceVersion"));
        QCOMPARE(qlist(rec.get()),
                 qlist({"Added a 900", "Synced  1000", "Deleted a 900", "Added c 70", "Synced  80"}));
        QVERIFY(!reflector.items().count("default/b")); // the event of the other history is dropped
        QCOMPARE(QString::fromStdString(server.requestsTo("/pods", true)[1].q("resourceVersion")),
                 QStringLiteral("80"));
        reflector.stop();
    }

    // A server that stops sending (frozen, or the connection silently gone) while its watch
    // stays open: three bookmark intervals later the watch is given up, reported, and resumed.
    void reflectorGivesUpAWatchThatFallsSilent()
    {
        std::atomic<int> watches{0};
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true")
                return FakeResponse::json(list("PodList", {}, "10"));
            ++watches;
            return FakeResponse::watch({bookmark("10"), bookmark("10"), bookmark("10")},
                                       FakeResponse::Stream::Hold);
        });
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::milliseconds(50);
        opt.minWatchIdleTimeout = std::chrono::milliseconds(1500); // the bookmarks came at once
        std::mutex em;
        std::vector<kube::ApiStatus> errors;
        opt.onError = [&](const kube::ApiStatus &s) {
            std::lock_guard lock(em);
            errors.push_back(s);
        };
        std::atomic<int> recovered{0};
        opt.onRecovered = [&] { ++recovered; };
        Reflector<kube::Pod> reflector(clientFor(server), opt, {});
        QElapsedTimer timer;
        timer.start();
        reflector.start();
        QTRY_VERIFY_WITH_TIMEOUT(server.count("/pods", true) >= 2, 10000);
        QVERIFY2(timer.elapsed() < 6000, QByteArray::number(timer.elapsed()).constData());
        QCOMPARE(reflector.watchIdleTimeout(), std::chrono::milliseconds(1500));
        {
            std::lock_guard lock(em);
            QVERIFY(!errors.empty());
            QCOMPARE(QString::fromStdString(errors[0].reason), QStringLiteral("Timeout"));
            QVERIFY2(errors[0].message.find("not responding") != std::string::npos,
                     errors[0].message.c_str());
        }
        QTRY_VERIFY(recovered.load() >= 1); // the next watch delivered bookmarks again
        reflector.stop();
        const auto ws = server.requestsTo("/pods", true);
        QCOMPARE(QString::fromStdString(ws[0].q("allowWatchBookmarks")), QStringLiteral("true"));
    }

    void watchIdleTimeoutCanBeSetAndCountsFromTheRequest()
    {
        FakeApiServer server([&](const FakeRequest &r) {
            if (r.q("watch") != "true")
                return FakeResponse::json(list("PodList", {}, "10"));
            return FakeResponse::watch({}, FakeResponse::Stream::Hold);
        });
        ReflectorOptions opt;
        opt.initialBackoff = std::chrono::milliseconds(50);
        opt.watchIdleTimeout = std::chrono::seconds(1);
        std::atomic<int> timeouts{0};
        opt.onError = [&](const kube::ApiStatus &s) {
            if (s.reason == "Timeout")
                ++timeouts;
        };
        Reflector<kube::Pod> reflector(clientFor(server), opt, {});
        reflector.start();
        QTRY_VERIFY_WITH_TIMEOUT(timeouts.load() >= 1, 5000);
        QCOMPARE(reflector.watchIdleTimeout(), std::chrono::milliseconds(1000));
        reflector.stop();
    }
};

QTEST_GUILESS_MAIN(TestKubeClient)
#include "tst_kubeclient.moc"
