// The live path when the server misbehaves: `daemonscope serve` as a child process (so SIGSTOP
// and SIGKILL are real) and the embedded API server in process (for resourceVersions that go
// back). In every case the console's backend must end with exactly the server's objects — no
// phantom pod from the previous server life, none missing — say "disconnected" while the server
// is silent, and print no credential:
//
//  - frozen for 30 s and resumed, with a write after it;
//  - killed and restarted on the same port, with writes made before the backend reconnects;
//  - restarted with lower resourceVersions than the backend has seen (in process);
//  - a watch stream cut in the middle of a line;
//  - the headless commands against a frozen server with --request-timeout.

#include "tests/support/serveprocess.h"

#include "models/backend/livebackend.h"

#include "models/client/httptransport.h"
#include "models/client/kubeconfig.h"
#include "models/kube/gojson.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

QString scenarioPath()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml");
}

std::unique_ptr<sim::Cluster> testCluster()
{
    QFile f(scenarioPath());
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    return c ? std::move(*c) : nullptr;
}

kube::Result<client::RestConfig> restConfigOf(const QString &kubeconfig)
{
    client::KubeconfigOptions o;
    o.explicitPath = kubeconfig.toStdString();
    auto k = client::Kubeconfig::load(o);
    if (!k)
        return k.error();
    return k->resolve();
}

// The names of web's pods as the server has them now, sorted; empty with `ok` false when the
// server does not answer.
QStringList serverPods(client::Transport &t, bool *ok)
{
    auto r = t.request("GET", "/api/v1/namespaces/default/pods", {{"labelSelector", "app=web"}}, {}, {},
                       "application/json");
    *ok = r && r->status == 200;
    QStringList names;
    if (!*ok)
        return names;
    const auto list = kube::Json::parse(r->body, nullptr, false);
    if (!list.is_object() || !list.contains("items")) {
        *ok = false;
        return names;
    }
    for (const auto &item : list["items"])
        names << QString::fromStdString(item["metadata"].value("name", std::string{}));
    names.sort();
    return names;
}

QStringList backendPods(const models::ClusterSnapshot &s)
{
    QStringList names;
    if (const auto *ds = s.daemonSet(u"default/web"_s))
        for (const auto &p : *ds->pods)
            names << p.name;
    names.sort();
    return names;
}

template <typename Pred> bool waitFor(Pred pred, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        if (pred())
            return true;
        QTest::qWait(50);
    }
    return pred();
}

// Waits until the backend shows the server's pods of web, connected and without error, and the
// two agree on two reads in a row (a pod being replaced makes them differ for a moment).
bool converges(models::ClusterBackend &backend, client::Transport &t, QString *why, int ms = 30000)
{
    int agreed = 0;
    QStringList server;
    QStringList mine;
    const bool ok = waitFor(
        [&] {
            bool answered = false;
            server = serverPods(t, &answered);
            const auto snap = backend.latest();
            mine = backendPods(*snap);
            const bool same = answered && !server.isEmpty() && server == mine && snap->backend.connected &&
                              snap->backend.errorText.isEmpty();
            agreed = same ? agreed + 1 : 0;
            return agreed >= 2;
        },
        ms);
    if (!ok)
        *why = u"server: %1 / backend: %2 / error: %3"_s.arg(server.join(u','), mine.join(u','),
                                                             backend.latest()->backend.errorText);
    return ok;
}

bool deletePod(client::Transport &t, const QString &name)
{
    auto r = t.request("DELETE", "/api/v1/namespaces/default/pods/" + name.toStdString(), {}, {}, {},
                       "application/json");
    return r && r->status == 200;
}

// A Transport in front of the real one that cuts the next line of a pod watch in half and ends
// the stream there, as a connection dropped mid-chunk does.
class CuttingTransport : public client::Transport
{
public:
    explicit CuttingTransport(std::shared_ptr<client::Transport> inner) : m_inner(std::move(inner)) {}

    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        return m_inner->request(method, path, query, body, contentType, accept, options);
    }

    kube::Result<void> watch(const std::string &path, const client::Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel,
                             const client::RequestOptions &options = {}) override
    {
        const bool pods = path.find("/pods") != std::string::npos;
        bool cut = false;
        auto r = m_inner->watch(
            path, query,
            [&](std::string_view line) {
                if (pods && cutNextPodLine.exchange(false)) {
                    cut = true;
                    ++cuts;
                    (void)onLine(line.substr(0, line.size() / 2));
                    return false;
                }
                return onLine(line);
            },
            cancel, options);
        if (cut)
            return kube::ApiStatus{0, "InternalError", "the watch stream ended in the middle of a line"};
        return r;
    }

    void interrupt(const std::atomic<bool> &cancel) override { m_inner->interrupt(cancel); }
    std::string server() const override { return m_inner->server(); }

    std::atomic<bool> cutNextPodLine{false};
    std::atomic<int> cuts{0};

private:
    std::shared_ptr<client::Transport> m_inner;
};

} // namespace

class TstLiveFaults : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aFrozenServerIsDisconnectedThenConverges();
    void aRestartOnTheSamePortWithNewWritesLeavesNoPhantom();
    void lowerResourceVersionsAfterARestartMeanARelist();
    void aWatchCutMidLineResumesWithoutLoss();
    void headlessCommandsTimeOutOnAFrozenServer();

private:
    QTemporaryDir m_dir;
};

void TstLiveFaults::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QDir(m_dir.path()).mkdir(u"home"_s);
    if (!QFileInfo(qEnvironmentVariable("DAEMONSCOPE_BINARY")).isExecutable())
        QSKIP("DAEMONSCOPE_BINARY does not name the daemonscope executable");
}

void TstLiveFaults::aFrozenServerIsDisconnectedThenConverges()
{
    testsupport::ServeProcess server(m_dir, scenarioPath(), {u"--tls"_s});
    QVERIFY2(server.waitReady(), qPrintable(server.diagnostics()));
    auto config = restConfigOf(server.kubeconfig());
    QVERIFY2(config, config ? "" : config.error().message.c_str());
    QVERIFY(!config->token.empty());
    client::HttpTransport direct(*config);

    models::LiveBackendOptions o;
    o.kubeconfig = server.kubeconfig();
    o.publishIntervalMs = 50;
    o.initialBackoffMs = 100;
    o.maxBackoffMs = 1000;
    models::LiveBackend backend(o);
    QString why;
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));

    // serve sends a bookmark every second. Once the watches have seen a few (until then they
    // assume kube-apiserver's minute), a silent stream is noticed within a few seconds.
    QTest::qWait(4000);
    QVERIFY(backend.latest()->backend.connected);
    QVERIFY(server.freeze());
    QElapsedTimer frozen;
    frozen.start();
    QVERIFY2(waitFor([&] { return !backend.latest()->backend.connected; }, 15000),
             "still connected 15 s after the server froze");
    const qint64 noticed = frozen.elapsed();
    qInfo("disconnected %lld ms after the server froze: %s", static_cast<long long>(noticed),
          qPrintable(backend.latest()->backend.errorText));
    QVERIFY(!backend.latest()->backend.errorText.isEmpty());
    QVERIFY(!backend.latest()->backend.errorText.contains(QString::fromStdString(config->token)));
    // ... and stays disconnected for the rest of the 30 s, without a false "connected".
    while (frozen.elapsed() < 30000) {
        QVERIFY2(!backend.latest()->backend.connected,
                 qPrintable(u"connected again at %1 ms while frozen"_s.arg(frozen.elapsed())));
        QTest::qWait(250);
    }
    QVERIFY(server.resume());

    // A write after the resume is seen; the replaced pod is gone, its successor there.
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    bool ok = false;
    const QStringList before = serverPods(direct, &ok);
    QVERIFY(ok && !before.isEmpty());
    QVERIFY(deletePod(direct, before.first()));
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    QVERIFY2(waitFor([&] { return !backendPods(*backend.latest()).contains(before.first()); }, 30000),
             qPrintable(backendPods(*backend.latest()).join(u',')));
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
}

void TstLiveFaults::aRestartOnTheSamePortWithNewWritesLeavesNoPhantom()
{
    auto first = std::make_unique<testsupport::ServeProcess>(m_dir, scenarioPath(), QStringList{});
    QVERIFY2(first->waitReady(), qPrintable(first->diagnostics()));
    const int port = first->port();
    const QString kubeconfig = first->kubeconfig();
    auto config = restConfigOf(kubeconfig);
    QVERIFY(config);
    client::HttpTransport direct(*config);

    models::LiveBackendOptions o;
    o.kubeconfig = kubeconfig;
    o.publishIntervalMs = 50;
    // Reconnects wait 3 s: long enough for the writes below to happen before the backend is back.
    o.initialBackoffMs = 3000;
    o.maxBackoffMs = 3000;
    models::LiveBackend backend(o);
    QString why;
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    const QStringList firstLife = backendPods(*backend.latest());

    QVERIFY(first->killHard());
    first.reset();
    testsupport::ServeProcess second(m_dir, scenarioPath(), {u"--listen"_s, u"127.0.0.1:%1"_s.arg(port)});
    QVERIFY2(second.waitReady(), qPrintable(second.diagnostics()));
    QCOMPARE(second.port(), port);
    // The same scenario and seed give the same pod names; deleting two of them makes the old
    // names phantoms and their successors new.
    bool ok = false;
    const QStringList secondLife = serverPods(direct, &ok);
    QVERIFY(ok);
    QCOMPARE(secondLife, firstLife);
    QVERIFY(deletePod(direct, secondLife.at(0)));
    QVERIFY(deletePod(direct, secondLife.at(1)));

    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    QVERIFY2(waitFor(
                 [&] {
                     const QStringList now = backendPods(*backend.latest());
                     return !now.contains(secondLife.at(0)) && !now.contains(secondLife.at(1));
                 },
                 30000),
             qPrintable(backendPods(*backend.latest()).join(u',')));
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
}

void TstLiveFaults::lowerResourceVersionsAfterARestartMeanARelist()
{
    server::ServerOptions so;
    so.bookmarkInterval = std::chrono::milliseconds(200);
    so.resourceVersionFloor = 5000000000ULL; // the first life counts from five billion ...
    auto srv = std::make_unique<server::ApiServer>(testCluster(), so);
    QVERIFY(srv->start());
    client::RestConfig config;
    config.server = srv->url();
    config.caPem = srv->caCertificatePem();
    config.contextName = "test";
    // Every write moves the first life's resourceVersion above the floor.
    srv->withCluster([](sim::Cluster &c) { QVERIFY(c.pause("default", "solo").ok()); });

    models::LiveBackendOptions o;
    o.restConfig = config;
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 1500;
    o.maxBackoffMs = 1500;
    models::LiveBackend backend(o);
    client::HttpTransport direct(config);
    QString why;
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    const QStringList firstLife = backendPods(*backend.latest());

    // ... the second from the scenario's own low numbers, with writes before the backend is back.
    so.port = srv->port();
    so.resourceVersionFloor = 0;
    srv.reset();
    srv = std::make_unique<server::ApiServer>(testCluster(), so);
    srv->withCluster([&](sim::Cluster &c) {
        QVERIFY(c.remove(api::Kind::Pod, "default", firstLife.at(0).toStdString(), 0).ok());
    });
    QVERIFY(srv->start());
    config.caPem = srv->caCertificatePem();
    client::HttpTransport second(config);
    QVERIFY2(converges(backend, second, &why), qPrintable(why));
    QVERIFY2(waitFor([&] { return !backendPods(*backend.latest()).contains(firstLife.at(0)); }, 30000),
             qPrintable(backendPods(*backend.latest()).join(u',')));
    QVERIFY2(converges(backend, second, &why), qPrintable(why));
}

void TstLiveFaults::aWatchCutMidLineResumesWithoutLoss()
{
    server::ServerOptions so;
    so.bookmarkInterval = std::chrono::milliseconds(200);
    auto srv = std::make_unique<server::ApiServer>(testCluster(), so);
    QVERIFY(srv->start());
    client::RestConfig config;
    config.server = srv->url();
    config.caPem = srv->caCertificatePem();
    config.contextName = "test";
    auto cutter = std::make_shared<std::shared_ptr<CuttingTransport>>();

    models::LiveBackendOptions o;
    o.restConfig = config;
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 50;
    o.maxBackoffMs = 400;
    o.transportFactory = [cutter](const client::RestConfig &c) {
        *cutter = std::make_shared<CuttingTransport>(std::make_shared<client::HttpTransport>(c));
        return *cutter;
    };
    models::LiveBackend backend(o);
    client::HttpTransport direct(config);
    QString why;
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
    QVERIFY(*cutter);

    // The deletion's events (or the next bookmark) arrive on a stream that breaks mid-line.
    (*cutter)->cutNextPodLine = true;
    bool ok = false;
    const QStringList before = serverPods(direct, &ok);
    QVERIFY(ok);
    QVERIFY(deletePod(direct, before.first()));
    QVERIFY(waitFor([&] { return (*cutter)->cuts.load() == 1; }, 10000));
    QVERIFY2(waitFor([&] { return !backendPods(*backend.latest()).contains(before.first()); }, 30000),
             qPrintable(backendPods(*backend.latest()).join(u',')));
    QVERIFY2(converges(backend, direct, &why), qPrintable(why));
}

void TstLiveFaults::headlessCommandsTimeOutOnAFrozenServer()
{
    testsupport::ServeProcess server(m_dir, scenarioPath(), {u"--tls"_s});
    QVERIFY2(server.waitReady(), qPrintable(server.diagnostics()));
    auto config = restConfigOf(server.kubeconfig());
    QVERIFY(config);

    auto history = [&](QProcess &p) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
        env.remove(u"KUBECONFIG"_s);
        p.setProcessEnvironment(env);
        p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"),
                {u"history"_s, u"daemonset/web"_s, u"--kubeconfig"_s, server.kubeconfig(),
                 u"--request-timeout"_s, u"2s"_s});
        return p.waitForFinished(60000);
    };

    QVERIFY(server.freeze());
    QProcess frozen;
    QElapsedTimer took;
    took.start();
    QVERIFY2(history(frozen), "history did not end against a frozen server");
    const qint64 ms = took.elapsed();
    const QString err = QString::fromUtf8(frozen.readAllStandardError());
    qInfo("history against a frozen server: exit %d after %lld ms: %s", frozen.exitCode(),
          static_cast<long long>(ms), qPrintable(err.trimmed()));
    QCOMPARE(frozen.exitStatus(), QProcess::NormalExit);
    QCOMPARE(frozen.exitCode(), 1);
    QVERIFY2(ms < 20000, qPrintable(QString::number(ms)));
    QVERIFY2(err.contains(u"timed out"_s) || err.contains(u"Timeout"_s) || err.contains(u"not responding"_s),
             qPrintable(err));
    QVERIFY(!err.contains(QString::fromStdString(config->token)));
    QVERIFY(frozen.readAllStandardOutput().isEmpty());

    QVERIFY(server.resume());
    QProcess resumed;
    QVERIFY(history(resumed));
    const QString out = QString::fromUtf8(resumed.readAllStandardOutput());
    QCOMPARE(resumed.exitCode(), 0);
    QVERIFY2(out.startsWith(u"daemonset.apps/web"_s), qPrintable(out));
}

QTEST_MAIN(TstLiveFaults)
#include "tst_livefaults.moc"
