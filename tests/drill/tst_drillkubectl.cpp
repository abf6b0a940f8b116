// `kubectl logs` (the real /usr/bin/kubectl) against `daemonscope serve` with the drill-down
// scenario: the crash-looping pod's lines end with its termination message, --previous shows
// the attempt before, --tail, a two-container pod (kubectl picks the first and says so), a
// missing pod, and -f that streams a line written after it started and ends on SIGINT. Only
// processes started here are signalled, by their own handles.

#include "tests/support/serveprocess.h"

#include "models/kube/simulatedcrash.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TstDrillKubectl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void logsLikeACluster_data();
    void logsLikeACluster();
    void followStreamsAndStopsOnSigint();

private:
    QProcessEnvironment env() const;
    Run kubectl(const QStringList &args);
    QString podOf(const QString &app);

    QTemporaryDir m_dir;
    QString m_kubectl;
    std::unique_ptr<testsupport::ServeProcess> m_server;
};

QProcessEnvironment TstDrillKubectl::env() const
{
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
    e.remove(u"KUBECONFIG"_s);
    return e;
}

Run TstDrillKubectl::kubectl(const QStringList &args)
{
    QProcess p;
    p.setProcessEnvironment(env());
    p.start(m_kubectl, QStringList{u"--kubeconfig"_s, m_server->kubeconfig()} + args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = u"kubectl did not finish"_s;
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString TstDrillKubectl::podOf(const QString &app)
{
    return kubectl({u"get"_s, u"pods"_s, u"-l"_s, u"app="_s + app, u"-o"_s,
                    u"jsonpath={.items[0].metadata.name}"_s})
        .out;
}

void TstDrillKubectl::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_kubectl = QStandardPaths::findExecutable(u"kubectl"_s);
    if (m_kubectl.isEmpty())
        QSKIP("KUBECTL NOT FOUND on PATH");
    // 20x: a healthy container writes a line every 1.5 s.
    m_server = std::make_unique<testsupport::ServeProcess>(
        m_dir, QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/drill/drill.yaml"),
        QStringList{u"--speed"_s, u"20"_s});
    QVERIFY2(m_server->waitReady(), qPrintable(m_server->diagnostics()));
}

void TstDrillKubectl::cleanupTestCase()
{
    m_server.reset();
}

void TstDrillKubectl::logsLikeACluster_data()
{
    QTest::addColumn<QString>("app");
    QTest::addColumn<QStringList>("args"); // after `logs POD`
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("lastLine"); // of stdout ("" for none); %1: the pod
    QTest::addColumn<int>("lines");        // -1: any number
    QTest::addColumn<QString>("err");      // contained in stderr

    const QString crash =
        QString::fromStdString(kube::simulatedCrashMessage("agent", "example.com/agent:broken"));
    QTest::newRow("a crash-looping pod's log ends with its termination message")
        << u"agent"_s << QStringList{} << 0 << crash << 3 << u""_s;
    QTest::newRow("--previous shows the attempt before")
        << u"agent"_s << QStringList{u"--previous"_s} << 0 << crash << 3 << u""_s;
    QTest::newRow("--tail=1 shows the last line")
        << u"agent"_s << QStringList{u"--tail=1"_s} << 0 << crash << 1 << u""_s;
    QTest::newRow("--previous of a healthy pod is refused")
        << u"web"_s << QStringList{u"--previous"_s} << 1 << u""_s << 0
        << u"Error from server (BadRequest): previous terminated container \"web\" in pod \"%1\" not found"_s;
    QTest::newRow("a two-container pod: kubectl picks the first and says so")
        << u"pair"_s << QStringList{} << 0 << u""_s << -1 << u"Defaulted container \"a\" out of: a, b"_s;
    QTest::newRow("-c names the container")
        << u"pair"_s << QStringList{u"-c"_s, u"b"_s} << 0 << u""_s << -1 << u""_s;
    QTest::newRow("an unknown container is refused")
        << u"pair"_s << QStringList{u"-c"_s, u"z"_s} << 1 << u""_s << 0
        << u"container z is not valid for pod %1"_s;
    QTest::newRow("a missing pod is NotFound")
        << u""_s << QStringList{} << 1 << u""_s << 0 << u"pods \"nope\" not found"_s;
}

void TstDrillKubectl::logsLikeACluster()
{
    QFETCH(QString, app);
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, lastLine);
    QFETCH(int, lines);
    QFETCH(QString, err);
    const QString pod = app.isEmpty() ? u"nope"_s : podOf(app);
    QVERIFY(!pod.isEmpty());
    const Run r = kubectl(QStringList{u"logs"_s, pod} + args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.err + r.out));
    const QStringList out = r.out.split(u'\n', Qt::SkipEmptyParts);
    if (lines >= 0)
        QCOMPARE(out.size(), lines);
    if (!lastLine.isEmpty())
        QCOMPARE(out.last(), lastLine);
    if (!err.isEmpty())
        QVERIFY2(r.err.contains(err.contains(u"%1"_s) ? err.arg(pod) : err), qPrintable(r.err));
    if (app == u"pair"_s && exitCode == 0)
        QVERIFY2(out.first().startsWith(u"starting container "_s + (args.isEmpty() ? u"a"_s : args.last())),
                 qPrintable(r.out));
}

void TstDrillKubectl::followStreamsAndStopsOnSigint()
{
    const QString pod = podOf(u"web"_s);
    QVERIFY(!pod.isEmpty());
    QProcess p;
    p.setProcessEnvironment(env());
    p.start(m_kubectl, {u"--kubeconfig"_s, m_server->kubeconfig(), u"logs"_s, u"-f"_s, u"--tail=0"_s, pod});
    QVERIFY(p.waitForStarted());
    QByteArray out;
    QDeadlineTimer deadline(30000);
    while (!out.contains("healthy: up ") && !deadline.hasExpired() && p.state() == QProcess::Running) {
        p.waitForReadyRead(500);
        out += p.readAllStandardOutput();
    }
    QVERIFY2(out.contains("healthy: up "), out.constData());
    QCOMPARE(p.state(), QProcess::Running); // still following
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(10000));
    // The server is still fine afterwards.
    QCOMPARE(kubectl({u"logs"_s, pod, u"--tail=1"_s}).exitCode, 0);
}

QTEST_GUILESS_MAIN(TstDrillKubectl)
#include "tst_drillkubectl.moc"
