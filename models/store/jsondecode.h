#pragma once
// What kube-apiserver's decoder says of a JSON kind's field with the wrong JSON type, shared by
// the files that decode the JSON kinds (jsonkinds.cpp, jobkind.cpp, servicekind.cpp). Private
// to the store.

#include "models/api/kind.h"
#include "models/kube/apistatus.h"
#include "models/kube/gojson.h"

#include <string>

namespace store {

// "Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number into
// Go struct field ServiceSpec.spec.type of type string".
kube::ApiStatus cannotDecode(api::Kind kind, const std::string &goField, const kube::Json &got,
                             const char *goType);
// A JSON integer that fits Go's int32.
bool isInt32(const kube::Json &v);

} // namespace store
