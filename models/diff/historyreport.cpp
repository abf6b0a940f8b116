#include "models/diff/historyreport.h"

#include "models/diff/renderers.h"
#include "models/diff/templatediff.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace diff {

namespace {

using OJson = nlohmann::ordered_json;

std::vector<HistoryRevision> sortedRevisions(const std::vector<HistoryRevision> &revisions)
{
    std::vector<HistoryRevision> out = revisions;
    std::stable_sort(out.begin(), out.end(), [](const HistoryRevision &a, const HistoryRevision &b) {
        return a.number != b.number ? a.number < b.number : a.name < b.name;
    });
    return out;
}

struct Pair
{
    const HistoryRevision *from;
    const HistoryRevision *to;
    bool known; // both templates known
    TemplateDiff diff;
};

std::vector<Pair> consecutiveDiffs(const std::vector<HistoryRevision> &sorted, const std::string &name,
                                   bool ignoreServerNoise)
{
    std::vector<Pair> pairs;
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        Pair p{&sorted[i - 1],
               &sorted[i],
               !sorted[i - 1].podTemplate.is_null() && !sorted[i].podTemplate.is_null(),
               {}};
        if (p.known) {
            TemplateDiffInput in;
            in.oldName = name + "@rev" + std::to_string(p.from->number) + ".yaml";
            in.newName = name + "@rev" + std::to_string(p.to->number) + ".yaml";
            in.patchPath = podTemplatePatchPath(name);
            in.oldTemplate = p.from->podTemplate;
            in.newTemplate = p.to->podTemplate;
            in.ignoreServerNoise = ignoreServerNoise;
            p.diff = TemplateDiff::compute(in);
        }
        pairs.push_back(std::move(p));
    }
    return pairs;
}

std::string time(kube::Timestamp t)
{
    return t > 0 ? kube::formatRfc3339(t) : std::string();
}

std::string numbers(const std::vector<std::int64_t> &list)
{
    std::string out;
    for (auto n : list)
        out += (out.empty() ? "" : ", ") + std::to_string(n);
    return out;
}

kube::Duration meanNode(const HistoryRollout &r, int *finished)
{
    kube::Duration sum = 0;
    int n = 0;
    for (const auto &t : r.nodes) {
        if (t.finished > 0) {
            sum += t.finished - t.started;
            ++n;
        }
    }
    if (finished)
        *finished = n;
    return n > 0 ? sum / n : 0;
}

std::string revisionLabel(std::int64_t n)
{
    return n > 0 ? std::to_string(n) : std::string("?");
}

// The number a rollout's revision has now (a rollback renumbers it), from its hash; 0 when the
// report does not know the hash.
std::int64_t numberNow(const std::vector<HistoryRevision> &revisions, const std::string &hash)
{
    if (hash.empty())
        return 0;
    for (const auto &r : revisions)
        if (r.hash == hash)
            return r.number;
    return 0;
}

// A rollout's revision as the reader finds it in the revision table: its number now, with the
// number it had during the rollout when a rollback has renumbered it since ("4 (then 2)").
std::string rolloutRevisionLabel(const std::vector<HistoryRevision> &revisions, std::int64_t then,
                                 const std::string &hash)
{
    const std::int64_t now = numberNow(revisions, hash);
    if (now <= 0 || now == then)
        return revisionLabel(then);
    return std::to_string(now) + " (then " + revisionLabel(then) + ")";
}

// ---- Markdown --------------------------------------------------------------------------

// Text in a table cell or a line: Markdown punctuation escaped, line breaks flattened.
std::string md(const std::string &text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '<':
        case '>':
        case '|':
        case '#':
            out += '\\';
            out += c;
            break;
        case '\n':
        case '\r':
            out += ' ';
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string mdCode(const std::string &text)
{
    if (text.empty())
        return {};
    std::string flat = text;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    std::replace(flat.begin(), flat.end(), '|', '/');
    std::size_t run = 0, longest = 0;
    for (char c : flat) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string ticks(longest + 1, '`');
    const bool pad = !flat.empty() && (flat.front() == '`' || flat.back() == '`');
    return ticks + (pad ? " " : "") + flat + (pad ? " " : "") + ticks;
}

// ---- HTML ------------------------------------------------------------------------------

std::string h(const std::string &text)
{
    return escapeHtml(text);
}

const char *const kCss = R"(
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --border: #d0d7de;
  --add-bg: #e6ffec; --del-bg: #ffebe9; --hunk: #ddf4ff; --removed: #8c959f; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0;
  --border: #30363d; --add-bg: #12261e; --del-bg: #25171c; --hunk: #121d2f; --removed: #6e7681; } }
body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid var(--border); padding: 4px 8px; text-align: left; vertical-align: top; }
tr.removed td { color: var(--removed); font-style: italic; }
tr.current td { font-weight: 600; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
pre.diff { border: 1px solid var(--border); padding: 0.5em; overflow-x: auto; }
pre.diff span { display: block; white-space: pre; }
pre.diff .add { background: var(--add-bg); }
pre.diff .del { background: var(--del-bg); }
pre.diff .hunk { background: var(--hunk); color: var(--muted); }
.muted { color: var(--muted); }
)";

void htmlDiff(std::string &out, const std::string &unified)
{
    out += "<pre class=\"diff\">";
    std::size_t pos = 0;
    while (pos < unified.size()) {
        std::size_t end = unified.find('\n', pos);
        if (end == std::string::npos)
            end = unified.size();
        const std::string line = unified.substr(pos, end - pos);
        const char *cls = "";
        if (line.rfind("@@", 0) == 0)
            cls = "hunk";
        else if (line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0 || line.rfind("diff ", 0) == 0)
            cls = "hunk";
        else if (!line.empty() && line[0] == '+')
            cls = "add";
        else if (!line.empty() && line[0] == '-')
            cls = "del";
        out += std::string("<span class=\"") + cls + "\">" + h(line) + "</span>";
        pos = end + 1;
    }
    out += "</pre>\n";
}

} // namespace

std::string HistoryReport::markdown() const
{
    const auto revs = sortedRevisions(revisions);
    std::string out = "# DaemonSet history: " + mdCode(namespace_ + "/" + name) + "\n\n";
    out += "Generated " + time(generatedAt);
    if (!source.empty())
        out += " from " + md(source);
    out += ".";
    if (ignoreServerNoise)
        out += " Server-side defaults and bookkeeping fields are hidden in the diffs.";
    out += "\n\n## Revisions\n\n";
    if (revs.empty()) {
        out += "No revisions.\n\n";
    } else {
        out += "| Revision | Name | Hash | Created | Change cause | Images | Pods | State |\n";
        out += "|---:|---|---|---|---|---|---:|---|\n";
        for (const auto &r : revs) {
            std::string state = r.current ? "current" : (r.removed ? "removed by the cluster" : "");
            if (!r.previousNumbers.empty())
                state += std::string(state.empty() ? "" : "; ") + "previously " + numbers(r.previousNumbers);
            out += "| " + std::to_string(r.number) + " | " + mdCode(r.name) + " | " + mdCode(r.hash) + " | " +
                   time(r.created) + " | " + md(r.changeCause.empty() ? "<none>" : r.changeCause) + " | " +
                   md(r.imageSummary) + " | " + (r.removed ? std::string() : std::to_string(r.pods)) + " | " +
                   md(state) + " |\n";
        }
        out += "\n";
    }

    out += "## Changes between revisions\n\n";
    const auto pairs = consecutiveDiffs(revs, name, ignoreServerNoise);
    if (pairs.empty())
        out += "Only one revision: nothing to compare.\n\n";
    for (const auto &p : pairs) {
        out +=
            "### Revision " + std::to_string(p.from->number) + " → " + std::to_string(p.to->number) + "\n\n";
        if (!p.known) {
            out += "The template of one of these revisions is not known.\n\n";
            continue;
        }
        if (p.diff.summary.identical()) {
            out += "The templates are identical.\n\n";
            continue;
        }
        for (const Change &c : p.diff.summary.changes) {
            out += "- **" + md(c.category) + "**";
            if (!c.container.empty())
                out += " (" + mdCode(c.container) + ")";
            out += ": " + md(c.summary) + "\n";
        }
        const std::string unified = renderUnified(p.diff);
        std::size_t run = 0, longest = 0;
        for (char c : unified) {
            run = c == '`' ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
        out += "\n" + fence + "diff\n" + unified + fence + "\n\n";
    }

    out += "## Rollouts\n\n";
    if (rollouts.empty()) {
        out += "No rollouts were observed.\n\n";
    } else {
        out += "| From | To | Started | Completed | Duration | Nodes replaced | Mean per node |\n";
        out += "|---:|---:|---|---|---|---:|---|\n";
        for (const auto &r : rollouts) {
            int finished = 0;
            const auto mean = meanNode(r, &finished);
            std::string completed =
                r.completed > 0 ? time(r.completed) : (r.supersededBy.empty() ? "in progress" : "superseded");
            out += "| " + rolloutRevisionLabel(revisions, r.fromRevision, r.fromHash) + " | " +
                   rolloutRevisionLabel(revisions, r.toRevision, r.toHash) + " | " + time(r.started) + " | " +
                   md(completed) + " | " +
                   (r.completed > 0 ? kube::formatDuration(r.completed - r.started) : std::string()) + " | " +
                   std::to_string(finished) + " of " + std::to_string(r.nodes.size()) + " | " +
                   (mean > 0 ? kube::formatDuration(mean) : std::string()) + " |\n";
        }
        out += "\n";
    }

    out += "## Actions\n\n";
    if (actions.empty()) {
        out += "No actions were taken.\n";
    } else {
        out += "| Time | User | Action | Target | Parameters | Result | Outcome |\n";
        out += "|---|---|---|---|---|---|---|\n";
        for (const auto &a : actions) {
            out += "| " + time(a.time) + " | " + md(a.user) + " | " + md(a.action) + " | " + md(a.target) +
                   " | " + md(a.parameters) + " | " + (a.ok ? "ok" : "failed") + " | " + md(a.outcome) +
                   " |\n";
        }
    }
    return out;
}

std::string HistoryReport::html() const
{
    const auto revs = sortedRevisions(revisions);
    const std::string title = "DaemonSet history: " + namespace_ + "/" + name;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                      h(title) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
    out += "<h1>" + h(title) + "</h1>\n<p class=\"muted\">Generated " + h(time(generatedAt));
    if (!source.empty())
        out += " from " + h(source);
    out += ".";
    if (ignoreServerNoise)
        out += " Server-side defaults and bookkeeping fields are hidden in the diffs.";
    out += "</p>\n<h2>Revisions</h2>\n";
    if (revs.empty()) {
        out += "<p>No revisions.</p>\n";
    } else {
        out += "<table>\n<tr><th>Revision</th><th>Name</th><th>Hash</th><th>Created</th><th>Change "
               "cause</th><th>Images</th><th>Pods</th><th>State</th></tr>\n";
        for (const auto &r : revs) {
            std::string state = r.current ? "current" : (r.removed ? "removed by the cluster" : "");
            if (!r.previousNumbers.empty())
                state += std::string(state.empty() ? "" : "; ") + "previously " + numbers(r.previousNumbers);
            out += std::string("<tr") +
                   (r.removed ? " class=\"removed\"" : (r.current ? " class=\"current\"" : "")) + "><td>" +
                   std::to_string(r.number) + "</td><td><code>" + h(r.name) + "</code></td><td><code>" +
                   h(r.hash) + "</code></td><td>" + h(time(r.created)) + "</td><td>" +
                   h(r.changeCause.empty() ? "<none>" : r.changeCause) + "</td><td>" + h(r.imageSummary) +
                   "</td><td>" + (r.removed ? std::string() : std::to_string(r.pods)) + "</td><td>" +
                   h(state) + "</td></tr>\n";
        }
        out += "</table>\n";
    }

    out += "<h2>Changes between revisions</h2>\n";
    const auto pairs = consecutiveDiffs(revs, name, ignoreServerNoise);
    if (pairs.empty())
        out += "<p>Only one revision: nothing to compare.</p>\n";
    for (const auto &p : pairs) {
        out += "<h3>Revision " + std::to_string(p.from->number) + " &rarr; " + std::to_string(p.to->number) +
               "</h3>\n";
        if (!p.known) {
            out += "<p>The template of one of these revisions is not known.</p>\n";
            continue;
        }
        if (p.diff.summary.identical()) {
            out += "<p>The templates are identical.</p>\n";
            continue;
        }
        out += "<ul>\n";
        for (const Change &c : p.diff.summary.changes) {
            out += "<li><strong>" + h(c.category) + "</strong>";
            if (!c.container.empty())
                out += " (<code>" + h(c.container) + "</code>)";
            out += ": " + h(c.summary) + "</li>\n";
        }
        out += "</ul>\n";
        htmlDiff(out, renderUnified(p.diff));
    }

    out += "<h2>Rollouts</h2>\n";
    if (rollouts.empty()) {
        out += "<p>No rollouts were observed.</p>\n";
    } else {
        out += "<table>\n<tr><th>From</th><th>To</th><th>Started</th><th>Completed</th><th>Duration</"
               "th><th>Nodes "
               "replaced</th><th>Mean per node</th></tr>\n";
        for (const auto &r : rollouts) {
            int finished = 0;
            const auto mean = meanNode(r, &finished);
            std::string completed =
                r.completed > 0 ? time(r.completed) : (r.supersededBy.empty() ? "in progress" : "superseded");
            out += "<tr><td>" + h(rolloutRevisionLabel(revisions, r.fromRevision, r.fromHash)) + "</td><td>" +
                   h(rolloutRevisionLabel(revisions, r.toRevision, r.toHash)) + "</td><td>" +
                   h(time(r.started)) + "</td><td>" + h(completed) + "</td><td>" +
                   (r.completed > 0 ? h(kube::formatDuration(r.completed - r.started)) : std::string()) +
                   "</td><td>" + std::to_string(finished) + " of " + std::to_string(r.nodes.size()) +
                   "</td><td>" + (mean > 0 ? h(kube::formatDuration(mean)) : std::string()) + "</td></tr>\n";
        }
        out += "</table>\n";
    }

    out += "<h2>Actions</h2>\n";
    if (actions.empty()) {
        out += "<p>No actions were taken.</p>\n";
    } else {
        out += "<table>\n<tr><th>Time</th><th>User</th><th>Action</th><th>Target</th><th>Parameters</"
               "th><th>Result</"
               "th><th>Outcome</th></tr>\n";
        for (const auto &a : actions) {
            out += "<tr><td>" + h(time(a.time)) + "</td><td>" + h(a.user) + "</td><td>" + h(a.action) +
                   "</td><td>" + h(a.target) + "</td><td>" + h(a.parameters) + "</td><td>" +
                   (a.ok ? "ok" : "failed") + "</td><td>" + h(a.outcome) + "</td></tr>\n";
        }
        out += "</table>\n";
    }
    out += "</body>\n</html>\n";
    return out;
}

std::string HistoryReport::json() const
{
    const auto revs = sortedRevisions(revisions);
    OJson doc;
    doc["kind"] = "DaemonSetHistory";
    doc["daemonSet"] = {{"namespace", namespace_}, {"name", name}};
    doc["generatedAt"] = time(generatedAt);
    doc["source"] = source;
    doc["ignoreServerNoise"] = ignoreServerNoise;
    OJson list = OJson::array();
    for (const auto &r : revs) {
        OJson j;
        j["revision"] = r.number;
        j["name"] = r.name;
        j["hash"] = r.hash;
        j["created"] = time(r.created);
        j["changeCause"] = r.changeCause;
        j["images"] = r.imageSummary;
        j["current"] = r.current;
        j["removed"] = r.removed;
        j["previousNumbers"] = r.previousNumbers;
        j["pods"] = r.pods;
        j["template"] = OJson::parse(r.podTemplate.dump());
        list.push_back(std::move(j));
    }
    doc["revisions"] = std::move(list);
    OJson diffs = OJson::array();
    for (const auto &p : consecutiveDiffs(revs, name, ignoreServerNoise)) {
        OJson j;
        j["from"] = p.from->number;
        j["to"] = p.to->number;
        j["known"] = p.known;
        if (p.known) {
            j["identical"] = p.diff.summary.identical();
            OJson summary = OJson::array();
            for (const Change &c : p.diff.summary.changes) {
                OJson s;
                s["category"] = c.category;
                s["container"] = c.container;
                s["path"] = c.path;
                s["summary"] = c.summary;
                if (c.before)
                    s["before"] = OJson::parse(c.before->dump());
                if (c.after)
                    s["after"] = OJson::parse(c.after->dump());
                summary.push_back(std::move(s));
            }
            j["summary"] = std::move(summary);
            j["unified"] = renderUnified(p.diff);
        }
        diffs.push_back(std::move(j));
    }
    doc["diffs"] = std::move(diffs);
    OJson rl = OJson::array();
    for (const auto &r : rollouts) {
        OJson j;
        j["fromRevision"] = r.fromRevision; // the numbers during the rollout
        j["toRevision"] = r.toRevision;
        // ... and now, after any renumbering by a rollback (null when the hash is unknown)
        const auto fromNow = numberNow(revisions, r.fromHash);
        const auto toNow = numberNow(revisions, r.toHash);
        j["fromRevisionNow"] = fromNow > 0 ? OJson(fromNow) : OJson();
        j["toRevisionNow"] = toNow > 0 ? OJson(toNow) : OJson();
        j["fromHash"] = r.fromHash;
        j["toHash"] = r.toHash;
        j["started"] = time(r.started);
        j["completed"] = r.completed > 0 ? OJson(time(r.completed)) : OJson();
        j["durationMs"] = r.completed > 0 ? OJson(r.completed - r.started) : OJson();
        j["supersededBy"] = r.supersededBy.empty() ? OJson() : OJson(r.supersededBy);
        int finished = 0;
        const auto mean = meanNode(r, &finished);
        j["meanNodeMs"] = mean > 0 ? OJson(mean) : OJson();
        OJson nodes = OJson::array();
        for (const auto &t : r.nodes)
            nodes.push_back({{"node", t.node},
                             {"started", time(t.started)},
                             {"finished", t.finished > 0 ? OJson(time(t.finished)) : OJson()},
                             {"durationMs", t.finished > 0 ? OJson(t.finished - t.started) : OJson()}});
        j["nodes"] = std::move(nodes);
        rl.push_back(std::move(j));
    }
    doc["rollouts"] = std::move(rl);
    OJson al = OJson::array();
    for (const auto &a : actions) {
        OJson j;
        j["time"] = time(a.time);
        j["user"] = a.user;
        j["action"] = a.action;
        j["target"] = a.target;
        j["parameters"] = a.parameters;
        j["ok"] = a.ok;
        j["outcome"] = a.outcome;
        al.push_back(std::move(j));
    }
    doc["actions"] = std::move(al);
    // Invalid UTF-8 in user text is replaced rather than failing the export.
    return doc.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

} // namespace diff
