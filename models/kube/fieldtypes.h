#pragma once
// The JSON types of the fields the API server decodes into typed Go structs, for every built-in
// kind in the schema table (apischema.h: DaemonSet, ControllerRevision, Pod, PodTemplate,
// Deployment, ReplicaSet, StatefulSet, Node, Service, Lease ...). The API server refuses a body whose
// `revision` is "three" or whose `containers` is a map before any validation runs ("cannot unmarshal string
// into Go struct field ControllerRevision.revision of type int64"); this is that check, so that manifests
// from files and bodies from the HTTP API are refused with the field at fault instead of being
// misread. As in encoding/json, null is accepted everywhere; unknown fields are
// schema::unknownFields' business.

#include "models/kube/gojson.h"

#include <string>
#include <vector>

namespace kube {

struct FieldTypeError
{
    std::string pointer; // JSON pointer of the value, for positions: "/spec/template/spec/containers"
    std::string path;    // the API server's field path: "spec.template.spec.containers[0].name"
    std::string value;   // the value as JSON, shortened
    std::string detail;  // "must be a string"

    // "spec.template.spec.containers[0].name: Invalid value: 5: must be a string"
    std::string text() const;
};

// Type errors of a whole object, by its kind; an unknown kind has only its metadata checked.
std::vector<FieldTypeError> fieldTypeErrors(const Json &object);
// Type errors of a DaemonSet's spec (paths start with "spec.").
std::vector<FieldTypeError> daemonSetSpecTypeErrors(const Json &spec);
// Type errors of a pod template found at `pointer` / `path` (a ControllerRevision's data holds
// one that the API server itself does not decode).
std::vector<FieldTypeError> podTemplateTypeErrors(const Json &tpl, const std::string &pointer,
                                                  const std::string &path);

} // namespace kube
