#pragma once
// ConnectionPool — cpp-httplib's task queue for the API server. httplib hands every accepted
// connection to the queue as one task that lives as long as the connection (a watch holds its
// connection, and so its thread, for up to half an hour). A fixed pool therefore stops
// answering once that many watches or slow clients are connected. This pool starts a thread
// whenever a connection arrives and no thread is idle, up to maxThreads; beyond that,
// connections wait in order. The server caps watches well below maxThreads, so ordinary
// requests always find a thread, and read/keep-alive timeouts end connections that idle.
//
// Threads that were started stay (idle ones wait for the next connection) until shutdown().

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace server {

class ConnectionPool : public httplib::TaskQueue
{
public:
    explicit ConnectionPool(std::size_t maxThreads);
    ~ConnectionPool() override;
    ConnectionPool(const ConnectionPool &) = delete;
    ConnectionPool &operator=(const ConnectionPool &) = delete;

    void enqueue(std::function<void()> fn) override;
    void shutdown() override; // runs the queued tasks, then joins every thread

    std::size_t threadCount() const;

private:
    void work();

    const std::size_t m_maxThreads;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::function<void()>> m_tasks;
    std::vector<std::thread> m_threads;
    std::size_t m_idle = 0;
    bool m_shutdown = false;
};

} // namespace server
