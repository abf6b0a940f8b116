#pragma once
// Myers' O(ND) difference algorithm in linear space ("An O(ND) Difference Algorithm and Its
// Variations", 1986, section 4b): the middle snake splits the problem, common prefixes and
// suffixes are trimmed first. Sequences are token ids so lines and words share one core.

#include <vector>

namespace diff {

struct EditFlags
{
    std::vector<char> deleted;  // deleted[i]: a[i] is not part of the common subsequence
    std::vector<char> inserted; // inserted[j]: b[j] is not part of the common subsequence
};

// A shortest edit script between a and b, as per-element flags. Deterministic. Ids must be
// small non-negative integers (they index a table).
EditFlags myersDiff(const std::vector<int> &a, const std::vector<int> &b);

} // namespace diff
