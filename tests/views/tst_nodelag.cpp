// Why is this node behind? The rules of models::classifyLag one by one (tables of node, pod,
// DaemonSet and event), then end to end: the tiles of the demo's DaemonSets name the same
// causes on the embedded engine and on a live cluster (the engine behind the API server, read
// by LiveBackend over HTTP), and the Nodes tab counts them per cause, each count a link that
// filters the map to its nodes.

#include "models/backend/livebackend.h"
#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/nodemapfilter.h"
#include "models/itemmodels/nodemapmodel.h"
#include "models/planners/nodelag.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/snapshot/snapshotassembler.h"
#include "ui/nodestab.h"
#include "ui/nodetiles.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QtTest>

#include <map>
#include <memory>

using namespace Qt::StringLiterals;
using Cause = models::NodeTile::LagCause;

Q_DECLARE_METATYPE(models::NodeTile::LagCause)

namespace {

const QString kDemo = QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/resources/scenarios/demo.yaml");
constexpr qint64 kNow = 1'800'000'000'000;

models::DaemonSetInfo rollingDaemonSet()
{
    models::DaemonSetInfo ds;
    ds.key = u"kube-system/agent"_s;
    ds.namespace_ = u"kube-system"_s;
    ds.name = u"agent"_s;
    ds.currentRevisionHash = u"new"_s;
    ds.strategyType = u"RollingUpdate"_s;
    ds.maxUnavailable = u"2"_s;
    ds.counts.unavailable = 2;
    return ds;
}

models::PodInfo pod(const QString &hash, bool ready)
{
    models::PodInfo p;
    p.name = u"agent-x1"_s;
    p.node = u"node-1"_s;
    p.hash = hash;
    p.ready = ready;
    p.phase = u"Running"_s;
    p.created = kNow - 60'000;
    return p;
}

models::EventInfo warning(const QString &reason, const QString &message)
{
    models::EventInfo e;
    e.key = u"kube-system/agent-x1.1"_s;
    e.object = u"pod/kube-system/agent-x1"_s;
    e.type = u"Warning"_s;
    e.reason = reason;
    e.message = message;
    return e;
}

// The cause of every targeted node in the tiles of one DaemonSet.
std::map<QString, Cause> causesOf(const models::ClusterSnapshot &s, const QString &dsKey)
{
    std::map<QString, Cause> out;
    const auto *ds = s.daemonSet(dsKey);
    if (!ds)
        return out;
    for (const auto &t : gui::buildNodeTiles(s, *ds))
        out[t.node] = t.lag;
    return out;
}

template <typename Pred> bool waitFor(models::ClusterBackend &b, Pred pred, int ms = 30000)
{
    return QTest::qWaitFor([&] { return b.latest() && pred(*b.latest()); }, ms);
}

bool demoLoaded(const models::ClusterSnapshot &s)
{
    const auto *ds = s.daemonSet(u"monitoring/node-exporter"_s);
    return !s.backend.loading && ds && s.nodes && s.nodes->size() == 42 && ds->pods && ds->pods->size() >= 41;
}

} // namespace

class TstNodeLag : public QObject
{
    Q_OBJECT

private slots:
    void classifiesByTheFirstRuleThatApplies_data();
    void classifiesByTheFirstRuleThatApplies();
    void podWarningsKeepTheNewestWarningPerPod();
    void bothBackendsNameTheSameCausesOnTheDemo();
    void theNodesTabCountsCausesAndFiltersByThem();
    void anotherToolsDrainCountsAsAnUpgrade();
};

void TstNodeLag::classifiesByTheFirstRuleThatApplies_data()
{
    QTest::addColumn<bool>("nodeReady");
    QTest::addColumn<bool>("upgrading");
    QTest::addColumn<bool>("hasPod");
    QTest::addColumn<QString>("hash");
    QTest::addColumn<bool>("ready");
    QTest::addColumn<bool>("deleting");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<QString>("waitingReason");
    QTest::addColumn<int>("restarts");
    QTest::addColumn<qint64>("age");
    QTest::addColumn<int>("podsOnNode");
    QTest::addColumn<QString>("strategy"); // RollingUpdate, OnDelete, paused
    QTest::addColumn<QString>("eventReason");
    QTest::addColumn<QString>("eventMessage");
    QTest::addColumn<Cause>("cause");
    QTest::addColumn<QString>("detail"); // a part of the detail

    const qint64 young = 60'000;
    const qint64 old = 600'000;
    const QString ru = u"RollingUpdate"_s;
    QTest::newRow("ready on the current revision: not behind")
        << true << false << true << u"new"_s << true << false << u"Running"_s << QString() << 0 << young << 1
        << ru << QString() << QString() << Cause::None << QString();
    QTest::newRow("a NotReady node comes first, whatever its pod")
        << false << false << true << u"new"_s << false << false << u"Running"_s << u"CrashLoopBackOff"_s << 3
        << old << 1 << ru << QString() << QString() << Cause::NodeNotReady << u"KubeletNotReady"_s;
    QTest::newRow("a node the upgrade has in flight")
        << true << true << true << u"old"_s << false << false << u"Running"_s << QString() << 0 << old << 1
        << ru << QString() << QString() << Cause::NodeUpgrading << QString();
    QTest::newRow("no pod yet") << true << false << false << QString() << false << false << QString()
                                << QString() << 0 << young << 0 << ru << QString() << QString()
                                << Cause::NoPod << QString();
    QTest::newRow("the old pod terminating")
        << true << false << true << u"old"_s << true << true << u"Running"_s << QString() << 0 << old << 1
        << ru << QString() << QString() << Cause::Replacing << u"agent-x1"_s;
    QTest::newRow("image pull failing, with the kubelet's message")
        << true << false << true << u"new"_s << false << false << u"Pending"_s << u"ImagePullBackOff"_s << 0
        << old << 1 << ru << u"Failed"_s << u"Failed to pull image \"agent:9\": not found"_s
        << Cause::ImagePull << u"not found"_s;
    QTest::newRow("image pull failing, the reason when no event is kept")
        << true << false << true << u"new"_s << false << false << u"Pending"_s << u"ErrImagePull"_s << 0
        << young << 1 << ru << QString() << QString() << Cause::ImagePull << u"ErrImagePull"_s;
    QTest::newRow("crash looping, with the restarts and the back-off")
        << true << false << true << u"new"_s << false << false << u"Running"_s << u"CrashLoopBackOff"_s << 4
        << old << 1 << ru << u"BackOff"_s << u"Back-off restarting failed container"_s << Cause::CrashLoop
        << u"Back-off restarting"_s;
    QTest::newRow("restarted and not ready counts as a crash")
        << true << false << true << u"new"_s << false << false << u"Running"_s << QString() << 2 << old << 1
        << ru << QString() << QString() << Cause::CrashLoop << u"2"_s;
    QTest::newRow("pending with FailedScheduling: cannot be scheduled")
        << true << false << true << u"new"_s << false << false << u"Pending"_s << QString() << 0 << old << 1
        << ru << u"FailedScheduling"_s << u"0/1 nodes are available: 1 Insufficient cpu."_s
        << Cause::Unschedulable << u"Insufficient cpu"_s;
    QTest::newRow("pending without a scheduling failure: starting")
        << true << false << true << u"new"_s << false << false << u"Pending"_s << u"ContainerCreating"_s << 0
        << young << 1 << ru << QString() << QString() << Cause::Starting << u"ContainerCreating"_s;
    QTest::newRow("running, not ready, young: starting")
        << true << false << true << u"new"_s << false << false << u"Running"_s << QString() << 0 << young << 1
        << ru << QString() << QString() << Cause::Starting << QString();
    QTest::newRow("running, not ready past the stuck threshold: not becoming ready")
        << true << false << true << u"new"_s << false << false << u"Running"_s << QString() << 0 << old << 1
        << ru << QString() << QString() << Cause::ReadinessFailing << QString();
    QTest::newRow("a failing readiness probe says so at once")
        << true << false << true << u"new"_s << false << false << u"Running"_s << QString() << 0 << young << 1
        << ru << u"Unhealthy"_s << u"Readiness probe failed: HTTP probe failed with statuscode: 503"_s
        << Cause::ReadinessFailing << u"statuscode: 503"_s;
    QTest::newRow("ready on an old revision waits for the budget")
        << true << false << true << u"old"_s << true << false << u"Running"_s << QString() << 0 << old << 1
        << ru << QString() << QString() << Cause::WaitingForBudget << u"maxUnavailable 2"_s;
    QTest::newRow("ready on an old revision under OnDelete")
        << true << false << true << u"old"_s << true << false << u"Running"_s << QString() << 0 << old << 1
        << u"OnDelete"_s << QString() << QString() << Cause::WaitingForDelete << QString();
    QTest::newRow("ready on an old revision of a paused rollout")
        << true << false << true << u"old"_s << true << false << u"Running"_s << QString() << 0 << old << 1
        << u"paused"_s << QString() << QString() << Cause::RolloutPaused << QString();
    QTest::newRow("the new pod ready beside the old one (surge)")
        << true << false << true << u"new"_s << true << false << u"Running"_s << QString() << 0 << young << 2
        << ru << QString() << QString() << Cause::Replacing << QString();
    QTest::newRow("a Normal event is no evidence")
        << true << false << true << u"new"_s << false << false << u"Pending"_s << QString() << 0 << old << 1
        << ru << QString() << QString() << Cause::Starting << QString();
}

void TstNodeLag::classifiesByTheFirstRuleThatApplies()
{
    QFETCH(bool, nodeReady);
    QFETCH(bool, upgrading);
    QFETCH(bool, hasPod);
    QFETCH(QString, hash);
    QFETCH(bool, ready);
    QFETCH(bool, deleting);
    QFETCH(QString, phase);
    QFETCH(QString, waitingReason);
    QFETCH(int, restarts);
    QFETCH(qint64, age);
    QFETCH(int, podsOnNode);
    QFETCH(QString, strategy);
    QFETCH(QString, eventReason);
    QFETCH(QString, eventMessage);
    QFETCH(Cause, cause);
    QFETCH(QString, detail);

    models::NodeInfo node;
    node.name = u"node-1"_s;
    node.ready = nodeReady;
    node.upgrading = upgrading;
    node.conditions = nodeReady ? QString() : u"Ready=False (KubeletNotReady)"_s;
    models::DaemonSetInfo ds = rollingDaemonSet();
    if (strategy == u"paused"_s) {
        ds.paused = true;
        ds.strategyType = u"OnDelete"_s;
    } else {
        ds.strategyType = strategy;
    }
    models::PodInfo p = pod(hash, ready);
    p.deleting = deleting;
    p.phase = phase;
    p.waitingReason = waitingReason;
    p.restarts = restarts;
    p.created = kNow - age;
    std::vector<models::EventInfo> events;
    if (!eventReason.isEmpty())
        events.push_back(warning(eventReason, eventMessage));
    models::EventInfo normal = warning(u"Pulled"_s, u"Container image already present"_s);
    normal.type = u"Normal"_s;
    events.push_back(normal);
    const models::PodWarnings warnings(&events);

    models::LagInputs in;
    in.node = &node;
    in.pod = hasPod ? &p : nullptr;
    in.podsOnNode = podsOnNode;
    in.daemonSet = &ds;
    in.warnings = &warnings;
    in.now = kNow;
    const models::NodeLag lag = models::classifyLag(in);
    QCOMPARE(lag.cause, cause);
    QVERIFY2(lag.detail.contains(detail), qPrintable(lag.detail));
    QVERIFY(!models::lagCauseName(cause).isEmpty());

    // A node the DaemonSet does not target is never behind.
    in.targeted = false;
    QCOMPARE(models::classifyLag(in).cause, Cause::None);
}

void TstNodeLag::podWarningsKeepTheNewestWarningPerPod()
{
    std::vector<models::EventInfo> events; // newest first, as snapshots keep them
    events.push_back(warning(u"BackOff"_s, u"newest"_s));
    events.push_back(warning(u"Failed"_s, u"older"_s));
    models::EventInfo other = warning(u"Unhealthy"_s, u"another pod"_s);
    other.object = u"pod/kube-system/agent-y2"_s;
    events.push_back(other);
    models::EventInfo ds = warning(u"FailedDaemonPod"_s, u"not a pod"_s);
    ds.object = u"daemonset/kube-system/agent"_s;
    events.push_back(ds);
    const models::PodWarnings w(&events);
    QVERIFY(w.newest(u"kube-system"_s, u"agent-x1"_s));
    QCOMPARE(w.newest(u"kube-system"_s, u"agent-x1"_s)->message, u"newest"_s);
    QCOMPARE(w.newest(u"kube-system"_s, u"agent-y2"_s)->message, u"another pod"_s);
    QVERIFY(!w.newest(u"default"_s, u"agent-x1"_s));
    QVERIFY(!w.newest(u"kube-system"_s, u"agent"_s));
    const models::PodWarnings none(nullptr);
    QVERIFY(!none.newest(u"kube-system"_s, u"agent-x1"_s));
}

void TstNodeLag::bothBackendsNameTheSameCausesOnTheDemo()
{
    // The embedded engine, its clock stopped once the demo has loaded.
    models::EmbeddedBackendOptions eo;
    eo.speed = 0;
    eo.scenarioPath = kDemo;
    models::EmbeddedBackend embedded(eo);
    QVERIFY(waitFor(embedded, demoLoaded));

    // The same demo behind the API server, its clock stopped too, read over HTTP.
    QFile f(kDemo);
    QVERIFY(f.open(QIODevice::ReadOnly));
    auto cluster = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "demo.yaml");
    QVERIFY(cluster);
    server::ServerOptions so;
    so.speed = 0;
    server::ApiServer api(std::move(*cluster), so);
    QVERIFY(api.start());
    models::LiveBackendOptions lo;
    client::RestConfig config;
    config.server = api.url();
    config.contextName = "test";
    lo.restConfig = config;
    lo.publishIntervalMs = 20;
    lo.allNamespaces = true;
    models::LiveBackend live(lo);
    QVERIFY(waitFor(live, demoLoaded));

    // The first difference between the two backends' causes, empty when they agree. The live
    // backend's first complete snapshot may still precede a list or watch event that the stopped
    // cluster already holds: the two must agree once it has caught up (within seconds).
    const auto difference = [&]() -> QString {
        for (const QString &dsKey : {u"monitoring/node-exporter"_s, u"kube-system/calico-node"_s}) {
            const auto fromEngine = causesOf(*embedded.latest(), dsKey);
            const auto fromLive = causesOf(*live.latest(), dsKey);
            for (const auto &[node, cause] : fromEngine) {
                // Young pods read "starting" against the live clock sooner or later than against
                // the stopped virtual one; every other cause is the same.
                const auto it = fromLive.find(node);
                if (it == fromLive.end())
                    return u"%1 %2: missing on the live backend"_s.arg(dsKey, node);
                if (cause == Cause::Starting || it->second == Cause::Starting || it->second == cause)
                    continue;
                return u"%1 %2: engine %3, live %4"_s.arg(dsKey, node)
                    .arg(models::lagCauseName(cause), models::lagCauseName(it->second));
            }
        }
        return {};
    };
    for (const QString &dsKey : {u"monitoring/node-exporter"_s, u"kube-system/calico-node"_s}) {
        const auto fromEngine = causesOf(*embedded.latest(), dsKey);
        QCOMPARE(fromEngine.size(), std::size_t(42));
        QCOMPARE(fromEngine.at(u"node-b-4"_s), Cause::NodeNotReady);
    }
    QString differs = difference();
    for (int i = 0; i < 200 && !differs.isEmpty(); ++i) {
        QTest::qWait(50);
        differs = difference();
    }
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
    // node-exporter is mid-rollout: pods ready on the old revision wait for the budget.
    const auto exporter = causesOf(*embedded.latest(), u"monitoring/node-exporter"_s);
    QVERIFY(std::count_if(exporter.begin(), exporter.end(),
                          [](const auto &kv) { return kv.second == Cause::WaitingForBudget; }) >= 30);
}

void TstNodeLag::theNodesTabCountsCausesAndFiltersByThem()
{
    models::EmbeddedBackendOptions eo;
    eo.speed = 0;
    eo.scenarioPath = kDemo;
    models::EmbeddedBackend embedded(eo);
    QVERIFY(waitFor(embedded, demoLoaded));
    const auto snapshot = embedded.latest();
    const auto *ds = snapshot->daemonSet(u"monitoring/node-exporter"_s);
    QVERIFY(ds);

    gui::NodesTab tab;
    tab.setTiles(gui::buildNodeTiles(*snapshot, *ds), snapshot->clock.now);
    const auto &counts = tab.model()->lagCounts();
    QVERIFY(!counts.empty());
    int behind = 0;
    int notReady = 0;
    for (const auto &c : counts) {
        behind += c.count;
        if (c.cause == Cause::NodeNotReady)
            notReady = c.count;
    }
    QCOMPARE(notReady, 1);
    QVERIFY(!tab.behindLabel()->isHidden());
    const QString text = tab.behindLabel()->text();
    QVERIFY2(text.contains(u"href=\"lag:%1\""_s.arg(int(Cause::NodeNotReady))), qPrintable(text));
    QVERIFY2(text.contains(models::lagCauseName(Cause::NodeNotReady)), qPrintable(text));

    // The tooltip of the NotReady node says why it is behind.
    const int row = tab.model()->rowOfNode(u"node-b-4"_s);
    QVERIFY(row >= 0);
    QVERIFY(tab.model()->toolTip(tab.model()->tile(row)).contains(models::lagCauseName(Cause::NodeNotReady)));

    // The link filters the map to that node, and the combo shows the matching entry.
    emit tab.behindLabel()->linkActivated(u"lag:%1"_s.arg(int(Cause::NodeNotReady)));
    QCOMPARE(tab.filter()->rowCount(), 1);
    QCOMPARE(tab.filter()->index(0, 0).data(models::NodeMapModel::NodeNameRole).toString(), u"node-b-4"_s);
    QCOMPARE(tab.stateCombo()->currentData().toInt(), int(Cause::NodeNotReady));

    // "Behind (any cause)" shows every node behind; "All pod states" every node again.
    tab.stateCombo()->setCurrentIndex(tab.stateCombo()->findData(-1));
    QCOMPARE(tab.filter()->rowCount(), behind);
    tab.filterByLag(Cause::None);
    QCOMPARE(tab.filter()->rowCount(), 42);
}

// A node another tool drains, announced by the node lifecycle conditions (DrainInProgress, then
// Drained): its missing DaemonSet pod is the drain's, with the condition as evidence; without
// the conditions the same node is an ordinary "no pod yet".
void TstNodeLag::anotherToolsDrainCountsAsAnUpgrade()
{
    for (const char *condition : {"DrainInProgress", "Drained", ""}) {
        kube::Node n;
        n.metadata.name = "node-1";
        n.unschedulable = true;
        n.setCondition({"Ready", "True", "KubeletReady", "", kNow});
        if (*condition)
            n.setCondition({condition, "True", "DrainRequested", "drained by another tool", kNow});
        const models::NodeInfo info = models::SnapshotAssembler::nodeInfo(n);
        QCOMPARE(info.draining, QString::fromLatin1(condition));
        QCOMPARE(info.upgrading, *condition != '\0');
        const models::DaemonSetInfo ds = rollingDaemonSet();
        models::LagInputs in;
        in.targeted = true;
        in.node = &info;
        in.daemonSet = &ds;
        const models::NodeLag lag = models::classifyLag(in);
        if (*condition) {
            QCOMPARE(lag.cause, Cause::NodeUpgrading);
            QCOMPARE(lag.detail, QString::fromLatin1(condition) + u"=True"_s);
        } else {
            QCOMPARE(lag.cause, Cause::NoPod);
        }
    }
}

QTEST_MAIN(TstNodeLag)
#include "tst_nodelag.moc"
