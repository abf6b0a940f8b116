#pragma once
// EngineHost — runs one sim::Cluster on its own thread. The engine is not thread-safe, so
// every access is a task posted to that thread (call() blocks the caller until its task ran);
// between tasks the thread advances the virtual clock by the real time that passed times the
// speed factor, in ticks. Watch streams never touch the Cluster: they read the WatchHub the
// engine thread fills.

#include "models/server/watchhub.h"
#include "models/sim/cluster.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace server {

class EngineHost
{
public:
    EngineHost(std::unique_ptr<sim::Cluster> cluster, double speed, std::chrono::milliseconds tick,
               std::size_t watchWindow);
    ~EngineHost();
    EngineHost(const EngineHost &) = delete;
    EngineHost &operator=(const EngineHost &) = delete;

    // Before start(): false leaves NodeUpgradeRollouts to an external controller. While the
    // built-in controller runs, it holds the controllers' Lease
    // (default/daemonscope-node-upgrade-controller, holder kControllerLeaseHolder), renewed every
    // 2 s of real time whatever the speed, as an in-cluster controller would: a console or a
    // `daemonscope controller` pointed at this server sees a live holder and starts no second
    // controller. With the clock frozen (speed 0) the controller makes no pass and the Lease is
    // not renewed.
    void setNodeUpgradeController(bool run) { m_nodeUpgradeController = run; }
    static constexpr const char *kControllerLeaseHolder = "daemonscope-serve";
    void start();
    void stop(); // runs the tasks already posted, then joins

    // Runs fn(cluster) on the engine thread and returns its result. After stop() the task runs
    // on the caller's thread, still one at a time.
    template <typename F> auto call(F &&fn) -> std::invoke_result_t<F &, sim::Cluster &>
    {
        using R = std::invoke_result_t<F &, sim::Cluster &>;
        auto task = std::make_shared<std::packaged_task<R()>>([this, &fn]() { return fn(*m_cluster); });
        auto result = task->get_future();
        post([task] { (*task)(); });
        return result.get();
    }

    WatchHub &hub() { return m_hub; }
    // Runs fn(cluster) on the engine thread every `every` of real time once started (the
    // bootstrap controller's reconcile loop). Set before start().
    void setReconcile(std::function<void(sim::Cluster &)> fn, std::chrono::milliseconds every)
    {
        m_reconcile = std::move(fn);
        m_reconcileEvery = every;
    }
    double speed() const { return m_speed; }

private:
    void post(std::function<void()> task);
    void run();
    void renewControllerLease();

    std::unique_ptr<sim::Cluster> m_cluster;
    const double m_speed;
    const std::chrono::milliseconds m_tick;
    WatchHub m_hub;
    std::function<void(sim::Cluster &)> m_reconcile;
    std::chrono::milliseconds m_reconcileEvery{10000};
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<std::function<void()>> m_tasks;
    bool m_running = false;
    bool m_stopping = false;
    bool m_nodeUpgradeController = true;
    std::mutex m_inlineMutex; // serialises tasks run after stop()
    std::thread m_thread;
};

} // namespace server
