#include "models/client/reflector.h"

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/job.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <random>

namespace client {

namespace {

bool isGone(const kube::ApiStatus &s)
{
    return s.code == 410 || s.reason == "Expired" || s.reason == "Gone";
}

// client-go's isTooLargeResourceVersionError: a Timeout whose message (kube-apiserver's
// NewTooLargeResourceVersionError, every version since 1.16) says so.
bool isTooLarge(const kube::ApiStatus &s)
{
    if (s.code != 504 && s.reason != "Timeout")
        return false;
    std::string m = s.message;
    std::transform(m.begin(), m.end(), m.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return m.find("too large resource version") != std::string::npos;
}

// A lower resourceVersion on a watch means another server incarnation answered.
bool wentBack(const std::string &rv, const std::string &last)
{
    const auto a = kube::numericResourceVersion(rv);
    const auto b = kube::numericResourceVersion(last);
    return a && b && *a < *b;
}

} // namespace

template <typename T>
Reflector<T>::Reflector(std::shared_ptr<KubeClient> client, ReflectorOptions options, Handler handler)
    : m_client(std::move(client)), m_options(std::move(options)), m_handler(std::move(handler))
{}

template <typename T> Reflector<T>::~Reflector()
{
    stop();
}

template <typename T> void Reflector<T>::start()
{
    if (m_thread.joinable())
        return;
    m_stop = false;
    m_thread = std::thread([this] { run(); });
}

template <typename T> void Reflector<T>::requestStop()
{
    {
        std::lock_guard lock(m_wakeMutex);
        m_stop = true;
    }
    m_wake.notify_all();
    // The list or watch in transfer waits on its socket: woken now, it sees m_stop and ends.
    if (m_client)
        m_client->transport().interrupt(m_stop);
}

template <typename T> void Reflector<T>::stop()
{
    requestStop();
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
}

template <typename T> std::map<std::string, std::shared_ptr<const T>> Reflector<T>::items() const
{
    std::lock_guard lock(m_mutex);
    return m_items;
}

template <typename T> std::string Reflector<T>::lastResourceVersion() const
{
    std::lock_guard lock(m_mutex);
    return m_rv;
}

template <typename T> int Reflector<T>::listCount() const
{
    std::lock_guard lock(m_mutex);
    return m_lists;
}

template <typename T> int Reflector<T>::watchCount() const
{
    std::lock_guard lock(m_mutex);
    return m_watches;
}

template <typename T> std::chrono::milliseconds Reflector<T>::watchIdleTimeout() const
{
    if (m_options.watchIdleTimeout.count() > 0)
        return m_options.watchIdleTimeout;
    const auto interval = m_idleMs.load();
    if (interval > 0)
        return std::chrono::milliseconds(interval);
    return std::max(m_options.minWatchIdleTimeout, 3 * m_options.assumedBookmarkInterval);
}

template <typename T> void Reflector<T>::noteBookmark()
{
    const auto now = std::chrono::steady_clock::now();
    if (m_lastBookmark != std::chrono::steady_clock::time_point{}) {
        const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_lastBookmark);
        // The shortest gap is the interval: events in between only delay a bookmark.
        if (m_bookmarkGap.count() == 0 || gap < m_bookmarkGap)
            m_bookmarkGap = std::max(gap, std::chrono::milliseconds(1));
        if (m_options.watchIdleTimeout.count() == 0)
            m_idleMs = std::max(m_options.minWatchIdleTimeout, 3 * m_bookmarkGap).count();
    }
    m_lastBookmark = now;
}

template <typename T> bool Reflector<T>::waitFor(std::chrono::milliseconds d)
{
    std::unique_lock lock(m_wakeMutex);
    return !m_wake.wait_for(lock, d, [this] { return m_stop.load(); });
}

template <typename T> void Reflector<T>::reportError(const kube::ApiStatus &s)
{
    m_failing = true;
    if (m_options.onError && !m_stop)
        m_options.onError(s);
}

template <typename T> void Reflector<T>::reportRecovered()
{
    if (!m_failing)
        return;
    m_failing = false;
    if (m_options.onRecovered && !m_stop)
        m_options.onRecovered();
}

template <typename T>
void Reflector<T>::notify(ReflectorEventType type, const std::string &key, std::shared_ptr<const T> object,
                          const std::string &rv)
{
    if (m_handler)
        m_handler(ReflectorEvent<T>{type, key, std::move(object), rv});
}

template <typename T> bool Reflector<T>::listAndReplace(Relist how)
{
    ListOptions lo;
    lo.labelSelector = m_options.labelSelector;
    lo.fieldSelector = m_options.fieldSelector;
    switch (how) {
    case Relist::AtLastRv:
        // Re-list at the last RV, unpaged; if that version is gone (or unknown) too, a
        // consistent read.
        lo.resourceVersion = lastResourceVersion();
        lo.limit = 0;
        break;
    case Relist::Consistent:
        lo.resourceVersion.clear();
        lo.limit = 0;
        break;
    case Relist::Any:
        lo.resourceVersion = "0";
        lo.limit = m_options.pageSize;
        break;
    }
    auto list = m_client->list<T>(m_options.namespace_, lo, &m_stop);
    if (!list && (isGone(list.error()) || isTooLarge(list.error())) && !lo.resourceVersion.empty() &&
        lo.resourceVersion != "0" && !m_stop) {
        lo.resourceVersion.clear();
        list = m_client->list<T>(m_options.namespace_, lo, &m_stop);
    }
    if (!list) {
        reportError(list.error()); // not when stopped
        return false;
    }
    reportRecovered();
    std::map<std::string, std::shared_ptr<const T>> fresh;
    for (auto &item : list->items) {
        std::string key = item.metadata.key();
        fresh.emplace(std::move(key), std::make_shared<const T>(std::move(item)));
    }
    std::map<std::string, std::shared_ptr<const T>> old;
    {
        std::lock_guard lock(m_mutex);
        old.swap(m_items);
        m_items = std::move(fresh);
        m_rv = list->resourceVersion;
        ++m_lists;
    }
    // Only this thread writes m_items: reading it here needs no lock.
    const auto &current = m_items;
    for (const auto &[key, obj] : old)
        if (!current.count(key))
            notify(ReflectorEventType::Deleted, key, obj, obj->metadata.resourceVersion);
    for (const auto &[key, obj] : current) {
        auto it = old.find(key);
        if (it == old.end())
            notify(ReflectorEventType::Added, key, obj, obj->metadata.resourceVersion);
        else if (it->second->metadata.resourceVersion != obj->metadata.resourceVersion)
            notify(ReflectorEventType::Modified, key, obj, obj->metadata.resourceVersion);
    }
    notify(ReflectorEventType::Synced, {}, nullptr, list->resourceVersion);
    return true;
}

template <typename T> void Reflector<T>::apply(WatchEvent<T> &&event)
{
    if (event.type == WatchEventType::Bookmark) {
        std::lock_guard lock(m_mutex);
        if (!event.resourceVersion.empty())
            m_rv = event.resourceVersion;
        return;
    }
    const std::string key = event.object.metadata.key();
    const std::string rv = event.resourceVersion;
    auto obj = std::make_shared<const T>(std::move(event.object));
    ReflectorEventType type = ReflectorEventType::Modified;
    {
        std::lock_guard lock(m_mutex);
        if (event.type == WatchEventType::Deleted) {
            m_items.erase(key);
            type = ReflectorEventType::Deleted;
        } else {
            auto [it, inserted] = m_items.insert_or_assign(key, obj);
            (void)it;
            // An ADDED for a known key (or MODIFIED for an unknown one) is reported by what it
            // does to the cache.
            type = inserted ? ReflectorEventType::Added : ReflectorEventType::Modified;
        }
        if (!rv.empty())
            m_rv = rv;
    }
    notify(type, key, std::move(obj), rv);
}

template <typename T> void Reflector<T>::run()
{
    std::mt19937 rng(std::random_device{}());
    std::chrono::milliseconds backoff = m_options.initialBackoff;
    auto backOff = [&]() {
        const auto d = backoff;
        backoff = std::min(backoff * 2, m_options.maxBackoff);
        return waitFor(d);
    };

    bool needList = true;
    Relist relist = Relist::Any;
    while (!m_stop) {
        if (needList) {
            if (!listAndReplace(relist)) {
                if (!backOff())
                    return;
                continue;
            }
            needList = false;
            relist = Relist::Any;
            backoff = m_options.initialBackoff;
        }
        WatchOptions wo;
        wo.resourceVersion = lastResourceVersion();
        wo.labelSelector = m_options.labelSelector;
        wo.fieldSelector = m_options.fieldSelector;
        wo.allowWatchBookmarks = true; // bookmarks are what tells a quiet stream from a dead one
        if (m_options.watchIdleTimeout.count() > 0)
            m_idleMs = m_options.watchIdleTimeout.count();
        else if (m_idleMs.load() == 0)
            m_idleMs = std::max(m_options.minWatchIdleTimeout, 3 * m_options.assumedBookmarkInterval).count();
        wo.idleTimeoutMs = &m_idleMs;
        m_lastBookmark = {};
        const int lo = std::max(1, m_options.minWatchTimeoutSeconds);
        const int hi = std::max(lo + 1, m_options.maxWatchTimeoutSeconds);
        wo.timeoutSeconds = std::uniform_int_distribution<int>(lo, hi - 1)(rng);
        {
            std::lock_guard lock(m_mutex);
            ++m_watches;
        }
        bool gotEvents = false;
        bool serverChanged = false;
        auto r = m_client->watch<T>(
            m_options.namespace_, wo,
            [&](WatchEvent<T> &&ev) {
                gotEvents = true;
                reportRecovered();
                if (wentBack(ev.resourceVersion, lastResourceVersion())) {
                    serverChanged = true;
                    return false;
                }
                if (ev.type == WatchEventType::Bookmark)
                    noteBookmark();
                apply(std::move(ev));
                return !m_stop.load();
            },
            m_stop);
        if (m_stop)
            return;
        if (gotEvents)
            backoff = m_options.initialBackoff;
        if (serverChanged || (!r && isTooLarge(r.error()))) {
            // The cache describes another server's history: start over from what this one has.
            needList = true;
            relist = Relist::Consistent;
            continue;
        }
        if (r) {
            // The server ended the watch: resume from the last RV at once, unless it ended
            // without delivering anything (a server closing watches immediately would
            // otherwise make this loop spin).
            if (!gotEvents && !backOff())
                return;
            continue;
        }
        if (isGone(r.error())) {
            needList = true;
            relist = Relist::AtLastRv;
            continue;
        }
        reportError(r.error());
        if (!backOff())
            return;
    }
}

template class Reflector<kube::DaemonSet>;
template class Reflector<kube::ControllerRevision>;
template class Reflector<kube::Pod>;
template class Reflector<kube::Node>;
template class Reflector<kube::Event>;
template class Reflector<kube::ReplicaSet>;
template class Reflector<kube::PodDisruptionBudget>;
template class Reflector<kube::Job>;

} // namespace client
