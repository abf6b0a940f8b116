#pragma once
// Drives an EmbeddedBackend with a stopped clock from a test: every command waits for its own
// actionFinished, so ClusterBackend::latest() shows the command's effect afterwards.

#include "models/backend/clusterbackend.h"
#include "models/embedded/embeddedbackend.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QString>
#include <QTest>

#include <functional>
#include <memory>

namespace upgradetest {

inline QString demoPath()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR) + QStringLiteral("/resources/scenarios/demo.yaml");
}

// The demo's nine highmem nodes from v1.32.4 to v1.33.1, one at a time, quick timers.
inline QString demoRollout(const QString &name = QStringLiteral("agents-highmem"))
{
    return QStringLiteral(R"({"apiVersion":"upgrade.daemonscope.io/v1alpha1","kind":"NodeUpgradeRollout",)"
                          R"("metadata":{"name":"%1"},"spec":{"targetVersion":"v1.33.1",)"
                          R"("nodeSelector":{"node-pool":"highmem"},"maxUnavailable":1,"soakDuration":"30s",)"
                          R"("unmanagedPodPolicy":"immediate",)"
                          R"("timeouts":{"returnTimeout":"3m"}}})")
        .arg(name);
}

inline std::unique_ptr<models::EmbeddedBackend> makeBackend()
{
    models::EmbeddedBackendOptions options;
    options.speed = 0; // the test moves the clock
    options.user = QStringLiteral("tester");
    return std::make_unique<models::EmbeddedBackend>(options);
}

// Runs `call` and waits for the actionFinished of `kind`; the result's ok flag, or false on a timeout.
inline bool act(models::ClusterBackend &backend, models::ActionKind kind, const std::function<void()> &call,
                models::ActionResult *out = nullptr, int timeoutMs = 60000)
{
    QSignalSpy spy(&backend, &models::ClusterBackend::actionFinished);
    call();
    QElapsedTimer timer;
    timer.start();
    int seen = 0;
    while (timer.elapsed() < timeoutMs) {
        while (seen < spy.count()) {
            const auto result = spy.at(seen++).at(0).value<models::ActionResult>();
            if (result.kind == kind) {
                if (out)
                    *out = result;
                return result.ok;
            }
        }
        spy.wait(1000);
    }
    return false;
}

inline bool load(models::ClusterBackend &backend, const QString &path = demoPath())
{
    return act(backend, models::ActionKind::LoadScenario, [&] { backend.loadScenario(path); });
}

inline bool step(models::ClusterBackend &backend, qint64 ms)
{
    return act(backend, models::ActionKind::Step, [&] { backend.step(ms); });
}

inline const models::UpgradeRolloutInfo *rollout(const models::ClusterBackend &backend, const QString &name)
{
    return backend.latest()->upgrade(name);
}

// Steps the clock in `stepMs` increments until `done` holds on the latest rollout, at most `maxMs`.
inline bool stepUntil(models::ClusterBackend &backend, const QString &name,
                      const std::function<bool(const models::UpgradeRolloutInfo &)> &done, qint64 maxMs,
                      qint64 stepMs = 10000)
{
    for (qint64 t = 0; t <= maxMs; t += stepMs) {
        const auto *r = rollout(backend, name);
        if (r && done(*r))
            return true;
        if (!step(backend, stepMs))
            return false;
    }
    const auto *r = rollout(backend, name);
    return r && done(*r);
}

} // namespace upgradetest
