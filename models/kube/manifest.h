#pragma once
// Manifest — one Kubernetes object read from a file, with where it came from. Loading flattens
// `---` streams and List kinds ("List", "DaemonSetList", ...: their items) and checks the shape
// every object needs — string apiVersion and kind, metadata.name or metadata.generateName —
// naming file:line:column and what is missing — and the JSON types of the fields the API server
// decodes (fieldtypes.h), naming the field at fault. Whether the kind is known is left to the
// typed decoders.

#include "models/kube/gojson.h"
#include "models/kube/result.h"
#include "models/kube/yamldocument.h"

#include <string>
#include <vector>

namespace kube {

struct Manifest
{
    Json object;
    std::string file;
    SourcePos pos;       // where the object starts
    std::string pointer; // where inside its document: "" or "/items/3"
    int document = 0;    // 0-based index of the `---` document (empty documents not counted)
};

// An empty text gives an empty list; use loadManifestFile to treat an empty file as an error.
Result<std::vector<Manifest>> loadManifests(const std::string &text, const std::string &fileName);
Result<std::vector<Manifest>> loadManifestFile(const std::string &path);
// The same checks on documents already read (scenario files embed manifests).
Result<std::vector<Manifest>> manifestsFromDocuments(const std::vector<YamlDocument> &documents);

} // namespace kube
