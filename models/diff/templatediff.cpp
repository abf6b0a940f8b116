#include "models/diff/templatediff.h"

#include "models/diff/jsonpatch.h"
#include "models/kube/yaml.h"

#include <utility>

namespace diff {

std::string podTemplatePatchPath(const std::string &daemonSetName)
{
    return daemonSetName + ".pod-template.yaml";
}

TemplateDiff TemplateDiff::compute(TemplateDiffInput input, unsigned parts)
{
    TemplateDiff d;
    d.oldName = std::move(input.oldName);
    d.newName = std::move(input.newName);
    d.patchPath = std::move(input.patchPath);
    d.ignoreServerNoise = input.ignoreServerNoise;
    d.oldTemplate =
        input.ignoreServerNoise ? stripServerNoise(input.oldTemplate) : std::move(input.oldTemplate);
    d.newTemplate =
        input.ignoreServerNoise ? stripServerNoise(input.newTemplate) : std::move(input.newTemplate);
    d.oldYaml = kube::toYaml(d.oldTemplate);
    d.newYaml = kube::toYaml(d.newTemplate);
    if (parts & LineDiffPart)
        d.lines = diffLines(splitLines(d.oldYaml), splitLines(d.newYaml));
    // The templates are already stripped; summarising them again without the option keeps
    // before/after values identical to what the YAML shows.
    if (parts & SummaryPart)
        d.summary = summarize(d.oldTemplate, d.newTemplate);
    if (parts & JsonPatchPart)
        d.jsonPatch = diff::jsonPatch(d.oldTemplate, d.newTemplate);
    return d;
}

} // namespace diff
