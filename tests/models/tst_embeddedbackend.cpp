// EmbeddedBackend: the engine on its worker thread, seen only through snapshots and action
// results. Loads a small scenario, rolls back (outcome text, renumbering in the timeline
// model), pauses and resumes, and controls the virtual clock.

#include "models/embedded/clockpacer.h"
#include "models/embedded/embeddedbackend.h"
#include "models/embedded/scenarioloader.h"
#include "models/embedded/snapshotbuilder.h"
#include "models/itemmodels/eventlistmodel.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "models/planners/rollbackpreview.h"
#include "models/sim/cluster.h"
#include "models/snapshot/livesnapshotbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <pwd.h>
#include <unistd.h>

using namespace models;

namespace {

const QString kWeb = QStringLiteral("default/web");

QString scenarioFile(const char *name)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/models/data/") + QLatin1String(name);
}

// Waits until the backend's latest snapshot satisfies `pred`.
template <typename Pred> bool waitForSnapshot(ClusterBackend &backend, Pred pred, int timeoutMs = 20000)
{
    QSignalSpy spy(&backend, &ClusterBackend::snapshotReady);
    if (pred(*backend.latest()))
        return true;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        if (!spy.wait(timeoutMs - static_cast<int>(timer.elapsed())))
            return false;
        if (pred(*backend.latest()))
            return true;
    }
    return false;
}

ActionResult waitForAction(QSignalSpy &spy)
{
    if (spy.isEmpty() && !spy.wait(20000))
        return {};
    return spy.takeFirst().at(0).value<ActionResult>();
}

} // namespace

class TestEmbeddedBackend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void actionLogNamesTheUserAndTheRevision();
    void loadsAScenarioAndPublishesItsState();
    void builderShowsEventsAsStoredWhenBuilt();
    void bothSourcesAssembleTheSameSnapshot();
    void aLongLoadIsShownAsItProceeds();
    void rollbackRenumbersTheRevisionInTheTimeline();
    void rollbackOutcomes_data();
    void rollbackOutcomes();
    void pauseAndResumeSwitchTheStrategyWithoutANewRevision();
    void speedZeroStopsTheClockAndStepAdvancesIt();
    void clockPacerFollowsRealTime();
    void clockPacerCatchesUpWithinItsBounds();
    void suspendedRunsNoClockAndPublishesNothing();
    void badScenarioIsReportedAsAnError();
    void stuckBadgeRule_data();
    void stuckBadgeRule();
    void nodesBeingUpgradedExcuseTheirPods_data();
    void nodesBeingUpgradedExcuseTheirPods();
    void notReadyNodesSettleInsteadOfStuck_data();
    void notReadyNodesSettleInsteadOfStuck();
};

void TestEmbeddedBackend::loadsAScenarioAndPublishesItsState()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile("three-revisions.yaml");
    options.speed = 0;
    EmbeddedBackend backend(options);
    QVERIFY(waitForSnapshot(backend, [](const ClusterSnapshot &s) { return s.daemonSet(kWeb) != nullptr; }));
    const auto snap = backend.latest();
    QCOMPARE(snap->backend.kind, BackendKind::Embedded);
    QVERIFY(snap->backend.connected);
    QCOMPARE(snap->backend.seed, quint64(3));
    QVERIFY(!snap->clock.running);
    const DaemonSetInfo &ds = *snap->daemonSet(kWeb);
    QCOMPARE(ds.revisions->size(), std::size_t(3));
    QCOMPARE(ds.currentRevisionNumber, qint64(3));
    QCOMPARE(ds.currentRevision()->imageSummary, QStringLiteral("nginx:1.27"));
    QCOMPARE(ds.currentRevision()->podCount, 5);
    QCOMPARE(ds.revision(2)->changeCause, QStringLiteral("upgrade to 1.26"));
    QCOMPARE(ds.badge, RolloutBadge::Complete);
    QCOMPARE(ds.counts.desired, 5);
    QCOMPARE(ds.pods->size(), std::size_t(5));
    QCOMPARE(snap->nodes->size(), std::size_t(5));
    QCOMPARE(snap->node(QStringLiteral("node-b-1"))->zone, QStringLiteral("zone-b"));
    QCOMPARE(snap->node(QStringLiteral("node-b-1"))->pool, QStringLiteral("general"));
    QVERIFY(!snap->events->empty());
    QVERIFY(snap->namespaces.contains(QStringLiteral("default")));
}

// The builder converts Events when it builds a snapshot: each shows as stored at that moment (a
// repeat counted, a deleted Event gone), and an Event about a pod carries the DaemonSet that
// controlled the pod when the Event was written, even if the pod is gone by the build.
void TestEmbeddedBackend::builderShowsEventsAsStoredWhenBuilt()
{
    sim::Cluster cluster;
    const auto ds = cluster.apply(kube::Json::parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}})"));
    QVERIFY(ds);
    const std::string uid = (*ds)["metadata"]["uid"].get<std::string>();
    auto pod = [&](const char *name) {
        return kube::Json{{"apiVersion", "v1"},
                          {"kind", "Pod"},
                          {"metadata",
                           {{"name", name},
                            {"namespace", "default"},
                            {"labels", {{"app", "web"}}},
                            {"ownerReferences",
                             {{{"apiVersion", "apps/v1"},
                               {"kind", "DaemonSet"},
                               {"name", "web"},
                               {"uid", uid},
                               {"controller", true}}}}}},
                          {"spec", {{"containers", {{{"name", "web"}, {"image", "nginx:1.27"}}}}}}};
    };
    QVERIFY(cluster.apply(pod("web-a")));
    QVERIFY(cluster.apply(pod("web-b")));
    SnapshotBuilder builder(cluster);
    (void)builder.build({});

    cluster.recordEvent("Normal", "Pulled", "Pulled image", api::Kind::Pod, "default", "web-a");
    cluster.recordEvent("Normal", "Pulled", "Pulled image", api::Kind::Pod, "default", "web-a");
    cluster.recordEvent("Normal", "Started", "Started container web", api::Kind::Pod, "default", "web-b");
    cluster.recordEvent("Warning", "Failed", "no such pod", api::Kind::Pod, "default", "web-zzz");
    cluster.recordEvent("Normal", "Killing", "Stopping container web", api::Kind::Pod, "default", "web-a");
    QVERIFY(cluster.remove(api::Kind::Pod, "default", "web-b", 0));
    for (const kube::Event *e : cluster.events())
        if (e->reason == "Killing")
            QVERIFY(cluster.remove(api::Kind::Event, e->metadata.namespace_, e->metadata.name));

    const auto snap = builder.build({});
    auto find = [&](const char *reason) -> const EventInfo * {
        for (const EventInfo &e : *snap->events)
            if (e.reason == QLatin1String(reason))
                return &e;
        return nullptr;
    };
    const EventInfo *pulled = find("Pulled"), *started = find("Started"), *failed = find("Failed");
    QVERIFY(pulled && started && failed);
    QCOMPARE(pulled->count, 2);
    QCOMPARE(pulled->object, QStringLiteral("pod/default/web-a"));
    QCOMPARE(pulled->daemonSetKey, kWeb);
    QCOMPARE(started->daemonSetKey, kWeb); // its pod deleted since, the Event kept its DaemonSet
    QCOMPARE(failed->daemonSetKey, QString());
    QVERIFY(!find("Killing"));
    QCOMPARE(snap->events->size(), cluster.events().size());

    // A repeat after the build is counted in the next one.
    cluster.recordEvent("Normal", "Pulled", "Pulled image", api::Kind::Pod, "default", "web-a");
    const auto next = builder.build({});
    for (const EventInfo &e : *next->events)
        if (e.reason == QLatin1String("Pulled"))
            QCOMPARE(e.count, 3);
}

// One pipeline, two sources: the objects of a cluster, delivered as a live cluster's reflectors
// deliver them, come out of LiveSnapshotBuilder as the embedded builder shows them — nodes,
// events, and each DaemonSet's status, revisions, pods and badge (a scenario whose rollouts
// have completed: the rollout records differ, the live source saw no rollout happen).
void TestEmbeddedBackend::bothSourcesAssembleTheSameSnapshot()
{
    auto loaded = ScenarioLoader::load(scenarioFile("three-revisions.yaml"));
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    sim::Cluster &cluster = *loaded->cluster;
    ClockInfo clock;
    clock.now = cluster.now();
    const auto embedded = loaded->builder->build(clock);

    LiveSnapshotBuilder live;
    auto ownerOf = [](const kube::ObjectMeta &meta) {
        const kube::OwnerReference *ref = meta.controllerRef();
        return ref && ref->kind == "DaemonSet" ? meta.namespace_ + "/" + ref->name : std::string();
    };
    // Events first and pods last, as the lists may arrive in any order.
    for (const kube::Event *e : cluster.events())
        live.eventChanged(*e, false);
    for (const kube::Node *n : cluster.nodes())
        live.nodeChanged(*n, false);
    for (const kube::DaemonSet *ds : cluster.daemonSets())
        live.daemonSetChanged(*ds, false, clock.now);
    for (const kube::ControllerRevision *cr : cluster.controllerRevisions())
        if (const std::string ds = ownerOf(cr->metadata); !ds.empty())
            live.revisionChanged(ds, *cr, false);
    for (const kube::Pod *p : cluster.pods())
        if (const std::string ds = ownerOf(p->metadata); !ds.empty())
            live.podChanged(ds, *p, true, false, clock.now);
    const auto fromLive = live.build(clock);

    QCOMPARE(fromLive->namespaces, embedded->namespaces);
    QCOMPARE(fromLive->nodes->size(), embedded->nodes->size());
    for (std::size_t i = 0; i < embedded->nodes->size(); ++i) {
        const NodeInfo &a = (*embedded->nodes)[i], &b = (*fromLive->nodes)[i];
        QCOMPARE(b.name, a.name);
        QCOMPARE(b.zone, a.zone);
        QCOMPARE(b.ready, a.ready);
        QCOMPARE(b.labelTexts, a.labelTexts);
    }
    QCOMPARE(fromLive->events->size(), embedded->events->size());
    // An Event about a pod deleted before the lists were read cannot be told a DaemonSet's from
    // the lists (the embedded source saw the pod when the Event was written); the others can.
    int attributed = 0, ofGonePods = 0;
    for (std::size_t i = 0; i < embedded->events->size(); ++i) {
        const EventInfo &a = (*embedded->events)[i], &b = (*fromLive->events)[i];
        QCOMPARE(b.key, a.key);
        const QStringList object = a.object.split(QLatin1Char('/'));
        const bool podGone = object.size() == 3 && object[0] == QLatin1String("pod") &&
                             !cluster.pod(object[1].toStdString(), object[2].toStdString());
        if (podGone) {
            ++ofGonePods;
            QCOMPARE(b.daemonSetKey, QString());
        } else {
            QCOMPARE(b.daemonSetKey, a.daemonSetKey);
            attributed += !a.daemonSetKey.isEmpty();
        }
    }
    QVERIFY(attributed > 0);
    QVERIFY(ofGonePods > 0);
    QCOMPARE(fromLive->daemonSets.size(), embedded->daemonSets.size());
    QVERIFY(!embedded->daemonSets.empty());
    for (std::size_t d = 0; d < embedded->daemonSets.size(); ++d) {
        const DaemonSetInfo &a = embedded->daemonSets[d], &b = fromLive->daemonSets[d];
        QCOMPARE(b.key, a.key);
        QCOMPARE(b.counts, a.counts);
        QCOMPARE(b.currentRevisionName, a.currentRevisionName);
        QCOMPARE(b.currentRevisionNumber, a.currentRevisionNumber);
        QCOMPARE(b.badge, a.badge);
        QCOMPARE(b.badgeReason, a.badgeReason);
        QVERIFY(*b.podTemplate == *a.podTemplate);
        QCOMPARE(b.revisions->size(), a.revisions->size());
        for (std::size_t r = 0; r < a.revisions->size(); ++r) {
            const RevisionInfo &x = (*a.revisions)[r], &y = (*b.revisions)[r];
            QCOMPARE(y.name, x.name);
            QCOMPARE(y.number, x.number);
            QCOMPARE(y.podCount, x.podCount);
            QCOMPARE(y.imageSummary, x.imageSummary);
            QCOMPARE(y.changeCause, x.changeCause);
            QCOMPARE(y.current, x.current);
        }
        QCOMPARE(b.pods->size(), a.pods->size());
        for (std::size_t i = 0; i < a.pods->size(); ++i) {
            const PodInfo &x = (*a.pods)[i], &y = (*b.pods)[i];
            QCOMPARE(y.name, x.name);
            QCOMPARE(y.node, x.node);
            QCOMPARE(y.hash, x.hash);
            QCOMPARE(y.ready, x.ready);
            QCOMPARE(y.deleting, x.deleting);
        }
    }
}

// The window shows a scenario while its steps run: with the loading thresholds at zero every
// instant may be published (whenever the previous snapshot was taken). Loading snapshots are
// marked, the clock stands still in them, virtual time only grows, and the loaded cluster is
// the same as one loaded without being watched.
void TestEmbeddedBackend::aLongLoadIsShownAsItProceeds()
{
    auto load = [](int firstShowMs, std::vector<std::shared_ptr<const ClusterSnapshot>> &seen) {
        EmbeddedBackendOptions options;
        options.scenarioPath = scenarioFile("three-revisions.yaml");
        options.speed = 0;
        options.loadingFirstShowMs = firstShowMs;
        options.loadingIntervalMs = 0;
        EmbeddedBackend backend(options);
        QObject::connect(&backend, &ClusterBackend::snapshotReady, &backend,
                         [&] { seen.push_back(backend.latest()); });
        const bool loaded = waitForSnapshot(backend, [](const ClusterSnapshot &s) {
            return !s.backend.loading && s.daemonSet(kWeb) != nullptr;
        });
        return loaded ? backend.latest() : nullptr;
    };
    std::vector<std::shared_ptr<const ClusterSnapshot>> watched, unwatched;
    const auto final = load(0, watched);
    const auto reference = load(-1, unwatched);
    QVERIFY(final && reference);

    qint64 last = 0;
    int loading = 0;
    bool sawPartialRollout = false;
    for (const auto &s : watched) {
        if (!s->backend.loading)
            continue;
        ++loading;
        QVERIFY(!s->clock.running);
        QVERIFY(s->clock.now >= last);
        last = s->clock.now;
        QCOMPARE(s->backend.scenarioPath, scenarioFile("three-revisions.yaml"));
        QCOMPARE(s->backend.name, reference->backend.name);
        if (const DaemonSetInfo *ds = s->daemonSet(kWeb); ds && ds->revisions)
            sawPartialRollout |= ds->revisions->size() < reference->daemonSet(kWeb)->revisions->size();
    }
    // How many depends on how fast the window takes them; the first instant is always shown.
    QVERIFY2(loading >= 1, qPrintable(QStringLiteral("%1 loading snapshots").arg(loading)));
    QVERIFY(sawPartialRollout); // the history was shown before all three revisions existed
    QVERIFY(last <= final->clock.now);
    for (const auto &s : unwatched)
        QVERIFY(!s->backend.loading);

    QCOMPARE(final->clock.now, reference->clock.now);
    const DaemonSetInfo &a = *final->daemonSet(kWeb), &b = *reference->daemonSet(kWeb);
    QCOMPARE(a.pods->size(), b.pods->size());
    QCOMPARE(a.revisions->size(), b.revisions->size());
    for (std::size_t i = 0; i < a.revisions->size(); ++i) {
        QCOMPARE((*a.revisions)[i].number, (*b.revisions)[i].number);
        QCOMPARE((*a.revisions)[i].name, (*b.revisions)[i].name);
    }
    QVERIFY(a.counts == b.counts);
}

// The action log's user without $USER and $USERNAME is the process's account, never empty;
// rollback parameters name the revision chosen.
void TestEmbeddedBackend::actionLogNamesTheUserAndTheRevision()
{
    const QByteArray user = qgetenv("USER");
    const QByteArray username = qgetenv("USERNAME");
    qunsetenv("USER");
    qunsetenv("USERNAME");
    const QString fromAccount = operatingSystemUser();
    qputenv("USERNAME", "from-username");
    const QString fromUsername = operatingSystemUser();
    qputenv("USER", "from-user");
    const QString fromUser = operatingSystemUser();
    if (user.isNull())
        qunsetenv("USER");
    else
        qputenv("USER", user);
    if (username.isNull())
        qunsetenv("USERNAME");
    else
        qputenv("USERNAME", username);

    const passwd *pw = ::getpwuid(::geteuid());
    QVERIFY(!fromAccount.isEmpty());
    QCOMPARE(fromAccount, pw && pw->pw_name ? QString::fromLocal8Bit(pw->pw_name)
                                            : QStringLiteral("uid %1").arg(::geteuid()));
    QCOMPARE(fromUsername, QStringLiteral("from-username"));
    QCOMPARE(fromUser, QStringLiteral("from-user"));

    QCOMPARE(rollbackParameters(0, 4), QStringLiteral("toRevision=4, requested=0"));
    QCOMPARE(rollbackParameters(3, 3), QStringLiteral("toRevision=3"));
    QCOMPARE(rollbackParameters(0, 0), QStringLiteral("toRevision=0"));
    QCOMPARE(rollbackParameters(7, 0), QStringLiteral("toRevision=7"));
}

void TestEmbeddedBackend::rollbackRenumbersTheRevisionInTheTimeline()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile("three-revisions.yaml");
    options.speed = 0;
    options.user = QStringLiteral("tester");
    EmbeddedBackend backend(options);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    RevisionTimelineModel timeline;
    QAbstractItemModelTester tester(&timeline, QAbstractItemModelTester::FailureReportingMode::QtTest);
    EventListModel events;
    QAbstractItemModelTester eventsTester(&events, QAbstractItemModelTester::FailureReportingMode::QtTest);
    timeline.setDaemonSetKey(kWeb);
    events.setDaemonSetKey(kWeb);
    connect(&backend, &ClusterBackend::snapshotReady, &timeline, &RevisionTimelineModel::setSnapshot);
    connect(&backend, &ClusterBackend::snapshotReady, &events, &EventListModel::setSnapshot);
    QVERIFY(waitForSnapshot(backend, [](const ClusterSnapshot &s) { return s.daemonSet(kWeb) != nullptr; }));
    QTRY_COMPARE(timeline.rowCount(), 3);
    QVERIFY(events.rowCount() > 0);

    // The preview agrees with what the backend will do.
    const auto preview = RollbackPreview::compute(*backend.latest(), kWeb, 0);
    QVERIFY(preview.ok);
    QCOMPARE(preview.targetRevision, qint64(2));
    QCOMPARE(preview.nodesToReplace, 5);

    QCOMPARE(waitForAction(actions).kind, ActionKind::LoadScenario);
    QSignalSpy resets(&timeline, &QAbstractItemModel::modelReset);
    backend.rollback(kWeb, 0);
    ActionResult r = waitForAction(actions);
    QVERIFY(r.ok);
    QCOMPARE(r.kind, ActionKind::Rollback);
    QCOMPARE(r.message, QStringLiteral("rolled back"));
    QCOMPARE(r.revision, qint64(2));

    backend.step(5 * 60 * 1000);
    QVERIFY(waitForSnapshot(backend, [](const ClusterSnapshot &s) {
        const DaemonSetInfo *ds = s.daemonSet(kWeb);
        return ds && ds->currentRevisionNumber == 4 && ds->badge == RolloutBadge::Complete;
    }));
    QTRY_COMPARE(timeline.rowOfNumber(4), 2);
    const QModelIndex renumbered = timeline.index(2, 0);
    QCOMPARE(renumbered.data(RevisionTimelineModel::ImageSummaryRole).toString(),
             QStringLiteral("nginx:1.26"));
    QCOMPARE(renumbered.data(RevisionTimelineModel::PreviousNumbersRole).toList(), QVariantList{qint64(2)});
    QVERIFY(renumbered.data(RevisionTimelineModel::CurrentRole).toBool());
    QCOMPARE(resets.count(), 0);

    // The rollout and the action are recorded for the report and the next estimate.
    const DaemonSetInfo &ds = *backend.latest()->daemonSet(kWeb);
    QCOMPARE(ds.record->actions.size(), std::size_t(1));
    QCOMPARE(ds.record->actions.front().user, QStringLiteral("tester"));
    QCOMPARE(ds.record->actions.front().outcome, QStringLiteral("rolled back"));
    // "the previous revision" is recorded as the revision it was (2), with the request.
    QCOMPARE(ds.record->actions.front().parameters, QStringLiteral("toRevision=2, requested=0"));
    QVERIFY(!ds.record->rollouts.empty());
    const RolloutTiming &t = ds.record->rollouts.back();
    QVERIFY(t.completed > t.started);
    QCOMPARE(t.toRevision, qint64(4));
    QCOMPARE(t.fromRevision, qint64(3));
    QCOMPARE(t.nodes.size(), std::size_t(5));
    QVERIFY(t.meanNodeMs() > 0);
    const auto next = RollbackPreview::compute(*backend.latest(), kWeb, 3);
    QVERIFY(next.perNodeObserved);
}

void TestEmbeddedBackend::rollbackOutcomes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("daemonSet");
    QTest::addColumn<qint64>("toRevision");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("message");
    QTest::newRow("the current revision is skipped")
        << QStringLiteral("three-revisions.yaml") << kWeb << qint64(3) << true
        << QStringLiteral("skipped rollback (current template already matches revision 3)");
    QTest::newRow("an unknown revision is an error")
        << QStringLiteral("three-revisions.yaml") << kWeb << qint64(7) << false
        << QStringLiteral("unable to find specified revision 7 in history");
    QTest::newRow("a single revision has nothing to roll back to")
        << QStringLiteral("one-revision.yaml") << QStringLiteral("kube-system/agent") << qint64(0) << false
        << QStringLiteral("no last revision to roll back to");
    QTest::newRow("an unknown DaemonSet is an error")
        << QStringLiteral("one-revision.yaml") << QStringLiteral("default/nope") << qint64(0) << false
        << QStringLiteral("daemonsets.apps \"nope\" not found in namespace default");
}

void TestEmbeddedBackend::rollbackOutcomes()
{
    QFETCH(QString, file);
    QFETCH(QString, daemonSet);
    QFETCH(qint64, toRevision);
    QFETCH(bool, ok);
    QFETCH(QString, message);
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile(file.toUtf8().constData());
    options.speed = 0;
    EmbeddedBackend backend(options);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    const ActionResult loaded = waitForAction(actions);
    QCOMPARE(loaded.kind, ActionKind::LoadScenario);
    QVERIFY2(loaded.ok, qPrintable(loaded.message));
    backend.rollback(daemonSet, toRevision);
    const ActionResult r = waitForAction(actions);
    QCOMPARE(r.kind, ActionKind::Rollback);
    QCOMPARE(r.ok, ok);
    QCOMPARE(r.message, message);
}

void TestEmbeddedBackend::pauseAndResumeSwitchTheStrategyWithoutANewRevision()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile("three-revisions.yaml");
    options.speed = 0;
    EmbeddedBackend backend(options);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    QVERIFY(waitForAction(actions).ok);

    backend.pause(kWeb);
    ActionResult r = waitForAction(actions);
    QVERIFY(r.ok);
    QCOMPARE(r.kind, ActionKind::Pause);
    backend.step(60000);
    QVERIFY(waitForAction(actions).ok);
    auto snap = backend.latest();
    const DaemonSetInfo *ds = snap->daemonSet(kWeb);
    QVERIFY(ds->paused);
    QCOMPARE(ds->strategyType, QStringLiteral("OnDelete"));
    QVERIFY(ds->savedStrategy.contains(QStringLiteral("RollingUpdate")));
    QCOMPARE(ds->badge, RolloutBadge::Paused);
    QCOMPARE(ds->revisions->size(), std::size_t(3));
    QCOMPARE(ds->currentRevisionNumber, qint64(3));

    backend.pause(kWeb); // idempotent
    r = waitForAction(actions);
    QVERIFY(r.ok);
    QCOMPARE(r.message, QStringLiteral("already paused"));

    backend.resume(kWeb);
    r = waitForAction(actions);
    QVERIFY(r.ok);
    QCOMPARE(r.kind, ActionKind::Resume);
    snap = backend.latest();
    ds = snap->daemonSet(kWeb);
    QVERIFY(!ds->paused);
    QCOMPARE(ds->strategyType, QStringLiteral("RollingUpdate"));
    QCOMPARE(ds->maxUnavailable, QStringLiteral("1"));
    QCOMPARE(ds->revisions->size(), std::size_t(3));
    QCOMPARE(ds->record->actions.size(), std::size_t(3));
}

void TestEmbeddedBackend::clockPacerFollowsRealTime()
{
    constexpr std::int64_t ms = 1000000; // nanoseconds
    models::ClockPacer pacer(50);
    // On time: one interval of real time each, times the speed.
    QCOMPARE(pacer.step(50 * ms, 1000.0), 50000);
    QCOMPARE(pacer.step(50 * ms, 1.0), 50);
    // Fractions carry over: 0.4 ms of virtual time three times is 1 ms by the third tick.
    QCOMPARE(pacer.step(400000, 1.0), 0);
    QCOMPARE(pacer.step(400000, 1.0), 0);
    QCOMPARE(pacer.step(400000, 1.0), 1);
    QVERIFY(std::abs(pacer.owedMs() - 0.2) < 1e-9);
    // A timer that fires early advances less, never ahead of real time.
    pacer.reset();
    QCOMPARE(pacer.step(20 * ms, 10.0), 200);
    QCOMPARE(pacer.step(-5 * ms, 10.0), 0); // a clock going backwards owes nothing
    QCOMPARE(pacer.owedMs(), 0.0);
}

void TestEmbeddedBackend::clockPacerCatchesUpWithinItsBounds()
{
    constexpr std::int64_t ms = 1000000;
    models::ClockPacer pacer(50, 1000, 2);
    // A tick 170 ms late (220 ms since the one before): two intervals now, the rest at the next
    // ticks, each at most two intervals' worth until the debt is paid.
    std::int64_t advanced = pacer.step(220 * ms, 1000.0);
    QCOMPARE(advanced, 100000);
    QCOMPARE(pacer.owedMs(), 120000.0);
    QCOMPARE(pacer.step(50 * ms, 1000.0), 100000); // owed 170 s: 100 s now
    QCOMPARE(pacer.step(50 * ms, 1000.0), 100000); // owed 120 s
    QCOMPARE(pacer.step(50 * ms, 1000.0), 70000);  // owed 70 s: all of it
    QCOMPARE(pacer.owedMs(), 0.0);
    advanced += 100000 + 100000 + 70000;
    QCOMPARE(advanced, 370 * 1000); // 370 ms of real time at 1000x, nothing lost
    // A stall longer than the lag bound: what is owed beyond one second of real time is dropped.
    pacer.reset();
    QCOMPARE(pacer.step(5000 * ms, 1000.0), 100000);
    QCOMPARE(pacer.owedMs(), 900000.0);
    std::int64_t caughtUp = 0;
    int ticks = 0;
    while (pacer.owedMs() > 0 && ticks < 100) {
        caughtUp += pacer.step(50 * ms, 1000.0);
        ++ticks;
    }
    // 900 s owed plus 50 s per tick, at 100 s per tick: 18 ticks.
    QCOMPARE(ticks, 18);
    QCOMPARE(caughtUp, 900000 + 18 * 50000);
}

void TestEmbeddedBackend::speedZeroStopsTheClockAndStepAdvancesIt()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile("one-revision.yaml");
    options.speed = 50;
    EmbeddedBackend backend(options);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    QVERIFY(waitForAction(actions).ok);
    const qint64 loadedAt = backend.latest()->clock.now;
    // Running: the virtual clock moves on its own.
    QVERIFY(waitForSnapshot(backend, [&](const ClusterSnapshot &s) { return s.clock.now > loadedAt; }));
    QVERIFY(backend.latest()->clock.running);

    backend.setSpeed(0);
    ActionResult r = waitForAction(actions);
    QCOMPARE(r.kind, ActionKind::SetSpeed);
    const auto stopped = backend.latest();
    QVERIFY(!stopped->clock.running);
    QCOMPARE(stopped->clock.speed, 0.0);
    QSignalSpy snapshots(&backend, &ClusterBackend::snapshotReady);
    QVERIFY(!snapshots.wait(400)); // nothing moves while the clock is stopped

    backend.step(1500);
    r = waitForAction(actions);
    QVERIFY(r.ok);
    QCOMPARE(backend.latest()->clock.now, stopped->clock.now + 1500);
}

void TestEmbeddedBackend::suspendedRunsNoClockAndPublishesNothing()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = scenarioFile("one-revision.yaml");
    options.speed = 50;
    EmbeddedBackend backend(options);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    QVERIFY(waitForAction(actions).ok);
    const qint64 loadedAt = backend.latest()->clock.now;
    QVERIFY(waitForSnapshot(backend, [&](const ClusterSnapshot &s) { return s.clock.now > loadedAt; }));

    // Another backend is shown: the clock stops where it is and nothing is published.
    backend.setSuspended(true);
    QSignalSpy snapshots(&backend, &ClusterBackend::snapshotReady);
    QTest::qWait(300); // a publication already under way may still arrive
    snapshots.clear();
    const qint64 suspendedAt = backend.latest()->clock.now;
    QVERIFY(!snapshots.wait(600));
    QCOMPARE(backend.latest()->clock.now, suspendedAt);

    // Shown again: its state at once, and the clock goes on from where it stopped.
    backend.setSuspended(false);
    QVERIFY(snapshots.wait(5000));
    QVERIFY(backend.latest()->clock.now < suspendedAt + 10000); // 600 ms at 50x would be 30 s
    QVERIFY(waitForSnapshot(backend, [&](const ClusterSnapshot &s) { return s.clock.now > suspendedAt; }));
    QVERIFY(backend.latest()->clock.running);
}

void TestEmbeddedBackend::badScenarioIsReportedAsAnError()
{
    EmbeddedBackend backend(EmbeddedBackendOptions{});
    QSignalSpy errors(&backend, &ClusterBackend::errorOccurred);
    QSignalSpy actions(&backend, &ClusterBackend::actionFinished);
    backend.loadScenario(scenarioFile("does-not-exist.yaml"));
    const ActionResult r = waitForAction(actions);
    QCOMPARE(r.kind, ActionKind::LoadScenario);
    QVERIFY(!r.ok);
    QVERIFY(r.message.contains(QStringLiteral("does-not-exist.yaml")));
    QCOMPARE(errors.count(), 1);
    backend.rollback(kWeb, 0);
    QVERIFY(!waitForAction(actions).ok);
}

void TestEmbeddedBackend::stuckBadgeRule_data()
{
    QTest::addColumn<bool>("paused");
    QTest::addColumn<int>("updated");
    QTest::addColumn<qint64>("oldestNotReadyAgo"); // 0: none
    QTest::addColumn<qint64>("lastProgressAgo");   // -1: no active rollout
    QTest::addColumn<qint64>("meanNodeMs");
    QTest::addColumn<int>("badge");
    const qint64 min = 60000;
    QTest::newRow("a paused DaemonSet is paused whatever its pods")
        << true << 2 << 10 * min << qint64(-1) << qint64(0) << int(RolloutBadge::Paused);
    QTest::newRow("all pods updated and available is complete")
        << false << 5 << qint64(0) << qint64(-1) << qint64(0) << int(RolloutBadge::Complete);
    QTest::newRow("a new pod not ready for six minutes is stuck")
        << false << 3 << 6 * min << qint64(1000) << qint64(0) << int(RolloutBadge::Stuck);
    QTest::newRow("a new pod not ready for four minutes is progressing")
        << false << 3 << 4 * min << qint64(1000) << qint64(0) << int(RolloutBadge::Progressing);
    QTest::newRow("no progress for longer than five minutes is stuck")
        << false << 3 << qint64(0) << 6 * min << qint64(10000) << int(RolloutBadge::Stuck);
    QTest::newRow("slow nodes stretch the no-progress limit to ten node times")
        << false << 3 << qint64(0) << 6 * min << qint64(60000) << int(RolloutBadge::Progressing);
}

void TestEmbeddedBackend::stuckBadgeRule()
{
    QFETCH(bool, paused);
    QFETCH(int, updated);
    QFETCH(qint64, oldestNotReadyAgo);
    QFETCH(qint64, lastProgressAgo);
    QFETCH(qint64, meanNodeMs);
    QFETCH(int, badge);
    const qint64 now = 100 * 60000;
    DaemonSetInfo ds;
    ds.paused = paused;
    ds.generation = ds.observedGeneration = 2;
    ds.counts = {5, 5, updated, updated, updated, 5 - updated, 0};
    RolloutTiming t;
    t.started = now - 20 * 60000;
    t.lastProgress = now - lastProgressAgo;
    t.nodes = {{QStringLiteral("node-0"), t.started, t.started + meanNodeMs}};
    const auto [b, reason] = SnapshotAssembler::computeBadge(
        ds, lastProgressAgo >= 0 ? &t : nullptr, oldestNotReadyAgo > 0 ? now - oldestNotReadyAgo : 0, now);
    QCOMPARE(int(b), badge);
    QVERIFY(!reason.isEmpty());
}

void TestEmbeddedBackend::nodesBeingUpgradedExcuseTheirPods_data()
{
    QTest::addColumn<QStringList>("upgrading");  // nodes a node upgrade has in flight
    QTest::addColumn<bool>("podOnNode4");        // node-4's pod exists (not Ready for 10 min)
    QTest::addColumn<bool>("notReadyElsewhere"); // node-1's pod is not Ready for 10 min too
    QTest::addColumn<int>("badge");
    QTest::addColumn<QString>("reasonPart");
    QTest::newRow("no upgrade: the old not-Ready pod makes it stuck")
        << QStringList{} << true << false << int(RolloutBadge::Stuck)
        << QStringLiteral("has not become ready");
    QTest::newRow("its node is being upgraded: complete, naming the node")
        << QStringList{QStringLiteral("node-4")} << true << false << int(RolloutBadge::Complete)
        << QStringLiteral("on nodes being upgraded: node-4");
    QTest::newRow("the restarting node has no pod yet: complete too")
        << QStringList{QStringLiteral("node-4")} << false << false << int(RolloutBadge::Complete)
        << QStringLiteral("node-4");
    QTest::newRow("a pod not Ready elsewhere is still the DaemonSet's own problem")
        << QStringList{QStringLiteral("node-4")} << true << true << int(RolloutBadge::Stuck)
        << QStringLiteral("has not become ready");
    QTest::newRow("an upgrade of another node excuses nothing here")
        << QStringList{QStringLiteral("node-9")} << true << false << int(RolloutBadge::Stuck)
        << QStringLiteral("has not become ready");
}

void TestEmbeddedBackend::nodesBeingUpgradedExcuseTheirPods()
{
    QFETCH(QStringList, upgrading);
    QFETCH(bool, podOnNode4);
    QFETCH(bool, notReadyElsewhere);
    QFETCH(int, badge);
    QFETCH(QString, reasonPart);
    const qint64 now = 100 * 60000, tenMinutesAgo = now - 10 * 60000;
    DaemonSetInfo ds;
    ds.generation = ds.observedGeneration = 2;
    ds.currentRevisionHash = QStringLiteral("h2");
    const int available = 4 - (notReadyElsewhere ? 1 : 0);
    ds.counts = {5, podOnNode4 ? 5 : 4, podOnNode4 ? 5 : 4, available, available, 5 - available, 0};
    std::vector<PodInfo> pods;
    qint64 oldestNotReady = 0;
    for (int i = 0; i < 5; ++i) {
        if (i == 4 && !podOnNode4)
            continue;
        PodInfo p;
        p.name = QStringLiteral("agent-%1").arg(i);
        p.node = QStringLiteral("node-%1").arg(i);
        p.hash = ds.currentRevisionHash;
        p.created = tenMinutesAgo;
        p.ready = !(i == 4 || (i == 1 && notReadyElsewhere));
        if (!p.ready)
            oldestNotReady = p.created;
        pods.push_back(p);
    }
    ds.pods = std::make_shared<const std::vector<PodInfo>>(pods);
    QSet<QString> nodes(upgrading.begin(), upgrading.end());
    const auto [b, reason] = SnapshotAssembler::computeBadge(ds, nullptr, oldestNotReady, now, nodes);
    QCOMPARE(int(b), badge);
    QVERIFY2(reason.contains(reasonPart), qPrintable(reason));
}

void TestEmbeddedBackend::notReadyNodesSettleInsteadOfStuck_data()
{
    QTest::addColumn<QStringList>("notReady");   // NotReady nodes
    QTest::addColumn<QStringList>("upgrading");  // nodes a node upgrade has in flight
    QTest::addColumn<bool>("notReadyElsewhere"); // node-1's pod is not Ready for 10 min too
    QTest::addColumn<bool>("node4Behind");       // node-4's pod is still on the old revision
    QTest::addColumn<int>("badge");
    QTest::addColumn<QString>("reason");
    QTest::newRow("the pod's node is NotReady: done with exceptions, naming it")
        << QStringList{QStringLiteral("node-4")} << QStringList{} << false << false
        << int(RolloutBadge::Settled)
        << QStringLiteral("done with exceptions: 5 of 5 updated, 4 available; down on NotReady node-4");
    QTest::newRow("behind on a NotReady node: still settled")
        << QStringList{QStringLiteral("node-4")} << QStringList{} << false << true
        << int(RolloutBadge::Settled)
        << QStringLiteral("done with exceptions: 4 of 5 updated, 4 available; down on NotReady node-4");
    QTest::newRow("NotReady and upgrading nodes together: settled, naming both")
        << QStringList{QStringLiteral("node-4")} << QStringList{QStringLiteral("node-3")} << false << false
        << int(RolloutBadge::Settled)
        << QStringLiteral("done with exceptions: 5 of 5 updated, 3 available; down on NotReady node-4; being "
                          "upgraded: node-3");
    QTest::newRow("a pod not Ready on a Ready node is stuck, named with its node")
        << QStringList{QStringLiteral("node-4")} << QStringList{} << true << false << int(RolloutBadge::Stuck)
        << QStringLiteral("pod agent-1 on node-1 (revision 2) has not become ready for 10m");
    QTest::newRow("without NotReady nodes the pod on node-4 is the DaemonSet's")
        << QStringList{} << QStringList{} << false << false << int(RolloutBadge::Stuck)
        << QStringLiteral("pod agent-4 on node-4 (revision 2) has not become ready for 10m");
}

void TestEmbeddedBackend::notReadyNodesSettleInsteadOfStuck()
{
    QFETCH(QStringList, notReady);
    QFETCH(QStringList, upgrading);
    QFETCH(bool, notReadyElsewhere);
    QFETCH(bool, node4Behind);
    QFETCH(int, badge);
    QFETCH(QString, reason);
    const qint64 now = 100 * 60000, tenMinutesAgo = now - 10 * 60000;
    DaemonSetInfo ds;
    ds.generation = ds.observedGeneration = 2;
    ds.currentRevisionHash = QStringLiteral("h2");
    ds.currentRevisionNumber = 2;
    std::vector<PodInfo> pods;
    qint64 oldestNotReady = 0;
    int available = 0, updated = 0;
    for (int i = 0; i < 5; ++i) {
        PodInfo p;
        p.name = QStringLiteral("agent-%1").arg(i);
        p.node = QStringLiteral("node-%1").arg(i);
        p.hash = i == 4 && node4Behind ? QStringLiteral("h1") : ds.currentRevisionHash;
        p.created = tenMinutesAgo;
        p.ready = !(i == 4 || (i == 1 && notReadyElsewhere) || upgrading.contains(p.node));
        available += p.ready ? 1 : 0;
        updated += p.hash == ds.currentRevisionHash ? 1 : 0;
        if (!p.ready && p.hash == ds.currentRevisionHash)
            oldestNotReady = p.created;
        pods.push_back(p);
    }
    ds.counts = {5, 5, updated, available, available, 5 - available, 0};
    ds.pods = std::make_shared<const std::vector<PodInfo>>(pods);
    const auto [b, why] = SnapshotAssembler::computeBadge(ds, nullptr, oldestNotReady, now,
                                                          QSet<QString>(upgrading.begin(), upgrading.end()),
                                                          QSet<QString>(notReady.begin(), notReady.end()));
    QCOMPARE(int(b), badge);
    QCOMPARE(why, reason);
}

QTEST_MAIN(TestEmbeddedBackend)
#include "tst_embeddedbackend.moc"
