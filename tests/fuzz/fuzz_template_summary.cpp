// Fuzzes the pod-template summary (models/diff/templatesummary.h). The input is a JSON array
// [before, after]. Checked, with and without server noise ignored: the summary is empty exactly
// when the compared templates are equal, every change has a category, a summary line and a
// JSON pointer; stripping server noise twice changes nothing more.

#include "models/diff/templatesummary.h"
#include "models/kube/jsonlimits.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace {

void check(const kube::Json &before, const kube::Json &after, bool ignoreServerNoise)
{
    const diff::TemplateSummary summary = diff::summarize(before, after, {ignoreServerNoise});
    const bool equal =
        ignoreServerNoise ? diff::stripServerNoise(before) == diff::stripServerNoise(after) : before == after;
    if (summary.identical() != equal) {
        std::fprintf(stderr, "before: %s\nafter: %s\nignoreServerNoise: %d, %zu changes\n",
                     fuzzDump(before).c_str(), fuzzDump(after).c_str(), int(ignoreServerNoise),
                     summary.changes.size());
        FUZZ_CHECK(!"identical() exactly when the templates are equal");
    }
    for (const diff::Change &c : summary.changes) {
        FUZZ_CHECK(!c.category.empty() && !c.summary.empty());
        FUZZ_CHECK(c.path.empty() || c.path.front() == '/');
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    // Parsed the way JSON from outside the process is: nesting deeper than JsonLimits::maxDepth is
    // refused before any recursive pass (copy, compare, merge) can overflow the stack.
    auto parsed = kube::JsonLimits::parse(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!parsed)
        return 0;
    const kube::Json &input = *parsed;
    if (!input.is_array() || input.size() != 2)
        return 0;
    check(input[0], input[1], false);
    check(input[0], input[1], true);
    const kube::Json stripped = diff::stripServerNoise(input[0]);
    FUZZ_CHECK(diff::stripServerNoise(stripped) == stripped);
    return 0;
}
