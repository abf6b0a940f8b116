// The kubectl-like headless commands on a scenario: `daemonscope history` and
// `daemonscope rollback` run the scenario's steps and then print exactly what
// `kubectl rollout history` / `kubectl rollout undo` print (daemonset-semantics.md §4), with
// kubectl's exit codes; an invalid scenario exits 2.

#include <QProcess>
#include <QTest>

namespace {

QString binary()
{
    return qEnvironmentVariable("DAEMONSCOPE_BINARY");
}

// After its last step the worked example holds revisions 2, 3, 6 (nginx:1.3) and 7 (nginx:1.0,
// current, recorded with the change cause of the very first template).
QString workedExample()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR
                          "/tests/scenarios/worked-example-three-updates-then-rollback-to-revision-1.yaml");
}

} // namespace

class TestScenarioCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(QFile::exists(binary())); }

    void commandPrintsWhatKubectlPrints_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");
        const QString w = workedExample();
        const QString scenario = QStringLiteral("--scenario");
        QTest::newRow("history prints the table with the name line's trailing space and a blank last line")
            << QStringList{QStringLiteral("history"), QStringLiteral("daemonset/web"), scenario, w} << 0
            << QStringLiteral(
                   "daemonset.apps/web \nREVISION  CHANGE-CAUSE\n2         nginx 1.1\n3         nginx 1.2\n"
                   "6         nginx 1.3\n7         create web with nginx:1.0\n\n")
            << QString();
        QTest::newRow("history accepts the type and name as two words and the short name")
            << QStringList{QStringLiteral("history"),
                           QStringLiteral("ds"),
                           QStringLiteral("web"),
                           scenario,
                           w,
                           QStringLiteral("-n"),
                           QStringLiteral("default")}
            << 0
            << QStringLiteral(
                   "daemonset.apps/web \nREVISION  CHANGE-CAUSE\n2         nginx 1.1\n3         nginx 1.2\n"
                   "6         nginx 1.3\n7         create web with nginx:1.0\n\n")
            << QString();
        QTest::newRow("history of a revision that was reused and renumbered is an error")
            << QStringList{QStringLiteral("history"),
                           QStringLiteral("daemonset/web"),
                           scenario,
                           w,
                           QStringLiteral("--revision"),
                           QStringLiteral("1")}
            << 1 << QString() << QStringLiteral("error: unable to find the specified revision\n");
        QTest::newRow("history of a DaemonSet that does not exist is NotFound")
            << QStringList{QStringLiteral("history"), QStringLiteral("daemonset/nope"), scenario, w} << 1
            << QString()
            << QStringLiteral("Error from server (NotFound): daemonsets.apps \"nope\" not found\n");
        QTest::newRow("history looks in the given namespace")
            << QStringList{QStringLiteral("history"), QStringLiteral("daemonset/web"), scenario, w,
                           QStringLiteral("-n"),      QStringLiteral("kube-system")}
            << 1 << QString()
            << QStringLiteral("Error from server (NotFound): daemonsets.apps \"web\" not found\n");
        QTest::newRow("a plain rollback rolls back to the previous revision")
            << QStringList{QStringLiteral("rollback"), QStringLiteral("daemonset/web"), scenario, w} << 0
            << QStringLiteral("daemonset.apps/web rolled back\n") << QString();
        QTest::newRow("a rollback to the current template is skipped and names the requested revision")
            << QStringList{QStringLiteral("rollback"),
                           QStringLiteral("daemonset/web"),
                           scenario,
                           w,
                           QStringLiteral("--to-revision"),
                           QStringLiteral("7")}
            << 0
            << QStringLiteral(
                   "daemonset.apps/web skipped rollback (current template already matches revision 7)\n")
            << QString();
        QTest::newRow("a rollback to a revision no longer in history is refused")
            << QStringList{QStringLiteral("rollback"),
                           QStringLiteral("daemonset/web"),
                           scenario,
                           w,
                           QStringLiteral("--to-revision"),
                           QStringLiteral("1")}
            << 1 << QString() << QStringLiteral("error: unable to find specified revision 1 in history\n");
        QTest::newRow("a rollback of another resource type is a usage error")
            << QStringList{QStringLiteral("rollback"), QStringLiteral("deployment/web"), scenario, w} << 2
            << QString()
            << QStringLiteral(
                   "error: only daemonsets are supported, got \"deployment\"\n"
                   "Usage: daemonscope rollback daemonset/NAME --scenario FILE [--to-revision N] [-n NS]\n");
    }

    void commandPrintsWhatKubectlPrints()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, out);
        QFETCH(QString, err);
        QProcess p;
        p.start(binary(), arguments);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), out);
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), err);
        QCOMPARE(p.exitCode(), exitCode);
    }

    void historyOfOneRevisionDescribesItsTemplate()
    {
        QProcess p;
        p.start(binary(), {QStringLiteral("history"), QStringLiteral("daemonset/web"),
                           QStringLiteral("--scenario"), workedExample(), QStringLiteral("--revision=6")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.startsWith(QStringLiteral("daemonset.apps/web with revision #6\nPod Template:\n")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("nginx:1.3")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("nginx:1.0")), qPrintable(out));
    }

    void invalidScenarioExitsTwo()
    {
        for (const QString &command : {QStringLiteral("history"), QStringLiteral("rollback")}) {
            QProcess p;
            p.start(binary(), {command, QStringLiteral("daemonset/web"), QStringLiteral("--scenario"),
                               QStringLiteral(DAEMONSCOPE_SOURCE_DIR
                                              "/tests/scenarios/bad/sync-of-undefined-daemonset.yaml")});
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(p.exitCode(), 2);
            QVERIFY(QString::fromUtf8(p.readAllStandardError())
                        .contains(QStringLiteral("unknown DaemonSet \"default/nope\"")));
        }
    }
};

QTEST_GUILESS_MAIN(TestScenarioCommands)
#include "tst_scenariocommands.moc"
