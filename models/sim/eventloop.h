#pragma once
// EventLoop — timers of the continuous simulation, ordered by (virtual time, sequence). The
// sequence number makes the order of same-instant timers the order in which they were posted,
// so a run never depends on container or heap internals.

#include "models/controllers/syncqueue.h"
#include "models/kube/timeutil.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace sim {

class EventLoop final : public controllers::Timers
{
public:
    void post(kube::Timestamp t, std::function<void()> fn) override
    {
        m_queue.push(Item{t, m_seq++, std::move(fn)});
    }
    bool empty() const { return m_queue.empty(); }
    kube::Timestamp nextTime() const { return m_queue.top().time; }
    // Removes and returns the earliest timer's function.
    std::function<void()> takeNext()
    {
        std::function<void()> fn = std::move(const_cast<Item &>(m_queue.top()).fn);
        m_queue.pop();
        return fn;
    }
    std::size_t size() const { return m_queue.size(); }

private:
    struct Item
    {
        kube::Timestamp time;
        std::uint64_t seq;
        std::function<void()> fn;
    };
    struct Later
    {
        bool operator()(const Item &a, const Item &b) const
        {
            return a.time != b.time ? a.time > b.time : a.seq > b.seq;
        }
    };
    std::priority_queue<Item, std::vector<Item>, Later> m_queue;
    std::uint64_t m_seq = 0;
};

} // namespace sim
