// A quiet cluster costs nothing: once a LiveBackend has loaded a cluster on which nothing
// changes (every rollout complete, the server's clock frozen, bookmarks every 200 ms), it
// publishes no snapshot and makes no request besides the watches it keeps open, and the
// headline of a selected DaemonSet is not computed again. A change on the server still shows.

#include "models/backend/livebackend.h"
#include "models/itemmodels/rolloutprogressmodel.h"

#include "models/client/httptransport.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include "tests/support/backendwait.h"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include <map>
#include <memory>
#include <mutex>

using namespace Qt::StringLiterals;

namespace {

// Counts every call: one-shot requests by "METHOD path", watches as "WATCH path".
class CountingTransport : public client::Transport
{
public:
    explicit CountingTransport(std::shared_ptr<client::Transport> inner) : m_inner(std::move(inner)) {}

    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        count(method + " " + path);
        return m_inner->request(method, path, query, body, contentType, accept, options);
    }

    kube::Result<void> watch(const std::string &path, const client::Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel,
                             const client::RequestOptions &options = {}) override
    {
        count("WATCH " + path);
        return m_inner->watch(path, query, onLine, cancel, options);
    }

    std::string server() const override { return m_inner->server(); }

    std::map<std::string, int> counts() const
    {
        std::lock_guard lock(m_mutex);
        return m_counts;
    }

private:
    void count(const std::string &key)
    {
        std::lock_guard lock(m_mutex);
        ++m_counts[key];
    }

    std::shared_ptr<client::Transport> m_inner;
    mutable std::mutex m_mutex;
    std::map<std::string, int> m_counts;
};

std::unique_ptr<sim::Cluster> testCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    return c ? std::move(*c) : nullptr;
}

bool loaded(const models::ClusterSnapshot &s)
{
    const auto *web = s.daemonSet(u"default/web"_s);
    const auto *solo = s.daemonSet(u"default/solo"_s);
    return s.backend.connected && s.nodes->size() == 3 && web && solo && web->pods->size() == 3 &&
           web->revisions->size() == 2 && web->badge == models::RolloutBadge::Complete &&
           solo->badge == models::RolloutBadge::Complete &&
           !s.upgradeDriver.reading; // node upgrades read too
}

// What changed between two counts, without the watches.
std::map<std::string, int> requestsBetween(const std::map<std::string, int> &before,
                                           const std::map<std::string, int> &after)
{
    std::map<std::string, int> out;
    for (const auto &[key, n] : after) {
        const auto it = before.find(key);
        const int d = n - (it == before.end() ? 0 : it->second);
        if (d > 0 && key.rfind("WATCH ", 0) != 0)
            out[key] = d;
    }
    return out;
}

} // namespace

class TstLiveIdle : public QObject
{
    Q_OBJECT

private slots:
    void quietClusterPublishesNothingAndOnlyWatches();
};

void TstLiveIdle::quietClusterPublishesNothingAndOnlyWatches()
{
    server::ServerOptions so;
    so.speed = 0; // nothing happens on the cluster
    so.bookmarkInterval = std::chrono::milliseconds(200);
    auto srv = std::make_unique<server::ApiServer>(testCluster(), so);
    auto started = srv->start();
    QVERIFY2(started, started ? "" : started.error().message.c_str());

    models::LiveBackendOptions options;
    client::RestConfig config;
    config.server = srv->url();
    config.contextName = "test";
    options.restConfig = config;
    options.publishIntervalMs = 20;
    auto transport = std::make_shared<std::shared_ptr<CountingTransport>>();
    options.transportFactory = [transport](const client::RestConfig &c) {
        *transport = std::make_shared<CountingTransport>(std::make_shared<client::HttpTransport>(c));
        return *transport;
    };
    models::LiveBackend backend(options);
    models::RolloutProgressModel progress;
    progress.setDaemonSetKey(u"default/web"_s);
    QObject::connect(&backend, &models::ClusterBackend::snapshotReady, &progress,
                     &models::RolloutProgressModel::setSnapshot);
    QVERIFY(waitFor(backend, loaded));
    QCOMPARE(progress.headline().reason, models::RolloutHeadline::Complete);

    // Settled: no snapshot for half a second (the last objects of the first lists).
    QSignalSpy snapshots(&backend, &models::ClusterBackend::snapshotReady);
    for (int i = 0; i < 40 && snapshots.wait(500); ++i)
        snapshots.clear();
    snapshots.clear();
    const auto before = (*transport)->counts();
    const quint64 computed = progress.headlineComputations();

    // At rest, with a dozen bookmarks on every watch: nothing is published, nothing but the
    // watches is asked for, the headline is not computed again and schedules nothing.
    QVERIFY(!snapshots.wait(2500));
    const auto extra = requestsBetween(before, (*transport)->counts());
    QString asked;
    for (const auto &[key, n] : extra)
        asked += QStringLiteral("%1 x %2; ").arg(n).arg(QString::fromStdString(key));
    QVERIFY2(extra.empty(), qPrintable(asked));
    QCOMPARE(progress.headlineComputations(), computed);
    QVERIFY(!progress.headlineTimerActive());

    // A change on the server (another client pauses the rollout) wakes the backend at once.
    srv->withCluster([](sim::Cluster &c) { QVERIFY(c.pause("default", "web")); });
    QVERIFY(waitFor(backend, [](const models::ClusterSnapshot &s) {
        const auto *web = s.daemonSet(u"default/web"_s);
        return web && web->paused;
    }));
    QTRY_COMPARE(progress.headline().reason, models::RolloutHeadline::Paused);
}

QTEST_GUILESS_MAIN(TstLiveIdle)
#include "tst_liveidle.moc"
