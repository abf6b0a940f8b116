#pragma once
// Export formats of a template diff. Every renderer returns the complete document as UTF-8.

#include "models/diff/templatediff.h"

#include <string>

namespace diff {

// A unified diff that `git apply` and `patch -p1` accept. The header is git's extended form:
// "diff --git a/OLD b/NEW", with "rename from/to" lines when the names differ, so the patch
// applies to a file named OLD (git apply renames it to NEW; GNU patch writes NEW). Hunks carry
// `context` lines; "\ No newline at end of file" marks a last line without newline. Equal
// texts give an empty string.
std::string renderUnified(const std::string &oldText, const std::string &newText, const std::string &oldName,
                          const std::string &newName, int context = 3);
std::string renderUnified(const TemplateDiff &diff, int context = 3);

// A self-contained HTML document: the semantic summary, then the YAML side by side with
// changed lines and intra-line changes highlighted. Inline CSS with light and dark schemes;
// all text is escaped.
std::string renderHtml(const TemplateDiff &diff);

// The summary as a bullet list and the unified diff in a ```diff fence (the fence grows when
// the diff itself contains backtick runs).
std::string renderMarkdown(const TemplateDiff &diff, int context = 3);

// {"old", "new", "identical", "ignoreServerNoise", "summary": [{category, container, path,
// summary, before?, after?}], "jsonPatch": [...]}, indented by two spaces.
std::string renderJson(const TemplateDiff &diff);

} // namespace diff
