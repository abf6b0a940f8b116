// The console's command line as a user types it: bad option combinations end at once with a
// message and exit code 2; a screenshot run opens the scenario, waits until it has loaded,
// writes the picture of the chosen tab and exits 0. The GUI runs on the offscreen platform.

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString err;
};

Run runDaemonscope(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"), args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString scenario()
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/ui/data/three-revisions.yaml");
}

} // namespace

class TestGuiCommandLine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badOptionsEndWithAMessage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("a namespace without a live cluster")
            << QStringList{QStringLiteral("-n"), QStringLiteral("kube-system")}
            << QStringLiteral("--namespace and --all-namespaces need --kubeconfig or --context");
        QTest::newRow("all namespaces without a live cluster")
            << QStringList{QStringLiteral("--all-namespaces")}
            << QStringLiteral("--namespace and --all-namespaces need --kubeconfig or --context");
        QTest::newRow("one namespace and all of them")
            << QStringList{QStringLiteral("--context"), QStringLiteral("prod"), QStringLiteral("-n"),
                           QStringLiteral("web"), QStringLiteral("-A")}
            << QStringLiteral("--namespace and --all-namespaces exclude each other");
        QTest::newRow("a speed beyond 1000x")
            << QStringList{QStringLiteral("--speed"), QStringLiteral("5000")}
            << QStringLiteral("--speed expects a number from 0 to 1000, got \"5000\"");
        QTest::newRow("an unknown tab") << QStringList{QStringLiteral("--tab"), QStringLiteral("graphs")}
                                        << QStringLiteral("unknown tab \"graphs\"");
    }

    void badOptionsEndWithAMessage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runDaemonscope(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void screenshotOfATabOfALoadedScenario_data()
    {
        QTest::addColumn<QString>("tab");
        QTest::newRow("nodes") << QStringLiteral("nodes");
        QTest::newRow("upgrade page") << QStringLiteral("upgrade");
    }

    void screenshotOfATabOfALoadedScenario()
    {
        QFETCH(QString, tab);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("shot.png"));
        const Run r = runDaemonscope({QStringLiteral("--scenario"), scenario(), QStringLiteral("--select"),
                                      QStringLiteral("default/agent"), QStringLiteral("--screenshot"), file,
                                      QStringLiteral("--screenshot-tab"), tab, QStringLiteral("--quit-after"),
                                      QStringLiteral("300")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QImage image(file);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 500);
    }

    void screenshotToAnUnwritablePlaceFails()
    {
        const Run r =
            runDaemonscope({QStringLiteral("--scenario"), scenario(), QStringLiteral("--screenshot"),
                            QStringLiteral("/nonexistent-folder/shot.png"), QStringLiteral("--quit-after"),
                            QStringLiteral("100")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write /nonexistent-folder/shot.png")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestGuiCommandLine)
#include "tst_guicommandline.moc"
