// The console's node-upgrade page on a live cluster, through LiveBackend against the embedded
// API server (libcurl, in process):
// - with no controller holding the Lease, the console takes it and drives the rollout itself:
//   start, a PodDisruptionBudget holding the drain (named in the headline and the node's
//   blockers), pause, resume, a held node that waits until released, completion, and the Lease
//   released when the console closes;
// - with `serve`'s built-in controller holding the Lease, the console starts no second
//   controller: it creates the rollout and writes the admin's requests (pause, resume), the
//   server's controller acts on them, and the page follows from the status and the node
//   annotations (phases, counts, the headline in the console's language, a chart sampled here);
// - the window: the page's driver line says the console drives, and closing the window with
//   nodes in flight asks first (declining keeps the window and the upgrade);
// - with no rollout at all, an upgrade another tool drives (cordon, drain condition, a restart
//   on the new version) shows as the observed upgrade, node by node.

#include "models/backend/livebackend.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/server/enginehost.h"
#include "models/sim/nodeupgraderuntime.h"
#include "tests/live/probetransport.h"
#include "ui/apptranslator.h"
#include "ui/mainwindow.h"
#include "ui/upgradepage.h"

#include "models/client/httptransport.h"

#include "tests/support/backendwait.h"
#include "tests/support/drainscenario.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<server::ApiServer> startServer(bool builtInController)
{
    server::ServerOptions options;
    options.speed = 10;
    options.bookmarkInterval = std::chrono::milliseconds(200);
    options.nodeUpgradeController = builtInController;
    auto s = std::make_unique<server::ApiServer>(drainCluster(), options);
    if (auto r = s->start(); !r) {
        qWarning("server: %s", r.error().message.c_str());
        return nullptr;
    }
    return s;
}

// The console's controller reads the server's virtual clock (ten times real time), as a
// controller reads the same clock as the kubelets on a real cluster.
models::LiveBackendOptions optionsFor(server::ApiServer &s)
{
    models::LiveBackendOptions o;
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.contextName = "test";
    o.restConfig = config;
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 50;
    o.maxBackoffMs = 400;
    o.user = u"operator"_s;
    o.upgrade.identity = "console-test";
    o.upgrade.leaseDuration = std::chrono::milliseconds(3000);
    o.upgrade.renewDeadline = std::chrono::milliseconds(2000);
    o.upgrade.retryPeriod = std::chrono::milliseconds(300);
    o.upgrade.buildInterval = std::chrono::milliseconds(50);
    o.upgrade.clock = [&s] {
        kube::Timestamp t = 0;
        s.withCluster([&t](sim::Cluster &c) { t = c.now(); });
        return t;
    };
    return o;
}

const kube::Json kRollout = {
    {"apiVersion", "upgrade.daemonscope.io/v1alpha1"},
    {"kind", "NodeUpgradeRollout"},
    {"metadata", {{"name", "agents"}}},
    {"spec", {{"targetVersion", "v2.0.0"}, {"maxUnavailable", 1}, {"soakDuration", "2s"}}}};

const models::UpgradeRolloutInfo *agents(const models::ClusterSnapshot &s)
{
    return s.upgrade(u"agents"_s);
}

// The server's view of one object (JSON kinds and nodes), empty when absent.
kube::Json serverObject(server::ApiServer &s, api::Kind kind, const std::string &ns, const std::string &name)
{
    kube::Json out;
    s.withCluster([&](sim::Cluster &c) {
        if (auto j = c.get(kind, ns, name))
            out = std::move(*j);
    });
    return out;
}

std::string leaseHolder(server::ApiServer &s)
{
    const kube::Json lease = serverObject(s, api::Kind::Lease, "default", api::kNodeUpgradeLeaseName);
    return lease.is_object() && lease.contains("spec") ? lease["spec"].value("holderIdentity", std::string())
                                                       : std::string();
}

void setMinAvailable(server::ApiServer &s, int n)
{
    s.withCluster([&](sim::Cluster &c) {
        auto r = c.patch(api::Kind::PodDisruptionBudget, "default", "api", api::PatchType::Merge,
                         kube::Json{{"spec", {{"minAvailable", n}}}});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    });
}

QString describe(const models::ClusterSnapshot &s)
{
    QString out = u"driver %1 %2 %3"_s.arg(int(s.upgradeDriver.mode))
                      .arg(s.upgradeDriver.holder, s.upgradeDriver.error);
    for (const auto &u : *s.upgrades) {
        if (!u.observed) {
            out += u"\nrollout %1 %2: %3"_s.arg(u.name, models::upgradeRolloutPhaseName(u.phase), u.headline);
            continue;
        }
        out += u"\nobserved %1: %2"_s.arg(models::upgradeRolloutPhaseName(u.phase), u.headline);
        for (const auto &row : *u.nodes)
            out += u"\n  %1 %2 %3"_s.arg(row.name, models::upgradeNodePhaseName(row.phase), row.reason);
    }
    for (const auto &n : *s.nodes)
        out += u"\n  node %1 %2 cordoned=%3 draining=%4"_s.arg(n.name, n.agentVersion)
                   .arg(n.unschedulable)
                   .arg(n.draining);
    if (const auto *info = agents(s)) {
        out += u"\nphase %1: %2"_s.arg(models::upgradeRolloutPhaseName(info->phase), info->headline);
        for (const auto &row : *info->nodes)
            out +=
                u"\n  %1 %2 held=%3 agent=%4 %5 %6"_s.arg(row.name, models::upgradeNodePhaseName(row.phase))
                    .arg(row.held)
                    .arg(row.agentVersion, row.reason, row.blockers.join(u"; "_s));
    }
    return out;
}

// A user who may not list pods cluster-wide: GET /api/v1/pods answers 403, as RBAC does.
class NoClusterPods final : public ProbeTransport
{
public:
    using ProbeTransport::ProbeTransport;
    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        if (method == "GET" && path == "/api/v1/pods")
            return kube::ApiStatus(
                403, "Forbidden",
                "pods is forbidden: User \"dev\" cannot list resource \"pods\" in API group "
                "\"\" at the cluster scope");
        return ProbeTransport::request(method, path, query, body, contentType, accept, options);
    }
};

} // namespace

class TstLiveUpgradeConsole : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<models::ActionResult>(); }
    void consoleDrivesWhenNoControllerHoldsTheLease();
    void consoleObservesAnotherController();
    void windowAsksBeforeClosingWhileDriving();
    void saysWhyItCannotReadTheCluster();
    void consoleWatchesAnUpgradeAnotherToolDrives();
};

void TstLiveUpgradeConsole::consoleDrivesWhenNoControllerHoldsTheLease()
{
    auto server = startServer(false);
    QVERIFY(server);
    auto options = optionsFor(*server);
    std::shared_ptr<ProbeTransport> probe;
    options.transportFactory = [&probe](const client::RestConfig &c) {
        probe = std::make_shared<ProbeTransport>(std::make_shared<client::HttpTransport>(c));
        return probe;
    };
    auto backend = std::make_unique<models::LiveBackend>(options);
    QSignalSpy results(backend.get(), &models::ClusterBackend::actionFinished);

    // Nobody holds the Lease and nothing is running: the console says who would drive. Nothing
    // is upgrading and nobody asked for the pre-flight report, so the console has not read every
    // node's pods for it (the DaemonSets' pods are read by selector, nothing lists all pods).
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         return s.backend.connected &&
                                s.upgradeDriver.mode == models::UpgradeDriverInfo::Mode::Nobody &&
                                s.upgradeDriver.consoleMayDrive && !s.upgradeDriver.reading;
                     }),
             qPrintable(describe(*backend->latest())));
    QTest::qWait(500);
    QVERIFY(!backend->latest()->upgradeInventoryRead);
    QVERIFY(backend->latest()->upgradeInventory->empty());
    QCOMPARE(probe->requests("GET /api/v1/pods"), 0);
    QCOMPARE(probe->requests("GET /api/v1/nodes"), 1); // the console's own node list only

    // The node-upgrade page asks for it (shown, or its start form opened): now it is read.
    backend->requestUpgradeInventory();
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         return s.upgradeInventoryRead && !s.upgradeInventory->empty();
                     }),
             qPrintable(describe(*backend->latest())));
    QCOMPARE(probe->requests("GET /api/v1/pods"), 1);
    QCOMPARE(backend->latest()->upgradeInventory->size(), std::size_t(3));
    QCOMPARE(backend->latest()->upgradeInventory->front().managedPods, 1); // one api pod per node
    QVERIFY(leaseHolder(*server).empty());

    // A budget that allows no eviction, then the rollout from the console.
    setMinAvailable(*server, 3);
    backend->startUpgrade(QString::fromStdString(kRollout.dump()));
    auto started = waitResult(results, models::ActionKind::StartUpgrade);
    QVERIFY2(started.ok, qPrintable(started.message));
    QCOMPARE(started.target, u"agents"_s);
    QCOMPARE(started.message, u"started"_s);
    QVERIFY(!serverObject(*server, api::Kind::NodeUpgradeRollout, "", "agents").is_null());

    // The console takes the Lease and drives; the budget holds the first drain and is named.
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         const auto *info = agents(s);
                         if (s.upgradeDriver.mode != models::UpgradeDriverInfo::Mode::Console || !info)
                             return false;
                         bool named = false;
                         for (const auto &row : *info->nodes)
                             named = named || row.blockers.join(u" "_s).contains(u"default/api"_s);
                         return named && info->headline.contains(u"default/api"_s);
                     }),
             qPrintable(describe(*backend->latest())));
    QCOMPARE(backend->latest()->upgradeDriver.holder, u"console-test"_s);
    QCOMPARE(backend->latest()->upgradeDriver.lease, u"default/daemonscope-node-upgrade-controller"_s);
    QCOMPARE(leaseHolder(*server), std::string("console-test"));

    // Pause and resume: the spec on the server, the phase on the page.
    backend->upgradeControl(u"agents"_s, u"pause"_s, QString(), u"maintenance window"_s);
    auto paused = waitResult(results, models::ActionKind::UpgradeControl);
    QVERIFY2(paused.ok, qPrintable(paused.message));
    QCOMPARE(paused.message, u"pause done"_s);
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         return agents(s) && agents(s)->phase == models::UpgradeRolloutPhase::Paused;
                     }),
             qPrintable(describe(*backend->latest())));
    {
        const kube::Json nur = serverObject(*server, api::Kind::NodeUpgradeRollout, "", "agents");
        QCOMPARE(nur["spec"].value("paused", false), true);
        QCOMPARE(nur["spec"].value("pauseReason", std::string()), std::string("maintenance window"));
        QCOMPARE(nur["metadata"]["annotations"].value("upgrade/paused-by", std::string()),
                 std::string("operator"));
    }
    QVERIFY(!agents(*backend->latest())->preview->summary.isEmpty()); // the console's controller previews

    // Hold a node that is still queued; resume.
    QString heldNode;
    for (const auto &row : *agents(*backend->latest())->nodes)
        if (row.phase == models::UpgradeNodePhase::Pending)
            heldNode = row.name;
    QVERIFY2(!heldNode.isEmpty(), qPrintable(describe(*backend->latest())));
    backend->upgradeControl(u"agents"_s, u"hold"_s, heldNode, QString());
    auto held = waitResult(results, models::ActionKind::UpgradeControl);
    QVERIFY2(held.ok, qPrintable(held.message));
    QCOMPARE(
        serverObject(*server, api::Kind::Node, "", heldNode.toStdString())["metadata"]["annotations"].value(
            "upgrade/hold", std::string()),
        std::string("true"));
    backend->upgradeControl(u"agents"_s, u"resume"_s, QString(), QString());
    QVERIFY(waitResult(results, models::ActionKind::UpgradeControl).ok);

    // The budget relaxes: every node but the held one is upgraded, the held one waits.
    setMinAvailable(*server, 2);
    QVERIFY2(
        waitFor(
            *backend,
            [&](const models::ClusterSnapshot &s) {
                const auto *info = agents(s);
                if (!info || info->nodes->size() != 3)
                    return false;
                for (const auto &row : *info->nodes) {
                    const bool done = row.phase == models::UpgradeNodePhase::Upgraded;
                    if (row.name == heldNode ? (done || !row.held) : !done)
                        return false;
                }
                return true;
            },
            120000),
        qPrintable(
            describe(*backend->latest()) + u"\nserver node-0: "_s +
            QString::fromStdString(serverObject(*server, api::Kind::Node, "", "node-0")["metadata"].dump()) +
            QString::fromStdString(
                serverObject(*server, api::Kind::Node, "", "node-0")["status"]["nodeInfo"].dump())));
    QVERIFY(agents(*backend->latest())->phase != models::UpgradeRolloutPhase::Completed);

    backend->upgradeControl(u"agents"_s, u"release"_s, heldNode, QString());
    QVERIFY(waitResult(results, models::ActionKind::UpgradeControl).ok);
    QVERIFY2(waitFor(
                 *backend,
                 [](const models::ClusterSnapshot &s) {
                     return agents(s) && agents(s)->phase == models::UpgradeRolloutPhase::Completed;
                 },
                 120000),
             qPrintable(describe(*backend->latest())));
    for (const char *node : {"node-0", "node-1", "node-2"}) {
        const kube::Json n = serverObject(*server, api::Kind::Node, "", node);
        QCOMPARE(n["status"]["nodeInfo"].value("kubeletVersion", std::string()), std::string("v2.0.0"));
        QVERIFY(!n["spec"].value("unschedulable", false));
    }
    // The page's chart has the controller's samples; its events name the actions.
    const auto *info = agents(*backend->latest());
    QVERIFY(!info->samples->empty());
    QStringList reasons;
    for (const auto &e : *info->events)
        reasons << e.reason;
    QVERIFY2(reasons.contains(u"NodeHeld"_s) && reasons.contains(u"NodeReleased"_s),
             qPrintable(reasons.join(u' ')));

    // Closing the console releases the Lease, so a controller elsewhere takes over at once.
    backend.reset();
    QCOMPARE(leaseHolder(*server), std::string());
}

void TstLiveUpgradeConsole::consoleObservesAnotherController()
{
    auto server = startServer(true);
    QVERIFY(server);
    // serve's built-in controller holds the Lease from the start.
    QTRY_COMPARE_WITH_TIMEOUT(leaseHolder(*server), std::string(server::EngineHost::kControllerLeaseHolder),
                              10000);
    auto backend = std::make_unique<models::LiveBackend>(optionsFor(*server));
    QSignalSpy results(backend.get(), &models::ClusterBackend::actionFinished);
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         return s.backend.connected &&
                                s.upgradeDriver.mode == models::UpgradeDriverInfo::Mode::Controller &&
                                s.upgradeDriver.holder == u"daemonscope-serve"_s;
                     }),
             qPrintable(describe(*backend->latest())));

    backend->startUpgrade(QString::fromStdString(kRollout.dump()));
    auto started = waitResult(results, models::ActionKind::StartUpgrade);
    QVERIFY2(started.ok, qPrintable(started.message));

    // The server's controller drives; the console is a candidate now but never the holder.
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         const auto *info = agents(s);
                         return info && s.upgradeDriver.mode == models::UpgradeDriverInfo::Mode::Controller &&
                                info->counts.inFlight + info->counts.upgraded > 0;
                     }),
             qPrintable(describe(*backend->latest())));
    // The server's controller phrased the headline; this console reads it in its own language.
    QCOMPARE(gui::AppTranslator::install(u"de"_s), u"de"_s);
    backend->upgradeControl(u"agents"_s, u"pause"_s, QString(), QString());
    auto paused = waitResult(results, models::ActionKind::UpgradeControl);
    QVERIFY2(paused.ok, qPrintable(paused.message));
    QVERIFY2(waitFor(*backend,
                     [](const models::ClusterSnapshot &s) {
                         return agents(s) && agents(s)->phase == models::UpgradeRolloutPhase::Paused &&
                                agents(s)->headline.startsWith(u"Pausiert von "_s);
                     }),
             qPrintable(describe(*backend->latest())));
    gui::AppTranslator::install(u"en"_s);
    QCOMPARE(leaseHolder(*server), std::string("daemonscope-serve"));
    QVERIFY(agents(*backend->latest())->preview->summary.isEmpty()); // no controller here to preview

    backend->upgradeControl(u"agents"_s, u"resume"_s, QString(), QString());
    QVERIFY(waitResult(results, models::ActionKind::UpgradeControl).ok);
    QVERIFY2(waitFor(
                 *backend,
                 [](const models::ClusterSnapshot &s) {
                     return agents(s) && agents(s)->phase == models::UpgradeRolloutPhase::Completed &&
                            agents(s)->counts.upgraded == 3;
                 },
                 120000),
             qPrintable(describe(*backend->latest())));
    const auto *info = agents(*backend->latest());
    QVERIFY2(!info->samples->empty(), "the chart is sampled while observing");
    // The events tab shows what the server's controller reported about the rollout and its nodes.
    QStringList seen;
    for (const auto &e : *info->events)
        seen << e.reason + u' ' + e.object;
    QVERIFY2(seen.contains(u"NodeCordoned node/node-0"_s) &&
                 seen.contains(u"RolloutPaused nodeupgraderollout/agents"_s),
             qPrintable(seen.join(u", "_s)));
    for (const auto &row : *info->nodes)
        QCOMPARE(row.phase, models::UpgradeNodePhase::Upgraded);
    QCOMPARE(leaseHolder(*server), std::string("daemonscope-serve"));
    backend.reset();
    QCOMPARE(leaseHolder(*server), std::string("daemonscope-serve")); // never the console's to release
}

void TstLiveUpgradeConsole::windowAsksBeforeClosingWhileDriving()
{
    auto server = startServer(false);
    QVERIFY(server);
    setMinAvailable(*server, 3); // the first drain is held: a node stays in flight
    auto *backend = new models::LiveBackend(optionsFor(*server));
    auto window = std::make_unique<gui::MainWindow>(backend);
    window->show();
    QTRY_VERIFY_WITH_TIMEOUT(window->snapshot() && window->snapshot()->backend.connected, 30000);
    QVERIFY(!window->snapshot()->upgradeInventoryRead); // nothing has asked for every node's pods
    window->showUpgrade(QString());                     // the node-upgrade page asks for them once shown
    QTRY_VERIFY_WITH_TIMEOUT(window->snapshot()->upgradeInventoryRead &&
                                 !window->snapshot()->upgradeInventory->empty() &&
                                 !window->snapshot()->upgradeDriver.reading,
                             30000);
    gui::UpgradePage *page = window->upgradePage();
    QCOMPARE(window->quitQuestion(), QString()); // nothing driven yet
    QString why;
    const QString name = page->startDefaultUpgrade(u"{\"targetVersion\":\"v2.0.0\"}"_s, &why);
    QVERIFY2(!name.isEmpty(), qPrintable(why));
    window->showUpgrade(name);
    QTRY_VERIFY_WITH_TIMEOUT(window->snapshot()->upgradeDriver.mode ==
                                     models::UpgradeDriverInfo::Mode::Console &&
                                 window->snapshot()->upgrade(name) &&
                                 !window->snapshot()->upgrade(name)->inFlightNodes().isEmpty(),
                             30000);
    QTRY_VERIFY(page->driverLabel()->isVisible());
    QVERIFY2(page->driverLabel()->text().startsWith(u"Driven by this console"_s),
             qPrintable(page->driverLabel()->text()));
    QVERIFY(page->driverLabel()->text().contains(u"default/daemonscope-node-upgrade-controller"_s));

    QStringList asked;
    bool answer = false;
    window->setQuitConfirmHandler([&](const QString &text) {
        asked << text;
        return answer;
    });
    QVERIFY(!window->close()); // declined: the window and the upgrade stay
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(name) && asked.first().contains(u"node-0"_s), qPrintable(asked.first()));
    QVERIFY(window->isVisible());
    QCOMPARE(leaseHolder(*server), std::string("console-test"));
    answer = true;
    QVERIFY(window->close());
    QCOMPARE(asked.size(), 2);
    window.reset(); // the backend with it: the Lease is released
    QCOMPARE(leaseHolder(*server), std::string());
}

// The node upgrade needs the cluster's pods; a user who may not list them gets the server's
// reason on the page, and a start is answered with it at once instead of waiting.
void TstLiveUpgradeConsole::saysWhyItCannotReadTheCluster()
{
    auto server = startServer(false);
    QVERIFY(server);
    auto options = optionsFor(*server);
    options.transportFactory = [](const client::RestConfig &c) {
        return std::make_shared<NoClusterPods>(std::make_shared<client::HttpTransport>(c));
    };
    models::LiveBackend backend(options);
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    // Until something needs every pod, nothing lists them: the console connects as usual.
    QVERIFY2(waitFor(backend,
                     [](const models::ClusterSnapshot &s) {
                         return s.backend.connected &&
                                s.upgradeDriver.mode == models::UpgradeDriverInfo::Mode::Nobody &&
                                !s.upgradeDriver.reading;
                     }),
             qPrintable(describe(*backend.latest())));
    // Starting an upgrade reads them first; the refusal answers the command and nothing is
    // created that this console could not drive.
    backend.startUpgrade(QString::fromStdString(kRollout.dump()));
    const auto started = waitResult(results, models::ActionKind::StartUpgrade);
    QVERIFY(!started.ok);
    QVERIFY2(started.message.contains(u"cannot list resource \"pods\""_s), qPrintable(started.message));
    QVERIFY(serverObject(*server, api::Kind::NodeUpgradeRollout, "", "agents").is_null()); // nothing created
    QVERIFY2(waitFor(backend,
                     [](const models::ClusterSnapshot &s) {
                         return s.upgradeDriver.mode == models::UpgradeDriverInfo::Mode::Unavailable;
                     }),
             qPrintable(describe(*backend.latest())));
    const auto &driver = backend.latest()->upgradeDriver;
    QVERIFY2(driver.error.contains(u"cannot list resource \"pods\""_s), qPrintable(driver.error));
    QVERIFY(gui::UpgradePage::driverText(driver).contains(driver.error));
}

// No NodeUpgradeRollout: another tool upgrades node-0 (cordon, drain conditions, a restart on
// the new version, uncordon), and the console's page follows it as an observed upgrade.
void TstLiveUpgradeConsole::consoleWatchesAnUpgradeAnotherToolDrives()
{
    auto server = startServer(false);
    QVERIFY(server);
    auto backend = std::make_unique<models::LiveBackend>(optionsFor(*server));
    const QString observedName = QString::fromLatin1(models::kObservedUpgradeName);
    auto observedNode = [&](const models::ClusterSnapshot &s,
                            const char *node) -> const models::UpgradeNodeRow * {
        const auto *info = s.upgrade(observedName);
        return info ? info->node(QString::fromLatin1(node)) : nullptr;
    };
    QVERIFY2(
        waitFor(*backend,
                [](const models::ClusterSnapshot &s) { return s.backend.connected && s.nodes->size() == 3; }),
        qPrintable(describe(*backend->latest())));
    QVERIFY(!backend->latest()->upgrade(observedName)); // nothing moves yet

    // The tool cordons node-0 and announces its drain.
    server->withCluster([](sim::Cluster &c) {
        QVERIFY(c.patch(api::Kind::Node, "", "node-0", api::PatchType::Merge,
                        kube::Json{{"spec", {{"unschedulable", true}}}})
                    .ok());
        kube::Node n = *c.node("node-0");
        n.setCondition({"DrainInProgress", "True", "Draining", "drained by the pool upgrader", c.now()});
        QVERIFY(c.updateStatus(n.toJson()).ok());
    });
    QVERIFY2(waitFor(*backend,
                     [&](const models::ClusterSnapshot &s) {
                         const auto *row = observedNode(s, "node-0");
                         return row && row->phase == models::UpgradeNodePhase::DrainingManaged;
                     }),
             qPrintable(describe(*backend->latest())));
    {
        const auto *info = backend->latest()->upgrade(observedName);
        QVERIFY(info->observed);
        QCOMPARE(info->phase, models::UpgradeRolloutPhase::Progressing);
        QCOMPARE(info->node(u"node-1"_s)->phase, models::UpgradeNodePhase::Pending);
        QCOMPARE(info->counts.inFlight, 1);
        // Every node still runs v1.0.0: where the tool is heading is not known yet.
        QVERIFY(info->targetVersion.isEmpty());
        QVERIFY2(info->headline.contains(u"not known yet"_s), qPrintable(info->headline));
    }

    // The drain is over; the node restarts on v2.0.0 (NotReady, then Ready on the new version).
    server->withCluster([](sim::Cluster &c) {
        kube::Node n = *c.node("node-0");
        std::erase_if(n.conditions, [](const kube::NodeCondition &c) { return c.type == "DrainInProgress"; });
        QVERIFY(c.updateStatus(n.toJson()).ok());
        QVERIFY(c.nodeUpgrade().restartNodeStep(kube::Json{{"node", "node-0"}, {"version", "v2.0.0"}}).ok());
    });
    QVERIFY2(waitFor(*backend,
                     [&](const models::ClusterSnapshot &s) {
                         const auto *row = observedNode(s, "node-0");
                         return row && row->phase == models::UpgradeNodePhase::Soaking &&
                                row->agentVersion == u"v2.0.0"_s;
                     }),
             qPrintable(describe(*backend->latest())));
    QCOMPARE(backend->latest()->upgrade(observedName)->targetVersion, u"v2.0.0"_s);

    // Uncordoned: upgraded, and the page's ETA comes from that node's duration.
    server->withCluster([](sim::Cluster &c) {
        QVERIFY(c.patch(api::Kind::Node, "", "node-0", api::PatchType::Merge,
                        kube::Json{{"spec", {{"unschedulable", false}}}})
                    .ok());
    });
    QVERIFY2(waitFor(*backend,
                     [&](const models::ClusterSnapshot &s) {
                         const auto *row = observedNode(s, "node-0");
                         return row && row->phase == models::UpgradeNodePhase::Upgraded;
                     }),
             qPrintable(describe(*backend->latest())));
    const auto *info = backend->latest()->upgrade(observedName);
    QCOMPARE(info->counts.upgraded, 1);
    QCOMPARE(info->counts.pending, 2);
    QVERIFY(info->eta > 0);
    QVERIFY2(info->headline.startsWith(u"Observed: 1/3 nodes on v2.0.0"_s), qPrintable(info->headline));
    QVERIFY(!info->samples->empty());
}

QTEST_MAIN(TstLiveUpgradeConsole)
#include "tst_liveupgradeconsole.moc"
