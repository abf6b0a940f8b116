#include "models/liveupgrade/liveupgraderuntime.h"

#include "models/liveupgrade/leaderelection.h"
#include "models/liveupgrade/liveupgradecluster.h"
#include "models/snapshot/upgradeassembler.h"

#include "models/client/kubeclient.h"
#include "models/controllers/nodeupgradecontroller.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/lease.h"
#include "models/kube/timeutil.h"

#include <unistd.h>

#include <algorithm>
#include <climits>

namespace models {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMaxSamples = 512;
constexpr int kMaxEvents = 500;

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

std::string defaultIdentity()
{
    char host[HOST_NAME_MAX + 1] = {};
    if (::gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    return std::string("daemonscope-console_") + (host[0] ? host : "localhost") + "_" +
           std::to_string(::getpid());
}

kube::Timestamp wallNow()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool finished(api::RolloutPhase phase)
{
    return phase == api::RolloutPhase::Completed || phase == api::RolloutPhase::CompletedWithExceptions ||
           phase == api::RolloutPhase::Aborted;
}

} // namespace

LiveUpgradeRuntime::LiveUpgradeRuntime(std::shared_ptr<client::KubeClient> client, LiveUpgradeOptions options,
                                       std::function<void()> changed)
    : m_client(std::move(client)), m_options(std::move(options)), m_changed(std::move(changed)),
      m_latest(std::make_shared<const LiveUpgradeView>())
{
    if (m_options.identity.empty())
        m_options.identity = defaultIdentity();
    // A cache that cannot list (no permission to list pods cluster-wide, say) keeps retrying; until
    // it answers, the page says why and commands are answered with it instead of waiting.
    auto onError = std::move(m_options.reflector.onError);
    m_options.reflector.onError = [this, onError](const kube::ApiStatus &s) {
        {
            std::lock_guard lock(m_mutex);
            m_readError = s.message;
            if (m_servedCluster)
                m_servedCluster->wake();
        }
        if (onError)
            onError(s);
    };
    auto onRecovered = std::move(m_options.reflector.onRecovered);
    m_options.reflector.onRecovered = [this, onRecovered] {
        {
            std::lock_guard lock(m_mutex);
            m_readError.clear();
        }
        if (onRecovered)
            onRecovered();
    };
    m_driver.mode = UpgradeDriverInfo::Mode::Nobody;
    m_driver.reading = true;
    m_driver.consoleMayDrive = m_options.electLeader;
}

LiveUpgradeRuntime::~LiveUpgradeRuntime()
{
    stop();
}

void LiveUpgradeRuntime::start()
{
    if (m_started)
        return;
    m_started = true;
    m_thread = std::thread([this] { run(); });
}

void LiveUpgradeRuntime::stop()
{
    if (m_stop.exchange(true))
        return;
    {
        std::lock_guard lock(m_mutex);
        if (m_servedCluster)
            m_servedCluster->stop(); // lists in transfer end at once; wakes the loop (any thread)
    }
    m_client->transport().interrupt(m_stop); // a probe in flight
    if (m_thread.joinable())
        m_thread.join();
    // Commands that never ran are answered, so no caller waits for them.
    std::vector<std::function<void()>> left;
    {
        std::lock_guard lock(m_mutex);
        left.swap(m_tasks);
    }
    for (auto &task : left)
        task();
}

std::shared_ptr<const LiveUpgradeView> LiveUpgradeRuntime::latest() const
{
    std::lock_guard lock(m_mutex);
    return m_latest;
}

void LiveUpgradeRuntime::post(std::function<void()> task)
{
    std::lock_guard lock(m_mutex);
    m_tasks.push_back(std::move(task));
    if (m_servedCluster)
        m_servedCluster->wake();
}

void LiveUpgradeRuntime::publish(std::shared_ptr<const LiveUpgradeView> view)
{
    {
        std::lock_guard lock(m_mutex);
        m_latest = std::move(view);
    }
    if (m_changed)
        m_changed();
}

// ---- commands ------------------------------------------------------------------------------

kube::ApiStatus LiveUpgradeRuntime::notReady() const
{
    kube::ApiStatus s;
    s.code = 503;
    s.reason = "ServiceUnavailable";
    const auto &res = LiveUpgradeCluster::rolloutResource();
    if (m_stop)
        s.message = "the connection is closing";
    else if (m_driver.mode == UpgradeDriverInfo::Mode::Unavailable && m_driver.error.isEmpty())
        s.message = "the cluster does not serve " + res.qualifiedName() + " (" + res.apiVersion + ")";
    else if (!m_driver.error.isEmpty())
        s.message = m_driver.error.toStdString();
    else
        s.message = "the cluster's " + res.qualifiedName() + " are still being read";
    return s;
}

// A command the controller's whole cache must answer (a rollout started here may be driven by
// this console at once): when only the rollouts have been read, the nodes, pods and the rest
// are read first, and the command runs once they have listed — or is answered with the reason
// they cannot be (readFailed), as a command before the first lists is.
void LiveUpgradeRuntime::afterWorkloads(std::function<void()> task)
{
    post([this, task = std::move(task)]() mutable {
        if (!m_stop && m_cluster && m_cluster->synced() && !m_cluster->workloadsStarted()) {
            m_inventoryWanted = true;
            afterWorkloads(std::move(task));
            return;
        }
        task();
    });
}

void LiveUpgradeRuntime::startUpgrade(const kube::Json &manifest, StartDone done)
{
    const kube::Json *meta = manifest.is_object() ? kube::member(manifest, "metadata") : nullptr;
    const std::string name = meta ? kube::stringOr(*meta, "name") : std::string();
    afterWorkloads([this, manifest, name, done = std::move(done)] {
        if (!m_cluster || !m_cluster->synced()) {
            done(name, notReady());
            return;
        }
        auto r = m_cluster->applyRollout(manifest);
        if (r && m_controller)
            m_controller->pass();
        m_rolloutsDirty = true;
        m_nextElection = Clock::now(); // a new rollout may want a controller now
        buildView();                   // the effect is in the view before the answer
        done(name, r);
    });
}

void LiveUpgradeRuntime::control(const std::string &rollout, const std::string &action,
                                 const std::string &node, const std::string &note, ControlDone done)
{
    afterWorkloads([this, rollout, action, node, note, done = std::move(done)] {
        if (!m_cluster || !m_cluster->synced()) {
            done(notReady());
            return;
        }
        // The controller's control() is the same request followed by a pass.
        auto r = m_controller ? m_controller->control(rollout, action, node, m_options.actor, note)
                              : controllers::requestNodeUpgradeControl(*m_cluster, m_events, rollout, action,
                                                                       node, m_options.actor, note);
        m_rolloutsDirty = true;
        buildView(); // the effect is in the view before the answer
        done(r);
    });
}

// ---- the loop ------------------------------------------------------------------------------

void LiveUpgradeRuntime::run()
{
    while (!m_stop && !probe()) {
        const auto until = Clock::now() + m_options.probeInterval;
        while (!m_stop && Clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            std::vector<std::function<void()>> tasks;
            {
                std::lock_guard lock(m_mutex);
                tasks.swap(m_tasks);
            }
            for (auto &task : tasks)
                task(); // answered with the reason the rollouts cannot be read
        }
    }
    if (m_stop)
        return;
    m_cluster = std::make_unique<LiveUpgradeCluster>(m_client, m_options.reflector);
    if (m_options.clock)
        m_cluster->setClock(m_options.clock);
    {
        std::lock_guard lock(m_mutex);
        m_servedCluster = m_cluster.get();
    }
    m_cluster->startRollouts();
    if (m_options.readWorkloadsAtOnce)
        m_cluster->startWorkloads();
    m_cluster->run([this] { return tick(); });

    // Stopping: the controller first (nothing acts any more), then the Lease, then the caches.
    m_controller.reset();
    if (m_elector && m_elector->leading())
        (void)m_elector->release();
    for (int id : m_watches)
        m_cluster->unwatch(id);
    m_watches.clear();
    {
        std::lock_guard lock(m_mutex);
        m_servedCluster = nullptr;
    }
    m_cluster->stop();
}

bool LiveUpgradeRuntime::probe()
{
    const auto &res = LiveUpgradeCluster::rolloutResource();
    client::RequestOptions ro;
    ro.cancel = &m_stop;
    ro.totalTimeout = std::chrono::seconds(30);
    auto r = m_client->transport().request("GET", res.collectionPath({}), {{"limit", "1"}}, {}, {},
                                           "application/json", ro);
    if (r)
        return true;
    if (m_stop)
        return false;
    UpgradeDriverInfo driver;
    driver.mode = UpgradeDriverInfo::Mode::Unavailable;
    if (r.error().code != 404)
        driver.error = q(r.error().message);
    setDriver(driver);
    publishDriver();
    return false;
}

void LiveUpgradeRuntime::publishDriver()
{
    if (!m_driverDirty)
        return;
    m_driverDirty = false;
    auto view = std::make_shared<LiveUpgradeView>(*latest());
    view->driver = m_driver;
    publish(std::move(view));
}

void LiveUpgradeRuntime::readFailed()
{
    std::string error;
    {
        std::lock_guard lock(m_mutex);
        error = m_readError;
    }
    if (error.empty())
        return;
    UpgradeDriverInfo driver;
    driver.mode = UpgradeDriverInfo::Mode::Unavailable;
    driver.error = q(error);
    driver.consoleMayDrive = m_options.electLeader;
    setDriver(driver);
    publishDriver();
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock(m_mutex);
        tasks.swap(m_tasks);
    }
    for (auto &task : tasks)
        task(); // answered with the error (notReady)
}

bool LiveUpgradeRuntime::tick()
{
    if (m_stop)
        return true;
    if (!m_cluster->synced()) {
        readFailed();
        return false;
    }
    if (m_watches.empty()) {
        const auto rollouts = [this](const api::WatchEvent &e) {
            m_rolloutsDirty = true;
            if (e.type != api::WatchEvent::Type::Modified)
                m_lookAtLease = true;
        };
        const auto everything = [this](const api::WatchEvent &) {
            m_rolloutsDirty = true;
            m_inventoryDirty = true;
        };
        m_watches.push_back(m_cluster->watch(api::Kind::NodeUpgradeRollout, rollouts));
        m_watches.push_back(m_cluster->watch(api::Kind::Node, everything));
        m_watches.push_back(m_cluster->watch(api::Kind::Pod, everything));
        m_watches.push_back(m_cluster->watch(api::Kind::ReplicaSet, everything));
    }
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock(m_mutex);
        tasks.swap(m_tasks);
    }
    for (auto &task : tasks)
        task();
    if (startWorkloadsWhenNeeded())
        return m_stop.load(); // no election before the controller could read the cluster
    const auto now = Clock::now();
    if (now >= m_nextElection) {
        elect();
        m_nextElection = Clock::now() + m_options.retryPeriod;
    }
    // The controller writes its status on every pass; while observing, the chart is sampled.
    const bool due = now - m_lastBuild >= m_options.buildInterval;
    if (m_driverDirty || ((m_rolloutsDirty || m_inventoryDirty) && due) ||
        (!m_controller && now - m_lastBuild >= std::chrono::seconds(1) && unfinishedRollout()))
        buildView();
    return m_stop.load();
}

bool LiveUpgradeRuntime::startWorkloadsWhenNeeded()
{
    if (m_cluster->workloadsStarted() || (!m_inventoryWanted && m_cluster->rollouts().empty()))
        return false;
    m_cluster->startWorkloads();
    m_inventoryDirty = true; // the view says it is read once they have listed, even if empty
    return true;
}

void LiveUpgradeRuntime::wantInventory()
{
    if (m_inventoryWanted.exchange(true))
        return;
    std::lock_guard lock(m_mutex);
    if (m_servedCluster)
        m_servedCluster->wake();
}

bool LiveUpgradeRuntime::unfinishedRollout() const
{
    for (const auto *r : m_cluster->rollouts())
        if (!finished(r->status.phase))
            return true;
    return false;
}

// ---- who drives ----------------------------------------------------------------------------

void LiveUpgradeRuntime::findLease()
{
    // A Lease of that name anywhere in the cluster is the one: a controller deployed in its own
    // namespace and this console must compete for the same object.
    m_leaseNamespace =
        m_options.leaseNamespace.empty() ? m_options.defaultNamespace : m_options.leaseNamespace;
    if (!m_options.leaseNamespace.empty())
        return;
    client::RequestOptions ro;
    ro.cancel = &m_stop;
    ro.totalTimeout = m_options.renewDeadline;
    auto r = m_client->transport().request("GET", leaseResource().collectionPath({}),
                                           {{"fieldSelector", "metadata.name=" + m_options.leaseName}}, {},
                                           {}, "application/json", ro);
    if (!r)
        return; // not allowed cluster-wide, say: the context's namespace
    const auto list = kube::JsonLimits::parse(r->body);
    const kube::Json *items = list && list->is_object() ? kube::member(*list, "items") : nullptr;
    if (!items || !items->is_array() || items->empty())
        return;
    std::string withHolder, any;
    for (const auto &item : *items) {
        const kube::Json *meta = kube::member(item, "metadata");
        const kube::Json *spec = kube::member(item, "spec");
        if (!meta)
            continue;
        const std::string ns = kube::stringOr(*meta, "namespace");
        if (any.empty())
            any = ns;
        if (withHolder.empty() && spec && !kube::stringOr(*spec, "holderIdentity").empty())
            withHolder = ns;
    }
    m_leaseNamespace = !withHolder.empty() ? withHolder : !any.empty() ? any : m_leaseNamespace;
}

void LiveUpgradeRuntime::elect()
{
    const auto now = Clock::now();
    const bool leading = m_elector && m_elector->leading();
    // A candidate while a rollout is unfinished; once leading, until the console stops.
    const bool candidate = m_options.electLeader && (leading || unfinishedRollout());
    if (!candidate && !m_lookAtLease)
        return; // at rest: no request
    if (!leading && (now >= m_nextLeaseSearch || !candidate)) {
        findLease();
        m_nextLeaseSearch = now + std::chrono::seconds(30);
        if (m_elector && m_elector->options().namespace_ != m_leaseNamespace)
            m_elector.reset();
    }
    const QString lease = q(m_leaseNamespace + "/" + m_options.leaseName);
    if (!m_elector) {
        LeaderElectionOptions eo;
        eo.namespace_ = m_leaseNamespace;
        eo.name = m_options.leaseName;
        eo.identity = m_options.identity;
        eo.leaseDuration = m_options.leaseDuration;
        eo.renewDeadline = m_options.renewDeadline;
        eo.retryPeriod = m_options.retryPeriod;
        m_elector = std::make_unique<LeaderElector>(m_client, eo);
    }
    UpgradeDriverInfo driver;
    driver.lease = lease;
    driver.consoleMayDrive = m_options.electLeader;
    if (!candidate) {
        // Only looked at — once, and again when the rollouts come or go, never at rest: who holds
        // it, by its own renewTime (clocks may differ a little; this is what the page says, not a
        // decision). A rollout that is not finished makes this console a candidate, and the
        // election finds the holder anyway.
        m_lookAtLease = false;
        driver.mode = UpgradeDriverInfo::Mode::Nobody;
        auto j = m_client->getJson(leaseResource(), m_leaseNamespace, m_options.leaseName);
        if (const std::string holder = j ? kube::liveLeaseHolder(*j, wallNow()) : std::string();
            !holder.empty()) {
            driver.mode = UpgradeDriverInfo::Mode::Controller;
            driver.holder = q(holder);
        }
        setDriver(driver);
        return;
    }
    auto r = m_elector->tryAcquireOrRenew();
    if (r && *r) {
        lead(true);
        driver.mode = UpgradeDriverInfo::Mode::Console;
        driver.holder = q(m_options.identity);
        setDriver(driver);
        return;
    }
    // Lost it, or never had it: a leader stops acting at once when another holds the Lease, and
    // once its renewals have failed for the renew deadline.
    if (m_controller && ((r && !*r) || Clock::now() - m_elector->lastRenew() >= m_options.renewDeadline))
        lead(false);
    if (m_controller) {
        driver.mode = UpgradeDriverInfo::Mode::Console; // still within the renew deadline
        driver.holder = q(m_options.identity);
        driver.error = q(r ? std::string() : r.error().message);
    } else if (!m_elector->holder().empty() && m_elector->holder() != m_options.identity) {
        driver.mode = UpgradeDriverInfo::Mode::Controller;
        driver.holder = q(m_elector->holder());
    } else {
        driver.mode = UpgradeDriverInfo::Mode::Nobody;
        driver.error = r ? QString() : q(r.error().message); // else: the Lease has not expired yet
    }
    setDriver(driver);
}

void LiveUpgradeRuntime::lead(bool leading)
{
    if (leading && !m_controller) {
        m_controller = std::make_unique<controllers::NodeUpgradeController>(*m_cluster, m_events, m_metrics);
        m_controller->pass();
        m_rolloutsDirty = true;
    } else if (!leading && m_controller) {
        m_controller.reset();
        m_rolloutsDirty = true;
    }
}

void LiveUpgradeRuntime::setDriver(UpgradeDriverInfo driver)
{
    if (driver == m_driver)
        return;
    m_driver = std::move(driver);
    m_driverDirty = true;
}

// ---- the view ------------------------------------------------------------------------------

void LiveUpgradeRuntime::buildView()
{
    const auto previous = latest();
    auto view = std::make_shared<LiveUpgradeView>();
    view->driver = m_driver;
    view->inventoryRead = m_cluster->workloadsStarted() && m_cluster->synced();
    if (m_inventoryDirty || !previous) {
        auto inventory = buildUpgradeInventory(*m_cluster);
        view->inventory = previous && *previous->inventory == *inventory ? previous->inventory : inventory;
    } else {
        view->inventory = previous->inventory;
    }
    auto list = std::make_shared<UpgradeRolloutList>();
    for (const auto *r : m_cluster->rollouts()) {
        const std::string &name = r->metadata.name;
        const UpgradeRolloutInfo *prev =
            previous ? findUpgradeRollout(*previous->rollouts, q(name)) : nullptr;
        const auto metrics = m_metrics.find(name);
        const UpgradeInfoSource source{*m_cluster, m_controller.get(), &m_events,
                                       metrics != m_metrics.end() ? &metrics->second : nullptr};
        list->push_back(buildUpgradeRolloutInfo(source, name, prev, m_sampleTotals, kMaxSamples, kMaxEvents));
    }
    if (!m_controller)
        sampleObserved(*list);
    view->rollouts = std::move(list); // unchanged parts are shared with the previous view
    m_rolloutsDirty = false;
    m_inventoryDirty = false;
    m_driverDirty = false;
    m_lastBuild = Clock::now();
    publish(std::move(view));
}

// While another process drives, the phase chart is drawn from what is observed here: the
// nodes per phase of the table, the status's unavailable count and budget, once a second.
void LiveUpgradeRuntime::sampleObserved(const UpgradeRolloutList &list)
{
    const kube::Timestamp now = m_cluster->now();
    for (const UpgradeRolloutInfo &info : list) {
        const std::string name = info.name.toStdString();
        auto &last = m_lastObservedSample[name];
        if (info.phase != UpgradeRolloutPhase::Progressing && info.phase != UpgradeRolloutPhase::Paused &&
            info.phase != UpgradeRolloutPhase::Halted && info.phase != UpgradeRolloutPhase::Aborting)
            continue;
        if (last && now - last < 1000)
            continue;
        last = now;
        controllers::NodeUpgradeSample s;
        s.time = now;
        for (const UpgradeNodeRow &row : *info.nodes)
            ++s.phases[std::size_t(row.phase)];
        s.unavailable = info.unavailable;
        s.maxUnavailable = info.maxUnavailableResolved;
        s.blocked = info.counts.blocked;
        s.rolloutPhase = static_cast<api::RolloutPhase>(static_cast<int>(info.phase));
        s.headline = info.headline.toStdString();
        if (info.eta >= 0)
            s.eta = info.eta;
        m_metrics[name].sample(std::move(s));
    }
}

} // namespace models
