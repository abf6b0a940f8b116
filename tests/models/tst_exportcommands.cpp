// The headless `export` and `diff daemonset/NAME` commands, run as the built executable
// (DAEMONSCOPE_BINARY) on the scenarios in tests/models/data; their output is read back.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run daemonscope(const QStringList &arguments)
{
    QProcess p;
    p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"), arguments);
    Run r;
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit)
        return r;
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString scenario(const char *name)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/models/data/") + QLatin1String(name);
}

} // namespace

class TestExportCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exportJsonHoldsEveryRevisionAndItsDiffs();
    void exportMarkdownNamesEveryRevision();
    void exportHtmlIsWrittenToTheOutputFile();
    void exportErrors_data();
    void exportErrors();
    void diffOfRevisions_data();
    void diffOfRevisions();
};

void TestExportCommands::initTestCase()
{
    const QString binary = qEnvironmentVariable("DAEMONSCOPE_BINARY");
    QVERIFY2(!binary.isEmpty() && QFile::exists(binary), "DAEMONSCOPE_BINARY must name the built executable");
}

void TestExportCommands::exportJsonHoldsEveryRevisionAndItsDiffs()
{
    const Run r =
        daemonscope({QStringLiteral("export"), QStringLiteral("daemonset/web"), QStringLiteral("--scenario"),
                     scenario("three-revisions.yaml"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray revisions = o.value(QStringLiteral("revisions")).toArray();
    QCOMPARE(revisions.size(), 3);
    QStringList images;
    for (const auto &v : revisions)
        images.append(v.toObject().value(QStringLiteral("images")).toString());
    QCOMPARE(images, (QStringList{QStringLiteral("nginx:1.25"), QStringLiteral("nginx:1.26"),
                                  QStringLiteral("nginx:1.27")}));
    QVERIFY(revisions[2].toObject().value(QStringLiteral("current")).toBool());
    QCOMPARE(revisions[0].toObject().value(QStringLiteral("changeCause")).toString(),
             QStringLiteral("initial <deploy> & \"quotes\""));
    const QJsonArray diffs = o.value(QStringLiteral("diffs")).toArray();
    QCOMPARE(diffs.size(), 2);
    // The scenario's own two rollouts were observed from the start: 1 → 2 and 2 → 3.
    const QJsonArray rollouts = o.value(QStringLiteral("rollouts")).toArray();
    QCOMPARE(rollouts.size(), 2);
    QCOMPARE(rollouts[0].toObject().value(QStringLiteral("fromRevision")).toInt(), 1);
    QCOMPARE(rollouts[0].toObject().value(QStringLiteral("toRevision")).toInt(), 2);
    QCOMPARE(rollouts[1].toObject().value(QStringLiteral("toRevision")).toInt(), 3);
    QCOMPARE(rollouts[1].toObject().value(QStringLiteral("nodes")).toArray().size(), 5);
    QVERIFY(!rollouts[1].toObject().value(QStringLiteral("completed")).isNull());
    QCOMPARE(diffs[0]
                 .toObject()
                 .value(QStringLiteral("summary"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("category")),
             QJsonValue(QStringLiteral("image")));
}

void TestExportCommands::exportMarkdownNamesEveryRevision()
{
    const Run r = daemonscope({QStringLiteral("export"), QStringLiteral("daemonset/web"),
                               QStringLiteral("--scenario"), scenario("three-revisions.yaml"),
                               QStringLiteral("--format"), QStringLiteral("markdown")});
    QCOMPARE(r.exitCode, 0);
    for (int n = 1; n <= 3; ++n)
        QVERIFY2(r.out.contains(QStringLiteral("\n| %1 | `web-").arg(n)), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("### Revision 1 → 2")));
    QVERIFY(r.out.contains(QStringLiteral("### Revision 2 → 3")));
    QVERIFY(r.out.contains(QStringLiteral("upgrade to 1.27")));
}

void TestExportCommands::exportHtmlIsWrittenToTheOutputFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("report.html"));
    const Run r =
        daemonscope({QStringLiteral("export"), QStringLiteral("daemonset/web"), QStringLiteral("--scenario"),
                     scenario("three-revisions.yaml"), QStringLiteral("--format"), QStringLiteral("html"),
                     QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(html.contains(QStringLiteral("initial &lt;deploy&gt; &amp; &quot;quotes&quot;")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
             QStringList{QStringLiteral("report.html")}); // no temp left
}

void TestExportCommands::exportErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrContains");
    QTest::newRow("an unknown DaemonSet is not found")
        << QStringList{QStringLiteral("export"), QStringLiteral("daemonset/nope"),
                       QStringLiteral("--scenario"), scenario("three-revisions.yaml")}
        << 1 << QStringLiteral("\"nope\" not found");
    QTest::newRow("a wrong namespace is not found")
        << QStringList{QStringLiteral("export"),     QStringLiteral("daemonset/web"),
                       QStringLiteral("-n"),         QStringLiteral("kube-system"),
                       QStringLiteral("--scenario"), scenario("three-revisions.yaml")}
        << 1 << QStringLiteral("not found");
    QTest::newRow("an unknown format is a usage error")
        << QStringList{QStringLiteral("export"),     QStringLiteral("daemonset/web"),
                       QStringLiteral("--scenario"), scenario("three-revisions.yaml"),
                       QStringLiteral("--format"),   QStringLiteral("pdf")}
        << 2 << QStringLiteral("unknown format");
    QTest::newRow("a missing scenario file names the file")
        << QStringList{QStringLiteral("export"), QStringLiteral("daemonset/web"),
                       QStringLiteral("--scenario"), scenario("missing.yaml")}
        << 2 << QStringLiteral("missing.yaml");
    QTest::newRow("a missing --scenario is a usage error")
        << QStringList{QStringLiteral("export"), QStringLiteral("daemonset/web")} << 2
        << QStringLiteral("usage");
}

void TestExportCommands::exportErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrContains);
    const Run r = daemonscope(arguments);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(stderrContains), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestExportCommands::diffOfRevisions_data()
{
    QTest::addColumn<QString>("revA");
    QTest::addColumn<QString>("revB");
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("outContains");
    QTest::newRow("two revisions differ in their image")
        << QStringLiteral("1") << QStringLiteral("3") << QStringLiteral("unified") << 1
        << QStringLiteral(
               "--- a/web.pod-template.yaml\tweb@rev1.yaml\n+++ b/web.pod-template.yaml\tweb@rev3.yaml\n");
    QTest::newRow("the current revision equals the live template")
        << QStringLiteral("3") << QStringLiteral("live") << QStringLiteral("unified") << 0 << QString();
    QTest::newRow("json output carries the semantic summary")
        << QStringLiteral("2") << QStringLiteral("3") << QStringLiteral("json") << 1
        << QStringLiteral("nginx:1.26 → nginx:1.27");
    QTest::newRow("a revision that does not exist is an error")
        << QStringLiteral("1") << QStringLiteral("9") << QStringLiteral("unified") << 2 << QString();
    QTest::newRow("a revision that is not a number is an error")
        << QStringLiteral("first") << QStringLiteral("3") << QStringLiteral("unified") << 2 << QString();
}

void TestExportCommands::diffOfRevisions()
{
    QFETCH(QString, revA);
    QFETCH(QString, revB);
    QFETCH(QString, format);
    QFETCH(int, exitCode);
    QFETCH(QString, outContains);
    const Run r = daemonscope({QStringLiteral("diff"), QStringLiteral("daemonset/web"), revA, revB,
                               QStringLiteral("--scenario"), scenario("three-revisions.yaml"),
                               QStringLiteral("--format"), format});
    QCOMPARE(r.exitCode, exitCode);
    if (!outContains.isEmpty())
        QVERIFY2(r.out.contains(outContains), qPrintable(r.out));
    if (exitCode == 0)
        QVERIFY(r.out.isEmpty());
    if (exitCode == 2)
        QVERIFY(!r.err.isEmpty());
}

QTEST_GUILESS_MAIN(TestExportCommands)
#include "tst_exportcommands.moc"
