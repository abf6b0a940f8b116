// kubectl drain's decisions (k8s.io/kubectl/pkg/drain filters.go), table-driven: which pods a
// drain --ignore-daemonsets [--delete-emptydir-data] evicts, skips or refuses, kubectl's error
// and warning texts, and the words naming a pod a PodDisruptionBudget keeps in place.
#include "models/api/kubectldrain.h"

#include <QTest>

#include <map>
#include <optional>

using kube::Json;
using namespace api;

Q_DECLARE_METATYPE(api::DrainVerdict)

namespace {

kube::Pod pod(const Json &j)
{
    auto p = kube::Pod::fromJson(j);
    if (!p)
        qFatal("bad pod: %s", p.error().message.c_str());
    return *p;
}

Json podJson(const std::string &name, const std::string &ownerKind, const std::string &phase, bool emptyDir,
             bool mirror)
{
    Json j = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", "web"}}}}},
        {"spec", {{"nodeName", "node-1"}, {"containers", Json::array({{{"name", "c"}, {"image", "i:1"}}})}}},
        {"status", {{"phase", phase}}}};
    if (!ownerKind.empty())
        j["metadata"]["ownerReferences"] =
            Json::array({{{"apiVersion", ownerKind == "DaemonSet" ? "apps/v1" : "apps/v1"},
                          {"kind", ownerKind},
                          {"name", "owner"},
                          {"uid", "u-1"},
                          {"controller", true}}});
    if (emptyDir)
        j["spec"]["volumes"] = Json::array({{{"name", "scratch"}, {"emptyDir", Json::object()}}});
    if (mirror)
        j["metadata"]["annotations"] = {{kMirrorPodAnnotation, "abc"}};
    return j;
}

} // namespace

class TstKubectlDrain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void verdicts_data();
    void verdicts();
    void errorsAndWarningAreKubectls();
    void orphanedDaemonSetPodIsRefused();
    void budgetBlockNamesTheBudgetAndItsNumbers();
    void summaryCountsAndNamesBlockers();
    void aRunRetriesBlockedPodsThenNamesThem();
};

void TstKubectlDrain::verdicts_data()
{
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<bool>("emptyDir");
    QTest::addColumn<bool>("mirror");
    QTest::addColumn<bool>("deleteEmptyDirData");
    QTest::addColumn<DrainVerdict>("verdict");

    QTest::newRow("a ReplicaSet pod is evicted")
        << "ReplicaSet"
        << "Running" << false << false << false << DrainVerdict::Evict;
    QTest::newRow("a DaemonSet pod is skipped")
        << "DaemonSet"
        << "Running" << false << false << false << DrainVerdict::SkipDaemonSet;
    QTest::newRow("a DaemonSet pod with emptyDir is still skipped")
        << "DaemonSet"
        << "Running" << true << false << false << DrainVerdict::SkipDaemonSet;
    QTest::newRow("a mirror pod is skipped")
        << "Node"
        << "Running" << false << true << false << DrainVerdict::SkipMirror;
    QTest::newRow("an unmanaged mirror pod is skipped, not refused")
        << ""
        << "Running" << false << true << false << DrainVerdict::SkipMirror;
    QTest::newRow("a finished pod is removed without checks")
        << ""
        << "Succeeded" << true << false << false << DrainVerdict::EvictFinished;
    QTest::newRow("a failed DaemonSet pod is removed")
        << "DaemonSet"
        << "Failed" << false << false << false << DrainVerdict::EvictFinished;
    QTest::newRow("a finished mirror pod is skipped")
        << ""
        << "Failed" << false << true << false << DrainVerdict::SkipMirror;
    QTest::newRow("emptyDir is refused")
        << "ReplicaSet"
        << "Running" << true << false << false << DrainVerdict::RefuseLocalStorage;
    QTest::newRow("emptyDir is evicted with --delete-emptydir-data")
        << "ReplicaSet"
        << "Running" << true << false << true << DrainVerdict::Evict;
    QTest::newRow("an unmanaged pod is refused")
        << ""
        << "Running" << false << false << false << DrainVerdict::RefuseUnmanaged;
    QTest::newRow("an unmanaged pod with emptyDir is refused for its storage first")
        << ""
        << "Pending" << true << false << false << DrainVerdict::RefuseLocalStorage;
    QTest::newRow("an unmanaged pod with emptyDir and --delete-emptydir-data is refused as unmanaged")
        << ""
        << "Running" << true << false << true << DrainVerdict::RefuseUnmanaged;
}

void TstKubectlDrain::verdicts()
{
    QFETCH(QString, owner);
    QFETCH(QString, phase);
    QFETCH(bool, emptyDir);
    QFETCH(bool, mirror);
    QFETCH(bool, deleteEmptyDirData);
    QFETCH(DrainVerdict, verdict);
    const kube::Pod p = pod(podJson("p", owner.toStdString(), phase.toStdString(), emptyDir, mirror));
    DrainOptions o;
    o.deleteEmptyDirData = deleteEmptyDirData;
    const DrainPlan plan = getPodsForDeletion({&p}, o);
    QCOMPARE(plan.pods.size(), std::size_t(1));
    QCOMPARE(plan.pods[0].verdict, verdict);
    QCOMPARE(plan.refused(), plan.pods[0].refused());
    QCOMPARE(plan.toEvict().size(), std::size_t(plan.pods[0].evicts() ? 1 : 0));
}

void TstKubectlDrain::errorsAndWarningAreKubectls()
{
    const kube::Pod a = pod(podJson("a", "ReplicaSet", "Running", true, false));
    const kube::Pod b = pod(podJson("b", "", "Running", false, false));
    const kube::Pod c = pod(podJson("c", "ReplicaSet", "Running", true, false));
    const kube::Pod d = pod(podJson("d", "DaemonSet", "Running", false, false));
    const kube::Pod e = pod(podJson("e", "ReplicaSet", "Running", false, false));
    const DrainPlan plan = getPodsForDeletion({&a, &b, &c, &d, &e}, {});
    QVERIFY(plan.refused());
    const std::vector<std::string> want = {
        "cannot delete Pods declare no controller (use --force to override): default/b",
        "cannot delete Pods with local storage (use --delete-emptydir-data to override): default/a, "
        "default/c"};
    QCOMPARE(plan.errors(), want);
    QCOMPARE(plan.warning(), std::string("ignoring DaemonSet-managed Pods: default/d"));
    QCOMPARE(plan.toEvict().size(), std::size_t(1));
    QCOMPARE(plan.toEvict()[0].name, std::string("e"));

    DrainOptions noIgnore;
    noIgnore.ignoreDaemonSets = false;
    const DrainPlan strict = getPodsForDeletion({&d}, noIgnore);
    QCOMPARE(strict.errors(),
             std::vector<std::string>{
                 "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/d"});
}

void TstKubectlDrain::orphanedDaemonSetPodIsRefused()
{
    const kube::Pod d = pod(podJson("d", "DaemonSet", "Running", false, false));
    const auto gone = [](const std::string &, const std::string &) { return false; };
    QCOMPARE(getPodsForDeletion({&d}, {}, gone).pods[0].verdict, DrainVerdict::RefuseOrphan);
    DrainOptions force;
    force.force = true;
    QCOMPARE(getPodsForDeletion({&d}, force, gone).pods[0].verdict, DrainVerdict::Evict);
}

void TstKubectlDrain::budgetBlockNamesTheBudgetAndItsNumbers()
{
    auto b = kube::PodDisruptionBudget::fromJson(
        {{"apiVersion", "policy/v1"},
         {"kind", "PodDisruptionBudget"},
         {"metadata", {{"name", "web-pdb"}, {"namespace", "default"}}},
         {"spec", {{"minAvailable", 3}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}},
         {"status",
          {{"currentHealthy", 3}, {"desiredHealthy", 3}, {"expectedPods", 3}, {"disruptionsAllowed", 0}}}});
    QVERIFY(b);
    auto other = kube::PodDisruptionBudget::fromJson(
        {{"apiVersion", "policy/v1"},
         {"kind", "PodDisruptionBudget"},
         {"metadata", {{"name", "db"}, {"namespace", "default"}}},
         {"spec", {{"maxUnavailable", 0}, {"selector", {{"matchLabels", {{"app", "db"}}}}}}}});
    QVERIFY(other);
    const kube::Pod web = pod(podJson("web-x", "ReplicaSet", "Running", false, false));
    QCOMPARE(coveringBudget(web, {&*other, &*b}), &*b);
    QCOMPARE(coveringBudget(web, {&*other}), nullptr);
    QCOMPARE(budgetBlockText("web-x", &*b, "ignored"),
             std::string("web-x: cannot evict, would violate PodDisruptionBudget default/web-pdb "
                         "(minAvailable 3, 3 healthy of 3)"));
    QCOMPARE(budgetBlockText("web-x", nullptr,
                             "Cannot evict pod as it would violate the pod's disruption budget."),
             std::string(
                 "web-x: cannot evict: Cannot evict pod as it would violate the pod's disruption budget."));
}

void TstKubectlDrain::summaryCountsAndNamesBlockers()
{
    QCOMPARE(drainSummary(3, 3, 0, {}), std::string("drained 3 of 3 pods"));
    QCOMPARE(drainSummary(0, 1, 2, {"a: cannot evict"}),
             std::string("drained 0 of 1 pod; a: cannot evict; skipped 2 DaemonSet pods"));
    int total = 0;
    for (int d : drainRetryDelaysMs())
        total += d;
    QVERIFY(total > 0 && total <= 60000); // bounded: a console never waits for ever
}

void TstKubectlDrain::aRunRetriesBlockedPodsThenNamesThem()
{
    DrainPlan plan;
    for (const char *name : {"web-a", "api-b", "db-c", "gone-d"}) {
        DrainPodDecision d;
        d.namespace_ = "default";
        d.name = name;
        d.verdict = DrainVerdict::Evict;
        plan.pods.push_back(d);
    }
    DrainPodDecision agent;
    agent.namespace_ = "kube-system";
    agent.name = "agent-x";
    agent.verdict = DrainVerdict::SkipDaemonSet;
    plan.pods.push_back(agent);
    QVERIFY(plan.pods[0].evicts() && !agent.evicts());

    // api-b is refused by its budget twice, then goes; db-c fails for good; gone-d is gone.
    std::map<std::string, int> asked;
    const DrainRun::Evict evict = [&](const std::string &ns, const std::string &name) -> DrainRun::Answer {
        if (ns != "default")
            return {DrainRun::Eviction::Failed, "wrong namespace " + ns};
        const int n = ++asked[name];
        if (name == "api-b" && n <= 2)
            return {DrainRun::Eviction::Blocked,
                    "api-b: cannot evict, would violate PodDisruptionBudget default/api"};
        if (name == "db-c")
            return {DrainRun::Eviction::Failed, "db-c: etcdserver: request timed out"};
        return {DrainRun::Eviction::Evicted, {}};
    };
    DrainRun run(plan);
    QCOMPARE(run.round(evict, {100, 200, 400}), std::optional<int>(100));
    QVERIFY(!run.ok());
    QCOMPARE(run.round(evict, {100, 200, 400}), std::optional<int>(200));
    QCOMPARE(run.round(evict, {100, 200, 400}), std::optional<int>()); // nothing left to retry
    QCOMPARE(asked["api-b"], 3);
    QCOMPARE(asked["db-c"], 1); // a failure is not retried
    QCOMPARE(asked["web-a"], 1);
    QCOMPARE(
        run.summary(),
        std::string("drained 3 of 4 pods; db-c: etcdserver: request timed out; skipped 1 DaemonSet pod"));

    // Still blocked when the delays are used up: the outcome names the pod and its budget.
    DrainRun stuck(plan);
    const DrainRun::Evict refuse = [](const std::string &, const std::string &name) -> DrainRun::Answer {
        return {DrainRun::Eviction::Blocked, name + ": cannot evict"};
    };
    QCOMPARE(stuck.round(refuse, {100}), std::optional<int>(100));
    QCOMPARE(stuck.round(refuse, {100}), std::optional<int>());
    QVERIFY(!stuck.ok());
    QCOMPARE(stuck.summary(),
             std::string("drained 0 of 4 pods; web-a: cannot evict; api-b: cannot evict; db-c: "
                         "cannot evict; gone-d: cannot evict; skipped 1 DaemonSet pod"));
}

QTEST_GUILESS_MAIN(TstKubectlDrain)
#include "tst_kubectldrain.moc"
