// Starting a rollout on a live cluster (the embedded API server in process, through the real
// libcurl transport): set image, restart and a strategy edit are kubectl's PATCH, the served
// DaemonSet controller rolls them out, the outcomes are kubectl's lines, and API errors (a 404, a
// container the template lacks) come back with their status and message unchanged.

#include "models/backend/liveactions.h"
#include "models/backend/livebackend.h"

#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include "tests/support/backendwait.h"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<server::ApiServer> startServer()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto cluster = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    if (!cluster)
        return nullptr;
    server::ServerOptions options;
    options.bookmarkInterval = std::chrono::milliseconds(200);
    options.speed = 20;
    auto s = std::make_unique<server::ApiServer>(std::move(*cluster), options);
    if (auto r = s->start(); !r)
        return nullptr;
    return s;
}

client::RestConfig configFor(const server::ApiServer &s)
{
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.contextName = "test";
    return config;
}

models::LiveBackendOptions optionsFor(const server::ApiServer &s)
{
    models::LiveBackendOptions o;
    o.restConfig = configFor(s);
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 50;
    o.maxBackoffMs = 400;
    o.user = u"bob"_s;
    return o;
}

kube::Json served(server::ApiServer &s, const std::string &name)
{
    kube::Json out;
    s.withCluster([&](sim::Cluster &c) {
        if (const auto *ds = c.daemonSet("default", name))
            out = ds->toJson();
    });
    return out;
}

bool rolledOutTo(const models::ClusterSnapshot &s, qint64 revision)
{
    const auto *ds = s.daemonSet(u"default/web"_s);
    return ds && ds->currentRevisionNumber == revision && ds->counts.desired == 3 &&
           ds->counts.updated == 3 && ds->counts.available == 3 && ds->pods->size() == 3;
}

bool loaded(const models::ClusterSnapshot &s)
{
    return rolledOutTo(s, 2) && s.daemonSet(u"default/web"_s)->revisions->size() == 2;
}

} // namespace

class TestLiveStartRollout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setImageRestartAndStrategy();
    void apiErrorsKeepTheirStatus();
};

void TestLiveStartRollout::setImageRestartAndStrategy()
{
    auto srv = startServer();
    QVERIFY(srv);
    models::LiveBackend backend(optionsFor(*srv));
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, loaded));

    QMap<QString, QString> images;
    images.insert(u"web"_s, u"nginx:1.28"_s);
    backend.setImage(u"default/web"_s, images);
    auto r = waitResult(results, models::ActionKind::SetImage);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"daemonset.apps/web image updated"_s);
    QVERIFY(served(*srv, "web")["spec"]["template"]["spec"]["containers"][0]["image"] ==
            kube::Json("nginx:1.28"));
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) { return rolledOutTo(s, 3); }));
    const auto *ds = backend.latest()->daemonSet(u"default/web"_s);
    QCOMPARE(ds->currentRevision()->imageSummary, u"nginx:1.28"_s);
    QVERIFY(ds->record && !ds->record->actions.empty());
    QCOMPARE(ds->record->actions.back().parameters, u"web=nginx:1.28"_s);
    QCOMPARE(ds->record->actions.back().user, u"bob"_s);

    backend.restartRollout(u"default/web"_s);
    r = waitResult(results, models::ActionKind::RestartRollout);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"daemonset.apps/web restarted"_s);
    const auto stamp = served(
        *srv, "web")["spec"]["template"]["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"];
    QVERIFY(stamp.is_string());
    QVERIFY(kube::parseRfc3339(stamp.get<std::string>()));
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) { return rolledOutTo(s, 4); }));

    backend.setUpdateStrategy(u"default/web"_s, u"2"_s, u"0"_s);
    r = waitResult(results, models::ActionKind::SetStrategy);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"daemonset.apps/web patched"_s);
    QVERIFY(served(*srv, "web")["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"] ==
            kube::Json(2));
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) {
        return s.daemonSet(u"default/web"_s)->maxUnavailable == u"2"_s;
    }));
    backend.setUpdateStrategy(u"default/web"_s, u"2"_s, u"0"_s);
    r = waitResult(results, models::ActionKind::SetStrategy);
    QVERIFY(r.ok);
    QCOMPARE(r.message, u"daemonset.apps/web patched (no change)"_s);
    QCOMPARE(backend.latest()->daemonSet(u"default/web"_s)->record->actions.back().parameters,
             u"maxUnavailable=2, maxSurge=0"_s);
}

void TestLiveStartRollout::apiErrorsKeepTheirStatus()
{
    auto srv = startServer();
    QVERIFY(srv);
    client::KubeClient kube(std::make_shared<client::HttpTransport>(configFor(*srv)), "default");
    models::LiveActions actions(kube);

    auto r = actions.setImage("default", "nope", {{"web", "nginx:1.28"}});
    QVERIFY(!r.ok);
    QCOMPARE(r.status.code, 404);
    QCOMPARE(QString::fromStdString(r.status.reason), u"NotFound"_s);
    QCOMPARE(QString::fromStdString(r.message), uR"(daemonsets.apps "nope" not found)"_s);
    QCOMPARE(r.attempts, 0);

    r = actions.setImage("default", "web", {{"sidecar", "envoy:1.31"}});
    QVERIFY(!r.ok);
    QCOMPARE(QString::fromStdString(r.message), uR"(unable to find container named "sidecar")"_s);
    QCOMPARE(r.attempts, 0); // nothing was sent

    r = actions.setStrategy("default", "web", kube::IntOrString::fromInt(0), kube::IntOrString::fromInt(0));
    QVERIFY(!r.ok);
    QVERIFY(QString::fromStdString(r.message).contains(u"cannot be 0 when maxSurge is 0"_s));
    QCOMPARE(r.attempts, 0);

    // Through the backend, the outcome carries the API's message.
    models::LiveBackend backend(optionsFor(*srv));
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, loaded));
    backend.restartRollout(u"default/nope"_s);
    const auto outcome = waitResult(results, models::ActionKind::RestartRollout);
    QVERIFY(!outcome.ok);
    QCOMPARE(outcome.message, uR"(daemonsets.apps "nope" not found)"_s);
}

QTEST_MAIN(TestLiveStartRollout)
#include "tst_livestartrollout.moc"
