// NodeUpgradeRollout as a kind of the engine's object store: the API semantics every kind has
// (resourceVersion per write, generation on spec change, status only via the status
// subresource, Conflict on a stale resourceVersion, watch events), the typed store adapter on
// top of it, and rollout events recorded by the cluster exactly once.
#include "models/sim/cluster.h"
#include "models/sim/nodeupgraderuntime.h"

#include <QTest>

using kube::Json;
using namespace sim;
using namespace api;
using namespace Qt::StringLiterals;

namespace {

Json rolloutManifest(const std::string &name, const std::string &target)
{
    return {{"apiVersion", "upgrade.daemonscope.io/v1alpha1"},
            {"kind", "NodeUpgradeRollout"},
            {"metadata", {{"name", name}}},
            {"spec", {{"targetVersion", target}}}};
}

std::string rvOf(const Json &j)
{
    return j["metadata"].value("resourceVersion", "");
}

} // namespace

class TstRolloutKind : public QObject
{
    Q_OBJECT

private slots:
    void kindNames_data();
    void kindNames();
    void writesFollowTheApiRules_data();
    void writesFollowTheApiRules();
    void staleResourceVersionIsAConflict();
    void watchSeesAddModifyDelete();
    void storeAdapterMirrorsTheCluster();
    void rolloutEventsAreRecordedOnce();
    void invalidSpecNamesTheField_data();
    void invalidSpecNamesTheField();
    void restartMechanismRoundTrips();
    void statusNormalizesAsTheCodecStoresIt_data();
    void statusNormalizesAsTheCodecStoresIt();
};

void TstRolloutKind::kindNames_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("the kind is recognised") << QStringLiteral("NodeUpgradeRollout");
    QTest::newRow("the plural resource is recognised") << QStringLiteral("nodeupgraderollouts");
    QTest::newRow("the short name nur is recognised") << QStringLiteral("nur");
    QTest::newRow("the resource with its group is recognised")
        << QStringLiteral("nodeupgraderollouts.upgrade.daemonscope.io");
}

void TstRolloutKind::kindNames()
{
    QFETCH(QString, text);
    const auto k = kindFromString(text.toStdString());
    QVERIFY(k.has_value());
    QVERIFY(*k == Kind::NodeUpgradeRollout);
    QCOMPARE(std::string(apiVersion(*k)), std::string("upgrade.daemonscope.io/v1alpha1"));
    QCOMPARE(std::string(apiGroup(*k)), std::string("upgrade.daemonscope.io"));
    QCOMPARE(std::string(resourceName(*k)), std::string("nodeupgraderollouts"));
    QVERIFY(!isNamespaced(*k));
}

void TstRolloutKind::writesFollowTheApiRules_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<bool>("written");
    QTest::addColumn<int>("generation");
    QTest::newRow("a spec change bumps the generation") << QStringLiteral("spec") << true << 2;
    QTest::newRow("an unchanged re-apply writes nothing") << QStringLiteral("none") << false << 1;
    QTest::newRow("status in a spec update is ignored") << QStringLiteral("statusInUpdate") << false << 1;
    QTest::newRow("a status update keeps the generation") << QStringLiteral("status") << true << 1;
}

void TstRolloutKind::writesFollowTheApiRules()
{
    QFETCH(QString, change);
    QFETCH(bool, written);
    QFETCH(int, generation);
    Cluster c;
    auto created = c.create(rolloutManifest("agents", "v2"));
    QVERIFY2(created.ok(), created.ok() ? "" : created.error().message.c_str());
    QCOMPARE(created->value("metadata", Json::object()).value("generation", 0), 1);
    QVERIFY(!rvOf(*created).empty());
    QVERIFY(!(*created)["metadata"].value("uid", "").empty());

    kube::Result<Json> r = *created;
    if (change == QLatin1String("spec")) {
        r = c.apply(rolloutManifest("agents", "v3"));
    } else if (change == QLatin1String("none")) {
        // The first apply records its manager (a write, no spec change); the second is a no-op.
        created = c.apply(rolloutManifest("agents", "v2"));
        QVERIFY(created.ok());
        QCOMPARE((*created)["metadata"]["managedFields"][0]["manager"].get<std::string>(),
                 std::string("daemonscope"));
        r = c.apply(rolloutManifest("agents", "v2"));
    } else if (change == QLatin1String("statusInUpdate")) {
        Json m = rolloutManifest("agents", "v2");
        m["status"] = {{"phase", "Completed"}};
        r = c.update(m);
    } else {
        Json m = rolloutManifest("agents", "v2");
        m["status"] = {{"phase", "Progressing"}, {"headline", "working"}};
        r = c.updateStatus(m);
    }
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(rvOf(*r) != rvOf(*created), written);
    QCOMPARE((*r)["metadata"].value("generation", 0), generation);
    auto got = c.get(Kind::NodeUpgradeRollout, "", "agents");
    QVERIFY(got.ok());
    QVERIFY(*got == *r);
    if (change == QLatin1String("status"))
        QCOMPARE((*got)["status"].value("phase", ""), std::string("Progressing"));
    else
        QCOMPARE((*got)["status"].value("phase", ""), std::string("Pending"));
    auto list = c.list(Kind::NodeUpgradeRollout);
    QVERIFY(list.ok());
    QCOMPARE((*list)["kind"].get<std::string>(), std::string("NodeUpgradeRolloutList"));
    QCOMPARE((*list)["items"].size(), std::size_t(1));
}

void TstRolloutKind::staleResourceVersionIsAConflict()
{
    Cluster c;
    auto created = c.create(rolloutManifest("agents", "v2"));
    QVERIFY(created.ok());
    QVERIFY(c.apply(rolloutManifest("agents", "v3")).ok());
    Json stale = *created;
    stale["spec"]["targetVersion"] = "v4";
    auto r = c.update(stale);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 409);
    auto p = c.patch(Kind::NodeUpgradeRollout, "", "agents", PatchType::Merge,
                     {{"metadata", {{"resourceVersion", rvOf(*created)}}}, {"spec", {{"paused", true}}}});
    QVERIFY(!p.ok());
    QCOMPARE(p.error().code, 409);
}

void TstRolloutKind::watchSeesAddModifyDelete()
{
    Cluster c;
    std::vector<std::string> seen;
    c.watch(Kind::NodeUpgradeRollout, [&](const WatchEvent &ev) {
        QVERIFY(ev.custom != nullptr);
        QCOMPARE(ev.object()["metadata"].value("name", ""), ev.name);
        seen.push_back(std::string(watchEventTypeName(ev.type)) + " " + ev.name + " " +
                       ev.object()["spec"].value("targetVersion", ""));
    });
    QVERIFY(c.create(rolloutManifest("agents", "v2")).ok());
    QVERIFY(c.patch(Kind::NodeUpgradeRollout, "", "agents", PatchType::Merge,
                    {{"spec", {{"targetVersion", "v3"}}}})
                .ok());
    QVERIFY(c.remove(Kind::NodeUpgradeRollout, "", "agents").ok());
    QVERIFY(!c.get(Kind::NodeUpgradeRollout, "", "agents").ok());
    const std::vector<std::string> want = {"ADDED agents v2", "MODIFIED agents v3", "DELETED agents v3"};
    QCOMPARE(seen, want);
}

void TstRolloutKind::storeAdapterMirrorsTheCluster()
{
    Cluster c;
    NodeUpgradeRolloutStore store(c);
    QVERIFY(store.apply(Json{{"name", "agents"}, {"targetVersion", "v2"}}, 0, {}).ok());
    const NodeUpgradeRollout *r = store.get("agents");
    QVERIFY(r != nullptr);
    QCOMPARE(r->metadata.generation, std::int64_t(1));
    QCOMPARE(store.resourceVersion(), c.resourceVersion());

    NodeUpgradeRolloutStatus st = r->status;
    st.headline = "halfway";
    QVERIFY(store.updateStatus("agents", st).ok());
    QCOMPARE(store.get("agents"), r); // same object, updated in place
    QCOMPARE(r->status.headline, std::string("halfway"));
    QCOMPARE((*c.get(Kind::NodeUpgradeRollout, "", "agents"))["status"].value("headline", ""),
             std::string("halfway"));

    // A write through the API shows in the adapter.
    QVERIFY(c.patch(Kind::NodeUpgradeRollout, "", "agents", PatchType::Merge, {{"spec", {{"paused", true}}}})
                .ok());
    QVERIFY(r->spec.paused);
    QCOMPARE(r->metadata.generation, std::int64_t(2));
    QCOMPARE(r->status.headline, std::string("halfway"));

    QVERIFY(store.edit("agents", [](NodeUpgradeRollout &x) { x.metadata.annotations["note"] = "x"; }).ok());
    QCOMPARE(r->metadata.annotations.at("note"), std::string("x"));
    QCOMPARE(r->metadata.generation, std::int64_t(2));

    QVERIFY(store.remove("agents").ok());
    QVERIFY(store.get("agents") == nullptr);
    QVERIFY(!c.get(Kind::NodeUpgradeRollout, "", "agents").ok());
}

void TstRolloutKind::rolloutEventsAreRecordedOnce()
{
    Cluster c;
    kube::Node n;
    n.metadata.name = "node-0";
    QVERIFY(c.addNode(n).ok());
    NodeUpgradeRuntime &rt = c.nodeUpgrade();
    (void)c.takeEvents();
    QVERIFY(rt.apply(Json{{"name", "agents"}, {"targetVersion", "v2"}}).ok());
    const auto events = c.takeEvents();
    const auto rolloutEvents = rt.takeRolloutEvents();
    QVERIFY(!rolloutEvents.empty());
    std::size_t inCluster = 0;
    for (const auto &e : events)
        if (e.object.rfind("nodeupgraderollout/", 0) == 0)
            ++inCluster;
    QCOMPARE(inCluster, rolloutEvents.size());
    bool stored = false;
    for (const auto *e : c.events())
        stored =
            stored || (e->involvedObject.kind == "NodeUpgradeRollout" && e->involvedObject.name == "agents");
    QVERIFY(stored);
}

void TstRolloutKind::invalidSpecNamesTheField_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::newRow("enum") << uR"({"targetVersion":"v2","onDrainTimeout":"Sometimes"})"_s
                          << u"spec.onDrainTimeout"_s
                          << uR"(must be one of Hold, Skip, Force, got "Sometimes")"_s;
    QTest::newRow("nested enum") << uR"({"targetVersion":"v2","restart":{"mechanism":"Reboot"}})"_s
                                 << u"spec.restart.mechanism"_s
                                 << uR"(must be one of Annotation, External, Job, got "Reboot")"_s;
    QTest::newRow("unknown restart field")
        << uR"({"targetVersion":"v2","restart":{"how":"x"}})"_s << u"spec.restart"_s
        << uR"(unknown field "how" (known: mechanism, jobNamespace, jobTemplate))"_s;
    QTest::newRow("Job without a template")
        << uR"({"targetVersion":"v2","restart":{"mechanism":"Job"}})"_s << u"spec.restart.jobTemplate"_s
        << u"Required value: mechanism Job runs this Job template (metadata and spec) on each node"_s;
    QTest::newRow("Job template without containers")
        << uR"({"targetVersion":"v2","restart":{"mechanism":"Job","jobTemplate":{"spec":{"template":{"spec":{}}}}}})"_s
        << u"spec.restart.jobTemplate.spec.template.spec.containers"_s
        << u"Required value: the Job's pod needs at least one container"_s;
    QTest::newRow("Job pod that restarts Always")
        << uR"({"targetVersion":"v2","restart":{"mechanism":"Job","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Always","containers":[{"name":"u","image":"i"}]}}}}}})"_s
        << u"spec.restart.jobTemplate.spec.template.spec.restartPolicy"_s
        << uR"(Unsupported value: "Always": supported values: "Never", "OnFailure")"_s;
    QTest::newRow("a Job template for another mechanism")
        << uR"({"targetVersion":"v2","restart":{"mechanism":"External","jobTemplate":{}}})"_s
        << u"spec.restart.jobTemplate"_s << u"only with mechanism Job"_s;
    QTest::newRow("missing target") << uR"({"maxUnavailable":1})"_s << u"spec.targetVersion"_s
                                    << u"Required value"_s;
    QTest::newRow("a node selector value that is not a string")
        << uR"({"targetVersion":"v2","nodeSelector":{"zone":1}})"_s << u"spec.nodeSelector.zone"_s
        << u"expected a string"_s;
    QTest::newRow("a pause reason that is not a string")
        << uR"({"targetVersion":"v2","pauseReason":5})"_s << u"spec.pauseReason"_s << u"must be a string"_s;
}

void TstRolloutKind::invalidSpecNamesTheField()
{
    QFETCH(QString, spec);
    QFETCH(QString, field);
    QFETCH(QString, message);
    Cluster c;
    Json m = rolloutManifest("bad", "v2");
    m["spec"] = Json::parse(spec.toStdString());
    auto r = c.create(m);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, 422);
    QCOMPARE(r.error().reason, std::string("Invalid"));
    QCOMPARE(r.error().causes.size(), std::size_t(1));
    // kubectl prints "The NodeUpgradeRollout "bad" is invalid: FIELD: MESSAGE" from the cause.
    const auto &cause = r.error().causes[0];
    QCOMPARE(QString::fromStdString(cause.field), field);
    QCOMPARE(QString::fromStdString(cause.message), message);
}

void TstRolloutKind::statusNormalizesAsTheCodecStoresIt_data()
{
    QTest::addColumn<qint64>("eta");  // -1: none
    QTest::addColumn<int>("phrase");  // 0 none, 1 literal, 2 template with a list
    QTest::addColumn<bool>("stored"); // whether fromJson(toJson()) gives it back unchanged
    QTest::newRow("no eta, no phrase") << qint64(-1) << 0 << true;
    QTest::newRow("eta under a minute keeps its milliseconds") << qint64(45'250) << 1 << true;
    QTest::newRow("eta of whole seconds") << qint64(754'000) << 2 << true;
    QTest::newRow("eta over a minute loses its milliseconds") << qint64(754'567) << 2 << false;
    QTest::newRow("eta over an hour") << qint64(3 * 3'600'000 + 1) << 0 << false;
}

void TstRolloutKind::statusNormalizesAsTheCodecStoresIt()
{
    QFETCH(qint64, eta);
    QFETCH(int, phrase);
    QFETCH(bool, stored);
    NodeUpgradeRolloutStatus s;
    s.phase = RolloutPhase::Progressing;
    s.observedGeneration = 3;
    s.targetVersion = "v2.0.0";
    s.counts.nodes = 5;
    s.counts.upgraded = 2;
    s.unavailable = 1;
    s.maxUnavailableResolved = 2;
    s.headline = "2/5 upgraded";
    if (phrase == 1)
        s.headlinePhrase = Phrase("2/5 upgraded");
    else if (phrase == 2)
        s.headlinePhrase =
            Phrase::of(PhraseCatalog::Upgrade, 1,
                       {{"nodes", Phrase::list(std::vector<std::string>{"n1", "n2", "n3"}, ", ", 2)}});
    if (eta >= 0)
        s.eta = eta;
    s.setCondition("Progressing", true, "NodesUpgrading", "upgrading", 1'767'225'600'123);
    s.inflight.push_back(
        {"replicaset/default/web", "uid-1", "default/web-1", "n1", 1'767'225'601'007, 3, true});
    s.queue = {"n3", "n4"};
    s.removedNodes = {"n9"};
    s.nodeDurations = {61'234, 59'999};
    s.pausedAt = 1'767'225'602'500;
    s.startedAt = 1'767'225'600'000;

    const auto back = NodeUpgradeRolloutStatus::fromJson(s.toJson());
    QVERIFY(back);
    QCOMPARE(*back == s, stored);
    QCOMPARE(s.isStored(), stored);
    NodeUpgradeRolloutStatus normal = s;
    normal.normalize();
    QVERIFY(normal == *back);
    QVERIFY(normal.isStored());
    QVERIFY(normal.toJson() == s.toJson()); // what the API server stores is the same
}

void TstRolloutKind::restartMechanismRoundTrips()
{
    Cluster c;
    Json m = rolloutManifest("pool", "v2");
    m["spec"]["restart"] = {{"mechanism", "external"}}; // any case on input
    auto r = c.create(m);
    QVERIFY2(r.ok(), r ? "" : r.error().message.c_str());
    QVERIFY((*r)["spec"]["restart"] == Json({{"mechanism", "External"}})); // CamelCase on output
    auto parsed = NodeUpgradeRollout::fromJson(*r);
    QVERIFY(parsed.ok());
    QVERIFY(parsed->spec.restart == RestartMechanism::External);
    // Job: the template kept as given, the namespace defaulted.
    Json job = rolloutManifest("by-job", "v2");
    const Json tpl = {
        {"spec",
         {{"template", {{"spec", {{"containers", Json::array({{{"name", "u"}, {"image", "i"}}})}}}}}}}};
    job["spec"]["restart"] = {{"mechanism", "Job"}, {"jobTemplate", tpl}};
    auto withJob = c.create(job);
    QVERIFY2(withJob.ok(), withJob ? "" : withJob.error().message.c_str());
    QVERIFY2((*withJob)["spec"]["restart"] ==
                 Json({{"mechanism", "Job"}, {"jobNamespace", "kube-system"}, {"jobTemplate", tpl}}),
             (*withJob)["spec"]["restart"].dump().c_str());
    auto jobParsed = NodeUpgradeRollout::fromJson(*withJob);
    QVERIFY(jobParsed.ok());
    QVERIFY(jobParsed->spec.restart == RestartMechanism::Job);
    // The default is not written back (objects from before the field read the same).
    auto plain = c.create(rolloutManifest("agents", "v2"));
    QVERIFY(plain.ok());
    QVERIFY(!(*plain)["spec"].contains("restart"));
}

QTEST_GUILESS_MAIN(TstRolloutKind)
#include "tst_rolloutkind.moc"
