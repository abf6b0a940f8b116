#include "models/diff/renderers.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace diff {
namespace {

using kube::Json;

// Git's quote_c_style: names with quotes, backslashes or control characters are written as
// C strings so that both git apply and GNU patch read them back.
std::string quotePath(const std::string &path)
{
    const bool needsQuotes = std::any_of(path.begin(), path.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return c == '"' || c == '\\' || u < 0x20 || u == 0x7f;
    });
    if (!needsQuotes)
        return path;
    std::string out = "\"";
    for (char c : path) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (u < 0x20 || u == 0x7f) {
                char buf[5];
                std::snprintf(buf, sizeof buf, "\\%03o", u);
                out += buf;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string prefixed(const char *prefix, const std::string &name)
{
    return quotePath(prefix + name);
}

// Lines with their terminating newline, so that "x" at the end of a file without newline and
// "x\n" compare as different lines, exactly as diff(1) treats them.
std::vector<std::string_view> terminatedLines(const std::string &text)
{
    std::vector<std::string_view> lines;
    const std::string_view all = text;
    std::size_t start = 0;
    while (start < all.size()) {
        const std::size_t nl = all.find('\n', start);
        const std::size_t end = nl == std::string_view::npos ? all.size() : nl + 1;
        lines.push_back(all.substr(start, end - start));
        start = end;
    }
    return lines;
}

// Backslash-escapes the ASCII punctuation Markdown would interpret (CommonMark allows escaping
// any ASCII punctuation), so a value such as "<script>" or "*" stays literal text.
std::string escapeMarkdown(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (std::string_view("\\`*_{}[]<>#|!~&").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

std::size_t longestBacktickRun(const std::string &text)
{
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return longest;
}

// A code span that survives backticks inside the text.
std::string codeSpan(const std::string &text)
{
    const std::string ticks(longestBacktickRun(text) + 1, '`');
    const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
    return ticks + (pad ? " " : "") + text + (pad ? " " : "") + ticks;
}

const char *const htmlStyle = R"(
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --border: #d0d7de;
  --del-bg: #ffebe9; --del-hl: #ff818266; --add-bg: #e6ffec; --add-hl: #abf2bc; --empty: #f6f8fa; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --border: #30363d;
    --del-bg: #3c1618; --del-hl: #b6232466; --add-bg: #12261e; --add-hl: #2ea04366; --empty: #161b22; }
}
body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.summary li { margin: 0.2em 0; }
.category { display: inline-block; min-width: 7em; color: var(--muted); font-size: 0.9em; }
.container { font-family: ui-monospace, monospace; color: var(--muted); }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 1px solid var(--border); }
table.diff th { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--border); }
table.diff td { padding: 0 8px; white-space: pre-wrap; word-break: break-all; vertical-align: top; }
table.diff td.ln { width: 3.5em; text-align: right; color: var(--muted); user-select: none; }
tr.changed td.old, tr.removed td.old { background: var(--del-bg); }
tr.changed td.new, tr.added td.new { background: var(--add-bg); }
tr.added td.old, tr.removed td.new { background: var(--empty); }
td.old del { background: var(--del-hl); text-decoration: none; }
td.new ins { background: var(--add-hl); text-decoration: none; }
.identical { color: var(--muted); }
)";

void appendSegments(std::string &out, const std::vector<Segment> &segments, const char *tag)
{
    for (const auto &s : segments) {
        if (s.changed)
            out += std::string("<") + tag + ">" + escapeHtml(s.text) + "</" + tag + ">";
        else
            out += escapeHtml(s.text);
    }
}

std::string lineNumber(int zeroBased)
{
    return zeroBased < 0 ? std::string() : std::to_string(zeroBased + 1);
}

} // namespace

std::string renderUnified(const std::string &oldText, const std::string &newText, const std::string &path,
                          const std::string &oldLabel, const std::string &newLabel, int context)
{
    if (oldText == newText)
        return {};
    // The label follows a tab, as diff(1) puts the file's date there; git apply and patch read
    // the name up to the tab, so the label never changes which file the patch modifies.
    const auto label = [](std::string text) {
        std::replace_if(
            text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
        return text;
    };
    std::string out = "--- " + prefixed("a/", path) + "\t" + label(oldLabel) + "\n+++ " +
                      prefixed("b/", path) + "\t" + label(newLabel) + "\n";
    const auto oldLines = terminatedLines(oldText);
    const auto newLines = terminatedLines(newText);
    for (const Hunk &hunk : makeHunks(diffLineNumbers(oldLines, newLines), context)) {
        out += "@@ -" + std::to_string(hunk.oldStart) + "," + std::to_string(hunk.oldCount) + " +" +
               std::to_string(hunk.newStart) + "," + std::to_string(hunk.newCount) + " @@\n";
        for (const DiffLine &line : hunk.lines) {
            const std::string_view text =
                line.op == LineOp::Insert ? newLines[line.newLine] : oldLines[line.oldLine];
            out += line.op == LineOp::Equal ? ' ' : line.op == LineOp::Delete ? '-' : '+';
            out += text;
            if (text.empty() || text.back() != '\n')
                out += "\n\\ No newline at end of file\n";
        }
    }
    return out;
}

std::string renderUnified(const TemplateDiff &diff, int context)
{
    return renderUnified(diff.oldYaml, diff.newYaml, diff.patchPath.empty() ? diff.oldName : diff.patchPath,
                         diff.oldName, diff.newName, context);
}

std::string renderHtml(const TemplateDiff &diff)
{
    const std::string oldName = escapeHtml(diff.oldName);
    const std::string newName = escapeHtml(diff.newName);
    std::string out;
    out.reserve(diff.oldYaml.size() * 3 + diff.newYaml.size() * 3 + 4096);
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
    out += oldName + " → " + newName + "</title>\n<style>" + htmlStyle + "</style>\n</head>\n<body>\n";
    out += "<h1>Pod template: <code>" + oldName + "</code> → <code>" + newName + "</code></h1>\n";
    if (diff.ignoreServerNoise)
        out += "<p class=\"identical\">Server-side defaults and bookkeeping fields are hidden.</p>\n";

    out += "<section class=\"summary\">\n<h2>Summary</h2>\n";
    if (diff.summary.identical()) {
        out += "<p class=\"identical\">The templates are identical.</p>\n";
    } else {
        out += "<ul>\n";
        for (const Change &c : diff.summary.changes) {
            out += "<li><span class=\"category\">" + escapeHtml(c.category) + "</span> ";
            if (!c.container.empty())
                out += "<span class=\"container\">" + escapeHtml(c.container) + "</span>: ";
            out += escapeHtml(c.summary) + "</li>\n";
        }
        out += "</ul>\n";
    }
    out += "</section>\n";

    out += "<section>\n<h2>Template</h2>\n<table class=\"diff\">\n<colgroup><col class=\"ln\"><col><col "
           "class=\"ln\"><col></colgroup>\n";
    out += "<thead><tr><th colspan=\"2\">" + oldName + "</th><th colspan=\"2\">" + newName +
           "</th></tr></thead>\n<tbody>\n";
    for (const SideBySideRow &row : sideBySide(diff.lines)) {
        static const char *const kinds[] = {"equal", "changed", "added", "removed"};
        out += std::string("<tr class=\"") + kinds[static_cast<int>(row.kind)] + "\"><td class=\"ln\">" +
               lineNumber(row.leftLine) + "</td><td class=\"old\">";
        if (row.kind == RowKind::Changed)
            appendSegments(out, row.leftSegments, "del");
        else
            out += escapeHtml(row.leftText);
        out += "</td><td class=\"ln\">" + lineNumber(row.rightLine) + "</td><td class=\"new\">";
        if (row.kind == RowKind::Changed)
            appendSegments(out, row.rightSegments, "ins");
        else
            out += escapeHtml(row.rightText);
        out += "</td></tr>\n";
    }
    out += "</tbody>\n</table>\n</section>\n</body>\n</html>\n";
    return out;
}

std::string renderMarkdown(const TemplateDiff &diff, int context)
{
    std::string out =
        "# Pod template diff: " + codeSpan(diff.oldName) + " → " + codeSpan(diff.newName) + "\n\n";
    if (diff.ignoreServerNoise)
        out += "Server-side defaults and bookkeeping fields are hidden.\n\n";
    out += "## Summary\n\n";
    if (diff.summary.identical()) {
        out += "The templates are identical.\n";
        return out;
    }
    for (const Change &c : diff.summary.changes) {
        out += "- **" + escapeMarkdown(c.category) + "**";
        if (!c.container.empty())
            out += " (" + codeSpan(c.container) + ")";
        out += ": " + escapeMarkdown(c.summary) + "\n";
    }
    const std::string unified = renderUnified(diff, context);
    const std::string fence(std::max<std::size_t>(3, longestBacktickRun(unified) + 1), '`');
    out += "\n## Unified diff\n\n" + fence + "diff\n" + unified + fence + "\n";
    return out;
}

std::string renderJson(const TemplateDiff &diff)
{
    Json summary = Json::array();
    for (const Change &c : diff.summary.changes) {
        Json item = {
            {"category", c.category}, {"container", c.container}, {"path", c.path}, {"summary", c.summary}};
        if (c.before)
            item["before"] = *c.before;
        if (c.after)
            item["after"] = *c.after;
        summary.push_back(std::move(item));
    }
    const Json doc = {{"old", diff.oldName},           {"new", diff.newName},
                      {"identical", diff.identical()}, {"ignoreServerNoise", diff.ignoreServerNoise},
                      {"summary", std::move(summary)}, {"jsonPatch", diff.jsonPatch}};
    // Invalid UTF-8 from a hand-written manifest is replaced rather than aborting the export.
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// HTML text and attribute values: & < > " ' as entities.
std::string escapeHtml(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace diff
