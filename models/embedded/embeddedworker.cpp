#include "models/embedded/embeddedworker.h"
#include "models/kube/jsonfield.h"

#include "models/embedded/scenarioloader.h"
#include "models/embedded/snapshotbuilder.h"
#include "models/planners/startrolloutpreview.h"

#include "models/api/kubectldrain.h"
#include "models/api/startrollout.h"
#include "models/kube/timeutil.h"
#include "models/scenario/scenario.h"
#include "models/sim/cluster.h"
#include "models/sim/containerlog.h"
#include "models/sim/nodeupgraderuntime.h"
#include "models/snapshot/detailevents.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

EmbeddedWorker::EmbeddedWorker(EmbeddedBackendOptions options, std::shared_ptr<std::atomic<int>> inFlight)
    : m_options(std::move(options)), m_inFlight(std::move(inFlight)),
      m_speed(std::clamp(m_options.speed, 0.0, 1000.0)), m_pacer(std::max(1, m_options.tickMs))
{
    if (m_options.user.isEmpty())
        m_options.user = operatingSystemUser();
    // Children move with the worker to its thread.
    m_tickTimer = new QTimer(this);
    m_tickTimer->setInterval(std::max(1, m_options.tickMs));
    m_tickTimer->setTimerType(Qt::PreciseTimer);
    connect(m_tickTimer, &QTimer::timeout, this, &EmbeddedWorker::tick);
    m_publishTimer = new QTimer(this);
    m_publishTimer->setSingleShot(true);
    connect(m_publishTimer, &QTimer::timeout, this, [this] { publish(false); });
}

EmbeddedWorker::~EmbeddedWorker()
{
    m_builder.reset(); // unwatches the cluster it observes
}

void EmbeddedWorker::start()
{
    m_sincePublish.start();
    if (!m_options.scenarioPath.isEmpty())
        loadScenario(m_options.scenarioPath);
    else
        publish(true);
    updateTimer();
}

void EmbeddedWorker::setSuspended(bool suspended)
{
    if (suspended == m_suspended)
        return;
    m_suspended = suspended;
    updateTimer();
    if (suspended)
        m_publishTimer->stop();
    else
        publish(true); // the window shows this backend again: its state at once
}

void EmbeddedWorker::updateTimer()
{
    if (m_cluster && m_speed > 0 && !m_suspended) {
        if (!m_tickTimer->isActive()) {
            m_tickTimer->start();
            m_tickClock.start();
            m_lastTickNs = 0;
            m_pacer.reset();
        }
    } else {
        m_tickTimer->stop();
    }
}

void EmbeddedWorker::tick()
{
    if (!m_cluster || m_speed <= 0 || m_suspended)
        return;
    // The virtual clock follows real time times the speed (clockpacer.h).
    const qint64 nowNs = m_tickClock.nsecsElapsed();
    const std::int64_t step = m_pacer.step(nowNs - m_lastTickNs, m_speed);
    m_lastTickNs = nowNs;
    if (step > 0)
        m_cluster->advance(step);
    publish(false);
    pumpLogs();
}

void EmbeddedWorker::publish(bool force)
{
    ClockInfo clock;
    clock.now = m_cluster ? m_cluster->now() : 0;
    clock.speed = m_speed;
    clock.running = m_cluster && m_speed > 0 && !m_suspended;
    const bool clockChanged =
        clock.now != m_publishedNow || clock.running != m_publishedRunning || clock.speed != m_publishedSpeed;
    if (!force && (m_suspended || (!clockChanged && !(m_builder && m_builder->hasChanges()))))
        return;
    const qint64 interval =
        std::max<qint64>(m_options.publishIntervalMs, qint64(m_options.publishCostFactor) * m_lastBuildMs);
    const qint64 wait = interval - m_sincePublish.elapsed();
    if (!force && (wait > 0 || m_inFlight->load() > 0)) {
        if (!m_publishTimer->isActive())
            m_publishTimer->start(static_cast<int>(std::max<qint64>(wait, m_options.tickMs)));
        return;
    }
    m_publishTimer->stop();
    std::shared_ptr<const ClusterSnapshot> snapshot;
    if (m_builder) {
        m_builder->setBackendInfo(backendInfo(m_scenarioPath, m_scenario.get(), m_seed, false));
        QElapsedTimer building;
        building.start();
        snapshot = m_builder->build(clock);
        m_lastBuildMs = building.elapsed();
    } else {
        auto empty = std::make_shared<ClusterSnapshot>(*ClusterSnapshot::empty(BackendKind::Embedded));
        empty->clock = clock;
        empty->backend.name = tr("embedded: no scenario loaded");
        snapshot = std::move(empty);
    }
    m_publishedNow = clock.now;
    m_publishedRunning = clock.running;
    m_publishedSpeed = clock.speed;
    m_sincePublish.restart();
    m_inFlight->fetch_add(1);
    Q_EMIT snapshotReady(std::move(snapshot));
}

BackendInfo EmbeddedWorker::backendInfo(const QString &path, const scenario::Scenario *scenario, quint64 seed,
                                        bool loading)
{
    BackendInfo info;
    info.kind = BackendKind::Embedded;
    info.connected = true;
    info.scenarioPath = path;
    info.seed = seed;
    info.loading = loading;
    info.name =
        tr("embedded: %1")
            .arg(scenario && !scenario->name.empty() ? q(scenario->name) : QFileInfo(path).fileName());
    return info;
}

void EmbeddedWorker::publishLoading(const QString &path, const scenario::Scenario &scenario,
                                    const sim::Cluster &cluster, SnapshotBuilder &builder)
{
    ClockInfo clock;
    clock.now = cluster.now();
    clock.speed = m_speed;
    clock.running = false;
    builder.setBackendInfo(backendInfo(path, &scenario, scenario.seed, true));
    m_inFlight->fetch_add(1);
    Q_EMIT snapshotReady(builder.build(clock));
}

void EmbeddedWorker::finish(ActionKind kind, const QString &target, bool ok, const QString &message,
                            qint64 revision, const QString &parameters)
{
    if (m_builder && m_cluster &&
        (kind == ActionKind::Rollback || kind == ActionKind::Pause || kind == ActionKind::Resume ||
         kind == ActionKind::SetImage || kind == ActionKind::RestartRollout ||
         kind == ActionKind::SetStrategy)) {
        ActionRecord record;
        record.time = m_cluster->now();
        record.wallTime = QDateTime::currentMSecsSinceEpoch();
        record.user = m_options.user;
        record.kind = kind;
        record.target = target;
        record.parameters = parameters;
        record.ok = ok;
        record.outcome = message;
        m_builder->tracker().recordAction(target.toStdString(), std::move(record));
    }
    ActionResult result;
    result.kind = kind;
    result.target = target;
    result.ok = ok;
    result.message = message;
    result.revision = revision;
    // The effect is published first, so a receiver of actionFinished already sees it in
    // ClusterBackend::latest() (both signals are queued in this order).
    publish(true);
    Q_EMIT actionFinished(result);
}

bool EmbeddedWorker::splitKey(const QString &dsKey, std::string &ns, std::string &name, ActionKind kind)
{
    if (!m_cluster) {
        finish(kind, dsKey, false, tr("no scenario loaded"));
        return false;
    }
    const qsizetype slash = dsKey.indexOf(QLatin1Char('/'));
    ns = slash < 0 ? std::string("default") : dsKey.left(slash).toStdString();
    name = (slash < 0 ? dsKey : dsKey.mid(slash + 1)).toStdString();
    if (!m_cluster->daemonSet(ns, name)) {
        finish(kind, dsKey, false,
               tr("daemonsets.apps \"%1\" not found in namespace %2").arg(q(name), q(ns)));
        return false;
    }
    return true;
}

void EmbeddedWorker::rollback(const QString &dsKey, qint64 toRevision)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Rollback))
        return;
    const auto outcome = m_cluster->rollback(ns, name, toRevision);
    finish(ActionKind::Rollback, dsKey, outcome.ok(), q(outcome.message), outcome.targetRevision,
           rollbackParameters(toRevision, outcome.targetRevision));
}

void EmbeddedWorker::pause(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Pause))
        return;
    if (api::isPaused(*m_cluster->daemonSet(ns, name))) {
        finish(ActionKind::Pause, dsKey, true, tr("already paused"));
        return;
    }
    const auto r = m_cluster->pause(ns, name);
    finish(ActionKind::Pause, dsKey, r.ok(),
           r.ok() ? tr("paused: update strategy switched to OnDelete (new nodes still get pods)")
                  : q(r.error().message));
}

void EmbeddedWorker::resume(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Resume))
        return;
    if (!api::isPaused(*m_cluster->daemonSet(ns, name))) {
        finish(ActionKind::Resume, dsKey, true, tr("not paused"));
        return;
    }
    const auto r = m_cluster->resume(ns, name);
    finish(ActionKind::Resume, dsKey, r.ok(),
           r.ok() ? tr("resumed: saved update strategy restored") : q(r.error().message));
}

bool EmbeddedWorker::install(const QString &path, std::optional<quint64> seed, ActionKind kind)
{
    // A long load shows the cluster as it is being built: the first look after a moment, then
    // at the publication interval, never while the window still applies the previous one.
    QElapsedTimer loading;
    loading.start();
    qint64 lastShown = -1;
    const ScenarioLoadProgress progress = [&](const scenario::Scenario &scenario, const sim::Cluster &cluster,
                                              SnapshotBuilder &builder) {
        const qint64 elapsed = loading.elapsed();
        const qint64 due = lastShown < 0 ? m_options.loadingFirstShowMs
                                         : lastShown + std::max<qint64>(m_options.loadingIntervalMs, 1);
        if (m_options.loadingFirstShowMs < 0 || elapsed < due || m_inFlight->load() > 0)
            return;
        publishLoading(path, scenario, cluster, builder);
        lastShown = loading.elapsed();
    };
    kube::Result<LoadedScenario> loaded = [&]() -> kube::Result<LoadedScenario> {
        if (path == m_scenarioPath && m_scenario && seed) {
            scenario::Scenario s = *m_scenario;
            s.seed = *seed;
            return ScenarioLoader::run(std::move(s), progress);
        }
        return ScenarioLoader::load(path, seed, progress);
    }();
    if (!loaded) {
        const QString message = q(loaded.error().message);
        Q_EMIT errorOccurred(message);
        finish(kind, path, false, message);
        return false;
    }
    m_builder.reset(); // before the cluster it watches
    m_cluster = std::move(loaded->cluster);
    m_builder = std::move(loaded->builder);
    m_scenario = std::make_unique<scenario::Scenario>(std::move(loaded->scenario));
    m_scenarioPath = path;
    m_seed = m_scenario->seed;
    m_publishedNow = -1;
    // The new cluster's clock starts now: what the clock was owed before (the load took real
    // time) is not made up on it.
    if (m_tickClock.isValid())
        m_lastTickNs = m_tickClock.nsecsElapsed();
    m_pacer.reset();
    updateTimer();
    QString message = kind == ActionKind::SetSeed ? tr("rebuilt with seed %1").arg(m_seed) : tr("loaded");
    if (loaded->exitCode != 0 && !loaded->messages.isEmpty())
        message += QLatin1Char('\n') + loaded->messages;
    finish(kind, path, true, message);
    return true;
}

void EmbeddedWorker::loadScenario(const QString &path)
{
    install(path, std::nullopt, ActionKind::LoadScenario);
}

void EmbeddedWorker::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.0, 1000.0);
    updateTimer();
    finish(ActionKind::SetSpeed, QString(), true,
           m_speed > 0 ? tr("speed %1x").arg(m_speed) : tr("clock paused"));
}

void EmbeddedWorker::step(qint64 ms)
{
    if (!m_cluster) {
        finish(ActionKind::Step, QString(), false, tr("no scenario loaded"));
        return;
    }
    if (ms > 0)
        m_cluster->advance(ms);
    pumpLogs();
    finish(ActionKind::Step, QString(), true,
           tr("advanced %1").arg(q(kube::formatDuration(std::max<qint64>(ms, 0)))));
}

void EmbeddedWorker::setSeed(quint64 seed)
{
    if (!m_scenario) {
        m_seed = seed;
        finish(ActionKind::SetSeed, QString(), true, tr("seed %1 applies to the next scenario").arg(seed));
        return;
    }
    install(m_scenarioPath, seed, ActionKind::SetSeed);
}

void EmbeddedWorker::injectFault(const QString &node, const QString &faultKind)
{
    if (!m_cluster) {
        finish(ActionKind::InjectFault, node, false, tr("no scenario loaded"));
        return;
    }
    const auto kind = sim::faultKindFromString(faultKind.toStdString());
    if (!kind) {
        finish(ActionKind::InjectFault, node, false, tr("unknown fault kind \"%1\"").arg(faultKind));
        return;
    }
    const auto r = m_cluster->fault(node.toStdString(), *kind);
    finish(ActionKind::InjectFault, node, r.ok(),
           r.ok() ? tr("fault %1 injected").arg(faultKind) : q(r.error().message), 0,
           QStringLiteral("fault=%1").arg(faultKind));
}

void EmbeddedWorker::startUpgrade(const QString &rolloutJson)
{
    if (!m_cluster) {
        finish(ActionKind::StartUpgrade, QString(), false, tr("no scenario loaded"));
        return;
    }
    const kube::Json manifest = kube::Json::parse(rolloutJson.toStdString(), nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object()) {
        finish(ActionKind::StartUpgrade, QString(), false, tr("the rollout is not a JSON object"));
        return;
    }
    const bool isManifest = manifest.contains("spec");
    std::string name;
    if (isManifest && manifest.contains("metadata") && manifest["metadata"].is_object())
        name = kube::stringOr(manifest["metadata"], "name");
    else if (!isManifest && manifest.contains("name") && manifest["name"].is_string())
        name = manifest["name"].get<std::string>();
    if (name.empty()) {
        finish(ActionKind::StartUpgrade, QString(), false, tr("the rollout has no name"));
        return;
    }
    sim::NodeUpgradeRuntime &runtime = m_cluster->nodeUpgrade();
    const bool existed = runtime.rollouts().get(name) != nullptr;
    const auto r = isManifest ? runtime.apply(manifest) : runtime.upgradeStep(manifest);
    QString message;
    if (r.ok()) {
        const auto *rollout = runtime.rollouts().get(name);
        message = upgradeStartedMessage(!existed);
        if (rollout && !rollout->status.refusal.empty())
            message += QStringLiteral(": ") + q(rollout->status.refusal);
    } else {
        message = q(r.error().message);
    }
    finish(ActionKind::StartUpgrade, q(name), r.ok(), message);
}

void EmbeddedWorker::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                    const QString &note)
{
    if (!m_cluster) {
        finish(ActionKind::UpgradeControl, rollout, false, tr("no scenario loaded"));
        return;
    }
    if (const QString problem = upgradeControlProblem(action, node); !problem.isEmpty()) {
        finish(ActionKind::UpgradeControl, rollout, false, problem);
        return;
    }
    sim::NodeUpgradeRuntime &runtime = m_cluster->nodeUpgrade();
    const std::string actor = m_options.user.isEmpty() ? std::string("admin") : m_options.user.toStdString();
    const auto r = runtime.controller().control(rollout.toStdString(), action.toStdString(),
                                                node.toStdString(), actor, note.toStdString());
    finish(ActionKind::UpgradeControl, rollout, r.ok(),
           r.ok() ? upgradeControlDone(action, node) : q(r.error().message), 0,
           upgradeControlParameters(action, node));
}

// ---- Starting a rollout -------------------------------------------------------------------

void EmbeddedWorker::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    const QString parameters = setImageParameters(images);
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::SetImage))
        return;
    std::map<std::string, std::string> wanted;
    for (auto it = images.begin(); it != images.end(); ++it)
        wanted[it.key().toStdString()] = it.value().trimmed().toStdString();
    const auto patch = api::setImagePatch(*m_cluster->daemonSet(ns, name), wanted);
    if (!patch) {
        finish(ActionKind::SetImage, dsKey, false, q(patch.error().message), 0, parameters);
        return;
    }
    if (!*patch) { // kubectl sends nothing and prints nothing
        finish(ActionKind::SetImage, dsKey, true,
               tr("image unchanged: the containers already use these images"), 0, parameters);
        return;
    }
    const auto r = m_cluster->patch(api::Kind::DaemonSet, ns, name, api::PatchType::Strategic, **patch);
    finish(ActionKind::SetImage, dsKey, r.ok(),
           r.ok() ? q(api::kubectlResourceLine(name, "image updated")) : q(r.error().message), 0, parameters);
}

void EmbeddedWorker::restartRollout(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::RestartRollout))
        return;
    // The simulated cluster's time: what its kubectl would stamp.
    const std::string now = kube::formatRfc3339(m_cluster->now());
    const QString parameters = restartParameters(q(now));
    const auto patch = api::restartPatch(*m_cluster->daemonSet(ns, name), now);
    if (!patch) {
        finish(ActionKind::RestartRollout, dsKey, false, q(patch.error().message), 0, parameters);
        return;
    }
    const auto r = m_cluster->patch(api::Kind::DaemonSet, ns, name, api::PatchType::Strategic, *patch);
    finish(ActionKind::RestartRollout, dsKey, r.ok(),
           r.ok() ? q(api::kubectlResourceLine(name, "restarted")) : q(r.error().message), 0, parameters);
}

void EmbeddedWorker::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                       const QString &maxSurge)
{
    const QString parameters = strategyParameters(maxUnavailable, maxSurge);
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::SetStrategy))
        return;
    const kube::DaemonSet &ds = *m_cluster->daemonSet(ns, name);
    const std::string before = ds.metadata.resourceVersion;
    const auto decided =
        api::strategyPatch(ds, api::intOrStringFromText(maxUnavailable.trimmed().toStdString()),
                           api::intOrStringFromText(maxSurge.trimmed().toStdString()));
    if (!decided) {
        finish(ActionKind::SetStrategy, dsKey, false, q(decided.error().message), 0, parameters);
        return;
    }
    const auto r =
        m_cluster->patch(api::Kind::DaemonSet, ns, name, api::PatchType::Strategic, decided->patch);
    if (!r) {
        finish(ActionKind::SetStrategy, dsKey, false, q(r.error().message), 0, parameters);
        return;
    }
    // The API server stores nothing for a patch that changes nothing: the version stays.
    const bool changed = kube::stringOr((*r)["metadata"], "resourceVersion") != before;
    finish(ActionKind::SetStrategy, dsKey, true,
           q(api::kubectlResourceLine(name, changed ? "patched" : "patched (no change)")), 0, parameters);
}

} // namespace models

// ---- node actions ------------------------------------------------------------------------------

namespace models {

// kubectl cordon / uncordon: the strategic merge patch kubectl's CordonHelper sends.
kube::Result<void> EmbeddedWorker::patchUnschedulable(const std::string &node, bool unschedulable)
{
    const kube::Json patch = {{"spec", {{"unschedulable", unschedulable ? kube::Json(true) : kube::Json()}}}};
    auto r = m_cluster->patch(api::Kind::Node, std::string(), node, api::PatchType::Strategic, patch);
    if (!r)
        return r.error();
    return {};
}

void EmbeddedWorker::cordon(const QString &node, bool unschedulable)
{
    const ActionKind kind = unschedulable ? ActionKind::Cordon : ActionKind::Uncordon;
    if (!m_cluster) {
        finish(kind, node, false, tr("no scenario loaded"));
        return;
    }
    const kube::Node *n = m_cluster->node(node.toStdString());
    if (!n) {
        finish(kind, node, false, tr("nodes \"%1\" not found").arg(node));
        return;
    }
    if (n->unschedulable == unschedulable) {
        finish(kind, node, true, unschedulable ? tr("already cordoned") : tr("already uncordoned"));
        return;
    }
    const auto r = patchUnschedulable(node.toStdString(), unschedulable);
    finish(kind, node, r.ok(),
           r.ok() ? (unschedulable ? tr("cordoned") : tr("uncordoned")) : q(r.error().message));
}

// kubectl drain NODE --ignore-daemonsets [--delete-emptydir-data]: cordon, decide with
// api::getPodsForDeletion, then evict through the engine's eviction subresource, retrying what
// a budget refuses on api::drainRetryDelaysMs (the clock runs meanwhile).
void EmbeddedWorker::drainNode(const QString &node, bool deleteEmptyDirData)
{
    if (!m_cluster) {
        finish(ActionKind::Drain, node, false, tr("no scenario loaded"));
        return;
    }
    const std::string name = node.toStdString();
    const kube::Node *n = m_cluster->node(name);
    if (!n) {
        finish(ActionKind::Drain, node, false, tr("nodes \"%1\" not found").arg(node));
        return;
    }
    if (m_drains.count(node)) {
        finish(ActionKind::Drain, node, false, tr("a drain of %1 is already running").arg(node));
        return;
    }
    if (!n->unschedulable) {
        if (const auto r = patchUnschedulable(name, true); !r) {
            finish(ActionKind::Drain, node, false, q(r.error().message));
            return;
        }
    }
    std::vector<const kube::Pod *> onNode;
    for (const kube::Pod *p : m_cluster->pods())
        if (p->nodeName == name)
            onNode.push_back(p);
    api::DrainOptions options;
    options.deleteEmptyDirData = deleteEmptyDirData;
    const api::DrainPlan plan =
        api::getPodsForDeletion(onNode, options, [this](const std::string &ns, const std::string &ds) {
            return m_cluster->daemonSet(ns, ds) != nullptr;
        });
    if (plan.refused()) {
        QStringList errors;
        for (const auto &e : plan.errors())
            errors << q(e);
        finish(ActionKind::Drain, node, false,
               tr("cordoned, nothing evicted: %1").arg(errors.join(QStringLiteral("; "))));
        return;
    }
    m_drains[node] = DrainRun{m_cluster.get(), api::DrainRun(plan)};
    evictPending(node);
}

void EmbeddedWorker::evictPending(const QString &node)
{
    auto it = m_drains.find(node);
    if (it == m_drains.end())
        return;
    if (m_cluster.get() != it->second.cluster) {
        m_drains.erase(it);
        finish(ActionKind::Drain, node, false, tr("drain stopped: the cluster was replaced"));
        return;
    }
    api::DrainRun &run = it->second.run;
    using api::DrainRun;
    const auto next = run.round(
        [this](const std::string &ns, const std::string &pod) -> DrainRun::Answer {
            const auto r = m_cluster->evict(ns, pod);
            if (r || r.error().code == 404)
                return {DrainRun::Eviction::Evicted, {}};
            if (r.error().code == 429) {
                const kube::Pod *p = m_cluster->pod(ns, pod);
                return {DrainRun::Eviction::Blocked,
                        api::budgetBlockText(
                            pod, p ? api::coveringBudget(*p, m_cluster->podDisruptionBudgets()) : nullptr,
                            r.error().message)};
            }
            return {DrainRun::Eviction::Failed, pod + ": " + r.error().message};
        },
        m_options.drainRetryDelaysMs.empty() ? api::drainRetryDelaysMs() : m_options.drainRetryDelaysMs);
    if (next) {
        publish(false);
        QTimer::singleShot(*next, this, [this, node] { evictPending(node); });
        return;
    }
    const bool ok = run.ok();
    const QString message = q(run.summary());
    m_drains.erase(it);
    finish(ActionKind::Drain, node, ok, message);
}

// ---- drill-down -----------------------------------------------------------------------------

void EmbeddedWorker::requestDetail(quint64 id, const QString &kind, const QString &ns, const QString &name)
{
    ObjectDetail d;
    d.requestId = id;
    d.kind = kind;
    d.namespace_ = ns;
    d.name = name;
    const bool pod = kind == QLatin1String("Pod");
    if (!m_cluster) {
        d.error = tr("no scenario loaded");
    } else if (!pod && kind != QLatin1String("Node")) {
        d.error = tr("unsupported kind %1").arg(kind);
    } else {
        auto object = m_cluster->get(pod ? api::Kind::Pod : api::Kind::Node,
                                     pod ? ns.toStdString() : std::string(), name.toStdString());
        if (!object) {
            d.error = q(object.error().message);
        } else {
            d.ok = true;
            d.object = std::make_shared<const kube::Json>(std::move(*object));
            d.events = eventsAbout(m_cluster->events(), kind, pod ? ns : QString(), name);
        }
    }
    Q_EMIT detailReady(d);
}

void EmbeddedWorker::startLogs(quint64 id, const QString &ns, const QString &pod, const QString &container,
                               bool previous, bool follow, int tailLines)
{
    if (!m_cluster) {
        Q_EMIT logFinished(id, false, tr("no scenario loaded"));
        return;
    }
    sim::ContainerLogQuery query;
    query.container = container.toStdString();
    query.previous = previous;
    query.tailLines = tailLines;
    auto log = sim::containerLog(*m_cluster, ns.toStdString(), pod.toStdString(), query);
    if (!log) {
        Q_EMIT logFinished(id, false, q(log.error().message));
        return;
    }
    if (!log->lines.empty())
        Q_EMIT logData(id, q(sim::formatLogLines(log->lines, false)));
    if (!follow || !log->running) {
        Q_EMIT logFinished(id, true, QString());
        return;
    }
    m_followers[id] = Follower{ns.toStdString(), pod.toStdString(), log->container, m_cluster->now()};
}

void EmbeddedWorker::stopLogs(quint64 id)
{
    if (m_followers.erase(id))
        Q_EMIT logFinished(id, true, tr("stopped"));
}

void EmbeddedWorker::pumpLogs()
{
    if (m_followers.empty() || !m_cluster)
        return;
    for (auto it = m_followers.begin(); it != m_followers.end();) {
        Follower &f = it->second;
        sim::ContainerLogQuery query;
        query.container = f.container;
        query.after = f.readAt;
        auto log = sim::containerLog(*m_cluster, f.ns, f.pod, query);
        f.readAt = m_cluster->now();
        if (log && !log->lines.empty())
            Q_EMIT logData(it->first, q(sim::formatLogLines(log->lines, false)));
        if (!log || !log->running) {
            Q_EMIT logFinished(it->first, true,
                               !log ? tr("the pod is gone: %1").arg(q(log.error().message))
                                    : tr("the container has ended"));
            it = m_followers.erase(it);
        } else {
            ++it;
        }
    }
}

} // namespace models
