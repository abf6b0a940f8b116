// Fuzzes the patch functions: JSON merge patch, JSON patch and strategic merge patch as the API
// server applies them (models/api/strategicmerge.h), and JSON Patch between two documents
// (models/diff/jsonpatch.h). The input is a JSON array [document, patch]. Checked: a merge patch
// applied twice changes nothing more (RFC 7386 patches are idempotent), and applying
// diff::jsonPatch(document, patch) to the document gives the second value, the round trip every
// diff-like function promises.

#include "models/api/strategicmerge.h"
#include "models/diff/jsonpatch.h"
#include "models/kube/jsonlimits.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

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
    const kube::Json &document = input[0];
    const kube::Json &patch = input[1];

    const kube::Json merged = api::mergePatch(document, patch);
    FUZZ_CHECK(api::mergePatch(merged, patch) == merged);

    if (auto patched = api::jsonPatch(document, patch); !patched)
        FUZZ_CHECK(!patched.error().message.empty());
    if (auto patched = diff::applyJsonPatch(document, patch); !patched)
        FUZZ_CHECK(!patched.error().message.empty());
    if (auto patched = api::strategicMergePatch(document, patch); !patched)
        FUZZ_CHECK(!patched.error().message.empty());

    const kube::Json ops = diff::jsonPatch(document, patch);
    auto applied = diff::applyJsonPatch(document, ops);
    if (!applied || *applied != patch) {
        std::fprintf(stderr, "from: %s\nto: %s\nops: %s\nresult: %s\n", fuzzDump(document).c_str(),
                     fuzzDump(patch).c_str(), fuzzDump(ops).c_str(),
                     applied ? fuzzDump(*applied).c_str() : applied.error().message.c_str());
        FUZZ_CHECK(!"applyJsonPatch(a, jsonPatch(a, b)) == b");
    }
    return 0;
}
