// The console in German and in English: the translator installed the way the app installs it
// (gui::AppTranslator, the .qm files compiled into the binary), then the main window's menus,
// tabs and status bar, and plural forms, read back.
#include "models/embedded/embeddedbackend.h"
#include "models/snapshot/snapshot.h"
#include "ui/apptranslator.h"
#include "ui/mainwindow.h"
#include "ui/upgradepage.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <memory>

namespace {

QString scenarioPath()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/history/data/before/restart.yaml"); // 3 nodes
}

QStringList menuTitles(const gui::MainWindow &window)
{
    QStringList titles;
    for (QAction *a : window.menuBar()->actions())
        titles.append(a->text());
    return titles;
}

QString statusLabel(const gui::MainWindow &window, const QString &accessibleName)
{
    for (QLabel *label : window.statusBar()->findChildren<QLabel *>()) {
        if (label->accessibleName() == accessibleName)
            return label->text();
    }
    return QStringLiteral("<no label %1>").arg(accessibleName);
}

} // namespace

class TestGermanUi : public QObject
{
    Q_OBJECT

private slots:
    void cleanupTestCase();
    void bothLanguagesAreCompiledIn();
    void theLanguageFollowsTheSystemUnlessOverridden_data();
    void theLanguageFollowsTheSystemUnlessOverridden();
    void theMainWindowIsTranslated_data();
    void theMainWindowIsTranslated();
    void pluralFormsFollowTheCount_data();
    void pluralFormsFollowTheCount();
};

void TestGermanUi::cleanupTestCase()
{
    gui::AppTranslator::install(QStringLiteral("en"));
}

void TestGermanUi::bothLanguagesAreCompiledIn()
{
    QCOMPARE(gui::AppTranslator::availableLanguages(),
             (QStringList{QStringLiteral("de"), QStringLiteral("en")}));
    QCOMPARE(gui::AppTranslator::nativeName(QStringLiteral("de")), QStringLiteral("Deutsch"));
    QCOMPARE(gui::AppTranslator::nativeName(QStringLiteral("en")), QStringLiteral("English"));
}

void TestGermanUi::theLanguageFollowsTheSystemUnlessOverridden_data()
{
    QTest::addColumn<QString>("override");
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a German desktop gets German")
        << QString() << QStringLiteral("de_DE") << QStringLiteral("de");
    QTest::newRow("an Austrian desktop gets German")
        << QString() << QStringLiteral("de_AT") << QStringLiteral("de");
    QTest::newRow("a French desktop gets English")
        << QString() << QStringLiteral("fr_FR") << QStringLiteral("en");
    QTest::newRow("the menu's German wins over an English desktop")
        << QStringLiteral("de") << QStringLiteral("en_US") << QStringLiteral("de");
    QTest::newRow("the menu's English wins over a German desktop")
        << QStringLiteral("en") << QStringLiteral("de_DE") << QStringLiteral("en");
    QTest::newRow("an override without a translation follows the desktop")
        << QStringLiteral("pt_BR") << QStringLiteral("de_CH") << QStringLiteral("de");
}

void TestGermanUi::theLanguageFollowsTheSystemUnlessOverridden()
{
    QFETCH(QString, override);
    QFETCH(QString, system);
    QFETCH(QString, expected);
    QCOMPARE(gui::AppTranslator::resolve(override, QLocale(system)), expected);
}

void TestGermanUi::theMainWindowIsTranslated_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QStringList>("menus");
    QTest::addColumn<QString>("timelineTab");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QString>("clock");
    QTest::addColumn<QString>("badge");
    QTest::newRow("German") << QStringLiteral("de")
                            << QStringList{QStringLiteral("&Datei"), QStringLiteral("&Rollout"),
                                           QStringLiteral("&Simulation"), QStringLiteral("&Ansicht"),
                                           QStringLiteral("&Hilfe")}
                            << QStringLiteral("&Zeitleiste") << QStringLiteral(" · 3 Nodes")
                            << QStringLiteral("Uhr angehalten") << QStringLiteral("Abgeschlossen");
    QTest::newRow("English") << QStringLiteral("en")
                             << QStringList{QStringLiteral("&File"), QStringLiteral("&Rollout"),
                                            QStringLiteral("&Simulation"), QStringLiteral("&View"),
                                            QStringLiteral("&Help")}
                             << QStringLiteral("&Timeline") << QStringLiteral(" · 3 nodes")
                             << QStringLiteral("Clock stopped") << QStringLiteral("Complete");
}

void TestGermanUi::theMainWindowIsTranslated()
{
    QFETCH(QString, language);
    QFETCH(QStringList, menus);
    QFETCH(QString, timelineTab);
    QFETCH(QString, nodes);
    QFETCH(QString, clock);
    QFETCH(QString, badge);
    QCOMPARE(gui::AppTranslator::install(language), language);
    QCOMPARE(gui::AppTranslator::installed(), language);

    models::EmbeddedBackendOptions options;
    options.speed = 0;
    gui::MainWindow window(new models::EmbeddedBackend(options));
    window.openScenario(scenarioPath());
    QTRY_VERIFY_WITH_TIMEOUT(
        window.snapshot() && !window.snapshot()->backend.loading && window.daemonSetCount() > 0, 10000);

    for (const QString &menu : menus)
        QVERIFY2(menuTitles(window).contains(menu), qPrintable(menuTitles(window).join(QLatin1Char(' '))));
    QTabWidget *tabs = nullptr;
    const QString tabsName = QCoreApplication::translate("gui::DaemonSetPage", "DaemonSet views");
    for (QTabWidget *t : window.findChildren<QTabWidget *>()) {
        if (t->accessibleName() == tabsName)
            tabs = t;
    }
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(0), timelineTab);
    QVERIFY2(statusLabel(window, QStringLiteral("Backend")).endsWith(nodes),
             qPrintable(statusLabel(window, QStringLiteral("Backend"))));
    QCOMPARE(statusLabel(window, QCoreApplication::translate("gui::MainWindow", "Clock speed")), clock);
    QCOMPARE(models::badgeName(models::RolloutBadge::Complete), badge);

    // Qt's standard buttons speak the language too, also without Qt's own catalogue installed.
    QDialogButtonBox standard(QDialogButtonBox::Cancel | QDialogButtonBox::Close);
    QCOMPARE(standard.button(QDialogButtonBox::Cancel)->text(),
             language == QLatin1String("de") ? QStringLiteral("Abbrechen") : QStringLiteral("Cancel"));
    QCOMPARE(standard.button(QDialogButtonBox::Close)->text(),
             language == QLatin1String("de") ? QStringLiteral("Schließen") : QStringLiteral("Close"));

    // The node-upgrade tables' headers fit their columns in this language (German ones are
    // longer): none is cut.
    for (const char *name : {"upgradeNodeTable", "upgradeEventTable"}) {
        auto *table = window.upgradePage()->findChild<QTableView *>(QLatin1String(name));
        QVERIFY(table);
        const QFontMetrics fm(table->horizontalHeader()->font());
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            const QString title = table->model()->headerData(c, Qt::Horizontal).toString();
            QVERIFY2(table->columnWidth(c) >= fm.horizontalAdvance(title) + 16,
                     qPrintable(QStringLiteral("%1: '%2' in %3 px")
                                    .arg(QLatin1String(name), title)
                                    .arg(table->columnWidth(c))));
        }
    }
}

void TestGermanUi::pluralFormsFollowTheCount_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("expected");
    QTest::newRow("German, one node") << QStringLiteral("de") << 1 << QStringLiteral(" · 1 Node");
    QTest::newRow("German, five nodes") << QStringLiteral("de") << 5 << QStringLiteral(" · 5 Nodes");
    QTest::newRow("German, no node") << QStringLiteral("de") << 0 << QStringLiteral(" · 0 Nodes");
    QTest::newRow("English, one node") << QStringLiteral("en") << 1 << QStringLiteral(" · 1 node");
    QTest::newRow("English, five nodes") << QStringLiteral("en") << 5 << QStringLiteral(" · 5 nodes");
}

void TestGermanUi::pluralFormsFollowTheCount()
{
    QFETCH(QString, language);
    QFETCH(int, count);
    QFETCH(QString, expected);
    gui::AppTranslator::install(language);
    QCOMPARE(QCoreApplication::translate("gui::MainWindow", " · %n node(s)", nullptr, count), expected);
}

QTEST_MAIN(TestGermanUi)

#include "tst_germanui.moc"
