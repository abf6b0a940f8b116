// The embedded cluster through its public facade: API semantics (defaulting, generations,
// validation messages, optimistic concurrency, watch sequences), the DaemonSet controller's
// history and rollout behaviour (daemonset-semantics.md §6 worked example and variants), kubectl
// texts, pause/resume, continuous mode with kubelet, scheduler and ReplicaSets, determinism.
#include "models/api/daemonsetlogic.h"
#include "models/api/nodeupgradelogic.h"
#include "models/api/nodeupgraderollout.h"
#include "models/kube/jsonfield.h"
#include "models/scenario/scenarioparser.h"
#include "models/scenario/scenariorunner.h"
#include "models/sim/cluster.h"
#include "models/sim/nodeupgradeagent.h"
#include "models/sim/nodeupgraderolloutstore.h"
#include "tests/support/replicaset.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtCore/qfloat16.h>

using kube::Json;
using namespace sim;
using namespace api;

namespace {

Json nodeManifest(const std::string &name)
{
    return {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", name}}}};
}

Json webDs(const std::string &image, const Json &specExtra = Json::object())
{
    Json ds = {{"apiVersion", "apps/v1"},
               {"kind", "DaemonSet"},
               {"metadata", {{"name", "web"}, {"namespace", "default"}}},
               {"spec",
                {{"selector", {{"matchLabels", {{"app", "web"}}}}},
                 {"template",
                  {{"metadata", {{"labels", {{"app", "web"}}}}},
                   {"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", image}}})}}}}}}}};
    ds["spec"].merge_patch(specExtra);
    return ds;
}

Json imagePatch(const std::string &image)
{
    return {
        {"spec",
         {{"template", {{"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", image}}})}}}}}}}};
}

ClusterOptions stepped(std::uint64_t seed = 1)
{
    ClusterOptions o;
    o.seed = seed;
    o.mode = Mode::Stepped;
    o.start = 1767225600000; // 2026-01-01T00:00:00Z
    return o;
}

ClusterOptions continuous(std::uint64_t seed = 1)
{
    ClusterOptions o = stepped(seed);
    o.mode = Mode::Continuous;
    return o;
}

void addNodes(Cluster &c, int n)
{
    for (int i = 0; i < n; ++i)
        QVERIFY(c.create(nodeManifest("node-" + std::to_string(i))).ok());
}

std::vector<std::string> keys(const std::vector<const kube::Pod *> &pods, std::optional<bool> ready = {})
{
    std::vector<std::string> out;
    for (const auto *p : pods)
        if (!ready || p->ready == *ready)
            out.push_back(p->metadata.namespace_ + "/" + p->metadata.name);
    return out;
}

// Stepped mode: sync, mark every new pod Ready, repeat until the rollout is complete.
int rollOut(Cluster &c, int maxSyncs = 100)
{
    for (int i = 0; i < maxSyncs; ++i) {
        const SyncResult r = c.syncDaemonSet("default", "web");
        if (!r.ok)
            continue;
        (void)c.markReady(keys(c.podsOf("default", "web"), false), true);
        if (r.creates.empty() && r.deletes.empty() && c.rolloutComplete("default", "web"))
            return i + 1;
    }
    return -1;
}

std::map<std::string, std::int64_t> revisionByHash(Cluster &c)
{
    std::map<std::string, std::int64_t> out;
    for (const auto *cr : c.controllerRevisionsOf("default", "web"))
        out[cr->metadata.label(kube::kRevisionHashLabel)] = cr->revision;
    return out;
}

std::string currentHash(Cluster &c)
{
    const auto *ds = c.daemonSet("default", "web");
    return templateHash(ds->podTemplate(), ds->status.collisionCount);
}

} // namespace

class TestCluster : public QObject
{
    Q_OBJECT

private slots:
    void daemonPodOnAFullNodeStaysPending();
    void kubeletReportsWhatItDoesToPods();
    void stoppedLogsKeepNothingButTheEvents();
    void podsGetDefaultTolerationSeconds();
    void noExecuteTaintEvictsAfterTolerationSeconds();
    void applyKeepsWhatOtherClientsSet();
    void unreachableNodeMarksItsPodsNotReady();
    void restatingATemplateCanonicallyRollsNothing();
    void adoptedPodWithoutATargetNodeIsSkipped();
    void buildClusterEndingAtMovesOnlyTheClock();
    void scenarioRunKeepsLogsOnlyForAReader_data();
    void scenarioRunKeepsLogsOnlyForAReader();
    void createDefaultsAndGenerations();
    void validationMessages_data();
    void validationMessages();
    void staleResourceVersionConflicts();
    void typedNodeStatusWritesWhatTheJsonPathWrites();
    void typedRolloutStatusWritesWhatTheJsonPathWrites();
    void dryRunWritesStoreNothing();
    void notFoundAndAlreadyExists();
    void workedExample();
    void workedExampleWithHistoryLimitOne();
    void workedExampleWithCollision();
    void historyTableWithChangeCause();
    void historyRevisionDescribesTemplate();
    void rolloutStatusMessages();
    void pauseAndResume();
    void podsCarryLabelsTolerationsAndOwner();
    void watchSequenceOfGracefulDeletion();
    void revisionDataIsTheTypicalExample();
    void expectationsDeferRollingUpdateInContinuousMode();
    void continuousRolloutCompletes_data();
    void continuousRolloutCompletes();
    void failingImageStallsRollout();
    void notReadyNodeMakesPodsNotReady();
    void replicaSetPodsAreScheduled();
    void schedulerPicksTheLeastLoadedNodeThenTheFirstByName();
    void annotateNodeWritesWhatAMergePatchWrites();
    void sameSeedSameCluster();
    void eventsExpireAfterAnHour();
    void aRewrittenOrDeletedEventTakesNoMoreRepeats();
    void selectPods();
    void deletionsCheckTheirPreconditions();
    void statusPatchesWriteTheStatusOnly();
    void deletePropagation_data();
    void deletePropagation();
    void aRefusedJobPodDeletionFailsTheSyncAndIsRequeuedWithBackoff();
    void aRefusedTaintEvictionIsRetriedWithBackoffUntilCancelled();
    void aRefusedAgentNodeWriteIsRetriedAfterTheStatusInterval();
    void aRefusedJobPodStatusIsRetriedByTheAgent();
    void aRefusedReplicaSetPodDeletionIsReportedAndRetried();
    void aRefusedDaemonSetPodDeletionIsReportedAndRetried();
};

void TestCluster::createDefaultsAndGenerations()
{
    Cluster c(stepped());
    auto created = c.create(webDs("nginx:1.19"));
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    const Json &ds = *created;
    QCOMPARE(ds["metadata"]["generation"].get<int>(), 1);
    QCOMPARE(ds["metadata"]["annotations"][kube::kTemplateGenerationAnnotation].get<std::string>(),
             std::string("1"));
    QCOMPARE(ds["spec"]["updateStrategy"].dump(),
             std::string(R"({"rollingUpdate":{"maxSurge":0,"maxUnavailable":1},"type":"RollingUpdate"})"));
    QCOMPARE(ds["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"].get<std::string>(),
             std::string("IfNotPresent"));
    QVERIFY(!ds["metadata"]["uid"].get<std::string>().empty());
    // The first apply of the same manifest records its field manager (metadata only: the
    // generation stays); applying it again changes nothing, not even the resourceVersion.
    auto first = c.apply(webDs("nginx:1.19"));
    QVERIFY(first.ok());
    QCOMPARE((*first)["metadata"]["generation"].get<int>(), 1);
    QCOMPARE((*first)["metadata"]["managedFields"][0]["operation"], "Apply");
    const std::string rv = (*first)["metadata"]["resourceVersion"];
    auto same = c.apply(webDs("nginx:1.19"));
    QVERIFY(same.ok());
    QCOMPARE((*same)["metadata"]["resourceVersion"].get<std::string>(), rv);

    // A template change bumps generation and template generation.
    auto changed = c.apply(webDs("nginx:1.20"));
    QVERIFY(changed.ok());
    QCOMPARE((*changed)["metadata"]["generation"].get<int>(), 2);
    QCOMPARE((*changed)["metadata"]["annotations"][kube::kTemplateGenerationAnnotation].get<std::string>(),
             std::string("2"));

    // A non-template spec change bumps only generation.
    auto other =
        c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge, {{"spec", {{"minReadySeconds", 5}}}});
    QVERIFY(other.ok());
    QCOMPARE((*other)["metadata"]["generation"].get<int>(), 3);
    QCOMPARE((*other)["metadata"]["annotations"][kube::kTemplateGenerationAnnotation].get<std::string>(),
             std::string("2"));
    QCOMPARE((*other)["metadata"]["uid"], ds["metadata"]["uid"]);
}

void TestCluster::validationMessages_data()
{
    QTest::addColumn<QString>("specPatch");
    QTest::addColumn<QString>("message");
    QTest::newRow("maxSurge with the default maxUnavailable is refused")
        << QStringLiteral(R"({"updateStrategy":{"rollingUpdate":{"maxSurge":1}}})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero)");
    QTest::newRow("both budgets zero is refused")
        << QStringLiteral(R"({"updateStrategy":{"rollingUpdate":{"maxUnavailable":0}}})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0)");
    QTest::newRow("a percentage above 100 is refused")
        << QStringLiteral(R"({"updateStrategy":{"rollingUpdate":{"maxUnavailable":"120%"}}})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%)");
    QTest::newRow("template labels must match the selector")
        << QStringLiteral(R"({"template":{"metadata":{"labels":{"app":"other"}}}})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`)");
    QTest::newRow("restartPolicy must be Always")
        << QStringLiteral(R"({"template":{"spec":{"restartPolicy":"Never"}}})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always")");
    QTest::newRow("negative minReadySeconds and revisionHistoryLimit are both reported")
        << QStringLiteral(R"({"minReadySeconds":-1,"revisionHistoryLimit":-2})")
        << QStringLiteral(
               R"(DaemonSet.apps "web" is invalid: [spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0, spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0])");
}

void TestCluster::validationMessages()
{
    QFETCH(QString, specPatch);
    QFETCH(QString, message);
    Cluster c(stepped());
    auto r = c.create(webDs("nginx:1.19", Json::parse(specPatch.toStdString())));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().reason, std::string("Invalid"));
    QCOMPARE(r.error().code, 422);
    QCOMPARE(QString::fromStdString(r.error().message), message);
}

// dryRun=All (metav1.CreateOptions/UpdateOptions/PatchOptions): the answer is the object as it
// would be stored, defaulted, validated and with its generation moved; the store, the global
// resourceVersion and the watchers see nothing.
void TestCluster::dryRunWritesStoreNothing()
{
    Cluster c(continuous());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.26")).ok());
    c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000);
    int events = 0;
    c.watchAll([&](const WatchEvent &) { ++events; });
    const std::uint64_t rv = c.resourceVersion();
    WriteOptions dry;
    dry.dryRun = true;

    Json other = webDs("nginx:1.26");
    other["metadata"]["name"] = "other";
    other["metadata"]["namespace"] = "elsewhere";
    const auto created = c.create(other, dry);
    QVERIFY(created.ok());
    QCOMPARE((*created)["metadata"]["generation"], Json(1));
    QVERIFY(!(*created)["metadata"].value("uid", "").empty());
    QVERIFY(!(*created)["metadata"].contains("resourceVersion"));
    QCOMPARE((*created)["spec"]["updateStrategy"]["type"], Json("RollingUpdate")); // defaulted
    QVERIFY(!c.get(Kind::DaemonSet, "elsewhere", "other").ok());
    QCOMPARE(c.namespaces().size(), std::size_t(1)); // not even the namespace

    const auto patched =
        c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.27"), dry);
    QVERIFY(patched.ok());
    QCOMPARE((*patched)["metadata"]["generation"], Json(2));
    QCOMPARE((*patched)["spec"]["template"]["spec"]["containers"][0]["image"], Json("nginx:1.27"));
    QCOMPARE((*patched)["metadata"]["resourceVersion"],
             c.get(Kind::DaemonSet, "default", "web").value()["metadata"]["resourceVersion"]);
    QCOMPARE(c.daemonSet("default", "web")->metadata.generation, 1);

    // Validation still runs: an invalid update is refused as it would be without the dry run.
    Json bad = *c.get(Kind::DaemonSet, "default", "web");
    bad["spec"]["selector"] = {{"matchLabels", {{"app", "other"}}}};
    const auto refused = c.update(bad, dry);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, 422);

    Json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"generateName", "probe-"}, {"namespace", "default"}}},
                {"spec", {{"containers", Json::array({{{"name", "p"}, {"image", "busybox"}}})}}}};
    const auto dryPod = c.create(pod, dry);
    QVERIFY(dryPod.ok());
    const std::string generated = (*dryPod)["metadata"]["name"].get<std::string>();
    QVERIFY(generated.rfind("probe-", 0) == 0 && generated.size() == 11);
    QVERIFY(!c.pod("default", generated));

    Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "dry"}}}};
    QVERIFY(c.create(ns, dry).ok());
    QCOMPARE(c.namespaces().size(), std::size_t(1));

    QCOMPARE(c.resourceVersion(), rv);
    QCOMPARE(events, 0);
}

void TestCluster::staleResourceVersionConflicts()
{
    Cluster c(stepped());
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    auto first = c.get(Kind::DaemonSet, "default", "web");
    QVERIFY(first.ok());
    Json stale = *first;
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge, {{"spec", {{"minReadySeconds", 3}}}})
                .ok());
    stale["spec"]["minReadySeconds"] = 7;
    auto r = c.update(stale);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().reason, std::string("Conflict"));
    QCOMPARE(r.error().code, 409);
    QCOMPARE(
        r.error().message,
        std::string("Operation cannot be fulfilled on daemonsets.apps \"web\": the object has been modified; "
                    "please apply your changes to the latest version and try again"));
    // A patch carrying a stale resourceVersion is a precondition failure too.
    Json p = {{"metadata", {{"resourceVersion", (*first)["metadata"]["resourceVersion"]}}},
              {"spec", {{"minReadySeconds", 9}}}};
    QCOMPARE(c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge, p).error().reason,
             std::string("Conflict"));
    // With the current resourceVersion the update goes through and bumps it.
    auto fresh = c.get(Kind::DaemonSet, "default", "web");
    Json ok = *fresh;
    ok["spec"]["minReadySeconds"] = 7;
    auto r2 = c.update(ok);
    QVERIFY(r2.ok());
    QVERIFY((*r2)["metadata"]["resourceVersion"] != (*fresh)["metadata"]["resourceVersion"]);
}

// Cluster::updateNodeStatus (the node agents' typed write) against updateStatus with the node's
// JSON, on two clusters given the same writes: the same stored nodes, versions and refusals.
void TestCluster::typedNodeStatusWritesWhatTheJsonPathWrites()
{
    Cluster viaJson(stepped()), typed(stepped());
    addNodes(viaJson, 2);
    addNodes(typed, 2);
    auto write = [&](const std::function<void(kube::Node &)> &edit, const std::string &node = "node-0") {
        kube::Node a = *viaJson.node(node), b = *typed.node(node);
        edit(a);
        edit(b);
        auto r1 = viaJson.updateStatus(a.toJson());
        auto r2 = typed.updateNodeStatus(b);
        QCOMPARE(r1.ok(), r2.ok());
        if (!r1.ok())
            QCOMPARE(r1.error().message, r2.error().message);
        QCOMPARE(viaJson.get(Kind::Node, "", node)->dump(), typed.get(Kind::Node, "", node)->dump());
    };
    const std::string rv0 = viaJson.node("node-0")->metadata.resourceVersion;
    // A restart: NotReady at a time with milliseconds (stored to the second), a new version and
    // boot; the copy's spec and metadata edits are not the status's and are ignored.
    write([&](kube::Node &n) {
        n.setCondition({"Ready", "Unknown", "KubeletRestarting", "restarting", viaJson.now() + 61234});
        n.kubeletVersion = "v9.9.9";
        n.info.bootID = "boot-2";
        n.unschedulable = true;
        n.taints.push_back({"k", "v", "NoSchedule"});
        n.metadata.labels["extra"] = "1";
        n.metadata.annotations["a"] = "b";
    });
    const kube::Node *stored = typed.node("node-0");
    QVERIFY(stored->metadata.resourceVersion != rv0);
    QCOMPARE(stored->condition("Ready")->lastTransitionTime.value() % 1000, kube::Timestamp{0});
    QVERIFY(!stored->unschedulable && stored->taints.empty() && !stored->metadata.labels.count("extra"));
    QCOMPARE(stored->kubeletVersion, std::string("v9.9.9"));
    // Nothing changed: nothing written (the version stays).
    const std::string rv1 = stored->metadata.resourceVersion;
    write([](kube::Node &) {});
    QCOMPARE(typed.node("node-0")->metadata.resourceVersion, rv1);
    // A change within the same second is no change either.
    write([&](kube::Node &n) {
        n.setCondition({"Ready", "Unknown", "KubeletRestarting", "restarting", viaJson.now() + 61999});
    });
    QCOMPARE(typed.node("node-0")->metadata.resourceVersion, rv1);
    // A stale resourceVersion conflicts; a uid from another object fails its precondition.
    write([&](kube::Node &n) {
        n.metadata.resourceVersion = rv0;
        n.setCondition({"Ready", "True", "KubeletReady", "ready", viaJson.now()});
    });
    QCOMPARE(typed.node("node-0")->metadata.resourceVersion, rv1);
    write([&](kube::Node &n) {
        n.metadata.uid = "another";
        n.setCondition({"Ready", "True", "KubeletReady", "ready", viaJson.now()});
    });
    QCOMPARE(typed.node("node-0")->metadata.resourceVersion, rv1);
    // An injected refusal refuses both, once.
    viaJson.refuseWrites(Kind::Node, "", "node-1", 1, kube::ApiStatus::internal("boom"));
    typed.refuseWrites(Kind::Node, "", "node-1", 1, kube::ApiStatus::internal("boom"));
    auto ready = [&](kube::Node &n) { n.setCondition({"Ready", "False", "Down", "down", viaJson.now()}); };
    write(ready, "node-1");
    QCOMPARE(typed.node("node-1")->isReady(), true);
    write(ready, "node-1");
    QCOMPARE(typed.node("node-1")->isReady(), false);
    // A node that is gone: NotFound from both.
    kube::Node gone = *typed.node("node-1");
    gone.metadata.name = "node-9";
    QCOMPARE(typed.updateNodeStatus(gone).error().code, 404);
    QCOMPARE(viaJson.updateStatus(gone.toJson()).error().code, 404);
}

// Cluster::updateRolloutStatus (the rollout store's typed write) against updateStatus with the
// status in a body, on two clusters given the same writes.
void TestCluster::typedRolloutStatusWritesWhatTheJsonPathWrites()
{
    Cluster viaJson(stepped()), typed(stepped());
    const Json manifest = api::nodeUpgradeRolloutManifest("r", {{"targetVersion", "v2.0.0"}});
    QVERIFY(viaJson.create(manifest).ok());
    QVERIFY(typed.create(manifest).ok());
    auto stored = [](Cluster &c, const std::string &name = "r") {
        auto r = c.get(Kind::NodeUpgradeRollout, "", name);
        return r ? *r : Json();
    };
    auto rvOf = [&](Cluster &c) { return kube::stringOr(stored(c)["metadata"], "resourceVersion"); };
    auto write = [&](const api::NodeUpgradeRolloutStatus &st, const std::string &rv,
                     const std::string &name = "r") {
        const Json body = {{"apiVersion", api::kNodeUpgradeApiVersion},
                           {"kind", api::kNodeUpgradeKind},
                           {"metadata", {{"name", name}, {"resourceVersion", rv}}},
                           {"status", st.toJson()}};
        auto r1 = viaJson.updateStatus(body);
        auto r2 = typed.updateRolloutStatus(name, rv, st);
        QCOMPARE(r1.ok(), r2.ok());
        if (!r1.ok()) {
            QCOMPARE(r2.error().code, r1.error().code);
            QCOMPARE(r2.error().message, r1.error().message);
        }
        QCOMPARE(stored(typed, name).dump(), stored(viaJson, name).dump());
    };
    const std::string rv0 = rvOf(typed);
    api::NodeUpgradeRolloutStatus st;
    st.phase = api::RolloutPhase::Progressing;
    st.counts.nodes = 3;
    st.headline = "0/3 up to date";
    st.queue = {"node-2", "node-1"};
    st.startedAt = typed.now() + 1234; // milliseconds are kept
    st.setCondition("Progressing", true, "Started", "started", typed.now() + 1234);
    write(st, rv0);
    const std::string rv1 = rvOf(typed);
    QVERIFY(rv1 != rv0);
    QCOMPARE(stored(typed)["status"]["queue"], Json::array({"node-2", "node-1"}));
    QCOMPARE(stored(typed)["spec"], stored(viaJson)["spec"]);
    // The same status again: nothing written.
    write(st, rv1);
    QCOMPARE(rvOf(typed), rv1);
    QCOMPARE(*typed.updateRolloutStatus("r", rv1, st), Cluster::StatusStored::Unchanged);
    // The rollout store's mirror follows its own write without decoding it: what it holds is
    // what the cluster stored.
    NodeUpgradeRolloutStore store(typed);
    api::NodeUpgradeRolloutStatus next = st;
    next.headline = "1/3 up to date";
    next.inflight.push_back(
        {"ReplicaSet/default/app", "uid-1", "default/app-1", "node-0", typed.now() + 5, 1, false});
    QVERIFY(store.updateStatus("r", next).ok());
    auto decoded = api::NodeUpgradeRollout::fromJson(stored(typed));
    QVERIFY(decoded.ok());
    QCOMPARE(store.get("r")->toJson().dump(), decoded->toJson().dump());
    QVERIFY(store.get("r")->metadata.resourceVersion != rv1);
    QCOMPARE(store.resourceVersion(), std::stoull(store.get("r")->metadata.resourceVersion));
    QVERIFY(viaJson
                .updateStatus({{"apiVersion", api::kNodeUpgradeApiVersion},
                               {"kind", api::kNodeUpgradeKind},
                               {"metadata", {{"name", "r"}}},
                               {"status", next.toJson()}})
                .ok());
    const std::string rvNext = rvOf(typed);
    // A stale version conflicts; an injected refusal refuses, once; a missing rollout is NotFound.
    st.counts.upToDate = 1;
    write(st, rv0);
    QCOMPARE(rvOf(typed), rvNext);
    viaJson.refuseWrites(Kind::NodeUpgradeRollout, "", "r", 1, kube::ApiStatus::internal("boom"));
    typed.refuseWrites(Kind::NodeUpgradeRollout, "", "r", 1, kube::ApiStatus::internal("boom"));
    write(st, rvNext);
    QCOMPARE(rvOf(typed), rvNext);
    write(st, rvNext);
    QVERIFY(rvOf(typed) != rvNext);
    QCOMPARE(stored(typed)["status"]["upToDate"], Json(1));
    QCOMPARE(typed.updateRolloutStatus("nope", "", st).error().code, 404);
    write(st, "", "nope");
}

void TestCluster::notFoundAndAlreadyExists()
{
    Cluster c(stepped());
    auto nf = c.get(Kind::DaemonSet, "default", "nope");
    QCOMPARE(nf.error().message, std::string("daemonsets.apps \"nope\" not found"));
    QCOMPARE(nf.error().code, 404);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    auto ae = c.create(webDs("nginx:1.19"));
    QCOMPARE(ae.error().reason, std::string("AlreadyExists"));
    QCOMPARE(ae.error().message, std::string("daemonsets.apps \"web\" already exists"));
    QCOMPARE(c.get(Kind::Pod, "default", "x").error().message, std::string("pods \"x\" not found"));
}

// daemonset-semantics.md §6: three template updates, then a rollback to revision 1.
void TestCluster::workedExample()
{
    Cluster c(stepped());
    addNodes(c, 3);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(rollOut(c) > 0);
    const std::string h1 = currentHash(c);
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{{h1, 1}}));
    for (const auto *p : c.podsOf("default", "web")) {
        QCOMPARE(p->metadata.label(kube::kRevisionHashLabel), h1);
        QCOMPARE(p->metadata.label(kube::kPodTemplateGenerationLabel), std::string("1"));
    }
    std::vector<std::string> hashes{h1};
    for (const char *image : {"nginx:1.20", "nginx:1.21", "nginx:1.22"}) {
        QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch(image)).ok());
        QVERIFY(rollOut(c) > 0);
        hashes.push_back(currentHash(c));
    }
    const auto *ds = c.daemonSet("default", "web");
    QCOMPARE(ds->metadata.generation, std::int64_t(4));
    QCOMPARE(*ds->templateGeneration(), std::int64_t(4));
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{
                                    {hashes[0], 1}, {hashes[1], 2}, {hashes[2], 3}, {hashes[3], 4}}));

    // Step 4: kubectl rollout undo --to-revision=1.
    RollbackOutcome undo = c.rollback("default", "web", 1);
    QCOMPARE(undo.message, std::string("rolled back"));
    QVERIFY(undo.performed);
    QCOMPARE(undo.kubectlOutput("web"), std::string("daemonset.apps/web rolled back"));
    QCOMPARE(c.daemonSet("default", "web")->metadata.generation, std::int64_t(5));
    QVERIFY(rollOut(c) > 0);
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{
                                    {hashes[1], 2}, {hashes[2], 3}, {hashes[3], 4}, {hashes[0], 5}}));
    QCOMPARE(c.controllerRevisionsOf("default", "web").back()->metadata.name, "web-" + h1); // name reused
    for (const auto *p : c.podsOf("default", "web")) {
        QCOMPARE(p->metadata.label(kube::kRevisionHashLabel), h1);
        QCOMPARE(p->metadata.label(kube::kPodTemplateGenerationLabel), std::string("5"));
    }
    QCOMPARE(*c.historyText("default", "web"),
             std::string("daemonset.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n"
                         "4         <none>\n5         <none>\n\n"));
    auto gone = c.historyText("default", "web", 1);
    QVERIFY(!gone.ok());
    QCOMPARE(gone.error().message, std::string("unable to find the specified revision"));

    // Step 7: rolling back to the revision the DS already runs is skipped.
    RollbackOutcome skip = c.rollback("default", "web", 5);
    QCOMPARE(
        skip.kubectlOutput("web"),
        std::string("daemonset.apps/web skipped rollback (current template already matches revision 5)"));
    QVERIFY(!skip.performed);
    const std::uint64_t rvBefore = c.resourceVersion();
    QCOMPARE(c.resourceVersion(), rvBefore);

    // Step 6: a plain undo targets the second-highest revision (4) and toggles.
    RollbackOutcome toggle = c.rollback("default", "web", 0);
    QCOMPARE(toggle.message, std::string("rolled back"));
    QCOMPARE(toggle.targetRevision, std::int64_t(4));
    QVERIFY(rollOut(c) > 0);
    QCOMPARE(revisionByHash(c)[hashes[3]], std::int64_t(6));
    QCOMPARE(c.controllerRevisionsOf("default", "web").size(), std::size_t(4)); // undo never creates a CR

    RollbackOutcome missing = c.rollback("default", "web", 9);
    QCOMPARE(missing.kubectlOutput("web"),
             std::string("error: unable to find specified revision 9 in history"));
}

void TestCluster::workedExampleWithHistoryLimitOne()
{
    Cluster c(stepped());
    addNodes(c, 3);
    QVERIFY(c.create(webDs("nginx:1.19", {{"revisionHistoryLimit", 1}})).ok());
    QVERIFY(rollOut(c) > 0);
    std::vector<std::string> hashes{currentHash(c)};
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    QVERIFY(rollOut(c) > 0);
    hashes.push_back(currentHash(c));
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{{hashes[0], 1}, {hashes[1], 2}}));
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.21")).ok());
    // The first sync after T3 already deletes web-h1: it is not live, h2 pods are.
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    hashes.push_back(currentHash(c));
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{{hashes[1], 2}, {hashes[2], 3}}));
    QVERIFY(rollOut(c) > 0);
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.22")).ok());
    QVERIFY(rollOut(c) > 0);
    hashes.push_back(currentHash(c));
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{{hashes[2], 3}, {hashes[3], 4}}));

    QCOMPARE(c.rollback("default", "web", 1).kubectlOutput("web"),
             std::string("error: unable to find specified revision 1 in history"));
    RollbackOutcome undo = c.rollback("default", "web", 0);
    QCOMPARE(undo.message, std::string("rolled back"));
    QCOMPARE(undo.targetRevision, std::int64_t(3));
}

void TestCluster::workedExampleWithCollision()
{
    Cluster c(stepped());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(rollOut(c) > 0);
    const std::string h1 = currentHash(c);
    // The hash T2 will get, taken by a foreign revision with other data.
    Json t2 = c.daemonSet("default", "web")->podTemplate();
    t2["spec"]["containers"][0]["image"] = "nginx:1.20";
    const std::string h2 = templateHash(t2, std::nullopt);
    Json foreign = {
        {"apiVersion", "apps/v1"},
        {"kind", "ControllerRevision"},
        {"metadata", {{"name", "web-" + h2}, {"namespace", "default"}, {"labels", {{"app", "other"}}}}},
        {"data", {{"spec", {{"template", {{"$patch", "replace"}}}}}}},
        {"revision", 1}};
    QVERIFY(c.create(foreign).ok());
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    SyncResult first = c.syncDaemonSet("default", "web");
    QVERIFY(!first.ok);
    QCOMPARE(first.error.reason, std::string("AlreadyExists"));
    QCOMPARE(c.daemonSet("default", "web")->status.collisionCount, std::optional<int>(1));
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    const std::string h2b = templateHash(t2, 1);
    QVERIFY(h2b != h2);
    QCOMPARE(revisionByHash(c), (std::map<std::string, std::int64_t>{{h1, 1}, {h2b, 2}}));
    QVERIFY(c.get(Kind::ControllerRevision, "default", "web-" + h1).ok()); // keeps its name
    QVERIFY(rollOut(c) > 0);
    for (const auto *p : c.podsOf("default", "web"))
        QCOMPARE(p->metadata.label(kube::kRevisionHashLabel), h2b);
    QCOMPARE(c.daemonSet("default", "web")->status.collisionCount, std::optional<int>(1));
}

void TestCluster::historyTableWithChangeCause()
{
    Cluster c(stepped());
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.26")).ok());
    QVERIFY(rollOut(c) > 0);
    Json p = imagePatch("nginx:1.27");
    p["metadata"]["annotations"][kube::kChangeCauseAnnotation] = "kubectl set image ds/web web=nginx:1.27";
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, p).ok());
    QVERIFY(rollOut(c) > 0);
    QCOMPARE(*c.historyText("default", "web"),
             std::string("daemonset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n"
                         "2         kubectl set image ds/web web=nginx:1.27\n\n"));
    // An empty change-cause prints <none>, as printHistory does.
    Json emptyCause = imagePatch("nginx:1.28");
    emptyCause["metadata"]["annotations"][kube::kChangeCauseAnnotation] = "";
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, emptyCause).ok());
    QVERIFY(rollOut(c) > 0);
    QVERIFY(c.historyText("default", "web")->find("\n3         <none>\n") != std::string::npos);
    Cluster empty(stepped());
    QVERIFY(empty.create(webDs("nginx:1.26")).ok());
    QCOMPARE(*empty.historyText("default", "web"),
             std::string("daemonset.apps/web \nNo rollout history found.\n"));
    // With --revision and no history, kubectl says so before looking for the revision.
    QCOMPARE(*empty.historyText("default", "web", 2),
             std::string("daemonset.apps/web with revision #2\nNo rollout history found.\n"));
}

void TestCluster::historyRevisionDescribesTemplate()
{
    Cluster c(stepped());
    addNodes(c, 1);
    Json ds = webDs("nginx:1.26");
    ds["spec"]["template"]["spec"]["containers"][0] = {
        {"name", "web"}, {"image", "nginx:1.26"}, {"ports", Json::array({{{"containerPort", 80}}})}};
    QVERIFY(c.create(ds).ok());
    QVERIFY(rollOut(c) > 0);
    Json p = {{"spec",
               {{"template",
                 {{"spec", {{"containers", Json::array({{{"name", "web"}, {"image", "nginx:1.27"}}})}}}}}}}};
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, p).ok());
    QVERIFY(rollOut(c) > 0);
    // kube-api.md A.7, byte for byte.
    QCOMPARE(
        *c.historyText("default", "web", 2),
        std::string("daemonset.apps/web with revision #2\nPod Template:\n  Labels:\tapp=web\n  Containers:\n"
                    "   web:\n    Image:\tnginx:1.27\n    Port:\t80/TCP\n    Host Port:\t0/TCP\n"
                    "    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n"
                    "  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n\n"));
    QCOMPARE(c.historyText("default", "web", -1).error().message,
             std::string("revision must be a positive integer: -1"));
}

void TestCluster::rolloutStatusMessages()
{
    Cluster c(stepped());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QCOMPARE(c.rolloutStatusOf("default", "web")->message,
             std::string("Waiting for daemon set spec update to be observed..."));
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    QCOMPARE(c.rolloutStatusOf("default", "web")->message,
             std::string(
                 "Waiting for daemon set \"web\" rollout to finish: 0 of 2 updated pods are available..."));
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    (void)c.markReady(keys(c.podsOf("default", "web")), true);
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    QCOMPARE(
        c.rolloutStatusOf("default", "web")->message,
        std::string(
            "Waiting for daemon set \"web\" rollout to finish: 0 out of 2 new pods have been updated..."));
    QVERIFY(rollOut(c) > 0);
    const RolloutStatus done = *c.rolloutStatusOf("default", "web");
    QVERIFY(done.done);
    QCOMPARE(done.message, std::string("daemon set \"web\" successfully rolled out"));
}

void TestCluster::pauseAndResume()
{
    Cluster c(stepped());
    addNodes(c, 4);
    QVERIFY(c.create(webDs("nginx:1.19", {{"updateStrategy", {{"rollingUpdate", {{"maxUnavailable", 2}}}}}}))
                .ok());
    QVERIFY(rollOut(c) > 0);
    const Json before = c.daemonSet("default", "web")->spec["updateStrategy"];

    QVERIFY(c.pause("default", "web").ok());
    const kube::DaemonSet *ds = c.daemonSet("default", "web");
    QVERIFY(Cluster::isPaused(*ds));
    QCOMPARE(ds->updateStrategyType(), std::string("OnDelete"));
    QCOMPARE(ds->spec["updateStrategy"].dump(), std::string(R"({"type":"OnDelete"})"));
    QCOMPARE(ds->metadata.annotation(kPausedStrategyAnnotation), kube::goJson(before));
    QCOMPARE(*ds->templateGeneration(), std::int64_t(1)); // not a template change
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    QCOMPARE(c.controllerRevisionsOf("default", "web").size(), std::size_t(1));

    const std::uint64_t rv = c.resourceVersion();
    QVERIFY(c.pause("default", "web").ok()); // idempotent
    QCOMPARE(c.resourceVersion(), rv);

    // While paused a template change replaces nothing.
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    SyncResult r = c.syncDaemonSet("default", "web");
    QVERIFY(r.creates.empty() && r.deletes.empty());
    QVERIFY(c.pause("default", "web").ok());
    QCOMPARE(c.daemonSet("default", "web")->metadata.annotation(kPausedStrategyAnnotation),
             kube::goJson(before));

    QVERIFY(c.resume("default", "web").ok());
    ds = c.daemonSet("default", "web");
    QVERIFY(!Cluster::isPaused(*ds));
    QCOMPARE(ds->spec["updateStrategy"], before);
    const std::uint64_t rv2 = c.resourceVersion();
    QVERIFY(c.resume("default", "web").ok());
    QCOMPARE(c.resourceVersion(), rv2);
    r = c.syncDaemonSet("default", "web");
    QCOMPARE(r.deletes.size(), std::size_t(2)); // maxUnavailable 2 again
}

void TestCluster::podsCarryLabelsTolerationsAndOwner()
{
    Cluster c(stepped());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    SyncResult r = c.syncDaemonSet("default", "web");
    QCOMPARE(r.creates.size(), std::size_t(2));
    QCOMPARE(r.creates[0].node, std::string("node-0"));
    const auto *ds = c.daemonSet("default", "web");
    const kube::Pod *p = c.pod("default", r.creates[0].pod);
    QVERIFY(p);
    QVERIFY(QString::fromStdString(p->metadata.name)
                .contains(QRegularExpression(QStringLiteral("^web-[bcdfghjklmnpqrstvwxz2456789]{5}$"))));
    QCOMPARE(p->targetNode, std::string("node-0"));
    QCOMPARE(p->metadata.label("app"), std::string("web"));
    QCOMPARE(p->metadata.label(kube::kPodTemplateGenerationLabel), std::string("1"));
    QCOMPARE(p->metadata.label(kube::kRevisionHashLabel), currentHash(c));
    QCOMPARE(p->metadata.controllerRef()->uid, ds->metadata.uid);
    QCOMPARE((*p->spec)["tolerations"].size(), std::size_t(6));
    QCOMPARE(p->spec.get(), c.pod("default", r.creates[1].pod)->spec.get()); // one shared spec
    const Json j = p->toJson();
    QCOMPARE(j["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
              ["nodeSelectorTerms"][0]["matchFields"][0]["values"][0]
                  .get<std::string>(),
             std::string("node-0"));
    auto events = c.takeEvents();
    QCOMPARE(events.size(), std::size_t(2));
    QCOMPARE(events[0].object, std::string("daemonset/default/web"));
    QCOMPARE(events[0].reason, std::string("SuccessfulCreate"));
    QCOMPARE(events[0].message, "Created pod: " + r.creates[0].pod);
    auto activity = c.takeActivity();
    QCOMPARE(activity.size(), std::size_t(2));
    QCOMPARE(activity[1].node, std::string("node-1"));
    QVERIFY(c.takeActivity().empty());
}

void TestCluster::watchSequenceOfGracefulDeletion()
{
    Cluster c(continuous());
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    const std::string name = c.podsOf("default", "web").front()->metadata.name;
    std::vector<std::string> seen;
    std::uint64_t lastRv = 0;
    bool rvIncreasing = true;
    const int id = c.watch(Kind::Pod, [&](const WatchEvent &ev) {
        rvIncreasing = rvIncreasing && ev.resourceVersion > lastRv;
        lastRv = ev.resourceVersion;
        if (ev.name != name)
            return;
        std::string s = watchEventTypeName(ev.type);
        if (ev.object()["metadata"].contains("deletionTimestamp"))
            s += "+deletionTimestamp";
        seen.push_back(s);
    });
    // The replacement pod: created, bound by the scheduler, started and made Ready by the kubelet.
    std::vector<std::string> created;
    std::string replacement;
    const int id2 = c.watch(Kind::Pod, [&](const WatchEvent &ev) {
        if (replacement.empty() && ev.type == WatchEvent::Type::Added)
            replacement = ev.name;
        if (ev.name != replacement)
            return;
        const Json j = ev.object();
        std::string s = watchEventTypeName(ev.type);
        if (j["spec"].contains("nodeName"))
            s += " bound";
        s += " " + j["status"]["phase"].get<std::string>();
        if (ev.pod->ready)
            s += " ready";
        created.push_back(s);
    });
    QVERIFY(c.remove(Kind::Pod, "default", name).ok());
    QCOMPARE(seen, (std::vector<std::string>{"MODIFIED+deletionTimestamp"}));
    c.advance(10000);
    QCOMPARE(seen, (std::vector<std::string>{"MODIFIED+deletionTimestamp", "DELETED+deletionTimestamp"}));
    QVERIFY(rvIncreasing);
    c.unwatch(id);
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web") && c.podsReady(1); }, 60000));
    c.unwatch(id2);
    QCOMPARE(created, (std::vector<std::string>{"ADDED Pending", "MODIFIED bound Pending",
                                                "MODIFIED bound Running", "MODIFIED bound Running ready"}));
    QCOMPARE(c.podsOf("default", "web").size(), std::size_t(1));
}

// DELETE with DeleteOptions is one rule for every caller (the console, `serve`, kubectl through
// it): the preconditions are checked against the stored object, a dry run changes nothing, and
// the answer is the object as the deletion leaves it.
void TestCluster::deletionsCheckTheirPreconditions()
{
    Cluster c(continuous());
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    const kube::Pod *pod = c.podsOf("default", "web").front();
    const std::string name = pod->metadata.name, uid = pod->metadata.uid, rv = pod->metadata.resourceVersion;

    DeleteOptions wrongUid;
    wrongUid.preconditions.uid = "not-its-uid";
    auto refused = c.remove(Kind::Pod, "default", name, wrongUid);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, 409);
    QCOMPARE(refused.error().message,
             std::string("Precondition failed: UID in precondition: not-its-uid, UID in object meta: ") +
                 uid);
    DeleteOptions staleRv;
    staleRv.preconditions = {uid, "1"};
    refused = c.remove(Kind::Pod, "default", name, staleRv);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().message,
             "Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in meta: " + rv);
    QVERIFY(c.pod("default", name) && !c.pod("default", name)->isDeleting());

    DeleteOptions dryRun;
    dryRun.dryRun = true;
    dryRun.preconditions = {uid, rv};
    auto asIs = c.remove(Kind::Pod, "default", name, dryRun);
    QVERIFY(asIs.ok());
    QVERIFY(!(*asIs)["metadata"].contains("deletionTimestamp"));
    QCOMPARE(c.pod("default", name)->metadata.resourceVersion, rv);

    DeleteOptions graceful;
    graceful.preconditions = {uid, rv};
    auto deleting = c.remove(Kind::Pod, "default", name, graceful);
    QVERIFY2(deleting.ok(), deleting ? "" : deleting.error().message.c_str());
    QVERIFY((*deleting)["metadata"].contains("deletionTimestamp"));
    QVERIFY(c.pod("default", name)->isDeleting());
}

// PATCH of the status subresource, one rule for the console and `serve`: the patch applies to
// the whole object, its metadata's resourceVersion and uid are preconditions, and only the
// status is written.
void TestCluster::statusPatchesWriteTheStatusOnly()
{
    Cluster c(stepped());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.26")).ok());
    const kube::DaemonSet *ds = c.daemonSet("default", "web");
    const std::string rv = ds->metadata.resourceVersion;
    const Json patch = {{"spec", {{"minReadySeconds", 9}}}, {"status", {{"numberMisscheduled", 7}}}};
    auto patched = c.patchStatus(Kind::DaemonSet, "default", "web", api::PatchType::Merge, patch);
    QVERIFY2(patched.ok(), patched ? "" : patched.error().message.c_str());
    QCOMPARE((*patched)["status"]["numberMisscheduled"], 7);
    QCOMPARE(c.daemonSet("default", "web")->status.numberMisscheduled, 7);
    QVERIFY(!(*patched)["spec"].contains("minReadySeconds") || (*patched)["spec"]["minReadySeconds"] == 0);

    Json stale = {{"metadata", {{"resourceVersion", rv}}}, {"status", {{"numberMisscheduled", 1}}}};
    auto refused = c.patchStatus(Kind::DaemonSet, "default", "web", api::PatchType::Merge, stale);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, 409);
    Json otherUid = {{"metadata", {{"uid", "not-its-uid"}}}, {"status", {{"numberMisscheduled", 1}}}};
    refused = c.patchStatus(Kind::DaemonSet, "default", "web", api::PatchType::Merge, otherUid);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.rfind("Precondition failed: UID in precondition: not-its-uid", 0) == 0,
             refused.error().message.c_str());
    QCOMPARE(c.daemonSet("default", "web")->status.numberMisscheduled, 7);
    Json renamed = {{"metadata", {{"name", "other"}}}};
    refused = c.patchStatus(Kind::DaemonSet, "default", "web", api::PatchType::Merge, renamed);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().message,
             std::string("the name of the object (other) does not match the name on the URL (web)"));
}

// The garbage collector's propagation policies for a DaemonSet's pods and revisions
// (kubernetes/kubernetes garbagecollector: orphanDependents removes the owner's reference from
// each dependent before the owner goes; background and foreground delete the dependents).
void TestCluster::deletePropagation_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<bool>("dependentsStay");
    QTest::newRow("background") << int(DeletePropagation::Background) << false;
    QTest::newRow("foreground") << int(DeletePropagation::Foreground) << false;
    QTest::newRow("orphan") << int(DeletePropagation::Orphan) << true;
}

void TestCluster::deletePropagation()
{
    QFETCH(int, policy);
    QFETCH(bool, dependentsStay);
    Cluster c(stepped());
    addNodes(c, 3);
    QVERIFY(c.create(webDs("nginx:1.26")).ok());
    QVERIFY(rollOut(c) > 0);
    const std::string uid = c.daemonSet("default", "web")->metadata.uid;
    QCOMPARE(c.podsOf("default", "web").size(), std::size_t(3));
    QVERIFY(!c.controllerRevisionsOf("default", "web").empty());
    QVERIFY(c.remove(Kind::DaemonSet, "default", "web", 0, static_cast<DeletePropagation>(policy)).ok());
    QVERIFY(!c.daemonSet("default", "web"));
    int pods = 0, referencing = 0;
    for (const auto *p : c.pods()) {
        if (p->metadata.labels.count("app") == 0)
            continue;
        ++pods;
        for (const auto &ref : p->metadata.ownerReferences)
            referencing += ref.uid == uid ? 1 : 0;
    }
    int revisions = 0;
    for (const auto *cr : c.controllerRevisions()) {
        ++revisions;
        for (const auto &ref : cr->metadata.ownerReferences)
            referencing += ref.uid == uid ? 1 : 0;
    }
    QCOMPARE(referencing, 0); // nothing points at the deleted owner
    if (dependentsStay) {
        QCOMPARE(pods, 3);
        QVERIFY(revisions > 0);
        // A new DaemonSet with the same selector adopts the orphans instead of making new pods.
        QVERIFY(c.create(webDs("nginx:1.26")).ok());
        QVERIFY(rollOut(c) > 0);
        QCOMPARE(c.podsOf("default", "web").size(), std::size_t(3));
        int total = 0;
        for (const auto *p : c.pods())
            total += p->metadata.labels.count("app");
        QCOMPARE(total, 3);
    } else {
        QCOMPARE(pods, 0);
        QCOMPARE(revisions, 0);
    }
}

// daemonset-semantics.md §2.1, through the API server and the controller.
void TestCluster::revisionDataIsTheTypicalExample()
{
    Cluster c(stepped());
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    const auto revs = c.controllerRevisionsOf("default", "web");
    QCOMPARE(revs.size(), std::size_t(1));
    QCOMPARE(
        revs[0]->data,
        std::string(
            R"({"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.19","imagePullPolicy":"IfNotPresent","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}})"));
    QCOMPARE(revs[0]->revision, std::int64_t(1));
    QCOMPARE(revs[0]->metadata.name, "web-" + revs[0]->metadata.label(kube::kRevisionHashLabel));
    QCOMPARE(revs[0]->metadata.label("app"), std::string("web"));
    QCOMPARE(revs[0]->metadata.annotation(kube::kTemplateGenerationAnnotation), std::string("1"));
    QCOMPARE(revs[0]->metadata.controllerRef()->uid, c.daemonSet("default", "web")->metadata.uid);
    QVERIFY(revs[0]->metadata.controllerRef()->blockOwnerDeletion);
}

void TestCluster::expectationsDeferRollingUpdateInContinuousMode()
{
    for (Mode mode : {Mode::Stepped, Mode::Continuous}) {
        ClusterOptions o = stepped();
        o.mode = mode;
        Cluster c(o);
        addNodes(c, 3);
        QVERIFY(
            c.create(webDs("nginx:1.19", {{"updateStrategy", {{"rollingUpdate", {{"maxUnavailable", 2}}}}}}))
                .ok());
        if (mode == Mode::Stepped)
            QVERIFY(rollOut(c) > 0);
        else
            QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
        QVERIFY(c.create(nodeManifest("node-9")).ok());
        QVERIFY(
            c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
        const SyncResult r = c.syncDaemonSet("default", "web");
        QCOMPARE(r.creates.size(), std::size_t(1));
        // The harness observes its own create at once and rolls in the same sync; a real
        // controller waits for the watch to confirm the create first.
        QCOMPARE(r.deletes.size(), std::size_t(mode == Mode::Stepped ? 1 : 0));
    }
}

void TestCluster::continuousRolloutCompletes_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("maxUnavailable 2") << QStringLiteral(R"({"rollingUpdate":{"maxUnavailable":2}})");
    QTest::newRow("maxUnavailable 30 percent")
        << QStringLiteral(R"({"rollingUpdate":{"maxUnavailable":"30%"}})");
    QTest::newRow("maxSurge 1") << QStringLiteral(R"({"rollingUpdate":{"maxUnavailable":0,"maxSurge":1}})");
}

void TestCluster::continuousRolloutCompletes()
{
    QFETCH(QString, strategy);
    Cluster c(continuous(7));
    addNodes(c, 8);
    QVERIFY(c.create(webDs("nginx:1.19", {{"updateStrategy", Json::parse(strategy.toStdString())}})).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 120000));
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    QVERIFY(!c.rolloutComplete("default", "web"));
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 600000));
    const std::string hash = currentHash(c);
    const auto pods = c.podsOf("default", "web");
    QCOMPARE(pods.size(), std::size_t(8));
    for (const auto *p : pods) {
        QCOMPARE(p->metadata.label(kube::kRevisionHashLabel), hash);
        QVERIFY(p->ready);
        QCOMPARE(p->phase, std::string("Running"));
    }
    const auto &st = c.daemonSet("default", "web")->status;
    QCOMPARE(st.updatedNumberScheduled, 8);
    QCOMPARE(st.numberAvailable, 8);
    QCOMPARE(st.observedGeneration, std::int64_t(2));
}

void TestCluster::failingImageStallsRollout()
{
    ClusterOptions o = continuous(3);
    o.kubelet.failingImages = {"*:broken"};
    Cluster c(o);
    addNodes(c, 5);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    QVERIFY(
        c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:broken")).ok());
    c.advance(10 * 60 * 1000);
    QVERIFY(!c.rolloutComplete("default", "web"));
    const std::string hash = currentHash(c);
    int updated = 0;
    for (const auto *p : c.podsOf("default", "web")) {
        if (p->metadata.label(kube::kRevisionHashLabel) != hash)
            continue;
        ++updated;
        QVERIFY(!p->ready);
        QCOMPARE(p->waitingReason, std::string("CrashLoopBackOff"));
        QVERIFY(p->restartCount > 3);
    }
    QCOMPARE(updated, 1); // maxUnavailable 1: the rollout stalls at one broken pod
    QCOMPARE(c.daemonSet("default", "web")->status.numberAvailable, 4);
    // Undo recovers.
    QCOMPARE(c.rollback("default", "web", 0).message, std::string("rolled back"));
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 120000));
}

void TestCluster::notReadyNodeMakesPodsNotReady()
{
    Cluster c(continuous(5));
    addNodes(c, 3);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    QVERIFY(c.fault("node-1", FaultKind::NotReady).ok());
    c.advance(1000);
    for (const auto *p : c.podsOf("default", "web"))
        QCOMPARE(p->ready, p->node() != "node-1");
    // A NotReady node carries the condition taints: it is no longer desired, its pod stays.
    QCOMPARE(c.daemonSet("default", "web")->status.desiredNumberScheduled, 2);
    QCOMPARE(c.daemonSet("default", "web")->status.numberMisscheduled, 1);
    QVERIFY(c.fault("node-1", FaultKind::Ready).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(3); }, 60000));
    c.advance(1000);
    QCOMPARE(c.daemonSet("default", "web")->status.desiredNumberScheduled, 3);
}

void TestCluster::replicaSetPodsAreScheduled()
{
    Cluster c(continuous(11));
    addNodes(c, 2);
    QVERIFY(c.cordon("node-1").ok());
    const Json rs = testsupport::replicaSetManifest("api", "shop", 3, "api", "api:1");
    QVERIFY(c.create(rs).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(3); }, 60000));
    PodSelector sel;
    sel.replicaSet = "shop/api";
    const auto pods = c.selectPods(sel);
    QCOMPARE(pods.size(), std::size_t(3));
    for (const auto *p : pods) {
        QCOMPARE(p->nodeName, std::string("node-0")); // node-1 is cordoned
        QVERIFY(p->metadata.name.rfind("api-", 0) == 0);
    }
    c.advance(1000);
    QCOMPARE(c.replicaSet("shop", "api")->status.readyReplicas, 3);
    QVERIFY(c.patch(Kind::ReplicaSet, "shop", "api", PatchType::Merge, {{"spec", {{"replicas", 1}}}}).ok());
    c.advance(30000);
    QCOMPARE(c.selectPods(sel).size(), std::size_t(1));
}

// The scheduler's cache of node loads (bound pods that have not finished) decides as a count of
// each node's pods would: the least loaded node, the first by name among equals; a deleted or a
// finished pod frees its room; a NotReady, cordoned or full node is passed over.
void TestCluster::schedulerPicksTheLeastLoadedNodeThenTheFirstByName()
{
    Cluster c(continuous(3));
    addNodes(c, 3);
    auto rsOf = [](const std::string &name, int replicas) {
        return testsupport::replicaSetManifest(name, "shop", replicas, "c", "c:1");
    };
    auto perNode = [&] {
        std::map<std::string, int> n;
        for (const auto *p : c.pods())
            if (!p->nodeName.empty() && !p->isTerminal())
                ++n[p->nodeName];
        return n;
    };
    QVERIFY(c.create(rsOf("a", 4)).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(4); }, 60000));
    // 4 pods over 3 empty nodes: one each, the fourth on the first by name.
    QCOMPARE(perNode(), (std::map<std::string, int>{{"node-0", 2}, {"node-1", 1}, {"node-2", 1}}));

    // node-1 is cordoned: the next two go to node-2 (least loaded), then node-0 and node-2 tie
    // at 2 and node-0 comes first by name.
    QVERIFY(c.cordon("node-1").ok());
    QVERIFY(c.patch(Kind::ReplicaSet, "shop", "a", PatchType::Merge, {{"spec", {{"replicas", 6}}}}).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(6); }, 60000));
    QCOMPARE(perNode(), (std::map<std::string, int>{{"node-0", 3}, {"node-1", 1}, {"node-2", 2}}));

    // Deleting node-0's pods frees their room: the replacements go there.
    QVERIFY(c.uncordon("node-1").ok());
    std::vector<std::string> onNode0;
    for (const auto *p : c.pods())
        if (p->nodeName == "node-0")
            onNode0.push_back(p->metadata.name);
    for (const auto &name : onNode0)
        QVERIFY(c.remove(Kind::Pod, "shop", name, 0).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(6) && perNode()["node-0"] > 0; }, 60000));
    const auto after = perNode();
    // Loads 0/1/2: the first replacement to node-0, the second to node-0 (tied with node-1,
    // first by name), the third to node-1.
    QCOMPARE(after.at("node-0"), 2);
    QCOMPARE(after.at("node-1"), 2);
    QCOMPARE(after.at("node-2"), 2);
}

// The embedded upgrade client writes its annotations without encoding the node: what it stores
// is what the merge patch through the API server stores (values set, null removes, nothing
// written when nothing changes), and a refused write is refused the same way.
void TestCluster::annotateNodeWritesWhatAMergePatchWrites()
{
    Cluster c(stepped());
    addNodes(c, 2);
    const std::map<std::string, std::optional<std::string>> changes{
        {"upgrade/phase", "Cordoned"}, {"upgrade/attempt", "1"}, {"upgrade/gone", std::nullopt}};
    QVERIFY(c.patch(Kind::Node, "", "node-0", PatchType::Merge,
                    {{"metadata", {{"annotations", {{"upgrade/gone", "x"}}}}}})
                .ok());
    QVERIFY(c.patch(Kind::Node, "", "node-1", PatchType::Merge,
                    {{"metadata", {{"annotations", {{"upgrade/gone", "x"}}}}}})
                .ok());
    QVERIFY(c.annotateNode("node-0", changes).ok());
    QVERIFY(
        c.patch(Kind::Node, "", "node-1", PatchType::Merge,
                {{"metadata",
                  {{"annotations",
                    {{"upgrade/phase", "Cordoned"}, {"upgrade/attempt", "1"}, {"upgrade/gone", nullptr}}}}}})
            .ok());
    const kube::Node *a = c.node("node-0"), *b = c.node("node-1");
    QVERIFY(a && b);
    QVERIFY(a->metadata.annotations == b->metadata.annotations);
    QCOMPARE(a->metadata.annotation("upgrade/phase"), std::string("Cordoned"));
    QVERIFY(!a->metadata.annotations.count("upgrade/gone"));

    // Nothing changes: nothing is written.
    const std::string rv = a->metadata.resourceVersion;
    QVERIFY(c.annotateNode("node-0", changes).ok());
    QCOMPARE(c.node("node-0")->metadata.resourceVersion, rv);

    // Metadata the API server refuses (annotations over 256 KiB in all) is refused here too.
    const std::string big(300 * 1024, 'x');
    const auto tooBig = c.annotateNode("node-0", {{"upgrade/big", big}});
    QVERIFY(!tooBig.ok());
    const auto viaApi = c.patch(Kind::Node, "", "node-0", PatchType::Merge,
                                {{"metadata", {{"annotations", {{"upgrade/big", big}}}}}});
    QVERIFY(!viaApi.ok());
    QCOMPARE(tooBig.error().code, viaApi.error().code);
    QCOMPARE(tooBig.error().message, viaApi.error().message);
    QCOMPARE(c.node("node-0")->metadata.resourceVersion, rv);
    QVERIFY(!c.annotateNode("node-9", changes).ok());
}

void TestCluster::sameSeedSameCluster()
{
    auto run = [](std::uint64_t seed) {
        Cluster c(continuous(seed));
        for (int i = 0; i < 6; ++i)
            (void)c.create(nodeManifest("node-" + std::to_string(i)));
        (void)c.create(webDs("nginx:1.19"));
        c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000);
        (void)c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20"));
        c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 600000);
        std::string trace;
        for (const auto &a : c.takeActivity())
            trace += std::to_string(a.time) + (a.op == Activity::Op::Create ? " + " : " - ") + a.pod + "@" +
                     a.node + "\n";
        for (const auto &e : c.takeEvents())
            trace += e.reason + " " + e.message + "\n";
        trace += c.list(Kind::Pod).value().dump();
        return trace;
    };
    const std::string a = run(42), b = run(42), other = run(43);
    QCOMPARE(a, b);
    QVERIFY(a != other);
}

void TestCluster::selectPods()
{
    Cluster c(stepped());
    addNodes(c, 4);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    PodSelector s;
    s.daemonSet = "default/web";
    s.nodes = {"node-3", "node-1"};
    auto pods = c.selectPods(s);
    QCOMPARE(pods.size(), std::size_t(2));
    QCOMPARE(pods[0]->node(), std::string("node-1"));
    QVERIFY(c.markReady(keys(pods), true).ok());
    PodSelector ready;
    ready.daemonSet = "default/web";
    ready.ready = true;
    ready.hash = "current";
    QCOMPARE(c.selectPods(ready).size(), std::size_t(2));
    ready.limit = 1;
    QCOMPARE(c.selectPods(ready).size(), std::size_t(1));
    PodSelector all;
    all.all = true;
    QCOMPARE(c.selectPods(all).size(), std::size_t(4));
}

void TestCluster::eventsExpireAfterAnHour()
{
    Cluster c(stepped());
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.syncDaemonSet("default", "web").ok);
    QCOMPARE(c.events().size(), std::size_t(2));
    c.advance(30 * 60 * 1000);
    c.recordEvent("Normal", "Probe", "still here", Kind::Node, "", "node-0");
    QCOMPARE(c.events().size(), std::size_t(3));
    c.advance(31 * 60 * 1000);
    c.recordEvent("Normal", "Probe", "still here", Kind::Node, "", "node-0"); // aggregated: count 2
    const auto left = c.events();
    QCOMPARE(left.size(), std::size_t(1));
    QCOMPARE(left[0]->count, 2);
    QCOMPARE(left[0]->involvedObject.name, std::string("node-0"));
}

// Repeats of a recorded Event bump its count, until a client rewrites what it says or deletes
// it: the next repeat is a new Event, and repeats count on that one.
void TestCluster::aRewrittenOrDeletedEventTakesNoMoreRepeats()
{
    Cluster c(stepped());
    addNodes(c, 1);
    auto probe = [&] { c.recordEvent("Normal", "Probe", "still here", Kind::Node, "", "node-0"); };
    auto withMessage = [&](const char *message) {
        std::vector<const kube::Event *> out;
        for (const kube::Event *e : c.events())
            if (e->message == message)
                out.push_back(e);
        return out;
    };
    probe();
    probe();
    QCOMPARE(withMessage("still here").size(), std::size_t(1));
    QCOMPARE(withMessage("still here")[0]->count, 2);
    const std::string ns = withMessage("still here")[0]->metadata.namespace_;
    const std::string first = withMessage("still here")[0]->metadata.name;

    QVERIFY(c.patch(Kind::Event, ns, first, PatchType::Merge, {{"message", "rewritten"}}));
    probe();
    probe();
    QCOMPARE(withMessage("rewritten").size(), std::size_t(1));
    QCOMPARE(withMessage("rewritten")[0]->count, 2);
    QCOMPARE(withMessage("still here").size(), std::size_t(1));
    QCOMPARE(withMessage("still here")[0]->count, 2);
    const std::string second = withMessage("still here")[0]->metadata.name;
    QVERIFY(second != first);

    QVERIFY(c.remove(Kind::Event, ns, second).ok());
    QVERIFY(c.remove(Kind::Event, ns, first).ok());
    QVERIFY(c.events().empty());
    probe();
    QCOMPARE(withMessage("still here").size(), std::size_t(1));
    QCOMPARE(withMessage("still here")[0]->count, 1);
    QVERIFY(withMessage("still here")[0]->metadata.name != second);
}

QTEST_GUILESS_MAIN(TestCluster)
// `serve` places a scenario's steps so that they end now: the same objects, every timestamp
// shifted by the same amount, the clock at the requested end.
// A scenario: two nodes, DaemonSet default/web, run until it has rolled out (more steps may be
// appended).
static std::string twoNodesRolledOut()
{
    return R"(name: two nodes, one DaemonSet
seed: 5
mode: continuous
start: 2026-01-01T00:00:00Z
cluster:
  nodes: [{count: 2}]
  objects:
    - apiVersion: apps/v1
      kind: DaemonSet
      metadata: {name: web, namespace: default}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "nginx:1.26"}]}
steps:
  - run: {until: rolloutComplete default/web, timeout: 5m}
)";
}

// The cluster keeps its activity and event logs while a scenario runs only when something reads
// them: a trace, `expect.events`, `expect.sync`. The console and serve build their cluster with
// no reader, and a scenario starting 50,000 pods would otherwise hold five log entries per pod.
void TestCluster::scenarioRunKeepsLogsOnlyForAReader_data()
{
    QTest::addColumn<QString>("expect");
    QTest::addColumn<bool>("checkExpects");
    QTest::addColumn<bool>("trace");
    QTest::addColumn<bool>("keeps");
    QTest::newRow("no reader: the console's build") << QString() << false << false << false;
    QTest::newRow("sim run without expects on logs") << QString() << true << false << false;
    QTest::newRow("a trace") << QString() << true << true << true;
    QTest::newRow("expect.events") << QStringLiteral(
                                          "      events: {notContains: [{reason: SuccessfulDelete}]}")
                                   << true << false << true;
    QTest::newRow("expect.events, expects not checked")
        << QStringLiteral("      events: {notContains: [{reason: SuccessfulDelete}]}") << false << false
        << false;
}

void TestCluster::scenarioRunKeepsLogsOnlyForAReader()
{
    QFETCH(QString, expect);
    QFETCH(bool, checkExpects);
    QFETCH(bool, trace);
    QFETCH(bool, keeps);
    std::string text = twoNodesRolledOut();
    if (!expect.isEmpty())
        text += "  - expect:\n" + expect.toStdString() + "\n";
    auto parsed = scenario::ScenarioParser::parseText(text, "t.yaml");
    QVERIFY2(parsed, parsed ? "" : parsed.error().message.c_str());
    QTemporaryDir dir;
    scenario::ScenarioRunOptions options;
    options.checkExpects = checkExpects;
    if (trace)
        options.tracePath = dir.filePath(QStringLiteral("trace.jsonl")).toStdString();
    scenario::ScenarioRunner runner(std::move(*parsed));
    const auto result = runner.run(options);
    QCOMPARE(result.exitCode, 0);
    QVERIFY(runner.cluster());
    QCOMPARE(runner.cluster()->keepsLogs(), keeps);
    QCOMPARE(runner.cluster()->pods().size(), 2u); // the run itself is the same
}

void TestCluster::buildClusterEndingAtMovesOnlyTheClock()
{
    const std::string text = twoNodesRolledOut() + "  - run: {until: time 2026-01-01T00:10:00Z}\n";
    auto plain = scenario::ScenarioRunner::buildCluster(text, "t.yaml");
    const kube::Timestamp end = *kube::parseRfc3339("2026-12-03T10:00:00Z");
    auto moved = scenario::ScenarioRunner::buildClusterEndingAt(text, "t.yaml", end);
    QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
    QVERIFY2(moved, moved ? "" : moved.error().message.c_str());
    QCOMPARE((*moved)->now(), end);
    const kube::Duration shift = end - (*plain)->now();
    QVERIFY(shift > 0);
    auto a = (*plain)->pods(), b = (*moved)->pods();
    QCOMPARE(a.size(), 2u);
    QCOMPARE(b.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i]->metadata.name, a[i]->metadata.name);
        QCOMPARE(b[i]->metadata.uid, a[i]->metadata.uid);
        QCOMPARE(*b[i]->metadata.creationTimestamp - *a[i]->metadata.creationTimestamp, shift);
    }
    QCOMPARE((*moved)->resourceVersion(), (*plain)->resourceVersion());
    auto bad = scenario::ScenarioRunner::buildClusterEndingAt("steps: [", "bad.yaml", end);
    QVERIFY(!bad);
    QVERIFY(QString::fromStdString(bad.error().message).contains(QStringLiteral("bad.yaml")));
}

// Upstream's getNodesToDaemonPods skips a pod util.GetTargetNodeName cannot place (no
// spec.nodeName, no matchFields metadata.name in its required node affinity): it is adopted by
// the claim but neither counted on a node nor deleted, and every node still gets its own pod.
void TestCluster::adoptedPodWithoutATargetNodeIsSkipped()
{
    Cluster c(stepped());
    addNodes(c, 2);
    const Json orphan = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", "stray"}, {"namespace", "default"}, {"labels", {{"app", "web"}}}}},
        {"spec", {{"containers", Json::array({{{"name", "nginx"}, {"image", "nginx:1.26"}}})}}}};
    QVERIFY(c.create(orphan).ok());
    QVERIFY(c.create(webDs("nginx:1.26")).ok());
    QVERIFY(rollOut(c) > 0);
    const kube::Pod *stray = c.pod("default", "stray");
    QVERIFY2(stray, "the untargeted pod was deleted");
    QVERIFY(stray->metadata.controllerRef());
    QCOMPARE(stray->metadata.controllerRef()->uid, c.daemonSet("default", "web")->metadata.uid);
    std::set<std::string> nodes;
    for (const auto *p : c.podsOf("default", "web"))
        if (!p->node().empty())
            nodes.insert(p->node());
    QCOMPARE(nodes, (std::set<std::string>{"node-0", "node-1"}));
    const auto &status = c.daemonSet("default", "web")->status;
    QCOMPARE(status.desiredNumberScheduled, 2);
    QCOMPARE(status.currentNumberScheduled, 2);
    QCOMPARE(status.numberMisscheduled, 0);
}

// The API server stores what decoding into the Go types leaves (Quantity's canonical String,
// omitempty fields left out), and the DaemonSet controller hashes that template
// (controller.ComputeHash over the stored spec.template): 1000m re-stated as 1, 1024Mi as 1Gi,
// 0.5 as 500m, or an added nodeSelector: {}, tolerations: [], env: [], annotations: {} or
// hostNetwork: false is no new revision and replaces no pod.
void TestCluster::restatingATemplateCanonicallyRollsNothing()
{
    Cluster c(stepped());
    addNodes(c, 2);
    Json ds = webDs("nginx:1.26");
    ds["spec"]["template"]["spec"]["containers"][0]["resources"] = {
        {"limits", {{"cpu", "1000m"}, {"memory", "1024Mi"}}}, {"requests", {{"cpu", 0.5}}}};
    QVERIFY(c.create(ds).ok());
    QVERIFY(rollOut(c) > 0);
    const auto before = keys(c.podsOf("default", "web"));
    const auto generation = c.daemonSet("default", "web")->metadata.generation;
    QCOMPARE(c.controllerRevisionsOf("default", "web").size(), std::size_t(1));
    const Json stored = c.get(Kind::DaemonSet, "default", "web").value();
    QCOMPARE(stored["spec"]["template"]["spec"]["containers"][0]["resources"],
             Json({{"limits", {{"cpu", "1"}, {"memory", "1Gi"}}}, {"requests", {{"cpu", "500m"}}}}));

    Json restated = stored;
    auto &spec = restated["spec"]["template"]["spec"];
    spec["containers"][0]["resources"] = {{"limits", {{"cpu", "1"}, {"memory", "1Gi"}}},
                                          {"requests", {{"cpu", "500m"}}}};
    spec["containers"][0]["env"] = Json::array();
    spec["nodeSelector"] = Json::object();
    spec["tolerations"] = Json::array();
    spec["hostNetwork"] = false;
    restated["spec"]["template"]["metadata"]["annotations"] = Json::object();
    QVERIFY(c.update(restated).ok());
    QVERIFY(rollOut(c) > 0);
    QCOMPARE(c.daemonSet("default", "web")->metadata.generation, generation);
    QCOMPARE(c.controllerRevisionsOf("default", "web").size(), std::size_t(1));
    QCOMPARE(keys(c.podsOf("default", "web")), before);

    // A real change still rolls.
    spec["containers"][0]["resources"]["limits"]["cpu"] = "2";
    QVERIFY(c.update(restated).ok());
    QVERIFY(rollOut(c) > 0);
    QCOMPARE(c.controllerRevisionsOf("default", "web").size(), std::size_t(2));
}

// Upstream's node lifecycle controller (monitorNodeHealth): a node whose Ready condition leaves
// True is reported (RecordNodeStatusChange: "Node X status is now: NodeNotReady") and its pods
// are marked not ready (MarkPodsNotReady, a Warning NodeNotReady event on each) — for an
// Unreachable node (Unknown) as for a NotReady one. The DaemonSet then counts them unavailable.
void TestCluster::unreachableNodeMarksItsPodsNotReady()
{
    Cluster c(continuous(5));
    addNodes(c, 3);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    QVERIFY(c.fault("node-1", FaultKind::Unreachable).ok());
    c.advance(1000);
    std::string onNode;
    for (const auto *p : c.podsOf("default", "web")) {
        QCOMPARE(p->ready, p->node() != "node-1");
        if (p->node() == "node-1")
            onNode = p->metadata.name;
    }
    QCOMPARE(c.daemonSet("default", "web")->status.numberReady, 2);
    bool podEvent = false, nodeEvent = false;
    for (const auto *e : c.events()) {
        if (e->reason != "NodeNotReady")
            continue;
        if (e->involvedObject.kind == "Pod" && e->involvedObject.name == onNode) {
            podEvent = e->type == "Warning" && e->message == "Node is not ready" &&
                       e->sourceComponent == "node-controller";
        } else if (e->involvedObject.kind == "Node" && e->involvedObject.name == "node-1") {
            nodeEvent = e->message == "Node node-1 status is now: NodeNotReady";
        }
    }
    QVERIFY(podEvent && nodeEvent);
    QVERIFY(c.fault("node-1", FaultKind::Ready).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(3); }, 60000));
    bool ready = false;
    for (const auto *e : c.events())
        ready = ready || (e->reason == "NodeReady" && e->involvedObject.name == "node-1" &&
                          e->sourceComponent == "kubelet");
    QVERIFY(ready);
}

// Cluster::apply is a server-side apply by "daemonscope" that wins conflicts: a label another
// client added survives a re-apply of the manifest; a field this applier set before and now
// leaves out goes; a field another client changed is taken back.
void TestCluster::applyKeepsWhatOtherClientsSet()
{
    Cluster c(stepped());
    addNodes(c, 1);
    Json ds = webDs("nginx:1.26");
    ds["metadata"]["labels"] = {{"team", "web"}};
    ds["spec"]["minReadySeconds"] = 5;
    QVERIFY(c.apply(ds).ok());
    Json live = c.get(Kind::DaemonSet, "default", "web").value();
    live["metadata"]["labels"]["owner"] = "ops";
    live["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.27";
    QVERIFY(c.update(live).ok()); // another client, through the API (no manager: the engine's own)
    Json next = webDs("nginx:1.26");
    next["metadata"]["labels"] = {{"team", "web"}};
    auto applied = c.apply(next);
    QVERIFY2(applied.ok(), applied.ok() ? "" : applied.error().message.c_str());
    QCOMPARE((*applied)["metadata"]["labels"], Json({{"owner", "ops"}, {"team", "web"}}));
    QVERIFY(!(*applied)["spec"].contains("minReadySeconds"));
    QCOMPARE((*applied)["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:1.26");
}

// DaemonSet pods are scheduled by the default scheduler (since 1.12, node affinity on
// metadata.name): NodeResourcesFit compares the pod's requests with the node's allocatable less
// what its pods request, so on a full node the daemon pod stays Pending with a FailedScheduling
// event, and is bound once room is freed.
void TestCluster::daemonPodOnAFullNodeStaysPending()
{
    Cluster c(continuous(3));
    for (const char *name : {"node-0", "node-1"}) {
        Json node = nodeManifest(name);
        node["status"] = {{"allocatable", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}}};
        QVERIFY(c.create(node).ok());
    }
    const Json big = {{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"metadata", {{"name", "big"}, {"namespace", "default"}}},
                      {"spec",
                       {{"nodeName", "node-0"},
                        {"containers", Json::array({{{"name", "c"},
                                                     {"image", "busybox"},
                                                     {"resources", {{"requests", {{"cpu", "3500m"}}}}}}})}}}};
    QVERIFY(c.create(big).ok());
    Json ds = webDs("nginx:1.26");
    ds["spec"]["template"]["spec"]["containers"][0]["resources"] = {
        {"requests", {{"cpu", "1"}, {"memory", "1Gi"}}}};
    QVERIFY(c.create(ds).ok());
    c.advance(30000);
    const kube::Pod *pending = nullptr;
    for (const auto *p : c.podsOf("default", "web")) {
        if (p->node() == "node-0")
            pending = p;
        else
            QVERIFY(p->ready);
    }
    QVERIFY(pending);
    QVERIFY(pending->nodeName.empty());
    QCOMPARE(pending->phase, std::string("Pending"));
    int failed = 0;
    for (const auto *e : c.events())
        if (e->reason == "FailedScheduling" && e->involvedObject.name == pending->metadata.name) {
            ++failed;
            QCOMPARE(e->message,
                     std::string("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match "
                                 "Pod's node affinity/selector."));
            QCOMPARE(e->sourceComponent, std::string("default-scheduler"));
            QCOMPARE(e->count, 1);
        }
    QCOMPARE(failed, 1);
    QCOMPARE(c.daemonSet("default", "web")->status.numberReady, 1);
    QVERIFY(c.remove(Kind::Pod, "default", "big", 0).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 60000));
    QCOMPARE(c.daemonSet("default", "web")->status.numberReady, 2);
}

#include "tst_cluster.moc"

namespace {

Json barePod(const std::string &name, const std::string &node, const Json &specExtra = Json::object())
{
    Json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", name}, {"namespace", "default"}}},
        {"spec", {{"nodeName", node}, {"containers", Json::array({{{"name", "app"}, {"image", "app:1"}}})}}}};
    pod["spec"].merge_patch(specExtra);
    return pod;
}

std::vector<std::string> podEventLines(const Cluster &c, const std::string &pod)
{
    std::vector<std::string> out;
    for (const auto *e : c.events())
        if (e->involvedObject.kind == "Pod" && e->involvedObject.name == pod)
            out.push_back(e->sourceComponent + " " + e->reason + " " + e->involvedObject.fieldPath + " " +
                          e->message + " x" + std::to_string(e->count));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

// The scheduler's Scheduled event (schedule_one.go, handleBindingCycle) and the kubelet's
// container events (kuberuntime_container.go startContainer, image puller, killContainer,
// doBackOff): an image is pulled once per node under IfNotPresent, always when tagged latest.
void TestCluster::kubeletReportsWhatItDoesToPods()
{
    ClusterOptions o = continuous(4);
    o.kubelet.failingImages = {"*:broken"};
    Cluster c(o);
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.27")).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(1); }, 60000));
    const std::string first = c.podsOf("default", "web").at(0)->metadata.name;
    const std::vector<std::string> want = {
        "default-scheduler Scheduled  Successfully assigned default/" + first + " to node-0 x1",
        "kubelet Created spec.containers{nginx} Created container: nginx x1",
        "kubelet Pulled spec.containers{nginx} Successfully pulled image \"nginx:1.27\" in ",
        "kubelet Pulling spec.containers{nginx} Pulling image \"nginx:1.27\" x1",
        "kubelet Started spec.containers{nginx} Started container nginx x1",
    };
    std::vector<std::string> got = podEventLines(c, first);
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        QVERIFY2(got[i].rfind(want[i], 0) == 0, got[i].c_str());
    QVERIFY2(got[2].find("including waiting) x1") != std::string::npos, got[2].c_str());

    // A second pod with the same image on the node: no pull.
    QVERIFY(c.create(barePod("again", "node-0",
                             {{"containers", Json::array({{{"name", "app"}, {"image", "nginx:1.27"}}})}}))
                .ok());
    QVERIFY(c.runUntil([&] { return c.pod("default", "again") && c.pod("default", "again")->ready; }, 60000));
    got = podEventLines(c, "again");
    QVERIFY(std::find(got.begin(), got.end(),
                      "kubelet Pulled spec.containers{app} Container image \"nginx:1.27\" already present on "
                      "machine x1") != got.end());
    QVERIFY(std::none_of(got.begin(), got.end(),
                         [](const std::string &l) { return l.find(" Pulling ") != std::string::npos; }));

    // Deleting a running pod: Killing.
    QVERIFY(c.remove(Kind::Pod, "default", "again").ok());
    got = podEventLines(c, "again");
    QVERIFY(std::find(got.begin(), got.end(),
                      "kubelet Killing spec.containers{app} Stopping container app x1") != got.end());

    // A crash-looping container: one BackOff event whose count grows.
    QVERIFY(c.create(barePod("crash", "node-0",
                             {{"containers", Json::array({{{"name", "app"}, {"image", "app:broken"}}})}}))
                .ok());
    c.advance(120000);
    const kube::Pod *crash = c.pod("default", "crash");
    QVERIFY(crash && crash->restartCount >= 3);
    int backOff = 0;
    for (const auto *e : c.events())
        if (e->involvedObject.name == "crash" && e->reason == "BackOff") {
            QCOMPARE(e->type, std::string("Warning"));
            QCOMPARE(e->message, "Back-off restarting failed container app in pod crash_default(" +
                                     crash->metadata.uid + ")");
            backOff = e->count;
        }
    QCOMPARE(backOff, crash->restartCount - 1);
}

// plugin/pkg/admission/defaulttolerationseconds: every pod that does not already tolerate them
// gets not-ready and unreachable NoExecute tolerations for 300 s; daemon pods carry their own
// (AddOrUpdateDaemonPodTolerations, without seconds) and are left alone.
void TestCluster::podsGetDefaultTolerationSeconds()
{
    Cluster c(stepped());
    addNodes(c, 1);
    QVERIFY(c.create(barePod("plain", "node-0")).ok());
    const Json tolerations = c.get(Kind::Pod, "default", "plain").value()["spec"]["tolerations"];
    QCOMPARE(
        tolerations,
        Json::parse(
            R"([{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},
                             {"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}])"));
    const Json own = Json::parse(
        R"([{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":60}])");
    QVERIFY(c.create(barePod("own", "node-0", {{"tolerations", own}})).ok());
    const Json ownAfter = c.get(Kind::Pod, "default", "own").value()["spec"]["tolerations"];
    QCOMPARE(ownAfter.size(), std::size_t(2));
    QCOMPARE(ownAfter[0]["tolerationSeconds"].get<int>(), 60);
    QCOMPARE(ownAfter[1]["key"].get<std::string>(), std::string("node.kubernetes.io/not-ready"));
    QVERIFY(c.create(barePod("all", "node-0", {{"tolerations", Json::parse(R"([{"operator":"Exists"}])")}}))
                .ok());
    QCOMPARE(c.get(Kind::Pod, "default", "all").value()["spec"]["tolerations"].size(), std::size_t(1));

    Json ds = webDs("nginx:1.27");
    ds["spec"]["template"]["spec"]["hostNetwork"] = true;
    ds["spec"]["template"]["spec"]["containers"][0]["ports"] = Json::parse(R"([{"containerPort":9100}])");
    QVERIFY(c.create(ds).ok());
    c.syncDaemonSet("default", "web");
    QCOMPARE(c.podsOf("default", "web").size(), std::size_t(1));
    for (const auto *p : c.podsOf("default", "web")) {
        for (const auto &t : (*p->spec)["tolerations"])
            QVERIFY2(!t.contains("tolerationSeconds"), t.dump().c_str());
        // The Pod's host-network port is a host port (SetDefaults_Pod); the template's is not
        // (SetDefaults_PodSpec since 1.28), so the stored DaemonSet is as the client wrote it.
        QCOMPARE((*p->spec)["containers"][0]["ports"][0]["hostPort"].get<int>(), 9100);
    }
    const Json stored = c.get(Kind::DaemonSet, "default", "web").value();
    QVERIFY(!stored["spec"]["template"]["spec"]["containers"][0]["ports"][0].contains("hostPort"));
}

// The taint eviction controller (pkg/controller/tainteviction, processPodOnNode and
// getMinTolerationTime): untolerated NoExecute taints delete at once; tolerated ones after the
// least tolerationSeconds, cancelled when the taint goes first; a toleration without seconds
// keeps the pod. On an Unreachable node the deletion cannot complete: the pod stays Terminating.
void TestCluster::noExecuteTaintEvictsAfterTolerationSeconds()
{
    Cluster c(continuous(9));
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.27")).ok());
    QVERIFY(c.create(barePod("short", "node-1")).ok());
    QVERIFY(
        c
            .create(barePod(
                "brief", "node-1",
                {{"tolerations",
                  Json::parse(
                      R"([{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":30}])")}}))
            .ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(4); }, 60000));

    // NotReady for 100 s: "brief" (30 s) goes, "short" (300 s) is spared, the daemon pod stays.
    QVERIFY(c.fault("node-1", FaultKind::NotReady).ok());
    c.advance(29000);
    QVERIFY(!c.pod("default", "brief")->isDeleting());
    c.advance(2000);
    QVERIFY(c.pod("default", "brief") == nullptr || c.pod("default", "brief")->isDeleting());
    c.advance(69000);
    QVERIFY(c.fault("node-1", FaultKind::Ready).ok());
    c.advance(1000);
    QVERIFY(c.pod("default", "short") && !c.pod("default", "short")->isDeleting());
    auto messages = podEventLines(c, "short");
    QVERIFY(
        std::find(
            messages.begin(), messages.end(),
            "taint-eviction-controller TaintManagerEviction  Cancelling deletion of Pod default/short x1") !=
        messages.end());
    messages = podEventLines(c, "brief");
    QVERIFY(
        std::find(
            messages.begin(), messages.end(),
            "taint-eviction-controller TaintManagerEviction  Marking for deletion Pod default/brief x1") !=
        messages.end());

    // A NoExecute taint nobody tolerates: the bare pod is deleted at once, the daemon pod too
    // (it tolerates only the node-condition taints).
    QVERIFY(c.create(barePod("victim", "node-0")).ok());
    QVERIFY(
        c.runUntil([&] { return c.pod("default", "victim") && c.pod("default", "victim")->ready; }, 60000));
    QVERIFY(c.taint("node-0", {"dedicated", "db", "NoExecute"}).ok());
    c.advance(1);
    QVERIFY(c.pod("default", "victim") == nullptr || c.pod("default", "victim")->isDeleting());
    QVERIFY(c.untaint("node-0", "dedicated").ok());

    // Unreachable for 10 minutes: "short" is marked for deletion after 300 s and stays
    // Terminating while the kubelet cannot confirm; daemon pods are never evicted.
    QVERIFY(c.fault("node-1", FaultKind::Unreachable).ok());
    c.advance(301000);
    const kube::Pod *stuck = c.pod("default", "short");
    QVERIFY(stuck && stuck->isDeleting());
    c.advance(300000);
    QVERIFY(c.pod("default", "short") && c.pod("default", "short")->isDeleting());
    for (const auto *p : c.podsOf("default", "web"))
        QVERIFY(!p->isDeleting());
    QVERIFY(c.fault("node-1", FaultKind::Ready).ok());
    QVERIFY(c.runUntil([&] { return c.pod("default", "short") == nullptr; }, 120000));
}

// A cluster that runs on for serve or the console keeps no trace logs (they would grow with every
// pod start); its Event objects are kept as always.
void TestCluster::stoppedLogsKeepNothingButTheEvents()
{
    Cluster c(continuous(2));
    addNodes(c, 2);
    QVERIFY(c.create(webDs("nginx:1.27")).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(2); }, 60000));
    QVERIFY(!c.takeEvents().empty());
    QVERIFY(!c.takeActivity().empty());
    c.stopLogs();
    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Merge, imagePatch("nginx:1.28")).ok());
    QVERIFY(c.runUntil([&] { return c.rolloutComplete("default", "web"); }, 120000));
    QVERIFY(c.takeEvents().empty());
    QVERIFY(c.takeActivity().empty());
    bool started = false;
    for (const auto *e : c.events())
        started = started || (e->reason == "Pulling" && e->message == "Pulling image \"nginx:1.28\"");
    QVERIFY(started);
}

namespace {

const kube::ApiStatus kTimedOut = kube::ApiStatus::internal("etcdserver: request timed out");

// How many times (Event counts summed) `reason` of `type` was recorded on the object.
int eventCount(const Cluster &c, const std::string &kind, const std::string &name, const std::string &type,
               const std::string &reason)
{
    int n = 0;
    for (const auto *e : c.events())
        if (e->involvedObject.kind == kind && e->involvedObject.name == name && e->type == type &&
            e->reason == reason)
            n += e->count;
    return n;
}

// The True condition of `type` of a stored Job, or an empty object.
Json jobCondition(const Cluster &c, const std::string &name, const std::string &type)
{
    auto job = c.get(Kind::Job, "default", name);
    if (job)
        for (const auto &cond : (*job)["status"].value("conditions", Json::array()))
            if (cond.value("type", "") == type && cond.value("status", "") == "True")
                return cond;
    return Json::object();
}

Json jobManifest(const std::string &name, const Json &specExtra, const Json &templateMeta = Json::object())
{
    Json job = {{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec",
                 {{"template",
                   {{"metadata", templateMeta},
                    {"spec",
                     {{"restartPolicy", "Never"},
                      {"containers", Json::array({{{"name", "c"}, {"image", "busybox"}}})}}}}}}}};
    job["spec"].merge_patch(specExtra);
    return job;
}

// The first pod of the Job that satisfies `want`, or null.
const kube::Pod *jobPod(const Cluster &c, const std::string &job,
                        const std::function<bool(const kube::Pod &)> &want = {})
{
    for (const auto *p : c.pods())
        if (const auto *ref = p->metadata.controllerRef();
            ref && ref->kind == "Job" && ref->name == job && (!want || want(*p)))
            return p;
    return nullptr;
}

} // namespace

// A Job past its deadline whose running pod the API server refuses to delete: the sync fails
// with a Warning FailedDelete on the Job, the Job is not declared Failed (only FailureTarget)
// while the pod runs, and the key is requeued 5 ms, 10 ms, 20 ms later (client-go's per-item
// rate limit); once the deletion is accepted the Job fails as it would have at once.
void TestCluster::aRefusedJobPodDeletionFailsTheSyncAndIsRequeuedWithBackoff()
{
    Cluster c(continuous(3));
    addNodes(c, 1);
    QVERIFY(c.create(jobManifest("slow", {{"activeDeadlineSeconds", 20}})).ok());
    QVERIFY(c.runUntil([&] { return jobPod(c, "slow", [](const kube::Pod &p) { return p.ready; }); }, 20000));
    const std::string pod = jobPod(c, "slow")->metadata.name;
    c.refuseWrites(Kind::Pod, "default", pod, 3, kTimedOut);
    auto refused = [&] { return eventCount(c, "Job", "slow", "Warning", "FailedDelete"); };
    auto deleting = [&] { return c.pod("default", pod) == nullptr || c.pod("default", pod)->isDeleting(); };

    QVERIFY(c.runUntil([&] { return refused() == 1; }, 30000));
    for (const auto *e : c.events())
        if (e->reason == "FailedDelete")
            QCOMPARE(e->message, std::string("Error deleting: etcdserver: request timed out"));
    QVERIFY(!deleting());
    QCOMPARE(jobCondition(c, "slow", "FailureTarget").value("reason", ""), std::string("DeadlineExceeded"));
    QVERIFY(jobCondition(c, "slow", "Failed").empty());
    QCOMPARE((*c.get(Kind::Job, "default", "slow"))["status"]["active"], Json(1));

    // Requeued after 5 ms, then 10 ms, then 20 ms: never sooner.
    for (const auto &[delay, refusals] : {std::pair{5, 2}, std::pair{10, 3}}) {
        c.advance(delay - 1);
        QCOMPARE(refused(), refusals - 1);
        c.advance(1);
        QCOMPARE(refused(), refusals);
        QVERIFY(!deleting());
        QVERIFY(jobCondition(c, "slow", "Failed").empty());
    }
    c.advance(19);
    QVERIFY(!deleting());
    c.advance(1);
    QVERIFY(deleting());
    QCOMPARE(refused(), 3);
    QCOMPARE(jobCondition(c, "slow", "Failed").value("reason", ""), std::string("DeadlineExceeded"));
    QCOMPARE((*c.get(Kind::Job, "default", "slow"))["status"]["active"], Json(0));
    QCOMPARE(eventCount(c, "Job", "slow", "Warning", "DeadlineExceeded"), 1);
    // Finished: nothing more is tried.
    c.advance(60000);
    QCOMPARE(refused(), 3);
}

// Scaling a ReplicaSet down deletes through the API like any client: a refused deletion is a
// Warning FailedDelete on the ReplicaSet ("Error deleting: …", as PodControl records it) and the
// sync is requeued 5 ms, 10 ms, 20 ms later (client-go's per-item back-off) until it goes through.
void TestCluster::aRefusedReplicaSetPodDeletionIsReportedAndRetried()
{
    Cluster c(continuous(4));
    addNodes(c, 1);
    QVERIFY(c.create(testsupport::replicaSetManifest("api", "shop", 2, "api", "api:1")).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(2); }, 60000));
    PodSelector sel;
    sel.replicaSet = "shop/api";
    for (const auto *p : c.selectPods(sel))
        c.refuseWrites(Kind::Pod, "shop", p->metadata.name, 3, kTimedOut);
    auto refused = [&] { return eventCount(c, "ReplicaSet", "api", "Warning", "FailedDelete"); };
    auto deleted = [&] { return eventCount(c, "ReplicaSet", "api", "Normal", "SuccessfulDelete"); };

    QVERIFY(c.patch(Kind::ReplicaSet, "shop", "api", PatchType::Merge, {{"spec", {{"replicas", 1}}}}).ok());
    QVERIFY(c.runUntil([&] { return refused() == 1; }, 30000));
    for (const auto *e : c.events())
        if (e->reason == "FailedDelete")
            QCOMPARE(e->message, std::string("Error deleting: etcdserver: request timed out"));
    for (const auto &[delay, refusals] : {std::pair{5, 2}, std::pair{10, 3}}) {
        c.advance(delay - 1);
        QCOMPARE(refused(), refusals - 1);
        c.advance(1);
        QCOMPARE(refused(), refusals);
        QCOMPARE(deleted(), 0);
    }
    c.advance(19);
    QCOMPARE(deleted(), 0);
    c.advance(1);
    QCOMPARE(deleted(), 1);
    c.advance(30000);
    QCOMPARE(refused(), 3);
    QCOMPARE(c.selectPods(sel).size(), std::size_t(1));
}

// The DaemonSet controller's deletions go through the API as well: a refused one is a Warning
// FailedDelete on the DaemonSet, the sync fails and is requeued 5 ms, then 10 ms later, and the
// rolling update goes on once the deletion is accepted.
void TestCluster::aRefusedDaemonSetPodDeletionIsReportedAndRetried()
{
    Cluster c(continuous(6));
    addNodes(c, 1);
    QVERIFY(c.create(webDs("nginx:1.19")).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(1); }, 60000));
    const std::string old = c.podsOf("default", "web").at(0)->metadata.name;
    c.refuseWrites(Kind::Pod, "default", old, 2, kTimedOut);
    auto refused = [&] { return eventCount(c, "DaemonSet", "web", "Warning", "FailedDelete"); };
    auto deleting = [&] { return c.pod("default", old) == nullptr || c.pod("default", old)->isDeleting(); };

    QVERIFY(c.patch(Kind::DaemonSet, "default", "web", PatchType::Strategic, imagePatch("nginx:1.20")).ok());
    QVERIFY(c.runUntil([&] { return refused() == 1; }, 30000));
    QVERIFY(!deleting());
    for (const auto *e : c.events())
        if (e->reason == "FailedDelete")
            QCOMPARE(e->message, std::string("Error deleting: etcdserver: request timed out"));
    // Requeued 5 ms later (client-go's base delay), then 10 ms: never sooner.
    c.advance(4);
    QCOMPARE(refused(), 1);
    c.advance(1);
    QCOMPARE(refused(), 2);
    c.advance(9);
    QVERIFY(!deleting());
    c.advance(1);
    QVERIFY(deleting());
    QCOMPARE(refused(), 2);
    QVERIFY(c.runUntil(
        [&] {
            const auto pods = c.podsOf("default", "web");
            return pods.size() == 1 && pods[0]->metadata.name != old && pods[0]->ready;
        },
        60000));
}

// A NoExecute taint evicts a pod whose deletion the API server refuses: each refusal is a
// Warning on the pod and the deletion is retried 10 ms, 20 ms, 40 ms later until it is accepted.
// A pod whose deletions keep being refused is retried until the taint goes; then the eviction is
// cancelled and nothing more is tried.
void TestCluster::aRefusedTaintEvictionIsRetriedWithBackoffUntilCancelled()
{
    Cluster c(continuous(9));
    addNodes(c, 1);
    QVERIFY(c.create(barePod("victim", "node-0")).ok());
    QVERIFY(c.create(barePod("stuck", "node-0")).ok());
    QVERIFY(c.runUntil([&] { return c.podsReady(2); }, 60000));
    c.refuseWrites(Kind::Pod, "default", "victim", 3, kTimedOut);
    c.refuseWrites(Kind::Pod, "default", "stuck", 1000, kTimedOut);
    auto refused = [&](const std::string &pod) {
        return eventCount(c, "Pod", pod, "Warning", "TaintManagerEviction");
    };
    auto deleting = [&](const std::string &pod) {
        return c.pod("default", pod) == nullptr || c.pod("default", pod)->isDeleting();
    };

    const kube::Timestamp tainted = c.now();
    QVERIFY(c.taint("node-0", {"dedicated", "db", "NoExecute"}).ok());
    QVERIFY(c.runUntil([&] { return refused("victim") == 1; }, 1000));
    QCOMPARE(c.now(), tainted);
    for (const auto &[delay, refusals] : {std::pair{10, 2}, std::pair{20, 3}}) {
        c.advance(delay - 1);
        QCOMPARE(refused("victim"), refusals - 1);
        c.advance(1);
        QCOMPARE(refused("victim"), refusals);
        QVERIFY(!deleting("victim"));
    }
    c.advance(39);
    QVERIFY(!deleting("victim"));
    c.advance(1);
    QVERIFY(deleting("victim"));
    QCOMPARE(refused("victim"), 3);
    QCOMPARE(refused("stuck"), 4);
    const auto lines = podEventLines(c, "victim");
    QVERIFY(
        std::find(
            lines.begin(), lines.end(),
            "taint-eviction-controller TaintManagerEviction  Marking for deletion Pod default/victim x1") !=
        lines.end());
    QVERIFY(std::find(lines.begin(), lines.end(),
                      "taint-eviction-controller TaintManagerEviction  Failed to delete Pod default/victim: "
                      "etcdserver: request timed out x3") != lines.end());

    // "stuck" keeps backing off (80 ms, 160 ms …) until the taint goes.
    c.advance(1000);
    const int before = refused("stuck");
    QVERIFY(before > 4);
    QVERIFY(!deleting("stuck"));
    QVERIFY(c.untaint("node-0", "dedicated").ok());
    c.advance(600000);
    QCOMPARE(refused("stuck"), before);
    QVERIFY(!deleting("stuck"));
    QCOMPARE(eventCount(c, "Pod", "stuck", "Normal", "TaintManagerEviction"), 2); // marking, cancelling
    c.refuseWrites(Kind::Pod, "default", "stuck", 0, kTimedOut);
}

// The node agent's writes on a kamikaze restart — the acknowledgement, Ready=Unknown as it
// leaves, Ready and the new version as it returns — each refused: the step is done again 10 s
// later (the kubelet's nodeStatusUpdateFrequency), and the next step is timed from the write
// that went through. The new boot's ID is the one a run without refusals gets.
void TestCluster::aRefusedAgentNodeWriteIsRetriedAfterTheStatusInterval()
{
    auto run = [](bool refuse, std::string &bootId) {
        Cluster c(continuous(5));
        addNodes(c, 1);
        NodeUpgradeAgent agent(c);
        const auto &t = agent.timings();
        const auto retry = NodeUpgradeAgent::kStatusRetry;
        auto ack = [&] { return c.node("node-0")->metadata.annotation(api::ann::kKamikazeAck); };
        auto ready = [&] { return c.node("node-0")->isReady(); };
        QVERIFY(c.runUntil([&] { return ready(); }, 60000));
        QVERIFY(c.annotateNode("node-0", {{api::ann::kKamikaze, "v2.0.0#1.1"}}).ok());
        if (!refuse) {
            QVERIFY(c.runUntil([&] { return !ready(); }, 60000));
            QVERIFY(c.runUntil([&] { return ready(); }, 60000));
            bootId = c.node("node-0")->info.bootID;
            return;
        }
        // The acknowledgement, refused twice.
        c.refuseWrites(Kind::Node, "", "node-0", 2, kTimedOut);
        c.advance(t.ackDelay + retry - 1);
        QCOMPARE(ack(), std::string());
        c.advance(retry);
        QCOMPARE(ack(), std::string());
        c.advance(1);
        QCOMPARE(ack(), std::string("v2.0.0#1.1"));
        // Leaving (Ready=Unknown), refused once.
        c.refuseWrites(Kind::Node, "", "node-0", 1, kTimedOut);
        c.advance(t.leaveDelay + retry - 1);
        QVERIFY(ready());
        c.advance(1);
        QVERIFY(!ready());
        // Returning on v2.0.0, refused once: still away on the old version until the retry.
        c.refuseWrites(Kind::Node, "", "node-0", 1, kTimedOut);
        c.advance(t.downTime + retry - 1);
        QVERIFY(!ready());
        QVERIFY(c.node("node-0")->kubeletVersion != "v2.0.0");
        c.advance(1);
        QVERIFY(ready());
        QCOMPARE(c.node("node-0")->kubeletVersion, std::string("v2.0.0"));
        bootId = c.node("node-0")->info.bootID;
    };
    std::string plain, refused;
    run(false, plain);
    run(true, refused);
    QVERIFY(!plain.empty());
    QCOMPARE(refused, plain);
}

// A restart Job's pod whose Succeeded status the API server refuses: the agent writes it again
// 10 s later, and only then does the node restart.
void TestCluster::aRefusedJobPodStatusIsRetriedByTheAgent()
{
    Cluster c(continuous(6));
    addNodes(c, 1);
    NodeUpgradeAgent agent(c);
    QVERIFY(c.create(jobManifest("restart", {{"template", {{"spec", {{"nodeName", "node-0"}}}}}},
                                 {{"annotations", {{api::ann::kTargetVersion, "v2.0.0"}}}}))
                .ok());
    QVERIFY(c.runUntil([&] { return jobPod(c, "restart") != nullptr; }, 20000));
    const std::string pod = jobPod(c, "restart")->metadata.name;
    c.refuseWrites(Kind::Pod, "default", pod, 1, kTimedOut);
    QVERIFY(c.runUntil([&] { return c.pod("default", pod)->ready; }, 20000));
    auto phase = [&] { return c.pod("default", pod)->phase; };
    c.advance(agent.timings().ackDelay + NodeUpgradeAgent::kStatusRetry - 1);
    QCOMPARE(phase(), std::string("Running"));
    QVERIFY(c.node("node-0")->isReady());
    c.advance(1);
    QCOMPARE(phase(), std::string("Succeeded"));
    c.advance(agent.timings().leaveDelay);
    QVERIFY(!c.node("node-0")->isReady());
    QVERIFY(c.runUntil([&] { return c.node("node-0")->kubeletVersion == "v2.0.0"; }, 60000));
    QVERIFY(!jobCondition(c, "restart", "Complete").empty());
}
