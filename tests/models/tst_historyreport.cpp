// HistoryReport: every revision, the diffs between consecutive revisions, rollouts and actions
// in Markdown, HTML and JSON, with user text escaped in each format.

#include "models/diff/historyreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

kube::Json tmpl(const std::string &image)
{
    return kube::Json{{"metadata", {{"labels", {{"app", "web"}}}}},
                      {"spec", {{"containers", kube::Json::array({{{"name", "web"}, {"image", image}}})}}}};
}

diff::HistoryReport sample()
{
    diff::HistoryReport r;
    r.name = "web";
    r.namespace_ = "default";
    r.generatedAt = 1767225600000;
    r.source = "scenario <test>.yaml";
    diff::HistoryRevision a{1,
                            "web-aaa",
                            "aaa",
                            1767225600000,
                            "initial <script>alert(1)</script> | pipe",
                            "nginx:1.25",
                            tmpl("nginx:1.25"),
                            false,
                            true,
                            {},
                            0};
    diff::HistoryRevision b{2,
                            "web-bbb",
                            "bbb",
                            1767225700000,
                            "upgrade & \"quote\"",
                            "nginx:1.26",
                            tmpl("nginx:1.26"),
                            false,
                            false,
                            {},
                            0};
    diff::HistoryRevision c{
        4, "web-ccc", "ccc", 1767225800000, "", "nginx:1.27", tmpl("nginx:1.27"), true, false, {3}, 5};
    r.revisions = {c, a, b}; // any order
    diff::HistoryRollout ro;
    ro.fromRevision = 2;
    ro.toRevision = 4;
    ro.started = 1767225800000;
    ro.completed = 1767225860000;
    ro.nodes = {{"node-0", 1767225800000, 1767225809000}, {"node-1", 1767225809000, 1767225820000}};
    r.rollouts = {ro};
    r.actions = {{1767225800000, "alice", "rollback", "default/web", "toRevision=0", true, "rolled back"}};
    return r;
}

} // namespace

class TestHistoryReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void markdownListsEveryRevisionAndDiff();
    void htmlEscapesUserText();
    void jsonHoldsRevisionsDiffsRolloutsAndActions();
    void escaping_data();
    void escaping();
    void rolloutsNameTheNumbersRevisionsHaveNow();
};

void TestHistoryReport::markdownListsEveryRevisionAndDiff()
{
    const QString md = QString::fromStdString(sample().markdown());
    QVERIFY(md.startsWith(QStringLiteral("# DaemonSet history: `default/web`")));
    QVERIFY(md.contains(QStringLiteral("| 1 | `web-aaa`")));
    QVERIFY(md.contains(QStringLiteral("| 2 | `web-bbb`")));
    QVERIFY(md.contains(QStringLiteral("| 4 | `web-ccc`")));
    QVERIFY(md.contains(QStringLiteral("removed by the cluster")));
    QVERIFY(md.contains(QStringLiteral("current; previously 3")));
    QVERIFY(md.contains(QStringLiteral("### Revision 1 → 2")));
    QVERIFY(md.contains(QStringLiteral("### Revision 2 → 4")));
    QVERIFY(md.contains(QStringLiteral("nginx:1.26 → nginx:1.27")));
    QVERIFY(md.contains(QStringLiteral("```diff\n")));
    QVERIFY(md.contains(QStringLiteral("+      image: nginx:1.27")) ||
            md.contains(QStringLiteral("+  - image: nginx:1.27")) ||
            md.contains(QStringLiteral("nginx:1.27\n")));
    QVERIFY(md.contains(QStringLiteral("| 2 | 4 |")));
    QVERIFY(md.contains(QStringLiteral("| alice | rollback | default/web |")));
    // Markdown table cells cannot be broken by user text.
    QVERIFY(md.contains(QStringLiteral("\\| pipe")));
    QVERIFY(!md.contains(QStringLiteral("<script>")));
}

void TestHistoryReport::htmlEscapesUserText()
{
    const QString html = QString::fromStdString(sample().html());
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(html.trimmed().endsWith(QStringLiteral("</html>")));
    QVERIFY(!html.contains(QStringLiteral("<script>")));
    QVERIFY(html.contains(QStringLiteral("initial &lt;script&gt;alert(1)&lt;/script&gt; | pipe")));
    QVERIFY(html.contains(QStringLiteral("upgrade &amp; &quot;quote&quot;")));
    QVERIFY(html.contains(QStringLiteral("scenario &lt;test&gt;.yaml")));
    QVERIFY(html.contains(QStringLiteral("<tr class=\"removed\">")));
    QVERIFY(html.contains(QStringLiteral("Revision 2 &rarr; 4")));
    QVERIFY(!html.contains(QStringLiteral("http://")) &&
            !html.contains(QStringLiteral("https://"))); // self-contained
}

void TestHistoryReport::jsonHoldsRevisionsDiffsRolloutsAndActions()
{
    QJsonParseError error;
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(sample().json()), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject o = doc.object();
    QCOMPARE(o.value(QStringLiteral("daemonSet")).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("web"));
    const QJsonArray revs = o.value(QStringLiteral("revisions")).toArray();
    QCOMPARE(revs.size(), 3);
    QCOMPARE(revs[0].toObject().value(QStringLiteral("revision")).toInt(), 1);
    QCOMPARE(revs[2].toObject().value(QStringLiteral("previousNumbers")).toArray().first().toInt(), 3);
    QVERIFY(revs[0].toObject().value(QStringLiteral("removed")).toBool());
    QCOMPARE(revs[0].toObject().value(QStringLiteral("changeCause")).toString(),
             QStringLiteral("initial <script>alert(1)</script> | pipe"));
    const QJsonArray diffs = o.value(QStringLiteral("diffs")).toArray();
    QCOMPARE(diffs.size(), 2);
    QCOMPARE(diffs[1].toObject().value(QStringLiteral("from")).toInt(), 2);
    QCOMPARE(diffs[1].toObject().value(QStringLiteral("to")).toInt(), 4);
    QVERIFY(!diffs[1].toObject().value(QStringLiteral("summary")).toArray().isEmpty());
    QVERIFY(diffs[1]
                .toObject()
                .value(QStringLiteral("unified"))
                .toString()
                .contains(QStringLiteral("nginx:1.27")));
    const QJsonObject rollout = o.value(QStringLiteral("rollouts")).toArray().first().toObject();
    QCOMPARE(rollout.value(QStringLiteral("durationMs")).toInt(), 60000);
    QCOMPARE(rollout.value(QStringLiteral("meanNodeMs")).toInt(), 10000);
    QCOMPARE(rollout.value(QStringLiteral("nodes")).toArray().size(), 2);
    const QJsonObject action = o.value(QStringLiteral("actions")).toArray().first().toObject();
    QCOMPARE(action.value(QStringLiteral("user")).toString(), QStringLiteral("alice"));
    QCOMPARE(action.value(QStringLiteral("outcome")).toString(), QStringLiteral("rolled back"));
}

void TestHistoryReport::escaping_data()
{
    QTest::addColumn<QString>("changeCause");
    QTest::addColumn<QString>("inHtml");
    QTest::addColumn<QString>("inMarkdown");
    QTest::newRow("angle brackets are entities in HTML and escaped in Markdown")
        << QStringLiteral("<b>") << QStringLiteral("&lt;b&gt;") << QStringLiteral("\\<b\\>");
    QTest::newRow("an ampersand is an entity in HTML")
        << QStringLiteral("a & b") << QStringLiteral("a &amp; b") << QStringLiteral("a & b");
    QTest::newRow("a line break does not break a Markdown table row")
        << QStringLiteral("one\ntwo") << QStringLiteral("one\ntwo") << QStringLiteral("one two");
    QTest::newRow("backticks and stars are escaped in Markdown")
        << QStringLiteral("`x` *y*") << QStringLiteral("`x` *y*") << QStringLiteral("\\`x\\` \\*y\\*");
    QTest::newRow("non-ASCII text passes through")
        << QStringLiteral("Größe → neu") << QStringLiteral("Größe → neu") << QStringLiteral("Größe → neu");
}

void TestHistoryReport::escaping()
{
    QFETCH(QString, changeCause);
    QFETCH(QString, inHtml);
    QFETCH(QString, inMarkdown);
    diff::HistoryReport r;
    r.name = "web";
    r.namespace_ = "default";
    r.revisions = {{1, "web-a", "a", 0, changeCause.toStdString(), "x:1", tmpl("x:1"), true, false, {}, 0}};
    QVERIFY(QString::fromStdString(r.html()).contains(inHtml));
    QVERIFY(QString::fromStdString(r.markdown()).contains(inMarkdown));
    QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(r.json()))
                 .object()
                 .value(QStringLiteral("revisions"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("changeCause"))
                 .toString(),
             changeCause);
}

// A rollout recorded as 2 → 3 whose target a rollback has since renumbered 4: the tables name
// the revision as the revision table does, with the number it had then; the JSON keeps both.
void TestHistoryReport::rolloutsNameTheNumbersRevisionsHaveNow()
{
    diff::HistoryReport r = sample();
    diff::HistoryRollout ro;
    ro.fromRevision = 2;
    ro.toRevision = 3;
    ro.fromHash = "bbb";
    ro.toHash = "ccc"; // revision 4 now, previously 3
    ro.started = 1767225700000;
    ro.completed = 1767225760000;
    r.rollouts = {ro};
    const QString md = QString::fromStdString(r.markdown());
    QVERIFY2(md.contains(QStringLiteral("| 2 | 4 (then 3) |")), qPrintable(md));
    QVERIFY(QString::fromStdString(r.html()).contains(QStringLiteral("<td>4 (then 3)</td>")));
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.json()));
    const QJsonObject j = doc.object().value(QStringLiteral("rollouts")).toArray().first().toObject();
    QCOMPARE(j.value(QStringLiteral("toRevision")).toInt(), 3);
    QCOMPARE(j.value(QStringLiteral("toRevisionNow")).toInt(), 4);
    QCOMPARE(j.value(QStringLiteral("fromRevisionNow")).toInt(), 2);
    // A hash the report does not know keeps the recorded number alone.
    r.rollouts.front().toHash = "zzz";
    QVERIFY(QString::fromStdString(r.markdown()).contains(QStringLiteral("| 2 | 3 |")));
    QVERIFY(QJsonDocument::fromJson(QByteArray::fromStdString(r.json()))
                .object()
                .value(QStringLiteral("rollouts"))
                .toArray()
                .first()
                .toObject()
                .value(QStringLiteral("toRevisionNow"))
                .isNull());
}

QTEST_GUILESS_MAIN(TestHistoryReport)
#include "tst_historyreport.moc"
