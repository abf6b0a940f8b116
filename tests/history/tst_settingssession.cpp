// The preferences wired into the console: what one lifetime of the main window stores in the
// settings, the next one restores. XDG_CONFIG_HOME and XDG_DATA_HOME point into a temporary
// folder, so the user's own settings are never read or written.
#include "models/embedded/embeddedbackend.h"
#include "models/settings/appsettings.h"
#include "ui/daemonsetpage.h"
#include "ui/difftab.h"
#include "ui/diffview.h"
#include "ui/languagemenu.h"
#include "ui/mainwindow.h"
#include "ui/theme.h"
#include "ui/thememenu.h"
#include "ui/windowsession.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <memory>

using Theme = models::AppSettings::Theme;

namespace {

QString dataPath(const QString &name)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/history/data/") + name;
}

struct Console
{
    std::unique_ptr<gui::MainWindow> window;
    gui::WindowSession *session = nullptr;

    explicit Console(const QString &historyPath)
    {
        models::EmbeddedBackendOptions options;
        options.speed = 0;
        window = std::make_unique<gui::MainWindow>(new models::EmbeddedBackend(options));
        session = new gui::WindowSession(window.get(), historyPath);
    }
    bool open(const QString &scenario)
    {
        window->openScenario(scenario);
        // Loaded, not just shown while its steps still run.
        return QTest::qWaitFor(
            [&] {
                return window->snapshot() && !window->snapshot()->backend.loading &&
                       window->daemonSetCount() > 0;
            },
            10000);
    }
};

} // namespace

class TestSettingsSession : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void geometryAndSplittersAreRestored();
    void theThemeAppliesAtOnceAndIsStored_data();
    void theThemeAppliesAtOnceAndIsStored();
    void theSimulationSpeedIsRestored();
    void diffOptionsAreRestored();
    void theLastScenarioIsOpenedAgainUnlessItIsGone();
    void theLanguageChoiceIsStoredForTheNextStart();
    void aLiveClusterShownAtExitIsConnectedAgain_data();
    void aLiveClusterShownAtExitIsConnectedAgain();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString dbPath() const { return m_dir->filePath(QStringLiteral("history.sqlite")); }
};

void TestSettingsSession::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    models::AppSettings settings;
    settings.settings()->clear();
    settings.sync();
}

void TestSettingsSession::cleanup()
{
    gui::Theme::apply(Theme::System);
}

void TestSettingsSession::geometryAndSplittersAreRestored()
{
    QList<int> sizes;
    QList<int> diffSizes;
    {
        Console first(dbPath());
        first.window->resize(1000, 700);
        first.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(first.window.get()));
        auto *splitter = first.window->findChild<QSplitter *>(QStringLiteral("mainSplitter"));
        QVERIFY(splitter);
        splitter->setSizes({250, 750});
        sizes = splitter->sizes();
        QVERIFY(first.open(dataPath(QStringLiteral("before/restart.yaml")))); // the diff needs a DaemonSet
        first.window->page()->setCurrentTab(gui::DaemonSetPage::Tab::Diff);
        auto *diffPanes = first.window->findChild<QSplitter *>(QStringLiteral("diffPanes"));
        QVERIFY(diffPanes);
        QTRY_VERIFY(diffPanes->isVisible());
        diffPanes->setSizes({100, 300});
        diffSizes = diffPanes->sizes();
        first.window->close(); // closeEvent saves the layout
    }
    models::AppSettings settings;
    QVERIFY(!settings.windowGeometry().isEmpty());
    QVERIFY(!settings.splitterState().isEmpty());
    QVERIFY(!settings.splitterState(QStringLiteral("diffPanes")).isEmpty());

    Console second(dbPath());
    second.window->restoreSettings();
    second.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(second.window.get()));
    QCOMPARE(second.window->size(), QSize(1000, 700));
    QCOMPARE(second.window->findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes(), sizes);
    QVERIFY(second.open(dataPath(QStringLiteral("before/restart.yaml"))));
    second.window->page()->setCurrentTab(gui::DaemonSetPage::Tab::Diff);
    auto *diffPanes = second.window->findChild<QSplitter *>(QStringLiteral("diffPanes"));
    QTRY_VERIFY(diffPanes->isVisible());
    QCOMPARE(diffPanes->sizes(), diffSizes);
}

void TestSettingsSession::theThemeAppliesAtOnceAndIsStored_data()
{
    QTest::addColumn<Theme>("theme");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QString>("stored");
    QTest::newRow("dark gives a dark palette") << Theme::Dark << true << QStringLiteral("dark");
    QTest::newRow("light gives a light palette") << Theme::Light << false << QStringLiteral("light");
    QTest::newRow("system goes back to the desktop's") << Theme::System << false << QStringLiteral("system");
}

void TestSettingsSession::theThemeAppliesAtOnceAndIsStored()
{
    QFETCH(Theme, theme);
    QFETCH(bool, dark);
    QFETCH(QString, stored);
    Console console(dbPath());
    auto *menu = console.window->findChild<gui::ThemeMenu *>(QStringLiteral("themeMenu"));
    QVERIFY(menu);
    // Chosen through the menu's action, as a user does.
    QAction *action = console.window->findChild<QAction *>(QStringLiteral("theme_") + stored);
    QVERIFY(action);
    action->trigger();
    QCOMPARE(gui::Theme::current(), theme);
    QCOMPARE(gui::Theme::isDark(), dark);
    if (theme != Theme::System)
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
    QVERIFY(action->isChecked());
    models::AppSettings settings;
    QCOMPARE(settings.theme(), theme);
    QCOMPARE(settings.settings()->value(QStringLiteral("appearance/theme")).toString(), stored);

    // The toolbar's glyphs stand out from the window in every theme: the pause glyph's darkest
    // (light theme) or lightest (dark theme) opaque pixel differs from the window by a margin.
    QAction *pause = console.window->findChild<QAction *>(QStringLiteral("pauseRollout"));
    QVERIFY(pause);
    const QImage glyph = pause->icon().pixmap(QSize(16, 16)).toImage().convertToFormat(QImage::Format_ARGB32);
    const int window = console.window->palette().color(QPalette::Window).lightness();
    int contrast = 0;
    for (int y = 0; y < glyph.height(); ++y)
        for (int x = 0; x < glyph.width(); ++x)
            if (qAlpha(glyph.pixel(x, y)) > 200)
                contrast = std::max(contrast, std::abs(QColor(glyph.pixel(x, y)).lightness() - window));
    QVERIFY2(contrast > 100, qPrintable(QStringLiteral("glyph contrast %1").arg(contrast)));
}

void TestSettingsSession::theSimulationSpeedIsRestored()
{
    {
        Console first(dbPath());
        QVERIFY(first.open(dataPath(QStringLiteral("before/restart.yaml"))));
        first.window->setSpeed(10);
        QTRY_COMPARE_WITH_TIMEOUT(models::AppSettings().simulationSpeed(), 10.0, 10000);
        // Stopping the clock keeps the speed it resumes at.
        first.window->setSpeed(0);
        QTRY_VERIFY_WITH_TIMEOUT(!first.window->snapshot()->clock.running, 10000);
        QCOMPARE(models::AppSettings().simulationSpeed(), 10.0);
    }
    Console second(dbPath());
    QCOMPARE(second.session->startupSpeed(), 10.0);
}

void TestSettingsSession::diffOptionsAreRestored()
{
    {
        Console first(dbPath());
        gui::DiffView *view = first.window->page()->diffTab()->diffView();
        QVERIFY(!view->hideServerNoise());
        view->setHideServerNoise(true);
        QCOMPARE(models::AppSettings().hideServerNoise(), true);
    }
    {
        Console second(dbPath());
        QVERIFY(second.window->page()->diffTab()->diffView()->hideServerNoise());
    }
    models::AppSettings settings;
    settings.setDiffContextLines(7);
    QCOMPARE(models::AppSettings().diffContextLines(), 7);
    settings.settings()->setValue(QStringLiteral("diff/contextLines"), -4); // edited by hand
    QCOMPARE(models::AppSettings().diffContextLines(), models::AppSettings::kDefaultContextLines);
}

void TestSettingsSession::theLastScenarioIsOpenedAgainUnlessItIsGone()
{
    const QString copy = m_dir->filePath(QStringLiteral("mine.yaml"));
    QVERIFY(QFile::copy(dataPath(QStringLiteral("before/restart.yaml")), copy));
    {
        Console first(dbPath());
        QCOMPARE(first.session->startupScenario(), gui::MainWindow::demoScenarioPath());
        QVERIFY(first.open(copy));
        QTRY_COMPARE_WITH_TIMEOUT(models::AppSettings().lastScenarioPath(), copy, 10000);
        QCOMPARE(models::AppSettings().lastBackend(), models::BackendKind::Embedded);
    }
    {
        Console second(dbPath());
        QCOMPARE(second.session->startupScenario(), copy);
    }
    QVERIFY(QFile::remove(copy));
    Console third(dbPath());
    QCOMPARE(third.session->startupScenario(), gui::MainWindow::demoScenarioPath());
}

void TestSettingsSession::theLanguageChoiceIsStoredForTheNextStart()
{
    Console console(dbPath());
    auto *menu = console.window->findChild<gui::LanguageMenu *>(QStringLiteral("languageMenu"));
    QVERIFY(menu);
    QVERIFY(menu->statusTip().contains(QStringLiteral("restart")));
    QAction *german = console.window->findChild<QAction *>(QStringLiteral("language_de"));
    QVERIFY(german);
    german->trigger();
    QCOMPARE(models::AppSettings().languageOverride(), QStringLiteral("de"));
    QVERIFY(console.window->statusBar()->currentMessage().contains(QStringLiteral("Deutsch")));
    console.window->findChild<QAction *>(QStringLiteral("language_system"))->trigger();
    QCOMPARE(models::AppSettings().languageOverride(), QString());
}

void TestSettingsSession::aLiveClusterShownAtExitIsConnectedAgain_data()
{
    QTest::addColumn<models::BackendKind>("backend");
    QTest::addColumn<QString>("context");
    QTest::addColumn<bool>("reconnect");
    QTest::newRow("a live cluster with its context")
        << models::BackendKind::Live << QStringLiteral("kind-prod") << true;
    QTest::newRow("a live cluster whose context never connected")
        << models::BackendKind::Live << QString() << false;
    QTest::newRow("the embedded cluster")
        << models::BackendKind::Embedded << QStringLiteral("kind-prod") << false;
}

void TestSettingsSession::aLiveClusterShownAtExitIsConnectedAgain()
{
    QFETCH(models::BackendKind, backend);
    QFETCH(QString, context);
    QFETCH(bool, reconnect);
    {
        models::AppSettings settings;
        settings.setLastBackend(backend);
        settings.setLastContext(context);
        settings.setLastKubeconfig(QStringLiteral("/etc/kube/config"));
    }
    Console console(dbPath());
    const auto live = console.session->startupLiveBackend();
    QCOMPARE(live.has_value(), reconnect);
    if (reconnect) {
        QCOMPARE(live->context, context);
        QCOMPARE(live->kubeconfig, QStringLiteral("/etc/kube/config"));
    }
}

int main(int argc, char **argv)
{
    QTemporaryDir home;
    qputenv("XDG_DATA_HOME", QFile::encodeName(home.filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.filePath(QStringLiteral("config"))));
    QApplication app(argc, argv);
    TestSettingsSession test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_settingssession.moc"
