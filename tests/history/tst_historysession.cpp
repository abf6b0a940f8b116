// The history database wired into the console: two lifetimes of the main window on the same
// history file behave like a restart of the app. The embedded cluster's clock is stopped; tests
// move it with step() and wait on snapshots. XDG_DATA_HOME and XDG_CONFIG_HOME point into a
// temporary folder, so nothing here touches the user's files.
#include "models/embedded/embeddedbackend.h"
#include "models/history/historydatabase.h"
#include "models/history/historyrecorder.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "ui/daemonsetpage.h"
#include "ui/exportjob.h"
#include "ui/mainwindow.h"
#include "ui/windowsession.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using models::RevisionTimelineModel;

namespace {

const QString kWeb = QStringLiteral("default/web");

QString dataPath(const QString &name)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/history/data/") + name;
}

// One lifetime of the console: a window on a stopped embedded cluster with its session.
struct Console
{
    std::unique_ptr<gui::MainWindow> window;
    gui::WindowSession *session = nullptr;

    explicit Console(const QString &historyPath)
    {
        models::EmbeddedBackendOptions options;
        options.speed = 0;
        options.user = QStringLiteral("alice");
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
                       window->snapshot()->daemonSet(kWeb);
            },
            10000);
    }
    models::HistoryRecorder *recorder() const { return session->recorder(); }
    RevisionTimelineModel *timeline() const { return window->page()->timelineModel(); }
    // The timeline row of revision `name`, -1 when absent.
    int rowOf(const QString &name) const
    {
        for (int r = 0; r < timeline()->rowCount(); ++r) {
            if (timeline()->index(r, 0).data(RevisionTimelineModel::NameRole).toString() == name)
                return r;
        }
        return -1;
    }
    bool removed(int row) const
    {
        return timeline()->index(row, 0).data(RevisionTimelineModel::RemovedRole).toBool();
    }
};

} // namespace

class TestHistorySession : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void revisionsAndActionsSurviveARestart();
    void aRevisionDeletedByTheHistoryLimitStaysInTheTimelineAfterARestart();
    void aDamagedHistoryFileIsMovedAsideWithAMessage_data();
    void aDamagedHistoryFileIsMovedAsideWithAMessage();
    void anUnwritableHistoryLocationIsReportedAndTheAppRunsOn();
    void theDefaultHistoryFileIsTheOneTheReadmeNames();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString dbPath() const { return m_dir->filePath(QStringLiteral("history.sqlite")); }
};

void TestHistorySession::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestHistorySession::revisionsAndActionsSurviveARestart()
{
    const QString scenario = dataPath(QStringLiteral("before/restart.yaml"));
    QString revision1;
    {
        Console first(dbPath());
        QVERIFY(first.open(scenario));
        QVERIFY(first.recorder()->database()->isOpen());
        QCOMPARE(first.recorder()->contextKey(), QStringLiteral("embedded:restart.yaml"));
        revision1 = first.window->snapshot()->daemonSet(kWeb)->revisions->front().name;

        QSignalSpy finished(first.window->backend(), &models::ClusterBackend::actionFinished);
        first.window->backend()->pause(kWeb);
        QVERIFY(finished.wait(10000));
        QVERIFY(finished.last().at(0).value<models::ActionResult>().ok);
        QTRY_VERIFY_WITH_TIMEOUT(first.window->snapshot()->daemonSet(kWeb)->paused, 10000);
        const auto stored = first.recorder()->database()->actions(first.recorder()->contextKey(), kWeb);
        QCOMPARE(stored.size(), std::size_t(1));
        QCOMPARE(stored.front().kind, models::ActionKind::Pause);
        QCOMPARE(stored.front().user, QStringLiteral("alice"));
    }
    // The second lifetime replays the scenario: the cluster's own action log is empty again.
    Console second(dbPath());
    QVERIFY(second.open(scenario));
    QVERIFY(second.window->snapshot()->daemonSet(kWeb)->record->actions.empty());
    const auto actions = second.recorder()->actions(*second.window->snapshot(), kWeb);
    QCOMPARE(actions.size(), std::size_t(1));
    QCOMPARE(actions.front().kind, models::ActionKind::Pause);
    QVERIFY(second.rowOf(revision1) >= 0);

    // ...and the export carries the action taken before the restart.
    const QString out = m_dir->filePath(QStringLiteral("report.json"));
    QVERIFY(second.window->selectDaemonSet(kWeb));
    gui::ExportJob *job = second.window->exportHistoryReport(out, gui::MainWindow::ReportFormat::Json);
    QVERIFY(job);
    QSignalSpy done(second.window.get(), &gui::MainWindow::exportFinished);
    QVERIFY(done.wait(10000));
    QVERIFY2(done.last().at(0).toBool(), qPrintable(done.last().at(1).toString()));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.contains(QStringLiteral("\"pause\"")), qPrintable(text.left(2000)));
    QVERIFY(text.contains(QStringLiteral("alice")));
}

void TestHistorySession::aRevisionDeletedByTheHistoryLimitStaysInTheTimelineAfterARestart()
{
    QString revision1;
    {
        Console first(dbPath());
        QVERIFY(first.open(dataPath(QStringLiteral("before/restart.yaml"))));
        QVERIFY(first.window->selectDaemonSet(kWeb));
        revision1 = first.window->snapshot()->daemonSet(kWeb)->revisions->front().name;
        QCOMPARE(first.window->snapshot()->daemonSet(kWeb)->revisions->size(), std::size_t(2));
        // The rollout completes; revisionHistoryLimit 0 makes the controller delete revision 1.
        first.window->backend()->step(60000);
        QTRY_COMPARE_WITH_TIMEOUT(first.window->snapshot()->daemonSet(kWeb)->revisions->size(),
                                  std::size_t(1), 10000);
        const int row = first.rowOf(revision1);
        QVERIFY(row >= 0);
        QVERIFY(first.removed(row));
    }
    // Later the cluster (same scenario name, same DaemonSet UID) no longer has revision 1 at all.
    Console second(dbPath());
    QVERIFY(second.open(dataPath(QStringLiteral("after/restart.yaml"))));
    QVERIFY(second.window->selectDaemonSet(kWeb));
    QCOMPARE(second.window->snapshot()->daemonSet(kWeb)->revisions->size(), std::size_t(1));
    const int row = second.rowOf(revision1);
    QVERIFY2(row >= 0, "the removed revision is not in the timeline after the restart");
    QVERIFY(second.removed(row));
    QCOMPARE(second.timeline()->index(row, 0).data(RevisionTimelineModel::NumberRole).toLongLong(), 1);
    QVERIFY(second.timeline()->index(row, 0).data(Qt::ForegroundRole).isValid()); // greyed
    QCOMPARE(second.timeline()->rowCount(), 2);
}

void TestHistorySession::aDamagedHistoryFileIsMovedAsideWithAMessage_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("a file that is not SQLite") << QByteArray("this is not a database\n").repeated(200);
    QByteArray header("SQLite format 3");
    header.append('\0');
    QTest::newRow("an SQLite header over garbage") << header + QByteArray(8192, '\x5a');
}

void TestHistorySession::aDamagedHistoryFileIsMovedAsideWithAMessage()
{
    QFETCH(QByteArray, content);
    {
        QFile file(dbPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    Console console(dbPath());
    models::HistoryDatabase *db = console.recorder()->database();
    QVERIFY2(db->isOpen(), qPrintable(db->openError()));
    const QString aside = db->movedAsidePath();
    QVERIFY(!aside.isEmpty());
    QVERIFY(QFile::exists(aside));
    QVERIFY(QFileInfo(aside).fileName().startsWith(QStringLiteral("history.sqlite.corrupt-")));
    QFile moved(aside);
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), content); // never deleted or changed
    const QString message = console.window->statusBar()->currentMessage();
    QVERIFY2(message.contains(QDir::toNativeSeparators(aside)) || message.contains(aside),
             qPrintable(message));
    QVERIFY(console.session->recoveryDialog());
    QCOMPARE(console.session->recoveryDialog()->text(), message);
    // The new history works.
    QVERIFY(console.open(dataPath(QStringLiteral("before/restart.yaml"))));
    QVERIFY(!db->revisions(console.recorder()->contextKey(), kWeb).empty());
}

void TestHistorySession::anUnwritableHistoryLocationIsReportedAndTheAppRunsOn()
{
    // A regular file where the history's folder should be: the folder cannot be created.
    const QString blocker = m_dir->filePath(QStringLiteral("blocked"));
    {
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    Console console(blocker + QStringLiteral("/history.sqlite"));
    QVERIFY(!console.recorder()->database()->isOpen());
    QVERIFY(!console.window->statusBar()->currentMessage().isEmpty());
    QVERIFY(!console.session->recoveryDialog());
    QVERIFY(console.open(dataPath(QStringLiteral("before/restart.yaml"))));
    QVERIFY(console.timeline()->rowCount() >= 0);
}

void TestHistorySession::theDefaultHistoryFileIsTheOneTheReadmeNames()
{
    QCOMPARE(models::HistoryDatabase::defaultPath(),
             qEnvironmentVariable("XDG_DATA_HOME") +
                 QStringLiteral("/Daemonscope/Daemonscope/history.sqlite"));
}

int main(int argc, char **argv)
{
    // Before QApplication: the settings and history locations follow these variables.
    QTemporaryDir home;
    qputenv("XDG_DATA_HOME", QFile::encodeName(home.filePath(QStringLiteral("data"))));
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.filePath(QStringLiteral("config"))));
    QApplication app(argc, argv);
    TestHistorySession test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_historysession.moc"
