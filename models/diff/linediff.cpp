#include "models/diff/linediff.h"

#include "models/diff/myers.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace diff {
namespace {

// Maps equal strings to equal ids so the search compares integers.
class Interner
{
public:
    int id(std::string_view s)
    {
        const auto [it, inserted] = m_ids.try_emplace(s, static_cast<int>(m_ids.size()));
        return it->second;
    }

private:
    std::unordered_map<std::string_view, int> m_ids;
};

bool isWordByte(unsigned char c)
{
    return c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

bool isSpaceByte(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::vector<std::string_view> tokenize(std::string_view line)
{
    std::vector<std::string_view> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        const auto c = static_cast<unsigned char>(line[i]);
        std::size_t j = i + 1;
        if (isWordByte(c)) {
            while (j < line.size() && isWordByte(static_cast<unsigned char>(line[j])))
                ++j;
        } else if (isSpaceByte(c)) {
            while (j < line.size() && isSpaceByte(static_cast<unsigned char>(line[j])))
                ++j;
        }
        tokens.push_back(line.substr(i, j - i));
        i = j;
    }
    return tokens;
}

void appendSegment(std::vector<Segment> &segments, bool changed, std::string_view text)
{
    if (!segments.empty() && segments.back().changed == changed)
        segments.back().text.append(text);
    else
        segments.push_back({changed, std::string(text)});
}

// How alike two lines are, 0..1: the share of non-blank text the word diff keeps. Indentation
// is ignored so that "  image: a" and "  - name: b" do not look alike.
double similarity(const std::string &a, const std::string &b)
{
    const auto [left, right] = diffWords(a, b);
    auto measure = [](const std::vector<Segment> &segments, bool onlyEqual) {
        std::size_t n = 0;
        for (const auto &s : segments)
            if (!onlyEqual || !s.changed)
                for (char c : s.text)
                    n += isSpaceByte(static_cast<unsigned char>(c)) ? 0 : 1;
        return n;
    };
    const std::size_t total = measure(left, false) + measure(right, false);
    if (total == 0)
        return 1.0;
    return double(measure(left, true) + measure(right, true)) / double(total);
}

// Order-preserving pairs of similar deleted/inserted lines with the largest total similarity
// (a small sequence alignment). Large blocks are left to in-order pairing.
std::vector<std::pair<std::size_t, std::size_t>> alignSimilar(const std::vector<const DiffLine *> &deleted,
                                                              const std::vector<const DiffLine *> &inserted)
{
    constexpr double threshold = 0.5;
    constexpr std::size_t maxCells = 10000;
    const std::size_t n = deleted.size(), m = inserted.size();
    if (n == 0 || m == 0 || n * m > maxCells)
        return {};
    std::vector<double> sim(n * m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j)
            sim[i * m + j] = similarity(deleted[i]->text, inserted[j]->text);
    std::vector<double> score((n + 1) * (m + 1), 0.0);
    auto at = [&](std::size_t i, std::size_t j) -> double & { return score[i * (m + 1) + j]; };
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            double best = std::max(at(i - 1, j), at(i, j - 1));
            const double s = sim[(i - 1) * m + (j - 1)];
            if (s >= threshold)
                best = std::max(best, at(i - 1, j - 1) + s);
            at(i, j) = best;
        }
    }
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::size_t i = n, j = m;
    while (i > 0 && j > 0) {
        const double s = sim[(i - 1) * m + (j - 1)];
        if (s >= threshold && at(i, j) == at(i - 1, j - 1) + s) {
            pairs.emplace_back(i - 1, j - 1);
            --i;
            --j;
        } else if (at(i, j) == at(i - 1, j)) {
            --i;
        } else {
            --j;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace

std::vector<DiffLine> diffLineNumbers(const std::vector<std::string_view> &a,
                                      const std::vector<std::string_view> &b)
{
    Interner interner;
    std::vector<int> ia, ib;
    ia.reserve(a.size());
    ib.reserve(b.size());
    for (const auto line : a)
        ia.push_back(interner.id(line));
    for (const auto line : b)
        ib.push_back(interner.id(line));
    const EditFlags flags = myersDiff(ia, ib);

    std::vector<DiffLine> result;
    result.reserve(std::max(a.size(), b.size()));
    int i = 0, j = 0;
    const int n = static_cast<int>(a.size());
    const int m = static_cast<int>(b.size());
    while (i < n || j < m) {
        if (i < n && flags.deleted[i]) {
            result.push_back({LineOp::Delete, i, -1, {}});
            ++i;
        } else if (j < m && flags.inserted[j]) {
            result.push_back({LineOp::Insert, -1, j, {}});
            ++j;
        } else {
            result.push_back({LineOp::Equal, i, j, {}});
            ++i;
            ++j;
        }
    }
    return result;
}

std::vector<DiffLine> diffLines(const std::vector<std::string> &a, const std::vector<std::string> &b)
{
    std::vector<DiffLine> result = diffLineNumbers(std::vector<std::string_view>(a.begin(), a.end()),
                                                   std::vector<std::string_view>(b.begin(), b.end()));
    for (DiffLine &line : result)
        line.text = line.op == LineOp::Insert ? b[line.newLine] : a[line.oldLine];
    return result;
}

std::vector<Hunk> makeHunks(const std::vector<DiffLine> &lines, int context)
{
    context = std::max(context, 0);
    std::vector<Hunk> hunks;
    const int total = static_cast<int>(lines.size());
    int pos = 0;
    while (pos < total) {
        // Find the next change.
        while (pos < total && lines[pos].op == LineOp::Equal)
            ++pos;
        if (pos == total)
            break;
        const int begin = std::max(0, pos - context);
        // Extend over changes separated by at most 2 * context equal lines.
        int end = pos;
        while (true) {
            while (end < total && lines[end].op != LineOp::Equal)
                ++end;
            int equalRun = 0;
            while (end + equalRun < total && lines[end + equalRun].op == LineOp::Equal)
                ++equalRun;
            if (end + equalRun < total && equalRun <= 2 * context) {
                end += equalRun;
                continue;
            }
            end = std::min(total, end + context);
            break;
        }

        Hunk hunk;
        // Position before the hunk on each side = lines of that side preceding `begin`.
        int oldBefore = 0, newBefore = 0;
        for (int k = begin; k < end; ++k) {
            if (lines[k].oldLine >= 0) {
                oldBefore = lines[k].oldLine;
                break;
            }
        }
        for (int k = begin; k < end; ++k) {
            if (lines[k].newLine >= 0) {
                newBefore = lines[k].newLine;
                break;
            }
        }
        for (int k = begin; k < end; ++k) {
            hunk.lines.push_back(lines[k]);
            if (lines[k].op != LineOp::Insert)
                ++hunk.oldCount;
            if (lines[k].op != LineOp::Delete)
                ++hunk.newCount;
        }
        // A side with no lines in the hunk still needs its position: count the lines before.
        if (hunk.oldCount == 0) {
            oldBefore = 0;
            for (int k = 0; k < begin; ++k)
                oldBefore += lines[k].op != LineOp::Insert ? 1 : 0;
        }
        if (hunk.newCount == 0) {
            newBefore = 0;
            for (int k = 0; k < begin; ++k)
                newBefore += lines[k].op != LineOp::Delete ? 1 : 0;
        }
        hunk.oldStart = hunk.oldCount == 0 ? oldBefore : oldBefore + 1;
        hunk.newStart = hunk.newCount == 0 ? newBefore : newBefore + 1;
        hunks.push_back(std::move(hunk));
        pos = end;
    }
    return hunks;
}

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t nl = text.find('\n', start);
        if (nl == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

std::pair<std::vector<Segment>, std::vector<Segment>> diffWords(const std::string &oldLine,
                                                                const std::string &newLine)
{
    const auto oldTokens = tokenize(oldLine);
    const auto newTokens = tokenize(newLine);
    Interner interner;
    std::vector<int> ia, ib;
    ia.reserve(oldTokens.size());
    ib.reserve(newTokens.size());
    for (auto t : oldTokens)
        ia.push_back(interner.id(t));
    for (auto t : newTokens)
        ib.push_back(interner.id(t));
    const EditFlags flags = myersDiff(ia, ib);

    std::pair<std::vector<Segment>, std::vector<Segment>> result;
    for (std::size_t i = 0; i < oldTokens.size(); ++i)
        appendSegment(result.first, flags.deleted[i] != 0, oldTokens[i]);
    for (std::size_t j = 0; j < newTokens.size(); ++j)
        appendSegment(result.second, flags.inserted[j] != 0, newTokens[j]);
    return result;
}

std::vector<SideBySideRow> sideBySide(const std::vector<DiffLine> &lines)
{
    std::vector<SideBySideRow> rows;
    rows.reserve(lines.size());
    auto changedRow = [](const DiffLine &d, const DiffLine &i) {
        SideBySideRow row{RowKind::Changed, d.oldLine, i.newLine, d.text, i.text, {}, {}};
        std::tie(row.leftSegments, row.rightSegments) = diffWords(row.leftText, row.rightText);
        return row;
    };
    std::size_t pos = 0;
    while (pos < lines.size()) {
        if (lines[pos].op == LineOp::Equal) {
            const DiffLine &l = lines[pos];
            rows.push_back({RowKind::Equal, l.oldLine, l.newLine, l.text, l.text, {}, {}});
            ++pos;
            continue;
        }
        std::vector<const DiffLine *> deleted, inserted;
        while (pos < lines.size() && lines[pos].op != LineOp::Equal) {
            (lines[pos].op == LineOp::Delete ? deleted : inserted).push_back(&lines[pos]);
            ++pos;
        }
        // Similar lines are paired first; between two such anchors the remaining lines are
        // paired in order, and only the surplus of one side stays unpaired.
        const auto anchors = alignSimilar(deleted, inserted);
        std::size_t d = 0, i = 0;
        for (std::size_t a = 0; a <= anchors.size(); ++a) {
            const std::size_t dEnd = a < anchors.size() ? anchors[a].first : deleted.size();
            const std::size_t iEnd = a < anchors.size() ? anchors[a].second : inserted.size();
            for (; d < dEnd && i < iEnd; ++d, ++i)
                rows.push_back(changedRow(*deleted[d], *inserted[i]));
            for (; d < dEnd; ++d)
                rows.push_back({RowKind::Removed, deleted[d]->oldLine, -1, deleted[d]->text, {}, {}, {}});
            for (; i < iEnd; ++i)
                rows.push_back({RowKind::Added, -1, inserted[i]->newLine, {}, inserted[i]->text, {}, {}});
            if (a < anchors.size()) {
                rows.push_back(changedRow(*deleted[d], *inserted[i]));
                ++d;
                ++i;
            }
        }
    }
    return rows;
}

} // namespace diff
