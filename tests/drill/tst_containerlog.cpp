// The simulated container logs of the engine (engine/containerlog.h): the lines follow what the
// pod's record says happened (start, Ready, heartbeats, each crash of a failing image with its
// termination message); the API's refusals (container required, unknown container, waiting,
// no previous attempt); tailLines; and reading logs changes nothing in the cluster.

#include "models/kube/jsonfield.h"
#include "models/kube/simulatedcrash.h"
#include "models/kube/timeutil.h"
#include "models/scenario/scenariorunner.h"
#include "models/sim/cluster.h"
#include "models/sim/containerlog.h"

#include <QFile>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

constexpr kube::Timestamp kStart = 1767225600000; // 2026-01-01T00:00:00Z

kube::Pod makePod(std::vector<std::string> containers, std::string image = "nginx:1.27")
{
    kube::Pod p;
    p.metadata.name = "web-abc12";
    p.metadata.namespace_ = "default";
    kube::Json list = kube::Json::array();
    for (const auto &c : containers)
        list.push_back({{"name", c}, {"image", image}});
    p.spec = std::make_shared<const kube::Json>(kube::Json{{"containers", list}});
    p.nodeName = "node-1";
    return p;
}

kube::Pod startedPod(kube::Pod p, bool ready, int restarts = 0, std::string waiting = {})
{
    p.phase = "Running";
    p.startTime = kStart;
    p.ready = ready;
    if (ready)
        p.readyTransitionTime = kStart + 1000;
    p.restartCount = restarts;
    p.waitingReason = std::move(waiting);
    return p;
}

std::unique_ptr<sim::Cluster> drillCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/drill/drill.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "drill.yaml");
    return c ? std::move(*c) : nullptr;
}

const kube::Pod *podOf(const sim::Cluster &c, const std::string &ds)
{
    auto pods = c.podsOf("default", ds);
    return pods.empty() ? nullptr : pods.front();
}

} // namespace

class TstContainerLog : public QObject
{
    Q_OBJECT

private slots:
    void linesFollowThePodsHistory_data();
    void linesFollowThePodsHistory();
    void refusalsAreTheApisAnswers_data();
    void refusalsAreTheApisAnswers();
    void tailLinesKeepsTheLastLines();
    void followReadsOnlyLaterLines();
    void crashLoopingPodOfTheClusterShowsItsTerminationMessage();
    void readingLogsChangesNothing();
};

void TstContainerLog::linesFollowThePodsHistory_data()
{
    QTest::addColumn<bool>("failing");
    QTest::addColumn<int>("restarts");
    QTest::addColumn<bool>("previous");
    QTest::addColumn<qint64>("after"); // ms after the start
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<bool>("running");

    QTest::newRow("a healthy container starts, turns Ready and beats every 30 s")
        << false << 0 << false << qint64(65000)
        << QStringList{u"starting container web (image nginx:1.27) on node node-1"_s,
                       u"ready: accepting work"_s, u"healthy: up 30s"_s, u"healthy: up 1m0s"_s}
        << true;
    QTest::newRow("a crash-looping container shows its last attempt, ending with the crash")
        << true << 3 << false << qint64(65000)
        << QStringList{u"starting container web (image nginx:1.27) on node node-1, attempt 3"_s,
                       u"loading configuration"_s,
                       QString::fromStdString(kube::simulatedCrashMessage("web", "nginx:1.27"))}
        << false;
    QTest::newRow("previous of a crash-looping container is the attempt before")
        << true << 3 << true << qint64(65000)
        << QStringList{u"starting container web (image nginx:1.27) on node node-1, attempt 2"_s,
                       u"loading configuration"_s,
                       QString::fromStdString(kube::simulatedCrashMessage("web", "nginx:1.27"))}
        << false;
}

void TstContainerLog::linesFollowThePodsHistory()
{
    QFETCH(bool, failing);
    QFETCH(int, restarts);
    QFETCH(bool, previous);
    QFETCH(qint64, after);
    QFETCH(QStringList, expected);
    QFETCH(bool, running);
    const kube::Pod pod = startedPod(makePod({"web"}), !failing, restarts, failing ? "CrashLoopBackOff" : "");
    sim::ContainerLogQuery q;
    q.previous = previous;
    auto log = sim::containerLog(pod, q, kStart + after, failing);
    QVERIFY2(log, log ? "" : log.error().message.c_str());
    QStringList got;
    for (const auto &l : log->lines)
        got << QString::fromStdString(l.text);
    QCOMPARE(got, expected);
    QCOMPARE(log->running, running);
    QCOMPARE(QString::fromStdString(log->container), QStringLiteral("web"));
    for (std::size_t i = 1; i < log->lines.size(); ++i)
        QVERIFY(log->lines[i - 1].time <= log->lines[i].time);
}

void TstContainerLog::refusalsAreTheApisAnswers_data()
{
    QTest::addColumn<QStringList>("containers");
    QTest::addColumn<bool>("started");
    QTest::addColumn<QString>("container");
    QTest::addColumn<bool>("previous");
    QTest::addColumn<QString>("message");

    QTest::newRow("two containers need a name")
        << QStringList{u"a"_s, u"b"_s} << true << QString() << false
        << u"a container name must be specified for pod web-abc12, choose one of: [a b]"_s;
    QTest::newRow("an unknown container is refused") << QStringList{u"web"_s} << true << u"sidecar"_s << false
                                                     << u"container sidecar is not valid for pod web-abc12"_s;
    QTest::newRow("a container that has not started is waiting")
        << QStringList{u"web"_s} << false << QString() << false
        << u"container \"web\" in pod \"web-abc12\" is waiting to start: ContainerCreating"_s;
    QTest::newRow("previous without an earlier attempt is not found")
        << QStringList{u"web"_s} << true << u"web"_s << true
        << u"previous terminated container \"web\" in pod \"web-abc12\" not found"_s;
}

void TstContainerLog::refusalsAreTheApisAnswers()
{
    QFETCH(QStringList, containers);
    QFETCH(bool, started);
    QFETCH(QString, container);
    QFETCH(bool, previous);
    QFETCH(QString, message);
    std::vector<std::string> names;
    for (const auto &c : containers)
        names.push_back(c.toStdString());
    kube::Pod pod = makePod(names);
    if (started)
        pod = startedPod(pod, true);
    sim::ContainerLogQuery q;
    q.container = container.toStdString();
    q.previous = previous;
    auto log = sim::containerLog(pod, q, kStart + 5000, false);
    QVERIFY(!log);
    QCOMPARE(log.error().code, 400);
    QCOMPARE(QString::fromStdString(log.error().message), message);
}

void TstContainerLog::tailLinesKeepsTheLastLines()
{
    const kube::Pod pod = startedPod(makePod({"web"}), true);
    sim::ContainerLogQuery q;
    auto all = sim::containerLog(pod, q, kStart + 10 * 60000, false);
    QVERIFY(all);
    QCOMPARE(all->lines.size(), std::size_t(22)); // start, ready, 20 heartbeats
    q.tailLines = 3;
    auto tail = sim::containerLog(pod, q, kStart + 10 * 60000, false);
    QVERIFY(tail);
    QCOMPARE(tail->lines.size(), std::size_t(3));
    QCOMPARE(tail->lines.back().text, all->lines.back().text);
    QCOMPARE(tail->lines.front().text, all->lines[19].text);
    q.tailLines = 0;
    QVERIFY(sim::containerLog(pod, q, kStart + 10 * 60000, false)->lines.empty());
}

void TstContainerLog::followReadsOnlyLaterLines()
{
    const kube::Pod pod = startedPod(makePod({"web"}), true);
    sim::ContainerLogQuery q;
    q.after = kStart + 60000; // read up to 1 min
    auto later = sim::containerLog(pod, q, kStart + 120000, false);
    QVERIFY(later);
    QCOMPARE(later->lines.size(), std::size_t(2)); // 1m30s and 2m0s
    QCOMPARE(later->lines.front().text, std::string("healthy: up 1m30s"));
}

void TstContainerLog::crashLoopingPodOfTheClusterShowsItsTerminationMessage()
{
    auto cluster = drillCluster();
    QVERIFY(cluster);
    const kube::Pod *agent = podOf(*cluster, "agent");
    QVERIFY(agent);
    QCOMPARE(agent->waitingReason, std::string("CrashLoopBackOff"));
    QVERIFY(agent->restartCount >= 2);
    const std::string message = kube::simulatedCrashMessage("agent", "example.com/agent:broken");
    auto log = sim::containerLog(*cluster, "default", agent->metadata.name, {});
    QVERIFY(log);
    QCOMPARE(log->lines.back().text, message);
    QVERIFY(!log->running);
    sim::ContainerLogQuery previous;
    previous.previous = true;
    auto before = sim::containerLog(*cluster, "default", agent->metadata.name, previous);
    QVERIFY(before);
    QCOMPARE(before->lines.back().text, message);
    QVERIFY(before->lines.front().time < log->lines.front().time);

    // The status says the same: lastState.terminated with the message, exit code 1.
    auto json = cluster->get(api::Kind::Pod, "default", agent->metadata.name);
    QVERIFY(json);
    const kube::Json &status = (*json)["status"]["containerStatuses"][0];
    QCOMPARE(status["lastState"]["terminated"]["message"].get<std::string>(), message);
    QCOMPARE(status["lastState"]["terminated"]["exitCode"].get<int>(), 1);
    QCOMPARE(status["state"]["waiting"]["reason"].get<std::string>(), std::string("CrashLoopBackOff"));

    // A healthy pod has no lastState, and no previous attempt.
    const kube::Pod *web = podOf(*cluster, "web");
    QVERIFY(web);
    auto webJson = cluster->get(api::Kind::Pod, "default", web->metadata.name);
    QVERIFY(!(*webJson)["status"]["containerStatuses"][0].contains("lastState"));
    auto none = sim::containerLog(*cluster, "default", web->metadata.name, previous);
    QVERIFY(!none);
    QCOMPARE(none.error().code, 400);
    auto missing = sim::containerLog(*cluster, "default", "nope", {});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, 404);
    QCOMPARE(missing.error().message, std::string("pods \"nope\" not found"));
}

void TstContainerLog::readingLogsChangesNothing()
{
    auto a = drillCluster();
    auto b = drillCluster();
    QVERIFY(a && b);
    for (const kube::Pod *p : a->pods())
        for (const auto &c : (*p->spec)["containers"]) {
            sim::ContainerLogQuery q;
            q.container = kube::stringOr(c, "name");
            (void)sim::containerLog(*a, p->metadata.namespace_, p->metadata.name, q);
        }
    QCOMPARE(a->resourceVersion(), b->resourceVersion());
    a->advance(120000);
    b->advance(120000);
    QCOMPARE(a->resourceVersion(), b->resourceVersion());
    QCOMPARE(a->list(api::Kind::Pod)->dump(), b->list(api::Kind::Pod)->dump());
    QCOMPARE(a->list(api::Kind::Event)->dump(), b->list(api::Kind::Event)->dump());
}

QTEST_GUILESS_MAIN(TstContainerLog)
#include "tst_containerlog.moc"
