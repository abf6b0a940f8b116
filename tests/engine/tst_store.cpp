// The object store and its API handler on their own (models/store, linked without the simulated
// cluster): requests answered with the API's rules, the informers every write reaches in the order
// they were added and before any watcher, the two index observers, graceful and immediate pod
// deletion, injected refusals and the eviction subresource's budget check.
#include "models/store/store.h"
#include "tests/support/replicaset.h"

#include <QTest>

using kube::Json;
using store::Store;
using store::StoreOptions;
using store::WatchEvent;

namespace {

constexpr kube::Timestamp kStart = 1767225600000; // 2026-01-01T00:00:00Z

StoreOptions options(bool graceful)
{
    StoreOptions o;
    o.seed = 5;
    o.start = kStart;
    o.gracefulDeletion = graceful;
    return o;
}

Json node(const std::string &name)
{
    return {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", name}}}};
}

// A pod bound to `nodeName`, controlled by the owner with `ownerUid` when it is not empty.
Json pod(const std::string &name, const std::string &nodeName, const std::string &ownerUid = {})
{
    Json p = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "shop"}, {"labels", {{"app", "web"}}}}},
              {"spec", {{"nodeName", nodeName}, {"containers", {{{"name", "web"}, {"image", "web:1"}}}}}}};
    if (!ownerUid.empty())
        p["metadata"]["ownerReferences"] = {{{"apiVersion", "apps/v1"},
                                             {"kind", "ReplicaSet"},
                                             {"name", "web"},
                                             {"uid", ownerUid},
                                             {"controller", true}}};
    return p;
}

Json setReady(Json n, const std::string &status)
{
    n["status"]["conditions"] = {{{"type", "Ready"}, {"status", status}, {"reason", "Test"}}};
    return n;
}

} // namespace

class TestStore : public QObject
{
    Q_OBJECT

private slots:
    void informersRunInOrderBeforeWatchers()
    {
        Store s(options(true));
        std::vector<std::string> seen;
        s.addInformer(api::Kind::Pod, [&](const WatchEvent &ev) { seen.push_back("first " + ev.name); });
        s.addInformer(api::Kind::Node, [&](const WatchEvent &ev) { seen.push_back("node " + ev.name); });
        s.watch(std::nullopt, [&](const WatchEvent &ev) {
            seen.push_back(std::string("watch ") + api::watchEventTypeName(ev.type) + " " + ev.name);
        });
        s.addInformer(api::Kind::Pod, [&](const WatchEvent &ev) { seen.push_back("second " + ev.name); });
        QVERIFY(s.create(node("n1")));
        QVERIFY(s.create(pod("a", "n1")));
        // The pod's namespace is created with it, and written first.
        const std::vector<std::string> expected = {"node n1", "watch ADDED n1", "watch ADDED shop",
                                                   "first a", "second a",       "watch ADDED a"};
        QCOMPARE(seen, expected);

        // A write that changes nothing reaches nobody; a dry run neither.
        seen.clear();
        auto stored = s.get(api::Kind::Pod, "shop", "a");
        QVERIFY(stored);
        QVERIFY(s.update(*stored));
        store::WriteOptions dry;
        dry.dryRun = true;
        Json relabelled = *stored;
        relabelled["metadata"]["labels"]["tier"] = "front";
        QVERIFY(s.update(relabelled, dry));
        QVERIFY(seen.empty());
        QVERIFY(s.update(relabelled));
        QCOMPARE(seen, (std::vector<std::string>{"first a", "second a", "watch MODIFIED a"}));
    }

    void ownedPodsObserverHearsEachWriteOfAnOwnedPod()
    {
        Store s(options(false));
        std::vector<std::pair<std::string, std::string>> told;
        s.setOwnedPodsObserver(
            [&](const std::string &uid, const std::string &n) { told.emplace_back(uid, n); });
        QVERIFY(s.create(pod("owned", "n1", "uid-rs")));
        QVERIFY(s.create(pod("orphan", "n1")));
        using Told = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(told, (Told{{"uid-rs", "n1"}}));
        told.clear();
        QVERIFY(s.remove(api::Kind::Pod, "shop", "owned"));
        QCOMPARE(told, (Told{{"uid-rs", "n1"}}));
        QVERIFY(s.pods.count("shop/orphan"));
        QVERIFY(!s.pods.count("shop/owned"));
    }

    void nodeReadinessObserverHearsOnlyReadinessChanges()
    {
        Store s(options(true));
        std::vector<std::string> told;
        s.setNodeReadinessObserver([&](const std::string &n) { told.push_back(n); });
        QVERIFY(s.create(node("n1")));
        QCOMPARE(told, std::vector<std::string>{"n1"}); // a new node
        told.clear();
        auto stored = s.get(api::Kind::Node, "", "n1");
        QVERIFY(stored);
        Json labelled = *stored;
        labelled["metadata"]["labels"]["zone"] = "a";
        QVERIFY(s.update(labelled));
        QVERIFY(told.empty());
        auto again = s.get(api::Kind::Node, "", "n1");
        QVERIFY(again);
        QVERIFY(s.updateStatus(setReady(*again, "False")));
        QCOMPARE(told, std::vector<std::string>{"n1"});
        QVERIFY(!s.nodes.at("n1").isReady());
    }

    void requestsFollowTheApiRules()
    {
        Store s(options(true));
        Json manifest = testsupport::replicaSetManifest("web", "shop", 2, "web", "web:1");
        manifest["metadata"]["labels"] = {{"app", "web"}};
        auto created = s.create(manifest);
        QVERIFY2(created, created ? "" : created.error().message.c_str());
        QCOMPARE((*created)["metadata"]["generation"].get<int>(), 1);
        QVERIFY(!(*created)["metadata"]["uid"].get<std::string>().empty());
        // Defaulting: the template's pod spec got the API server's defaults.
        QCOMPARE((*created)["spec"]["template"]["spec"]["restartPolicy"].get<std::string>(),
                 std::string("Always"));

        auto listed = s.list(api::Kind::ReplicaSet, "shop", "app=web");
        QVERIFY(listed);
        QCOMPARE((*listed)["items"].size(), std::size_t(1));
        auto none = s.list(api::Kind::ReplicaSet, "shop", "app=db");
        QVERIFY(none);
        QVERIFY((*none)["items"].empty());
        QCOMPARE(s.list(api::Kind::ReplicaSet, "shop", "app in (web").error().code, 400);

        // A spec change bumps the generation; a stale resourceVersion is a Conflict.
        auto patched = s.patch(api::Kind::ReplicaSet, "shop", "web", api::PatchType::Merge,
                               Json{{"spec", {{"replicas", 3}}}});
        QVERIFY(patched);
        QCOMPARE((*patched)["metadata"]["generation"].get<int>(), 2);
        Json stale = *created;
        stale["spec"]["replicas"] = 5;
        QCOMPARE(s.update(stale).error().code, 409);

        // Delete preconditions are checked against the stored object.
        api::DeleteOptions wrongUid;
        wrongUid.preconditions.uid = "not-the-uid";
        QCOMPARE(s.remove(api::Kind::ReplicaSet, "shop", "web", wrongUid).error().code, 409);
        QVERIFY(s.replicaSets.count("shop/web"));

        // An injected refusal answers the next write, once; the write after it is made.
        s.refuseWrites(api::Kind::ReplicaSet, "shop", "web", 1,
                       kube::ApiStatus{503, "ServiceUnavailable", "busy"});
        const Json four{{"spec", {{"replicas", 4}}}};
        QCOMPARE(s.patch(api::Kind::ReplicaSet, "shop", "web", api::PatchType::Merge, four).error().code,
                 503);
        QCOMPARE(s.replicaSets.at("shop/web").replicas(), 3);
        QVERIFY(s.patch(api::Kind::ReplicaSet, "shop", "web", api::PatchType::Merge, four));
        QCOMPARE(s.replicaSets.at("shop/web").replicas(), 4);
    }

    void podDeletionIsGracefulOnlyWhenAsked()
    {
        Store graceful(options(true));
        QVERIFY(graceful.create(pod("a", "n1")));
        QVERIFY(graceful.remove(api::Kind::Pod, "shop", "a"));
        QVERIFY(graceful.pods.count("shop/a"));
        QVERIFY(graceful.pods.at("shop/a").isDeleting());
        QCOMPARE(*graceful.pods.at("shop/a").metadata.deletionTimestamp, kStart + 30 * 1000);
        QVERIFY(graceful.remove(api::Kind::Pod, "shop", "a", std::int64_t(0)));
        QVERIFY(!graceful.pods.count("shop/a"));

        Store immediate(options(false));
        QVERIFY(immediate.create(pod("a", "n1")));
        QVERIFY(immediate.remove(api::Kind::Pod, "shop", "a"));
        QVERIFY(!immediate.pods.count("shop/a"));
    }

    void evictionRespectsTheBudget()
    {
        Store s(options(false));
        QVERIFY(s.create(pod("a", "n1")));
        // A pending pod is evicted without a look at its budget: this one runs and is Ready.
        auto running = s.get(api::Kind::Pod, "shop", "a");
        QVERIFY(running);
        (*running)["status"] = {{"phase", "Running"},
                                {"conditions", {{{"type", "Ready"}, {"status", "True"}}}}};
        QVERIFY(s.updateStatus(*running));
        Json budget = {{"apiVersion", "policy/v1"},
                       {"kind", "PodDisruptionBudget"},
                       {"metadata", {{"name", "web"}, {"namespace", "shop"}}},
                       {"spec", {{"minAvailable", 1}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}}};
        QVERIFY(s.create(budget));
        // No disruption controller has counted the pods yet: the budget allows none.
        auto refused = s.evict("shop", "a");
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, 429);
        QVERIFY(s.pods.count("shop/a"));
        // The disruption controller's status write allows one: the eviction spends it.
        auto stored = s.get(api::Kind::PodDisruptionBudget, "shop", "web");
        QVERIFY(stored);
        Json withStatus = *stored;
        withStatus["status"] = {{"observedGeneration", 1},
                                {"disruptionsAllowed", 1},
                                {"currentHealthy", 1},
                                {"desiredHealthy", 1},
                                {"expectedPods", 1}};
        QVERIFY(s.updateStatus(withStatus));
        QVERIFY(s.evict("shop", "a"));
        QVERIFY(!s.pods.count("shop/a"));
        QCOMPARE(s.pdbs.at("shop/web").status.disruptionsAllowed, 0);
        QVERIFY(s.pdbs.at("shop/web").status.disruptedPods.count("a"));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
