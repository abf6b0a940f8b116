// PodDisruptionBudgets in the embedded cluster: the disruption controller's status arithmetic
// (pkg/controller/disruption: getExpectedPodCount, countHealthyPods, buildDisruptedPodMap,
// updatePdbStatus, failSafe) and the eviction subresource's decisions
// (pkg/registry/core/pod/storage/eviction.go: canIgnorePDB, getPodDisruptionBudgets,
// checkAndDecrement), checked through Cluster's public API in continuous mode.
#include "models/sim/cluster.h"
#include "models/sim/disruptioncontroller.h"
#include "tests/support/replicaset.h"

#include <QTest>

using kube::Json;
using namespace sim;
using namespace api;

namespace {

ClusterOptions options()
{
    ClusterOptions o;
    o.seed = 3;
    o.mode = Mode::Continuous;
    o.start = 1767225600000; // 2026-01-01T00:00:00Z
    o.kubelet.jitter = 0;
    return o;
}

Json replicaSet(const std::string &name, int replicas)
{
    return testsupport::replicaSetManifest(name, "shop", replicas, name, name + ":1");
}

Json budget(const std::string &name, const std::string &app, const Json &spec)
{
    Json b = {{"apiVersion", "policy/v1"},
              {"kind", "PodDisruptionBudget"},
              {"metadata", {{"name", name}, {"namespace", "shop"}}},
              {"spec", spec}};
    b["spec"]["selector"] = {{"matchLabels", {{"app", app}}}};
    return b;
}

// A cluster with three nodes and ReplicaSet `api` with `replicas` Ready pods.
std::unique_ptr<Cluster> shop(int replicas)
{
    auto c = std::make_unique<Cluster>(options());
    for (int i = 0; i < 3; ++i)
        (void)c->create(
            {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "node-" + std::to_string(i)}}}});
    (void)c->create(replicaSet("api", replicas));
    c->runUntil([&] { return c->podsReady(replicas); }, 60000);
    return c;
}

const kube::PodDisruptionBudget *pdb(Cluster &c, const std::string &name)
{
    for (const auto *b : c.podDisruptionBudgets())
        if (b->metadata.name == name)
            return b;
    return nullptr;
}

std::vector<std::string> podNames(Cluster &c, const std::string &app, bool includeDeleting = false)
{
    std::vector<std::string> out;
    for (const auto *p : c.pods())
        if (p->metadata.label("app") == app && (includeDeleting || !p->isDeleting()))
            out.push_back(p->metadata.name);
    return out;
}

} // namespace

class TestDisruption : public QObject
{
    Q_OBJECT

private slots:
    void minAvailableCountsTheSelectedPods();
    void maxUnavailableUsesTheControllersScale();
    void percentageOverDaemonSetPodsFailsSafe();
    void unreadyAndDeletingPodsAreNotHealthy();
    void evictionSpendsTheBudgetThenRefuses();
    void evictionOfPendingPodIgnoresTheBudget();
    void unhealthyPodEvictionFollowsThePolicy();
    void twoBudgetsOverOnePodAreRefused();
    void dryRunEvictionChangesNothing();
    void budgetWaitingForItsControllerRefuses();
    void invalidBudgetsAreRefusedWithCauses();
    void disruptedPodsExpireAfterTheDeletionTimeout();
};

void TestDisruption::minAvailableCountsTheSelectedPods()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 2}})).ok());
    c->advance(100);
    const auto *b = pdb(*c, "api");
    QVERIFY(b);
    QCOMPARE(b->status.expectedPods, 3);
    QCOMPARE(b->status.currentHealthy, 3);
    QCOMPARE(b->status.desiredHealthy, 2);
    QCOMPARE(b->status.disruptionsAllowed, 1);
    QCOMPARE(b->status.observedGeneration, b->metadata.generation);
    const auto *cond = b->status.condition("DisruptionAllowed");
    QVERIFY(cond);
    QCOMPARE(cond->status, std::string("True"));
    QCOMPARE(cond->reason, std::string("SufficientPods"));

    // A budget that selects nothing allows nothing, and says so in an event.
    QVERIFY(c->create(budget("none", "nothing", {{"minAvailable", 0}})).ok());
    c->advance(100);
    QCOMPARE(pdb(*c, "none")->status.disruptionsAllowed, 0);
    QCOMPARE(pdb(*c, "none")->status.condition("DisruptionAllowed")->reason, std::string("InsufficientPods"));
    bool noPods = false;
    for (const auto *e : c->events())
        noPods = noPods || (e->reason == "NoPods" && e->involvedObject.name == "none");
    QVERIFY(noPods);
}

void TestDisruption::maxUnavailableUsesTheControllersScale()
{
    auto c = shop(4);
    QVERIFY(c->create(budget("api", "api", {{"maxUnavailable", "25%"}})).ok());
    c->advance(100);
    QCOMPARE(pdb(*c, "api")->status.expectedPods, 4);
    QCOMPARE(pdb(*c, "api")->status.desiredHealthy, 3); // 25% of 4 rounded up is 1
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 1);
    // Scaling the ReplicaSet moves the expected count with it.
    QVERIFY(c->patch(Kind::ReplicaSet, "shop", "api", PatchType::Merge, {{"spec", {{"replicas", 8}}}}).ok());
    c->runUntil([&] { return c->podsReady(8); }, 60000);
    c->advance(100);
    QCOMPARE(pdb(*c, "api")->status.expectedPods, 8);
    QCOMPARE(pdb(*c, "api")->status.desiredHealthy, 6);
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 2);
}

void TestDisruption::percentageOverDaemonSetPodsFailsSafe()
{
    auto c = shop(1);
    Json ds = {{"apiVersion", "apps/v1"},
               {"kind", "DaemonSet"},
               {"metadata", {{"name", "agent"}, {"namespace", "shop"}}},
               {"spec",
                {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
                 {"template",
                  {{"metadata", {{"labels", {{"app", "agent"}}}}},
                   {"spec", {{"containers", Json::array({{{"name", "a"}, {"image", "agent:1"}}})}}}}}}}};
    QVERIFY(c->create(ds).ok());
    c->runUntil([&] { return c->podsReady(4); }, 60000);
    QVERIFY(c->create(budget("agent", "agent", {{"maxUnavailable", 1}})).ok());
    c->advance(100);
    const auto *b = pdb(*c, "agent");
    QCOMPARE(b->status.disruptionsAllowed, 0);
    const auto *cond = b->status.condition("DisruptionAllowed");
    QVERIFY(cond);
    QCOMPARE(cond->status, std::string("False"));
    QCOMPARE(cond->reason, std::string("SyncFailed"));
    QVERIFY(cond->message.rfind("found no controllers for pod \"agent-", 0) == 0);
    // An integer minAvailable needs no scale: the same pods are counted.
    QVERIFY(c->create(budget("agent-min", "agent", {{"minAvailable", 1}})).ok());
    c->advance(100);
    QCOMPARE(pdb(*c, "agent-min")->status.expectedPods, 3);
    QCOMPARE(pdb(*c, "agent-min")->status.disruptionsAllowed, 2);
}

void TestDisruption::unreadyAndDeletingPodsAreNotHealthy()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 1}})).ok());
    c->advance(100);
    QCOMPARE(pdb(*c, "api")->status.currentHealthy, 3);
    const auto names = podNames(*c, "api");
    QVERIFY(c->markReady({"shop/" + names[0]}, false).ok());
    c->advance(10);
    QCOMPARE(pdb(*c, "api")->status.currentHealthy, 2);
    QVERIFY(c->remove(Kind::Pod, "shop", names[1]).ok()); // graceful: a deletionTimestamp first
    c->advance(10);
    QCOMPARE(pdb(*c, "api")->status.currentHealthy, 1);
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 0);
}

void TestDisruption::evictionSpendsTheBudgetThenRefuses()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 2}})).ok());
    c->advance(100);
    const auto names = podNames(*c, "api");
    const auto first = c->evict("shop", names[0]);
    QVERIFY2(first.ok(), first.ok() ? "" : first.error().message.c_str());
    // The budget was spent before the pod went, and the pod is on its way out.
    QVERIFY(c->pod("shop", names[0])->isDeleting());
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 0);
    QCOMPARE(pdb(*c, "api")->status.disruptedPods.count(names[0]), std::size_t(1));
    c->advance(10); // the controller's sync: the deleting pod no longer counts

    const auto second = c->evict("shop", names[1]);
    QVERIFY(!second.ok());
    QCOMPARE(second.error().code, 429);
    QCOMPARE(second.error().reason, std::string("TooManyRequests"));
    QCOMPARE(second.error().message,
             std::string("Cannot evict pod as it would violate the pod's disruption budget."));
    QCOMPARE(second.error().causes.size(), std::size_t(1));
    QCOMPARE(second.error().causes[0].type, std::string("DisruptionBudget"));
    QCOMPARE(second.error().causes[0].message,
             std::string("The disruption budget api needs 2 healthy pods and has 2 currently"));
    QVERIFY(!c->pod("shop", names[1])->isDeleting());

    // Once the ReplicaSet's replacement is Ready, the budget allows the next one.
    c->runUntil([&] { return pdb(*c, "api")->status.disruptionsAllowed == 1; }, 60000);
    QVERIFY(c->evict("shop", names[1]).ok());
    QVERIFY(!c->evict("shop", "no-such-pod").ok());
    QCOMPARE(c->evict("shop", "no-such-pod").error().code, 404);
}

void TestDisruption::evictionOfPendingPodIgnoresTheBudget()
{
    auto c = shop(2);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 2}})).ok());
    c->advance(100);
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 0);
    // Cordon every node, scale up: the new pod stays Pending and may go without a budget.
    for (int i = 0; i < 3; ++i)
        QVERIFY(c->cordon("node-" + std::to_string(i)).ok());
    QVERIFY(c->patch(Kind::ReplicaSet, "shop", "api", PatchType::Merge, {{"spec", {{"replicas", 3}}}}).ok());
    std::string pending;
    c->runUntil(
        [&] {
            for (const auto *p : c->pods())
                if (p->phase == "Pending")
                    pending = p->metadata.name;
            return !pending.empty();
        },
        60000);
    QVERIFY(!pending.empty());
    QVERIFY(c->evict("shop", pending).ok());
    QVERIFY(!c->pod("shop", pending) || c->pod("shop", pending)->isDeleting());
    QCOMPARE(pdb(*c, "api")->status.disruptedPods.size(), std::size_t(0));
}

void TestDisruption::unhealthyPodEvictionFollowsThePolicy()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 3}})).ok());
    c->advance(100);
    const auto names = podNames(*c, "api");
    QVERIFY(c->markReady({"shop/" + names[0]}, false).ok());
    c->advance(10);
    // IfHealthyBudget (the default): the budget is not met (2 of 3), so even the unready pod
    // must wait.
    QCOMPARE(c->evict("shop", names[0]).error().code, 429);
    QVERIFY(c->patch(Kind::PodDisruptionBudget, "shop", "api", PatchType::Merge,
                     {{"spec", {{"unhealthyPodEvictionPolicy", "AlwaysAllow"}}}})
                .ok());
    c->advance(10);
    QVERIFY(c->evict("shop", names[0]).ok());
    QVERIFY(c->pod("shop", names[0])->isDeleting());
    // A Ready pod still needs the budget.
    QCOMPARE(c->evict("shop", names[1]).error().code, 429);

    // IfHealthyBudget with the budget met: an unready pod goes without spending it.
    auto d = shop(3);
    QVERIFY(d->create(budget("api", "api", {{"minAvailable", 1}})).ok());
    d->advance(100);
    const auto dn = podNames(*d, "api");
    QVERIFY(d->markReady({"shop/" + dn[0]}, false).ok());
    d->advance(10);
    QCOMPARE(pdb(*d, "api")->status.disruptionsAllowed, 1);
    QVERIFY(d->evict("shop", dn[0]).ok());
    QCOMPARE(pdb(*d, "api")->status.disruptedPods.count(dn[0]), std::size_t(0));
}

void TestDisruption::twoBudgetsOverOnePodAreRefused()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("a", "api", {{"minAvailable", 1}})).ok());
    QVERIFY(c->create(budget("b", "api", {{"maxUnavailable", 1}})).ok());
    c->advance(100);
    const auto r = c->evict("shop", podNames(*c, "api")[0]);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 500);
    QCOMPARE(r.error().message, std::string("This pod has more than one PodDisruptionBudget, which the "
                                            "eviction subresource does not support."));
}

void TestDisruption::dryRunEvictionChangesNothing()
{
    auto c = shop(3);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 2}})).ok());
    c->advance(100);
    const std::uint64_t rv = c->resourceVersion();
    EvictOptions dry;
    dry.dryRun = true;
    const auto name = podNames(*c, "api")[0];
    QVERIFY(c->evict("shop", name, dry).ok());
    QCOMPARE(c->resourceVersion(), rv);
    QVERIFY(!c->pod("shop", name)->isDeleting());
    // Preconditions are checked as for a deletion.
    EvictOptions wrongUid;
    wrongUid.preconditions.uid = "not-the-uid";
    QCOMPARE(c->evict("shop", name, wrongUid).error().code, 409);
    QCOMPARE(c->resourceVersion(), rv);
}

void TestDisruption::budgetWaitingForItsControllerRefuses()
{
    // A status written by someone else lags the budget's generation until the controller has
    // synced it again (in continuous mode that happens after the current task): meanwhile
    // evictions are refused with a retry hint.
    auto c = shop(2);
    QVERIFY(c->create(budget("api", "api", {{"minAvailable", 0}})).ok());
    c->advance(100);
    Json stale = *c->get(Kind::PodDisruptionBudget, "shop", "api");
    stale["status"]["observedGeneration"] = 0;
    stale["status"]["disruptionsAllowed"] = 5;
    QVERIFY(c->updateStatus(stale).ok());
    const auto name = podNames(*c, "api")[0];
    const auto r = c->evict("shop", name);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 429);
    QCOMPARE(r.error().retryAfterSeconds, 10);
    QCOMPARE(r.error().causes.at(0).message,
             std::string("The disruption budget api is still being processed by the server."));
    c->advance(10); // the controller's sync
    QCOMPARE(pdb(*c, "api")->status.observedGeneration, 1);
    QCOMPARE(pdb(*c, "api")->status.disruptionsAllowed, 2);
    QVERIFY(c->evict("shop", name).ok());
}

void TestDisruption::invalidBudgetsAreRefusedWithCauses()
{
    Cluster c(options());
    const auto both = c.create(budget("x", "api", {{"minAvailable", 1}, {"maxUnavailable", 1}}));
    QVERIFY(!both.ok());
    QCOMPARE(both.error().code, 422);
    QVERIFY(both.error().message.find("minAvailable and maxUnavailable cannot be both set") !=
            std::string::npos);
    const auto bad =
        c.create(budget("y", "api", {{"minAvailable", -1}, {"unhealthyPodEvictionPolicy", "Never"}}));
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().code, 422);
    QCOMPARE(bad.error().causes.size(), std::size_t(2));
    QCOMPARE(bad.error().causes[0].field, std::string("spec.minAvailable"));
    QCOMPARE(bad.error().causes[0].type, std::string("FieldValueInvalid"));
    QCOMPARE(bad.error().causes[0].message,
             std::string("Invalid value: -1: must be greater than or equal to 0"));
    QCOMPARE(bad.error().causes[1].field, std::string("spec.unhealthyPodEvictionPolicy"));
    QCOMPARE(bad.error().causes[1].type, std::string("FieldValueNotSupported"));
    const auto pct = c.create(budget("z", "api", {{"maxUnavailable", "150%"}}));
    QVERIFY(!pct.ok());
    QVERIFY(pct.error().message.find("must not be greater than 100%") != std::string::npos);
    const auto typed = c.create(budget("w", "api", {{"minAvailable", Json::array()}}));
    QVERIFY(!typed.ok());
    QCOMPARE(typed.error().code, 400);
    QVERIFY(typed.error().message.find("spec.minAvailable") != std::string::npos);
}

void TestDisruption::disruptedPodsExpireAfterTheDeletionTimeout()
{
    // computePdbStatus alone: an allowed eviction whose pod was never deleted stops counting
    // against the pod after DeletionTimeout.
    kube::PodDisruptionBudget b;
    b.metadata.name = "api";
    b.metadata.generation = 1;
    b.spec.minAvailable = kube::IntOrString::fromInt(1);
    b.spec.selector = kube::LabelSelector{};
    const kube::Timestamp t0 = 1767225600000;
    b.status.disruptedPods["p0"] = t0;
    kube::Pod p0, p1;
    p0.metadata.name = "p0";
    p1.metadata.name = "p1";
    p0.ready = p1.ready = true;
    const std::vector<const kube::Pod *> pods = {&p0, &p1};
    const PdbSync during = computePdbStatus(b, pods, {}, t0 + 1000);
    QCOMPARE(during.status.currentHealthy, 1);
    QCOMPARE(during.status.disruptionsAllowed, 0);
    QCOMPARE(during.status.disruptedPods.count("p0"), std::size_t(1));
    QVERIFY(during.recheck.has_value());
    QCOMPARE(*during.recheck, t0 + kPdbDeletionTimeout);
    const PdbSync after = computePdbStatus(b, pods, {}, t0 + kPdbDeletionTimeout + 1);
    QCOMPARE(after.status.currentHealthy, 2);
    QCOMPARE(after.status.disruptionsAllowed, 1);
    QVERIFY(after.status.disruptedPods.empty());
}

QTEST_GUILESS_MAIN(TestDisruption)
#include "tst_disruption.moc"
