#include "models/server/connectionpool.h"

#include <algorithm>

namespace server {

ConnectionPool::ConnectionPool(std::size_t maxThreads) : m_maxThreads(std::max<std::size_t>(1, maxThreads)) {}

ConnectionPool::~ConnectionPool()
{
    shutdown();
}

void ConnectionPool::enqueue(std::function<void()> fn)
{
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(fn));
        // Every queued task beyond the idle threads wants a thread of its own.
        if (m_tasks.size() > m_idle && m_threads.size() < m_maxThreads && !m_shutdown)
            m_threads.emplace_back([this] { work(); });
    }
    m_cv.notify_one();
}

void ConnectionPool::shutdown()
{
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        m_shutdown = true;
        threads.swap(m_threads);
    }
    m_cv.notify_all();
    for (auto &t : threads)
        if (t.joinable())
            t.join();
}

std::size_t ConnectionPool::threadCount() const
{
    std::lock_guard lock(m_mutex);
    return m_threads.size();
}

void ConnectionPool::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        ++m_idle;
        m_cv.wait(lock, [this] { return m_shutdown || !m_tasks.empty(); });
        --m_idle;
        if (m_tasks.empty())
            return; // shut down and nothing left to run
        std::function<void()> task = std::move(m_tasks.front());
        m_tasks.pop_front();
        lock.unlock();
        task();
        lock.lock();
    }
}

} // namespace server
