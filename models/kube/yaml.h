#pragma once
// YAML rendering in the shape `kubectl get -o yaml` prints (go-yaml v2 through sigs.k8s.io/yaml):
// block style, keys in byte order, two-space indentation, sequences not indented under their
// parent key ("containers:\n- image: ..."), strings quoted only when their plain form would read
// back as something else or is not allowed ("1" and "true" double-quoted as go-yaml does,
// "*" and "a: b" single-quoted), strings with line breaks as literal blocks ("|", "|-", "|+"),
// empty maps and lists inline ({} and []), non-printable characters double-quoted with escapes.
//
// Unlike go-yaml, long scalars are never folded at 80 columns: a changed word in a long
// annotation then shows as one changed line in a diff. parseYamlDocuments() reads the output back
// to an equal Json.

#include "models/kube/gojson.h"

#include <string>

namespace kube {

std::string toYaml(const Json &value);

} // namespace kube
