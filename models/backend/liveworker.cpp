#include "models/backend/liveworker.h"
#include "models/backend/livenodeactions.h"

#include "models/backend/liveactions.h"
#include "models/backend/livedrilldown.h"
#include "models/planners/startrolloutpreview.h"
#include "models/snapshot/livesnapshotbuilder.h"

#include "models/api/kubectlrollout.h"
#include "models/api/startrollout.h"
#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/client/kubeconfig.h"
#include "models/client/reflector.h"
#include "models/kube/timeutil.h"

#include <QDateTime>

#include <algorithm>
#include <charconv>

#ifdef __GLIBC__
#include <malloc.h> // malloc_trim
#endif

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

kube::Timestamp wallNow()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

LiveWorker::LiveWorker(LiveBackendOptions options, std::shared_ptr<std::atomic<int>> inFlight)
    : m_options(std::move(options)), m_inFlight(std::move(inFlight)),
      m_builder(std::make_unique<LiveSnapshotBuilder>())
{
    if (m_options.user.isEmpty())
        m_options.user = operatingSystemUser();
    m_drainTimer = new QTimer(this);
    m_drainTimer->setInterval(std::max(10, m_options.publishIntervalMs));
    connect(m_drainTimer, &QTimer::timeout, this, &LiveWorker::drain);
    m_trimTimer = new QTimer(this);
    m_trimTimer->setSingleShot(true);
    m_trimTimer->setInterval(kTrimQuietMs);
    connect(m_trimTimer, &QTimer::timeout, this, &LiveWorker::releaseFreedMemory);
}

LiveWorker::~LiveWorker()
{
    stop();
}

QString LiveWorker::backendName() const
{
    const QString ns = m_namespace.empty() ? tr("all namespaces") : q(m_namespace);
    if (m_contextName.isEmpty())
        return tr("%1 / %2").arg(m_server, ns);
    return tr("%1 / %2 (%3)").arg(m_contextName, ns, m_server);
}

void LiveWorker::start()
{
    client::RestConfig config;
    if (m_options.restConfig) {
        config = *m_options.restConfig;
        if (!m_options.namespace_.isEmpty())
            config.namespace_ = m_options.namespace_.toStdString();
    } else {
        client::KubeconfigOptions ko;
        ko.explicitPath = m_options.kubeconfig.toStdString();
        ko.context = m_options.context.toStdString();
        ko.namespace_ = m_options.namespace_.toStdString();
        auto loaded = client::Kubeconfig::load(ko);
        auto resolved = loaded ? loaded->resolve(ko) : kube::Result<client::RestConfig>(loaded.error());
        if (!resolved) {
            m_contextName = m_options.context;
            setError(q(resolved.error().message));
            finish(ActionKind::Connect, m_options.context, false, q(resolved.error().message));
            return;
        }
        config = std::move(*resolved);
    }
    m_contextName = q(config.contextName);
    m_clusterName = q(config.clusterName);
    m_server = q(config.server);
    m_namespace = m_options.allNamespaces ? std::string() : config.namespace_;
    std::shared_ptr<client::Transport> transport = m_options.transportFactory
                                                       ? m_options.transportFactory(config)
                                                       : std::make_shared<client::HttpTransport>(config);
    m_client = std::make_shared<client::KubeClient>(
        std::move(transport), config.namespace_.empty() ? "default" : config.namespace_);
    m_configured = true;
    if (m_drill)
        m_drill->setClient(m_client);

    m_dsReflector = makeReflector<kube::DaemonSet>(Kind::DaemonSet, m_nextSource++, m_namespace, {}, {});
    m_nodeReflector = makeReflector<kube::Node>(Kind::Node, m_nextSource++, {}, {}, {});
    m_eventReflector = makeReflector<kube::Event>(Kind::Event, m_nextSource++, m_namespace, {}, {});
    // The DaemonSets first: their pods are the largest lists and start from them. A server that
    // builds each list's first page in turn (`daemonscope serve` does, on its engine thread)
    // would otherwise queue the small DaemonSet list behind the whole node and event lists.
    // Nodes and events follow once the DaemonSets are listed (or failed), or after a second.
    m_dsReflector->start();
    QTimer::singleShot(1000, this, &LiveWorker::startNodesAndEvents);
    if (m_options.nodeUpgrades) {
        LiveUpgradeOptions uo = m_options.upgrade;
        uo.actor = m_options.user.toStdString();
        uo.defaultNamespace = config.namespace_.empty() ? "default" : config.namespace_;
        uo.reflector = reflectorOptions();
        // Every node's pods only once something needs them (LiveUpgradeOptions).
        uo.readWorkloadsAtOnce = false;
        m_upgrade = std::make_unique<LiveUpgradeRuntime>(m_client, std::move(uo), [this] {
            QMetaObject::invokeMethod(this, &LiveWorker::upgradeChanged, Qt::QueuedConnection);
        });
        if (m_inventoryWanted)
            m_upgrade->wantInventory();
        m_upgrade->start();
    }
    m_drainTimer->start();
    publish(true);
}

void LiveWorker::startNodesAndEvents()
{
    if (m_nodeReflector)
        m_nodeReflector->start(); // once: a started reflector ignores start()
    if (m_eventReflector)
        m_eventReflector->start();
}

void LiveWorker::stop()
{
    m_stopped = true;
    if (m_drainTimer)
        m_drainTimer->stop();
    // Every reflector is asked first, so their requests are cancelled together; stopping then
    // joins the threads, none of which waits for this one.
    auto ask = [](const auto &reflector) {
        if (reflector)
            reflector->requestStop();
    };
    ask(m_dsReflector);
    ask(m_nodeReflector);
    ask(m_eventReflector);
    if (m_upgrade) // releases the Lease when this console holds it
        m_upgrade->stop();
    for (auto &[key, w] : m_watched) {
        ask(w.revisions);
        ask(w.pods);
    }
    m_watched.clear();
    m_dsReflector.reset();
    m_nodeReflector.reset();
    m_eventReflector.reset();
    m_liveSources.clear();
}

client::ReflectorOptions LiveWorker::reflectorOptions() const
{
    client::ReflectorOptions ro;
    ro.initialBackoff = std::chrono::milliseconds(std::max(1, m_options.initialBackoffMs));
    ro.maxBackoff = std::chrono::milliseconds(std::max(m_options.initialBackoffMs, m_options.maxBackoffMs));
    ro.minWatchTimeoutSeconds = m_options.minWatchTimeoutSeconds;
    ro.maxWatchTimeoutSeconds = m_options.maxWatchTimeoutSeconds;
    return ro;
}

template <typename T>
std::unique_ptr<client::Reflector<T>> LiveWorker::makeReflector(Kind kind, int source, const std::string &ns,
                                                                const std::string &labelSelector,
                                                                const std::string &dsKey)
{
    client::ReflectorOptions ro = reflectorOptions();
    ro.namespace_ = ns;
    ro.labelSelector = labelSelector;
    ro.onError = [this, source, kind](const kube::ApiStatus &s) {
        Pending p;
        p.source = source;
        p.kind = kind;
        p.error = true;
        p.message = s.message;
        push(std::move(p));
    };
    ro.onRecovered = [this, source, kind] {
        Pending p;
        p.source = source;
        p.kind = kind;
        p.recovered = true;
        push(std::move(p));
    };
    m_liveSources.insert(source);
    return std::make_unique<client::Reflector<T>>(
        m_client, std::move(ro), [this, source, kind, dsKey](const client::ReflectorEvent<T> &e) {
            Pending p;
            p.source = source;
            p.kind = kind;
            p.dsKey = dsKey;
            p.type = static_cast<int>(e.type);
            p.object = e.object;
            push(std::move(p));
        });
}

void LiveWorker::push(Pending p)
{
    // A new DaemonSet starts the watches of its pods and revisions, the DaemonSet list's end
    // (or failure) those of nodes and events: drained at once rather than at the next tick.
    using Type = client::ReflectorEventType;
    const auto type = static_cast<Type>(p.type);
    const bool startsWatches =
        p.kind == Kind::DaemonSet && !p.recovered && (p.error || type == Type::Added || type == Type::Synced);
    bool first = false;
    {
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(std::move(p));
        first = startsWatches && !m_drainQueued;
        if (first)
            m_drainQueued = true;
    }
    if (first)
        QMetaObject::invokeMethod(this, &LiveWorker::drain, Qt::QueuedConnection);
    // The drain timer sleeps while nothing happens; the first object after a quiet spell wakes it.
    if (m_drainSleeping.exchange(false))
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!m_stopped)
                    m_drainTimer->start();
            },
            Qt::QueuedConnection);
}

void LiveWorker::drain()
{
    if (m_stopped)
        return; // a drain posted before the stop has nothing left to do
    std::vector<Pending> batch;
    {
        std::lock_guard lock(m_queueMutex);
        batch.swap(m_queue);
        m_drainQueued = false;
    }
    for (const Pending &p : batch)
        apply(p);
    publish(false);
    m_appliedSinceTrim += batch.size();
    if (m_appliedSinceTrim >= kTrimAfterObjects)
        m_trimTimer->start(); // again: the burst is not over yet
    // At rest (nothing queued, everything published, no badge that changes with time) the
    // timer stops until push() wakes it: a quiet cluster costs no wake-up at all.
    if (!batch.empty() || m_builder->hasChanges() || m_timeDependent || m_inFlight->load() > 0)
        return;
    m_drainSleeping.store(true);
    bool empty = false;
    {
        std::lock_guard lock(m_queueMutex);
        empty = m_queue.empty();
    }
    if (empty)
        m_drainTimer->stop();
    else
        m_drainSleeping.store(false); // an object came in meanwhile: keep draining
}

// A large burst of objects (the first lists of a big cluster, a relist) leaves the heap with
// much free memory: the pages of the lists, the decoders' buffers, the superseded snapshots,
// spread over the arenas of the threads that decoded them. The C library keeps it for reuse;
// once the burst is over, what is free is given back to the system, so the console's resident
// size at rest is what it holds, not what loading it once needed.
void LiveWorker::releaseFreedMemory()
{
    m_appliedSinceTrim = 0;
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void LiveWorker::apply(const Pending &p)
{
    if (!m_liveSources.count(p.source))
        return; // from a watch that has been stopped since
    if (p.error) {
        if (p.kind == Kind::DaemonSet)
            startNodesAndEvents();
        m_failingSources.insert(p.source);
        setError(q(p.message));
        if (!m_connectReported && !m_connectFailureReported) {
            m_connectFailureReported = true; // once; a later success still reports the connection
            finish(ActionKind::Connect, m_contextName, false, q(p.message));
        }
        return;
    }
    if (p.recovered) {
        m_failingSources.erase(p.source);
        if (m_failingSources.empty()) {
            setError(QString());
            refreshPermissions(); // the server answers again: perhaps as another user
        }
        return;
    }
    using Type = client::ReflectorEventType;
    const auto type = static_cast<Type>(p.type);
    if (type == Type::Synced) {
        if (p.kind == Kind::DaemonSet)
            startNodesAndEvents(); // after the DaemonSets' pod and revision watches have started
        if (p.kind == Kind::DaemonSet || p.kind == Kind::Node || p.kind == Kind::Event) {
            m_syncedBase.insert(p.source);
            if (!m_connectReported && m_syncedBase.size() == 3) {
                m_connectReported = true;
                refreshPermissions();
                finish(ActionKind::Connect, m_contextName, true, tr("connected to %1").arg(m_server));
            }
        }
        return;
    }
    const bool deleted = type == Type::Deleted;
    const kube::Timestamp now = wallNow();
    switch (p.kind) {
    case Kind::DaemonSet: {
        const auto &ds = *std::static_pointer_cast<const kube::DaemonSet>(p.object);
        const std::string key = ds.metadata.key();
        if (deleted) {
            m_dsVersions.erase(key);
            unwatchDaemonSet(key);
            m_builder->daemonSetChanged(ds, true, now);
            return;
        }
        // An action's PATCH answer may have been applied already; an older watch event
        // queued before it must not undo it for a moment.
        if (auto v = kube::numericResourceVersion(ds.metadata.resourceVersion)) {
            auto it = m_dsVersions.find(key);
            if (it != m_dsVersions.end() && *v < it->second)
                return;
            m_dsVersions[key] = *v;
        }
        m_builder->daemonSetChanged(ds, false, now);
        watchDaemonSet(ds);
        askDaemonSetPermission(ds.metadata.namespace_);
        return;
    }
    case Kind::Revision:
        m_builder->revisionChanged(
            p.dsKey, *std::static_pointer_cast<const kube::ControllerRevision>(p.object), deleted);
        return;
    case Kind::Pod:
        m_builder->podChanged(p.dsKey, *std::static_pointer_cast<const kube::Pod>(p.object),
                              type == Type::Added, deleted, now);
        return;
    case Kind::Node:
        m_builder->nodeChanged(*std::static_pointer_cast<const kube::Node>(p.object), deleted);
        return;
    case Kind::Event:
        m_builder->eventChanged(*std::static_pointer_cast<const kube::Event>(p.object), deleted);
        return;
    }
}

void LiveWorker::watchDaemonSet(const kube::DaemonSet &ds)
{
    const std::string key = ds.metadata.key();
    auto it = m_watched.find(key);
    if (it != m_watched.end()) {
        if (it->second.uid == ds.metadata.uid)
            return;
        unwatchDaemonSet(key); // deleted and created again under the same name
    }
    auto selector = ds.selector();
    if (!selector || selector->empty())
        return; // apps/v1 requires a non-empty selector; nothing sensible to watch otherwise
    Watched w;
    w.uid = ds.metadata.uid;
    w.source = m_nextSource++;
    const std::string labels = selector->toQueryString();
    w.revisions = makeReflector<kube::ControllerRevision>(Kind::Revision, w.source, ds.metadata.namespace_,
                                                          labels, key);
    w.pods = makeReflector<kube::Pod>(Kind::Pod, w.source, ds.metadata.namespace_, labels, key);
    w.revisions->start();
    w.pods->start();
    m_watched.emplace(key, std::move(w));
}

void LiveWorker::unwatchDaemonSet(const std::string &dsKey)
{
    auto it = m_watched.find(dsKey);
    if (it == m_watched.end())
        return;
    m_liveSources.erase(it->second.source);
    m_failingSources.erase(it->second.source);
    m_watched.erase(it); // stops and joins both reflectors
    m_builder->forgetDaemonSet(dsKey);
}

void LiveWorker::setError(const QString &message)
{
    if (message == m_error)
        return;
    m_error = message;
    if (!message.isEmpty())
        Q_EMIT errorOccurred(message);
}

void LiveWorker::upgradeChanged()
{
    if (m_stopped || !m_upgrade)
        return;
    m_builder->setUpgrades(m_upgrade->latest());
    if (m_drainSleeping.exchange(false) || !m_drainTimer->isActive())
        m_drainTimer->start();
}

void LiveWorker::startUpgrade(const QString &rolloutJson)
{
    const kube::Json manifest = kube::Json::parse(rolloutJson.toStdString(), nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("spec")) {
        finish(ActionKind::StartUpgrade, QString(), false, tr("the rollout is not a manifest with a spec"));
        return;
    }
    if (!m_upgrade) {
        finish(ActionKind::StartUpgrade, QString(), false, tr("node upgrades are off for this connection"));
        return;
    }
    m_upgrade->startUpgrade(manifest, [this](const std::string &name, const kube::Result<bool> &created) {
        const QString target = q(name);
        const bool ok = created.ok();
        const QString message = ok ? upgradeStartedMessage(*created) : q(created.error().message);
        QMetaObject::invokeMethod(
            this, [this, target, ok, message] { finish(ActionKind::StartUpgrade, target, ok, message); },
            Qt::QueuedConnection);
    });
}

void LiveWorker::requestUpgradeInventory()
{
    m_inventoryWanted = true; // also for a runtime made after a reconnect
    if (m_upgrade)
        m_upgrade->wantInventory();
}

void LiveWorker::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                const QString &note)
{
    if (const QString problem = upgradeControlProblem(action, node); !problem.isEmpty()) {
        finish(ActionKind::UpgradeControl, rollout, false, problem);
        return;
    }
    if (!m_upgrade) {
        finish(ActionKind::UpgradeControl, rollout, false, tr("node upgrades are off for this connection"));
        return;
    }
    m_upgrade->control(rollout.toStdString(), action.toStdString(), node.toStdString(), note.toStdString(),
                       [this, rollout, action, node](const kube::Result<void> &r) {
                           const bool ok = r.ok();
                           const QString message =
                               ok ? upgradeControlDone(action, node) : q(r.error().message);
                           QMetaObject::invokeMethod(
                               this,
                               [this, rollout, action, node, ok, message] {
                                   finish(ActionKind::UpgradeControl, rollout, ok, message, 0,
                                          upgradeControlParameters(action, node));
                               },
                               Qt::QueuedConnection);
                       });
}

void LiveWorker::publish(bool force)
{
    const qint64 now = wallNow();
    BackendInfo info;
    info.kind = BackendKind::Live;
    info.name = backendName();
    info.context = m_contextName;
    info.server = m_server;
    info.connected = m_configured && m_error.isEmpty() && m_connectReported;
    info.errorText = m_error;
    info.permissions = m_permissions;
    info.cluster = m_clusterName;
    m_builder->setBackendInfo(info);
    // A Progressing or Stuck badge depends on the time (it turns Stuck, its reason counts the
    // time), so a cluster showing one is republished once a second; one at rest is not.
    const bool due = m_builder->hasChanges() || (m_timeDependent && now - m_lastPublish >= 1000);
    if (!force && (!due || m_inFlight->load() > 0))
        return;
    ClockInfo clock;
    clock.now = now;
    clock.speed = 1.0;
    clock.running = m_configured;
    auto snapshot = m_builder->build(clock);
    m_timeDependent =
        std::any_of(snapshot->daemonSets.begin(), snapshot->daemonSets.end(), [](const auto &ds) {
            return ds.badge == RolloutBadge::Progressing || ds.badge == RolloutBadge::Stuck;
        });
    m_lastPublish = now;
    m_inFlight->fetch_add(1);
    Q_EMIT snapshotReady(std::move(snapshot));
}

void LiveWorker::finish(ActionKind kind, const QString &target, bool ok, const QString &message,
                        qint64 revision, const QString &parameters)
{
    if (kind == ActionKind::Rollback || kind == ActionKind::Pause || kind == ActionKind::Resume ||
        kind == ActionKind::SetImage || kind == ActionKind::RestartRollout ||
        kind == ActionKind::SetStrategy) {
        ActionRecord record;
        record.time = wallNow();
        record.wallTime = record.time;
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
    publish(true); // the effect first, as ClusterBackend promises
    Q_EMIT actionFinished(result);
}

void LiveWorker::applyUpdated(const kube::DaemonSet &ds)
{
    // What is queued happened before the write; apply it, then the write's answer.
    drain();
    if (auto v = kube::numericResourceVersion(ds.metadata.resourceVersion)) {
        auto &known = m_dsVersions[ds.metadata.key()];
        if (*v < known)
            return;
        known = *v;
    }
    m_builder->daemonSetChanged(ds, false, wallNow());
}

bool LiveWorker::splitKey(const QString &dsKey, std::string &ns, std::string &name, ActionKind kind)
{
    if (!m_client) {
        finish(kind, dsKey, false, m_error.isEmpty() ? tr("not connected") : m_error);
        return false;
    }
    const qsizetype slash = dsKey.indexOf(QLatin1Char('/'));
    ns = slash < 0 ? m_client->defaultNamespace() : dsKey.left(slash).toStdString();
    name = (slash < 0 ? dsKey : dsKey.mid(slash + 1)).toStdString();
    return true;
}

void LiveWorker::rollback(const QString &dsKey, qint64 toRevision)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Rollback))
        return;
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    LiveRollback r = actions.rollback(ns, name, toRevision);
    if (r.updated)
        applyUpdated(*r.updated);
    finish(ActionKind::Rollback, dsKey, r.outcome.ok(), q(r.outcome.message), r.outcome.targetRevision,
           rollbackParameters(toRevision, r.outcome.targetRevision));
}

void LiveWorker::pause(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Pause))
        return;
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    const LiveStrategyChange r = actions.pause(ns, name);
    if (r.updated)
        applyUpdated(*r.updated);
    QString message = q(r.message);
    if (r.ok)
        message = r.changed ? tr("paused: update strategy switched to OnDelete (new nodes still get pods)")
                            : tr("already paused");
    finish(ActionKind::Pause, dsKey, r.ok, message);
}

void LiveWorker::resume(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::Resume))
        return;
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    const LiveStrategyChange r = actions.resume(ns, name);
    if (r.updated)
        applyUpdated(*r.updated);
    QString message = q(r.message);
    if (r.ok)
        message = r.changed ? tr("resumed: saved update strategy restored") : tr("not paused");
    finish(ActionKind::Resume, dsKey, r.ok, message);
}

void LiveWorker::unavailable(ActionKind kind, const QString &target)
{
    finish(kind, target, false, tr("not available on a live cluster"));
}

// ---- node actions and permissions -------------------------------------------------------------

void LiveWorker::cordon(const QString &node, bool unschedulable)
{
    const ActionKind kind = unschedulable ? ActionKind::Cordon : ActionKind::Uncordon;
    if (!m_client) {
        finish(kind, node, false, tr("not connected"));
        return;
    }
    LiveNodeActions actions(*m_client);
    const auto r = actions.setUnschedulable(node.toStdString(), unschedulable);
    if (!r) {
        finish(kind, node, false, q(r.error().message));
        return;
    }
    drain(); // the node's watch event, if it has arrived, shows in the result's snapshot
    QString message;
    if (*r)
        message = unschedulable ? tr("cordoned") : tr("uncordoned");
    else
        message = unschedulable ? tr("already cordoned") : tr("already uncordoned");
    finish(kind, node, true, message);
}

// kubectl drain NODE --ignore-daemonsets [--delete-emptydir-data] (LiveNodeActions), the
// evictions a budget refuses retried on api::drainRetryDelaysMs without blocking the worker.
void LiveWorker::drainNode(const QString &node, bool deleteEmptyDirData)
{
    if (!m_client) {
        finish(ActionKind::Drain, node, false, tr("not connected"));
        return;
    }
    if (m_nodeDrains.count(node)) {
        finish(ActionKind::Drain, node, false, tr("a drain of %1 is already running").arg(node));
        return;
    }
    api::DrainOptions options;
    options.deleteEmptyDirData = deleteEmptyDirData;
    LiveNodeActions actions(*m_client);
    const auto start = actions.startDrain(node.toStdString(), options);
    if (!start) {
        finish(ActionKind::Drain, node, false, q(start.error().message));
        return;
    }
    if (start->plan.refused()) {
        QStringList errors;
        for (const auto &e : start->plan.errors())
            errors << q(e);
        drain();
        finish(ActionKind::Drain, node, false,
               tr("cordoned, nothing evicted: %1").arg(errors.join(QStringLiteral("; "))));
        return;
    }
    m_nodeDrains[node] = api::DrainRun(start->plan);
    evictPending(node);
}

void LiveWorker::evictPending(const QString &node)
{
    auto it = m_nodeDrains.find(node);
    if (it == m_nodeDrains.end() || m_stopped || !m_client)
        return;
    api::DrainRun &run = it->second;
    LiveNodeActions actions(*m_client);
    const auto next = run.round(
        [&](const std::string &ns, const std::string &pod) { return actions.evict(ns, pod); },
        m_options.drainRetryDelaysMs.empty() ? api::drainRetryDelaysMs() : m_options.drainRetryDelaysMs);
    if (next) {
        QTimer::singleShot(*next, this, [this, node] { evictPending(node); });
        return;
    }
    const bool ok = run.ok();
    const QString message = q(run.summary());
    m_nodeDrains.erase(it);
    drain();
    finish(ActionKind::Drain, node, ok, message);
}

void LiveWorker::refreshPermissions()
{
    if (!m_client || m_stopped)
        return;
    LiveNodeActions actions(*m_client);
    BackendPermissions permissions;
    const auto ask = [&](const char *verb, const char *group, const char *resource, const char *sub,
                         const std::string &ns) {
        const auto r = actions.canI({verb, group, resource, sub, ns});
        if (!r)
            return; // not answered (an API server without the review): the action decides
        QString res = QLatin1String(resource);
        if (*sub)
            res += QLatin1Char('/') + QLatin1String(sub);
        permissions.answers[BackendPermissions::question(QLatin1String(verb), res, q(ns))] = *r;
    };
    std::set<std::string> namespaces;
    if (!m_namespace.empty())
        namespaces.insert(m_namespace);
    for (const auto &[key, version] : m_dsVersions)
        namespaces.insert(key.substr(0, key.find('/')));
    for (const auto &ns : namespaces)
        ask("patch", "apps", "daemonsets", "", ns);
    ask("patch", "", "nodes", "", {});
    ask("create", "", "pods", "eviction", {});
    ask("create", "upgrade.daemonscope.io", "nodeupgraderollouts", "", {});
    m_permissions = std::move(permissions);
    publish(false);
}

void LiveWorker::askDaemonSetPermission(const std::string &ns)
{
    if (!m_client || !m_connectReported)
        return; // the connection's refresh asks for every namespace seen by then
    const QString question =
        BackendPermissions::question(QStringLiteral("patch"), QStringLiteral("daemonsets"), q(ns));
    if (m_permissions.answers.count(question))
        return;
    LiveNodeActions actions(*m_client);
    if (const auto r = actions.canI({"patch", "apps", "daemonsets", "", ns}))
        m_permissions.answers[question] = *r;
}

// ---- Starting a rollout -------------------------------------------------------------------

void LiveWorker::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    const QString parameters = setImageParameters(images);
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::SetImage))
        return;
    std::map<std::string, std::string> wanted;
    for (auto it = images.begin(); it != images.end(); ++it)
        wanted[it.key().toStdString()] = it.value().trimmed().toStdString();
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    const LiveRolloutStart r = actions.setImage(ns, name, wanted);
    if (r.updated)
        applyUpdated(*r.updated);
    QString message = q(r.message);
    if (r.ok && r.attempts == 0) // kubectl sends nothing and prints nothing
        message = tr("image unchanged: the containers already use these images");
    finish(ActionKind::SetImage, dsKey, r.ok, message, 0, parameters);
}

void LiveWorker::restartRollout(const QString &dsKey)
{
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::RestartRollout))
        return;
    const std::string now = kube::formatRfc3339(wallNow() / 1000 * 1000);
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    const LiveRolloutStart r = actions.restart(ns, name, now);
    if (r.updated)
        applyUpdated(*r.updated);
    finish(ActionKind::RestartRollout, dsKey, r.ok, q(r.message), 0, restartParameters(q(now)));
}

void LiveWorker::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                   const QString &maxSurge)
{
    const QString parameters = strategyParameters(maxUnavailable, maxSurge);
    std::string ns, name;
    if (!splitKey(dsKey, ns, name, ActionKind::SetStrategy))
        return;
    LiveActions actions(*m_client, m_options.maxConflictRetries);
    const LiveRolloutStart r =
        actions.setStrategy(ns, name, api::intOrStringFromText(maxUnavailable.trimmed().toStdString()),
                            api::intOrStringFromText(maxSurge.trimmed().toStdString()));
    if (r.updated)
        applyUpdated(*r.updated);
    finish(ActionKind::SetStrategy, dsKey, r.ok, q(r.message), 0, parameters);
}

} // namespace models
