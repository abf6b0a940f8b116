// The node-upgrade controller on a live cluster:
// - the same controller code runs the same rollout on the simulated store (EmbeddedUpgradeCluster)
//   and over HTTP against the embedded API server (LiveUpgradeCluster: reflectors and the kube
//   client), and makes the same node writes and evictions in the same order;
// - Lease leader election: one holder, renewals, takeover only after the lease duration, a
//   release hands over at once, a race for an expired lease has one winner;
// - the in-cluster configuration reads the service account's files;
// - end to end: `daemonscope serve --no-node-upgrade-controller`, two `daemonscope controller`
//   processes, a rollout created with the real kubectl and held by a PodDisruptionBudget (named
//   in `kubectl get nur -o wide`); the leader is killed mid-drain, the other takes over, and the
//   upgrade completes with every node cordoned once and no pod evicted twice.

#include "models/client/httptransport.h"
#include "models/client/incluster.h"
#include "models/controllers/nodeupgradecontroller.h"
#include "models/kube/yamldocument.h"
#include "models/liveupgrade/leaderelection.h"
#include "models/liveupgrade/liveupgradecluster.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/server/crd.h"
#include "models/sim/nodeupgraderuntime.h"
#include "tests/support/drainscenario.h"
#include "tests/support/serveprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace Qt::StringLiterals;

namespace {

const kube::Json kRollout = {
    {"apiVersion", "upgrade.daemonscope.io/v1alpha1"},
    {"kind", "NodeUpgradeRollout"},
    {"metadata", {{"name", "agents"}}},
    {"spec", {{"targetVersion", "v2.0.0"}, {"maxUnavailable", 1}, {"soakDuration", "10s"}}}};

// The same rollout restarting each node through a Job (restart mechanism Job).
kube::Json jobRollout()
{
    kube::Json r = kRollout;
    r["spec"]["restart"] = {
        {"mechanism", "Job"},
        {"jobNamespace", "kube-system"},
        {"jobTemplate",
         {{"spec",
           {{"backoffLimit", 1},
            {"template",
             {{"spec",
               {{"containers",
                 kube::Json::array({{{"name", "upgrade"}, {"image", "agent-upgrade:v2.0.0"}}})}}}}}}}}}};
    return r;
}

// Forwards to another UpgradeCluster and records the writes that change the cluster, in order,
// in words both backends share: "cordon node-0", "evict api from node-0" (pods by their app label,
// as pod names differ between two clusters), "uncordon node-0", "taint node-0 upgrade/pending".
class Recording final : public controllers::UpgradeCluster
{
public:
    explicit Recording(controllers::UpgradeCluster &inner) : m_inner(inner) {}
    std::vector<std::string> log;

    kube::Timestamp now() const override { return m_inner.now(); }
    bool runsTimers() const override { return m_inner.runsTimers(); }
    void schedule(kube::Timestamp t, std::function<void()> fn) override
    {
        m_inner.schedule(t, std::move(fn));
    }
    const kube::Node *node(const std::string &n) const override { return m_inner.node(n); }
    std::vector<const kube::Node *> nodes() const override { return m_inner.nodes(); }
    const kube::Pod *pod(const std::string &ns, const std::string &n) const override
    {
        return m_inner.pod(ns, n);
    }
    std::vector<const kube::Pod *> pods() const override { return m_inner.pods(); }
    std::vector<const kube::Pod *> podsOnNode(const std::string &n) const override
    {
        return m_inner.podsOnNode(n);
    }
    const kube::ReplicaSet *replicaSet(const std::string &ns, const std::string &n) const override
    {
        return m_inner.replicaSet(ns, n);
    }
    std::vector<const kube::ReplicaSet *> replicaSets() const override { return m_inner.replicaSets(); }
    std::vector<const kube::PodDisruptionBudget *> podDisruptionBudgets() const override
    {
        return m_inner.podDisruptionBudgets();
    }
    std::optional<kube::Job> job(const std::string &ns, const std::string &n) const override
    {
        return m_inner.job(ns, n);
    }
    const api::NodeUpgradeRollout *rollout(const std::string &n) const override { return m_inner.rollout(n); }
    std::vector<const api::NodeUpgradeRollout *> rollouts() const override { return m_inner.rollouts(); }
    int watch(api::Kind kind, std::function<void(const api::WatchEvent &)> cb) override
    {
        return m_inner.watch(kind, std::move(cb));
    }
    void unwatch(int id) override { m_inner.unwatch(id); }
    kube::Result<void> patchNode(const std::string &n, const kube::Json &patch) override
    {
        return m_inner.patchNode(n, patch);
    }
    kube::Result<void> cordon(const std::string &n) override
    {
        return note("cordon " + n, m_inner.cordon(n));
    }
    kube::Result<void> uncordon(const std::string &n) override
    {
        return note("uncordon " + n, m_inner.uncordon(n));
    }
    kube::Result<void> taint(const std::string &n, const kube::Taint &t) override
    {
        return note("taint " + n + " " + t.key, m_inner.taint(n, t));
    }
    kube::Result<void> untaint(const std::string &n, const std::string &key) override
    {
        return note("untaint " + n + " " + key, m_inner.untaint(n, key));
    }
    kube::Result<void> evict(const std::string &ns, const std::string &n, const api::EvictOptions &o) override
    {
        const std::string what = describe(ns, n);
        auto r = m_inner.evict(ns, n, o);
        return o.dryRun ? r : note("evict " + what, r);
    }
    kube::Result<void> setNodeConditions(const std::string &n, const std::vector<kube::NodeCondition> &set,
                                         const std::vector<std::string> &remove) override
    {
        std::string line = "conditions " + n;
        for (const auto &c : set)
            line += " " + c.type + "=" + c.status;
        for (const auto &type : remove)
            line += " -" + type;
        return note(line, m_inner.setNodeConditions(n, set, remove));
    }
    kube::Result<void> deletePod(const std::string &ns, const std::string &n) override
    {
        const std::string what = describe(ns, n);
        return note("delete " + what, m_inner.deletePod(ns, n));
    }
    kube::Result<void> createJob(const kube::Json &job) override
    {
        return note("createJob " + job["metadata"].value("namespace", std::string()) + "/" +
                        job["metadata"].value("name", std::string()),
                    m_inner.createJob(job));
    }
    kube::Result<void> editRollout(const std::string &n,
                                   const std::function<void(api::NodeUpgradeRollout &)> &fn) override
    {
        return m_inner.editRollout(n, fn);
    }
    kube::Result<void> updateRolloutStatus(const std::string &n,
                                           const api::NodeUpgradeRolloutStatus &s) override
    {
        return m_inner.updateRolloutStatus(n, s);
    }
    void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                     api::Kind kind, const std::string &ns, const std::string &n) override
    {
        m_inner.recordEvent(type, reason, message, kind, ns, n);
    }

private:
    std::string describe(const std::string &ns, const std::string &n) const
    {
        const kube::Pod *p = m_inner.pod(ns, n);
        if (!p)
            return ns + "/" + n + " (unknown)";
        const auto app = p->metadata.labels.find("app");
        return (app == p->metadata.labels.end() ? n : app->second) + " from " + p->node();
    }
    kube::Result<void> note(const std::string &line, kube::Result<void> r)
    {
        log.push_back(r ? line : line + " refused (" + std::to_string(r.error().code) + ")");
        return r;
    }

    controllers::UpgradeCluster &m_inner;
};

// The answer of an election attempt, `otherwise` on an API error.
bool held(const kube::Result<bool> &r, bool otherwise)
{
    return r ? *r : otherwise;
}

bool completed(const api::NodeUpgradeRollout *r)
{
    return r && r->status.phase == api::RolloutPhase::Completed;
}

QString joined(const std::vector<std::string> &lines)
{
    QStringList out;
    for (const auto &l : lines)
        out << QString::fromStdString(l);
    return out.join(u'\n');
}

std::shared_ptr<client::KubeClient> clientFor(const server::ApiServer &s)
{
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.contextName = "test";
    return std::make_shared<client::KubeClient>(std::make_shared<client::HttpTransport>(config));
}

// Forwards to the HTTP transport and notes every request as the authorizer sees it:
// "verb group resource[/subresource] namespace name" ("list  pods  ", "create  pods/eviction default web-1").
class RequestLog final : public client::Transport
{
public:
    explicit RequestLog(std::shared_ptr<client::Transport> inner) : m_inner(std::move(inner)) {}
    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options) override
    {
        note(method, path, query);
        return m_inner->request(method, path, query, body, contentType, accept, options);
    }
    kube::Result<void> watch(const std::string &path, const client::Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel, const client::RequestOptions &options) override
    {
        note("WATCH", path, query);
        return m_inner->watch(path, query, onLine, cancel, options);
    }
    void interrupt(const std::atomic<bool> &cancel) override { m_inner->interrupt(cancel); }
    std::string server() const override { return m_inner->server(); }
    std::set<std::string> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    void note(const std::string &method, const std::string &path, const client::Query &query)
    {
        // /api/v1/... or /apis/GROUP/VERSION/...; then [namespaces/NS/]RESOURCE[/NAME[/SUB]]
        std::vector<std::string> parts;
        for (std::size_t i = 1; i <= path.size();) {
            const std::size_t slash = path.find('/', i);
            parts.push_back(path.substr(i, slash == std::string::npos ? std::string::npos : slash - i));
            if (slash == std::string::npos)
                break;
            i = slash + 1;
        }
        std::size_t at = !parts.empty() && parts[0] == "api" ? 2 : 3;
        const std::string group = parts.size() > 1 && parts[0] == "apis" ? parts[1] : "";
        std::string ns;
        if (parts.size() > at + 2 && parts[at] == "namespaces") {
            ns = parts[at + 1];
            at += 2;
        }
        std::string resource = parts.size() > at ? parts[at] : "";
        const std::string name = parts.size() > at + 1 ? parts[at + 1] : "";
        if (parts.size() > at + 2)
            resource += "/" + parts[at + 2];
        bool watching = method == "WATCH";
        for (const auto &[k, v] : query)
            if (k == "watch" && (v == "true" || v == "1"))
                watching = true;
        const std::string verb = method == "POST"     ? "create"
                                 : method == "PUT"    ? "update"
                                 : method == "PATCH"  ? "patch"
                                 : method == "DELETE" ? "delete"
                                 : watching           ? "watch"
                                 : name.empty()       ? "list"
                                                      : "get";
        std::lock_guard lock(m_mutex);
        m_requests.insert(verb + " " + group + " " + resource + " " + ns + " " + name);
    }

    std::shared_ptr<client::Transport> m_inner;
    mutable std::mutex m_mutex;
    std::set<std::string> m_requests;
};

// The requests installer/kubernetes/20-rbac.yaml's ClusterRole and Role do not grant: a request is
// granted when a rule names its group, resource and verb (and its name, when the rule lists
// names; a Role only in its own namespace).
QString rbacRefusals(const std::set<std::string> &requests)
{
    auto docs = kube::loadYamlFile(DAEMONSCOPE_SOURCE_DIR "/installer/kubernetes/20-rbac.yaml");
    if (!docs)
        return QString::fromStdString(docs.error().message);
    QStringList refused;
    for (const auto &line : requests) {
        const QStringList f = QString::fromStdString(line).split(u' ');
        const std::string verb = f[0].toStdString(), group = f[1].toStdString(),
                          resource = f[2].toStdString(), ns = f[3].toStdString(), name = f[4].toStdString();
        bool allowed = false;
        for (const auto &d : *docs) {
            const auto &o = d.value;
            const std::string kind = o.value("kind", "");
            if (kind != "ClusterRole" && kind != "Role")
                continue;
            if (kind == "Role" && o["metadata"].value("namespace", "") != ns)
                continue;
            for (const auto &rule : o["rules"]) {
                const auto has = [&](const char *key, const std::string &v) {
                    if (!rule.contains(key))
                        return false;
                    for (const auto &x : rule[key])
                        if (x == v || x == "*")
                            return true;
                    return false;
                };
                if (!has("apiGroups", group) || !has("resources", resource) || !has("verbs", verb))
                    continue;
                if (rule.contains("resourceNames") && (name.empty() || !has("resourceNames", name)))
                    continue;
                allowed = true;
            }
        }
        if (!allowed)
            refused << QString::fromStdString(line);
    }
    return refused.join(u'\n');
}

QStringList kubectls()
{
    const QString k = QStandardPaths::findExecutable(u"kubectl"_s);
    return k.isEmpty() ? QStringList() : QStringList{k};
}

} // namespace

class TstLiveUpgrade : public QObject
{
    Q_OBJECT

private slots:
    void sameWritesOnBothBackends_data();
    void sameWritesOnBothBackends();
    void leaseElection();
    void inClusterConfiguration();
    void manifests();
    void twoControllersOneLeader();
    void leaderStepsDownWhenItCannotRenew();
    void stopsWhileTheServerIsUnreachable();
};

void TstLiveUpgrade::sameWritesOnBothBackends_data()
{
    QTest::addColumn<bool>("job");
    QTest::newRow("restart by annotation") << false;
    QTest::newRow("restart by Job") << true;
}

void TstLiveUpgrade::sameWritesOnBothBackends()
{
    QFETCH(bool, job);
    const kube::Json rolloutManifest = job ? jobRollout() : kRollout;
    // The simulated store: the runtime keeps the rollout store and the simulated agents; its own
    // controller is stopped and ours runs over the recording adapter.
    auto sim = drainCluster();
    QVERIFY(sim);
    auto &rt = sim->nodeUpgrade();
    rt.stopController();
    sim::EmbeddedUpgradeCluster embedded(*sim, rt.rollouts());
    Recording simWrites(embedded);
    std::vector<std::string> simEvents;
    {
        api::NodeUpgradeEvents events;
        std::map<std::string, controllers::NodeUpgradeMetrics> metrics;
        controllers::NodeUpgradeController controller(simWrites, events, metrics);
        QVERIFY(rt.rollouts().apply(rolloutManifest, sim->now(), {}).ok());
        QVERIFY2(sim->runUntil([&] { return completed(rt.rollouts().get("agents")); }, 3600 * 1000),
                 rt.statusText("agents").c_str());
        for (const auto &e : events.entries())
            simEvents.push_back(e.reason + " " + e.object);
    }

    // A live cluster: the API server without its own upgrade controller, ten times real time; the
    // controller reads the server's virtual clock (the rollout's timings are virtual time there).
    server::ServerOptions options;
    options.speed = 10;
    options.bookmarkInterval = std::chrono::milliseconds(200);
    options.nodeUpgradeController = false;
    server::ApiServer server(drainCluster(), options);
    QVERIFY(server.start().ok());
    client::RestConfig config;
    config.server = server.url();
    auto requests = std::make_shared<RequestLog>(std::make_shared<client::HttpTransport>(config));
    auto client = std::make_shared<client::KubeClient>(requests);
    client::ReflectorOptions ro;
    ro.initialBackoff = std::chrono::milliseconds(50);
    ro.maxBackoff = std::chrono::milliseconds(400);
    models::LiveUpgradeCluster live(client, ro);
    live.setClock([&server] {
        kube::Timestamp t = 0;
        server.withCluster([&t](sim::Cluster &c) { t = c.now(); });
        return t;
    });
    Recording liveWrites(live);
    std::vector<std::string> liveEvents;
    std::atomic<bool> stop{false};
    live.start();
    std::thread loop([&] {
        if (!live.waitSynced(std::chrono::seconds(30)))
            return;
        api::NodeUpgradeEvents events;
        std::map<std::string, controllers::NodeUpgradeMetrics> metrics;
        controllers::NodeUpgradeController controller(liveWrites, events, metrics);
        live.run([&] { return stop.load(); });
        for (const auto &e : events.entries())
            liveEvents.push_back(e.reason + " " + e.object);
    });
    auto created = clientFor(server)->transport().request(
        "POST", "/apis/upgrade.daemonscope.io/v1alpha1/nodeupgraderollouts", {}, rolloutManifest.dump(),
        "application/json", "application/json");
    QVERIFY2(created.ok(), created ? "" : created.error().message.c_str());
    bool done = false;
    QDeadlineTimer deadline(240000);
    while (!done && !deadline.hasExpired()) {
        QTest::qWait(100);
        server.withCluster(
            [&](sim::Cluster &c) { done = completed(c.nodeUpgrade().rollouts().get("agents")); });
    }
    stop = true;
    live.wake();
    loop.join();
    live.stop();
    std::string status;
    server.withCluster([&](sim::Cluster &c) { status = c.nodeUpgrade().statusText("agents"); });
    QVERIFY2(done, status.c_str());

    // Three nodes, one at a time: cordon, evict the ReplicaSet's pod, restart, uncordon.
    QVERIFY2(!simWrites.log.empty(), "the simulated run made no write");
    QCOMPARE(std::count_if(simWrites.log.begin(), simWrites.log.end(),
                           [](const std::string &l) { return l.rfind("cordon ", 0) == 0; }),
             3);
    qInfo("writes:\n%s", qPrintable(joined(simWrites.log)));
    QCOMPARE(joined(liveWrites.log), joined(simWrites.log));
    // Each drain shows in the node's conditions: DrainInProgress while pods move off, Drained
    // from the restart until the uncordon, then neither.
    const std::string node0 = joined(simWrites.log).toStdString();
    for (const char *step : {"cordon node-0\nconditions node-0 DrainInProgress=True\nevict api from node-0\n",
                             "conditions node-0 Drained=True -DrainInProgress\nuncordon node-0\n",
                             "uncordon node-0\nconditions node-0 -Drained\n"})
        QVERIFY2(node0.find(step) != std::string::npos, step);
    // Restart by Job: one Job per node, created by the controller, run to completion by the
    // cluster; by annotation: none.
    QCOMPARE(std::count_if(
                 liveWrites.log.begin(), liveWrites.log.end(),
                 [](const std::string &l) { return l.rfind("createJob kube-system/agents-node-", 0) == 0; }),
             job ? 3 : 0);
    if (job) {
        QVERIFY(node0.find("createJob kube-system/agents-node-0-1\n") != std::string::npos);
        server.withCluster([&](sim::Cluster &c) {
            for (const char *name : {"agents-node-0-1", "agents-node-1-1", "agents-node-2-1"}) {
                auto j = c.get(api::Kind::Job, "kube-system", name);
                QVERIFY2(j.ok(), name);
                QCOMPARE((*j)["status"].value("succeeded", 0), 1);
                QCOMPARE((*j)["spec"]["template"]["spec"].value("nodeName", std::string()),
                         std::string(name).substr(7, 6));
            }
        });
    }
    // The same events about the same objects, in the same order of first emission.
    QCOMPARE(joined(liveEvents), joined(simEvents));
    // installer/kubernetes/20-rbac.yaml grants every request the controller made.
    const auto made = requests->requests();
    QVERIFY2(
        std::any_of(made.begin(), made.end(),
                    [](const std::string &r) { return r.rfind("create  pods/eviction default ", 0) == 0; }),
        "no eviction was requested");
    const QString refusedRequests = rbacRefusals(made);
    QVERIFY2(refusedRequests.isEmpty(), qPrintable(u"not granted by rbac.yaml:\n"_s + refusedRequests));
    // Every node ends on the target version, schedulable, untainted.
    server.withCluster([&](sim::Cluster &c) {
        for (const auto *n : c.nodes()) {
            QCOMPARE(n->kubeletVersion, std::string("v2.0.0"));
            QVERIFY(!n->unschedulable);
        }
    });
}

void TstLiveUpgrade::leaseElection()
{
    server::ServerOptions options;
    server::ApiServer server(drainCluster(), options);
    QVERIFY(server.start().ok());
    client::RestConfig config;
    config.server = server.url();
    auto requests = std::make_shared<RequestLog>(std::make_shared<client::HttpTransport>(config));
    auto client = std::make_shared<client::KubeClient>(requests);
    models::LeaderElectionOptions o;
    o.namespace_ = "daemonscope-system";
    o.name = "daemonscope-node-upgrade-controller"; // as the Deployment runs it
    o.leaseDuration = std::chrono::milliseconds(1500);
    o.renewDeadline = std::chrono::milliseconds(1000);
    o.retryPeriod = std::chrono::milliseconds(200);
    o.identity = "a";
    models::LeaderElector a(client, o);
    o.identity = "b";
    models::LeaderElector b(client, o);

    auto r = a.tryAcquireOrRenew();
    QVERIFY2(r.ok() && *r, r ? "not acquired" : r.error().message.c_str());
    r = b.tryAcquireOrRenew();
    QVERIFY(r.ok() && !*r); // a live holder
    QCOMPARE(b.holder(), std::string("a"));
    // Renewals keep it: b waits the lease duration from when it last saw the record change.
    for (int i = 0; i < 8; ++i) {
        QTest::qWait(250);
        QVERIFY(held(a.tryAcquireOrRenew(), false));
        QVERIFY(!held(b.tryAcquireOrRenew(), true));
    }
    auto lease = client->transport().request("GET",
                                             "/apis/coordination.k8s.io/v1/namespaces/daemonscope-system/"
                                             "leases/daemonscope-node-upgrade-controller",
                                             {}, {}, {}, "application/json");
    QVERIFY(lease.ok());
    auto spec = kube::Json::parse(lease->body)["spec"];
    QCOMPARE(spec["holderIdentity"].get<std::string>(), std::string("a"));
    QCOMPARE(spec["leaseTransitions"].get<int>(), 0);
    QCOMPARE(spec["leaseDurationSeconds"].get<int>(), 2);
    const std::string acquired = spec["acquireTime"].get<std::string>();
    QVERIFY(spec["renewTime"].get<std::string>() > acquired);

    // a stops renewing: b takes over only once the lease duration has passed.
    QVERIFY(!held(b.tryAcquireOrRenew(), true));
    QDeadlineTimer takeover(10000);
    bool took = false;
    QElapsedTimer since;
    since.start();
    while (!took && !takeover.hasExpired()) {
        QTest::qWait(100);
        took = held(b.tryAcquireOrRenew(), false);
    }
    QVERIFY(took);
    QVERIFY2(since.elapsed() >= 1500, qPrintable(QString::number(since.elapsed())));
    QVERIFY(!held(a.tryAcquireOrRenew(), true));
    QCOMPARE(a.holder(), std::string("b"));
    lease = client->transport().request("GET",
                                        "/apis/coordination.k8s.io/v1/namespaces/daemonscope-system/leases/"
                                        "daemonscope-node-upgrade-controller",
                                        {}, {}, {}, "application/json");
    spec = kube::Json::parse(lease->body)["spec"];
    QCOMPARE(spec["holderIdentity"].get<std::string>(), std::string("b"));
    QCOMPARE(spec["leaseTransitions"].get<int>(), 1);
    QVERIFY(spec["acquireTime"].get<std::string>() > acquired);

    // A clean stop releases: a takes it at once.
    QVERIFY(b.release().ok());
    QVERIFY(!b.leading());
    r = a.tryAcquireOrRenew();
    QVERIFY(r.ok() && *r);
    QCOMPARE(a.holder(), std::string("a"));

    // Two candidates racing for a free lease: one wins, the other gets the conflict.
    QVERIFY(a.release().ok());
    o.identity = "c";
    models::LeaderElector c(client, o);
    o.identity = "d";
    models::LeaderElector d(client, o);
    std::atomic<int> wins{0};
    std::thread tc([&] { wins += held(c.tryAcquireOrRenew(), false) ? 1 : 0; });
    std::thread td([&] { wins += held(d.tryAcquireOrRenew(), false) ? 1 : 0; });
    tc.join();
    td.join();
    QCOMPARE(wins.load(), 1);
    // The Role in installer/kubernetes/20-rbac.yaml grants the elector's requests.
    const QString refused = rbacRefusals(requests->requests());
    QVERIFY2(refused.isEmpty(), qPrintable(u"not granted by rbac.yaml:\n"_s + refused));
}

void TstLiveUpgrade::manifests()
{
    // The CRD is the one the binary prints (one schema table, one list of printer columns).
    QFile crd(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/installer/kubernetes/10-crd.yaml"));
    QVERIFY(crd.open(QIODevice::ReadOnly));
    QVERIFY2(crd.readAll().toStdString() == server::nodeUpgradeRolloutCrdYaml(),
             "installer/kubernetes/10-crd.yaml is out of date: daemonscope controller --print-crd > "
             "installer/kubernetes/10-crd.yaml");
    const kube::Json def = server::nodeUpgradeRolloutCrd();
    const kube::Json &schema = def["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    QCOMPARE(schema["properties"]["spec"]["required"], kube::Json::array({"targetVersion"}));
    QCOMPARE(schema["properties"]["spec"]["properties"]["maxUnavailable"]["x-kubernetes-int-or-string"],
             true);
    QCOMPARE(schema["properties"]["spec"]["properties"]["timeouts"]["properties"]["drainTimeout"]["type"],
             "string");
    QCOMPARE(def["spec"]["versions"][0]["subresources"], kube::Json({{"status", kube::Json::object()}}));
    // Enumerations are listed in CamelCase, as the API writes them; unmanagedPodPolicy is a
    // string or an object, so it has no type.
    const kube::Json &props = schema["properties"]["spec"]["properties"];
    QCOMPARE(props["onDrainTimeout"]["enum"], kube::Json::array({"Hold", "Skip", "Force"}));
    QCOMPARE(props["singleReplicaPolicy"]["enum"], kube::Json::array({"Allow", "Block"}));
    QCOMPARE(props["restart"]["properties"]["mechanism"]["enum"],
             kube::Json::array({"Annotation", "External", "Job"}));
    QVERIFY(!props["unmanagedPodPolicy"].contains("type"));
    QCOMPARE(props["unmanagedPodPolicy"]["x-kubernetes-preserve-unknown-fields"], true);

    // Every manifest parses into objects with apiVersion, kind and a name.
    for (const char *file : {"00-namespace.yaml", "20-rbac.yaml", "30-deployment.yaml", "10-crd.yaml",
                             "examples/nodeupgrade-agents.yaml", "examples/nodeupgrade-job.yaml"}) {
        auto docs = kube::loadYamlFile(std::string(DAEMONSCOPE_SOURCE_DIR "/installer/kubernetes/") + file);
        QVERIFY2(docs.ok(), docs ? file : docs.error().message.c_str());
        for (const auto &d : *docs)
            QVERIFY2(d.value.contains("apiVersion") && d.value.contains("kind") &&
                         d.value["metadata"].contains("name"),
                     file);
    }
    // The example rollouts are ones the controller accepts, and every field they set is in the
    // CRD's schema (a real API server would prune the others).
    for (const char *file : {"nodeupgrade-agents.yaml", "nodeupgrade-job.yaml"}) {
        auto example =
            kube::loadYamlFile(std::string(DAEMONSCOPE_SOURCE_DIR "/installer/kubernetes/examples/") + file);
        QVERIFY(example.ok());
        const kube::Json &rollout = (*example)[0].value;
        auto parsed = api::NodeUpgradeRollout::fromJson(rollout);
        QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
        std::function<void(const kube::Json &, const kube::Json &, const std::string &)> inSchema =
            [&](const kube::Json &value, const kube::Json &s, const std::string &path) {
                if (!value.is_object() || !s.contains("properties"))
                    return;
                for (const auto &[k, v] : value.items()) {
                    QVERIFY2(s["properties"].contains(k),
                             (path + "." + k + " is not in the CRD's schema").c_str());
                    inSchema(v, s["properties"][k], path + "." + k);
                }
            };
        inSchema(rollout["spec"], schema["properties"]["spec"], "spec");
    }

    // The Deployment runs two replicas of the controller in-cluster, in the namespace of the
    // Role that holds its Lease, under the ServiceAccount the bindings name.
    auto deployment = kube::loadYamlFile(DAEMONSCOPE_SOURCE_DIR "/installer/kubernetes/30-deployment.yaml");
    QVERIFY(deployment.ok());
    const kube::Json &dep = (*deployment)[0].value;
    QCOMPARE(dep["spec"]["replicas"], 2);
    QCOMPARE(dep["spec"]["template"]["spec"]["serviceAccountName"], "daemonscope-controller");
    QCOMPARE(dep["spec"]["template"]["spec"]["containers"][0]["command"],
             kube::Json::array(
                 {"daemonscope", "controller", "--in-cluster", "--lease-namespace", "daemonscope-system"}));
}

void TstLiveUpgrade::inClusterConfiguration()
{
    QTemporaryDir dir;
    const auto write = [&](const QString &name, const QByteArray &data) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    };
    write(u"token"_s, "secret-token\n");
    write(u"ca.crt"_s, "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n");
    write(u"namespace"_s, "upgrades\n");
    std::map<std::string, std::string> env = {{"KUBERNETES_SERVICE_HOST", "10.96.0.1"},
                                              {"KUBERNETES_SERVICE_PORT", "443"}};
    client::InClusterSource source;
    source.secretsDir = dir.path().toStdString();
    source.env = [&env](const char *name) -> std::optional<std::string> {
        auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto rc = client::inClusterConfig(source);
    QVERIFY2(rc.ok(), rc ? "" : rc.error().message.c_str());
    QCOMPARE(rc->server, std::string("https://10.96.0.1:443"));
    QCOMPARE(rc->token, std::string("secret-token"));
    QCOMPARE(rc->namespace_, std::string("upgrades"));
    QVERIFY(rc->caPem.find("BEGIN CERTIFICATE") != std::string::npos);
    env["KUBERNETES_SERVICE_HOST"] = "fd00::1";
    QCOMPARE(client::inClusterConfig(source)->server, std::string("https://[fd00::1]:443"));
    // Missing pieces are named; the token never appears in a message.
    env.erase("KUBERNETES_SERVICE_PORT");
    auto missing = client::inClusterConfig(source);
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("KUBERNETES_SERVICE_PORT") != std::string::npos);
    env["KUBERNETES_SERVICE_PORT"] = "443";
    QVERIFY(QFile::remove(dir.filePath(u"ca.crt"_s)));
    auto noCa = client::inClusterConfig(source);
    QVERIFY(!noCa.ok());
    QVERIFY(noCa.error().message.find("ca.crt") != std::string::npos);
    QVERIFY(noCa.error().message.find("secret-token") == std::string::npos);
}

namespace {

struct Kubectl
{
    int code = -1;
    QString out;
    QString err;
};

Kubectl kubectl(const QTemporaryDir &dir, const QString &kubeconfig, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, dir.filePath(u"home"_s));
    env.remove(u"KUBECONFIG"_s);
    p.setProcessEnvironment(env);
    p.start(kubectls().value(0), QStringList{u"--kubeconfig"_s, kubeconfig} + args);
    Kubectl r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = u"kubectl did not finish"_s;
        return r;
    }
    r.code = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// A `daemonscope controller` replica; its output is collected as it comes.
class ControllerProcess
{
public:
    ControllerProcess(const QString &kubeconfig, const QString &identity)
    {
        m_process.setProgram(qEnvironmentVariable("DAEMONSCOPE_BINARY"));
        m_process.setArguments({u"controller"_s, u"--kubeconfig"_s, kubeconfig, u"--identity"_s, identity,
                                u"--lease-duration"_s, u"3s"_s, u"--renew-deadline"_s, u"2s"_s,
                                u"--retry-period"_s, u"500ms"_s});
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start();
    }
    ~ControllerProcess()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }
    QString output()
    {
        m_out += QString::fromUtf8(m_process.readAll());
        return m_out;
    }
    void kill()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
        output();
    }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QString m_out;
};

} // namespace

void TstLiveUpgrade::twoControllersOneLeader()
{
    if (kubectls().isEmpty())
        QSKIP("KUBECTL NOT FOUND: no kubectl on PATH, so the end-to-end run with kubectl did not run");
    QTemporaryDir dir;
    QDir(dir.path()).mkdir(u"home"_s);
    testsupport::ServeProcess serve(dir, QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml"),
                                    {u"--no-node-upgrade-controller"_s});
    QVERIFY2(serve.waitReady(), qPrintable(serve.diagnostics()));
    const QString kc = serve.kubeconfig();
    // The budget allows no disruption: the first drain holds until it is relaxed.
    auto strict = kubectl(
        dir, kc,
        {u"patch"_s, u"pdb"_s, u"api"_s, u"--type=merge"_s, u"-p"_s, u"{\"spec\":{\"minAvailable\":3}}"_s});
    QVERIFY2(strict.code == 0, qPrintable(strict.err));

    ControllerProcess a(kc, u"replica-a"_s);
    QDeadlineTimer leading(30000);
    while (!a.output().contains(u"caches synced"_s) && !leading.hasExpired())
        QTest::qWait(100);
    QVERIFY2(a.output().contains(u"leading: holds Lease default/daemonscope-node-upgrade-controller"_s),
             qPrintable(a.output()));
    ControllerProcess b(kc, u"replica-b"_s);
    QDeadlineTimer waiting(30000);
    while (!b.output().contains(u"is held by replica-a"_s) && !waiting.hasExpired())
        QTest::qWait(100);
    QVERIFY2(b.output().contains(
                 u"waiting: Lease default/daemonscope-node-upgrade-controller is held by replica-a"_s),
             qPrintable(b.output()));

    const QString manifest = dir.filePath(u"rollout.yaml"_s);
    {
        QFile f(manifest);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "apiVersion: upgrade.daemonscope.io/v1alpha1\nkind: NodeUpgradeRollout\n"
            "metadata: {name: agents}\nspec: {targetVersion: v2.0.0, maxUnavailable: 1, soakDuration: 5s}\n");
    }
    auto created = kubectl(dir, kc, {u"create"_s, u"-f"_s, manifest});
    QVERIFY2(created.code == 0, qPrintable(created.err));

    // The budget holds the drain of the first node; kubectl names it in the headline.
    QString row;
    QDeadlineTimer blocked(60000);
    while (!blocked.hasExpired()) {
        row = kubectl(dir, kc, {u"get"_s, u"nur"_s, u"agents"_s, u"-o"_s, u"wide"_s}).out;
        if (row.contains(u"default/api"_s) && row.contains(u"PodDisruptionBudget"_s, Qt::CaseInsensitive))
            break;
        QTest::qWait(300);
    }
    QVERIFY2(row.contains(u"default/api"_s), qPrintable(row + a.output()));
    const QString phase = kubectl(dir, kc,
                                  {u"get"_s, u"node"_s, u"node-0"_s, u"-o"_s,
                                   u"jsonpath={.metadata.annotations.upgrade/phase}"_s})
                              .out;
    QCOMPARE(phase, u"DrainingManaged"_s);

    // The leader dies mid-drain; the other replica takes over after the lease duration.
    a.kill();
    QDeadlineTimer takeover(30000);
    while (!b.output().contains(u"caches synced"_s) && !takeover.hasExpired())
        QTest::qWait(100);
    QVERIFY2(b.output().contains(u"leading: holds Lease"_s), qPrintable(b.output()));
    auto relaxed = kubectl(
        dir, kc,
        {u"patch"_s, u"pdb"_s, u"api"_s, u"--type=merge"_s, u"-p"_s, u"{\"spec\":{\"minAvailable\":2}}"_s});
    QVERIFY2(relaxed.code == 0, qPrintable(relaxed.err));

    QString status;
    QDeadlineTimer finish(360000);
    while (!finish.hasExpired()) {
        status =
            kubectl(dir, kc, {u"get"_s, u"nur"_s, u"agents"_s, u"-o"_s, u"jsonpath={.status.phase}"_s}).out;
        if (status == u"Completed"_s)
            break;
        QTest::qWait(1000);
    }
    QVERIFY2(status == u"Completed"_s, qPrintable(status + u"\n"_s + a.output() + b.output()));

    // Both replicas' event lines together: every node cordoned once, no pod evicted twice. The
    // leader prints a pass's events after the pass, so the last lines may follow the status that
    // kubectl already reads as Completed.
    const auto upgradedLines = [&] { return (a.output() + b.output()).count(u"NodeUpgraded node/"_s); };
    QTRY_VERIFY_WITH_TIMEOUT(upgradedLines() >= 3, 10000);
    const QString all = a.output() + b.output();
    for (const QString &node : {u"node-0"_s, u"node-1"_s, u"node-2"_s}) {
        QCOMPARE(all.count(u"NodeCordoned node/"_s + node + u":"_s), 1);
        QCOMPARE(all.count(u"NodeUpgraded node/"_s + node + u":"_s), 1);
    }
    QSet<QString> evicted;
    const QRegularExpression deleted(u"PodDeleted node/\\S+: Deleted pod (\\S+)"_s);
    for (auto it = deleted.globalMatch(all); it.hasNext();) {
        const QString pod = it.next().captured(1);
        QVERIFY2(!evicted.contains(pod), qPrintable(pod + u" evicted twice\n"_s + all));
        evicted.insert(pod);
    }
    QVERIFY(!evicted.isEmpty());
    // The API server's events agree: one NodeCordoned per node, never repeated.
    const auto events =
        kubectl(dir, kc,
                {u"get"_s, u"events"_s, u"--field-selector"_s, u"reason=NodeCordoned"_s, u"-o"_s,
                 u"jsonpath={range .items[*]}{.involvedObject.name} {.count}{\"\\n\"}{end}"_s});
    QCOMPARE(events.out, u"node-0 1\nnode-1 1\nnode-2 1\n"_s);
    const auto nodes = kubectl(dir, kc, {u"get"_s, u"nodes"_s, u"--no-headers"_s});
    QCOMPARE(nodes.out.count(u"v2.0.0"_s), 3);
    QVERIFY2(!nodes.out.contains(u"SchedulingDisabled"_s), qPrintable(nodes.out));

    // SIGTERM: the leader releases the Lease.
    b.process().terminate();
    QVERIFY(b.process().waitForFinished(15000));
    QCOMPARE(b.process().exitCode(), 0);
    QVERIFY2(b.output().contains(u"Lease released"_s), qPrintable(b.output()));
    const auto holder = kubectl(dir, kc,
                                {u"get"_s, u"lease"_s, u"daemonscope-node-upgrade-controller"_s, u"-o"_s,
                                 u"jsonpath={.spec.holderIdentity}"_s});
    QCOMPARE(holder.out, QString());
}

void TstLiveUpgrade::leaderStepsDownWhenItCannotRenew()
{
    // The API server stops answering: within the renew deadline (plus one retry period) the
    // leader stops acting and exits with status 3, even though its renewal request and maybe a
    // write are still waiting for an answer.
    QTemporaryDir dir;
    testsupport::ServeProcess serve(dir, QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml"),
                                    {u"--no-node-upgrade-controller"_s});
    QVERIFY2(serve.waitReady(), qPrintable(serve.diagnostics()));
    ControllerProcess leader(serve.kubeconfig(), u"replica-a"_s);
    QDeadlineTimer leading(30000);
    while (!leader.output().contains(u"caches synced"_s) && !leading.hasExpired())
        QTest::qWait(100);
    QVERIFY2(leader.output().contains(u"leading: holds Lease"_s), qPrintable(leader.output()));
    QVERIFY(serve.freeze());
    QElapsedTimer frozen;
    frozen.start();
    QVERIFY(leader.process().waitForFinished(20000));
    const qint64 took = frozen.elapsed();
    serve.resume();
    QCOMPARE(leader.process().exitCode(), 3);
    QVERIFY2(
        leader.output().contains(u"stopped leading: Lease default/daemonscope-node-upgrade-controller not "
                                 u"renewed"_s),
        qPrintable(leader.output()));
    // --renew-deadline 2s, --retry-period 500ms: out after about 2.5 s; without the bound on the
    // renewal the request would wait for the client's 60 s timeout. (A generous limit: the
    // machine may be loaded.)
    QVERIFY2(took < 10000, qPrintable(QString::number(took)));
}

void TstLiveUpgrade::stopsWhileTheServerIsUnreachable()
{
    // Nothing answers at the kubeconfig's address: the controller keeps retrying its first lists,
    // and SIGTERM still ends it at once (it must not wait for caches that never fill).
    QTemporaryDir dir;
    const QString kc = dir.filePath(u"kubeconfig"_s);
    {
        QFile f(kc);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Config\ncurrent-context: nowhere\n"
                "clusters: [{name: nowhere, cluster: {server: \"http://127.0.0.1:1\"}}]\n"
                "users: [{name: nobody, user: {}}]\n"
                "contexts: [{name: nowhere, context: {cluster: nowhere, user: nobody}}]\n");
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"),
            {u"controller"_s, u"--kubeconfig"_s, kc, u"--no-leader-election"_s});
    QVERIFY(p.waitForStarted(10000));
    QTest::qWait(1500);
    QCOMPARE(p.state(), QProcess::Running);
    p.terminate();
    QVERIFY2(p.waitForFinished(10000), "the controller did not stop on SIGTERM");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(QString::fromUtf8(p.readAll()).contains(u"stopped (SIGTERM)"_s), "no stop line");
}

QTEST_GUILESS_MAIN(TstLiveUpgrade)
#include "tst_liveupgrade.moc"
