#include "models/server/watchhub.h"
#include "models/kube/jsonfield.h"

#include "models/server/resourcepath.h"

#include <algorithm>

namespace server {

WatchHub::WatchHub(std::size_t window) : m_window(std::max<std::size_t>(1, window)) {}

void WatchHub::attach(engine::Cluster &cluster)
{
    m_cluster = &cluster;
    for (engine::Kind kind : ResourcePath::servedKinds()) {
        auto list = cluster.list(kind);
        if (!list)
            continue;
        for (const auto &item : (*list)["items"]) {
            const auto &meta = item["metadata"];
            const std::string ns = kube::stringOr(meta, "namespace");
            const std::string name = kube::stringOr(meta, "name");
            m_mirror[{kind, ns.empty() ? name : ns + "/" + name}] = std::make_shared<const kube::Json>(item);
        }
    }
    {
        std::lock_guard lock(m_mutex);
        m_floorRv = m_headRv = cluster.resourceVersion();
    }
    cluster.watchAll([this](const engine::WatchEvent &ev) { record(ev); });
}

void WatchHub::record(const engine::WatchEvent &ev)
{
    HubEvent e;
    e.resourceVersion = ev.resourceVersion;
    e.time = m_cluster ? m_cluster->now() : 0;
    e.kind = ev.kind;
    e.type = ev.type;
    auto object = std::make_shared<const kube::Json>(ev.object());
    const auto key = std::make_pair(ev.kind, ev.key());
    if (auto it = m_mirror.find(key); it != m_mirror.end())
        e.previous = it->second;
    if (ev.type == engine::WatchEvent::Type::Deleted)
        m_mirror.erase(key);
    else
        m_mirror[key] = object;
    e.object = std::move(object);
    {
        std::lock_guard lock(m_mutex);
        e.seq = m_nextSeq++;
        m_headRv = std::max(m_headRv, e.resourceVersion);
        m_events.push_back(std::move(e));
        while (m_events.size() > m_window) {
            m_floorRv = std::max(m_floorRv, m_events.front().resourceVersion);
            m_events.pop_front();
        }
    }
    m_cv.notify_all();
}

WatchHub::Start WatchHub::cursorAfter(std::uint64_t rv, std::uint64_t &cursor) const
{
    std::lock_guard lock(m_mutex);
    if (rv < m_floorRv)
        return Start::TooOld;
    if (rv > m_headRv)
        return Start::TooNew;
    auto it = std::upper_bound(m_events.begin(), m_events.end(), rv,
                               [](std::uint64_t v, const HubEvent &e) { return v < e.resourceVersion; });
    cursor = it == m_events.end() ? m_nextSeq : it->seq;
    return Start::Ok;
}

std::uint64_t WatchHub::headCursor() const
{
    std::lock_guard lock(m_mutex);
    return m_nextSeq;
}

std::uint64_t WatchHub::headResourceVersion() const
{
    std::lock_guard lock(m_mutex);
    return m_headRv;
}

std::uint64_t WatchHub::oldestResourceVersion() const
{
    std::lock_guard lock(m_mutex);
    return m_floorRv;
}

WatchHub::Wait WatchHub::next(std::uint64_t &cursor, std::chrono::steady_clock::time_point deadline,
                              std::vector<HubEvent> &out, std::size_t maxEvents)
{
    std::unique_lock lock(m_mutex);
    const bool woke = m_cv.wait_until(lock, deadline, [&] { return m_closed || cursor < m_nextSeq; });
    if (m_closed)
        return Wait::Closed;
    if (!woke)
        return Wait::Timeout;
    const std::uint64_t first = m_events.empty() ? m_nextSeq : m_events.front().seq;
    if (cursor < first)
        return Wait::Expired;
    std::size_t added = 0;
    for (auto i = static_cast<std::size_t>(cursor - first); i < m_events.size() && added < maxEvents;
         ++i, ++added)
        out.push_back(m_events[i]);
    cursor += added; // seqs are dense
    return Wait::Events;
}

void WatchHub::close()
{
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_cv.notify_all();
}

bool WatchHub::closed() const
{
    std::lock_guard lock(m_mutex);
    return m_closed;
}

} // namespace server
