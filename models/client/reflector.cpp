#include "models/client/reflector.h"

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <random>

namespace client {

namespace {

bool isGone(const kube::ApiStatus &s)
{
    return s.code == 410 || s.reason == "Expired" || s.reason == "Gone";
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

template <typename T> void Reflector<T>::stop()
{
    {
        std::lock_guard lock(m_wakeMutex);
        m_stop = true;
    }
    m_wake.notify_all();
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

template <typename T> bool Reflector<T>::listAndReplace(bool afterGone)
{
    ListOptions lo;
    lo.labelSelector = m_options.labelSelector;
    lo.fieldSelector = m_options.fieldSelector;
    if (afterGone) {
        // Re-list at the last RV, unpaged; if that version is gone too, a consistent read.
        lo.resourceVersion = lastResourceVersion();
        lo.limit = 0;
    } else {
        lo.resourceVersion = "0";
        lo.limit = m_options.pageSize;
    }
    auto list = m_client->list<T>(m_options.namespace_, lo);
    if (!list && isGone(list.error()) && !lo.resourceVersion.empty() && !m_stop) {
        lo.resourceVersion.clear();
        list = m_client->list<T>(m_options.namespace_, lo);
    }
    if (!list) {
        reportError(list.error());
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
        old = m_items;
        m_items = fresh;
        m_rv = list->resourceVersion;
        ++m_lists;
    }
    for (const auto &[key, obj] : old)
        if (!fresh.count(key))
            notify(ReflectorEventType::Deleted, key, obj, obj->metadata.resourceVersion);
    for (const auto &[key, obj] : fresh) {
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
    bool afterGone = false;
    while (!m_stop) {
        if (needList) {
            if (!listAndReplace(afterGone)) {
                if (!backOff())
                    return;
                continue;
            }
            needList = false;
            afterGone = false;
            backoff = m_options.initialBackoff;
        }
        WatchOptions wo;
        wo.resourceVersion = lastResourceVersion();
        wo.labelSelector = m_options.labelSelector;
        wo.fieldSelector = m_options.fieldSelector;
        wo.allowWatchBookmarks = true;
        const int lo = std::max(1, m_options.minWatchTimeoutSeconds);
        const int hi = std::max(lo + 1, m_options.maxWatchTimeoutSeconds);
        wo.timeoutSeconds = std::uniform_int_distribution<int>(lo, hi - 1)(rng);
        {
            std::lock_guard lock(m_mutex);
            ++m_watches;
        }
        bool gotEvents = false;
        auto r = m_client->watch<T>(
            m_options.namespace_, wo,
            [&](WatchEvent<T> &&ev) {
                gotEvents = true;
                reportRecovered();
                apply(std::move(ev));
                return !m_stop.load();
            },
            m_stop);
        if (m_stop)
            return;
        if (gotEvents)
            backoff = m_options.initialBackoff;
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
            afterGone = true;
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

} // namespace client
