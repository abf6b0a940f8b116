// Fuzzes the line differ (models/diff/linediff.h). The input is two texts separated by the first
// NUL byte (no NUL: the second text is empty); the byte after the NUL, if any, picks the hunk
// context (0-7). Checked: the edit script enumerates both sides, applying the unified hunks to
// the old lines gives the new lines, side-by-side rows cover every line of both sides, and the
// word segments of each side concatenate to that side's line.

#include "models/diff/linediff.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using Lines = std::vector<std::string>;

// `patch -p1` in miniature: copies the old lines between hunks and replays each hunk, checking
// that its context and deletions are the old lines it claims to start at.
Lines applyHunks(const Lines &old, const std::vector<diff::Hunk> &hunks)
{
    Lines out;
    std::size_t next = 0; // index of the next old line to copy
    for (const diff::Hunk &h : hunks) {
        // An empty old range names the line before it; otherwise oldStart is 1-based.
        const std::size_t begin = h.oldCount == 0 ? std::size_t(h.oldStart) : std::size_t(h.oldStart - 1);
        FUZZ_CHECK(h.oldStart >= 0 && begin >= next && begin <= old.size());
        out.insert(out.end(), old.begin() + long(next), old.begin() + long(begin));
        next = begin;
        int oldCount = 0;
        int newCount = 0;
        for (const diff::DiffLine &l : h.lines) {
            if (l.op != diff::LineOp::Insert) {
                FUZZ_CHECK(next < old.size() && old[next] == l.text);
                ++next;
                ++oldCount;
            }
            if (l.op != diff::LineOp::Delete) {
                out.push_back(l.text);
                ++newCount;
            }
        }
        FUZZ_CHECK(oldCount == h.oldCount && newCount == h.newCount);
    }
    out.insert(out.end(), old.begin() + long(next), old.end());
    return out;
}

std::string joined(const std::vector<diff::Segment> &segments)
{
    std::string s;
    for (const auto &seg : segments)
        s += seg.text;
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const auto nul = input.find('\0');
    const std::string oldText = input.substr(0, nul);
    std::string newText;
    int context = 3;
    if (nul != std::string::npos && nul + 1 < input.size()) {
        context = static_cast<unsigned char>(input[nul + 1]) % 8;
        newText = input.substr(nul + 2);
    }

    const Lines a = diff::splitLines(oldText);
    const Lines b = diff::splitLines(newText);
    const std::vector<diff::DiffLine> script = diff::diffLines(a, b);

    Lines oldSide, newSide;
    for (const diff::DiffLine &l : script) {
        if (l.op != diff::LineOp::Insert) {
            FUZZ_CHECK(l.oldLine == int(oldSide.size()));
            oldSide.push_back(l.text);
        }
        if (l.op != diff::LineOp::Delete) {
            FUZZ_CHECK(l.newLine == int(newSide.size()));
            newSide.push_back(l.text);
        }
    }
    FUZZ_CHECK(oldSide == a && newSide == b);

    const std::vector<diff::Hunk> hunks = diff::makeHunks(script, context);
    FUZZ_CHECK(hunks.empty() == (a == b));
    FUZZ_CHECK(applyHunks(a, hunks) == b);

    std::size_t left = 0, right = 0;
    for (const diff::SideBySideRow &row : diff::sideBySide(script)) {
        if (row.leftLine >= 0) {
            FUZZ_CHECK(row.leftLine == int(left) && row.leftText == a[left]);
            ++left;
        }
        if (row.rightLine >= 0) {
            FUZZ_CHECK(row.rightLine == int(right) && row.rightText == b[right]);
            ++right;
        }
        if (row.kind == diff::RowKind::Changed)
            FUZZ_CHECK(joined(row.leftSegments) == row.leftText &&
                       joined(row.rightSegments) == row.rightText);
    }
    FUZZ_CHECK(left == a.size() && right == b.size());

    // Word diff of the two texts taken as single lines.
    const auto [oldSegments, newSegments] = diff::diffWords(oldText, newText);
    FUZZ_CHECK(joined(oldSegments) == oldText && joined(newSegments) == newText);
    return 0;
}
