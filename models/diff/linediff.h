#pragma once
// Line diff of two texts: an edit script (every line of both sides, in order), unified-diff
// hunks, intra-line word changes and a side-by-side pairing for display. Plain value types;
// the search is Myers' O(ND) algorithm in linear space.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diff {

enum class LineOp { Equal, Insert, Delete };

struct DiffLine
{
    LineOp op = LineOp::Equal;
    int oldLine = -1; // 0-based index into the old lines, -1 for Insert
    int newLine = -1; // 0-based index into the new lines, -1 for Delete
    std::string text;

    bool operator==(const DiffLine &) const = default;
};

// Line numbers as printed in a unified hunk header "@@ -oldStart,oldCount +newStart,newCount @@":
// 1-based; for an empty range the number of the line before it (0 at the top of the file).
struct Hunk
{
    int oldStart = 0;
    int oldCount = 0;
    int newStart = 0;
    int newCount = 0;
    std::vector<DiffLine> lines;
};

// Part of one line; `changed` marks text deleted (old side) or inserted (new side).
struct Segment
{
    bool changed = false;
    std::string text;

    bool operator==(const Segment &) const = default;
};

enum class RowKind { Equal, Changed, Added, Removed };

// One row of a side-by-side view. Line numbers are 0-based, -1 on the empty side.
struct SideBySideRow
{
    RowKind kind = RowKind::Equal;
    int leftLine = -1;
    int rightLine = -1;
    std::string leftText;
    std::string rightText;
    std::vector<Segment> leftSegments;  // Changed rows only: intra-line changes
    std::vector<Segment> rightSegments; // Changed rows only
};

// The edit script from a to b: Equal and Delete lines enumerate a in order, Equal and Insert
// lines enumerate b in order; within a change block deletions come before insertions.
std::vector<DiffLine> diffLines(const std::vector<std::string> &a, const std::vector<std::string> &b);
// The same script for lines the caller keeps, without copying them: every DiffLine::text is
// empty, and oldLine / newLine say which line of `a` or `b` it stands for.
std::vector<DiffLine> diffLineNumbers(const std::vector<std::string_view> &a,
                                      const std::vector<std::string_view> &b);

// Groups the changes with `context` unchanged lines around them; changes closer than
// 2 * context lines share one hunk. No hunks when nothing changed.
std::vector<Hunk> makeHunks(const std::vector<DiffLine> &lines, int context = 3);

// Splits at '\n' (the newline is not part of a line). A missing trailing newline still yields
// the last line; an empty text yields no lines. '\r' is kept so CRLF texts survive a round trip.
std::vector<std::string> splitLines(const std::string &text);

// Word-level changes between two versions of a line. Tokens are runs of letters/digits/'_'
// (any non-ASCII code point counts as a letter), runs of white space, or single other
// characters, so a multi-byte UTF-8 sequence is never split. The segments of each side
// concatenate to that side's line.
std::pair<std::vector<Segment>, std::vector<Segment>> diffWords(const std::string &oldLine,
                                                                const std::string &newLine);

// Rows for a side-by-side view. Within a change block, deleted and inserted lines that look
// alike (same words, e.g. "image: a:1" / "image: a:2") are paired first, keeping their order;
// the lines between such pairs are paired in order, and the surplus of either side becomes
// Removed or Added rows. Changed rows carry intra-line segments.
std::vector<SideBySideRow> sideBySide(const std::vector<DiffLine> &lines);

} // namespace diff
