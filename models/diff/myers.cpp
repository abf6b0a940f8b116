#include "models/diff/myers.h"

#include <algorithm>

namespace diff {
namespace {

class Myers
{
public:
    Myers(const std::vector<int> &a, const std::vector<int> &b, EditFlags &flags)
        : m_a(a), m_b(b), m_flags(flags)
    {}

    void compare(int aLo, int aHi, int bLo, int bHi)
    {
        // Equal prefixes and suffixes never need the search.
        while (aLo < aHi && bLo < bHi && m_a[aLo] == m_b[bLo]) {
            ++aLo;
            ++bLo;
        }
        while (aLo < aHi && bLo < bHi && m_a[aHi - 1] == m_b[bHi - 1]) {
            --aHi;
            --bHi;
        }
        if (aLo == aHi || bLo == bHi) {
            markAll(aLo, aHi, bLo, bHi);
            return;
        }
        if (aHi - aLo == 1 || bHi - bLo == 1) {
            compareSingle(aLo, aHi, bLo, bHi);
            return;
        }
        const auto [x, y] = middleSnake(aLo, aHi, bLo, bHi);
        compare(aLo, x, bLo, y);
        compare(x, aHi, y, bHi);
    }

private:
    void markAll(int aLo, int aHi, int bLo, int bHi)
    {
        std::fill(m_flags.deleted.begin() + aLo, m_flags.deleted.begin() + aHi, 1);
        std::fill(m_flags.inserted.begin() + bLo, m_flags.inserted.begin() + bHi, 1);
    }

    // One side has a single element (and no common prefix/suffix): it is either matched once
    // in the other side or not at all.
    void compareSingle(int aLo, int aHi, int bLo, int bHi)
    {
        markAll(aLo, aHi, bLo, bHi);
        if (aHi - aLo == 1) {
            for (int j = bLo; j < bHi; ++j) {
                if (m_b[j] == m_a[aLo]) {
                    m_flags.deleted[aLo] = 0;
                    m_flags.inserted[j] = 0;
                    return;
                }
            }
        } else {
            for (int i = aLo; i < aHi; ++i) {
                if (m_a[i] == m_b[bLo]) {
                    m_flags.deleted[i] = 0;
                    m_flags.inserted[bLo] = 0;
                    return;
                }
            }
        }
    }

    // Runs the forward and the reverse search at the same time until they overlap and returns
    // the point where the forward path reaches the overlap. Both halves around it have an edit
    // distance of about D/2, which bounds the recursion and keeps memory at O(N+M).
    std::pair<int, int> middleSnake(int aLo, int aHi, int bLo, int bHi)
    {
        const int n = aHi - aLo;
        const int m = bHi - bLo;
        const int maxD = (n + m + 1) / 2;
        const int offset = maxD;
        const int length = 2 * maxD + 2;
        m_forward.assign(length, -1);
        m_reverse.assign(length, -1);
        m_forward[offset + 1] = 0;
        m_reverse[offset + 1] = 0;
        const int delta = n - m;
        const bool front = (delta % 2) != 0;
        // Diagonals that ran off the edit graph are skipped in later rounds.
        int k1start = 0, k1end = 0, k2start = 0, k2end = 0;
        for (int d = 0; d < maxD; ++d) {
            for (int k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
                const int k1Offset = offset + k1;
                int x1 = (k1 == -d || (k1 != d && m_forward[k1Offset - 1] < m_forward[k1Offset + 1]))
                             ? m_forward[k1Offset + 1]
                             : m_forward[k1Offset - 1] + 1;
                int y1 = x1 - k1;
                while (x1 < n && y1 < m && m_a[aLo + x1] == m_b[bLo + y1]) {
                    ++x1;
                    ++y1;
                }
                m_forward[k1Offset] = x1;
                if (x1 > n) {
                    k1end += 2;
                } else if (y1 > m) {
                    k1start += 2;
                } else if (front) {
                    const int k2Offset = offset + delta - k1;
                    if (k2Offset >= 0 && k2Offset < length && m_reverse[k2Offset] != -1) {
                        if (x1 >= n - m_reverse[k2Offset])
                            return {aLo + x1, bLo + y1};
                    }
                }
            }
            for (int k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
                const int k2Offset = offset + k2;
                int x2 = (k2 == -d || (k2 != d && m_reverse[k2Offset - 1] < m_reverse[k2Offset + 1]))
                             ? m_reverse[k2Offset + 1]
                             : m_reverse[k2Offset - 1] + 1;
                int y2 = x2 - k2;
                while (x2 < n && y2 < m && m_a[aHi - x2 - 1] == m_b[bHi - y2 - 1]) {
                    ++x2;
                    ++y2;
                }
                m_reverse[k2Offset] = x2;
                if (x2 > n) {
                    k2end += 2;
                } else if (y2 > m) {
                    k2start += 2;
                } else if (!front) {
                    const int k1Offset = offset + delta - k2;
                    if (k1Offset >= 0 && k1Offset < length && m_forward[k1Offset] != -1) {
                        const int x1 = m_forward[k1Offset];
                        const int y1 = offset + x1 - k1Offset;
                        if (x1 >= n - x2)
                            return {aLo + x1, bLo + y1};
                    }
                }
            }
        }
        // Unreachable for non-empty inputs; splitting in the middle is still a valid answer.
        return {aLo + n / 2, bLo + m / 2};
    }

    const std::vector<int> &m_a;
    const std::vector<int> &m_b;
    EditFlags &m_flags;
    std::vector<int> m_forward;
    std::vector<int> m_reverse;
};

} // namespace

EditFlags myersDiff(const std::vector<int> &a, const std::vector<int> &b)
{
    EditFlags flags;
    flags.deleted.assign(a.size(), 0);
    flags.inserted.assign(b.size(), 0);

    // Elements that occur on one side only can never be matched: mark them and search the
    // rest. The common subsequence is unchanged, and texts that share few lines get cheap.
    const int maxId = std::max(a.empty() ? -1 : *std::max_element(a.begin(), a.end()),
                               b.empty() ? -1 : *std::max_element(b.begin(), b.end()));
    std::vector<char> inA(maxId + 1, 0), inB(maxId + 1, 0);
    for (int id : a)
        inA[id] = 1;
    for (int id : b)
        inB[id] = 1;
    std::vector<int> fa, fb;     // filtered sequences
    std::vector<int> mapA, mapB; // filtered index -> original index
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (inB[a[i]]) {
            fa.push_back(a[i]);
            mapA.push_back(static_cast<int>(i));
        } else {
            flags.deleted[i] = 1;
        }
    }
    for (std::size_t j = 0; j < b.size(); ++j) {
        if (inA[b[j]]) {
            fb.push_back(b[j]);
            mapB.push_back(static_cast<int>(j));
        } else {
            flags.inserted[j] = 1;
        }
    }

    EditFlags filtered;
    filtered.deleted.assign(fa.size(), 0);
    filtered.inserted.assign(fb.size(), 0);
    Myers(fa, fb, filtered).compare(0, static_cast<int>(fa.size()), 0, static_cast<int>(fb.size()));
    for (std::size_t i = 0; i < fa.size(); ++i)
        flags.deleted[mapA[i]] = filtered.deleted[i];
    for (std::size_t j = 0; j < fb.size(); ++j)
        flags.inserted[mapB[j]] = filtered.inserted[j];
    return flags;
}

} // namespace diff
