// Pure decision functions of the DaemonSet controller, from tables: budgets, rolling update
// with and without surge, per-node reconciliation, history construction, dedup and cleanup,
// status counters, revision data bytes and hash vectors, strategic merge.
#include "models/api/daemonsetlogic.h"
#include "models/api/strategicmerge.h"
#include "models/kube/defaults.h"
#include "models/kube/nodeaffinity.h"

#include <QTest>

#include <deque>

using kube::Json;
using namespace api;

Q_DECLARE_METATYPE(std::string)

namespace {

constexpr kube::Timestamp kNow = 1'000'000;

kube::DaemonSet makeDs(const Json &strategy, int minReadySeconds = 0)
{
    Json j = {
        {"apiVersion", "apps/v1"},
        {"kind", "DaemonSet"},
        {"metadata", {{"name", "web"}, {"namespace", "default"}, {"uid", "ds-uid"}}},
        {"spec",
         {{"selector", {{"matchLabels", {{"app", "web"}}}}},
          {"updateStrategy", strategy},
          {"minReadySeconds", minReadySeconds},
          {"template",
           {{"metadata", {{"labels", {{"app", "web"}}}}},
            {"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", "nginx:1.19"}}})}}}}}}}};
    auto ds = kube::DaemonSet::fromJson(j);
    return *ds;
}

Json rolling(const Json &mu, const Json &ms)
{
    return {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", mu}, {"maxSurge", ms}}}};
}

// A node layout in one string per node: O/o old available/unavailable, N/n new
// available/unavailable, D a deleting old pod, '-' a desired node without pods, '!' a node
// that should not run the pod (followed by its pods, e.g. "!O").
struct Layout
{
    std::deque<kube::Pod> pods;
    std::vector<NodeDaemonPods> entries;
};

Layout layout(const QStringList &nodes)
{
    Layout l;
    int i = 0;
    for (const auto &spec : nodes) {
        NodeDaemonPods e;
        e.node = QStringLiteral("node-%1").arg(i, 2, 10, QLatin1Char('0')).toStdString();
        e.should = {true, true};
        int k = 0;
        for (QChar c : spec) {
            if (c == QLatin1Char('-'))
                continue;
            if (c == QLatin1Char('!')) {
                e.should = {false, false};
                continue;
            }
            kube::Pod p;
            p.metadata.name = e.node + "-p" + std::to_string(k++);
            p.metadata.namespace_ = "default";
            p.metadata.creationTimestamp = kNow - 100000 + k;
            p.nodeName = e.node;
            const bool isNew = c == QLatin1Char('N') || c == QLatin1Char('n');
            p.metadata.labels[kube::kRevisionHashLabel] = isNew ? "new" : "old";
            p.ready = c == QLatin1Char('O') || c == QLatin1Char('N') || c == QLatin1Char('D');
            p.readyTransitionTime = kNow - 60000;
            p.phase = "Running";
            if (c == QLatin1Char('D'))
                p.metadata.deletionTimestamp = kNow;
            l.pods.push_back(p);
            e.pods.push_back(&l.pods.back());
        }
        l.entries.push_back(e);
        ++i;
    }
    return l;
}

Layout layout(std::initializer_list<const char *> nodes)
{
    QStringList l;
    for (const char *n : nodes)
        l << QString::fromUtf8(n);
    return layout(l);
}

} // namespace

class TestDaemonSetLogic : public QObject
{
    Q_OBJECT

private slots:
    void budgets_data();
    void budgets();
    void rollingUpdateWithoutSurge_data();
    void rollingUpdateWithoutSurge();
    void rollingUpdateWithSurge_data();
    void rollingUpdateWithSurge();
    void candidatesAreTakenInNodeNameOrder();
    void podsShouldBeOnNode_data();
    void podsShouldBeOnNode();
    void nodeShouldRun_data();
    void nodeShouldRun();
    void constructHistorySplitsByBytes();
    void dedupKeepsHighestLaterOnTies();
    void statusSharesAddUp_data();
    void statusSharesAddUp();
    void cleanupHistory_data();
    void cleanupHistory();
    void statusCountsFirstPodOfNode();
    void typicalRevisionData();
    void hashVectors_data();
    void hashVectors();
    void strategicMerge_data();
    void strategicMerge();
};

void TestDaemonSetLogic::budgets_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("desired");
    QTest::addColumn<int>("maxUnavailable");
    QTest::addColumn<int>("maxSurge");
    QTest::newRow("an integer maxUnavailable is taken as is")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":2,"maxSurge":0}})")
        << 10 << 2 << 0;
    QTest::newRow("ten percent of 5000 nodes is 500")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"10%","maxSurge":0}})")
        << 5000 << 500 << 0;
    QTest::newRow("percentages round up: 10% of 7 is 1")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"10%","maxSurge":0}})")
        << 7 << 1 << 0;
    QTest::newRow("percentages round up: 10% of 15 is 2")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"10%","maxSurge":0}})")
        << 15 << 2 << 0;
    QTest::newRow("surge percentage rounds up too")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":0,"maxSurge":"25%"}})")
        << 5 << 0 << 2;
    QTest::newRow("both zero with desired nodes forces maxUnavailable 1")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"0%","maxSurge":0}})")
        << 4 << 1 << 0;
    QTest::newRow("both zero without desired nodes stays zero")
        << QStringLiteral(R"({"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"0%","maxSurge":0}})")
        << 0 << 0 << 0;
    QTest::newRow("OnDelete resolves to zero, then forced to 1")
        << QStringLiteral(R"({"type":"OnDelete"})") << 3 << 1 << 0;
}

void TestDaemonSetLogic::budgets()
{
    QFETCH(QString, strategy);
    QFETCH(int, desired);
    QFETCH(int, maxUnavailable);
    QFETCH(int, maxSurge);
    const auto ds = makeDs(Json::parse(strategy.toStdString()));
    auto b = updatedDesiredNodeCounts(ds, desired);
    QVERIFY(b.ok());
    QCOMPARE(b->maxUnavailable, maxUnavailable);
    QCOMPARE(b->maxSurge, maxSurge);
    QCOMPARE(b->desiredNumberScheduled, desired);
}

void TestDaemonSetLogic::rollingUpdateWithoutSurge_data()
{
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<int>("maxUnavailable");
    QTest::addColumn<int>("deletes");
    QTest::addColumn<int>("numUnavailable");
    QTest::newRow("all old and available: delete maxUnavailable of them")
        << QStringList{QStringLiteral("O"), QStringLiteral("O"), QStringLiteral("O"), QStringLiteral("O"),
                       QStringLiteral("O")}
        << 2 << 2 << 0;
    QTest::newRow("an unavailable new pod eats the budget")
        << QStringList{QStringLiteral("n"), QStringLiteral("O"), QStringLiteral("O"), QStringLiteral("O")}
        << 2 << 1 << 1;
    QTest::newRow("budget spent: no available old pod is deleted")
        << QStringList{QStringLiteral("n"), QStringLiteral("n"), QStringLiteral("O"), QStringLiteral("O")}
        << 2 << 0 << 2;
    QTest::newRow("unavailable old pods are always replaced")
        << QStringList{QStringLiteral("o"), QStringLiteral("o"), QStringLiteral("o"), QStringLiteral("O")}
        << 1 << 3 << 3;
    QTest::newRow("a node without pods counts as unavailable")
        << QStringList{QStringLiteral("-"), QStringLiteral("O"), QStringLiteral("O")} << 1 << 0 << 1;
    QTest::newRow("a node with old and new pods counts as unavailable")
        << QStringList{QStringLiteral("ON"), QStringLiteral("O"), QStringLiteral("O")} << 2 << 1 << 1;
    QTest::newRow("excess pods count as unavailable and are left to manage")
        << QStringList{QStringLiteral("OO"), QStringLiteral("O"), QStringLiteral("O")} << 2 << 1 << 1;
    QTest::newRow("deleting pods are ignored: node counts as empty")
        << QStringList{QStringLiteral("D"), QStringLiteral("O"), QStringLiteral("O")} << 2 << 1 << 1;
    QTest::newRow("available new pods cost nothing")
        << QStringList{QStringLiteral("N"), QStringLiteral("N"), QStringLiteral("O"), QStringLiteral("O")}
        << 1 << 1 << 0;
    QTest::newRow("rollout finished: nothing to delete")
        << QStringList{QStringLiteral("N"), QStringLiteral("N"), QStringLiteral("N")} << 1 << 0 << 0;
    QTest::newRow("misscheduled node with an old pod is still a candidate")
        << QStringList{QStringLiteral("!O"), QStringLiteral("O")} << 1 << 1 << 0;
}

void TestDaemonSetLogic::rollingUpdateWithoutSurge()
{
    QFETCH(QStringList, nodes);
    QFETCH(int, maxUnavailable);
    QFETCH(int, deletes);
    QFETCH(int, numUnavailable);
    const Layout l = layout(nodes);
    const Budget b{0, maxUnavailable, static_cast<int>(nodes.size())};
    const auto plan = rollingUpdate(l.entries, b, "new", std::nullopt, 0, kNow);
    QCOMPARE(static_cast<int>(plan.podsToDelete.size()), deletes);
    QCOMPARE(plan.numUnavailable, numUnavailable);
    QVERIFY(plan.nodesToCreate.empty());
    // §6.1 item 6: at most max(0, maxUnavailable - numUnavailable) available old pods.
    int availableOldDeleted = 0;
    for (const auto &name : plan.podsToDelete)
        for (const auto &p : l.pods)
            if (p.metadata.name == name && p.ready)
                ++availableOldDeleted;
    QVERIFY(availableOldDeleted <= std::max(0, maxUnavailable - numUnavailable));
}

void TestDaemonSetLogic::rollingUpdateWithSurge_data()
{
    QTest::addColumn<QStringList>("nodes");
    QTest::addColumn<int>("maxSurge");
    QTest::addColumn<int>("creates");
    QTest::addColumn<int>("deletes");
    QTest::newRow("surge creates alongside available old pods up to maxSurge")
        << QStringList{QStringLiteral("O"), QStringLiteral("O"), QStringLiteral("O"), QStringLiteral("O")}
        << 2 << 2 << 0;
    QTest::newRow("an unavailable new pod next to an old one uses surge")
        << QStringList{QStringLiteral("On"), QStringLiteral("O"), QStringLiteral("O")} << 2 << 1 << 0;
    QTest::newRow("an available new pod retires its old pod")
        << QStringList{QStringLiteral("ON"), QStringLiteral("O"), QStringLiteral("O")} << 1 << 1 << 1;
    QTest::newRow("nodes with unavailable old pods get a new pod regardless")
        << QStringList{QStringLiteral("o"), QStringLiteral("o"), QStringLiteral("O")} << 1 << 3 << 0;
    QTest::newRow("surge exhausted by excess nodes")
        << QStringList{QStringLiteral("OO"), QStringLiteral("O")} << 1 << 0 << 0;
    QTest::newRow("old pod on a node that should not run goes once availability is spare")
        << QStringList{QStringLiteral("!O"), QStringLiteral("N"), QStringLiteral("N")} << 1 << 0 << 1;
    QTest::newRow("old pod on a node that should not run stays while availability is short")
        << QStringList{QStringLiteral("!O"), QStringLiteral("N"), QStringLiteral("n")} << 1 << 0 << 0;
    QTest::newRow("unavailable old pod on a node that should not run is deleted")
        << QStringList{QStringLiteral("!o"), QStringLiteral("N")} << 1 << 0 << 1;
}

void TestDaemonSetLogic::rollingUpdateWithSurge()
{
    QFETCH(QStringList, nodes);
    QFETCH(int, maxSurge);
    QFETCH(int, creates);
    QFETCH(int, deletes);
    const Layout l = layout(nodes);
    int desired = 0;
    for (const auto &e : l.entries)
        desired += e.should.shouldRun ? 1 : 0;
    const Budget b{maxSurge, 0, desired};
    const auto plan = rollingUpdate(l.entries, b, "new", std::nullopt, 0, kNow);
    QCOMPARE(static_cast<int>(plan.nodesToCreate.size()), creates);
    QCOMPARE(static_cast<int>(plan.podsToDelete.size()), deletes);
}

void TestDaemonSetLogic::candidatesAreTakenInNodeNameOrder()
{
    const Layout l = layout({"O", "O", "O", "O"});
    const auto plan = rollingUpdate(l.entries, Budget{0, 2, 4}, "new", std::nullopt, 0, kNow);
    QCOMPARE(plan.podsToDelete, (std::vector<std::string>{"node-00-p0", "node-01-p0"}));
}

void TestDaemonSetLogic::podsShouldBeOnNode_data()
{
    QTest::addColumn<QString>("pods");
    QTest::addColumn<bool>("shouldRun");
    QTest::addColumn<bool>("shouldContinue");
    QTest::addColumn<bool>("surge");
    QTest::addColumn<bool>("create");
    QTest::addColumn<int>("deletes");
    QTest::newRow("an eligible empty node gets a pod")
        << QStringLiteral("") << true << true << false << true << 0;
    QTest::newRow("one running pod is left alone")
        << QStringLiteral("O") << true << true << false << false << 0;
    QTest::newRow("without surge all but the oldest are deleted")
        << QStringLiteral("OON") << true << true << false << false << 2;
    QTest::newRow("with surge an old and a new pod may coexist while the new one is not ready")
        << QStringLiteral("On") << true << true << true << false << 0;
    QTest::newRow("with surge the old pod goes once the new one is available")
        << QStringLiteral("ON") << true << true << true << false << 1;
    QTest::newRow("with surge a not-ready old pod goes at once")
        << QStringLiteral("on") << true << true << true << false << 1;
    QTest::newRow("with surge only a deleting pod: create a replacement")
        << QStringLiteral("D") << true << true << true << true << 0;
    QTest::newRow("without surge a deleting pod blocks the replacement")
        << QStringLiteral("D") << true << true << false << false << 0;
    QTest::newRow("a node that should not continue loses its pods")
        << QStringLiteral("ON") << false << false << false << false << 2;
    QTest::newRow("a tainted node keeps a tolerated pod but gets no new one")
        << QStringLiteral("") << false << true << false << false << 0;
}

void TestDaemonSetLogic::podsShouldBeOnNode()
{
    QFETCH(QString, pods);
    QFETCH(bool, shouldRun);
    QFETCH(bool, shouldContinue);
    QFETCH(bool, surge);
    QFETCH(bool, create);
    QFETCH(int, deletes);
    Layout l = layout({pods.isEmpty() ? QStringLiteral("-") : pods});
    l.entries[0].should = {shouldRun, shouldContinue};
    const auto d = api::podsShouldBeOnNode(l.entries[0], "new", surge, 0, kNow);
    QCOMPARE(d.createPod, create);
    QCOMPARE(static_cast<int>(d.toDelete.size()), deletes);
}

void TestDaemonSetLogic::nodeShouldRun_data()
{
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("podSpecExtra");
    QTest::addColumn<bool>("shouldRun");
    QTest::addColumn<bool>("shouldContinue");
    QTest::newRow("a plain node runs the pod")
        << QStringLiteral(R"({"metadata":{"name":"n1"}})") << QStringLiteral("{}") << true << true;
    QTest::newRow("an untolerated NoSchedule taint stops new pods but keeps running ones")
        << QStringLiteral(
               R"({"metadata":{"name":"n1"},"spec":{"taints":[{"key":"dedicated","effect":"NoSchedule"}]}})")
        << QStringLiteral("{}") << false << true;
    QTest::newRow("an untolerated NoExecute taint evicts")
        << QStringLiteral(
               R"({"metadata":{"name":"n1"},"spec":{"taints":[{"key":"dedicated","effect":"NoExecute"}]}})")
        << QStringLiteral("{}") << false << false;
    QTest::newRow("default tolerations cover not-ready NoExecute")
        << QStringLiteral(
               R"({"metadata":{"name":"n1"},"spec":{"taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoExecute"}]}})")
        << QStringLiteral("{}") << true << true;
    QTest::newRow("default tolerations cover unschedulable")
        << QStringLiteral(
               R"({"metadata":{"name":"n1"},"spec":{"unschedulable":true,"taints":[{"key":"node.kubernetes.io/unschedulable","effect":"NoSchedule"}]}})")
        << QStringLiteral("{}") << true << true;
    QTest::newRow("a nodeSelector that does not match rules the node out")
        << QStringLiteral(R"({"metadata":{"name":"n1","labels":{"pool":"b"}}})")
        << QStringLiteral(R"({"nodeSelector":{"pool":"a"}})") << false << false;
    QTest::newRow("a template nodeName for another node rules it out")
        << QStringLiteral(R"({"metadata":{"name":"n1"}})") << QStringLiteral(R"({"nodeName":"n2"})") << false
        << false;
    QTest::newRow("a toleration in the template allows the taint")
        << QStringLiteral(
               R"({"metadata":{"name":"n1"},"spec":{"taints":[{"key":"dedicated","value":"infra","effect":"NoSchedule"}]}})")
        << QStringLiteral(
               R"({"tolerations":[{"key":"dedicated","operator":"Equal","value":"infra","effect":"NoSchedule"}]})")
        << true << true;
}

void TestDaemonSetLogic::nodeShouldRun()
{
    QFETCH(QString, node);
    QFETCH(QString, podSpecExtra);
    QFETCH(bool, shouldRun);
    QFETCH(bool, shouldContinue);
    auto ds = makeDs(rolling(1, 0));
    const Json extra = Json::parse(podSpecExtra.toStdString());
    for (auto it = extra.begin(); it != extra.end(); ++it)
        ds.spec["template"]["spec"][it.key()] = it.value();
    auto n = kube::Node::fromJson(Json::parse(node.toStdString()));
    QVERIFY(n.ok());
    const ShouldRun r = nodeShouldRunDaemonPod(*n, ds);
    QCOMPARE(r.shouldRun, shouldRun);
    QCOMPARE(r.shouldContinueRunning, shouldContinue);
}

namespace {

kube::ControllerRevision cr(const std::string &name, std::int64_t revision, const std::string &data,
                            const std::string &hash = {})
{
    kube::ControllerRevision c;
    c.metadata.name = name;
    c.metadata.namespace_ = "default";
    c.revision = revision;
    c.data = data;
    c.metadata.labels[kube::kRevisionHashLabel] = hash.empty() ? name : hash;
    return c;
}

} // namespace

void TestDaemonSetLogic::constructHistorySplitsByBytes()
{
    auto ds = makeDs(rolling(1, 0));
    const std::string cur = daemonSetPatch(ds.podTemplate());
    const auto a = cr("web-a", 1, cur + " "), b = cr("web-b", 4, "{}"), c = cr("web-c", 2, cur);
    const HistorySplit s = constructHistory(ds, {&a, &b, &c});
    QCOMPARE(s.current.size(), std::size_t(1));
    QCOMPARE(s.current[0]->metadata.name, std::string("web-c"));
    QCOMPARE(s.old.size(), std::size_t(2)); // one trailing space is enough to differ
    QCOMPARE(s.currRevision, std::int64_t(5));
}

void TestDaemonSetLogic::dedupKeepsHighestLaterOnTies()
{
    const auto a = cr("web-a", 3, "x"), b = cr("web-b", 3, "x"), c = cr("web-c", 1, "x");
    const auto d = dedupCurHistories({&a, &b, &c});
    QCOMPARE(d.keep->metadata.name, std::string("web-b"));
    QCOMPARE(d.remove.size(), std::size_t(2));
}

void TestDaemonSetLogic::cleanupHistory_data()
{
    QTest::addColumn<int>("limit");
    QTest::addColumn<QStringList>("live");
    QTest::addColumn<QStringList>("deleted");
    QTest::newRow("within the limit nothing is deleted") << 10 << QStringList{} << QStringList{};
    QTest::newRow("oldest first down to the limit")
        << 1 << QStringList{} << QStringList{QStringLiteral("h1"), QStringLiteral("h2")};
    QTest::newRow("live revisions survive even beyond the limit")
        << 1 << QStringList{QStringLiteral("h1"), QStringLiteral("h2"), QStringLiteral("h3")}
        << QStringList{};
    QTest::newRow("a live oldest revision is skipped, the next goes")
        << 2 << QStringList{QStringLiteral("h1")} << QStringList{QStringLiteral("h2")};
    QTest::newRow("limit 0 deletes every non-live old revision")
        << 0 << QStringList{QStringLiteral("h2")} << QStringList{QStringLiteral("h1"), QStringLiteral("h3")};
}

void TestDaemonSetLogic::cleanupHistory()
{
    QFETCH(int, limit);
    QFETCH(QStringList, live);
    QFETCH(QStringList, deleted);
    const auto a = cr("web-h3", 3, "c", "h3"), b = cr("web-h1", 1, "a", "h1"), c = cr("web-h2", 2, "b", "h2");
    std::set<std::string> liveSet;
    for (const auto &h : live)
        liveSet.insert(h.toStdString());
    QStringList got;
    for (const auto *k : api::cleanupHistory({&a, &b, &c}, limit, liveSet))
        got << QString::fromStdString(k->metadata.label(kube::kRevisionHashLabel));
    QCOMPARE(got, deleted);
}

void TestDaemonSetLogic::statusCountsFirstPodOfNode()
{
    // Node 0 surges: old (older, ready) + new (not ready): counts ready, not updated.
    Layout l = layout({"On", "N", "-", "!O"});
    l.entries[3].should = {false, false};
    const auto s = computeDaemonSetStatus(l.entries, "new", std::nullopt, 0, kNow);
    QCOMPARE(s.desiredNumberScheduled, 3);
    QCOMPARE(s.currentNumberScheduled, 2);
    QCOMPARE(s.numberMisscheduled, 1);
    QCOMPARE(s.numberReady, 2);
    QCOMPARE(s.numberAvailable, 2);
    QCOMPARE(s.updatedNumberScheduled, 1);
    QCOMPARE(s.numberUnavailable, 1);
}

void TestDaemonSetLogic::statusSharesAddUp_data()
{
    QTest::addColumn<QString>("before"); // one layout string per node, space-separated
    QTest::addColumn<int>("changed");    // index of the node whose pods change
    QTest::addColumn<QString>("after");
    QTest::newRow("a node's old pod is replaced by a new one")
        << QStringLiteral("O O N -") << 1 << QStringLiteral("N");
    QTest::newRow("a desired node gets its first pod") << QStringLiteral("N - n") << 1 << QStringLiteral("n");
    QTest::newRow("a surging node loses its old pod")
        << QStringLiteral("On N !O") << 0 << QStringLiteral("N");
    QTest::newRow("a node that should not run the pod empties")
        << QStringLiteral("N !O D") << 1 << QStringLiteral("!");
}

void TestDaemonSetLogic::statusSharesAddUp()
{
    QFETCH(QString, before);
    QFETCH(int, changed);
    QFETCH(QString, after);
    // The status is the sum of the nodes' shares, so a controller can replace one node's share
    // when that node's pods change instead of recounting every node.
    const QStringList nodes = before.split(QLatin1Char(' '));
    Layout l = layout(nodes);
    std::vector<StatusShare> shares;
    StatusShare total;
    for (const auto &e : l.entries) {
        shares.push_back(daemonSetStatusShare(e, "new", std::nullopt, 0, kNow));
        total += shares.back();
    }
    QCOMPARE(daemonSetStatusOf(total), computeDaemonSetStatus(l.entries, "new", std::nullopt, 0, kNow));

    QStringList next = nodes;
    next[changed] = after;
    Layout m = layout(next);
    const auto i = static_cast<std::size_t>(changed);
    total -= shares[i];
    total += daemonSetStatusShare(m.entries[i], "new", std::nullopt, 0, kNow);
    const kube::DaemonSetStatus expected = computeDaemonSetStatus(m.entries, "new", std::nullopt, 0, kNow);
    QCOMPARE(daemonSetStatusOf(total), expected);
    QVERIFY(!(daemonSetStatusOf(total) == computeDaemonSetStatus(l.entries, "new", std::nullopt, 0, kNow)));
}

void TestDaemonSetLogic::typicalRevisionData()
{
    Json ds = {
        {"spec",
         {{"template",
           {{"metadata", {{"labels", {{"app", "web"}}}}},
            {"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", "nginx:1.19"}}})}}}}}}}};
    kube::applyDaemonSetDefaults(ds);
    const std::string expected =
        R"({"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.19","imagePullPolicy":"IfNotPresent","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}})";
    QCOMPARE(daemonSetPatch(ds["spec"]["template"]), expected);
}

void TestDaemonSetLogic::hashVectors_data()
{
    QTest::addColumn<std::string>("input");
    QTest::addColumn<quint32>("fnv");
    QTest::addColumn<std::string>("encoded");
    QTest::newRow("empty input") << std::string() << 2166136261u << std::string("65bb57b6b5");
    QTest::newRow("a") << std::string("a") << 3826002220u << std::string("7d6b446664");
    QTest::newRow("hello") << std::string("hello") << 1335831723u << std::string("5779d75c67");
}

void TestDaemonSetLogic::hashVectors()
{
    QFETCH(std::string, input);
    QFETCH(quint32, fnv);
    QFETCH(std::string, encoded);
    QCOMPARE(kube::fnv1a32(input), fnv);
    QCOMPARE(kube::computeHash(input, std::nullopt), encoded);
    QVERIFY(kube::computeHash(input, 0) != encoded); // a non-nil zero collision count hashes differently
}

void TestDaemonSetLogic::strategicMerge_data()
{
    QTest::addColumn<QString>("original");
    QTest::addColumn<QString>("patch");
    QTest::addColumn<QString>("expected");
    QTest::newRow("containers merge by name; other fields stay")
        << QStringLiteral(
               R"({"containers":[{"name":"a","image":"x:1","args":["-v"]},{"name":"b","image":"y:1"}]})")
        << QStringLiteral(R"({"containers":[{"name":"b","image":"y:2"}]})")
        << QStringLiteral(
               R"({"containers":[{"args":["-v"],"image":"x:1","name":"a"},{"image":"y:2","name":"b"}]})");
    QTest::newRow("a new container is appended")
        << QStringLiteral(R"({"containers":[{"name":"a","image":"x:1"}]})")
        << QStringLiteral(R"({"containers":[{"name":"c","image":"z:1"}]})")
        << QStringLiteral(R"({"containers":[{"image":"x:1","name":"a"},{"image":"z:1","name":"c"}]})");
    QTest::newRow("$patch delete removes a container by its key")
        << QStringLiteral(R"({"containers":[{"name":"a","image":"x:1"},{"name":"sidecar","image":"s:1"}]})")
        << QStringLiteral(R"({"containers":[{"name":"sidecar","$patch":"delete"}]})")
        << QStringLiteral(R"({"containers":[{"image":"x:1","name":"a"}]})");
    QTest::newRow("env merges by name inside a container")
        << QStringLiteral(
               R"({"containers":[{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]})")
        << QStringLiteral(R"({"containers":[{"name":"a","env":[{"name":"B","value":"3"}]}]})")
        << QStringLiteral(
               R"({"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"3"}],"name":"a"}]})");
    QTest::newRow("ports merge by containerPort")
        << QStringLiteral(R"({"containers":[{"name":"a","ports":[{"containerPort":80,"protocol":"TCP"}]}]})")
        << QStringLiteral(R"({"containers":[{"name":"a","ports":[{"containerPort":80,"name":"http"}]}]})")
        << QStringLiteral(
               R"({"containers":[{"name":"a","ports":[{"containerPort":80,"name":"http","protocol":"TCP"}]}]})");
    QTest::newRow("tolerations are replaced whole")
        << QStringLiteral(R"({"tolerations":[{"key":"a"},{"key":"b"}]})")
        << QStringLiteral(R"({"tolerations":[{"key":"c"}]})")
        << QStringLiteral(R"({"tolerations":[{"key":"c"}]})");
    QTest::newRow("$patch replace on a map replaces it")
        << QStringLiteral(R"({"template":{"metadata":{"labels":{"app":"web","x":"y"}},"spec":{"a":1}}})")
        << QStringLiteral(R"({"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}}}})")
        << QStringLiteral(R"({"template":{"metadata":{"labels":{"app":"web"}}}})");
    QTest::newRow("null deletes a key") << QStringLiteral(R"({"a":1,"b":{"c":2}})")
                                        << QStringLiteral(R"({"b":null})") << QStringLiteral(R"({"a":1})");
    QTest::newRow("$patch replace as a list element replaces the list")
        << QStringLiteral(R"({"volumes":[{"name":"a"},{"name":"b"}]})")
        << QStringLiteral(R"({"volumes":[{"name":"c"},{"$patch":"replace"}]})")
        << QStringLiteral(R"({"volumes":[{"name":"c"}]})");
    QTest::newRow("finalizers merge as a set")
        << QStringLiteral(R"({"finalizers":["a"]})") << QStringLiteral(R"({"finalizers":["b","a"]})")
        << QStringLiteral(R"({"finalizers":["a","b"]})");
    QTest::newRow("$setElementOrder orders the merged list")
        << QStringLiteral(R"({"containers":[{"name":"a"},{"name":"b"}]})")
        << QStringLiteral(
               R"({"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"i"}]})")
        << QStringLiteral(R"({"containers":[{"name":"b"},{"image":"i","name":"a"}]})");
}

void TestDaemonSetLogic::strategicMerge()
{
    QFETCH(QString, original);
    QFETCH(QString, patch);
    QFETCH(QString, expected);
    auto r = strategicMergePatch(Json::parse(original.toStdString()), Json::parse(patch.toStdString()));
    QVERIFY(r.ok());
    QCOMPARE(QString::fromStdString(r->dump()),
             QString::fromStdString(Json::parse(expected.toStdString()).dump()));
}

QTEST_GUILESS_MAIN(TestDaemonSetLogic)
#include "tst_daemonsetlogic.moc"
