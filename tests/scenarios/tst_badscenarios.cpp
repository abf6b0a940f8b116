// Malformed scenario files: each file in tests/scenarios/bad/ names on its first line the
// "LINE:COLUMN: message" that `daemonscope sim run` must print after the file's path, with
// exit code 2 and no trace written. Also: a failed expectation exits 1 naming the step, the
// path, the expected and the actual value.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString binary()
{
    return qEnvironmentVariable("DAEMONSCOPE_BINARY");
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runBinary(const QStringList &arguments, const QString &workingDir = {})
{
    QProcess p;
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(binary(), arguments);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// Three nodes, DaemonSet default/web, and a first step that syncs it: the start of the
// scenarios these tests write.
const char kWebCluster[] = "cluster:\n"
                           "  nodes: [{count: 3}]\n"
                           "  objects:\n"
                           "    - apiVersion: apps/v1\n"
                           "      kind: DaemonSet\n"
                           "      metadata: {name: web, namespace: default}\n"
                           "      spec:\n"
                           "        selector: {matchLabels: {app: web}}\n"
                           "        template:\n"
                           "          metadata: {labels: {app: web}}\n"
                           "          spec: {containers: [{name: web, image: \"nginx:1.0\"}]}\n"
                           "steps:\n"
                           "  - sync: default/web\n";

QString badDir()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/scenarios/bad");
}

} // namespace

class TestBadScenarios : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(binary()),
                 "DAEMONSCOPE_BINARY must point at the built daemonscope executable");
        QVERIFY(QDir(badDir()).entryList({QStringLiteral("*.yaml")}, QDir::Files).size() >= 10);
    }

    void malformedFileIsRejectedWithItsPosition_data()
    {
        QTest::addColumn<QString>("relativePath");
        QTest::addColumn<QString>("expected");
        const QDir dir(badDir());
        for (const QString &name : dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString first = QString::fromUtf8(f.readLine()).trimmed();
            const QString marker = QStringLiteral("# expect-error: ");
            QVERIFY2(first.startsWith(marker),
                     qPrintable(name + QStringLiteral(": first line must be ") + marker));
            // Row names read as sentences: the file names are written that way.
            QString row = name;
            row.chop(5);
            row.replace(QLatin1Char('-'), QLatin1Char(' '));
            const QString relative = QStringLiteral("bad/") + name;
            QTest::newRow(qPrintable(row))
                << relative << relative + QLatin1Char(':') + first.mid(marker.size());
        }
    }

    void malformedFileIsRejectedWithItsPosition()
    {
        QFETCH(QString, relativePath);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString trace = tmp.filePath(QStringLiteral("trace.jsonl"));
        // Run from tests/scenarios so the message names the path as given on the command line.
        const Run r = runBinary({QStringLiteral("sim"), QStringLiteral("run"), relativePath,
                                 QStringLiteral("--trace"), trace, QStringLiteral("--trace-state")},
                                QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/scenarios"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(QStringLiteral("expected in stderr: ") + expected +
                                                      QStringLiteral("\nstderr was: ") + r.err));
        QVERIFY(r.out.isEmpty());
        // Nothing half-run: no trace, not even a temporary one.
        QVERIFY(!QFile::exists(trace));
        QVERIFY(!QFile::exists(trace + QStringLiteral(".tmp")));
    }

    void usageErrorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a missing file is named") << QStringList{QStringLiteral("sim"), QStringLiteral("run"),
                                                                QStringLiteral("/nonexistent/scenario.yaml")}
                                                 << QStringLiteral("/nonexistent/scenario.yaml");
        QTest::newRow("sim without run is a usage error")
            << QStringList{QStringLiteral("sim"), QStringLiteral("go"), QStringLiteral("x.yaml")}
            << QStringLiteral("Usage: daemonscope sim run FILE");
        QTest::newRow("an unknown option is a usage error")
            << QStringList{QStringLiteral("sim"), QStringLiteral("run"), QStringLiteral("x.yaml"),
                           QStringLiteral("--speed")}
            << QStringLiteral("speed");
    }

    void usageErrorsExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Run r = runBinary(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }

    void failedExpectationNamesStepPathExpectedAndActual_data()
    {
        QTest::addColumn<QString>("expectYaml");
        QTest::addColumn<QString>("message");
        QTest::newRow("a status counter")
            << QStringLiteral("{daemonset: {default/web: {desiredNumberScheduled: 5}}}")
            << QStringLiteral("step 2 (expect) failed: expect.daemonset.default/web.desiredNumberScheduled: "
                              "expected 5, got 3");
        QTest::newRow("a revision number")
            << QStringLiteral("{revisions: {default/web: [{revision: 2}]}}")
            << QStringLiteral(
                   "step 2 (expect) failed: expect.revisions.default/web[0].revision: expected 2, got 1");
        QTest::newRow("a pod count")
            << QStringLiteral("{pods: {daemonset: default/web, count: 4, ready: 1}}")
            << QStringLiteral(
                   "step 2 (expect) failed: expect.pods(daemonset default/web).count: expected 4, got 3");
        QTest::newRow("the last rollback outcome")
            << QStringLiteral("{rollback: rolled back}")
            << QStringLiteral("step 2 (expect) failed: expect.rollback: expected \"rolled back\", got no "
                              "rollback so far");
    }

    void failedExpectationNamesStepPathExpectedAndActual()
    {
        QFETCH(QString, expectYaml);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("failing.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write((QStringLiteral("mode: stepped\n") + QLatin1String(kWebCluster) +
                 QStringLiteral("  - expect:\n    %1\n").arg(expectYaml))
                    .toUtf8());
        f.close();
        const QString trace = tmp.filePath(QStringLiteral("trace.jsonl"));
        const Run r =
            runBinary({QStringLiteral("sim"), QStringLiteral("run"), file, QStringLiteral("--trace"), trace});
        QCOMPARE(r.exitCode, 1);
        // The position is inside the expect, on line 16 of the file.
        QVERIFY2(r.err.startsWith(file + QStringLiteral(":16:")), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        // The trace of what ran is kept for diagnosis: step 0, the sync and the failed expect.
        QFile t(trace);
        QVERIFY(t.open(QIODevice::ReadOnly));
        QCOMPARE(t.readAll().count('\n'), 3);
    }

    void successfulRunSaysWhatRanOnStdout()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("passing.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("mode: stepped\nseed: 7\n") + kWebCluster +
                "  - advance: 90s\n"
                "  - expect: {daemonset: {default/web: {desiredNumberScheduled: 3}}}\n");
        f.close();
        Run r = runBinary({QStringLiteral("sim"), QStringLiteral("run"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QCOMPARE(r.out,
                 file + QStringLiteral(": 3 steps ran, 1 expect held, 1m30s of virtual time (seed 7)\n"));
        // With a trace, the line says where it went.
        const QString trace = tmp.filePath(QStringLiteral("trace.jsonl"));
        r = runBinary({QStringLiteral("sim"), QStringLiteral("run"), file, QStringLiteral("--trace"), trace});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.endsWith(QStringLiteral("; trace in ") + trace + QLatin1Char('\n')),
                 qPrintable(r.out));
        QVERIFY(QFile::exists(trace));
    }

    void failedUpgradeExpectationNamesNodeOrRollout_data()
    {
        QTest::addColumn<QString>("expectYaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("a node's upgrade phase")
            << QStringLiteral("{node: {node-0: {phase: Upgraded}}}") << 6
            << QStringLiteral(
                   "step 2 (expect) failed: expect.node.node-0.phase: expected Upgraded, got Cordoned");
        QTest::newRow("a rollout's count")
            << QStringLiteral("{upgrade: {agents-v2: {upgraded: 3}}}") << 6
            << QStringLiteral("step 2 (expect) failed: expect.upgrade.agents-v2.upgraded: expected 3, got 0");
        QTest::newRow("a rollout event")
            << QStringLiteral("{events: {contains: [{reason: RolloutCompleted}]}}") << 6
            << QStringLiteral("RolloutStarted nodeupgraderollout/agents-v2");
    }

    void failedUpgradeExpectationNamesNodeOrRollout()
    {
        QFETCH(QString, expectYaml);
        QFETCH(int, line);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("failing.yaml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("mode: continuous\n"
                               "cluster:\n"
                               "  nodes: [{count: 3}]\n"
                               "steps:\n"
                               "  - upgrade: {name: agents-v2, targetVersion: v2.0.0}\n"
                               "  - expect: %1\n")
                    .arg(expectYaml)
                    .toUtf8());
        f.close();
        const Run r = runBinary({QStringLiteral("sim"), QStringLiteral("run"), file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(file + QStringLiteral(":%1:").arg(line)), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestBadScenarios)
#include "tst_badscenarios.moc"
