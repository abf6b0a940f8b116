#pragma once
// The two readers behind parseYamlDocuments (yamldocument.h), for the loader and its tests.
//
// The fast reader handles the block-style YAML that kubectl and people write for manifests:
// block maps and lists (also "- key: value" and lists not indented under their key), plain,
// quoted, literal and folded scalars, comments, "---" and "..." lines, and flow lists and maps
// written on one line ("[]", "{}", ["a", b], {a: 1}). It builds exactly the YamlDocument
// yaml-cpp's reader builds (the same values, positions and key positions) and declines — returns
// nothing — on anything else: anchors, aliases, tags, merge keys, directives, tabs, non-ASCII or
// control characters, multi-line plain or quoted scalars, null list items, duplicate or null keys,
// unusual indentation and every error. The loader then reads the whole text with yaml-cpp.

#include "models/kube/yamldocument.h"

#include <optional>
#include <string>
#include <vector>

namespace kube::detail {

// Length of the valid UTF-8 sequence at s[i] (1 for ASCII), or 0 when it is malformed, overlong,
// a surrogate or beyond U+10FFFF. Both readers check text with it.
std::size_t utf8Length(const std::string &s, std::size_t i);

// The documents of `text`, or nullopt when the text holds anything the fast reader declines.
// `file` is the name the documents carry (already "<input>" for an unnamed text). With
// YamlPositions::Roots only the roots' positions are recorded; the values, and whether the text
// is declined, do not depend on it.
std::optional<std::vector<YamlDocument>> parseYamlDocumentsFast(const std::string &text,
                                                                const std::string &file,
                                                                YamlPositions positions = YamlPositions::All);

// parseYamlDocuments without the fast reader: yaml-cpp reads every text.
Result<std::vector<YamlDocument>> parseYamlDocumentsSlow(const std::string &text,
                                                         const std::string &fileName);

} // namespace kube::detail
