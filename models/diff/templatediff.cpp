#include "models/diff/templatediff.h"

#include "models/diff/jsonpatch.h"
#include "models/kube/yaml.h"

namespace diff {

std::string podTemplatePatchPath(const std::string &daemonSetName)
{
    return daemonSetName + ".pod-template.yaml";
}

TemplateDiff TemplateDiff::compute(const TemplateDiffInput &input)
{
    TemplateDiff d;
    d.oldName = input.oldName;
    d.newName = input.newName;
    d.patchPath = input.patchPath;
    d.ignoreServerNoise = input.ignoreServerNoise;
    d.oldTemplate = input.ignoreServerNoise ? stripServerNoise(input.oldTemplate) : input.oldTemplate;
    d.newTemplate = input.ignoreServerNoise ? stripServerNoise(input.newTemplate) : input.newTemplate;
    d.oldYaml = kube::toYaml(d.oldTemplate);
    d.newYaml = kube::toYaml(d.newTemplate);
    d.lines = diffLines(splitLines(d.oldYaml), splitLines(d.newYaml));
    // The templates are already stripped; summarising them again without the option keeps
    // before/after values identical to what the YAML shows.
    d.summary = summarize(d.oldTemplate, d.newTemplate);
    d.jsonPatch = diff::jsonPatch(d.oldTemplate, d.newTemplate);
    return d;
}

} // namespace diff
