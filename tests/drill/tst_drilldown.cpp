// The drill-down over both backends and the API server: `pods/NAME/log` over HTTP (container
// required for two containers, 404, 400s, tailLines, previous, follow that receives a line
// written after the request and ends when the pod is deleted), discovery listing pods/log, and
// EmbeddedBackend and LiveBackend (against an in-process server built from the same scenario)
// answering requestDetail with the same pod and events, and startLogs / stopLogs alike.

#include "models/backend/livebackend.h"
#include "models/embedded/embeddedbackend.h"

#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/kube/simulatedcrash.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/sim/containerlog.h"

#include <QFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QtTest>

#include <thread>

using namespace Qt::StringLiterals;

namespace {

const QString kScenario = QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/drill/drill.yaml");

std::unique_ptr<sim::Cluster> drillCluster()
{
    QFile f(kScenario);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "drill.yaml");
    return c ? std::move(*c) : nullptr;
}

std::unique_ptr<server::ApiServer> startServer(double speed)
{
    server::ServerOptions o;
    o.speed = speed;
    auto s = std::make_unique<server::ApiServer>(drillCluster(), o);
    if (auto r = s->start(); !r) {
        qWarning("server: %s", r.error().message.c_str());
        return nullptr;
    }
    return s;
}

client::RestConfig configFor(const server::ApiServer &s)
{
    client::RestConfig c;
    c.server = s.url();
    c.contextName = "test";
    return c;
}

// The name of the DaemonSet's first pod on the server.
std::string podOf(server::ApiServer &s, const std::string &ds)
{
    std::string name;
    s.withCluster([&](sim::Cluster &c) {
        auto pods = c.podsOf("default", ds);
        if (!pods.empty())
            name = pods.front()->metadata.name;
    });
    return name;
}

struct Answer
{
    int code = 0;
    std::string body;
    std::string contentType;
};

Answer get(client::HttpTransport &t, const std::string &path, const client::Query &query = {})
{
    auto r = t.request("GET", path, query, {}, {}, "*/*");
    if (!r)
        return {r.error().code, r.error().message, {}};
    return {r->status, r->body, r->contentType};
}

std::string logPath(const std::string &pod)
{
    return "/api/v1/namespaces/default/pods/" + pod + "/log";
}

} // namespace

class TstDrillDown : public QObject
{
    Q_OBJECT

private slots:
    void logSubresourceAnswersLikeKubeApiserver_data();
    void logSubresourceAnswersLikeKubeApiserver();
    void discoveryListsPodsLog();
    void followStreamsNewLinesAndEndsWithThePod();
    void backendsAnswerDetailWithTheSamePodAndEvents();
    void backendsDeliverLogsAndStopFollowing();
};

void TstDrillDown::logSubresourceAnswersLikeKubeApiserver_data()
{
    QTest::addColumn<QString>("ds");    // the DaemonSet whose pod is asked; empty: a missing pod
    QTest::addColumn<QString>("query"); // "k=v&k=v"
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("expected"); // the body (200) or the Status message

    QTest::newRow("two containers need a name")
        << u"pair"_s << u""_s << 400
        << u"a container name must be specified for pod %1, choose one of: [a b]"_s;
    QTest::newRow("an unknown container is refused")
        << u"web"_s << u"container=nope"_s << 400 << u"container nope is not valid for pod %1"_s;
    QTest::newRow("a missing pod is 404") << u""_s << u""_s << 404 << u"pods \"nope\" not found"_s;
    QTest::newRow("previous of a healthy pod is not found")
        << u"web"_s << u"previous=true"_s << 400
        << u"previous terminated container \"web\" in pod \"%1\" not found"_s;
    QTest::newRow("tailLines keeps the last line")
        << u"agent"_s << u"tailLines=1"_s << 200
        << QString::fromStdString(kube::simulatedCrashMessage("agent", "example.com/agent:broken") + "\n");
    QTest::newRow("tailLines 0 is empty") << u"web"_s << u"tailLines=0"_s << 200 << u""_s;
    QTest::newRow("a negative tailLines is invalid")
        << u"web"_s << u"tailLines=-2"_s << 422
        << u"PodLogOptions \"\" is invalid: tailLines: Invalid value: -2: must be greater than or equal to 0"_s;
    QTest::newRow("limitBytes cuts the answer")
        << u"pair"_s << u"container=b&limitBytes=8"_s << 200 << u"starting"_s;
}

void TstDrillDown::logSubresourceAnswersLikeKubeApiserver()
{
    QFETCH(QString, ds);
    QFETCH(QString, query);
    QFETCH(int, code);
    QFETCH(QString, expected);
    auto server = startServer(0);
    QVERIFY(server);
    client::HttpTransport t(configFor(*server));
    const std::string pod = ds.isEmpty() ? std::string("nope") : podOf(*server, ds.toStdString());
    QVERIFY(!pod.empty());
    client::Query q;
    for (const QString &kv : query.split(u'&', Qt::SkipEmptyParts))
        q.emplace_back(kv.section(u'=', 0, 0).toStdString(), kv.section(u'=', 1).toStdString());
    const Answer a = get(t, logPath(pod), q);
    QCOMPARE(a.code, code);
    const QString want = expected.contains(u"%1"_s) ? expected.arg(QString::fromStdString(pod)) : expected;
    QCOMPARE(QString::fromStdString(a.body), want);
    if (code == 200)
        QVERIFY2(a.contentType.rfind("text/plain", 0) == 0, a.contentType.c_str());
}

void TstDrillDown::discoveryListsPodsLog()
{
    auto server = startServer(0);
    QVERIFY(server);
    client::HttpTransport t(configFor(*server));
    const Answer a = get(t, "/api/v1");
    QCOMPARE(a.code, 200);
    const auto doc = kube::Json::parse(a.body);
    bool found = false;
    for (const auto &r : doc["resources"])
        if (r["name"] == "pods/log") {
            found = true;
            QCOMPARE(r["kind"].get<std::string>(), std::string("Pod"));
            QCOMPARE(r["verbs"], kube::Json::array({"get"}));
            QVERIFY(!r.contains("group"));
        }
    QVERIFY(found);
}

void TstDrillDown::followStreamsNewLinesAndEndsWithThePod()
{
    // 30 virtual seconds between heartbeats, at 20x: a new line every 1.5 s.
    auto server = startServer(20);
    QVERIFY(server);
    const std::string pod = podOf(*server, "web");
    QVERIFY(!pod.empty());
    auto transport = std::make_shared<client::HttpTransport>(configFor(*server));
    client::KubeClient kc(transport);
    client::KubeClient::LogOptions o;
    o.follow = true;
    o.tailLines = 0; // only what is written from now on
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::vector<std::string> lines;
    std::atomic<bool> ended{false};
    kube::Result<void> result;
    std::thread reader([&] {
        result = kc.streamLogs(
            "default", pod, o,
            [&](std::string_view line) {
                std::lock_guard lock(mutex);
                lines.emplace_back(line);
                return true;
            },
            cancel);
        ended = true;
    });
    // A failed check returns early: the reader is stopped and joined first.
    auto stop = qScopeGuard([&] {
        cancel = true;
        transport->interrupt(cancel);
        if (reader.joinable())
            reader.join();
    });
    auto count = [&] {
        std::lock_guard lock(mutex);
        return lines.size();
    };
    QTRY_VERIFY_WITH_TIMEOUT(count() >= 1, 20000);
    {
        std::lock_guard lock(mutex);
        QVERIFY2(lines.front().rfind("healthy: up ", 0) == 0, lines.front().c_str());
    }
    QVERIFY(!ended);
    server->withCluster([&](sim::Cluster &c) { QVERIFY(c.remove(api::Kind::Pod, "default", pod)); });
    QTRY_VERIFY_WITH_TIMEOUT(ended.load(), 20000);
    reader.join();
    stop.dismiss();
    QVERIFY2(result, result ? "" : result.error().message.c_str());
}

void TstDrillDown::backendsAnswerDetailWithTheSamePodAndEvents()
{
    auto server = startServer(0);
    QVERIFY(server);
    models::EmbeddedBackendOptions eo;
    eo.scenarioPath = kScenario;
    eo.speed = 0;
    models::EmbeddedBackend embedded(eo);
    models::LiveBackendOptions lo;
    lo.restConfig = configFor(*server);
    lo.publishIntervalMs = 20;
    models::LiveBackend live(lo);
    const QString pod = QString::fromStdString(podOf(*server, "agent"));
    QTRY_VERIFY_WITH_TIMEOUT(embedded.latest()->daemonSet(u"default/agent"_s), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(live.latest()->backend.connected, 30000);

    auto detail = [&](models::ClusterBackend &b, const QString &kind, const QString &ns,
                      const QString &name) {
        QSignalSpy spy(&b, &models::ClusterBackend::detailReady);
        const quint64 id = b.requestDetail(kind, ns, name);
        models::ObjectDetail d;
        for (int i = 0; i < 100 && d.requestId != id; ++i) {
            if (spy.isEmpty() && !spy.wait(10000))
                break;
            while (!spy.isEmpty() && d.requestId != id)
                d = spy.takeFirst().at(0).value<models::ObjectDetail>();
        }
        return d;
    };
    const models::ObjectDetail e = detail(embedded, u"Pod"_s, u"default"_s, pod);
    const models::ObjectDetail l = detail(live, u"Pod"_s, u"default"_s, pod);
    QVERIFY2(e.ok, qPrintable(e.error));
    QVERIFY2(l.ok, qPrintable(l.error));
    // The same pod: spec and status byte for byte (the server's resourceVersions differ: it also
    // keeps node leases).
    QCOMPARE((*e.object)["spec"].dump(), (*l.object)["spec"].dump());
    QCOMPARE((*e.object)["status"].dump(), (*l.object)["status"].dump());
    QCOMPARE((*e.object)["metadata"]["uid"], (*l.object)["metadata"]["uid"]);
    QVERIFY((*e.object)["status"]["containerStatuses"][0]["lastState"]["terminated"].contains("message"));
    QVERIFY(!e.events.empty());
    // The same events; their order may differ among those of one second (the API's timestamps
    // have seconds, the engine's milliseconds).
    auto summary = [](const std::vector<models::EventInfo> &events) {
        QStringList out;
        for (const auto &ev : events)
            out << ev.type + u'|' + ev.reason + u'|' + ev.message + u'|' + QString::number(ev.count) + u'|' +
                       ev.source;
        out.sort();
        return out;
    };
    QCOMPARE(summary(e.events), summary(l.events));
    QVERIFY(summary(e.events).join(u'\n').contains(u"Warning|BackOff|"_s));
    QCOMPARE(e.events.front().source, u"kubelet"_s);

    const models::ObjectDetail en = detail(embedded, u"Node"_s, {}, u"node-1"_s);
    const models::ObjectDetail ln = detail(live, u"Node"_s, {}, u"node-1"_s);
    QVERIFY2(en.ok && ln.ok, qPrintable(en.error + ln.error));
    QCOMPARE((*en.object)["status"]["nodeInfo"].dump(), (*ln.object)["status"]["nodeInfo"].dump());

    const models::ObjectDetail missing = detail(live, u"Pod"_s, u"default"_s, u"nope"_s);
    QVERIFY(!missing.ok);
    QCOMPARE(missing.error, u"HTTP 404: pods \"nope\" not found"_s);
    const models::ObjectDetail missingEmbedded = detail(embedded, u"Pod"_s, u"default"_s, u"nope"_s);
    QCOMPARE(missingEmbedded.error, u"pods \"nope\" not found"_s);
}

void TstDrillDown::backendsDeliverLogsAndStopFollowing()
{
    auto server = startServer(0);
    QVERIFY(server);
    models::EmbeddedBackendOptions eo;
    eo.scenarioPath = kScenario;
    eo.speed = 0;
    models::EmbeddedBackend embedded(eo);
    models::LiveBackendOptions lo;
    lo.restConfig = configFor(*server);
    models::LiveBackend live(lo);
    QTRY_VERIFY_WITH_TIMEOUT(embedded.latest()->daemonSet(u"default/web"_s), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(live.latest()->backend.connected, 30000);
    const QString web = QString::fromStdString(podOf(*server, "web"));
    const QString agent = QString::fromStdString(podOf(*server, "agent"));

    // Collects one request's lines and its end.
    struct Collected
    {
        QString text;
        bool finished = false;
        bool ok = false;
        QString message;
    };
    std::vector<QMetaObject::Connection> connections;
    auto watch = [&connections](models::ClusterBackend &b, quint64 &id, Collected &c) {
        connections.push_back(
            QObject::connect(&b, &models::ClusterBackend::logData, &b, [&](quint64 i, const QString &t) {
                if (i == id)
                    c.text += t;
            }));
        connections.push_back(QObject::connect(&b, &models::ClusterBackend::logFinished, &b,
                                               [&](quint64 i, bool ok, const QString &m) {
                                                   if (i == id) {
                                                       c.finished = true;
                                                       c.ok = ok;
                                                       c.message = m;
                                                   }
                                               }));
    };
    auto unwatch = [&connections] {
        for (const auto &c : connections)
            QObject::disconnect(c);
        connections.clear();
    };

    // The same lines from both (the same engine state at the same virtual time).
    for (const QString &pod : {web, agent}) {
        models::LogRequest r;
        r.namespace_ = u"default"_s;
        r.pod = pod;
        r.tailLines = 3;
        quint64 eid = 0, lid = 0;
        Collected ec, lc;
        watch(embedded, eid, ec);
        watch(live, lid, lc);
        eid = embedded.startLogs(r);
        lid = live.startLogs(r);
        QTRY_VERIFY_WITH_TIMEOUT(ec.finished && lc.finished, 20000);
        QVERIFY2(ec.ok && lc.ok, qPrintable(ec.message + lc.message));
        QCOMPARE(ec.text.count(u'\n'), 3);
        QCOMPARE(ec.text, lc.text);
        if (pod == agent)
            QVERIFY(ec.text.endsWith(
                QString::fromStdString(kube::simulatedCrashMessage("agent", "example.com/agent:broken")) +
                u'\n'));
        unwatch();
    }

    // Errors carry the API's message (and the HTTP status on a live cluster).
    {
        models::LogRequest r;
        r.namespace_ = u"default"_s;
        r.pod = web;
        r.previous = true;
        quint64 eid = 0, lid = 0;
        Collected ec, lc;
        watch(embedded, eid, ec);
        watch(live, lid, lc);
        eid = embedded.startLogs(r);
        lid = live.startLogs(r);
        QTRY_VERIFY_WITH_TIMEOUT(ec.finished && lc.finished, 20000);
        QVERIFY(!ec.ok && !lc.ok);
        const QString message = u"previous terminated container \"web\" in pod \"%1\" not found"_s.arg(web);
        QCOMPARE(ec.message, message);
        QCOMPARE(lc.message, u"HTTP 400: "_s + message);
        unwatch();
    }

    // Following: the embedded one gets the lines of each step; both stop on stopLogs.
    models::LogRequest r;
    r.namespace_ = u"default"_s;
    r.pod = web;
    r.tailLines = 0;
    r.follow = true;
    quint64 eid = 0, lid = 0;
    Collected ec, lc;
    watch(embedded, eid, ec);
    watch(live, lid, lc);
    eid = embedded.startLogs(r);
    lid = live.startLogs(r);
    embedded.step(60000);
    QTRY_COMPARE_WITH_TIMEOUT(ec.text.count(u'\n'), 2, 20000);
    QVERIFY(ec.text.startsWith(u"healthy: up "_s));
    QVERIFY(!ec.finished && !lc.finished); // the live stream is open and idle (the server's clock is frozen)
    embedded.stopLogs(eid);
    live.stopLogs(lid);
    QTRY_VERIFY_WITH_TIMEOUT(ec.finished && lc.finished, 5000);
    QVERIFY(ec.ok && lc.ok);
    QCOMPARE(ec.message, u"stopped"_s);
    QCOMPARE(lc.message, u"stopped"_s);
    unwatch();
}

QTEST_GUILESS_MAIN(TstDrillDown)
#include "tst_drilldown.moc"
