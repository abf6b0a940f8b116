// The side-by-side template diff: semantic summary on top, aligned panes with line and
// intra-line highlights, change navigation by buttons and shortcuts, synchronised scrolling,
// and the "hide server noise" switch.

#include "ui/diffpane.h"
#include "ui/diffview.h"

#include <QCheckBox>
#include <QDir>
#include <QFontMetrics>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using gui::DiffPane;
using gui::DiffView;
using kube::Json;
using namespace Qt::Literals::StringLiterals;

namespace {

Json agentTemplate(const std::string &image, bool withB, bool defaulted)
{
    Json env = Json::array({{{"name", "A"}, {"value", "1"}}});
    if (withB)
        env.push_back({{"name", "B"}, {"value", "2"}});
    Json container = {{"name", "agent"},
                      {"image", image},
                      {"env", env},
                      // Sits between env and image in the YAML, so the two changes are two blocks.
                      {"envFrom", Json::array({{{"configMapRef", {{"name", "agent-config"}}}}})}};
    Json spec = {{"containers", Json::array({container})}};
    if (defaulted) {
        spec["containers"][0]["imagePullPolicy"] = "IfNotPresent";
        spec["containers"][0]["terminationMessagePath"] = "/dev/termination-log";
        spec["containers"][0]["terminationMessagePolicy"] = "File";
        spec["restartPolicy"] = "Always";
        spec["dnsPolicy"] = "ClusterFirst";
        spec["schedulerName"] = "default-scheduler";
        spec["terminationGracePeriodSeconds"] = 30;
    }
    return {{"metadata", {{"labels", {{"app", "agent"}}}}}, {"spec", spec}};
}

void maybeSave(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("DAEMONSCOPE_SCREENSHOTS");
    if (!dir.isEmpty())
        w->grab().save(QDir(dir).filePath(name));
}

int rowOf(const DiffPane *pane, const QString &text)
{
    for (int i = 0; i < pane->lines().size(); ++i) {
        if (pane->lines()[i].text.contains(text))
            return i;
    }
    return -1;
}

} // namespace

class TestDiffView : public QObject
{
    Q_OBJECT

private slots:
    void summarizesAndAlignsAnImageAndAnEnvChange()
    {
        DiffView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTemplates(u"agent@rev1"_s, agentTemplate("agent:1.0", false, false), u"agent@rev2"_s,
                          agentTemplate("agent:1.1", true, false));
        maybeSave(&view, u"views-diff.png"_s);

        const QStringList summary = view.summaryLines();
        QCOMPARE(summary.size(), 2);
        QVERIFY2(summary.contains(u"agent: image agent:1.0 → agent:1.1"_s), qPrintable(summary.join(u'\n')));
        QVERIFY2(summary.filter(u"env B added"_s).size() == 1, qPrintable(summary.join(u'\n')));
        QCOMPARE(view.changeCount(), 2);
        QCOMPARE(view.currentChange(), 0);

        // Both panes have the same rows; the added env lines face filler rows.
        DiffPane *left = view.leftPane();
        DiffPane *right = view.rightPane();
        QCOMPARE(left->lines().size(), right->lines().size());
        QCOMPARE(left->document()->blockCount(), right->document()->blockCount());
        const int added = rowOf(right, u"name: B"_s);
        QVERIFY(added >= 0);
        QCOMPARE(right->lines()[added].kind, DiffPane::LineKind::Added);
        QCOMPARE(left->lines()[added].kind, DiffPane::LineKind::Filler);
        QCOMPARE(left->lines()[added].number, 0);

        // The image line is changed on both sides with the version marked inside the line.
        const int image = rowOf(left, u"image:"_s);
        QCOMPARE(rowOf(right, u"image:"_s), image);
        QCOMPARE(left->lines()[image].kind, DiffPane::LineKind::Changed);
        const auto &l = left->lines()[image];
        const auto &r = right->lines()[image];
        QVERIFY(!l.changed.isEmpty());
        QVERIFY(!r.changed.isEmpty());
        QString oldPart;
        for (const auto &[start, length] : l.changed)
            oldPart += l.text.mid(start, length);
        QString newPart;
        for (const auto &[start, length] : r.changed)
            newPart += r.text.mid(start, length);
        QVERIFY2(oldPart.contains(u'0') && !oldPart.contains(u"agent"_s), qPrintable(oldPart));
        QVERIFY2(newPart.contains(u'1') && !newPart.contains(u"agent"_s), qPrintable(newPart));
        // Line numbers count each side's own lines.
        QCOMPARE(left->lines()[image].number + 2, right->lines()[image].number);

        // Each summary entry leads to the block that shows it.
        const int imageEntry = static_cast<int>(summary.indexOf(u"agent: image agent:1.0 → agent:1.1"_s));
        const int envEntry = 1 - imageEntry;
        QCOMPARE(view.changeForSummary(imageEntry), 1);
        QCOMPARE(view.changeForSummary(envEntry), 0);
        QCOMPARE(view.changeForSummary(5), -1);
    }

    void navigatesBetweenChanges_data()
    {
        QTest::addColumn<QList<int>>("steps"); // +1 next, -1 previous
        QTest::addColumn<int>("expected");

        QTest::newRow("it starts at the first change") << QList<int>{} << 0;
        QTest::newRow("next moves to the second change") << QList<int>{1} << 1;
        QTest::newRow("next at the last change stays there") << QList<int>{1, 1, 1} << 1;
        QTest::newRow("previous goes back") << QList<int>{1, -1} << 0;
        QTest::newRow("previous at the first change stays there") << QList<int>{-1} << 0;
    }

    void navigatesBetweenChanges()
    {
        QFETCH(QList<int>, steps);
        QFETCH(int, expected);
        DiffView view;
        view.setTemplates(u"a"_s, agentTemplate("agent:1.0", false, false), u"b"_s,
                          agentTemplate("agent:1.1", true, false));
        for (int s : steps)
            s > 0 ? view.nextChange() : view.previousChange();
        QCOMPARE(view.currentChange(), expected);
        const auto [first, last] = view.changeRows(expected);
        QVERIFY(first >= 0 && last >= first);
        QCOMPARE(view.leftPane()->textCursor().blockNumber(), first);
        QCOMPARE(view.rightPane()->textCursor().blockNumber(), first);
    }

    void shortcutsMoveBetweenChanges_data()
    {
        QTest::addColumn<QKeySequence>("forward");
        QTest::addColumn<QKeySequence>("back");
        QTest::newRow("F7 and Shift+F7") << QKeySequence(Qt::Key_F7) << QKeySequence(Qt::SHIFT | Qt::Key_F7);
        QTest::newRow("Alt+Down and Alt+Up")
            << QKeySequence(Qt::ALT | Qt::Key_Down) << QKeySequence(Qt::ALT | Qt::Key_Up);
    }

    void shortcutsMoveBetweenChanges()
    {
        QFETCH(QKeySequence, forward);
        QFETCH(QKeySequence, back);
        DiffView view;
        view.setTemplates(u"a"_s, agentTemplate("agent:1.0", false, false), u"b"_s,
                          agentTemplate("agent:1.1", true, false));
        view.show();
        view.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        view.leftPane()->setFocus();
        QSignalSpy spy(&view, &DiffView::currentChangeChanged);
        QTest::keySequence(view.leftPane(), forward);
        QCOMPARE(view.currentChange(), 1);
        QTest::keySequence(view.leftPane(), back);
        QCOMPARE(view.currentChange(), 0);
        QCOMPARE(spy.count(), 2);
    }

    void hidesServerNoise_data()
    {
        QTest::addColumn<bool>("realChange");
        QTest::addColumn<int>("changesWhenHidden");
        QTest::addColumn<int>("summaryWhenHidden");

        QTest::newRow("defaults-only differences disappear") << false << 0 << 0;
        QTest::newRow("a real change survives hiding the noise") << true << 1 << 1;
    }

    void hidesServerNoise()
    {
        QFETCH(bool, realChange);
        QFETCH(int, changesWhenHidden);
        QFETCH(int, summaryWhenHidden);
        DiffView view;
        view.resize(900, 600);
        QSignalSpy toggled(&view, &DiffView::hideServerNoiseChanged);
        // As the API server stores it (defaulted) against the manifest that created it.
        view.setTemplates(u"cluster"_s, agentTemplate("agent:1.0", false, true), u"manifest"_s,
                          agentTemplate(realChange ? "agent:1.1" : "agent:1.0", false, false));
        QVERIFY(view.changeCount() > 0);
        QVERIFY(view.summaryLines().size() > summaryWhenHidden);

        auto *box = view.findChild<QCheckBox *>();
        QVERIFY(box);
        box->setChecked(true);
        QVERIFY(view.hideServerNoise());
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(view.changeCount(), changesWhenHidden);
        QCOMPARE(view.summaryLines().size(), summaryWhenHidden);
        QCOMPARE(view.currentChange(), changesWhenHidden > 0 ? 0 : -1);
        QCOMPARE(view.templateDiff().ignoreServerNoise, true);
        if (!realChange) {
            view.show();
            maybeSave(&view, u"views-diff-noise-hidden.png"_s);
        }

        view.setHideServerNoise(false);
        QVERIFY(!box->isChecked());
        QVERIFY(view.changeCount() > changesWhenHidden);
    }

    void identicalTemplatesHaveNoChanges()
    {
        DiffView view;
        const Json t = agentTemplate("agent:1.0", true, false);
        view.setTemplates(u"a"_s, t, u"b"_s, t);
        QCOMPARE(view.changeCount(), 0);
        QCOMPARE(view.currentChange(), -1);
        QVERIFY(view.summaryLines().isEmpty());
        view.nextChange();
        QCOMPARE(view.currentChange(), -1);
    }

    void scrollsBothPanesTogether()
    {
        DiffView view;
        view.resize(700, 260);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        Json big = agentTemplate("agent:1.0", false, false);
        for (int i = 0; i < 80; ++i)
            big["metadata"]["annotations"]["note-" + std::to_string(i)] = "value";
        Json changed = big;
        changed["spec"]["containers"][0]["image"] = "agent:2.0";
        view.setTemplates(u"a"_s, big, u"b"_s, changed);
        QScrollBar *left = view.leftPane()->verticalScrollBar();
        QScrollBar *right = view.rightPane()->verticalScrollBar();
        QVERIFY(left->maximum() > 0);
        left->setValue(5);
        QCOMPARE(right->value(), 5);
        right->setValue(left->maximum());
        QCOMPARE(left->value(), left->maximum());
    }

    // A tag changed at the end of a line longer than the pane is scrolled into view, in both
    // panes, instead of sitting past the right edge.
    void revealsAChangeBeyondTheRightEdge()
    {
        DiffView view;
        view.resize(520, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const std::string repo = "registry.example.com/some/very/long/path/to/the/node-agent-image:";
        view.setTemplates(u"a"_s, agentTemplate(repo + "v1.8.2", false, false), u"b"_s,
                          agentTemplate(repo + "v1.9.0", false, false));
        QCOMPARE(view.currentChange(), 0);
        QScrollBar *left = view.leftPane()->horizontalScrollBar();
        QTRY_VERIFY(left->value() > 0);
        QCOMPARE(view.rightPane()->horizontalScrollBar()->value(), left->value());
        // The changed characters lie inside the visible part of the right pane.
        const DiffPane *pane = view.rightPane();
        const int row = rowOf(pane, u"v1.9.0"_s);
        QVERIFY(row >= 0);
        const auto &line = pane->lines()[row];
        QVERIFY(!line.changed.isEmpty());
        const QFontMetrics fm(pane->font());
        const int end =
            fm.horizontalAdvance(line.text.left(line.changed.back().first + line.changed.back().second));
        QVERIFY2(end <= left->value() + pane->viewport()->width(),
                 qPrintable(u"%1 > %2 + %3"_s.arg(end).arg(left->value()).arg(pane->viewport()->width())));
        // A short change needs no sideways scrolling.
        view.setTemplates(u"a"_s, agentTemplate("agent:1.0", false, false), u"b"_s,
                          agentTemplate("agent:2.0", false, false));
        QTRY_COMPARE(left->value(), 0);
    }

    void followsTheLanguageAndPaletteOfItsPanes()
    {
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        const QColor added = DiffPane::lineColor(DiffPane::LineKind::Added, dark);
        QVERIFY(added.lightness() < 100); // a dark green on a dark theme, not a pastel
        QVERIFY(added.green() > added.red());
        QPalette light;
        light.setColor(QPalette::Base, Qt::white);
        QVERIFY(DiffPane::lineColor(DiffPane::LineKind::Removed, light).lightness() > 180);
        QVERIFY(!DiffPane::lineColor(DiffPane::LineKind::Equal, light).isValid());
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diffview.moc"
