#include "models/server/watchhub.h"
#include "models/kube/jsonfield.h"

#include "models/server/resourcepath.h"

#include <algorithm>

namespace server {

WatchHub::WatchHub(std::size_t window) : m_window(std::max<std::size_t>(1, window)) {}

void WatchHub::attach(sim::Cluster &cluster)
{
    m_cluster = &cluster;
    for (api::Kind kind : ResourcePath::servedKinds()) {
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
        m_attachRv = m_headRv = cluster.resourceVersion();
        for (api::Kind kind : ResourcePath::servedKinds())
            m_windows[kind].floorRv = m_attachRv;
    }
    cluster.watchAll([this](const api::WatchEvent &ev) { record(ev); });
}

void WatchHub::record(const api::WatchEvent &ev)
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
    if (ev.type == api::WatchEvent::Type::Deleted)
        m_mirror.erase(key);
    else
        m_mirror[key] = object;
    e.object = std::move(object);
    {
        std::lock_guard lock(m_mutex);
        Window &w = window(e.kind);
        e.seq = w.nextSeq++;
        m_headRv = std::max(m_headRv, e.resourceVersion);
        w.events.push_back(std::move(e));
        while (w.events.size() > m_window) {
            w.floorRv = std::max(w.floorRv, w.events.front().resourceVersion);
            w.events.pop_front();
        }
    }
    m_cv.notify_all();
}

WatchHub::Window &WatchHub::window(api::Kind kind)
{
    auto [it, made] = m_windows.try_emplace(kind);
    if (made)
        it->second.floorRv = m_attachRv;
    return it->second;
}

const WatchHub::Window *WatchHub::findWindow(api::Kind kind) const
{
    auto it = m_windows.find(kind);
    return it == m_windows.end() ? nullptr : &it->second;
}

WatchHub::Start WatchHub::cursorAfter(api::Kind kind, std::uint64_t rv, std::uint64_t &cursor) const
{
    std::lock_guard lock(m_mutex);
    const Window *w = findWindow(kind);
    if (rv < (w ? w->floorRv : m_attachRv))
        return Start::TooOld;
    if (rv > m_headRv)
        return Start::TooNew;
    if (!w) {
        cursor = 0;
        return Start::Ok;
    }
    auto it = std::upper_bound(w->events.begin(), w->events.end(), rv,
                               [](std::uint64_t v, const HubEvent &e) { return v < e.resourceVersion; });
    cursor = it == w->events.end() ? w->nextSeq : it->seq;
    return Start::Ok;
}

std::uint64_t WatchHub::headCursor(api::Kind kind) const
{
    std::lock_guard lock(m_mutex);
    const Window *w = findWindow(kind);
    return w ? w->nextSeq : 0;
}

std::uint64_t WatchHub::headResourceVersion() const
{
    std::lock_guard lock(m_mutex);
    return m_headRv;
}

std::uint64_t WatchHub::oldestResourceVersion(api::Kind kind) const
{
    std::lock_guard lock(m_mutex);
    const Window *w = findWindow(kind);
    return w ? w->floorRv : m_attachRv;
}

WatchHub::Wait WatchHub::next(api::Kind kind, std::uint64_t &cursor,
                              std::chrono::steady_clock::time_point deadline, std::vector<HubEvent> &out,
                              std::uint64_t &consideredRv, std::size_t maxEvents)
{
    std::unique_lock lock(m_mutex);
    Window &w = window(kind);
    const bool woke = m_cv.wait_until(lock, deadline, [&] { return m_closed || cursor < w.nextSeq; });
    if (m_closed)
        return Wait::Closed;
    if (!woke) {
        consideredRv = std::max(consideredRv, m_headRv);
        return Wait::Timeout;
    }
    const std::uint64_t first = w.events.empty() ? w.nextSeq : w.events.front().seq;
    if (cursor < first)
        return Wait::Expired;
    std::size_t added = 0;
    for (auto i = static_cast<std::size_t>(cursor - first); i < w.events.size() && added < maxEvents;
         ++i, ++added)
        out.push_back(w.events[i]);
    cursor += added; // seqs are dense
    if (cursor == w.nextSeq)
        consideredRv = std::max(consideredRv, m_headRv);
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
