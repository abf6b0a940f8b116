// The console's command line as a user types it: bad option combinations end at once with a
// message and exit code 2 (also without a display: the options are read before any window);
// --help lists the console options and the commands, a command's help names the command; a
// screenshot run opens the scenario, waits until it has loaded,
// writes the picture of the chosen tab and exits 0. The GUI runs on the offscreen platform.
// The executable without its program module still compares manifest files.

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

enum class Screen { Offscreen, None };

Run runProgram(const QString &program, const QStringList &args, Screen display = Screen::Offscreen)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (display == Screen::Offscreen) {
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    } else {
        // As on a server or in a container: no X, no Wayland, no platform chosen.
        for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
    }
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Run runDaemonscope(const QStringList &args, Screen display = Screen::Offscreen)
{
    return runProgram(qEnvironmentVariable("DAEMONSCOPE_BINARY"), args, display);
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
        QTest::newRow("upgrade spec fields that are not JSON")
            << QStringList{QStringLiteral("--start-upgrade"), QStringLiteral("{bad")}
            << QStringLiteral("--start-upgrade: the spec fields are not valid JSON");
        QTest::newRow("upgrade spec fields that are not an object")
            << QStringList{QStringLiteral("--start-upgrade"), QStringLiteral("[1]")}
            << QStringLiteral("--start-upgrade: the spec fields must be a JSON object");
        QTest::newRow("a misspelt upgrade spec field")
            << QStringList{QStringLiteral("--start-upgrade"), QStringLiteral("{\"maxUnavaliable\": 2}")}
            << QStringLiteral("--start-upgrade: unknown spec field \"maxUnavaliable\" (the fields are "
                              "abort, allowSelfRestart, controllerHealthThreshold, healthComparison, "
                              "localDataPolicy, maintenanceWindow, maxFailedNodes, maxInflightPerController, "
                              "maxStartsPerPass, "
                              "maxUnavailable, minReadyRatio, nodeSelector,");
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

    void helpListsTheConsoleOptionsAndTheCommands()
    {
        // Without a display too: help is text, it needs no window.
        for (const Screen display : {Screen::Offscreen, Screen::None}) {
            const Run r = runDaemonscope({QStringLiteral("--help")}, display);
            QCOMPARE(r.exitCode, 0);
            for (const char *option :
                 {"--scenario FILE", "--select NS/NAME", "--screenshot FILE", "--screenshot-tab", "--speed X",
                  "--history-db FILE", "--start-upgrade JSON", "-n, --namespace NS", "-A, --all-namespaces",
                  "--kubeconfig FILE", "--context NAME", "--quit-after MS", "--tab TAB"})
                QVERIFY2(r.out.contains(QLatin1String(option)), option);
            for (const char *command : {"\n  diff ", "\n  sim run ", "\n  history ", "\n  rollback ",
                                        "\n  export ", "\n  serve ", "\n  upgrade status "})
                QVERIFY2(r.out.contains(QLatin1String(command)), command);
        }
        // --help after other options is the same help, not Qt's generated one.
        const Run late = runDaemonscope(
            {QStringLiteral("--speed"), QStringLiteral("2"), QStringLiteral("--help")}, Screen::None);
        QCOMPARE(late.exitCode, 0);
        QVERIFY(late.out.startsWith(QStringLiteral("Usage: daemonscope [OPTIONS]")));
    }

    void anUnknownOptionIsNamedWithoutADisplay()
    {
        for (const Screen display : {Screen::Offscreen, Screen::None}) {
            const Run r = runDaemonscope({QStringLiteral("--bogus")}, display);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith(QStringLiteral("daemonscope: unknown option --bogus\n")),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains(QStringLiteral("Usage: daemonscope [OPTIONS]")), qPrintable(r.err));
        }
        const Run single = runDaemonscope({QStringLiteral("-x")}, Screen::None);
        QCOMPARE(single.exitCode, 2);
        QVERIFY2(single.err.contains(QStringLiteral("unknown option -x")), qPrintable(single.err));
        // Bad values are refused before any window is needed.
        const Run speed = runDaemonscope({QStringLiteral("--speed"), QStringLiteral("fast")}, Screen::None);
        QCOMPARE(speed.exitCode, 2);
        QVERIFY2(speed.err.contains(QStringLiteral("--speed expects a number")), qPrintable(speed.err));
    }

    void withoutADisplayTheConsoleSaysSoInsteadOfAborting()
    {
        const Run r = runDaemonscope({QStringLiteral("--scenario"), scenario()}, Screen::None);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no display")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("QT_QPA_PLATFORM=offscreen")), qPrintable(r.err));
    }

    void aScreenshotOfADaemonSetThatIsNotThereFails()
    {
        QTemporaryDir dir;
        const Run r = runDaemonscope({QStringLiteral("--scenario"), scenario(), QStringLiteral("--select"),
                                      QStringLiteral("nope/nope"), QStringLiteral("--screenshot"),
                                      dir.filePath(QStringLiteral("shot.png")),
                                      QStringLiteral("--quit-after"), QStringLiteral("100")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no DaemonSet nope/nope")), qPrintable(r.err));
    }

    void anUpgradeThatCannotStartFailsInsteadOfStartingTheDefaults()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("shot.png"));
        const Run r =
            runDaemonscope({QStringLiteral("--scenario"), scenario(), QStringLiteral("--start-upgrade"),
                            QStringLiteral("{\"maxUnavailable\": \"lots\"}"), QStringLiteral("--screenshot"),
                            file, QStringLiteral("--tab"), QStringLiteral("upgrade")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--start-upgrade: the rollout's spec is invalid:")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("spec.maxUnavailable: Invalid value: \"lots\"")),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(file));
    }

    void aCommandsUsageNamesTheCommand_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *c : {"history", "rollback", "export", "sim", "upgrade", "diff", "serve"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }

    void aCommandsUsageNamesTheCommand()
    {
        QFETCH(QString, command);
        const Run r = runDaemonscope({command, QStringLiteral("--help")}, Screen::None);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("Usage: daemonscope ") + command + QLatin1Char(' ')),
                 qPrintable(r.out.section(QLatin1Char('\n'), 0, 0)));
        QVERIFY2(!r.out.contains(qEnvironmentVariable("DAEMONSCOPE_BINARY")), qPrintable(r.out));
    }

    void aDaemonSetWithoutItsTypeIsExplained_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *c : {"export", "history", "rollback"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }

    void aDaemonSetWithoutItsTypeIsExplained()
    {
        QFETCH(QString, command);
        const Run r =
            runDaemonscope({command, QStringLiteral("node-exporter"), QStringLiteral("--scenario"),
                            QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/resources/scenarios/demo.yaml")},
                           Screen::None);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("expected daemonset/NAME, got \"node-exporter\"")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("daemonset/node-exporter")), qPrintable(r.err));
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

    // The executable compares two manifest files and answers --version by itself; everything
    // else is in the program module beside it. A copy of the executable alone still does the
    // former and names the missing module for the rest (exit 2), instead of crashing.
    void theExecutableAloneDiffsFilesAndNamesAMissingModule()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString alone = dir.filePath(QStringLiteral("daemonscope"));
        QVERIFY(QFile::copy(qEnvironmentVariable("DAEMONSCOPE_BINARY"), alone));
        auto run = [&](const QStringList &args) { return runProgram(alone, args); };
        const Run version = run({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith(QStringLiteral("daemonscope ")));

        auto write = [&](const QString &name, const QString &image) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                QStringLiteral("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: web\nspec:\n"
                               "  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
                               "      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n"
                               "        image: %1\n")
                    .arg(image)
                    .toUtf8());
        };
        write(QStringLiteral("a.yaml"), QStringLiteral("nginx:1.26"));
        write(QStringLiteral("b.yaml"), QStringLiteral("nginx:1.27"));
        const Run diff = run({QStringLiteral("diff"), dir.filePath(QStringLiteral("a.yaml")),
                              dir.filePath(QStringLiteral("b.yaml"))});
        QCOMPARE(diff.exitCode, 1);
        QVERIFY2(diff.out.contains(QRegularExpression(QStringLiteral("\\n\\+ *(- )?image: nginx:1\\.27\\n"))),
                 qPrintable(diff.out));

        for (const QStringList &args :
             {QStringList{QStringLiteral("sim"), QStringLiteral("run"), scenario()},
              QStringList{QStringLiteral("diff"), QStringLiteral("daemonset/web"), QStringLiteral("1"),
                          QStringLiteral("2"), QStringLiteral("--scenario"), scenario()}}) {
            const Run r = run(args);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QStringLiteral("daemonscope-app.so is missing")), qPrintable(r.err));
        }
        const Run unknown = run({QStringLiteral("frobnicate")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains(QStringLiteral("unknown command \"frobnicate\"")));
    }
};

QTEST_GUILESS_MAIN(TestGuiCommandLine)
#include "tst_guicommandline.moc"
