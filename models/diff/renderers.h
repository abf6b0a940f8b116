#pragma once
// Export formats of a template diff. Every renderer returns the complete document as UTF-8.

#include "models/diff/templatediff.h"

#include <string>

namespace diff {

// A unified diff that `git apply` and `patch -p1` accept, of one file: `path` holds the old
// text and the patch turns it into the new one. Each side's label follows the path after a tab
// ("--- a/web.pod-template.yaml<TAB>web@rev3"), where diff(1) puts a date; tools ignore it, so
// a patch between revisions modifies one file instead of renaming it. Hunks carry `context`
// lines; "\ No newline at end of file" marks a last line without newline. Equal texts give an
// empty string.
std::string renderUnified(const std::string &oldText, const std::string &newText, const std::string &path,
                          const std::string &oldLabel, const std::string &newLabel, int context = 3);
// Of the templates as rendered (TemplateDiff::oldYaml → newYaml): the file is `patchPath`
// (`oldName` when empty), the labels are the two names; line numbers count lines of the
// rendered templates.
// Reads the YAML texts only (no TemplateDiffPart).
std::string renderUnified(const TemplateDiff &diff, int context = 3);

// A self-contained HTML document: the semantic summary, then the YAML side by side with
// changed lines and intra-line changes highlighted. Inline CSS with light and dark schemes;
// all text is escaped. Reads the summary and the line diff.
std::string renderHtml(const TemplateDiff &diff);

// The summary as a bullet list and the unified diff in a ```diff fence (the fence grows when
// the diff itself contains backtick runs). Reads the summary.
std::string renderMarkdown(const TemplateDiff &diff, int context = 3);

// {"old", "new", "identical", "ignoreServerNoise", "summary": [{category, container, path,
// summary, before?, after?}], "jsonPatch": [...]}, indented by two spaces. Reads the summary and
// the JSON Patch.
std::string renderJson(const TemplateDiff &diff);

// Text for HTML content or a quoted attribute: & < > " ' as entities (every HTML output of the
// diff library escapes through this).
std::string escapeHtml(const std::string &text);

} // namespace diff
