// Who else manages a DaemonSet (managedby.h) and the preview of starting a rollout
// (startrolloutpreview.h): detection per tool from labels, annotations and managedFields, the
// warning wording, both snapshot builders filling DaemonSetInfo::managedBy (shared while it stays
// the same), and the preview's diff, node count, reused revision and strategy budget.

#include "models/embedded/snapshotbuilder.h"
#include "models/planners/managedby.h"
#include "models/planners/startrolloutpreview.h"
#include "models/snapshot/livesnapshotbuilder.h"

#include "models/api/kubectlrollout.h"
#include "models/sim/cluster.h"

#include "snapshotfactory.h"

#include <QTest>

using namespace models;
using kube::Json;

namespace {

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

kube::ObjectMeta meta(const Json &j)
{
    return *kube::ObjectMeta::fromJson(j);
}

Json dsManifest(const Json &metadata)
{
    Json m = {{"apiVersion", "apps/v1"},
              {"kind", "DaemonSet"},
              {"metadata", metadata},
              {"spec",
               {{"selector", {{"matchLabels", {{"app", "web"}}}}},
                {"template",
                 {{"metadata", {{"labels", {{"app", "web"}}}}},
                  {"spec", {{"containers", Json::array({{{"name", "web"}, {"image", "nginx:1.27"}}})}}}}}}}};
    m["metadata"]["name"] = "web";
    m["metadata"]["namespace"] = "default";
    return m;
}

} // namespace

class TestStartRolloutPreview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detectsEachTool_data();
    void detectsEachTool();
    void warningsNameTheToolAndTheChange();
    void embeddedBuilderFillsAndSharesManagedBy();
    void liveBuilderFillsManagedBy();
    void liveBuilderAttributesPodEventsInEitherOrder_data();
    void liveBuilderAttributesPodEventsInEitherOrder();
    void setImagePreviewShowsTheDiffAndTheNodes();
    void setImageBackToAnEarlierImageReusesItsRevision();
    void restartReplacesEveryNode();
    void restartOfAPausedDaemonSetIsRefused();
    void strategyPreviewShowsTheNewBudget_data();
    void strategyPreviewShowsTheNewBudget();
    void strategyOfAPausedDaemonSetStaysPaused();
    void auditParameters();
};

void TestStartRolloutPreview::detectsEachTool_data()
{
    QTest::addColumn<QString>("metadata");  // JSON
    QTest::addColumn<QStringList>("found"); // "tool: evidence"
    QTest::newRow("a plain DaemonSet is managed by nothing else")
        << S(R"({"labels":{"app":"web"},"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update"},{"manager":"daemonscope","operation":"Apply"},{"manager":"kube-controller-manager","operation":"Update","subresource":"status"}]})")
        << QStringList();
    QTest::newRow("kubectl apply leaves its last-applied annotation")
        << S(R"({"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}})")
        << QStringList{S("kubectl apply: annotation kubectl.kubernetes.io/last-applied-configuration")};
    QTest::newRow("Helm by its release annotations")
        << S(R"({"labels":{"app.kubernetes.io/managed-by":"Helm"},"annotations":{"meta.helm.sh/release-name":"exporter","meta.helm.sh/release-namespace":"monitoring"}})")
        << QStringList{S("Helm: release monitoring/exporter")};
    QTest::newRow("Helm by its label alone")
        << S(R"({"labels":{"app.kubernetes.io/managed-by":"Helm"}})")
        << QStringList{S("Helm: label app.kubernetes.io/managed-by=Helm")};
    QTest::newRow("Argo CD by its tracking id")
        << S(R"({"labels":{"app.kubernetes.io/instance":"exporter"},"annotations":{"argocd.argoproj.io/tracking-id":"exporter:apps/DaemonSet:monitoring/node-exporter"}})")
        << QStringList{S("Argo CD: application exporter")};
    QTest::newRow("Argo CD by another of its annotations")
        << S(R"({"annotations":{"argocd.argoproj.io/sync-options":"Prune=false"}})")
        << QStringList{S("Argo CD: annotation argocd.argoproj.io/sync-options")};
    QTest::newRow("the instance label alone is no Argo CD")
        << S(R"({"labels":{"app.kubernetes.io/instance":"exporter"}})") << QStringList();
    QTest::newRow("Flux kustomize-controller by its labels")
        << S(R"({"labels":{"kustomize.toolkit.fluxcd.io/name":"infra","kustomize.toolkit.fluxcd.io/namespace":"flux-system"}})")
        << QStringList{S("Flux: Kustomization flux-system/infra")};
    QTest::newRow("Flux helm-controller by its label")
        << S(R"({"labels":{"helm.toolkit.fluxcd.io/name":"exporter"}})")
        << QStringList{S("Flux: HelmRelease exporter")};
    QTest::newRow("tools known by their field manager")
        << S(R"({"managedFields":[{"manager":"helm","operation":"Update"},{"manager":"argocd-controller","operation":"Apply"},{"manager":"kustomize-controller","operation":"Apply"}]})")
        << QStringList{S("Helm: field manager \"helm\""), S("Argo CD: field manager \"argocd-controller\""),
                       S("Flux: field manager \"kustomize-controller\"")};
    QTest::newRow("another field manager is named as it is")
        << S(R"({"managedFields":[{"manager":"terraform","operation":"Update"},{"manager":"terraform","operation":"Update"}]})")
        << QStringList{S("terraform: metadata.managedFields")};
    QTest::newRow("several tools in a fixed order")
        << S(R"({"labels":{"helm.toolkit.fluxcd.io/name":"exporter","app.kubernetes.io/managed-by":"Helm"},"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}})")
        << QStringList{S("kubectl apply: annotation kubectl.kubernetes.io/last-applied-configuration"),
                       S("Helm: label app.kubernetes.io/managed-by=Helm"), S("Flux: HelmRelease exporter")};
}

void TestStartRolloutPreview::detectsEachTool()
{
    QFETCH(QString, metadata);
    QFETCH(QStringList, found);
    Json j = Json::parse(metadata.toStdString());
    j["name"] = "web";
    QStringList got;
    for (const ManagedBy &m : detectManagedBy(meta(j)))
        got << m.name + QStringLiteral(": ") + m.evidence;
    QCOMPARE(got, found);
}

void TestStartRolloutPreview::warningsNameTheToolAndTheChange()
{
    DaemonSetInfo ds =
        testing::daemonSet(S("default"), S("web"), {{S("web-a"), 1, "nginx:1.27"}}, S("web-a"), 3);
    QVERIFY(managedByWarnings(ds, ManagedChange::Rollback).isEmpty());
    ds.managedBy = managedByOf(
        meta({{"name", "web"},
              {"annotations",
               {{"meta.helm.sh/release-name", "web"}, {"argocd.argoproj.io/tracking-id", "web:x"}}}}),
        nullptr);
    const QStringList rollback = managedByWarnings(ds, ManagedChange::Rollback);
    QCOMPARE(rollback.size(), 2);
    QCOMPARE(rollback[0], S("Managed by Helm (release web): the next helm upgrade reverts this rollback."));
    QCOMPARE(rollback[1], S("Managed by Argo CD (application web): its next sync reverts this rollback, at "
                            "once when self-heal is on."));
    QVERIFY(managedByWarnings(ds, ManagedChange::Pause)[0].endsWith(S("reverts this pause.")));
    QVERIFY(managedByWarnings(ds, ManagedChange::SetImage)[0].endsWith(S("reverts this image change.")));
    QVERIFY(managedByWarnings(ds, ManagedChange::Strategy)[0].endsWith(S("reverts this strategy edit.")));
}

// The engine's builder: found from the stored object, and the same list is shared by the next
// snapshot when another change leaves it as it is.
void TestStartRolloutPreview::embeddedBuilderFillsAndSharesManagedBy()
{
    sim::Cluster cluster;
    QVERIFY(cluster.apply(dsManifest({{"labels", {{"app.kubernetes.io/managed-by", "Helm"}}}})));
    SnapshotBuilder builder(cluster);
    const auto first = builder.build({});
    const DaemonSetInfo *ds = first->daemonSet(S("default/web"));
    QVERIFY(ds && ds->managedBy);
    QCOMPARE(ds->managedBy->size(), std::size_t(1));
    QCOMPARE(ds->managedBy->front().tool, ManagedBy::Tool::Helm);

    QVERIFY(cluster.patch(api::Kind::DaemonSet, "default", "web", api::PatchType::Merge,
                          {{"metadata", {{"annotations", {{"note", "unrelated"}}}}}}));
    const auto second = builder.build({});
    QVERIFY(second->daemonSet(S("default/web"))->managedBy == ds->managedBy);

    QVERIFY(cluster.patch(api::Kind::DaemonSet, "default", "web", api::PatchType::Merge,
                          {{"metadata", {{"labels", {{"app.kubernetes.io/managed-by", nullptr}}}}}}));
    const auto third = builder.build({});
    QVERIFY(third->daemonSet(S("default/web"))->managedBy->empty());
}

void TestStartRolloutPreview::liveBuilderFillsManagedBy()
{
    LiveSnapshotBuilder builder;
    Json manifest =
        dsManifest({{"uid", "u1"},
                    {"resourceVersion", "5"},
                    {"labels", {{"kustomize.toolkit.fluxcd.io/name", "infra"}}},
                    {"managedFields", Json::array({{{"manager", "terraform"}, {"operation", "Update"}}})}});
    builder.daemonSetChanged(*kube::DaemonSet::fromJson(manifest), false, 1000);
    const auto snap = builder.build({});
    const DaemonSetInfo *ds = snap->daemonSet(S("default/web"));
    QVERIFY(ds);
    QCOMPARE(ds->managedBy->size(), std::size_t(2));
    QCOMPARE(ds->managedBy->at(0).name, S("Flux"));
    QCOMPARE(ds->managedBy->at(1).name, S("terraform"));
}

// The lists of a live cluster arrive in any order: an event about a DaemonSet's pod is its
// event whether the pod came first or the event did; an event deleted before its pod came is
// forgotten.
void TestStartRolloutPreview::liveBuilderAttributesPodEventsInEitherOrder_data()
{
    QTest::addColumn<bool>("eventFirst");
    QTest::addColumn<bool>("deletedBeforePod");
    QTest::newRow("the pod first") << false << false;
    QTest::newRow("the event first") << true << false;
    QTest::newRow("the event gone before the pod came") << true << true;
}

void TestStartRolloutPreview::liveBuilderAttributesPodEventsInEitherOrder()
{
    QFETCH(bool, eventFirst);
    QFETCH(bool, deletedBeforePod);
    LiveSnapshotBuilder builder;
    builder.daemonSetChanged(
        *kube::DaemonSet::fromJson(dsManifest({{"uid", "u1"}, {"resourceVersion", "5"}})), false, 1000);
    kube::Pod pod;
    pod.metadata.name = "web-abcde";
    pod.metadata.namespace_ = "default";
    pod.metadata.uid = "p1";
    pod.metadata.ownerReferences.push_back({"apps/v1", "DaemonSet", "web", "u1", true, true});
    pod.nodeName = "node-1";
    kube::Event event;
    event.metadata.name = "web-abcde.1";
    event.metadata.namespace_ = "default";
    event.involvedObject = {"Pod", "default", "web-abcde", "p1", "v1", ""};
    event.reason = "Started";
    event.lastTimestamp = 900;
    kube::Event other = event; // about a pod no DaemonSet owns
    other.metadata.name = "api-xyz.1";
    other.involvedObject.name = "api-xyz";
    if (eventFirst) {
        builder.eventChanged(event, false);
        builder.eventChanged(other, false);
        if (deletedBeforePod)
            builder.eventChanged(event, true);
        builder.podChanged("default/web", pod, true, false, 1000);
    } else {
        builder.podChanged("default/web", pod, true, false, 1000);
        builder.eventChanged(event, false);
        builder.eventChanged(other, false);
    }
    const auto snap = builder.build({});
    QMap<QString, QString> owners;
    for (const auto &e : *snap->events)
        owners.insert(e.object, e.daemonSetKey);
    QCOMPARE(owners.value(S("pod/default/api-xyz"), S("missing")), QString());
    if (deletedBeforePod) {
        QVERIFY(!owners.contains(S("pod/default/web-abcde")));
        return;
    }
    QCOMPARE(owners.value(S("pod/default/web-abcde")), S("default/web"));
    // A count bump of the attributed event keeps its DaemonSet.
    event.count = 2;
    builder.eventChanged(event, false);
    const auto again = builder.build({});
    for (const auto &e : *again->events)
        if (e.object == S("pod/default/web-abcde"))
            QCOMPARE(e.daemonSetKey, S("default/web"));
}

void TestStartRolloutPreview::setImagePreviewShowsTheDiffAndTheNodes()
{
    auto snap = testing::snapshot(
        {testing::daemonSet(S("default"), S("web"),
                            {{S("web-a"), 1, "nginx:1.26"}, {S("web-b"), 2, "nginx:1.27"}}, S("web-b"), 4)});
    StartRolloutRequest r;
    r.mode = StartRolloutMode::SetImage;
    r.images.insert(S("web"), S("nginx:1.28"));
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QVERIFY(p.ok);
    QVERIFY(p.changed);
    QCOMPARE(p.message, S("daemonset.apps/web image updated"));
    QCOMPARE(p.reusedRevision, qint64(0));
    QCOMPARE(p.newPods(), 4);
    QCOMPARE(p.nodesOnTarget, 0);
    QVERIFY(QString::fromStdString(p.diff.newYaml).contains(S("image: nginx:1.28")));
    QVERIFY(QString::fromStdString(p.diff.oldYaml).contains(S("image: nginx:1.27")));
    QVERIFY(!p.manualOnly);
    QVERIFY(p.estimatedMs > 0);

    r.images.insert(S("missing"), S("x:1"));
    const auto refused = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QVERIFY(!refused.ok);
    QCOMPARE(refused.message, S("unable to find container named \"missing\""));
}

void TestStartRolloutPreview::setImageBackToAnEarlierImageReusesItsRevision()
{
    auto ds =
        testing::daemonSet(S("default"), S("web"),
                           {{S("web-a"), 1, "nginx:1.26"}, {S("web-b"), 2, "nginx:1.27"}}, S("web-b"), 4);
    // One node still runs revision 1 (a rollout in progress).
    auto pods = std::make_shared<std::vector<PodInfo>>(*ds.pods);
    (*pods)[0].hash = S("a");
    ds.pods = pods;
    auto snap = testing::snapshot({ds});
    StartRolloutRequest r;
    r.images.insert(S("web"), S("nginx:1.26"));
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QVERIFY(p.ok && p.changed);
    QCOMPARE(p.reusedRevision, qint64(1));
    QCOMPARE(p.nodesOnTarget, 1);
    QCOMPARE(p.newPods(), 3);
}

void TestStartRolloutPreview::restartReplacesEveryNode()
{
    auto snap = testing::snapshot(
        {testing::daemonSet(S("default"), S("web"), {{S("web-a"), 1, "nginx:1.27"}}, S("web-a"), 3)});
    StartRolloutRequest r;
    r.mode = StartRolloutMode::Restart;
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r, S("2026-12-04T10:30:00Z"));
    QVERIFY(p.ok && p.changed);
    QCOMPARE(p.message, S("daemonset.apps/web restarted"));
    QCOMPARE(p.newPods(), 3);
    QCOMPARE(QString::fromStdString(
                 p.diff.newTemplate["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"]
                     .get<std::string>()),
             S("2026-12-04T10:30:00Z"));
    QCOMPARE(p.parallel, 1);
    QCOMPARE(p.waves, 3);
}

void TestStartRolloutPreview::restartOfAPausedDaemonSetIsRefused()
{
    auto ds = testing::daemonSet(S("default"), S("web"), {{S("web-a"), 1, "nginx:1.27"}}, S("web-a"), 3);
    ds.paused = true;
    ds.strategyType = S("OnDelete");
    ds.savedStrategy = S(R"({"rollingUpdate":{"maxSurge":0,"maxUnavailable":1},"type":"RollingUpdate"})");
    auto snap = testing::snapshot({ds});
    StartRolloutRequest r;
    r.mode = StartRolloutMode::Restart;
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QVERIFY(!p.ok);
    QCOMPARE(p.message, S("can't restart paused daemonset (run rollout resume first)"));
}

void TestStartRolloutPreview::strategyPreviewShowsTheNewBudget_data()
{
    QTest::addColumn<QString>("maxUnavailable");
    QTest::addColumn<QString>("maxSurge");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("changed");
    QTest::addColumn<int>("budget");
    QTest::addColumn<QString>("text");
    QTest::newRow("two at a time") << S("2") << S("0") << true << true << 2
                                   << S("up to 2 nodes at a time of 10");
    QTest::newRow("a percentage rounds up")
        << S("25%") << S("0") << true << true << 3 << S("up to 3 nodes at a time of 10");
    QTest::newRow("surge") << S("0") << S("1") << true << true << 1 << S("up to 1 nodes at a time of 10");
    QTest::newRow("the same values change nothing")
        << S("1") << S("0") << true << false << 1 << S("up to 1 nodes at a time of 10");
    QTest::newRow("both zero is invalid") << S("0") << S("0") << false << false << 0 << QString();
    QTest::newRow("110% is invalid") << S("110%") << S("0") << false << false << 0 << QString();
}

void TestStartRolloutPreview::strategyPreviewShowsTheNewBudget()
{
    QFETCH(QString, maxUnavailable);
    QFETCH(QString, maxSurge);
    QFETCH(bool, ok);
    QFETCH(bool, changed);
    QFETCH(int, budget);
    QFETCH(QString, text);
    auto snap = testing::snapshot(
        {testing::daemonSet(S("default"), S("web"), {{S("web-a"), 1, "nginx:1.27"}}, S("web-a"), 10)});
    StartRolloutRequest r;
    r.mode = StartRolloutMode::Strategy;
    r.maxUnavailable = maxUnavailable;
    r.maxSurge = maxSurge;
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QCOMPARE(p.ok, ok);
    if (!ok) {
        QVERIFY(p.message.contains(S("is invalid")));
        return;
    }
    QCOMPARE(p.changed, changed);
    QCOMPARE(p.budgetNodes, budget);
    QCOMPARE(p.oldBudgetNodes, 1);
    QCOMPARE(p.budgetText, text);
    QCOMPARE(p.nodesToReplace, 0); // no rollout is running: a strategy edit starts none
    QCOMPARE(p.message,
             changed ? S("daemonset.apps/web patched") : S("daemonset.apps/web patched (no change)"));
}

void TestStartRolloutPreview::strategyOfAPausedDaemonSetStaysPaused()
{
    auto ds = testing::daemonSet(S("default"), S("web"), {{S("web-a"), 1, "nginx:1.27"}}, S("web-a"), 4);
    ds.paused = true;
    ds.strategyType = S("OnDelete");
    ds.maxUnavailable.clear();
    ds.maxSurge.clear();
    ds.savedStrategy = S(R"({"rollingUpdate":{"maxSurge":0,"maxUnavailable":1},"type":"RollingUpdate"})");
    auto snap = testing::snapshot({ds});
    StartRolloutRequest r;
    r.mode = StartRolloutMode::Strategy;
    r.maxUnavailable = S("2");
    r.maxSurge = S("0");
    const auto p = StartRolloutPreview::compute(*snap, S("default/web"), r);
    QVERIFY(p.ok && p.changed);
    QVERIFY(p.editsSavedStrategy);
    QCOMPARE(p.budgetNodes, 2);
    QCOMPARE(p.oldBudgetNodes, 0);
    r.maxUnavailable = S("1");
    QVERIFY(!StartRolloutPreview::compute(*snap, S("default/web"), r).changed);
}

void TestStartRolloutPreview::auditParameters()
{
    QMap<QString, QString> images;
    images.insert(S("nginx"), S(" nginx:1.28 "));
    images.insert(S("sidecar"), S("envoy:1.31"));
    QCOMPARE(setImageParameters(images), S("nginx=nginx:1.28, sidecar=envoy:1.31"));
    QCOMPARE(strategyParameters(S("2"), S("0")), S("maxUnavailable=2, maxSurge=0"));
    QCOMPARE(strategyParameters(S("10%"), QString()), S("maxUnavailable=10%, maxSurge=0"));
    QCOMPARE(restartParameters(S("2026-12-04T10:30:00Z")), S("restartedAt=2026-12-04T10:30:00Z"));
}

QTEST_GUILESS_MAIN(TestStartRolloutPreview)
#include "tst_startrolloutpreview.moc"
