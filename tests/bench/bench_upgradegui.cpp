// The node-upgrade page under load: a 5,000-node cluster (5 zones, a node-agent DaemonSet, 20
// ReplicaSets of 100 replicas) on the EmbeddedBackend at 1000x, a node-agent upgrade with
// maxUnavailable 2 % started through the backend, and the UpgradePage visible (offscreen) and
// fed every snapshot. Prints the longest GUI-thread stall — the largest gap between two ticks of
// a 1 ms repeating timer, i.e. the event-loop latency an operator would feel — with the 99th
// percentile, how far the rollout got, the speed the engine reached (virtual seconds per real
// second), the engine thread's CPU time with the virtual seconds it simulated per CPU second
// (what the speed would be with a core of its own: a shared machine's load stretches the wall
// time, not this) and the process's peak RSS (getrusage).
//
//   QT_QPA_PLATFORM=offscreen build/<dir>/tests/bench/bench_upgradegui [--nodes N] [--seconds S]

#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/upgradenodetablemodel.h"
#include "models/itemmodels/upgradephasechartmodel.h"
#include "ui/upgradepage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// CPU time this thread has used, in microseconds: separates the GUI thread's own work from
// time it merely waited for a CPU (the machine may be shared).
qint64 threadCpuUs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

// CPU time (user + system) of this process's threads whose name starts with `prefix`, in
// seconds, from /proc/self/task/*/stat: the engine thread's own work, which a shared machine's
// load does not inflate the way it stretches wall time.
double threadsCpuSeconds(const QByteArray &prefix)
{
    double total = 0;
    const long ticks = sysconf(_SC_CLK_TCK);
    for (const QString &task :
         QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile f(QStringLiteral("/proc/self/task/%1/stat").arg(task));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = f.readAll();
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < open || !stat.mid(open + 1, close - open - 1).startsWith(prefix))
            continue;
        // Fields after the name: state is the 3rd field; utime and stime are the 14th and 15th.
        const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
        if (fields.size() > 12)
            total += double(fields[11].toLongLong() + fields[12].toLongLong()) / double(ticks);
    }
    return total;
}

// Time the threads whose name starts with `prefix` were ready to run but waited for a CPU, in
// seconds (run_delay of /proc/self/task/*/schedstat): what a shared machine's load costs them.
double threadsWaitSeconds(const QByteArray &prefix)
{
    double total = 0;
    for (const QString &task :
         QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(task));
        QFile sched(QStringLiteral("/proc/self/task/%1/schedstat").arg(task));
        if (!comm.open(QIODevice::ReadOnly) || !comm.readAll().startsWith(prefix) ||
            !sched.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> fields = sched.readAll().trimmed().split(' ');
        if (fields.size() > 1)
            total += double(fields[1].toLongLong()) / 1e9;
    }
    return total;
}

long peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024; // KiB on Linux
}

QString scenario(int nodes)
{
    QString y;
    QTextStream s(&y);
    s << "name: bench upgrade gui\nseed: 7\nmode: continuous\nstart: 2026-01-01T00:00:00Z\n"
      << "cluster:\n  nodes:\n";
    for (int z = 0; z < 5; ++z)
        s << "    - {count: " << nodes / 5 << ", namePrefix: z" << z
          << "-, labels: {topology.kubernetes.io/zone: zone-" << char('a' + z)
          << "}, agentVersion: v1.0.0}\n";
    s << "  kubelet: {startDelay: 2s, readyDelay: 1s, terminationGrace: 2s}\n  objects:\n";
    s << "    - apiVersion: apps/v1\n      kind: DaemonSet\n      metadata: {name: agent, namespace: "
         "default}\n"
         "      spec:\n        selector: {matchLabels: {app: agent}}\n"
         "        template:\n          metadata: {labels: {app: agent}}\n"
         "          spec: {containers: [{name: a, image: \"agent:1\"}]}\n";
    for (int i = 0; i < 20; ++i)
        s << "    - apiVersion: apps/v1\n      kind: ReplicaSet\n      metadata: {name: app-" << i
          << ", namespace: default}\n      spec:\n        replicas: 100\n        selector: {matchLabels: "
             "{app: app-"
          << i << "}}\n        template:\n          metadata: {labels: {app: app-" << i
          << "}}\n          spec: {containers: [{name: c, image: \"nginx:1.27\"}]}\n";
    return y;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    qRegisterMetaType<models::ActionResult>();
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("Nodes (5000)."),
                                         QStringLiteral("n"), QStringLiteral("5000"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Real seconds to run the upgrade (30)."),
                                           QStringLiteral("s"), QStringLiteral("30"));
    parser.addOptions({nodesOption, secondsOption});
    parser.process(app);
    const int nodes = std::max(5, parser.value(nodesOption).toInt());
    const int seconds = std::max(1, parser.value(secondsOption).toInt());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.yaml"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write(scenario(nodes).toUtf8());
    }

    models::EmbeddedBackendOptions options;
    options.speed = 1000;
    models::EmbeddedBackend backend(options);
    gui::UpgradePage page(&backend);
    QElapsedTimer clock;
    clock.start();
    const bool verbose = std::getenv("BENCH_VERBOSE") != nullptr;
    qint64 maxApplyUs = 0;    // the longest page.setSnapshot (models + header) on the GUI thread
    qint64 maxApplyCpuUs = 0; // the most GUI-thread CPU one page.setSnapshot used
    QObject::connect(&backend, &models::ClusterBackend::snapshotReady, &page,
                     [&](const models::SnapshotPtr &s) {
                         QElapsedTimer t;
                         t.start();
                         const qint64 cpu0 = threadCpuUs();
                         page.setSnapshot(s);
                         const qint64 us = t.nsecsElapsed() / 1000;
                         const qint64 cpuUs = threadCpuUs() - cpu0;
                         maxApplyUs = std::max(maxApplyUs, us);
                         maxApplyCpuUs = std::max(maxApplyCpuUs, cpuUs);
                         if (verbose)
                             std::fprintf(stderr, "%.3f s: apply %.1f ms, %.1f ms CPU (%zu rollouts)\n",
                                          clock.nsecsElapsed() / 1e9, us / 1000.0, cpuUs / 1000.0,
                                          s->upgrades ? s->upgrades->size() : 0);
                     });
    page.resize(1400, 900);
    page.show();

    // The event-loop probe: a 1 ms timer; each gap beyond 1 ms is time the GUI thread was busy.
    std::vector<qint64> gaps;
    qint64 maxCpuInGap = 0; // GUI-thread CPU used during the longest-working gap
    qint64 lastCpu = 0;
    qint64 last = -1;
    bool measuring = false;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.nsecsElapsed() / 1000;
        const qint64 cpu = threadCpuUs();
        if (measuring && last >= 0) {
            gaps.push_back(now - last);
            maxCpuInGap = std::max(maxCpuInGap, cpu - lastCpu);
            if (verbose && now - last > 16000)
                std::fprintf(stderr, "%.3f s: stall %.1f ms, %.1f ms CPU\n", now / 1e6, (now - last) / 1000.0,
                             (cpu - lastCpu) / 1000.0);
        }
        last = now;
        lastCpu = cpu;
    });
    probe.start();

    qint64 loadMs = 0;
    qint64 startVirtual = 0;
    double startEngineCpu = 0;
    double startEngineWait = 0;
    qint64 startMs = 0;      // when the upgrade started (real)
    qint64 completedMs = -1; // when the first snapshot showed it Completed (real), -1: not yet
    qint64 completedVirtual = 0;
    double completedEngineCpu = 0;
    int snapshots = 0;
    QObject::connect(&backend, &models::ClusterBackend::snapshotReady, &app,
                     [&](const models::SnapshotPtr &s) {
                         ++snapshots;
                         const auto *info = page.rolloutInfo();
                         if (measuring && completedMs < 0 && info &&
                             info->phase == models::UpgradeRolloutPhase::Completed) {
                             completedMs = clock.elapsed();
                             completedVirtual = s->clock.now;
                             completedEngineCpu = threadsCpuSeconds("daemonscope-eng");
                         }
                     });
    QObject::connect(
        &backend, &models::ClusterBackend::actionFinished, &app, [&](const models::ActionResult &r) {
            if (r.kind == models::ActionKind::LoadScenario) {
                loadMs = clock.elapsed();
                startVirtual = backend.latest()->clock.now;
                const QString json = QStringLiteral(
                    R"({"metadata":{"name":"agents-v2"},"spec":{"targetVersion":"v2.0.0",)"
                    R"("maxUnavailable":"2%","soakDuration":"30s","unmanagedPodPolicy":"immediate"}})");
                backend.startUpgrade(json);
            } else if (r.kind == models::ActionKind::StartUpgrade) {
                if (!r.ok)
                    std::fprintf(stderr, "start failed: %s\n", qPrintable(r.message));
                page.setRollout(r.target);
                startEngineCpu = threadsCpuSeconds("daemonscope-eng");
                startEngineWait = threadsWaitSeconds("daemonscope-eng");
                startMs = clock.elapsed();
                measuring = true;
                last = -1;
                QTimer::singleShot(seconds * 1000, &app, &QApplication::quit);
            }
        });
    backend.loadScenario(path);
    app.exec();
    probe.stop();
    const double engineCpu = threadsCpuSeconds("daemonscope-eng") - startEngineCpu;
    const double engineWait = threadsWaitSeconds("daemonscope-eng") - startEngineWait;

    std::sort(gaps.begin(), gaps.end());
    const auto *info = page.rolloutInfo();
    const double maxMs = gaps.empty() ? 0 : gaps.back() / 1000.0;
    const double p99 = gaps.empty() ? 0 : gaps[gaps.size() * 99 / 100] / 1000.0;
    std::printf("nodes %d, speed 1000x, %d s measured after the start (load took %lld ms)\n", nodes, seconds,
                static_cast<long long>(loadMs));
    const double virtualS = (backend.latest()->clock.now - startVirtual) / 1000.0;
    std::printf("snapshots applied: %d; virtual time advanced: %.1f min\n", snapshots, virtualS / 60.0);
    std::printf("engine speed reached: %.0fx (virtual seconds per real second; asked for 1000x)\n",
                virtualS / seconds);
    std::printf("engine thread CPU: %.2f s; virtual seconds per engine CPU second: %.0f\n", engineCpu,
                engineCpu > 0 ? virtualS / engineCpu : 0.0);
    std::printf("engine thread: %.2f s working, %.2f s ready but waiting for a CPU, %.2f s idle, of %d s\n",
                engineCpu, engineWait, std::max(0.0, seconds - engineCpu - engineWait), seconds);
    if (completedMs >= 0) {
        // The upgrade alone, without the idle time after it (shown within one snapshot interval).
        const double upgradeS = (completedVirtual - startVirtual) / 1000.0;
        const double wallS = (completedMs - startMs) / 1000.0;
        const double cpuS = completedEngineCpu - startEngineCpu;
        std::printf("upgrade completed after %.1f virtual min in %.2f s: %.0fx while upgrading; "
                    "%.0f virtual seconds per engine CPU second\n",
                    upgradeS / 60.0, wallS, wallS > 0 ? upgradeS / wallS : 0.0,
                    cpuS > 0 ? upgradeS / cpuS : 0.0);
    }
    if (info)
        std::printf("rollout %s: %d/%d up to date, %d in flight, table rows %d, chart rows %d\n",
                    qPrintable(models::upgradeRolloutPhaseName(info->phase)), info->counts.upToDate,
                    info->counts.nodes, info->counts.inFlight, page.nodeModel()->rowCount(),
                    page.chartModel()->rowCount());
    std::printf("GUI thread: longest stall %.1f ms, p99 tick gap %.2f ms over %zu ticks\n", maxMs, p99,
                gaps.size());
    std::printf("GUI thread CPU: at most %.1f ms of own work inside one gap; longest snapshot apply %.1f ms "
                "(at most %.1f ms CPU)\n",
                maxCpuInGap / 1000.0, maxApplyUs / 1000.0, maxApplyCpuUs / 1000.0);
    std::printf("peak RSS %ld MB\n", peakRssMb());
    return 0;
}
