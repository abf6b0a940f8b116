#pragma once
// Everything a view or an export needs about two pod templates, computed once: the YAML texts,
// their line diff, the semantic summary and the JSON Patch. Renderers take this value.

#include "models/diff/linediff.h"
#include "models/diff/templatesummary.h"

#include <string>
#include <vector>

namespace diff {

struct TemplateDiffInput
{
    std::string oldName; // e.g. "web@rev3.yaml"
    std::string newName;
    kube::Json oldTemplate; // PodTemplateSpec {metadata, spec}
    kube::Json newTemplate;
    bool ignoreServerNoise = false;
};

struct TemplateDiff
{
    std::string oldName;
    std::string newName;
    bool ignoreServerNoise = false;
    kube::Json oldTemplate; // as compared: without server noise when ignoreServerNoise is set
    kube::Json newTemplate;
    std::string oldYaml; // kube::toYaml of the compared templates
    std::string newYaml;
    std::vector<DiffLine> lines; // line diff of the YAML texts
    TemplateSummary summary;
    kube::Json jsonPatch; // RFC 6902 operations from oldTemplate to newTemplate

    bool identical() const { return oldTemplate == newTemplate; }

    static TemplateDiff compute(const TemplateDiffInput &input);
};

} // namespace diff
