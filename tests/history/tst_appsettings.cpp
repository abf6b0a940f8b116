// AppSettings: every setting round-trips through an INI file (a restart in between), missing
// or unusable values give the defaults.

#include "models/settings/appsettings.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using models::AppSettings;
using models::BackendKind;

Q_DECLARE_METATYPE(AppSettings::Theme)

namespace {

// Writes `value` through the setter named `setting`, then reads it back through the getter.
void set(AppSettings &s, const QString &setting, const QVariant &value)
{
    if (setting == QStringLiteral("windowGeometry"))
        s.setWindowGeometry(value.toByteArray());
    else if (setting == QStringLiteral("windowState"))
        s.setWindowState(value.toByteArray());
    else if (setting == QStringLiteral("mainSplitter"))
        s.setSplitterState(QString(), value.toByteArray());
    else if (setting == QStringLiteral("detailsSplitter"))
        s.setSplitterState(QStringLiteral("details"), value.toByteArray());
    else if (setting == QStringLiteral("lastBackend"))
        s.setLastBackend(value.toBool() ? BackendKind::Live : BackendKind::Embedded);
    else if (setting == QStringLiteral("lastContext"))
        s.setLastContext(value.toString());
    else if (setting == QStringLiteral("lastKubeconfig"))
        s.setLastKubeconfig(value.toString());
    else if (setting == QStringLiteral("lastScenarioPath"))
        s.setLastScenarioPath(value.toString());
    else if (setting == QStringLiteral("scenarioDirectory"))
        s.setScenarioDirectory(value.toString());
    else if (setting == QStringLiteral("exportDirectory"))
        s.setExportDirectory(value.toString());
    else if (setting == QStringLiteral("theme"))
        s.setTheme(AppSettings::Theme(value.toInt()));
    else if (setting == QStringLiteral("hideServerNoise"))
        s.setHideServerNoise(value.toBool());
    else if (setting == QStringLiteral("diffContextLines"))
        s.setDiffContextLines(value.toInt());
    else if (setting == QStringLiteral("simulationSpeed"))
        s.setSimulationSpeed(value.toDouble());
    else if (setting == QStringLiteral("languageOverride"))
        s.setLanguageOverride(value.toString());
    else
        QTest::qFail("unknown setting", __FILE__, __LINE__);
}

QVariant get(const AppSettings &s, const QString &setting)
{
    if (setting == QStringLiteral("windowGeometry"))
        return s.windowGeometry();
    if (setting == QStringLiteral("windowState"))
        return s.windowState();
    if (setting == QStringLiteral("mainSplitter"))
        return s.splitterState();
    if (setting == QStringLiteral("detailsSplitter"))
        return s.splitterState(QStringLiteral("details"));
    if (setting == QStringLiteral("lastBackend"))
        return s.lastBackend() == BackendKind::Live;
    if (setting == QStringLiteral("lastContext"))
        return s.lastContext();
    if (setting == QStringLiteral("lastKubeconfig"))
        return s.lastKubeconfig();
    if (setting == QStringLiteral("lastScenarioPath"))
        return s.lastScenarioPath();
    if (setting == QStringLiteral("scenarioDirectory"))
        return s.scenarioDirectory();
    if (setting == QStringLiteral("exportDirectory"))
        return s.exportDirectory();
    if (setting == QStringLiteral("theme"))
        return int(s.theme());
    if (setting == QStringLiteral("hideServerNoise"))
        return s.hideServerNoise();
    if (setting == QStringLiteral("diffContextLines"))
        return s.diffContextLines();
    if (setting == QStringLiteral("simulationSpeed"))
        return s.simulationSpeed();
    if (setting == QStringLiteral("languageOverride"))
        return s.languageOverride();
    return QStringLiteral("unknown setting");
}

QByteArray allBytes()
{
    QByteArray bytes;
    for (int i = 0; i < 256; ++i)
        bytes.append(char(i));
    return bytes;
}

} // namespace

class TestAppSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void roundTrip_data();
    void roundTrip();
    void defaults_data();
    void defaults();
    void unusableValuesGiveDefaults_data();
    void unusableValuesGiveDefaults();
    void outOfRangeWritesAreClampedOrIgnored();
    void settingsObjectOverload();
    void nativeLocation();
};

void TestAppSettings::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // never touch the user's real settings
}

void TestAppSettings::roundTrip_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QVariant>("value");

    QTest::newRow("window geometry keeps every byte value")
        << QStringLiteral("windowGeometry") << QVariant(allBytes());
    QTest::newRow("window state keeps a blob that looks like a settings escape")
        << QStringLiteral("windowState") << QVariant(QByteArray("@ByteArray(\x01\x00)", 14));
    QTest::newRow("the main splitter state")
        << QStringLiteral("mainSplitter") << QVariant(QByteArray("\x00\xff\x00\x01", 4));
    QTest::newRow("a named splitter state")
        << QStringLiteral("detailsSplitter") << QVariant(QByteArray("abc\n=;"));
    QTest::newRow("the live backend") << QStringLiteral("lastBackend") << QVariant(true);
    QTest::newRow("the embedded backend") << QStringLiteral("lastBackend") << QVariant(false);
    QTest::newRow("a kubeconfig context with punctuation")
        << QStringLiteral("lastContext")
        << QVariant(QStringLiteral("arn:aws:eks:eu-west-1:123:cluster/prod@admin"));
    QTest::newRow("a kubeconfig path with spaces")
        << QStringLiteral("lastKubeconfig") << QVariant(QStringLiteral("/home/a b/.kube/config; other"));
    QTest::newRow("a scenario path with non-ASCII characters and INI syntax")
        << QStringLiteral("lastScenarioPath")
        << QVariant(QStringLiteral("/tmp/szenarien/Überlauf = [1];#x.yaml"));
    QTest::newRow("a scenario path starting with @")
        << QStringLiteral("lastScenarioPath") << QVariant(QStringLiteral("@Variant(x).yaml"));
    QTest::newRow("the scenario folder")
        << QStringLiteral("scenarioDirectory") << QVariant(QStringLiteral("/srv/scenarios"));
    QTest::newRow("the export folder")
        << QStringLiteral("exportDirectory") << QVariant(QStringLiteral("C:\\Users\\a\\Exports"));
    QTest::newRow("the dark theme") << QStringLiteral("theme") << QVariant(int(AppSettings::Theme::Dark));
    QTest::newRow("the light theme") << QStringLiteral("theme") << QVariant(int(AppSettings::Theme::Light));
    QTest::newRow("the system theme") << QStringLiteral("theme") << QVariant(int(AppSettings::Theme::System));
    QTest::newRow("hiding server noise") << QStringLiteral("hideServerNoise") << QVariant(true);
    QTest::newRow("showing server noise") << QStringLiteral("hideServerNoise") << QVariant(false);
    QTest::newRow("no context lines") << QStringLiteral("diffContextLines") << QVariant(0);
    QTest::newRow("many context lines") << QStringLiteral("diffContextLines") << QVariant(25);
    QTest::newRow("a quarter speed") << QStringLiteral("simulationSpeed") << QVariant(0.25);
    QTest::newRow("a speed of one thousand") << QStringLiteral("simulationSpeed") << QVariant(1000.0);
    QTest::newRow("a speed with no short binary form") << QStringLiteral("simulationSpeed") << QVariant(0.1);
    QTest::newRow("a language with a region")
        << QStringLiteral("languageOverride") << QVariant(QStringLiteral("pt_BR"));
    QTest::newRow("the system language") << QStringLiteral("languageOverride") << QVariant(QString());
}

void TestAppSettings::roundTrip()
{
    QFETCH(QString, setting);
    QFETCH(QVariant, value);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString ini = dir.filePath(QStringLiteral("settings.ini"));
    {
        AppSettings s(ini);
        // Overwrite a different value first, so a getter returning its default cannot pass.
        if (setting != QStringLiteral("lastBackend") && setting != QStringLiteral("hideServerNoise") &&
            setting != QStringLiteral("theme"))
            set(s, setting,
                value.typeId() == QMetaType::QByteArray ? QVariant(QByteArray("old"))
                : value.typeId() == QMetaType::Int      ? QVariant(7)
                : value.typeId() == QMetaType::Double   ? QVariant(3.0)
                                                        : QVariant(QStringLiteral("old")));
        set(s, setting, value);
        QVERIFY(s.sync());
    }
    QVERIFY(QFileInfo(ini).size() > 0);
    AppSettings reopened(ini);
    QCOMPARE(get(reopened, setting), value);
}

void TestAppSettings::defaults_data()
{
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QVariant>("value");
    QTest::newRow("no window geometry") << QStringLiteral("windowGeometry") << QVariant(QByteArray());
    QTest::newRow("no window state") << QStringLiteral("windowState") << QVariant(QByteArray());
    QTest::newRow("no splitter state") << QStringLiteral("detailsSplitter") << QVariant(QByteArray());
    QTest::newRow("the embedded backend") << QStringLiteral("lastBackend") << QVariant(false);
    QTest::newRow("no context") << QStringLiteral("lastContext") << QVariant(QString());
    QTest::newRow("the default kubeconfig") << QStringLiteral("lastKubeconfig") << QVariant(QString());
    QTest::newRow("the built-in scenario") << QStringLiteral("lastScenarioPath") << QVariant(QString());
    QTest::newRow("the system theme") << QStringLiteral("theme") << QVariant(int(AppSettings::Theme::System));
    QTest::newRow("server noise shown") << QStringLiteral("hideServerNoise") << QVariant(false);
    QTest::newRow("three context lines") << QStringLiteral("diffContextLines") << QVariant(3);
    QTest::newRow("real-time speed") << QStringLiteral("simulationSpeed") << QVariant(1.0);
    QTest::newRow("the system language") << QStringLiteral("languageOverride") << QVariant(QString());
}

void TestAppSettings::defaults()
{
    QFETCH(QString, setting);
    QFETCH(QVariant, value);
    QTemporaryDir dir;
    AppSettings s(dir.filePath(QStringLiteral("empty.ini")));
    QCOMPARE(get(s, setting), value);
}

void TestAppSettings::unusableValuesGiveDefaults_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("raw");
    QTest::addColumn<QString>("setting");
    QTest::addColumn<QVariant>("value");
    QTest::newRow("an unknown theme") << QStringLiteral("appearance/theme") << QStringLiteral("purple")
                                      << QStringLiteral("theme") << QVariant(int(AppSettings::Theme::System));
    QTest::newRow("a theme in capitals is still read")
        << QStringLiteral("appearance/theme") << QStringLiteral("DARK") << QStringLiteral("theme")
        << QVariant(int(AppSettings::Theme::Dark));
    QTest::newRow("an unknown backend") << QStringLiteral("backend/kind") << QStringLiteral("cloud")
                                        << QStringLiteral("lastBackend") << QVariant(false);
    QTest::newRow("negative context lines") << QStringLiteral("diff/contextLines") << QStringLiteral("-4")
                                            << QStringLiteral("diffContextLines") << QVariant(3);
    QTest::newRow("non-numeric context lines")
        << QStringLiteral("diff/contextLines") << QStringLiteral("lots") << QStringLiteral("diffContextLines")
        << QVariant(3);
    QTest::newRow("a zero speed") << QStringLiteral("simulation/speed") << QStringLiteral("0")
                                  << QStringLiteral("simulationSpeed") << QVariant(1.0);
    QTest::newRow("a negative speed") << QStringLiteral("simulation/speed") << QStringLiteral("-2")
                                      << QStringLiteral("simulationSpeed") << QVariant(1.0);
    QTest::newRow("a speed that is not a number")
        << QStringLiteral("simulation/speed") << QStringLiteral("nan") << QStringLiteral("simulationSpeed")
        << QVariant(1.0);
    QTest::newRow("an infinite speed") << QStringLiteral("simulation/speed") << QStringLiteral("inf")
                                       << QStringLiteral("simulationSpeed") << QVariant(1.0);
}

void TestAppSettings::unusableValuesGiveDefaults()
{
    QFETCH(QString, key);
    QFETCH(QString, raw);
    QFETCH(QString, setting);
    QFETCH(QVariant, value);
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("edited.ini"));
    {
        QSettings raw_(ini, QSettings::IniFormat);
        raw_.setValue(key, raw);
    }
    AppSettings s(ini);
    QCOMPARE(get(s, setting), value);
}

void TestAppSettings::outOfRangeWritesAreClampedOrIgnored()
{
    QTemporaryDir dir;
    AppSettings s(dir.filePath(QStringLiteral("s.ini")));
    s.setDiffContextLines(-1);
    QCOMPARE(s.diffContextLines(), 0);
    s.setDiffContextLines(1 << 30);
    QCOMPARE(s.diffContextLines(), AppSettings::kMaxContextLines);
    s.setSimulationSpeed(10);
    s.setSimulationSpeed(0);
    s.setSimulationSpeed(-1);
    QCOMPARE(s.simulationSpeed(), 10.0);
}

void TestAppSettings::settingsObjectOverload()
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("shared.ini")), QSettings::IniFormat);
    {
        AppSettings s(&settings);
        QCOMPARE(s.settings(), &settings);
        s.setTheme(AppSettings::Theme::Light);
        s.setLastScenarioPath(QStringLiteral("/x.yaml"));
    }
    // The QSettings is not owned: still usable, and it sees the writes.
    QCOMPARE(settings.value(QStringLiteral("appearance/theme")).toString(), QStringLiteral("light"));
    QCOMPARE(settings.value(QStringLiteral("scenario/lastPath")).toString(), QStringLiteral("/x.yaml"));
    // The main window's keys are the ones the window already uses.
    AppSettings s(&settings);
    s.setWindowGeometry("g");
    s.setSplitterState(QString(), "m");
    QCOMPARE(settings.value(QStringLiteral("window/geometry")).toByteArray(), QByteArray("g"));
    QCOMPARE(settings.value(QStringLiteral("window/splitter")).toByteArray(), QByteArray("m"));
}

void TestAppSettings::nativeLocation()
{
    AppSettings s;
#if defined(Q_OS_LINUX)
    QVERIFY2(s.fileName().endsWith(QStringLiteral("/Daemonscope/Daemonscope.conf")),
             qPrintable(s.fileName()));
#else
    QVERIFY(!s.fileName().isEmpty());
#endif
}

QTEST_GUILESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
