#include "models/liveupgrade/liveupgradecluster.h"
#include "models/liveupgrade/liveupgradewire.h"

#include "models/kube/event.h"
#include "models/kube/jsonfield.h"
#include "models/kube/jsonlimits.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace models {

using kube::ApiStatus;
using kube::Json;
using kube::Result;
using namespace wire;

namespace {

// Numeric resourceVersions are compared (every server this talks to counts them up); opaque
// ones only differ.
bool isNewer(const std::string &rv, const std::string &cached)
{
    const auto a = kube::numericResourceVersion(rv);
    const auto b = kube::numericResourceVersion(cached);
    if (a && b)
        return *a > *b;
    return rv != cached;
}

} // namespace

namespace wire {

std::string dump(const Json &j)
{
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

ApiStatus decodeError(const std::string &message)
{
    return {0, "DecodeError", message};
}

Result<api::NodeUpgradeRollout> decodeRollout(std::string_view body, const std::string &what)
{
    auto j = kube::JsonLimits::parse(body);
    if (!j)
        return decodeError("the server's answer for " + what + " is refused: " + j.error().message);
    auto r = api::NodeUpgradeRollout::fromJson(*j);
    if (!r)
        return decodeError("cannot decode " + what + ": " + r.error().message);
    return r;
}

} // namespace wire

// The list+watch loop of client::Reflector for the NodeUpgradeRollout custom resource, whose
// engine type the kube client (which does not link the engine) cannot decode: JSON lists and
// watch lines decoded here. Simpler than Reflector: unpaged consistent lists, a relist after
// 410 Gone, a re-watch from the last resourceVersion after other errors (with backoff).
class RolloutReflector
{
public:
    using Event = client::ReflectorEvent<api::NodeUpgradeRollout>;
    using Handler = std::function<void(const Event &)>;

    RolloutReflector(std::shared_ptr<client::KubeClient> client, client::ReflectorOptions options,
                     Handler handler)
        : m_client(std::move(client)), m_options(std::move(options)), m_handler(std::move(handler))
    {}
    ~RolloutReflector() { stop(); }

    void start()
    {
        if (m_thread.joinable())
            return;
        m_stop = false;
        m_thread = std::thread([this] { run(); });
    }
    void requestStop()
    {
        {
            std::lock_guard lock(m_wakeMutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_client->transport().interrupt(m_stop);
    }
    void stop()
    {
        requestStop();
        if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
            m_thread.join();
    }

private:
    using Type = client::ReflectorEventType;

    void notify(Type type, const std::string &key, std::shared_ptr<const api::NodeUpgradeRollout> object,
                const std::string &rv)
    {
        if (m_handler)
            m_handler(Event{type, key, std::move(object), rv});
    }
    void reportError(const ApiStatus &s)
    {
        if (m_options.onError && !m_stop)
            m_options.onError(s);
    }
    bool waitFor(std::chrono::milliseconds d)
    {
        std::unique_lock lock(m_wakeMutex);
        return !m_wake.wait_for(lock, d, [this] { return m_stop.load(); });
    }

    bool list()
    {
        const auto &res = LiveUpgradeCluster::rolloutResource();
        client::ListOptions lo;
        lo.labelSelector = m_options.labelSelector;
        lo.fieldSelector = m_options.fieldSelector;
        lo.limit = 0; // a handful of objects
        std::map<std::string, std::shared_ptr<const api::NodeUpgradeRollout>> fresh;
        auto rv = m_client->listPages(
            res, {}, lo,
            [&](const std::string &body, bool restart) -> Result<client::KubeClient::PageInfo> {
                if (restart)
                    fresh.clear();
                auto j = kube::JsonLimits::parse(body);
                if (!j || !j->is_object())
                    return decodeError("the server's answer for the " + res.qualifiedName() +
                                       " list is refused");
                client::KubeClient::PageInfo info;
                if (auto m = j->find("metadata"); m != j->end() && m->is_object())
                    info.resourceVersion = kube::stringOr(*m, "resourceVersion");
                if (auto items = j->find("items"); items != j->end() && items->is_array())
                    for (const auto &item : *items) {
                        auto r = api::NodeUpgradeRollout::fromJson(item);
                        if (!r) {
                            // One malformed object must not hide the others.
                            reportError(
                                decodeError("cannot decode a " + res.kind + ": " + r.error().message));
                            continue;
                        }
                        const std::string key = r->metadata.name;
                        fresh[key] = std::make_shared<const api::NodeUpgradeRollout>(std::move(*r));
                    }
                return info;
            },
            &m_stop);
        if (!rv) {
            reportError(rv.error());
            return false;
        }
        for (const auto &[key, obj] : m_items)
            if (!fresh.count(key))
                notify(Type::Deleted, key, obj, obj->metadata.resourceVersion);
        for (const auto &[key, obj] : fresh) {
            auto it = m_items.find(key);
            if (it == m_items.end())
                notify(Type::Added, key, obj, obj->metadata.resourceVersion);
            else if (it->second->metadata.resourceVersion != obj->metadata.resourceVersion)
                notify(Type::Modified, key, obj, obj->metadata.resourceVersion);
        }
        m_items = std::move(fresh);
        m_rv = *rv;
        notify(Type::Synced, {}, nullptr, m_rv);
        return true;
    }

    Result<bool> onWatchEvent(const Json &ev, bool &gotEvents)
    {
        gotEvents = true;
        const std::string type = ev["type"].get<std::string>();
        const Json &obj = ev.contains("object") ? ev["object"] : Json();
        if (type == "BOOKMARK") {
            if (obj.is_object() && obj.contains("metadata") && obj["metadata"].is_object())
                if (auto rv = kube::stringOr(obj["metadata"], "resourceVersion"); !rv.empty())
                    m_rv = rv;
            return !m_stop.load();
        }
        auto r = api::NodeUpgradeRollout::fromJson(obj);
        if (!r)
            return decodeError("cannot decode a " + std::string(api::kNodeUpgradeKind) + " in a " + type +
                               " event: " + r.error().message);
        auto o = std::make_shared<const api::NodeUpgradeRollout>(std::move(*r));
        const std::string key = o->metadata.name;
        const std::string rv = o->metadata.resourceVersion;
        if (type == "DELETED") {
            m_items.erase(key);
            notify(Type::Deleted, key, o, rv);
        } else {
            const bool known = m_items.count(key) > 0;
            m_items[key] = o;
            notify(known ? Type::Modified : Type::Added, key, o, rv);
        }
        if (!rv.empty())
            m_rv = rv;
        return !m_stop.load();
    }

    void run()
    {
        std::mt19937 rng(std::random_device{}());
        auto backoff = m_options.initialBackoff;
        auto backOff = [&]() {
            const auto d = backoff;
            backoff = std::min(backoff * 2, m_options.maxBackoff);
            return waitFor(d);
        };
        bool needList = true;
        while (!m_stop) {
            if (needList) {
                if (!list()) {
                    if (!backOff())
                        return;
                    continue;
                }
                needList = false;
                backoff = m_options.initialBackoff;
            }
            client::WatchOptions wo;
            wo.resourceVersion = m_rv;
            wo.labelSelector = m_options.labelSelector;
            wo.fieldSelector = m_options.fieldSelector;
            wo.allowWatchBookmarks = true;
            const int lo = std::max(1, m_options.minWatchTimeoutSeconds);
            const int hi = std::max(lo + 1, m_options.maxWatchTimeoutSeconds);
            wo.timeoutSeconds = std::uniform_int_distribution<int>(lo, hi - 1)(rng);
            // A stream silent for three bookmark intervals is dead (a frozen server, a dropped
            // connection): give it up and watch again, as the reflectors of the other kinds do.
            const auto idle =
                m_options.watchIdleTimeout.count() > 0
                    ? m_options.watchIdleTimeout
                    : std::max(m_options.minWatchIdleTimeout, 3 * m_options.assumedBookmarkInterval);
            wo.idleTimeoutSeconds = static_cast<int>(
                std::max<std::int64_t>(1, std::chrono::ceil<std::chrono::seconds>(idle).count()));
            bool gotEvents = false;
            auto r = m_client->watchLines(
                LiveUpgradeCluster::rolloutResource(), {}, wo,
                [&](const Json &ev) { return onWatchEvent(ev, gotEvents); }, m_stop);
            if (m_stop)
                return;
            if (gotEvents)
                backoff = m_options.initialBackoff;
            if (r) {
                if (!gotEvents && !backOff())
                    return;
                continue;
            }
            const ApiStatus &e = r.error();
            if (e.code == 410 || e.reason == "Expired" || e.reason == "Gone" || e.code == 504) {
                needList = true;
                continue;
            }
            reportError(e);
            if (e.reason == "DecodeError")
                needList = true;
            if (!backOff())
                return;
        }
    }

    std::shared_ptr<client::KubeClient> m_client;
    client::ReflectorOptions m_options;
    Handler m_handler;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::mutex m_wakeMutex;
    std::condition_variable m_wake;
    // Reflector thread only.
    std::map<std::string, std::shared_ptr<const api::NodeUpgradeRollout>> m_items;
    std::string m_rv;
};

const client::ResourceType &LiveUpgradeCluster::rolloutResource()
{
    static const client::ResourceType r{"/apis/upgrade.daemonscope.io/v1alpha1", "nodeupgraderollouts",
                                        api::kNodeUpgradeKind, api::kNodeUpgradeApiVersion, false};
    return r;
}

LiveUpgradeCluster::LiveUpgradeCluster(std::shared_ptr<client::KubeClient> client,
                                       client::ReflectorOptions reflectorOptions)
    : m_client(std::move(client)), m_reflectorOptions(std::move(reflectorOptions))
{
    m_reflectorOptions.namespace_.clear(); // every namespace: pods of any controller run on the nodes
    m_nodeReflector = makeReflector<kube::Node>(NodeSource);
    m_podReflector = makeReflector<kube::Pod>(PodSource);
    m_replicaSetReflector = makeReflector<kube::ReplicaSet>(ReplicaSetSource);
    m_budgetReflector = makeReflector<kube::PodDisruptionBudget>(BudgetSource);
    m_jobReflector = makeReflector<kube::Job>(JobSource);
    m_rolloutReflector = std::make_unique<RolloutReflector>(
        m_client, m_reflectorOptions,
        [this](const RolloutReflector::Event &e) { enqueue(RolloutSource, e); });
}

LiveUpgradeCluster::~LiveUpgradeCluster()
{
    stop();
}

template <typename T> std::unique_ptr<client::Reflector<T>> LiveUpgradeCluster::makeReflector(Source source)
{
    return std::make_unique<client::Reflector<T>>(
        m_client, m_reflectorOptions,
        [this, source](const client::ReflectorEvent<T> &e) { enqueue(source, e); });
}

template <typename T> void LiveUpgradeCluster::enqueue(Source source, const client::ReflectorEvent<T> &e)
{
    {
        std::lock_guard lock(m_queueMutex);
        if (e.type == client::ReflectorEventType::Synced)
            m_syncedSources[source] = true;
        else if (e.object)
            m_queue.push_back(Change{e.type == client::ReflectorEventType::Deleted, Object(e.object)});
    }
    m_queueWake.notify_all();
}

void LiveUpgradeCluster::start()
{
    startRollouts();
    startWorkloads();
}

void LiveUpgradeCluster::startRollouts()
{
    if (m_started[RolloutSource] || m_stopped)
        return;
    m_started[RolloutSource] = true;
    m_synced = false;
    m_rolloutReflector->start();
}

void LiveUpgradeCluster::startWorkloads()
{
    if (m_started[NodeSource] || m_stopped)
        return;
    for (Source s : {NodeSource, PodSource, ReplicaSetSource, BudgetSource, JobSource})
        m_started[s] = true;
    m_synced = false; // until they have listed: the controller reads a whole cluster or none
    m_nodeReflector->start();
    m_podReflector->start();
    m_replicaSetReflector->start();
    m_budgetReflector->start();
    m_jobReflector->start();
}

void LiveUpgradeCluster::stop()
{
    if (!m_stopped.exchange(true)) {
        // Ask every reflector first, so that their requests are cancelled together.
        m_nodeReflector->requestStop();
        m_podReflector->requestStop();
        m_replicaSetReflector->requestStop();
        m_budgetReflector->requestStop();
        m_jobReflector->requestStop();
        m_rolloutReflector->requestStop();
        m_nodeReflector->stop();
        m_podReflector->stop();
        m_replicaSetReflector->stop();
        m_budgetReflector->stop();
        m_jobReflector->stop();
        m_rolloutReflector->stop();
    }
    wake();
}

void LiveUpgradeCluster::wake()
{
    {
        std::lock_guard lock(m_queueMutex);
        m_woken = true;
    }
    m_queueWake.notify_all();
}

bool LiveUpgradeCluster::synced() const
{
    return m_synced;
}

bool LiveUpgradeCluster::waitSynced(std::chrono::milliseconds timeout)
{
    if (m_synced)
        return true;
    {
        std::unique_lock lock(m_queueMutex);
        // Every reflector started has listed (and one has started at least).
        const auto all = [this] {
            bool any = false;
            for (int s = 0; s < SourceCount; ++s) {
                if (m_started[s] && !m_syncedSources[s])
                    return false;
                any = any || m_started[s];
            }
            return any;
        };
        // stop() ends the wait too: a server that never answers must not keep a stopping
        // controller waiting for its first lists.
        m_queueWake.wait_for(lock, timeout, [&] { return all() || m_stopped.load(); });
        if (!all())
            return false;
    }
    m_synced = true;
    applyQueued();
    return true;
}

std::optional<kube::Timestamp> LiveUpgradeCluster::processPending()
{
    applyQueued();
    // Timers scheduled while these run wait for the next round, so a timer that schedules
    // itself at once cannot keep the loop from its stop check.
    const std::uint64_t lastSeq = m_nextTimer;
    while (!m_timers.empty()) {
        auto it = m_timers.begin();
        if (it->first.first > now() || it->first.second >= lastSeq)
            return it->first.first;
        auto fn = std::move(it->second);
        m_timers.erase(it);
        fn();
        applyQueued();
    }
    return std::nullopt;
}

void LiveUpgradeCluster::run(const std::function<bool()> &stop)
{
    constexpr auto kPoll = std::chrono::milliseconds(200);
    while (!stop()) {
        if (!m_synced) {
            waitSynced(kPoll);
            continue;
        }
        const auto next = processPending();
        std::unique_lock lock(m_queueMutex);
        auto wait = std::chrono::milliseconds(kPoll);
        if (next)
            wait = std::min(wait, std::chrono::milliseconds(std::max<kube::Timestamp>(0, *next - now())));
        m_queueWake.wait_for(lock, wait, [this] { return !m_queue.empty() || m_woken; });
        m_woken = false;
    }
}

void LiveUpgradeCluster::applyQueued()
{
    for (;;) {
        std::deque<Change> batch;
        {
            std::lock_guard lock(m_queueMutex);
            batch.swap(m_queue);
        }
        if (batch.empty())
            return;
        for (const auto &c : batch)
            apply(c);
    }
}

void LiveUpgradeCluster::apply(const Change &change)
{
    using api::Kind;
    if (std::holds_alternative<std::shared_ptr<const kube::Node>>(change.object))
        store(m_nodes, Kind::Node, change);
    else if (std::holds_alternative<std::shared_ptr<const kube::Pod>>(change.object))
        store(m_pods, Kind::Pod, change);
    else if (std::holds_alternative<std::shared_ptr<const kube::ReplicaSet>>(change.object))
        store(m_replicaSets, Kind::ReplicaSet, change);
    else if (std::holds_alternative<std::shared_ptr<const kube::PodDisruptionBudget>>(change.object))
        store(m_budgets, Kind::PodDisruptionBudget, change);
    else if (std::holds_alternative<std::shared_ptr<const kube::Job>>(change.object))
        store(m_jobs, Kind::Job, change);
    else
        store(m_rollouts, Kind::NodeUpgradeRollout, change);
}

template <typename T>
bool LiveUpgradeCluster::store(std::map<Key, std::shared_ptr<T>> &cache, api::Kind kind, const Change &change)
{
    const auto &obj = std::get<std::shared_ptr<const T>>(change.object);
    const kube::ObjectMeta &meta = obj->metadata;
    const Key key{meta.namespace_, meta.name};
    auto it = cache.find(key);
    T *before = it == cache.end() ? nullptr : it->second.get();
    if (change.deleted) {
        // The deletion of another incarnation (same name, other uid) is old news.
        if (!before ||
            (!meta.uid.empty() && !before->metadata.uid.empty() && meta.uid != before->metadata.uid))
            return false;
        if constexpr (std::is_same_v<T, kube::Pod>)
            indexPod(before, nullptr);
        cache.erase(it);
        deliver(kind, api::WatchEvent::Type::Deleted, obj.get(), meta);
        return true;
    }
    if (before && !isNewer(meta.resourceVersion, before->metadata.resourceVersion))
        return false;
    if constexpr (std::is_same_v<T, kube::Pod>)
        indexPod(before, obj.get());
    // Updated in place, as the simulated store does: a pointer the controller holds into an
    // object (its annotations, say) stays valid across writes to it until it is deleted.
    if (before)
        *before = *obj;
    else
        before = (cache[key] = std::make_shared<T>(*obj)).get();
    deliver(kind, it != cache.end() ? api::WatchEvent::Type::Modified : api::WatchEvent::Type::Added, before,
            before->metadata);
    return true;
}

void LiveUpgradeCluster::deliver(api::Kind kind, api::WatchEvent::Type type, const void *object,
                                 const kube::ObjectMeta &meta)
{
    std::vector<int> ids;
    for (const auto &[id, w] : m_watchers)
        if (w.kind == kind)
            ids.push_back(id);
    if (ids.empty())
        return;
    api::WatchEvent ev;
    ev.type = type;
    ev.kind = kind;
    ev.namespace_ = meta.namespace_;
    ev.name = meta.name;
    ev.resourceVersion = kube::numericResourceVersion(meta.resourceVersion).value_or(0);
    Json custom;
    switch (kind) {
    case api::Kind::Node:
        ev.node = static_cast<const kube::Node *>(object);
        break;
    case api::Kind::Pod:
        ev.pod = static_cast<const kube::Pod *>(object);
        break;
    case api::Kind::ReplicaSet:
        ev.replicaSet = static_cast<const kube::ReplicaSet *>(object);
        break;
    case api::Kind::PodDisruptionBudget:
        ev.podDisruptionBudget = static_cast<const kube::PodDisruptionBudget *>(object);
        break;
    case api::Kind::NodeUpgradeRollout:
        custom = static_cast<const api::NodeUpgradeRollout *>(object)->toJson();
        ev.custom = &custom;
        break;
    case api::Kind::Job:
        custom = static_cast<const kube::Job *>(object)->toJson();
        ev.custom = &custom;
        break;
    default:
        return;
    }
    for (int id : ids) {
        auto it = m_watchers.find(id);
        if (it == m_watchers.end()) // unwatched by an earlier callback
            continue;
        const auto callback = it->second.callback; // survives an unwatch from inside the call
        (*callback)(ev);
    }
}

void LiveUpgradeCluster::indexPod(const kube::Pod *before, const kube::Pod *after)
{
    if (before && !before->node().empty()) {
        auto it = m_podsByNode.find(before->node());
        if (it != m_podsByNode.end()) {
            it->second.erase({before->metadata.name, before->metadata.namespace_});
            if (it->second.empty())
                m_podsByNode.erase(it);
        }
    }
    if (after && !after->node().empty())
        m_podsByNode[after->node()].insert({after->metadata.name, after->metadata.namespace_});
}

void LiveUpgradeCluster::log(const std::string &kind, const std::string &line)
{
    std::lock_guard lock(m_logMutex);
    m_writes.push_back(line);
    ++m_writeCounts[kind];
}

std::vector<std::string> LiveUpgradeCluster::writes() const
{
    std::lock_guard lock(m_logMutex);
    return m_writes;
}

std::map<std::string, int> LiveUpgradeCluster::writeCounts() const
{
    std::lock_guard lock(m_logMutex);
    return m_writeCounts;
}

// ---- clock and timers -------------------------------------------------------------------------

kube::Timestamp LiveUpgradeCluster::now() const
{
    const kube::Timestamp wall = m_clock ? m_clock()
                                         : std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count();
    m_lastNow = std::max<kube::Timestamp>(m_lastNow, wall);
    return m_lastNow;
}

bool LiveUpgradeCluster::runsTimers() const
{
    return true;
}

void LiveUpgradeCluster::schedule(kube::Timestamp t, std::function<void()> fn)
{
    m_timers.emplace(std::make_pair(std::max(t, now()), m_nextTimer++), std::move(fn));
    wake(); // a loop asleep until a later timer recomputes its deadline
}

// ---- listers ----------------------------------------------------------------------------------

namespace {

template <typename T>
const T *findIn(const std::map<std::pair<std::string, std::string>, std::shared_ptr<T>> &m,
                const std::string &ns, const std::string &name)
{
    auto it = m.find({ns, name});
    return it == m.end() ? nullptr : it->second.get();
}

template <typename T>
std::vector<const T *> valuesOf(const std::map<std::pair<std::string, std::string>, std::shared_ptr<T>> &m)
{
    std::vector<const T *> out;
    out.reserve(m.size());
    for (const auto &[key, obj] : m)
        out.push_back(obj.get());
    return out;
}

} // namespace

const kube::Node *LiveUpgradeCluster::node(const std::string &name) const
{
    return findIn(m_nodes, {}, name);
}

std::vector<const kube::Node *> LiveUpgradeCluster::nodes() const
{
    return valuesOf(m_nodes);
}

const kube::Pod *LiveUpgradeCluster::pod(const std::string &ns, const std::string &name) const
{
    return findIn(m_pods, ns, name);
}

std::vector<const kube::Pod *> LiveUpgradeCluster::pods() const
{
    return valuesOf(m_pods);
}

std::vector<const kube::Pod *> LiveUpgradeCluster::podsOnNode(const std::string &node) const
{
    std::vector<const kube::Pod *> out;
    auto it = m_podsByNode.find(node);
    if (it == m_podsByNode.end())
        return out;
    for (const auto &[name, ns] : it->second)
        if (const auto *p = pod(ns, name))
            out.push_back(p);
    return out;
}

const kube::ReplicaSet *LiveUpgradeCluster::replicaSet(const std::string &ns, const std::string &name) const
{
    return findIn(m_replicaSets, ns, name);
}

std::vector<const kube::ReplicaSet *> LiveUpgradeCluster::replicaSets() const
{
    return valuesOf(m_replicaSets);
}

std::vector<const kube::PodDisruptionBudget *> LiveUpgradeCluster::podDisruptionBudgets() const
{
    return valuesOf(m_budgets);
}

const api::NodeUpgradeRollout *LiveUpgradeCluster::rollout(const std::string &name) const
{
    return findIn(m_rollouts, {}, name);
}

std::vector<const api::NodeUpgradeRollout *> LiveUpgradeCluster::rollouts() const
{
    return valuesOf(m_rollouts);
}

// ---- watches ----------------------------------------------------------------------------------

int LiveUpgradeCluster::watch(api::Kind kind, std::function<void(const api::WatchEvent &)> callback)
{
    const int id = m_nextWatcher++;
    m_watchers.emplace(id, Watcher{kind, std::make_shared<std::function<void(const api::WatchEvent &)>>(
                                             std::move(callback))});
    return id;
}

void LiveUpgradeCluster::unwatch(int id)
{
    m_watchers.erase(id);
}

} // namespace models
