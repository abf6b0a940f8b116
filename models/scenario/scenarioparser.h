#pragma once
// ScenarioParser — reads a scenario file (docs/scenarios.md) and validates all of it before
// anything runs: unknown keys, wrong types, bad durations, bad pod selectors, unknown steps,
// steps of the other mode and references to objects that no earlier part of the file defines.
// Every problem is reported as "FILE:LINE:COLUMN: message" naming what was expected; the
// error's message holds one problem per line, in file order.

#include "models/kube/result.h"
#include "models/scenario/scenario.h"

#include <string>

namespace kube {
struct YamlDocument;
}

namespace scenario {

class ScenarioParser
{
public:
    static kube::Result<Scenario> parseFile(const std::string &path);
    static kube::Result<Scenario> parseText(const std::string &text, const std::string &fileName);
    static kube::Result<Scenario> parseDocument(const kube::YamlDocument &document);
};

} // namespace scenario
