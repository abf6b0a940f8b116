// The headless commands on a real API server: `daemonscope history|rollback|diff|export` with
// --kubeconfig against `daemonscope serve`, compared with what kubectl 1.32 prints for the
// same request (`kubectl rollout history` / `rollout undo`) and with what the commands print for
// the same scenario run in the embedded engine (--scenario). Every comparison runs on servers
// of its own (started here on free loopback ports, stopped by their own handles).

#include "tests/support/serveprocess.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

QString sourceDir()
{
    const QString env = qEnvironmentVariable("DAEMONSCOPE_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(DAEMONSCOPE_SOURCE_DIR) : env;
}

QString scenarioPath()
{
    return sourceDir() + u"/tests/serve/web.yaml"_s;
}

QString binary()
{
    return qEnvironmentVariable("DAEMONSCOPE_BINARY");
}

// kubectl 1.32 itself when it sits beside the dispatcher on PATH, otherwise what PATH offers.
QString kubectlBinary()
{
    const QString onPath = QStandardPaths::findExecutable(u"kubectl"_s);
    if (onPath.isEmpty())
        return {};
    const QString dir = QFileInfo(QFileInfo(onPath).canonicalFilePath()).absolutePath();
    for (const QString &candidate : {dir + u"/kubectl.1.32"_s, u"/usr/local/bin/kubectl"_s})
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    return onPath;
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// The server as these tests start it: the test scenario, extra arguments after it.
class Server : public testsupport::ServeProcess
{
public:
    Server(const QTemporaryDir &dir, const QStringList &extra = {}) : ServeProcess(dir, scenarioPath(), extra)
    {}
};

} // namespace

class TstLiveCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void historyPrintsWhatKubectlPrints_data();
    void historyPrintsWhatKubectlPrints();
    void rollbackDoesWhatKubectlUndoDoes_data();
    void rollbackDoesWhatKubectlUndoDoes();
    void diffPrintsWhatItPrintsForTheScenario_data();
    void diffPrintsWhatItPrintsForTheScenario();
    void exportReportsTheServedRevisions();
    void anUnreachableClusterIsAClearError();

private:
    Run run(const QString &program, const QStringList &args);
    Run kubectl(const QString &kubeconfig, const QStringList &args);
    Run daemonscope(const QStringList &args) { return run(binary(), args); }

    QTemporaryDir m_dir;
    QString m_kubectl;
};

void TstLiveCommands::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (binary().isEmpty() || !QFileInfo(binary()).isExecutable())
        QSKIP("DAEMONSCOPE_BINARY does not name the daemonscope executable");
    m_kubectl = kubectlBinary();
    QDir(m_dir.path()).mkdir(u"home"_s);
}

Run TstLiveCommands::run(const QString &program, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, m_dir.filePath(u"home"_s)); // nothing of the user's is read
    env.remove(u"KUBECONFIG"_s);
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = u"did not finish"_s;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Run TstLiveCommands::kubectl(const QString &kubeconfig, const QStringList &args)
{
    return run(m_kubectl, QStringList{u"--kubeconfig"_s, kubeconfig} + args);
}

void TstLiveCommands::historyPrintsWhatKubectlPrints_data()
{
    QTest::addColumn<QStringList>("ours");
    QTest::addColumn<QStringList>("theirs");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("the table of every revision")
        << QStringList{u"daemonset/web"_s} << QStringList{u"daemonset/web"_s} << 0;
    QTest::newRow("one revision's pod template") << QStringList{u"daemonset/web"_s, u"--revision=1"_s}
                                                 << QStringList{u"daemonset/web"_s, u"--revision=1"_s} << 0;
    QTest::newRow("the table of a DaemonSet with one revision")
        << QStringList{u"ds/solo"_s} << QStringList{u"ds/solo"_s} << 0;
    QTest::newRow("a revision that does not exist")
        << QStringList{u"daemonset/web"_s, u"--revision=9"_s}
        << QStringList{u"daemonset/web"_s, u"--revision=9"_s} << 1;
    QTest::newRow("a DaemonSet that does not exist")
        << QStringList{u"daemonset/nope"_s} << QStringList{u"daemonset/nope"_s} << 1;
}

void TstLiveCommands::historyPrintsWhatKubectlPrints()
{
    QFETCH(QStringList, ours);
    QFETCH(QStringList, theirs);
    QFETCH(int, exitCode);
    Server server(m_dir, {u"--speed"_s, u"0"_s});
    QVERIFY(server.waitReady());
    const Run mine =
        daemonscope(QStringList{u"history"_s} + ours + QStringList{u"--kubeconfig"_s, server.kubeconfig()});
    QCOMPARE(mine.exitCode, exitCode);
    // The same output as for the scenario run in the embedded engine ...
    const Run embedded =
        daemonscope(QStringList{u"history"_s} + ours + QStringList{u"--scenario"_s, scenarioPath()});
    QCOMPARE(mine.out, embedded.out);
    QCOMPARE(mine.err, embedded.err);
    // ... and as kubectl's.
    if (m_kubectl.isEmpty())
        QSKIP("KUBECTL NOT FOUND: no kubectl on PATH, so the kubectl comparisons did not run (kubectl is not "
              "a Debian package; the README says where it comes from)");
    const Run real = kubectl(server.kubeconfig(), QStringList{u"rollout"_s, u"history"_s} + theirs);
    QCOMPARE(mine.out, real.out);
    QCOMPARE(mine.err, real.err);
    QCOMPARE(mine.exitCode, real.exitCode);
}

void TstLiveCommands::rollbackDoesWhatKubectlUndoDoes_data()
{
    QTest::addColumn<QString>("toRevision");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("to the previous revision") << u"0"_s << 0;
    QTest::newRow("to revision 1") << u"1"_s << 0;
    QTest::newRow("to the current revision is skipped") << u"2"_s << 0;
    QTest::newRow("to a revision not in history is refused") << u"5"_s << 1;
}

void TstLiveCommands::rollbackDoesWhatKubectlUndoDoes()
{
    QFETCH(QString, toRevision);
    QFETCH(int, exitCode);
    Server ours(m_dir, {u"--speed"_s, u"20"_s});
    QVERIFY(ours.waitReady());
    const Run mine = daemonscope({u"rollback"_s, u"daemonset/web"_s, u"--to-revision"_s, toRevision,
                                  u"--kubeconfig"_s, ours.kubeconfig()});
    QCOMPARE(mine.exitCode, exitCode);
    const Run embedded = daemonscope(
        {u"rollback"_s, u"daemonset/web"_s, u"--to-revision"_s, toRevision, u"--scenario"_s, scenarioPath()});
    QCOMPARE(mine.out, embedded.out);
    QCOMPARE(mine.err, embedded.err);
    if (m_kubectl.isEmpty())
        QSKIP("KUBECTL NOT FOUND: no kubectl on PATH, so the kubectl comparisons did not run (kubectl is not "
              "a Debian package; the README says where it comes from)");
    Server theirs(m_dir, {u"--speed"_s, u"20"_s});
    QVERIFY(theirs.waitReady());
    const Run real = kubectl(theirs.kubeconfig(),
                             {u"rollout"_s, u"undo"_s, u"daemonset/web"_s, u"--to-revision"_s, toRevision});
    QCOMPARE(mine.out, real.out);
    QCOMPARE(mine.err, real.err);
    QCOMPARE(mine.exitCode, real.exitCode);
    // Both clusters end with the same history once their controllers caught up.
    QString a, b;
    for (int i = 0; i < 50; ++i) {
        a = kubectl(ours.kubeconfig(), {u"rollout"_s, u"history"_s, u"daemonset/web"_s}).out;
        b = kubectl(theirs.kubeconfig(), {u"rollout"_s, u"history"_s, u"daemonset/web"_s}).out;
        if (a == b && (exitCode != 0 || toRevision == u"2"_s || a.contains(u"\n3 "_s)))
            break;
        QTest::qWait(200);
    }
    QCOMPARE(a, b);
}

void TstLiveCommands::diffPrintsWhatItPrintsForTheScenario_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("revision 1 against revision 2, unified")
        << QStringList{u"daemonset/web"_s, u"1"_s, u"2"_s} << 1;
    QTest::newRow("revision 2 against the live template, as JSON")
        << QStringList{u"daemonset/web"_s, u"2"_s, u"live"_s, u"--format"_s, u"json"_s} << 0;
    QTest::newRow("a revision that does not exist") << QStringList{u"daemonset/web"_s, u"1"_s, u"4"_s} << 2;
}

void TstLiveCommands::diffPrintsWhatItPrintsForTheScenario()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    Server server(m_dir, {u"--speed"_s, u"0"_s});
    QVERIFY(server.waitReady());
    const Run mine =
        daemonscope(QStringList{u"diff"_s} + args + QStringList{u"--kubeconfig"_s, server.kubeconfig()});
    const Run embedded =
        daemonscope(QStringList{u"diff"_s} + args + QStringList{u"--scenario"_s, scenarioPath()});
    QCOMPARE(mine.exitCode, exitCode);
    QCOMPARE(mine.out, embedded.out);
    if (exitCode != 2)
        QCOMPARE(mine.err, embedded.err);
    else
        QVERIFY2(mine.err.contains(u"revision 4 of daemonset \"web\" not found (revisions: 1, 2)"_s),
                 qPrintable(mine.err));
}

void TstLiveCommands::exportReportsTheServedRevisions()
{
    Server server(m_dir, {u"--speed"_s, u"0"_s});
    QVERIFY(server.waitReady());
    const Run mine = daemonscope(
        {u"export"_s, u"daemonset/web"_s, u"--format"_s, u"json"_s, u"--kubeconfig"_s, server.kubeconfig()});
    QCOMPARE(mine.exitCode, 0);
    QVERIFY2(mine.err.isEmpty(), qPrintable(mine.err));
    const QString embedded = daemonscope({u"export"_s, u"daemonset/web"_s, u"--format"_s, u"json"_s,
                                          u"--scenario"_s, scenarioPath()})
                                 .out;
    // The revisions and their diffs are the cluster's; only times and the source differ.
    for (const QString &needle :
         {u"nginx:1.26"_s, u"nginx:1.27"_s, u"kubectl set image ds/web web=nginx:1.27"_s}) {
        QVERIFY2(mine.out.contains(needle), qPrintable(needle));
        QVERIFY(embedded.contains(needle));
    }
    const Run missing =
        daemonscope({u"export"_s, u"daemonset/nope"_s, u"--kubeconfig"_s, server.kubeconfig()});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err, u"Error from server (NotFound): daemonsets.apps \"nope\" not found\n"_s);
}

void TstLiveCommands::anUnreachableClusterIsAClearError()
{
    // A kubeconfig for a port nothing listens on (the server is gone again).
    QString kubeconfig;
    {
        Server server(m_dir, {u"--speed"_s, u"0"_s});
        QVERIFY(server.waitReady());
        kubeconfig = server.kubeconfig();
    }
    const Run mine = daemonscope({u"history"_s, u"daemonset/web"_s, u"--kubeconfig"_s, kubeconfig});
    QCOMPARE(mine.exitCode, 1);
    QVERIFY2(mine.err.startsWith(u"error: cannot reach http://127.0.0.1:"_s), qPrintable(mine.err));
    const Run noContext = daemonscope(
        {u"history"_s, u"daemonset/web"_s, u"--kubeconfig"_s, kubeconfig, u"--context"_s, u"nope"_s});
    QCOMPARE(noContext.exitCode, 1);
    QVERIFY2(noContext.err.contains(u"nope"_s), qPrintable(noContext.err));
}

QTEST_MAIN(TstLiveCommands)
#include "tst_livecommands.moc"
