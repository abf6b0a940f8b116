#include "models/server/enginehost.h"

#include "models/kube/lease.h"
#include "models/sim/nodeupgraderuntime.h"

#include <algorithm>

namespace server {

EngineHost::EngineHost(std::unique_ptr<sim::Cluster> cluster, double speed, std::chrono::milliseconds tick,
                       std::size_t watchWindow)
    : m_cluster(std::move(cluster)), m_speed(std::max(0.0, speed)),
      m_tick(std::max(tick, std::chrono::milliseconds(1))), m_hub(watchWindow)
{}

EngineHost::~EngineHost()
{
    stop();
}

void EngineHost::start()
{
    std::lock_guard lock(m_mutex);
    if (m_running || m_stopping)
        return;
    // NodeUpgradeRollouts created through the API are acted on: the upgrade controller runs
    // next to the DaemonSet controller from the start — unless they are left to an external
    // controller (`daemonscope controller`); the rollout store and the simulated node agents run
    // either way.
    auto &upgrade = m_cluster->nodeUpgrade();
    if (!m_nodeUpgradeController)
        upgrade.stopController();
    // The simulated kubelets heartbeat through node Leases, as kube-node-lease shows them.
    m_cluster->startNodeLeases();
    // Attached before the thread starts: from here on the hub sees every write.
    m_hub.attach(*m_cluster);
    m_running = true;
    m_thread = std::thread([this] { run(); });
}

void EngineHost::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_running) {
            m_stopping = true;
            return;
        }
        m_stopping = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    std::lock_guard lock(m_mutex);
    m_running = false;
}

void EngineHost::post(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_running && !m_stopping) {
            m_tasks.push_back(std::move(task));
            m_cv.notify_all();
            return;
        }
    }
    std::lock_guard inlineLock(m_inlineMutex);
    task();
}

void EngineHost::run()
{
    using Clock = std::chrono::steady_clock;
    auto last = Clock::now();
    auto nextTick = last + m_tick;
    auto nextReconcile = last + m_reconcileEvery;
    constexpr auto kLeaseRenewEvery = std::chrono::seconds(2);
    auto nextLeaseRenewal = last;
    double carry = 0; // virtual milliseconds not yet applied
    // Held for the thread's life: tasks that arrive after stop() run inline only once this
    // thread no longer touches the cluster.
    std::lock_guard inlineLock(m_inlineMutex);
    std::unique_lock lock(m_mutex);
    while (true) {
        m_cv.wait_until(lock, nextTick, [this] { return m_stopping || !m_tasks.empty(); });
        std::vector<std::function<void()>> tasks;
        tasks.swap(m_tasks);
        const bool stopping = m_stopping;
        lock.unlock();
        for (auto &t : tasks)
            t();
        if (stopping)
            break;
        const auto now = Clock::now();
        if (now >= nextTick) {
            // At most one second of real time per tick: a simulation slower than real time
            // then runs slower instead of falling ever further behind.
            const double realMs =
                std::min(1000.0, std::chrono::duration<double, std::milli>(now - last).count());
            const double virtualMs = realMs * m_speed + carry;
            const auto whole = static_cast<kube::Duration>(virtualMs);
            carry = virtualMs - static_cast<double>(whole);
            last = now;
            if (whole > 0)
                m_cluster->advance(whole);
            // A frozen clock (speed 0) runs no controller pass, so nothing holds the Lease then.
            if (m_nodeUpgradeController && m_speed > 0 && now >= nextLeaseRenewal) {
                renewControllerLease();
                nextLeaseRenewal = now + kLeaseRenewEvery;
            }
            if (m_reconcile && now >= nextReconcile) {
                m_reconcile(*m_cluster);
                nextReconcile = now + m_reconcileEvery;
            }
            nextTick = Clock::now() + m_tick;
        }
        lock.lock();
    }
    // Tasks posted while stopping still run, so no caller waits forever.
    lock.lock();
    std::vector<std::function<void()>> rest;
    rest.swap(m_tasks);
    lock.unlock();
    for (auto &t : rest)
        t();
}

void EngineHost::renewControllerLease()
{
    constexpr const char *kNamespace = "default";
    constexpr int kLeaseDurationSeconds = 15;
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    // Taken (back) if someone else wrote it: the built-in controller never stops acting.
    auto existing = m_cluster->get(api::Kind::Lease, kNamespace, api::kNodeUpgradeLeaseName);
    const kube::Json lease =
        kube::heldLease(existing ? *existing : kube::Json(), kNamespace, api::kNodeUpgradeLeaseName,
                        kControllerLeaseHolder, kLeaseDurationSeconds, now);
    (void)(existing ? m_cluster->update(lease) : m_cluster->create(lease));
}

} // namespace server
