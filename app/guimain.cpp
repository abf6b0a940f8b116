#include "app/guimain.h"

#include "app/usage.h"

#include "models/backend/livebackend.h"
#include "models/embedded/embeddedbackend.h"
#include "models/settings/appsettings.h"
#include "ui/apptranslator.h"
#include "ui/daemonsetpage.h"
#include "ui/mainwindow.h"
#include "ui/theme.h"
#include "ui/upgradepage.h"
#include "ui/windowsession.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QPixmap>
#include <QScreen>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include <malloc.h> // mallopt

namespace app {

namespace {

std::optional<gui::DaemonSetPage::Tab> tabFromName(const QString &name)
{
    if (name == QLatin1String("timeline"))
        return gui::DaemonSetPage::Tab::Timeline;
    if (name == QLatin1String("nodes"))
        return gui::DaemonSetPage::Tab::Nodes;
    if (name == QLatin1String("diff"))
        return gui::DaemonSetPage::Tab::Diff;
    if (name == QLatin1String("events"))
        return gui::DaemonSetPage::Tab::Events;
    if (name == QLatin1String("progress"))
        return gui::DaemonSetPage::Tab::Progress;
    return std::nullopt;
}

// The arguments without the ones QGuiApplication and QApplication take for themselves
// (-platform NAME, -style=NAME, -reverse ...), so that they are not reported as unknown.
QStringList withoutQtOptions(int argc, char **argv)
{
    static const QStringList withValue = {
        QStringLiteral("platform"),        QStringLiteral("platformpluginpath"),
        QStringLiteral("platformtheme"),   QStringLiteral("plugin"),
        QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowicon"),
        QStringLiteral("qwindowtitle"),    QStringLiteral("session"),
        QStringLiteral("display"),         QStringLiteral("geometry"),
        QStringLiteral("style"),           QStringLiteral("stylesheet"),
        QStringLiteral("title"),           QStringLiteral("name"),
        QStringLiteral("visual"),          QStringLiteral("ncols"),
        QStringLiteral("qmljsdebugger")};
    static const QStringList flags = {QStringLiteral("reverse"), QStringLiteral("widgetcount"),
                                      QStringLiteral("cmap"),    QStringLiteral("nograb"),
                                      QStringLiteral("dograb"),  QStringLiteral("sync")};
    QStringList out;
    for (int i = 0; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (i > 0 && arg.startsWith(QLatin1Char('-')) && !arg.startsWith(QLatin1String("--"))) {
            const QString name = arg.mid(1).section(QLatin1Char('='), 0, 0);
            if (flags.contains(name))
                continue;
            if (withValue.contains(name)) {
                if (!arg.contains(QLatin1Char('=')))
                    ++i; // the value follows
                continue;
            }
        }
        out.append(arg);
    }
    return out;
}

// Whether QApplication can open a window: without a display the xcb plugin aborts the process.
bool displayAvailable(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-platform") == 0 || std::strncmp(argv[i], "-platform=", 10) == 0)
            return true;
    }
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return true;
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

void fail(const QString &message)
{
    std::fprintf(stderr, "daemonscope: %s\n", qPrintable(message));
}

} // namespace

int guiMain(int argc, char **argv)
{
    // One malloc arena per core (at least two) instead of glibc's eight per core, unless the
    // user set MALLOC_ARENA_MAX. The console's threads (the GUI, a backend worker, a reflector
    // per watched collection) allocate the cluster's objects in one thread and free them in
    // another; spread over many arenas, the freed memory stays behind in each of them. At
    // 50,000 pods this keeps 8-15 MB less resident at rest and some 20 MB less at the first
    // load's peak, for a first load a few percent slower on two cores. Before any thread starts.
    if (!std::getenv("MALLOC_ARENA_MAX"))
        mallopt(M_ARENA_MAX, int(std::max(2u, std::thread::hardware_concurrency())));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("app", "Desktop console for DaemonSet rollouts"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenarioOption(
        QStringLiteral("scenario"), QApplication::translate("app", "Open this scenario instead of the demo."),
        QStringLiteral("FILE"));
    const QCommandLineOption speedOption(
        QStringLiteral("speed"),
        QApplication::translate("app", "Virtual clock speed (0 = paused, up to 1000)."), QStringLiteral("X"));
    const QCommandLineOption selectOption(
        QStringLiteral("select"), QApplication::translate("app", "Select this DaemonSet (namespace/name)."),
        QStringLiteral("NS/NAME"));
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QApplication::translate("app", "Show this tab: timeline, nodes, diff, events or progress."),
        QStringLiteral("TAB"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QApplication::translate("app", "Save a screenshot of the window to FILE and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption screenshotTabOption(
        QStringLiteral("screenshot-tab"), QApplication::translate("app", "The tab shown in the screenshot."),
        QStringLiteral("TAB"));
    const QCommandLineOption quitAfterOption(
        QStringLiteral("quit-after"),
        QApplication::translate("app", "Screenshot delay, or quit after MS milliseconds."),
        QStringLiteral("MS"));
    const QCommandLineOption historyOption(
        QStringLiteral("history-db"),
        QApplication::translate("app", "Keep the history in this SQLite file instead of the standard one."),
        QStringLiteral("FILE"));
    parser.addOptions({scenarioOption, speedOption, selectOption, tabOption, screenshotOption,
                       screenshotTabOption, quitAfterOption, historyOption});
    // The node-upgrade page: `--tab upgrade`; `--start-upgrade '{}'` starts one with the form's
    // defaults, the JSON object's fields replacing spec fields (`{"maxUnavailable":"10%"}`).
    const QCommandLineOption startUpgradeOption(
        QStringLiteral("start-upgrade"),
        QApplication::translate("app",
                                "Start a node-agent upgrade: the start form's defaults, with these spec "
                                "fields (a JSON object) replaced."),
        QStringLiteral("JSON"));
    parser.addOption(startUpgradeOption);
    // A live cluster instead of the simulation: `--kubeconfig FILE` and/or `--context NAME`,
    // with kubectl's namespace options.
    const QCommandLineOption kubeconfigOption(
        QStringLiteral("kubeconfig"),
        QApplication::translate("app", "Watch the cluster of this kubeconfig file."), QStringLiteral("FILE"));
    const QCommandLineOption contextOption(
        QStringLiteral("context"),
        QApplication::translate("app", "Watch the cluster of this kubeconfig context."),
        QStringLiteral("NAME"));
    const QCommandLineOption namespaceOption(
        QStringList{QStringLiteral("n"), QStringLiteral("namespace")},
        QApplication::translate("app", "Live cluster: watch this namespace (default: the context's)."),
        QStringLiteral("NS"));
    const QCommandLineOption allNamespacesOption(
        QStringList{QStringLiteral("A"), QStringLiteral("all-namespaces")},
        QApplication::translate("app", "Live cluster: watch every namespace."));
    parser.addOptions({kubeconfigOption, contextOption, namespaceOption, allNamespacesOption});
    // Parsed before QApplication exists: --help, --version and bad options need no display.
    if (!parser.parse(withoutQtOptions(argc, argv))) {
        std::fprintf(stderr, "daemonscope: %s\n\n%s", qPrintable(parseError(parser)), programUsage());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(programUsage(), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("daemonscope %s\n", DAEMONSCOPE_VERSION);
        return 0;
    }

    std::optional<double> speed;
    if (parser.isSet(speedOption)) {
        bool ok = false;
        const double value = parser.value(speedOption).toDouble(&ok);
        if (!ok || value < 0 || value > 1000) {
            fail(QStringLiteral("--speed expects a number from 0 to 1000, got \"%1\"")
                     .arg(parser.value(speedOption)));
            return 2;
        }
        speed = value;
    }
    const bool liveNamespace = parser.isSet(namespaceOption) || parser.isSet(allNamespacesOption);
    if (liveNamespace && !parser.isSet(kubeconfigOption) && !parser.isSet(contextOption)) {
        fail(QStringLiteral("--namespace and --all-namespaces need --kubeconfig or --context"));
        return 2;
    }
    if (parser.isSet(namespaceOption) && parser.isSet(allNamespacesOption)) {
        fail(QStringLiteral("--namespace and --all-namespaces exclude each other"));
        return 2;
    }
    std::optional<gui::DaemonSetPage::Tab> tab;
    const QString tabName =
        parser.isSet(screenshotTabOption) ? parser.value(screenshotTabOption) : parser.value(tabOption);
    const bool upgradeTab = tabName == QLatin1String("upgrade");
    if (!tabName.isEmpty() && !upgradeTab) {
        tab = tabFromName(tabName);
        if (!tab) {
            fail(QStringLiteral("unknown tab \"%1\" (timeline, nodes, diff, events, progress, upgrade)")
                     .arg(tabName));
            return 2;
        }
    }
    int quitAfter = -1;
    if (parser.isSet(quitAfterOption)) {
        bool ok = false;
        quitAfter = parser.value(quitAfterOption).toInt(&ok);
        if (!ok || quitAfter < 0) {
            fail(QStringLiteral("--quit-after expects milliseconds, got \"%1\"")
                     .arg(parser.value(quitAfterOption)));
            return 2;
        }
    }
    const QString screenshot = parser.value(screenshotOption);
    const QString select = parser.value(selectOption);
    if (parser.isSet(startUpgradeOption)) {
        if (const QString why = gui::UpgradePage::specOverridesError(parser.value(startUpgradeOption));
            !why.isEmpty()) {
            fail(QStringLiteral("--start-upgrade: %1").arg(why));
            return 2;
        }
    }

    if (!displayAvailable(argc, argv)) {
        fail(QStringLiteral("no display to open the console on (DISPLAY and WAYLAND_DISPLAY are unset); "
                            "run it under xvfb-run, or set QT_QPA_PLATFORM=offscreen for --screenshot"));
        return 2;
    }

    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Daemonscope"));
    QApplication::setApplicationDisplayName(QStringLiteral("Daemonscope"));
    QApplication::setOrganizationName(QStringLiteral("Daemonscope"));
    QApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.daemonscope.Daemonscope"));
    // Before the first widget (and --help): the language and theme chosen in the View menu.
    {
        const models::AppSettings settings;
        gui::AppTranslator::install(settings.languageOverride());
        if (settings.theme() != models::AppSettings::Theme::System)
            gui::Theme::apply(settings.theme());
    }

    QString scenario = gui::MainWindow::demoScenarioPath();
    if (parser.isSet(scenarioOption)) {
        scenario = parser.value(scenarioOption);
        if (!QFileInfo::exists(scenario)) {
            fail(QStringLiteral("scenario file not found: %1").arg(scenario));
            return 2;
        }
    }
    gui::MainWindow window(new models::EmbeddedBackend);
    auto *session = new gui::WindowSession(&window, parser.value(historyOption));
    // Without --scenario the scenario used last (screenshots always show the demo).
    if (!parser.isSet(scenarioOption) && screenshot.isEmpty())
        scenario = session->startupScenario();
    window.resize(window.screen() ? window.screen()->availableSize().boundedTo(QSize(1400, 900))
                                  : QSize(1400, 900));
    // Screenshots use the default layout, not the one the user left behind.
    if (screenshot.isEmpty())
        window.restoreSettings();
    window.show();
    std::optional<models::LiveBackendOptions> live;
    if (parser.isSet(kubeconfigOption) || parser.isSet(contextOption)) {
        live.emplace();
        live->kubeconfig = parser.value(kubeconfigOption);
        live->context = parser.value(contextOption);
        live->namespace_ = parser.value(namespaceOption);
        live->allNamespaces = parser.isSet(allNamespacesOption);
        session->settings().setLastKubeconfig(live->kubeconfig);
    } else if (!parser.isSet(scenarioOption) && screenshot.isEmpty()) {
        live = session->startupLiveBackend(); // the live cluster shown at the last exit
    }
    // On a live cluster the simulation is not even loaded: the scenario waits until the user
    // goes back to the embedded cluster (File → Embedded Demo Cluster).
    if (live) {
        window.setEmbeddedScenario(scenario);
        window.setBackend(new models::LiveBackend(*live));
    } else {
        window.openScenario(scenario);
    }
    if (speed)
        window.setSpeed(*speed);
    else if (screenshot.isEmpty() && window.backend()->isSimulation())
        window.setSpeed(session->startupSpeed());

    int exitCode = 0;
    // Selection, tab and screenshot wait for the first snapshot that has DaemonSets in it.
    auto applyOnce = std::make_shared<bool>(false);
    QObject::connect(&window, &gui::MainWindow::snapshotApplied, &window, [&, applyOnce] {
        if (*applyOnce || window.daemonSetCount() == 0 || window.snapshot()->backend.loading)
            return;
        *applyOnce = true;
        if (!select.isEmpty() && !window.selectDaemonSet(select)) {
            fail(QStringLiteral("no DaemonSet %1 in the scenario").arg(select));
            if (!screenshot.isEmpty())
                exitCode = 2; // the picture would not show what was asked for
        }
        if (tab)
            window.page()->setCurrentTab(*tab);
        QString upgrade;
        if (parser.isSet(startUpgradeOption)) {
            QString why;
            upgrade = window.upgradePage()->startDefaultUpgrade(parser.value(startUpgradeOption), &why);
            if (upgrade.isEmpty()) {
                // Asked for on the command line and impossible: like a bad option, exit 2.
                fail(QStringLiteral("--start-upgrade: %1").arg(why));
                exitCode = 2;
                QTimer::singleShot(0, &window, [] { QApplication::quit(); });
                return;
            }
        }
        if (upgradeTab) {
            const auto snap = window.snapshot();
            if (upgrade.isEmpty() && snap && !snap->upgrades->empty())
                upgrade = snap->upgrades->front().name;
            window.showUpgrade(upgrade);
        }
        // A scripted run (screenshot, --quit-after) quits without the question a user closing
        // the window while it drives node upgrades gets.
        if (!screenshot.isEmpty() || quitAfter >= 0)
            window.setQuitConfirmHandler([](const QString &) { return true; });
        if (!screenshot.isEmpty()) {
            QTimer::singleShot(quitAfter >= 0 ? quitAfter : 2000, &window, [&] {
                const QPixmap pixmap = window.grab();
                if (!pixmap.save(screenshot)) {
                    fail(QStringLiteral("cannot write %1").arg(screenshot));
                    exitCode = 1;
                }
                QApplication::quit();
            });
        }
    });
    if (screenshot.isEmpty() && quitAfter >= 0)
        QTimer::singleShot(quitAfter, &application, &QApplication::quit);

    const int rc = QApplication::exec();
    return exitCode != 0 ? exitCode : rc;
}

} // namespace app
