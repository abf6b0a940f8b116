#pragma once
// YamlDocument — one YAML or JSON document read into Json, remembering where every node came
// from so that later layers (manifest checks, typed decoders, scenario files) can name
// "file:line:column" in their messages.
//
// Scalars are read the way kubectl reads manifests (sigs.k8s.io/yaml on go-yaml v2): plain
// scalars follow YAML 1.1 — yes/no/on/off/y/n are booleans, 0644 is octal (420), 0x1F hex,
// 1_000 an integer; quoted and block scalars are always strings; timestamps stay strings.
// Integers beyond uint64 become doubles (go-yaml's ParseFloat fallback); .inf and .nan are
// errors because JSON cannot carry them. Non-string keys become their text ("1", "true"), as
// sigs.k8s.io/yaml converts them; a null or collection key is an error. Anchors, aliases and
// "<<" merge keys work; duplicate keys are errors (kubectl's strict decoding). A document
// holding only null (empty, "~", comments) is skipped.
//
// Limits, each an error at the node that passes it: 256 levels of nesting, 10,000 documents,
// scalars of 16 MiB, and aliases (or merge keys) may add 1,000,000 nodes and 64 MiB of text to
// a file. A flow indicator that cannot start a document (',' outside [...] or {...}) is an error
// too; yaml-cpp 0.7 would loop on it for ever.
//
// Every error message starts with "FILE:LINE:COLUMN: ".
//
// Most manifests are read by a fast reader of our own (yamlfast.h) for the block-style YAML that
// kubectl and people write; it builds exactly the documents yaml-cpp's reader builds (values,
// positions, key positions) and declines anything else — anchors, tags, tabs, multi-line plain
// scalars, every error — which yaml-cpp then reads from the start as before, so messages and odd
// cases are unchanged. tests/kube/tst_yamlfast.cpp compares the two readers.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <map>
#include <string>
#include <vector>

namespace kube {

struct SourcePos
{
    int line = 0; // 1-based; 0 = unknown
    int column = 0;
    bool operator==(const SourcePos &) const = default;
};

struct YamlDocument
{
    Json value;
    std::string file; // name used in messages
    // JSON pointer ("/spec/template/spec/containers/0") -> position of that node's value;
    // "" is the document root.
    std::map<std::string, SourcePos> positions;
    // JSON pointer of a map entry -> position of its key.
    std::map<std::string, SourcePos> keyPositions;

    // Position of the node, or of its nearest ancestor that has one.
    SourcePos posOf(const std::string &pointer) const;
    // "file:line:column" for posOf(pointer).
    std::string where(const std::string &pointer) const;
};

// Which positions a reader records. Roots: those of the document roots ("") at least, for a
// caller that needs others only to name a problem and then reads the text again with All
// (the same text gives the same documents and the same errors either way). Only the fast reader
// leaves the others out.
enum class YamlPositions { All, Roots };

// Reads a `---` separated stream. Text whose first non-blank character is '{' or '[' that fails
// to parse is reported with the JSON parser's diagnosis.
Result<std::vector<YamlDocument>> parseYamlDocuments(const std::string &text, const std::string &fileName,
                                                     YamlPositions positions = YamlPositions::All);
// Reads a file; a missing, unreadable or empty file (or one without any document) is an error
// naming the file.
Result<std::vector<YamlDocument>> loadYamlFile(const std::string &path);
// loadYamlFile in two steps, for a caller that may read the text twice: the text of the file (a
// missing, unreadable or empty file is an error), then its documents (none is an error).
Result<std::string> readYamlFile(const std::string &path);
Result<std::vector<YamlDocument>> parseYamlFile(const std::string &text, const std::string &path,
                                                YamlPositions positions = YamlPositions::All);

// Appends the RFC 6901 escaped form of a key ("~" -> "~0", "/" -> "~1") to a pointer.
std::string appendPointer(const std::string &pointer, const std::string &key);

} // namespace kube
