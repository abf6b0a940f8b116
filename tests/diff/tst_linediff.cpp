// Line diff: edit scripts reproduce the new text and are minimal, hunks apply, intra-line
// segments and side-by-side rows pair the right lines.

#include "models/diff/linediff.h"

#include <QTest>

#include <random>
#include <string_view>

using namespace Qt::Literals::StringLiterals;

using namespace diff;

namespace {

QStringList toQt(const std::vector<std::string> &lines)
{
    QStringList out;
    for (const auto &l : lines)
        out << QString::fromStdString(l);
    return out;
}

std::vector<std::string> lettersToLines(const QString &letters)
{
    std::vector<std::string> out;
    for (QChar c : letters)
        out.push_back(std::string(1, c.toLatin1()));
    return out;
}

// "=a -b +c" notation of an edit script.
QString script(const std::vector<DiffLine> &lines)
{
    QStringList parts;
    for (const auto &l : lines) {
        const char op = l.op == LineOp::Equal ? '=' : l.op == LineOp::Insert ? '+' : '-';
        parts << QLatin1Char(op) + QString::fromStdString(l.text);
    }
    return parts.join(QLatin1Char(' '));
}

// Replays the script over a: returns the new text, or an empty optional when the script does
// not match a (wrong text, wrong order, wrong line numbers).
std::optional<std::vector<std::string>> applyScript(const std::vector<std::string> &a,
                                                    const std::vector<DiffLine> &lines)
{
    std::vector<std::string> out;
    int i = 0;
    for (const auto &l : lines) {
        if (l.op == LineOp::Insert) {
            if (l.oldLine != -1 || l.newLine != static_cast<int>(out.size()))
                return std::nullopt;
            out.push_back(l.text);
            continue;
        }
        if (i >= static_cast<int>(a.size()) || l.oldLine != i || a[i] != l.text)
            return std::nullopt;
        ++i;
        if (l.op == LineOp::Equal) {
            if (l.newLine != static_cast<int>(out.size()))
                return std::nullopt;
            out.push_back(l.text);
        } else if (l.newLine != -1) {
            return std::nullopt;
        }
    }
    if (i != static_cast<int>(a.size()))
        return std::nullopt;
    return out;
}

// Applies hunks the way patch(1) does, checking context and the header line numbers.
std::optional<std::vector<std::string>> applyHunks(const std::vector<std::string> &a,
                                                   const std::vector<Hunk> &hunks)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    for (const auto &h : hunks) {
        const std::size_t start = h.oldCount == 0 ? h.oldStart : h.oldStart - 1;
        if (start < pos || start > a.size())
            return std::nullopt;
        out.insert(out.end(), a.begin() + pos, a.begin() + start);
        pos = start;
        const std::size_t newStart = h.newCount == 0 ? h.newStart : h.newStart - 1;
        if (out.size() != newStart)
            return std::nullopt;
        int oldCount = 0, newCount = 0;
        for (const auto &l : h.lines) {
            if (l.op != LineOp::Insert) {
                if (pos >= a.size() || a[pos] != l.text)
                    return std::nullopt;
                ++pos;
                ++oldCount;
            }
            if (l.op != LineOp::Delete) {
                out.push_back(l.text);
                ++newCount;
            }
        }
        if (oldCount != h.oldCount || newCount != h.newCount)
            return std::nullopt;
    }
    out.insert(out.end(), a.begin() + pos, a.end());
    return out;
}

int lcsLength(const std::vector<std::string> &a, const std::vector<std::string> &b)
{
    std::vector<std::vector<int>> dp(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j)
            dp[i][j] = a[i - 1] == b[j - 1] ? dp[i - 1][j - 1] + 1 : std::max(dp[i - 1][j], dp[i][j - 1]);
    return dp[a.size()][b.size()];
}

std::vector<std::string> randomLines(std::mt19937 &rng, int maxLength, int alphabet)
{
    std::uniform_int_distribution<int> length(0, maxLength);
    std::uniform_int_distribution<int> letter(0, alphabet - 1);
    std::vector<std::string> out(length(rng));
    for (auto &l : out)
        l = std::string(1, static_cast<char>('a' + letter(rng)));
    return out;
}

// b as a mutation of a: some lines deleted, replaced or inserted.
std::vector<std::string> mutate(std::mt19937 &rng, const std::vector<std::string> &a, int percent)
{
    std::uniform_int_distribution<int> dice(0, 99);
    std::vector<std::string> b;
    for (const auto &l : a) {
        const int roll = dice(rng);
        if (roll < percent / 3)
            continue;
        if (roll < 2 * percent / 3)
            b.push_back(l + "'");
        else
            b.push_back(l);
        if (dice(rng) < percent / 3)
            b.push_back("new " + std::to_string(dice(rng)));
    }
    return b;
}

} // namespace

class TestLineDiff : public QObject
{
    Q_OBJECT

private slots:
    void splitsLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("an empty text has no lines") << QString() << QStringList();
        QTest::newRow("a lone newline is one empty line") << QStringLiteral("\n") << QStringList{QString()};
        QTest::newRow("a trailing newline does not add a line")
            << QStringLiteral("a\nb\n") << QStringList{u"a"_s, u"b"_s};
        QTest::newRow("a missing trailing newline keeps the last line")
            << QStringLiteral("a\nb") << QStringList{u"a"_s, u"b"_s};
        QTest::newRow("empty lines in the middle are kept")
            << QStringLiteral("a\n\n\nb\n") << QStringList{u"a"_s, QString(), QString(), u"b"_s};
        QTest::newRow("carriage returns stay part of the line")
            << QStringLiteral("a\r\nb\r\n") << QStringList{u"a\r"_s, u"b\r"_s};
    }
    void splitsLines()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, lines);
        QCOMPARE(toQt(splitLines(text.toStdString())), lines);
    }

    void diffsLines_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("expected");
        QTest::newRow("equal texts are all Equal") << "abc"
                                                   << "abc"
                                                   << "=a =b =c";
        QTest::newRow("both empty gives an empty script") << ""
                                                          << ""
                                                          << "";
        QTest::newRow("everything inserted into an empty text") << ""
                                                                << "ab"
                                                                << "+a +b";
        QTest::newRow("everything deleted") << "ab"
                                            << ""
                                            << "-a -b";
        QTest::newRow("a replaced line deletes before it inserts") << "abc"
                                                                   << "aXc"
                                                                   << "=a -b +X =c";
        QTest::newRow("an insertion at the top") << "bc"
                                                 << "abc"
                                                 << "+a =b =c";
        QTest::newRow("a deletion at the end") << "abc"
                                               << "ab"
                                               << "=a =b -c";
        QTest::newRow("disjoint texts delete all then insert all") << "ab"
                                                                   << "xy"
                                                                   << "-a -b +x +y";
        QTest::newRow("a moved line is a delete and an insert") << "abcd"
                                                                << "bcda"
                                                                << "-a =b =c =d +a";
    }
    void diffsLines()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, expected);
        QCOMPARE(script(diffLines(lettersToLines(a), lettersToLines(b))), expected);
    }

    // The edit script replays a into b and is a shortest one (checked against an O(NM) LCS).
    void scriptReproducesNewTextAndIsMinimal_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("alphabet");
        QTest::newRow("small alphabet, many repeats") << 1 << 3;
        QTest::newRow("medium alphabet") << 2 << 8;
        QTest::newRow("large alphabet, few matches") << 3 << 26;
    }
    void scriptReproducesNewTextAndIsMinimal()
    {
        QFETCH(int, seed);
        QFETCH(int, alphabet);
        std::mt19937 rng(seed);
        for (int round = 0; round < 250; ++round) {
            const auto a = randomLines(rng, 40, alphabet);
            const auto b = round % 2 ? randomLines(rng, 40, alphabet) : mutate(rng, a, 30);
            const auto lines = diffLines(a, b);
            const auto replayed = applyScript(a, lines);
            QVERIFY2(replayed.has_value(),
                     qPrintable(QStringLiteral("round %1: script does not match a").arg(round)));
            QCOMPARE(toQt(*replayed), toQt(b));
            const auto edits = std::count_if(lines.begin(), lines.end(),
                                             [](const DiffLine &l) { return l.op != LineOp::Equal; });
            QCOMPARE(int(edits), int(a.size() + b.size()) - 2 * lcsLength(a, b));

            for (int context : {0, 1, 3}) {
                const auto patched = applyHunks(a, makeHunks(lines, context));
                QVERIFY2(
                    patched.has_value(),
                    qPrintable(
                        QStringLiteral("round %1 context %2: hunks do not apply").arg(round).arg(context)));
                QCOMPARE(toQt(*patched), toQt(b));
            }
        }
    }

    // Lines kept by the caller: the same script, each line named by its index instead of copied.
    void numbersTheLinesOfTheSameScript()
    {
        std::mt19937 rng(7);
        for (int round = 0; round < 100; ++round) {
            const auto a = randomLines(rng, 40, 5);
            const auto b = round % 2 ? randomLines(rng, 30, 5) : mutate(rng, a, 30);
            const auto lines = diffLines(a, b);
            const auto numbered = diffLineNumbers(std::vector<std::string_view>(a.begin(), a.end()),
                                                  std::vector<std::string_view>(b.begin(), b.end()));
            QCOMPARE(numbered.size(), lines.size());
            for (std::size_t i = 0; i < lines.size(); ++i) {
                QVERIFY(numbered[i].text.empty());
                QCOMPARE(int(numbered[i].op), int(lines[i].op));
                QCOMPARE(numbered[i].oldLine, lines[i].oldLine);
                QCOMPARE(numbered[i].newLine, lines[i].newLine);
            }
        }
    }

    void largeTextsRoundTrip()
    {
        std::mt19937 rng(42);
        std::vector<std::string> a;
        for (int i = 0; i < 5000; ++i)
            a.push_back("  key" + std::to_string(i % 700) + ": value" + std::to_string(rng() % 50));
        const auto b = mutate(rng, a, 10);
        const auto lines = diffLines(a, b);
        const auto replayed = applyScript(a, lines);
        QVERIFY(replayed.has_value());
        QCOMPARE(toQt(*replayed), toQt(b));
        const auto disjoint = lettersToLines(QString(3000, QLatin1Char('x')));
        const auto other = lettersToLines(QString(3000, QLatin1Char('y')));
        QCOMPARE(int(diffLines(disjoint, other).size()), 6000);
    }

    void makesHunks_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("context");
        QTest::addColumn<QStringList>("headers");
        QTest::newRow("no change, no hunk") << "abc"
                                            << "abc" << 3 << QStringList();
        QTest::newRow("one change with context") << "abcdefghij"
                                                 << "abcdeXghij" << 2 << QStringList{u"-4,5 +4,5"_s};
        QTest::newRow("changes far apart make two hunks") << "abcdefghijklmnop"
                                                          << "Xbcdefghijklmnop"
                                                             ""
                                                          << 1 << QStringList{u"-1,2 +1,2"_s};
        QTest::newRow("changes within twice the context share a hunk")
            << "abcdefgh"
            << "Xbcdefgh" << 3 << QStringList{u"-1,4 +1,4"_s};
        QTest::newRow("two separate hunks") << "abcdefghijkl"
                                            << "Xbcdefghijkl"
                                               "Y"
                                            << 1 << QStringList{u"-1,2 +1,2"_s, u"-12,1 +12,2"_s};
        QTest::newRow("insertion into an empty file starts at 0") << ""
                                                                  << "ab" << 3 << QStringList{u"-0,0 +1,2"_s};
        QTest::newRow("deleting everything ends at 0") << "ab"
                                                       << "" << 3 << QStringList{u"-1,2 +0,0"_s};
        QTest::newRow("pure insertion after line 2 without context")
            << "abcd"
            << "abXcd" << 0 << QStringList{u"-2,0 +3,1"_s};
    }
    void makesHunks()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, context);
        QFETCH(QStringList, headers);
        QStringList actual;
        for (const auto &h : makeHunks(diffLines(lettersToLines(a), lettersToLines(b)), context))
            actual << QStringLiteral("-%1,%2 +%3,%4")
                          .arg(h.oldStart)
                          .arg(h.oldCount)
                          .arg(h.newStart)
                          .arg(h.newCount);
        QCOMPARE(actual, headers);
    }

    void diffsWords_data()
    {
        QTest::addColumn<QString>("oldLine");
        QTest::addColumn<QString>("newLine");
        QTest::addColumn<QString>("oldMarked"); // changed segments in [brackets]
        QTest::addColumn<QString>("newMarked");
        QTest::newRow("an image tag change marks only the tag") << "  image: nginx:1.26"
                                                                << "  image: nginx:1.27"
                                                                << "  image: nginx:1.[26]"
                                                                << "  image: nginx:1.[27]";
        QTest::newRow("equal lines have no changed segment") << "a b"
                                                             << "a b"
                                                             << "a b"
                                                             << "a b";
        QTest::newRow("an added word") << "value: a"
                                       << "value: a b"
                                       << "value: a"
                                       << "value: a[ b]";
        QTest::newRow("multi-byte characters are never split")
            << QStringLiteral("größe: 1") << QStringLiteral("grösse: 1") << QStringLiteral("[größe]: 1")
            << QStringLiteral("[grösse]: 1");
        QTest::newRow("punctuation between non-ASCII letters")
            << QStringLiteral("名前=値") << QStringLiteral("名前=新値") << QStringLiteral("名前=[値]")
            << QStringLiteral("名前=[新値]");
        QTest::newRow("an empty new line deletes everything") << "abc"
                                                              << ""
                                                              << "[abc]"
                                                              << "";
    }
    void diffsWords()
    {
        QFETCH(QString, oldLine);
        QFETCH(QString, newLine);
        QFETCH(QString, oldMarked);
        QFETCH(QString, newMarked);
        const auto [oldSegments, newSegments] = diffWords(oldLine.toStdString(), newLine.toStdString());
        auto mark = [](const std::vector<Segment> &segments, const QString &line) {
            std::string joined, marked;
            for (const auto &s : segments) {
                joined += s.text;
                marked += s.changed ? "[" + s.text + "]" : s.text;
            }
            [&] { QCOMPARE(QString::fromStdString(joined), line); }();
            return QString::fromStdString(marked);
        };
        QCOMPARE(mark(oldSegments, oldLine), oldMarked);
        QCOMPARE(mark(newSegments, newLine), newMarked);
    }

    void pairsSimilarLinesAcrossInsertions()
    {
        const auto rows = sideBySide(
            diffLines(splitLines("  value: info\n  image: nginx:1.26\n"),
                      splitLines("  value: debug\n- name: NODE\n  valueFrom:\n  image: nginx:1.27\n")));
        QStringList kinds;
        for (const auto &r : rows)
            kinds << QString::number(int(r.kind)) + QLatin1Char(':') + QString::number(r.leftLine) +
                         QLatin1Char('/') + QString::number(r.rightLine);
        QCOMPARE(kinds, (QStringList{u"1:0/0"_s, u"2:-1/1"_s, u"2:-1/2"_s, u"1:1/3"_s}));
    }

    // Every line of both sides appears exactly once, in order.
    void sideBySideCoversBothSides()
    {
        std::mt19937 rng(11);
        for (int round = 0; round < 200; ++round) {
            const auto a = randomLines(rng, 30, 6);
            const auto b = mutate(rng, a, 40);
            std::vector<std::string> left, right;
            for (const auto &r : sideBySide(diffLines(a, b))) {
                if (r.leftLine >= 0) {
                    QCOMPARE(r.leftLine, int(left.size()));
                    left.push_back(r.leftText);
                }
                if (r.rightLine >= 0) {
                    QCOMPARE(r.rightLine, int(right.size()));
                    right.push_back(r.rightText);
                }
                QCOMPARE(r.kind == RowKind::Changed,
                         !r.leftSegments.empty() || !r.rightSegments.empty() ||
                             (r.kind == RowKind::Changed && r.leftText.empty() && r.rightText.empty()));
            }
            QCOMPARE(toQt(left), toQt(a));
            QCOMPARE(toQt(right), toQt(b));
        }
    }

    void pairsSideBySide()
    {
        const auto rows = sideBySide(diffLines(splitLines("a\nb\nc\nd\n"), splitLines("a\nB\nC2\nX\nd\n")));
        // a | a, b|B, c|C2, (none)|X, d|d
        QStringList kinds;
        for (const auto &r : rows)
            kinds << QString::number(int(r.kind)) + QLatin1Char(':') + QString::number(r.leftLine) +
                         QLatin1Char('/') + QString::number(r.rightLine);
        QCOMPARE(kinds, (QStringList{u"0:0/0"_s, u"1:1/1"_s, u"1:2/2"_s, u"2:-1/3"_s, u"0:3/4"_s}));
        QCOMPARE(QString::fromStdString(rows[1].leftText), QStringLiteral("b"));
        QCOMPARE(QString::fromStdString(rows[1].rightText), QStringLiteral("B"));
        QCOMPARE(int(rows[1].leftSegments.size()), 1);
        QVERIFY(rows[1].leftSegments[0].changed);
        QVERIFY(rows[0].leftSegments.empty());

        const auto removed = sideBySide(diffLines(splitLines("a\nb\nc\n"), splitLines("a\nB\n")));
        QCOMPARE(int(removed.size()), 3);
        QCOMPARE(removed[2].kind, RowKind::Removed);
        QCOMPARE(removed[2].leftLine, 2);
        QCOMPARE(removed[2].rightLine, -1);
    }
};

QTEST_APPLESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
