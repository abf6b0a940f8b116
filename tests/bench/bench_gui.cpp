// The whole console at cluster scale: a generated scenario with N nodes in several zones and
// D DaemonSets (each with a few revisions, some rollouts still in progress: one slow, one
// fast, one stuck on an image that never becomes Ready) is opened in the real MainWindow on an
// EmbeddedBackend, exactly as `daemonscope --scenario FILE` does. Prints:
//
// - time to the first paint of the main window, to the first paint of the node map with
//   tiles in it (the scenario may still be loading: the window shows the cluster as it is
//   built), and to its first paint once the scenario has loaded, from process start (exec)
//   and from window show;
// - peak RSS (getrusage ru_maxrss) at the first data paint and at the end;
// - for each phase of the run at 1000x (Nodes tab visible, then Timeline tab): the longest
//   GUI-thread stall (largest gap between ticks of a 1 ms precise timer), the longest single
//   top-level event with its receiver, the longest widget paint and whole-window frame, the
//   longest snapshot application (MainWindow::applySnapshot) and the virtual time covered;
//   stalls and events also with the GUI thread's own CPU time, since on a loaded machine wall
//   time includes waiting for a core;
// - the cost of each part applySnapshot feeds, applied once to fresh hidden instances.
//
// The program generates the scenario, then runs itself as a child process on it, so "process
// start" and the peak RSS belong to the measured GUI process alone. The child uses a private
// XDG config/data directory, so the user's settings and history are not touched.
//
//   build/tests/bench/bench_gui [--nodes N] [--daemonsets N] [--revisions N] [--seconds S]
//                               [--speed X] [--keep FILE]
//
// The platform is whatever QT_QPA_PLATFORM says (offscreen when unset); run it under
// `xvfb-run -a env QT_QPA_PLATFORM=xcb` for a real X server.

#include "models/backend/clusterbackend.h"
#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/daemonsetlistmodel.h"
#include "models/itemmodels/eventlistmodel.h"
#include "models/itemmodels/nodemapmodel.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "models/snapshot/snapshot.h"
#include "ui/daemonsetpage.h"
#include "ui/mainwindow.h"
#include "ui/nodemapview.h"
#include "ui/nodestab.h"
#include "ui/nodetiles.h"
#include "ui/progresstab.h"
#include "ui/upgradeexplorer.h"
#include "ui/upgradepage.h"

#include "models/kube/gojson.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using kube::Json;

namespace {

// ---- scenario -------------------------------------------------------------------------------

struct ScenarioShape
{
    int nodes = 5000;
    int daemonSets = 10;
    int revisions = 3; // per DaemonSet before the in-progress rollouts
};

const char *const kNamespaces[] = {"kube-system", "monitoring", "logging", "security", "networking"};
const char *const kZones[] = {"eu-west-1a", "eu-west-1b", "eu-west-1c", "eu-west-1d", "eu-west-1e"};
constexpr int kZoneCount = 5;

std::string dsNamespace(int i)
{
    return kNamespaces[i % 5];
}

std::string dsName(int i)
{
    static const char *const names[] = {"node-agent", "fluent-bit", "node-exporter", "falco",  "calico-node",
                                        "kube-proxy", "csi-node",   "dcgm-exporter", "vector", "cilium"};
    const std::string base = names[i % 10];
    return i < 10 ? base : base + "-" + std::to_string(i / 10);
}

std::string image(int ds, int revision)
{
    return "registry.example/" + dsName(ds) + ":1." + std::to_string(revision) + ".0";
}

Json daemonSet(int i, const std::string &maxUnavailable)
{
    const std::string name = dsName(i);
    const Json selector = {{"app.kubernetes.io/name", name}};
    Json container = {{"name", name}, {"image", image(i, 1)}, {"args", {"--v=2", "--listen=:9100"}}};
    Json env = {{"name", "NODE_NAME"}};
    env["valueFrom"]["fieldRef"]["fieldPath"] = "spec.nodeName";
    container["env"] = Json::array({env});
    container["ports"] =
        Json::array({Json{{"name", "metrics"}, {"containerPort", 9100}, {"protocol", "TCP"}}});
    container["resources"]["requests"] = {{"cpu", "50m"}, {"memory", "64Mi"}};
    container["resources"]["limits"] = {{"memory", "128Mi"}};
    container["volumeMounts"] =
        Json::array({Json{{"name", "host"}, {"mountPath", "/host"}, {"readOnly", true}}});

    Json ds = {{"apiVersion", "apps/v1"}, {"kind", "DaemonSet"}};
    ds["metadata"] = {{"name", name}, {"namespace", dsNamespace(i)}, {"labels", selector}};
    ds["metadata"]["annotations"]["kubernetes.io/change-cause"] = "initial deploy: " + image(i, 1);
    Json &spec = ds["spec"];
    spec["selector"]["matchLabels"] = selector;
    spec["revisionHistoryLimit"] = 10;
    spec["updateStrategy"]["type"] = "RollingUpdate";
    spec["updateStrategy"]["rollingUpdate"]["maxUnavailable"] = maxUnavailable;
    spec["template"]["metadata"]["labels"] = selector;
    Json &pod = spec["template"]["spec"];
    pod["tolerations"] = Json::array({Json{{"operator", "Exists"}}});
    pod["priorityClassName"] = "system-node-critical";
    pod["containers"] = Json::array({container});
    Json volume = {{"name", "host"}};
    volume["hostPath"]["path"] = "/";
    pod["volumes"] = Json::array({volume});
    return ds;
}

Json imagePatch(int ds, int revision, const std::string &cause)
{
    Json patch;
    patch["metadata"]["annotations"]["kubernetes.io/change-cause"] = cause;
    patch["spec"]["template"]["spec"]["containers"] =
        Json::array({Json{{"name", dsName(ds)}, {"image", image(ds, revision)}}});
    Json step;
    step["patch"] = {{"target", "daemonset/" + dsNamespace(ds) + "/" + dsName(ds)}, {"type", "strategic"}};
    step["patch"]["patch"] = patch;
    return step;
}

Json intOrPercent(const std::string &value)
{
    if (!value.empty() && value.back() == '%')
        return value;
    return std::stoi(value);
}

// The DaemonSets get their history while the cluster has no nodes yet (every revision is a
// ControllerRevision without pods), then the nodes join and every DaemonSet rolls out once:
// each pod is created once, so building the cluster costs what a cluster of this size costs.
// The last steps start the rollouts that are still running when the window opens.
Json scenario(const ScenarioShape &shape)
{
    Json objects = Json::array();
    for (const char *ns : kNamespaces)
        objects.push_back({{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    for (int i = 0; i < shape.daemonSets; ++i)
        objects.push_back(daemonSet(i, "100%"));

    Json steps = Json::array();
    steps.push_back({{"advance", "2s"}});
    for (int rev = 2; rev <= shape.revisions; ++rev) {
        for (int i = 0; i < shape.daemonSets; ++i)
            steps.push_back(imagePatch(i, rev, dsName(i) + " 1." + std::to_string(rev) + ".0"));
        steps.push_back({{"advance", "2s"}});
    }
    Json pools = Json::array();
    for (int z = 0; z < kZoneCount; ++z) {
        const int count = shape.nodes / kZoneCount + (z < shape.nodes % kZoneCount ? 1 : 0);
        if (count == 0)
            continue;
        const int general = std::max(1, count * 4 / 5);
        const std::string zone = kZones[z];
        pools.push_back({{"count", general},
                         {"namePrefix", "ip-10-" + std::to_string(z) + "-"},
                         {"labels", {{"topology.kubernetes.io/zone", zone}, {"node-pool", "general"}}},
                         {"agentVersion", "v1.32.4"}});
        if (count > general)
            pools.push_back({{"count", count - general},
                             {"namePrefix", "ip-10-" + std::to_string(z) + "-"},
                             {"labels", {{"topology.kubernetes.io/zone", zone}, {"node-pool", "highmem"}}},
                             {"agentVersion", "v1.32.4"}});
    }
    steps.push_back({{"addNodes", pools}});
    // Let every DaemonSet observe the new nodes first: right after addNodes their status still
    // says desired 0, which kubectl's rollout-status rule (and so rolloutComplete) calls complete.
    steps.push_back({{"advance", "30s"}});
    // rolloutComplete, not podsReady N: the runner checks its condition after every event
    // instant, and podsReady counts every pod each time.
    for (int i = 0; i < shape.daemonSets; ++i)
        steps.push_back(
            {{"run", {{"until", "rolloutComplete " + dsNamespace(i) + "/" + dsName(i)}, {"timeout", "6h"}}}});

    // Rollouts in progress when the window opens: DaemonSet 0 one node at a time (it lasts for
    // the whole run), DaemonSet 1 in batches of 2 %, DaemonSet 2 stuck on an image that never
    // becomes Ready (5 % of its nodes crash-looping).
    const int next = shape.revisions + 1;
    const std::pair<int, const char *> rollouts[] = {{0, "1"}, {1, "2%"}, {2, "5%"}};
    for (const auto &[ds, maxUnavailable] : rollouts) {
        if (ds >= shape.daemonSets)
            continue;
        steps.push_back({{"setStrategy",
                          {{"daemonset", dsNamespace(ds) + "/" + dsName(ds)},
                           {"type", "RollingUpdate"},
                           {"maxUnavailable", intOrPercent(maxUnavailable)}}}});
        steps.push_back(imagePatch(ds, next, dsName(ds) + " 1." + std::to_string(next) + ".0"));
    }
    steps.push_back({{"advance", "10s"}});

    return {{"name", "bench_gui: " + std::to_string(shape.nodes) + " nodes x " +
                         std::to_string(shape.daemonSets) + " DaemonSets"},
            {"seed", 1},
            {"mode", "continuous"},
            {"start", "2026-01-01T00:00:00Z"},
            {"cluster",
             {{"kubelet",
               {{"startDelay", "4s"},
                {"readyDelay", "2s"},
                {"terminationGrace", "3s"},
                {"jitter", "20%"},
                {"failingImages", {image(2, next)}}}},
              {"objects", objects}}},
            {"steps", steps}};
}

// ---- measurement helpers ------------------------------------------------------------------

// CPU time of the calling thread: tells work on the GUI thread from waiting for a core on a
// loaded machine.
qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

long peakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024; // KiB on Linux
}

long currentRssMiB()
{
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

// How long the process had run when main() started (exec, dynamic linking, static
// initialisers), from /proc: clock-tick resolution (10 ms).
double processAgeMs()
{
    std::ifstream statFile("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(statFile)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    // Fields after the command name start at 3 (state); starttime is field 22.
    for (int i = 3; i < 22 && fields >> field; ++i) {
    }
    unsigned long long startTicks = 0;
    fields >> startTicks;
    std::ifstream uptimeFile("/proc/uptime");
    double uptime = 0;
    uptimeFile >> uptime;
    const double started = static_cast<double>(startTicks) / static_cast<double>(sysconf(_SC_CLK_TCK));
    return std::max(0.0, (uptime - started) * 1000.0);
}

// The receiver may be gone after its event (deleteLater, a single-shot timer): its class and
// name are taken before the dispatch.
QString describe(const QMetaObject *meta, const QString &objectName, QEvent::Type type)
{
    QString what = QString::number(static_cast<int>(type));
    switch (type) {
    case QEvent::MetaCall:
        what = QStringLiteral("MetaCall");
        break;
    case QEvent::Timer:
        what = QStringLiteral("Timer");
        break;
    case QEvent::Paint:
        what = QStringLiteral("Paint");
        break;
    case QEvent::UpdateRequest:
        what = QStringLiteral("UpdateRequest");
        break;
    case QEvent::LayoutRequest:
        what = QStringLiteral("LayoutRequest");
        break;
    case QEvent::Resize:
        what = QStringLiteral("Resize");
        break;
    default:
        break;
    }
    QString name = QString::fromLatin1(meta->className());
    if (!objectName.isEmpty())
        name += QLatin1Char('#') + objectName;
    return what + QStringLiteral(" -> ") + name;
}

QString ms(qint64 ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 1);
}

struct Phase
{
    QString name;
    qint64 maxGapNs = 0;    // between 1 ms timer ticks
    qint64 maxGapCpuNs = 0; // GUI-thread CPU time spent inside that gap
    qint64 maxEventNs = 0;  // one top-level event dispatch
    qint64 maxEventCpuNs = 0;
    QString maxEvent;
    QStringList longEvents; // top-level events over 40 ms: when, how long, what
    qint64 maxPaintNs = 0;  // one widget's paint event
    QString maxPaint;
    qint64 maxFrameNs = 0; // a window's UpdateRequest: every dirty widget painted and flushed
    qint64 maxApplyNs = 0; // MainWindow::applySnapshot
    qint64 maxApplyCpuNs = 0;
    qint64 totalApplyNs = 0;
    int snapshots = 0;
    int paints = 0;
    qint64 virtualStart = -1;
    qint64 virtualEnd = -1;
    QElapsedTimer wall;
    double wallSeconds = 0;
};

class BenchApplication : public QApplication
{
public:
    using QApplication::QApplication;

    Phase *phase = nullptr;
    QWidget *dataWidget = nullptr;          // the node map's viewport
    std::function<bool()> hasData;          // true once the map shows tiles
    std::function<void(bool data)> onPaint; // after every paint of a widget in mainWindow
    QWidget *mainWindow = nullptr;

    bool notify(QObject *receiver, QEvent *event) override
    {
        // Qt calls notify() for every thread's events; only the GUI thread's count here.
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        const QEvent::Type type = event->type();
        const QMetaObject *meta = receiver->metaObject();
        const QString objectName = phase ? receiver->objectName() : QString();
        QWidget *paintedWindow = nullptr;
        bool dataPaint = false;
        if (type == QEvent::Paint && receiver->isWidgetType()) {
            auto *w = static_cast<QWidget *>(receiver);
            paintedWindow = w->window();
            dataPaint = w == dataWidget && hasData && hasData();
        }
        QString timerInterval;
        if (type == QEvent::Timer && phase)
            if (auto *timer = qobject_cast<QTimer *>(receiver))
                timerInterval = QStringLiteral(" (interval %1 ms)").arg(timer->interval());
        const qint64 cpu0 = m_depth == 0 ? threadCpuNs() : 0;
        QElapsedTimer t;
        t.start();
        ++m_depth;
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const qint64 ns = t.nsecsElapsed();
        if (paintedWindow) {
            if (phase) {
                ++phase->paints;
                if (ns > phase->maxPaintNs) {
                    phase->maxPaintNs = ns;
                    phase->maxPaint = describe(meta, objectName, type);
                }
            }
            if (onPaint && mainWindow && paintedWindow == mainWindow)
                onPaint(dataPaint);
        }
        if (phase) {
            if (type == QEvent::UpdateRequest && ns > phase->maxFrameNs)
                phase->maxFrameNs = ns;
            if (m_depth == 0) {
                const qint64 cpu = threadCpuNs() - cpu0;
                if (ns > phase->maxEventNs) {
                    phase->maxEventNs = ns;
                    phase->maxEventCpuNs = cpu;
                    phase->maxEvent = describe(meta, objectName, type) + timerInterval;
                }
                if (ns > 40'000'000 && phase->longEvents.size() < 12)
                    phase->longEvents
                        << QStringLiteral("at %1 s: %2 ms (GUI CPU %3 ms) %4")
                               .arg(static_cast<double>(phase->wall.elapsed()) / 1000.0, 0, 'f', 2)
                               .arg(ms(ns), ms(cpu), describe(meta, objectName, type) + timerInterval);
            }
        }
        return result;
    }

private:
    int m_depth = 0;
};

// ---- where the first snapshot goes -------------------------------------------------------

// Applies one snapshot to fresh instances of each part MainWindow::applySnapshot feeds (hidden,
// so no layout or paint), one part at a time: wall and GUI-thread CPU time of each.
void coldBreakdown(QTextStream &out, const models::SnapshotPtr &snapshot, const QString &dsKey,
                   models::ClusterBackend *backend)
{
    const models::DaemonSetInfo *ds = snapshot->daemonSet(dsKey);
    if (!ds)
        return;
    out << "\nfirst application of the last snapshot to fresh, hidden parts (wall / GUI-thread CPU ms):\n";
    auto measure = [&](const char *what, const std::function<void()> &work) {
        QElapsedTimer t;
        const qint64 cpu0 = threadCpuNs();
        t.start();
        work();
        const qint64 ns = t.nsecsElapsed();
        out << "  " << QString::fromLatin1(what).leftJustified(58) << ms(ns) << " / "
            << ms(threadCpuNs() - cpu0) << "\n";
    };
    models::DaemonSetListModel list;
    measure("DaemonSetListModel::setSnapshot", [&] { list.setSnapshot(snapshot); });
    models::RevisionTimelineModel timeline;
    measure("RevisionTimelineModel::setDaemonSetKey + setSnapshot", [&] {
        timeline.setDaemonSetKey(dsKey);
        timeline.setSnapshot(snapshot);
    });
    models::EventListModel events;
    measure("EventListModel::setDaemonSetKey + setSnapshot", [&] {
        events.setDaemonSetKey(dsKey);
        events.setSnapshot(snapshot);
    });
    gui::ProgressTab progress;
    measure("ProgressTab::setDaemonSetKey + setSnapshot", [&] {
        progress.setDaemonSetKey(dsKey);
        progress.setSnapshot(snapshot);
    });
    std::vector<models::NodeTile> tiles;
    measure("buildNodeTiles", [&] { tiles = gui::buildNodeTiles(*snapshot, *ds); });
    gui::NodesTab nodes;
    measure("NodesTab::setTiles", [&] { nodes.setTiles(std::move(tiles), snapshot->clock.now); });
    gui::UpgradeExplorer upgradeExplorer;
    measure("UpgradeExplorer::setSnapshot", [&] { upgradeExplorer.setSnapshot(snapshot); });
    gui::UpgradePage upgradePage(backend);
    measure("UpgradePage::setSnapshot", [&] { upgradePage.setSnapshot(snapshot); });
    gui::DaemonSetPage page;
    page.setCurrentTab(gui::DaemonSetPage::Tab::Nodes);
    measure("DaemonSetPage (Nodes tab): setDaemonSet + setSnapshot", [&] {
        page.setDaemonSet(dsKey);
        page.setSnapshot(snapshot);
    });
    measure("DaemonSetPage: the same snapshot again", [&] { page.setSnapshot(snapshot); });
}

// ---- the measured GUI process ---------------------------------------------------------------

int runChild(int argc, char **argv, const QString &scenarioPath, double seconds, double speed,
             const QString &select)
{
    const double preMainMs = processAgeMs();
    QElapsedTimer sinceMain;
    sinceMain.start();
    BenchApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Daemonscope"));
    QApplication::setOrganizationName(QStringLiteral("Daemonscope"));
    QTextStream out(stdout);
    auto sinceStart = [&] { return preMainMs + static_cast<double>(sinceMain.nsecsElapsed()) / 1e6; };

    auto *backend = new models::EmbeddedBackend;
    // Connected before the window's own connection, so it runs first: the start of
    // applySnapshot. MainWindow::snapshotApplied marks its end.
    QElapsedTimer applyTimer;
    qint64 applyCpu0 = 0;
    QObject::connect(backend, &models::ClusterBackend::snapshotReady, backend, [&] {
        applyTimer.start();
        applyCpu0 = threadCpuNs();
    });
    gui::MainWindow window(backend);
    window.resize(1400, 900);
    gui::NodeMapView *map = window.page()->nodesTab()->mapView();
    models::NodeMapModel *mapModel = window.page()->nodesTab()->model();
    app.mainWindow = &window;
    app.dataWidget = map->viewport();
    app.hasData = [&] { return mapModel->rowCount() > 0; };

    double firstPaintMs = -1, firstDataPaintMs = -1, firstDataPaintSinceShowMs = -1;
    double firstPaintSinceShowMs = -1, firstSnapshotMs = -1;
    double loadedDataPaintMs = -1, loadedDataPaintSinceShowMs = -1;
    long rssAtData = 0, rssAtLoaded = 0;
    QElapsedTimer sinceShow;
    app.onPaint = [&](bool data) {
        if (firstPaintMs < 0) {
            firstPaintMs = sinceStart();
            firstPaintSinceShowMs = static_cast<double>(sinceShow.nsecsElapsed()) / 1e6;
        }
        if (data && firstDataPaintMs < 0) {
            firstDataPaintMs = sinceStart();
            firstDataPaintSinceShowMs = static_cast<double>(sinceShow.nsecsElapsed()) / 1e6;
            rssAtData = peakRssMiB();
        }
        // The scenario may still be loading (the window shows the cluster as it is built);
        // this is the first paint of the node map once every step has run.
        const auto shown = window.snapshot();
        if (data && loadedDataPaintMs < 0 && shown && !shown->backend.loading) {
            loadedDataPaintMs = sinceStart();
            loadedDataPaintSinceShowMs = static_cast<double>(sinceShow.nsecsElapsed()) / 1e6;
            rssAtLoaded = peakRssMiB();
        }
    };

    Phase startup, nodes, timeline;
    startup.name = QStringLiteral("startup");
    nodes.name = QStringLiteral("Nodes tab, %1x").arg(speed);
    timeline.name = QStringLiteral("Timeline tab, %1x").arg(speed);
    startup.wall.start();
    app.phase = &startup;

    QObject::connect(&window, &gui::MainWindow::snapshotApplied, &window, [&] {
        Phase *p = app.phase;
        if (!p || !applyTimer.isValid())
            return;
        const qint64 ns = applyTimer.nsecsElapsed();
        p->maxApplyCpuNs = std::max(p->maxApplyCpuNs, threadCpuNs() - applyCpu0);
        applyTimer.invalidate();
        ++p->snapshots;
        p->totalApplyNs += ns;
        p->maxApplyNs = std::max(p->maxApplyNs, ns);
        const auto s = window.snapshot();
        if (s && !s->daemonSets.empty()) {
            if (firstSnapshotMs < 0)
                firstSnapshotMs = sinceStart();
            if (p->virtualStart < 0)
                p->virtualStart = s->clock.now;
            p->virtualEnd = s->clock.now;
        }
    });

    // Event-loop latency: the largest gap between ticks of a 1 ms timer.
    QElapsedTimer lastTick;
    qint64 lastTickCpu = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] {
        const qint64 cpu = threadCpuNs();
        if (lastTick.isValid() && app.phase && lastTick.nsecsElapsed() > app.phase->maxGapNs) {
            app.phase->maxGapNs = lastTick.nsecsElapsed();
            app.phase->maxGapCpuNs = cpu - lastTickCpu;
        }
        lastTick.restart();
        lastTickCpu = cpu;
    });

    sinceShow.start();
    window.show();
    window.openScenario(scenarioPath);
    window.selectDaemonSet(select); // pending until the DaemonSet appears
    window.page()->setCurrentTab(gui::DaemonSetPage::Tab::Nodes);
    ticker.start();

    auto finishPhase = [&](Phase &p) {
        p.wallSeconds = static_cast<double>(p.wall.elapsed()) / 1000.0;
        const auto s = window.snapshot();
        if (s && p.virtualStart >= 0)
            p.virtualEnd = s->clock.now;
    };
    const int phaseMs = static_cast<int>(seconds * 1000);
    bool timedOut = false;
    QTimer startTimeout;
    startTimeout.setSingleShot(true);
    QObject::connect(&startTimeout, &QTimer::timeout, &app, [&] {
        timedOut = true;
        QApplication::quit();
    });
    startTimeout.start(300'000);

    // Startup ends one second after the first paint with data of the loaded scenario (the
    // window settles), then the clock runs at `speed` with the Nodes tab, then the Timeline tab.
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        if (loadedDataPaintMs < 0)
            return;
        poll.stop();
        startTimeout.stop();
        QTimer::singleShot(1000, &app, [&] {
            finishPhase(startup);
            app.phase = &nodes;
            nodes.wall.start();
            lastTick.invalidate();
            window.setSpeed(speed);
            QTimer::singleShot(phaseMs, &app, [&] {
                finishPhase(nodes);
                app.phase = &timeline;
                timeline.wall.start();
                lastTick.invalidate();
                window.page()->setCurrentTab(gui::DaemonSetPage::Tab::Timeline);
                QTimer::singleShot(phaseMs, &app, [&] {
                    finishPhase(timeline);
                    app.phase = nullptr;
                    QApplication::quit();
                });
            });
        });
    });
    poll.start();

    QApplication::exec();
    ticker.stop();

    out << "platform: " << QGuiApplication::platformName() << ", window 1400x900, scenario " << scenarioPath
        << "\n";
    if (timedOut) {
        out << "no node map with data within 300 s\n";
        return 1;
    }
    const auto s = window.snapshot();
    out << "selected: " << window.currentDaemonSet() << ", tiles: " << mapModel->rowCount()
        << ", DaemonSets: " << window.daemonSetCount() << "\n\n";
    out << "time to first paint of the main window:      " << QString::number(firstPaintMs, 'f', 0)
        << " ms from process start (" << QString::number(preMainMs, 'f', 0) << " ms before main), "
        << QString::number(firstPaintSinceShowMs, 'f', 0) << " ms from show\n";
    out << "first snapshot with DaemonSets applied:      " << QString::number(firstSnapshotMs, 'f', 0)
        << " ms from process start\n";
    out << "time to first paint of the node map (data):  " << QString::number(firstDataPaintMs, 'f', 0)
        << " ms from process start, " << QString::number(firstDataPaintSinceShowMs, 'f', 0)
        << " ms from show\n";
    out << "the same, the scenario fully loaded:          " << QString::number(loadedDataPaintMs, 'f', 0)
        << " ms from process start, " << QString::number(loadedDataPaintSinceShowMs, 'f', 0)
        << " ms from show\n";
    out << "peak RSS at first data paint: " << rssAtData << " MiB; when loaded: " << rssAtLoaded
        << " MiB; at the end: " << peakRssMiB() << " MiB (current " << currentRssMiB() << " MiB)\n\n";

    out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
               .arg(QStringLiteral("phase"), -22)
               .arg(QStringLiteral("wall s"), 7)
               .arg(QStringLiteral("virt s"), 8)
               .arg(QStringLiteral("snaps"), 6)
               .arg(QStringLiteral("max stall ms"), 12)
               .arg(QStringLiteral("apply max/avg ms"), 16)
               .arg(QStringLiteral("paint max ms"), 12)
               .arg(QStringLiteral("frame max ms"), 12);
    for (const Phase *p : {&startup, &nodes, &timeline}) {
        const double virt =
            p->virtualStart >= 0 ? static_cast<double>(p->virtualEnd - p->virtualStart) / 1000.0 : 0.0;
        out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                   .arg(p->name, -22)
                   .arg(p->wallSeconds, 7, 'f', 1)
                   .arg(virt, 8, 'f', 0)
                   .arg(p->snapshots, 6)
                   .arg(ms(p->maxGapNs), 12)
                   .arg(ms(p->maxApplyNs) + QLatin1Char('/') +
                            ms(p->snapshots ? p->totalApplyNs / p->snapshots : 0),
                        16)
                   .arg(ms(p->maxPaintNs), 12)
                   .arg(ms(p->maxFrameNs), 12);
    }
    out << "\nlongest applySnapshot per phase, GUI-thread CPU: ";
    for (const Phase *p : {&startup, &nodes, &timeline})
        out << p->name << " " << ms(p->maxApplyCpuNs) << " ms; ";
    out << "\nlongest stall per phase, and the GUI thread's CPU time within it:\n";
    for (const Phase *p : {&startup, &nodes, &timeline})
        out << "  " << p->name << ": " << ms(p->maxGapNs) << " ms (CPU " << ms(p->maxGapCpuNs) << " ms)\n";
    out << "longest single event per phase:\n";
    for (const Phase *p : {&startup, &nodes, &timeline})
        out << "  " << p->name << ": " << ms(p->maxEventNs) << " ms (CPU " << ms(p->maxEventCpuNs) << " ms)  "
            << p->maxEvent << "\n";
    out << "top-level events over 40 ms (phase-relative time):\n";
    for (const Phase *p : {&startup, &nodes, &timeline})
        for (const QString &e : p->longEvents)
            out << "  " << p->name << " " << e << "\n";
    out << "longest widget paint per phase:\n";
    for (const Phase *p : {&startup, &nodes, &timeline})
        out << "  " << p->name << ": " << ms(p->maxPaintNs) << " ms  " << p->maxPaint << " (" << p->paints
            << " paints)\n";
    if (s) {
        window.setSpeed(0);
        coldBreakdown(out, s, window.currentDaemonSet(), window.backend());
        out << "\nrollouts at the end (virtual "
            << QString::number((s->clock.now - 1767225600000) / 1000.0, 'f', 0) << " s after start):\n";
        for (const auto &ds : s->daemonSets)
            if (ds.counts.updated != ds.counts.desired || ds.badge != models::RolloutBadge::Complete)
                out << "  " << ds.key << ": " << models::badgeName(ds.badge) << ", updated "
                    << ds.counts.updated << "/" << ds.counts.desired << ", unavailable "
                    << ds.counts.unavailable << "\n";
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--child-run" && i + 4 < argc) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            return runChild(argc, argv, QString::fromLocal8Bit(argv[i + 1]), std::atof(argv[i + 2]),
                            std::atof(argv[i + 3]), QString::fromLocal8Bit(argv[i + 4]));
        }
    }

    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("Nodes (5000)."),
                                         QStringLiteral("n"), QStringLiteral("5000"));
    const QCommandLineOption dsOption(QStringLiteral("daemonsets"), QStringLiteral("DaemonSets (10)."),
                                      QStringLiteral("n"), QStringLiteral("10"));
    const QCommandLineOption revOption(
        QStringLiteral("revisions"),
        QStringLiteral("Revisions per DaemonSet before the running rollouts (3)."), QStringLiteral("n"),
        QStringLiteral("3"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Wall seconds per measured tab (20)."),
                                           QStringLiteral("s"), QStringLiteral("20"));
    const QCommandLineOption speedOption(QStringLiteral("speed"), QStringLiteral("Clock speed (1000)."),
                                         QStringLiteral("x"), QStringLiteral("1000"));
    const QCommandLineOption keepOption(QStringLiteral("keep"),
                                        QStringLiteral("Also write the generated scenario to FILE."),
                                        QStringLiteral("file"));
    parser.addOptions({nodesOption, dsOption, revOption, secondsOption, speedOption, keepOption});
    parser.process(app);

    ScenarioShape shape;
    shape.nodes = std::max(1, parser.value(nodesOption).toInt());
    shape.daemonSets = std::clamp(parser.value(dsOption).toInt(), 1, 100);
    shape.revisions = std::clamp(parser.value(revOption).toInt(), 1, 10);

    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "bench_gui: cannot create a temporary directory\n");
        return 2;
    }
    const QByteArray text = QByteArray::fromStdString(scenario(shape).dump(1));
    const QString path = dir.filePath(QStringLiteral("bench-gui.yaml"));
    for (const QString &target : {path, parser.value(keepOption)}) {
        if (target.isEmpty())
            continue;
        QFile file(target);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
            std::fprintf(stderr, "bench_gui: cannot write %s\n", qPrintable(target));
            return 2;
        }
    }
    std::printf("scenario: %d nodes in %d zones, %d DaemonSets x %d revisions (+1 rolling out on 3 of them), "
                "%lld bytes\n",
                shape.nodes, kZoneCount, shape.daemonSets, shape.revisions,
                static_cast<long long>(text.size()));
    std::fflush(stdout);

    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--child-run"), path, parser.value(secondsOption), parser.value(speedOption),
                 QString::fromStdString(dsNamespace(0) + "/" + dsName(0))});
    if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit) {
        std::fprintf(stderr, "bench_gui: the GUI process failed: %s\n", qPrintable(child.errorString()));
        return 1;
    }
    return child.exitCode();
}
