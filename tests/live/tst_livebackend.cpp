// LiveBackend against the embedded API server, in process and through the real libcurl
// transport: the published snapshot shows the served objects; rollback, pause and resume use
// kubectl's calls and give the engine's outcomes; the watches recover from a server restart,
// relist after 410 Gone; conflicting writes are retried; an exec plugin is run again after a
// 401; TLS is verified against the kubeconfig's CA. Each test starts its own server on a free
// loopback port.

#include "probetransport.h"

#include "models/backend/livebackend.h"

#include "models/api/kubectlrollout.h"
#include "models/client/httptransport.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include "tests/support/backendwait.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <memory>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

std::string scenarioText()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

std::unique_ptr<sim::Cluster> testCluster()
{
    auto c = scenario::ScenarioRunner::buildCluster(scenarioText(), "web.yaml");
    return c ? std::move(*c) : nullptr;
}

std::unique_ptr<server::ApiServer> startServer(server::ServerOptions options = {})
{
    options.bookmarkInterval = std::chrono::milliseconds(200);
    auto s = std::make_unique<server::ApiServer>(testCluster(), options);
    if (auto r = s->start(); !r) {
        qWarning("server: %s", r.error().message.c_str());
        return nullptr;
    }
    return s;
}

models::LiveBackendOptions optionsFor(const server::ApiServer &s, const std::string &token = {})
{
    models::LiveBackendOptions o;
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.token = token;
    config.contextName = "test";
    o.restConfig = config;
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 50;
    o.maxBackoffMs = 400;
    return o;
}

// Waits for the backend's snapshot to satisfy pred.
bool hasWeb(const models::ClusterSnapshot &s)
{
    const auto *ds = s.daemonSet(u"default/web"_s);
    return ds && ds->revisions->size() == 2 && ds->pods->size() == 3;
}

kube::Json serverDaemonSet(server::ApiServer &s, const std::string &name)
{
    kube::Json out;
    s.withCluster([&](sim::Cluster &c) {
        if (const auto *ds = c.daemonSet("default", name))
            out = ds->toJson();
    });
    return out;
}

// A loopback port that accepts connections (the kernel's backlog does) and never answers.
class SilentPort
{
public:
    SilentPort()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(m_fd, 16) != 0 ||
            ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            return;
        m_url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    }
    ~SilentPort()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    const std::string &url() const { return m_url; }

private:
    int m_fd = -1;
    std::string m_url;
};

// Pod lists go to a server that never answers; everything else to the real one. Records how
// the pod lists ended.
class SilentPodListTransport : public ProbeTransport
{
public:
    SilentPodListTransport(std::shared_ptr<client::Transport> inner,
                           std::shared_ptr<client::Transport> silent)
        : ProbeTransport(std::move(inner)), m_silent(std::move(silent))
    {}

    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        if (method != "GET" || !path.ends_with("/pods"))
            return ProbeTransport::request(method, path, query, body, contentType, accept, options);
        ++podListsStarted;
        auto r = m_silent->request(method, path, query, body, contentType, accept, options);
        std::lock_guard lock(m_mutex);
        m_podListOutcomes.push_back(r ? std::string("answered") : r.error().reason);
        return r;
    }
    void interrupt(const std::atomic<bool> &cancel) override
    {
        ProbeTransport::interrupt(cancel);
        m_silent->interrupt(cancel);
    }
    std::vector<std::string> podListOutcomes() const
    {
        std::lock_guard lock(m_mutex);
        return m_podListOutcomes;
    }

    std::atomic<int> podListsStarted{0};

private:
    std::shared_ptr<client::Transport> m_silent;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_podListOutcomes;
};

} // namespace

class TstLiveBackend : public QObject
{
    Q_OBJECT

private slots:
    void snapshotShowsTheServedObjects_data();
    void snapshotShowsTheServedObjects();
    void rollbackGivesTheEnginesOutcome_data();
    void rollbackGivesTheEnginesOutcome();
    void pauseAndResumeRoundTrip();
    void simulationCommandsAreUnavailable_data();
    void simulationCommandsAreUnavailable();
    void recoversWhenTheServerRestarts();
    void relistsAfterGone();
    void retriesAConflictOnAFreshRead();
    void rerunsTheExecPluginAfterUnauthorized();
    void verifiesTheServerAgainstTheCa_data();
    void verifiesTheServerAgainstTheCa();
    void shutdownAbortsTheListsInTransfer();
};

// Closing the backend while its watches are open and its pod lists (the DaemonSets' and the node
// upgrade's) wait for a server that never answers: the lists are cancelled (not left to their 60 s request
// timeout) and the backend is gone at once.
void TstLiveBackend::shutdownAbortsTheListsInTransfer()
{
    auto srv = startServer();
    QVERIFY(srv);
    SilentPort silent;
    QVERIFY(!silent.url().empty());
    auto options = optionsFor(*srv);
    std::shared_ptr<SilentPodListTransport> transport;
    options.transportFactory = [&](const client::RestConfig &config) {
        client::RestConfig silentConfig;
        silentConfig.server = silent.url();
        transport =
            std::make_shared<SilentPodListTransport>(std::make_shared<client::HttpTransport>(config),
                                                     std::make_shared<client::HttpTransport>(silentConfig));
        return transport;
    };
    auto backend = std::make_unique<models::LiveBackend>(options);
    backend->requestUpgradeInventory(); // the node upgrade's cluster-wide pod list, read at once
    // Both DaemonSets' pod lists and the node upgrade's cluster-wide one are in transfer, the
    // revisions, nodes and events watched.
    QTRY_VERIFY_WITH_TIMEOUT(transport && transport->podListsStarted.load() == 3, 20000);
    QVERIFY(waitFor(*backend, [](const models::ClusterSnapshot &s) {
        const auto *web = s.daemonSet(u"default/web"_s);
        return s.nodes->size() == 3 && web && web->revisions->size() == 2;
    }));
    QVERIFY(transport->podListOutcomes().empty());
    QElapsedTimer timer;
    timer.start();
    backend.reset();
    QVERIFY2(timer.elapsed() < 5000, QByteArray::number(timer.elapsed()).constData()); // hang guard
    const auto outcomes = transport->podListOutcomes();
    QCOMPARE(outcomes.size(), std::size_t(3));
    for (const auto &o : outcomes)
        QCOMPARE(QString::fromStdString(o), u"Cancelled"_s);
}

void TstLiveBackend::snapshotShowsTheServedObjects_data()
{
    QTest::addColumn<QString>("ns");
    QTest::addColumn<bool>("all");
    QTest::addColumn<QStringList>("daemonSets");
    QTest::newRow("the context's namespace shows both DaemonSets")
        << QString() << false << QStringList{u"default/solo"_s, u"default/web"_s};
    QTest::newRow("all namespaces show both DaemonSets")
        << QString() << true << QStringList{u"default/solo"_s, u"default/web"_s};
    QTest::newRow("an empty namespace shows none") << u"kube-system"_s << false << QStringList{};
}

void TstLiveBackend::snapshotShowsTheServedObjects()
{
    QFETCH(QString, ns);
    QFETCH(bool, all);
    QFETCH(QStringList, daemonSets);
    auto srv = startServer();
    QVERIFY(srv);
    auto options = optionsFor(*srv);
    options.namespace_ = ns;
    options.allNamespaces = all;
    models::LiveBackend backend(options);
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    const auto connected = waitResult(results, models::ActionKind::Connect);
    QVERIFY2(connected.ok, qPrintable(connected.message));
    QVERIFY(waitFor(backend, [&](const models::ClusterSnapshot &s) {
        return s.nodes->size() == 3 && int(s.daemonSets.size()) == daemonSets.size() &&
               (daemonSets.isEmpty() || hasWeb(s));
    }));
    const auto snap = backend.latest();
    QCOMPARE(snap->backend.kind, models::BackendKind::Live);
    QVERIFY(snap->backend.connected);
    QVERIFY2(snap->backend.name.contains(QString::fromStdString(srv->url())), qPrintable(snap->backend.name));
    QStringList keys;
    for (const auto &ds : snap->daemonSets)
        keys << ds.key;
    QCOMPARE(keys, daemonSets);
    if (daemonSets.isEmpty())
        return;
    const auto *web = snap->daemonSet(u"default/web"_s);
    QCOMPARE(web->currentRevisionNumber, 2);
    QCOMPARE(web->revisions->at(0).imageSummary, u"nginx:1.26"_s);
    QCOMPARE(web->revisions->at(1).imageSummary, u"nginx:1.27"_s);
    QCOMPARE(web->revisions->at(1).changeCause, u"kubectl set image ds/web web=nginx:1.27"_s);
    QCOMPARE(web->revisions->at(1).podCount, 3);
    QCOMPARE(web->counts.desired, 3);
    QCOMPARE(web->badge, models::RolloutBadge::Complete);
    for (const auto &p : *web->pods)
        QCOMPARE(p.hash, web->currentRevisionHash);
    // Events about a DaemonSet's current pods are its events, whatever namespace's other
    // DaemonSets hold.
    QVERIFY(waitFor(backend, [&](const models::ClusterSnapshot &s) {
        const auto *w = s.daemonSet(u"default/web"_s);
        if (!w || !s.events)
            return false;
        for (const auto &e : *s.events)
            for (const auto &p : *w->pods)
                if (e.object == u"pod/default/"_s + p.name)
                    return true;
        return false;
    }));
    const auto latest = backend.latest();
    int attributed = 0;
    for (const auto &dsKey : daemonSets) {
        const auto *ds = latest->daemonSet(dsKey);
        QVERIFY(ds);
        for (const auto &e : *latest->events)
            for (const auto &p : *ds->pods)
                if (e.object == u"pod/default/"_s + p.name) {
                    QCOMPARE(e.daemonSetKey, dsKey);
                    ++attributed;
                }
    }
    QVERIFY(attributed > 0);
}

void TstLiveBackend::rollbackGivesTheEnginesOutcome_data()
{
    QTest::addColumn<qint64>("toRevision");
    QTest::newRow("to the previous revision") << qint64(0);
    QTest::newRow("to revision 1") << qint64(1);
    QTest::newRow("to the current revision is skipped") << qint64(2);
    QTest::newRow("to a revision that does not exist") << qint64(7);
    QTest::newRow("to a negative revision") << qint64(-1);
}

void TstLiveBackend::rollbackGivesTheEnginesOutcome()
{
    QFETCH(qint64, toRevision);
    // What the engine does with the same cluster, directly.
    auto reference = testCluster();
    QVERIFY(reference);
    const auto expected = reference->rollback("default", "web", toRevision);

    server::ServerOptions so;
    so.speed = 20; // the controller renumbers the restored revision and rolls the pods
    auto srv = startServer(so);
    QVERIFY(srv);
    auto options = optionsFor(*srv);
    auto probe = std::make_shared<std::shared_ptr<ProbeTransport>>();
    options.transportFactory = [probe](const client::RestConfig &c) {
        *probe = std::make_shared<ProbeTransport>(std::make_shared<client::HttpTransport>(c));
        return *probe;
    };
    models::LiveBackend backend(options);
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, hasWeb));
    backend.rollback(u"default/web"_s, toRevision);
    const auto r = waitResult(results, models::ActionKind::Rollback);
    QCOMPARE(r.target, u"default/web"_s);
    QCOMPARE(r.ok, expected.ok());
    QCOMPARE(r.message, QString::fromStdString(expected.message));
    QCOMPARE(r.revision, expected.targetRevision);
    // kubectl's calls: GET the DaemonSet, LIST its revisions, PATCH only when rolling back.
    QVERIFY((*probe)->requests("GET /apis/apps/v1/namespaces/default/daemonsets/web") >= 1);
    QVERIFY((*probe)->requests("GET /apis/apps/v1/namespaces/default/controllerrevisions") >= 1);
    QCOMPARE((*probe)->requests("PATCH /apis/apps/v1/namespaces/default/daemonsets/web"),
             expected.action == api::RollbackOutcome::Action::Patch ? 1 : 0);
    if (expected.action != api::RollbackOutcome::Action::Patch)
        return;
    const auto patch = (*probe)->lastPatch();
    QCOMPARE(patch.body, expected.patch); // the revision's data, byte for byte
    QCOMPARE(patch.contentType, std::string("application/strategic-merge-patch+json"));
    QCOMPARE(patch.query, std::string()); // no fieldManager, no dryRun
    // The restored revision becomes the newest (3) with the old image, as in the engine.
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) {
        const auto *ds = s.daemonSet(u"default/web"_s);
        return ds && ds->currentRevisionNumber == 3 && ds->currentRevision() &&
               ds->currentRevision()->imageSummary == u"nginx:1.26"_s;
    }));
    const auto *ds = backend.latest()->daemonSet(u"default/web"_s);
    QVERIFY(!ds->record->actions.empty());
    QCOMPARE(ds->record->actions.back().outcome, u"rolled back"_s);
}

void TstLiveBackend::pauseAndResumeRoundTrip()
{
    auto srv = startServer();
    QVERIFY(srv);
    models::LiveBackend backend(optionsFor(*srv));
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, hasWeb));

    backend.pause(u"default/web"_s);
    auto r = waitResult(results, models::ActionKind::Pause);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"paused: update strategy switched to OnDelete (new nodes still get pods)"_s);
    // Published before the result: latest() already shows it.
    const auto *ds = backend.latest()->daemonSet(u"default/web"_s);
    QVERIFY(ds->paused);
    QCOMPARE(ds->strategyType, u"OnDelete"_s);
    QCOMPARE(ds->badge, models::RolloutBadge::Paused);
    kube::Json onServer = serverDaemonSet(*srv, "web");
    QCOMPARE(QString::fromStdString(onServer["spec"]["updateStrategy"]["type"].get<std::string>()),
             u"OnDelete"_s);
    QVERIFY(onServer["metadata"]["annotations"].contains(api::kPausedStrategyAnnotation));

    results.clear();
    backend.pause(u"default/web"_s);
    r = waitResult(results, models::ActionKind::Pause);
    QVERIFY(r.ok);
    QCOMPARE(r.message, u"already paused"_s);

    results.clear();
    backend.resume(u"default/web"_s);
    r = waitResult(results, models::ActionKind::Resume);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"resumed: saved update strategy restored"_s);
    ds = backend.latest()->daemonSet(u"default/web"_s);
    QVERIFY(!ds->paused);
    QCOMPARE(ds->strategyType, u"RollingUpdate"_s);
    QCOMPARE(ds->maxUnavailable, u"1"_s);
    onServer = serverDaemonSet(*srv, "web");
    QVERIFY(!onServer["metadata"]
                 .value("annotations", kube::Json::object())
                 .contains(api::kPausedStrategyAnnotation));

    results.clear();
    backend.resume(u"default/web"_s);
    r = waitResult(results, models::ActionKind::Resume);
    QVERIFY(r.ok);
    QCOMPARE(r.message, u"not paused"_s);

    results.clear();
    backend.pause(u"default/missing"_s);
    r = waitResult(results, models::ActionKind::Pause);
    QVERIFY(!r.ok);
    QVERIFY2(r.message.contains(u"not found"_s), qPrintable(r.message));
}

void TstLiveBackend::simulationCommandsAreUnavailable_data()
{
    QTest::addColumn<int>("command");
    QTest::addColumn<models::ActionKind>("kind");
    QTest::newRow("load scenario") << 0 << models::ActionKind::LoadScenario;
    QTest::newRow("set speed") << 1 << models::ActionKind::SetSpeed;
    QTest::newRow("step") << 2 << models::ActionKind::Step;
    QTest::newRow("set seed") << 3 << models::ActionKind::SetSeed;
    QTest::newRow("inject fault") << 4 << models::ActionKind::InjectFault;
}

void TstLiveBackend::simulationCommandsAreUnavailable()
{
    QFETCH(int, command);
    QFETCH(models::ActionKind, kind);
    auto srv = startServer();
    QVERIFY(srv);
    models::LiveBackend backend(optionsFor(*srv));
    QVERIFY(!backend.isSimulation());
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    switch (command) {
    case 0:
        backend.loadScenario(u"x.yaml"_s);
        break;
    case 1:
        backend.setSpeed(2);
        break;
    case 2:
        backend.step(1000);
        break;
    case 3:
        backend.setSeed(3);
        break;
    default:
        backend.injectFault(u"node-1"_s, u"NotReady"_s);
        break;
    }
    const auto r = waitResult(results, kind);
    QCOMPARE(r.ok, false);
    QCOMPARE(r.message, u"not available on a live cluster"_s);
}

void TstLiveBackend::recoversWhenTheServerRestarts()
{
    auto srv = startServer();
    QVERIFY(srv);
    const int port = srv->port();
    models::LiveBackend backend(optionsFor(*srv));
    QSignalSpy errors(&backend, &models::ClusterBackend::errorOccurred);
    // Connected once DaemonSets, nodes and events are listed; the pods may be in before that.
    QVERIFY(
        waitFor(backend, [](const models::ClusterSnapshot &s) { return hasWeb(s) && s.backend.connected; }));

    srv.reset(); // stops: the watches drop, reconnects are refused
    QVERIFY(
        waitFor(backend, [](const models::ClusterSnapshot &s) { return !s.backend.errorText.isEmpty(); }));
    QVERIFY(!backend.latest()->backend.connected);
    QVERIFY(!errors.isEmpty());
    QVERIFY2(backend.latest()->backend.errorText.contains(u"cannot reach"_s),
             qPrintable(backend.latest()->backend.errorText));

    server::ServerOptions so;
    so.port = port;
    srv = startServer(so);
    QVERIFY(srv);
    srv->withCluster([](sim::Cluster &c) { QVERIFY(c.pause("default", "web").ok()); });
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) {
        const auto *ds = s.daemonSet(u"default/web"_s);
        return ds && ds->paused && s.backend.errorText.isEmpty() && s.backend.connected;
    }));
}

void TstLiveBackend::relistsAfterGone()
{
    auto srv = startServer();
    QVERIFY(srv);
    auto options = optionsFor(*srv);
    auto probe = std::make_shared<std::shared_ptr<ProbeTransport>>();
    options.transportFactory = [probe](const client::RestConfig &c) {
        *probe = std::make_shared<ProbeTransport>(std::make_shared<client::HttpTransport>(c));
        return *probe;
    };
    models::LiveBackend backend(options);
    QVERIFY(waitFor(backend, hasWeb));
    const std::string list = "GET /apis/apps/v1/namespaces/default/daemonsets";
    QCOMPARE((*probe)->requests(list), 1);
    // The next line of the DaemonSet watch (the pause's MODIFIED event or a bookmark) is
    // replaced by 410 Expired: the pause is only seen if the reflector lists again.
    (*probe)->goneOnNextDaemonSetLine = true;
    srv->withCluster([](sim::Cluster &c) { QVERIFY(c.pause("default", "web").ok()); });
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) {
        const auto *ds = s.daemonSet(u"default/web"_s);
        return ds && ds->paused;
    }));
    QCOMPARE((*probe)->requests(list), 2);
    QVERIFY(!(*probe)->goneOnNextDaemonSetLine);
    QVERIFY(backend.latest()->backend.errorText.isEmpty());
}

void TstLiveBackend::retriesAConflictOnAFreshRead()
{
    auto srv = startServer();
    QVERIFY(srv);
    auto options = optionsFor(*srv);
    auto probe = std::make_shared<std::shared_ptr<ProbeTransport>>();
    options.transportFactory = [probe](const client::RestConfig &c) {
        *probe = std::make_shared<ProbeTransport>(std::make_shared<client::HttpTransport>(c));
        return *probe;
    };
    models::LiveBackend backend(options);
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, hasWeb));
    (*probe)->writeBeforeNextPatch = true; // the first PATCH then carries a stale resourceVersion
    backend.pause(u"default/web"_s);
    const auto r = waitResult(results, models::ActionKind::Pause);
    QVERIFY2(r.ok, qPrintable(r.message));
    // Two pause PATCHes went out (the first one answered 409) plus the concurrent writer's.
    QCOMPARE((*probe)->requests("PATCH /apis/apps/v1/namespaces/default/daemonsets/web"), 2);
    QCOMPARE((*probe)->requests("GET /apis/apps/v1/namespaces/default/daemonsets/web"), 2);
    const kube::Json onServer = serverDaemonSet(*srv, "web");
    QVERIFY(onServer["metadata"]["annotations"].contains("example.com/other-writer"));
    QVERIFY(onServer["metadata"]["annotations"].contains(api::kPausedStrategyAnnotation));
    QCOMPARE(QString::fromStdString(onServer["spec"]["updateStrategy"]["type"].get<std::string>()),
             u"OnDelete"_s);
}

void TstLiveBackend::rerunsTheExecPluginAfterUnauthorized()
{
    server::ServerOptions so;
    so.tls = true;
    so.token = "right-token-1234";
    auto srv = startServer(so);
    QVERIFY(srv);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The plugin hands out a wrong token on its first run and the right one afterwards.
    const QString plugin = dir.filePath(u"plugin.sh"_s);
    const QString runs = dir.filePath(u"runs"_s);
    {
        QFile f(plugin);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(
                    "#!/bin/sh\n"
                    "echo run >> '%1'\n"
                    "if [ \"$(wc -l < '%1')\" -le 1 ]; then t=stale-token-0000; else t=%2; fi\n"
                    "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                    "\"status\":{\"token\":\"%s\"}}\\n' \"$t\"\n")
                    .arg(runs, QString::fromStdString(so.token))
                    .toUtf8());
        f.close();
        QVERIFY(f.setPermissions(f.permissions() | QFileDevice::ExeOwner));
    }
    const QString kubeconfig = dir.filePath(u"config"_s);
    {
        kube::Json config = {
            {"apiVersion", "v1"},
            {"kind", "Config"},
            {"current-context", "exec"},
            {"clusters",
             {{{"name", "served"},
               {"cluster",
                {{"server", srv->url()},
                 {"certificate-authority-data",
                  QByteArray::fromStdString(srv->caCertificatePem()).toBase64().toStdString()}}}}}},
            {"users",
             {{{"name", "plugin-user"},
               {"user",
                {{"exec",
                  {{"apiVersion", "client.authentication.k8s.io/v1"},
                   {"command", plugin.toStdString()},
                   {"interactiveMode", "Never"}}}}}}}},
            {"contexts",
             {{{"name", "exec"}, {"context", {{"cluster", "served"}, {"user", "plugin-user"}}}}}}};
        QFile f(kubeconfig);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(config.dump()));
    }
    models::LiveBackendOptions options;
    options.kubeconfig = kubeconfig;
    options.publishIntervalMs = 20;
    options.initialBackoffMs = 50;
    options.maxBackoffMs = 400;
    models::LiveBackend backend(options);
    QSignalSpy errors(&backend, &models::ClusterBackend::errorOccurred);
    QVERIFY(
        waitFor(backend, [](const models::ClusterSnapshot &s) { return hasWeb(s) && s.backend.connected; }));
    QFile runLog(runs);
    QVERIFY(runLog.open(QIODevice::ReadOnly));
    QVERIFY2(runLog.readAll().count('\n') >= 2, "the plugin ran only once");
    QVERIFY(!errors.isEmpty());
    bool unauthorized = false;
    for (const auto &e : errors) {
        const QString message = e.at(0).toString();
        QVERIFY2(!message.contains(u"token-"_s), qPrintable(message)); // never a credential
        unauthorized = unauthorized || message.contains(u"Unauthorized"_s, Qt::CaseInsensitive) ||
                       message.contains(u"401"_s);
    }
    QVERIFY(unauthorized);
    QVERIFY(backend.latest()->backend.name.startsWith(u"exec / default"_s));
}

void TstLiveBackend::verifiesTheServerAgainstTheCa_data()
{
    QTest::addColumn<bool>("rightCa");
    QTest::newRow("the server's own CA is trusted") << true;
    QTest::newRow("another server's CA is refused with a clear message") << false;
}

void TstLiveBackend::verifiesTheServerAgainstTheCa()
{
    QFETCH(bool, rightCa);
    server::ServerOptions so;
    so.tls = true;
    so.token = "tls-test-token";
    auto srv = startServer(so);
    QVERIFY(srv);
    auto other = startServer(so);
    QVERIFY(other);
    auto options = optionsFor(*srv, so.token);
    if (!rightCa)
        options.restConfig->caPem = other->caCertificatePem();
    models::LiveBackend backend(options);
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    if (rightCa) {
        QVERIFY(waitFor(backend,
                        [](const models::ClusterSnapshot &s) { return hasWeb(s) && s.backend.connected; }));
        return;
    }
    const auto r = waitResult(results, models::ActionKind::Connect);
    Q_UNUSED(r);
    QVERIFY(
        waitFor(backend, [](const models::ClusterSnapshot &s) { return !s.backend.errorText.isEmpty(); }));
    const QString error = backend.latest()->backend.errorText;
    QVERIFY2(error.contains(u"not trusted by the kubeconfig's certificate-authority"_s), qPrintable(error));
    QVERIFY(!error.contains(u"tls-test-token"_s));
    QVERIFY(backend.latest()->daemonSets.empty());
    QVERIFY(!backend.latest()->backend.connected);
}

QTEST_MAIN(TstLiveBackend)
#include "tst_livebackend.moc"
