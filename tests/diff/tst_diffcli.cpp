// `daemonscope diff A.yaml B.yaml`: exit codes like diff(1), formats, -o files and messages that
// name the offending file. cmddiff.cpp is compiled into this test and called directly.

#include "app/commands.h"

#include "models/diff/jsonpatch.h"
#include "models/kube/gojson.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/diff/data/") + QLatin1String(name);
}

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs cmdDiff with stdout and stderr redirected into files.
Outcome runDiff(const QStringList &args)
{
    QTemporaryDir dir;
    const QByteArray outPath = dir.filePath(u"out"_s).toLocal8Bit();
    const QByteArray errPath = dir.filePath(u"err"_s).toLocal8Bit();
    std::fflush(stdout);
    std::fflush(stderr);
    const int savedOut = dup(STDOUT_FILENO);
    const int savedErr = dup(STDERR_FILENO);
    FILE *out = std::fopen(outPath.constData(), "w");
    FILE *err = std::fopen(errPath.constData(), "w");
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    Outcome o;
    // As the executable does: the files here, revisions in the program module.
    const QStringList all = QStringList{u"daemonscope"_s, u"diff"_s} + args;
    o.exitCode = app::cmdDiff(all);
    if (o.exitCode == app::kDiffNeedsModule)
        o.exitCode = app::cmdDiffRevisions(all);
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(savedOut, STDOUT_FILENO);
    dup2(savedErr, STDERR_FILENO);
    close(savedOut);
    close(savedErr);
    std::fclose(out);
    std::fclose(err);
    QFile fo(QString::fromLocal8Bit(outPath)), fe(QString::fromLocal8Bit(errPath));
    if (fo.open(QIODevice::ReadOnly))
        o.out = QString::fromUtf8(fo.readAll());
    if (fe.open(QIODevice::ReadOnly))
        o.err = QString::fromUtf8(fe.readAll());
    return o;
}

} // namespace

class TestDiffCli : public QObject
{
    Q_OBJECT

private slots:
    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stdoutPart");
        QTest::addColumn<QString>("stderrPart");
        const QString rev3 = fixture("web-rev3.yaml"), rev5 = fixture("web-rev5.yaml");
        const QString revision = fixture("web-rev3-revision.yaml");
        QTest::newRow("different templates exit 1 with a unified diff")
            << QStringList{rev3, rev5} << 1 << u"+++ b/web.pod-template.yaml\tweb-rev5.yaml\n"_s << QString();
        QTest::newRow("a manifest diffed with itself exits 0 and prints nothing")
            << QStringList{rev3, rev3} << 0 << QString() << QString();
        QTest::newRow("a revision differs from its manifest by server defaults")
            << QStringList{rev3, revision} << 1 << u"\n+    imagePullPolicy: IfNotPresent\n"_s << QString();
        QTest::newRow("with --ignore-noise a revision equals its manifest")
            << QStringList{rev3, revision, u"--ignore-noise"_s} << 0 << QString() << QString();
        QTest::newRow("markdown format")
            << QStringList{rev3, rev5, u"--format"_s, u"markdown"_s} << 1
            << u"- **image** (`nginx`): image nginx:1.26 → nginx:1.27"_s << QString();
        QTest::newRow("html format") << QStringList{rev3, rev5, u"--format=html"_s} << 1
                                     << u"<!DOCTYPE html>"_s << QString();
        QTest::newRow("json format") << QStringList{rev3, rev5, u"-f"_s, u"json"_s} << 1 << u"\"jsonPatch\""_s
                                     << QString();
        QTest::newRow("an unknown format is a usage error")
            << QStringList{rev3, rev5, u"--format"_s, u"pdf"_s} << 2 << QString()
            << u"unknown format \"pdf\""_s;
        QTest::newRow("one file is a usage error")
            << QStringList{rev3} << 2 << QString() << u"expected two manifest files"_s;
        QTest::newRow("an unknown option is a usage error")
            << QStringList{rev3, rev5, u"--frobnicate"_s} << 2 << QString() << u"frobnicate"_s;
        QTest::newRow("a missing file is named") << QStringList{rev3, fixture("does-not-exist.yaml")} << 2
                                                 << QString() << u"does-not-exist.yaml"_s;
        QTest::newRow("a file with two objects is named")
            << QStringList{fixture("two-objects.yaml"), rev5} << 2 << QString()
            << u"two-objects.yaml: expected exactly one object with a pod template"_s;
        QTest::newRow("an object without pod template is named with its line")
            << QStringList{rev3, fixture("service.yaml")} << 2 << QString()
            << u"service.yaml:1:1: kind Service \"web\" has no pod template"_s;
        QTest::newRow("a revision whose number is a word is refused at the field")
            << QStringList{rev3, fixture("revision-word.yaml")} << 2 << QString()
            << u"revision-word.yaml:10:11: revision: Invalid value: \"three\": must be a 64-bit integer "
               u"(ControllerRevision \"web-6d4cf56db6\")"_s;
        QTest::newRow("containers given as a map are refused at the field")
            << QStringList{fixture("containers-map.yaml"), rev5} << 2 << QString()
            << u"containers-map.yaml:17:9: spec.template.spec.containers: Invalid value: "
               u"{\"nginx\":{\"image\":\"nginx:1.26\"}}: must be a list (DaemonSet \"web\")"_s;
        QTest::newRow("malformed YAML names the file")
            << QStringList{fixture("broken.yaml"), rev5} << 2 << QString() << u"broken.yaml:"_s;
        QTest::newRow("a scenario revision that is not a number is rejected")
            << QStringList{u"daemonset/web"_s, u"three"_s, u"5"_s, u"--scenario"_s, u"s.yaml"_s} << 2
            << QString() << u"\"three\" is not a revision"_s;
        QTest::newRow("a missing scenario file is named")
            << QStringList{u"daemonset/web"_s, u"3"_s, u"5"_s, u"--scenario"_s,
                           u"/nonexistent/scenario.yaml"_s}
            << 2 << QString() << u"scenario.yaml"_s;
        QTest::newRow("help exits 0") << QStringList{u"--help"_s} << 0 << u"--ignore-noise"_s << QString();
    }
    void exitCodes()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stdoutPart);
        QFETCH(QString, stderrPart);
        const Outcome o = runDiff(args);
        QVERIFY2(o.exitCode == exitCode,
                 qPrintable(u"exit %1\nstdout: %2\nstderr: %3"_s.arg(o.exitCode).arg(o.out, o.err)));
        if (stdoutPart.isEmpty() && exitCode != 2)
            QCOMPARE(o.out, QString());
        else
            QVERIFY2(o.out.contains(stdoutPart), qPrintable(o.out));
        if (stderrPart.isEmpty())
            QCOMPARE(o.err, QString());
        else
            QVERIFY2(o.err.contains(stderrPart), qPrintable(o.err));
    }

    void writesOutputFile_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("start");
        // Named after the manifests' DaemonSet, never after either file: the hunks count lines of
        // the rendered pod template.
        QTest::newRow("unified")
            << u"unified"_s
            << u"--- a/web.pod-template.yaml\tweb-rev3.yaml\n+++ b/web.pod-template.yaml\tweb-rev5.yaml\n"_s;
        QTest::newRow("html") << u"html"_s << u"<!DOCTYPE html>"_s;
        QTest::newRow("markdown") << u"markdown"_s << u"# Pod template diff"_s;
        QTest::newRow("json") << u"json"_s << u"{"_s;
    }
    void writesOutputFile()
    {
        QFETCH(QString, format);
        QFETCH(QString, start);
        QTemporaryDir dir;
        const QString out = dir.filePath(u"export.out"_s);
        const Outcome o = runDiff(
            {fixture("web-rev3.yaml"), fixture("web-rev5.yaml"), u"--format"_s, format, u"-o"_s, out});
        QCOMPARE(o.exitCode, 1);
        QCOMPARE(o.out, QString()); // nothing on stdout when writing a file
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray content = f.readAll();
        QVERIFY2(QString::fromUtf8(content).startsWith(start), content.constData());
        if (format == u"json"_s) {
            const auto doc = kube::Json::parse(content.toStdString());
            QCOMPARE(QString::fromStdString(doc["old"].get<std::string>()), u"web-rev3.yaml"_s);
            QCOMPARE(int(doc["summary"].size()), 4);
        }
    }

    void unwritableOutputIsAnError()
    {
        const Outcome o = runDiff({fixture("web-rev3.yaml"), fixture("web-rev5.yaml"), u"-o"_s,
                                   u"/nonexistent-dir/sub/export.diff"_s});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(u"cannot write /nonexistent-dir/sub/export.diff"_s), qPrintable(o.err));
    }
};

QTEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diffcli.moc"
