#pragma once
// Everything a view or an export needs about two pod templates, computed once: the YAML texts,
// their line diff, the semantic summary and the JSON Patch. Renderers take this value.

#include "models/diff/linediff.h"
#include "models/diff/templatesummary.h"

#include <string>
#include <vector>

namespace diff {

// The file a unified diff of a DaemonSet's pod templates modifies: "web.pod-template.yaml". Both
// sides name it, whatever revisions or manifests they come from, and it is never a manifest's
// own name: the hunks count lines of the rendered template, not of any file on disk.
std::string podTemplatePatchPath(const std::string &daemonSetName);

struct TemplateDiffInput
{
    std::string oldName; // e.g. "web@rev3.yaml": the unified diff's labels, the HTML and Markdown titles
    std::string newName;
    kube::Json oldTemplate; // PodTemplateSpec {metadata, spec}
    kube::Json newTemplate;
    bool ignoreServerNoise = false;
    std::string patchPath; // the unified diff's file (podTemplatePatchPath); empty: oldName
};

// The parts of a TemplateDiff besides the YAML texts; each renderer reads only some of them
// (renderers.h), so a caller that renders one format computes only what that format shows.
enum TemplateDiffPart : unsigned {
    LineDiffPart = 1,  // TemplateDiff::lines
    SummaryPart = 2,   // TemplateDiff::summary
    JsonPatchPart = 4, // TemplateDiff::jsonPatch
    AllParts = LineDiffPart | SummaryPart | JsonPatchPart,
};

struct TemplateDiff
{
    std::string oldName;
    std::string newName;
    std::string patchPath;
    bool ignoreServerNoise = false;
    kube::Json oldTemplate; // as compared: without server noise when ignoreServerNoise is set
    kube::Json newTemplate;
    std::string oldYaml; // kube::toYaml of the compared templates
    std::string newYaml;
    std::vector<DiffLine> lines; // line diff of the YAML texts
    TemplateSummary summary;
    kube::Json jsonPatch; // RFC 6902 operations from oldTemplate to newTemplate

    bool identical() const { return oldTemplate == newTemplate; }

    // A part left out of `parts` stays empty (an empty summary reads as "identical": render
    // only what was computed).
    static TemplateDiff compute(TemplateDiffInput input, unsigned parts = AllParts);
};

} // namespace diff
