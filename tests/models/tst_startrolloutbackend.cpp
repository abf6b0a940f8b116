// Starting a rollout on the embedded backend: set image, restart and a strategy edit go through
// the engine's API as kubectl's PATCH, the DaemonSet controller rolls them out (a new revision,
// every pod updated), refusals come back as outcomes, and each action is in the audit trail with
// its parameters.

#include "models/embedded/embeddedbackend.h"
#include "models/planners/startrolloutpreview.h"

#include "models/kube/timeutil.h"

#include <QSignalSpy>
#include <QTest>

using namespace models;

namespace {

const QString kWeb = QStringLiteral("default/web");

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

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

// Runs `act` and returns the outcome of the action of `kind` it caused.
template <typename Act> ActionResult actAndWait(ClusterBackend &backend, ActionKind kind, Act act)
{
    QSignalSpy spy(&backend, &ClusterBackend::actionFinished);
    act();
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 20000) {
        for (const auto &args : spy) {
            const auto r = args.at(0).value<ActionResult>();
            if (r.kind == kind)
                return r;
        }
        spy.wait(1000);
    }
    return {};
}

std::unique_ptr<EmbeddedBackend> loaded()
{
    EmbeddedBackendOptions options;
    options.scenarioPath = QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/models/data/three-revisions.yaml");
    options.speed = 0;
    options.user = S("alice");
    auto backend = std::make_unique<EmbeddedBackend>(options);
    const bool ok = waitForSnapshot(*backend, [](const ClusterSnapshot &s) {
        return !s.backend.loading && s.daemonSet(kWeb) && s.daemonSet(kWeb)->badge == RolloutBadge::Complete;
    });
    return ok ? std::move(backend) : nullptr;
}

bool rolledOutTo(const ClusterSnapshot &s, qint64 revision)
{
    const DaemonSetInfo *ds = s.daemonSet(kWeb);
    return ds && ds->currentRevisionNumber == revision && ds->counts.updated == ds->counts.desired &&
           ds->counts.available == ds->counts.desired && ds->badge == RolloutBadge::Complete;
}

const ActionRecord *lastAction(const ClusterSnapshot &s)
{
    const DaemonSetInfo *ds = s.daemonSet(kWeb);
    return ds && ds->record && !ds->record->actions.empty() ? &ds->record->actions.back() : nullptr;
}

} // namespace

class TestStartRolloutBackend : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setImageRollsOutANewRevision();
    void restartCreatesARevisionWithTheAnnotation();
    void strategyEditChangesTheBudget();
    void refusalsAreOutcomes_data();
    void refusalsAreOutcomes();
    void strategyOfAPausedDaemonSetKeepsItPaused();
};

void TestStartRolloutBackend::setImageRollsOutANewRevision()
{
    auto backend = loaded();
    QVERIFY(backend);
    QMap<QString, QString> images;
    images.insert(S("web"), S("nginx:1.28"));
    const auto r = actAndWait(*backend, ActionKind::SetImage, [&] { backend->setImage(kWeb, images); });
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.target, kWeb);
    QCOMPARE(r.message, S("daemonset.apps/web image updated"));
    backend->step(10 * 60 * 1000);
    QVERIFY(waitForSnapshot(*backend, [](const ClusterSnapshot &s) { return rolledOutTo(s, 4); }));
    const auto snap = backend->latest();
    const DaemonSetInfo &ds = *snap->daemonSet(kWeb);
    QCOMPARE(ds.currentRevision()->imageSummary, S("nginx:1.28"));
    QCOMPARE(ds.currentRevision()->podCount, 5);
    for (const PodInfo &p : *ds.pods)
        QCOMPARE(p.hash, ds.currentRevisionHash);
    const ActionRecord *a = lastAction(*snap);
    QVERIFY(a);
    QCOMPARE(a->kind, ActionKind::SetImage);
    QCOMPARE(a->user, S("alice"));
    QCOMPARE(a->parameters, S("web=nginx:1.28"));
    QCOMPARE(a->outcome, S("daemonset.apps/web image updated"));
    QVERIFY(a->ok);

    // The same image again: nothing is sent, no revision.
    const auto again = actAndWait(*backend, ActionKind::SetImage, [&] { backend->setImage(kWeb, images); });
    QVERIFY(again.ok);
    QCOMPARE(backend->latest()->daemonSet(kWeb)->revisions->size(), std::size_t(4));
}

void TestStartRolloutBackend::restartCreatesARevisionWithTheAnnotation()
{
    auto backend = loaded();
    QVERIFY(backend);
    const qint64 now = backend->latest()->clock.now;
    const auto r = actAndWait(*backend, ActionKind::RestartRollout, [&] { backend->restartRollout(kWeb); });
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, S("daemonset.apps/web restarted"));
    backend->step(10 * 60 * 1000);
    QVERIFY(waitForSnapshot(*backend, [](const ClusterSnapshot &s) { return rolledOutTo(s, 4); }));
    const auto snap = backend->latest();
    const DaemonSetInfo &ds = *snap->daemonSet(kWeb);
    const auto &tpl = *ds.currentRevision()->podTemplate;
    const std::string stamp =
        tpl["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"].get<std::string>();
    QCOMPARE(QString::fromStdString(stamp), QString::fromStdString(kube::formatRfc3339(now)));
    QCOMPARE(ds.currentRevision()->imageSummary, S("nginx:1.27")); // only the stamp changed
    const ActionRecord *a = lastAction(*snap);
    QVERIFY(a);
    QCOMPARE(a->kind, ActionKind::RestartRollout);
    QCOMPARE(a->parameters, S("restartedAt=") + QString::fromStdString(stamp));
}

void TestStartRolloutBackend::strategyEditChangesTheBudget()
{
    auto backend = loaded();
    QVERIFY(backend);
    auto r = actAndWait(*backend, ActionKind::SetStrategy,
                        [&] { backend->setUpdateStrategy(kWeb, S("2"), S("0")); });
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, S("daemonset.apps/web patched"));
    const DaemonSetInfo *ds = backend->latest()->daemonSet(kWeb);
    QCOMPARE(ds->maxUnavailable, S("2"));
    QCOMPARE(ds->maxSurge, S("0"));
    QCOMPARE(ds->revisions->size(), std::size_t(3)); // no rollout: the template is unchanged
    QCOMPARE(lastAction(*backend->latest())->parameters, S("maxUnavailable=2, maxSurge=0"));

    r = actAndWait(*backend, ActionKind::SetStrategy,
                   [&] { backend->setUpdateStrategy(kWeb, S("2"), S("0")); });
    QVERIFY(r.ok);
    QCOMPARE(r.message, S("daemonset.apps/web patched (no change)"));

    // The next rollout replaces two nodes at a time: at most two pods are down at once.
    QMap<QString, QString> images;
    images.insert(S("web"), S("nginx:1.28"));
    QVERIFY(actAndWait(*backend, ActionKind::SetImage, [&] { backend->setImage(kWeb, images); }).ok);
    int mostDown = 0;
    for (int i = 0; i < 120 && !rolledOutTo(*backend->latest(), 4); ++i) {
        QSignalSpy published(backend.get(), &ClusterBackend::snapshotReady);
        backend->step(500);
        QVERIFY(published.wait(5000));
        const DaemonSetInfo *now = backend->latest()->daemonSet(kWeb);
        mostDown = std::max(mostDown, now->counts.desired - now->counts.available);
    }
    QVERIFY(rolledOutTo(*backend->latest(), 4));
    QCOMPARE(mostDown, 2);
}

void TestStartRolloutBackend::refusalsAreOutcomes_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<QString>("message");
    QTest::newRow("a missing container") << int(StartRolloutMode::SetImage) << S("sidecar") << S("envoy:1.31")
                                         << S("unable to find container named \"sidecar\"");
    QTest::newRow("both zero") << int(StartRolloutMode::Strategy) << S("0") << S("0")
                               << S("DaemonSet.apps \"web\" is invalid: "
                                    "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: "
                                    "cannot be 0 when maxSurge is 0");
    QTest::newRow("110 percent")
        << int(StartRolloutMode::Strategy) << S("110%") << S("0")
        << S("DaemonSet.apps \"web\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid "
             "value: "
             "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"110%\"}: must not be greater than 100%");
}

void TestStartRolloutBackend::refusalsAreOutcomes()
{
    QFETCH(int, mode);
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(QString, message);
    auto backend = loaded();
    QVERIFY(backend);
    const auto before = backend->latest()->daemonSet(kWeb)->generation;
    ActionResult r;
    if (mode == int(StartRolloutMode::SetImage)) {
        QMap<QString, QString> images;
        images.insert(a, b);
        r = actAndWait(*backend, ActionKind::SetImage, [&] { backend->setImage(kWeb, images); });
    } else {
        r = actAndWait(*backend, ActionKind::SetStrategy, [&] { backend->setUpdateStrategy(kWeb, a, b); });
    }
    QVERIFY(!r.ok);
    QCOMPARE(r.message, message);
    QCOMPARE(backend->latest()->daemonSet(kWeb)->generation, before); // nothing was written
    const ActionRecord *rec = lastAction(*backend->latest());
    QVERIFY(rec && !rec->ok);
    QCOMPARE(rec->outcome, message);
}

void TestStartRolloutBackend::strategyOfAPausedDaemonSetKeepsItPaused()
{
    auto backend = loaded();
    QVERIFY(backend);
    QVERIFY(actAndWait(*backend, ActionKind::Pause, [&] { backend->pause(kWeb); }).ok);
    const auto r = actAndWait(*backend, ActionKind::SetStrategy,
                              [&] { backend->setUpdateStrategy(kWeb, S("3"), S("0")); });
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, S("daemonset.apps/web patched"));
    const DaemonSetInfo *ds = backend->latest()->daemonSet(kWeb);
    QVERIFY(ds->paused);
    QCOMPARE(ds->strategyType, S("OnDelete"));
    QVERIFY(ds->savedStrategy.contains(S("\"maxUnavailable\":3")));
    const auto restart =
        actAndWait(*backend, ActionKind::RestartRollout, [&] { backend->restartRollout(kWeb); });
    QVERIFY(!restart.ok);
    QCOMPARE(restart.message, S("can't restart paused daemonset (run rollout resume first)"));
    QVERIFY(actAndWait(*backend, ActionKind::Resume, [&] { backend->resume(kWeb); }).ok);
    ds = backend->latest()->daemonSet(kWeb);
    QCOMPARE(ds->strategyType, S("RollingUpdate"));
    QCOMPARE(ds->maxUnavailable, S("3"));
}

QTEST_GUILESS_MAIN(TestStartRolloutBackend)
#include "tst_startrolloutbackend.moc"
