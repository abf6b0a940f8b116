#pragma once
// SyncQueue — a controller's work queue in the continuous simulation: each key is synced once at
// the earliest time asked for (a later request for a key already due sooner changes nothing; an
// earlier one supersedes the pending timer), and a controller may space a key's syncs by an
// interval after its last one, as client-go's rate-limited queues do, and retries a key whose sync
// failed after client-go's per-item back-off. Timers go to the cluster's event loop (Timers), so
// the order of syncs is the order of (time, posting).

#include "models/kube/timeutil.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>

namespace controllers {

// Where a controller's timers go: the cluster's event loop, which runs them in the order of
// (time, posting).
class Timers
{
public:
    virtual void post(kube::Timestamp due, std::function<void()> fn) = 0;

protected:
    ~Timers() = default;
};

class SyncQueue
{
public:
    SyncQueue(Timers &loop, std::function<void(const std::string &)> process)
        : m_loop(loop), m_process(std::move(process))
    {}

    void scheduleAt(const std::string &key, kube::Timestamp due)
    {
        auto it = m_queued.find(key);
        if (it != m_queued.end() && it->second <= due)
            return;
        m_queued[key] = due;
        m_loop.post(due, [this, key, due] {
            auto q = m_queued.find(key);
            if (q == m_queued.end() || q->second != due)
                return; // superseded by an earlier schedule of the same key
            m_queued.erase(q);
            m_process(key);
        });
    }
    // `due`, but not sooner than `interval` after the key's last sync.
    kube::Timestamp spaced(const std::string &key, kube::Timestamp due, kube::Duration interval) const
    {
        if (auto it = m_lastSync.find(key); it != m_lastSync.end())
            due = std::max(due, it->second + interval);
        return due;
    }
    void synced(const std::string &key, kube::Timestamp now) { m_lastSync[key] = now; }
    void forget(const std::string &key)
    {
        m_lastSync.erase(key);
        m_failures.erase(key);
    }
    // A failed sync of `key`: how long to wait before retrying it — client-go's per-item
    // exponential limiter with its defaults, 5 ms doubling per failure in a row up to 1000 s.
    kube::Duration retryDelay(const std::string &key)
    {
        return kube::doubledDelay(kRetryBase, kRetryMax, m_failures[key]++);
    }
    void succeeded(const std::string &key) { m_failures.erase(key); } // the next failure waits 5 ms

    static constexpr kube::Duration kRetryBase = 5;
    static constexpr kube::Duration kRetryMax = 1000 * 1000;

private:
    Timers &m_loop;
    std::function<void(const std::string &)> m_process;
    std::map<std::string, kube::Timestamp> m_queued;   // key -> due time of its pending sync
    std::map<std::string, kube::Timestamp> m_lastSync; // key -> time of its last sync
    std::map<std::string, int> m_failures;             // key -> failed syncs in a row
};

} // namespace controllers
