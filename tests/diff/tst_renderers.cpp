// Export renderers: the unified diff is accepted by `git apply` and GNU `patch` and produces the
// new text; HTML, Markdown and JSON carry the summary and escape what they must.

#include "models/diff/jsonpatch.h"
#include "models/diff/podtemplateof.h"
#include "models/diff/renderers.h"
#include "models/kube/manifest.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace diff;
using kube::Json;
using namespace Qt::Literals::StringLiterals;

namespace {

kube::Json templateOf(const char *fixture)
{
    const auto manifests =
        kube::loadManifestFile(std::string(DAEMONSCOPE_SOURCE_DIR "/tests/diff/data/") + fixture);
    if (!manifests || manifests->size() != 1)
        qFatal("fixture %s does not load", fixture);
    auto tpl = podTemplateOf(manifests->front().object);
    if (!tpl)
        qFatal("fixture %s: %s", fixture, tpl.error().message.c_str());
    return *tpl;
}

TemplateDiff diffOf(const char *oldFixture, const char *newFixture, std::string oldName = "web@rev3.yaml",
                    std::string newName = "web@rev5.yaml")
{
    return TemplateDiff::compute(
        {std::move(oldName), std::move(newName), templateOf(oldFixture), templateOf(newFixture), false, {}});
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

struct Run
{
    int exitCode = -1;
    QString output;
};

Run run(const QString &dir, const QString &program, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAll())};
}

std::string randomText(std::mt19937 &rng, int lines)
{
    std::string text;
    std::uniform_int_distribution<int> word(0, 12);
    for (int i = 0; i < lines; ++i)
        text += "  key" + std::to_string(word(rng)) + ": " + std::to_string(word(rng)) + "\n";
    return text;
}

std::string mutateText(std::mt19937 &rng, const std::string &text)
{
    std::string out;
    std::uniform_int_distribution<int> dice(0, 9);
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start) + 1;
        const std::string line = text.substr(start, end - start);
        const int roll = dice(rng);
        if (roll == 0)
            out += "  changed: " + std::to_string(dice(rng)) + "\n";
        else if (roll != 1)
            out += line;
        if (dice(rng) == 2)
            out += "  inserted: x\n";
        start = end;
    }
    return out;
}

} // namespace

class TestRenderers : public QObject
{
    Q_OBJECT

private slots:
    void rendersUnifiedExactly()
    {
        const std::string expected = "--- a/web.pod-template.yaml\tweb@rev3.yaml\n"
                                     "+++ b/web.pod-template.yaml\tweb@rev5.yaml\n"
                                     "@@ -1,3 +1,3 @@\n"
                                     " a\n"
                                     "-b\n"
                                     "+B\n"
                                     " c\n"
                                     "@@ -8,2 +8,2 @@\n"
                                     " h\n"
                                     "-i\n"
                                     "\\ No newline at end of file\n"
                                     "+i\n";
        const std::string actual =
            renderUnified("a\nb\nc\nd\ne\nf\ng\nh\ni", "a\nB\nc\nd\ne\nf\ng\nh\ni\n", "web.pod-template.yaml",
                          "web@rev3.yaml", "web@rev5.yaml", 1);
        QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected));
        QVERIFY(renderUnified("same\n", "same\n", "a.yaml", "a", "b").empty());
        // A label cannot break the header: tabs and line breaks in it become spaces.
        const std::string odd = renderUnified("a\n", "b\n", "web.yaml", "rev\t3", "rev\n5");
        QVERIFY(odd.rfind("--- a/web.yaml\trev 3\n+++ b/web.yaml\trev 5\n@@ -1,1 +1,1 @@\n", 0) == 0);
        // From a TemplateDiff: its patch path, else the old name.
        TemplateDiffInput in{"web@rev3.yaml",
                             "web@rev5.yaml",
                             templateOf("web-rev3.yaml"),
                             templateOf("web-rev5.yaml"),
                             false,
                             podTemplatePatchPath("web")};
        QVERIFY(renderUnified(TemplateDiff::compute(in))
                    .rfind("--- a/web.pod-template.yaml\tweb@rev3.yaml\n", 0) == 0);
        in.patchPath.clear();
        QVERIFY(renderUnified(TemplateDiff::compute(in)).rfind("--- a/web@rev3.yaml\tweb@rev3.yaml\n", 0) ==
                0);
    }

    // The exported patch modifies one file: with the old text stored under the patch's path,
    // git apply and GNU patch -p1 leave the new text there, and create or rename nothing.
    void unifiedDiffAppliesWithGitAndPatch_data()
    {
        QTest::addColumn<QByteArray>("oldText");
        QTest::addColumn<QByteArray>("newText");
        QTest::addColumn<QString>("path");
        const TemplateDiff web = diffOf("web-rev3.yaml", "web-rev5.yaml");
        QTest::newRow("two revisions of a DaemonSet template")
            << QByteArray::fromStdString(web.oldYaml) << QByteArray::fromStdString(web.newYaml)
            << u"web.pod-template.yaml"_s;
        QTest::newRow("the old text lacks a final newline")
            << QByteArray("a\nb") << QByteArray("a\nb\n") << u"old.yaml"_s;
        QTest::newRow("the new text lacks a final newline")
            << QByteArray("a\nb\nc\n") << QByteArray("a\nB\nc") << u"old.yaml"_s;
        QTest::newRow("neither text has a final newline")
            << QByteArray("x\ny") << QByteArray("x\nz") << u"old.yaml"_s;
        QTest::newRow("the old file is empty") << QByteArray() << QByteArray("a\nb\n") << u"old.yaml"_s;
        QTest::newRow("a name with a space") << QByteArray("a\n") << QByteArray("b\n") << u"my web.yaml"_s;
        QTest::newRow("a name with a quote")
            << QByteArray("a\n") << QByteArray("b\n") << u"my \"web\".yaml"_s;
        std::mt19937 rng(5);
        for (int i = 0; i < 6; ++i) {
            const std::string a = randomText(rng, 20 + 40 * i);
            const std::string b = mutateText(rng, a);
            QTest::addRow("random edit %d", i)
                << QByteArray::fromStdString(a) << QByteArray::fromStdString(b) << u"r.pod-template.yaml"_s;
        }
    }
    void unifiedDiffAppliesWithGitAndPatch()
    {
        QFETCH(QByteArray, oldText);
        QFETCH(QByteArray, newText);
        QFETCH(QString, path);
        const std::string patch = renderUnified(oldText.toStdString(), newText.toStdString(),
                                                path.toStdString(), "x@rev1.yaml", "x@rev2.yaml");
        QVERIFY(!patch.empty());

        for (const QString &tool : {u"git"_s, u"patch"_s}) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            QVERIFY(writeFile(dir.filePath(path), oldText));
            QVERIFY(writeFile(dir.filePath(u"export.diff"_s), QByteArray::fromStdString(patch)));
            const QStringList check = tool == u"git"_s
                                          ? QStringList{u"apply"_s, u"--check"_s, u"export.diff"_s}
                                          : QStringList{u"-p1"_s, u"--dry-run"_s, u"-i"_s, u"export.diff"_s};
            const Run dry = run(dir.path(), tool, check);
            QVERIFY2(dry.exitCode == 0,
                     qPrintable(tool + u" check failed: "_s + dry.output + QString::fromStdString(patch)));
            const QStringList apply = tool == u"git"_s ? QStringList{u"apply"_s, u"export.diff"_s}
                                                       : QStringList{u"-p1"_s, u"-i"_s, u"export.diff"_s};
            const Run real = run(dir.path(), tool, apply);
            QVERIFY2(real.exitCode == 0, qPrintable(tool + u" apply failed: "_s + real.output));
            QCOMPARE(readFile(dir.filePath(path)), newText);
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).size(),
                     2); // nothing else
        }
    }

    void htmlIsSelfContainedAndEscaped()
    {
        const TemplateDiff d = diffOf("script.yaml", "web-rev5.yaml", "<b>old</b>.yaml", "new.yaml");
        const QString html = QString::fromStdString(renderHtml(d));
        QVERIFY(html.startsWith(u"<!DOCTYPE html>"_s));
        QVERIFY(html.contains(u"prefers-color-scheme: dark"_s));
        QVERIFY(!html.contains(u"<script"_s));
        QVERIFY(!html.contains(u"<b>old"_s));
        QVERIFY(!html.contains(u"<link"_s));
        QVERIFY(html.contains(u"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"_s));
        QVERIFY(html.contains(u"&lt;b&gt;old&lt;/b&gt;.yaml"_s));
        // The summary comes before the side-by-side table.
        const auto summaryAt = html.indexOf(u"image nginx:1.26 → nginx:1.27"_s);
        QVERIFY(summaryAt > 0);
        QVERIFY(summaryAt < html.indexOf(u"<table"_s));
        // Intra-line highlight of the changed tag.
        QVERIFY(html.contains(u"nginx:1.<del>26</del>"_s));
        QVERIFY(html.contains(u"nginx:1.<ins>27</ins>"_s));
    }

    void markdownHasSummaryAndFencedDiff()
    {
        const TemplateDiff d = diffOf("script.yaml", "web-rev5.yaml");
        const QString md = QString::fromStdString(renderMarkdown(d));
        QVERIFY(md.contains(u"- **image** (`nginx`): image nginx:1.26 → nginx:1.27\n"_s));
        QVERIFY(md.contains(u"env NODE\\_NAME added (from field spec.nodeName)"_s));
        QVERIFY(md.contains(u"\\<script\\>"_s));
        // The annotation holds a ``` run, so the fence must be longer.
        QVERIFY2(
            md.contains(
                u"\n````diff\n--- a/web@rev3.yaml\tweb@rev3.yaml\n+++ b/web@rev3.yaml\tweb@rev5.yaml\n"_s),
            qPrintable(md));
        QVERIFY(md.endsWith(u"\n````\n"_s));

        const TemplateDiff plain = diffOf("web-rev3.yaml", "web-rev5.yaml");
        QVERIFY(QString::fromStdString(renderMarkdown(plain)).contains(u"\n```diff\n"_s));
        const TemplateDiff same = diffOf("web-rev3.yaml", "web-rev3.yaml");
        QVERIFY(QString::fromStdString(renderMarkdown(same)).contains(u"The templates are identical."_s));
    }

    void jsonCarriesSummaryAndApplicablePatch()
    {
        const TemplateDiff d = diffOf("web-rev3.yaml", "web-rev5.yaml");
        const Json doc = Json::parse(renderJson(d));
        QCOMPARE(QString::fromStdString(doc["old"].get<std::string>()), u"web@rev3.yaml"_s);
        QCOMPARE(QString::fromStdString(doc["new"].get<std::string>()), u"web@rev5.yaml"_s);
        QCOMPARE(doc["identical"].get<bool>(), false);
        QCOMPARE(int(doc["summary"].size()), int(d.summary.changes.size()));
        QStringList summaries;
        for (const auto &c : doc["summary"])
            summaries << QString::fromStdString(c["category"].get<std::string>() + ": " +
                                                c["summary"].get<std::string>());
        QCOMPARE(summaries,
                 (QStringList{u"image: image nginx:1.26 → nginx:1.27"_s, u"env: env LOG_LEVEL info → debug"_s,
                              u"env: env NODE_NAME added (from field spec.nodeName)"_s,
                              u"resources: resources limits.memory 128Mi → 256Mi"_s}));
        const auto applied = applyJsonPatch(d.oldTemplate, doc["jsonPatch"]);
        QVERIFY(applied.ok());
        QVERIFY(*applied == d.newTemplate);

        const Json same = Json::parse(renderJson(diffOf("web-rev3.yaml", "web-rev3.yaml")));
        QCOMPARE(same["identical"].get<bool>(), true);
        QVERIFY(same["summary"].empty());
        QVERIFY(same["jsonPatch"].empty());
    }

    void hidingNoiseMakesARevisionEqualToItsManifest()
    {
        const Json manifest = templateOf("web-rev3.yaml");
        const Json revision = templateOf("web-rev3-revision.yaml");
        const TemplateDiff noisy = TemplateDiff::compute({"a", "b", manifest, revision, false, {}});
        QVERIFY(!noisy.identical());
        QVERIFY(!noisy.summary.identical());
        const TemplateDiff quiet = TemplateDiff::compute({"a", "b", manifest, revision, true, {}});
        QVERIFY(quiet.identical());
        QVERIFY(quiet.summary.identical());
        QCOMPARE(QString::fromStdString(quiet.oldYaml), QString::fromStdString(quiet.newYaml));
        QVERIFY(renderUnified(quiet).empty());
    }
};

QTEST_GUILESS_MAIN(TestRenderers)
#include "tst_renderers.moc"
