#pragma once
// The protobuf encoding of a Swagger 2.0 document, as kubectl reads /openapi/v2: gnostic's
// openapi.v2.Document (github.com/google/gnostic-models, openapiv2/OpenAPIv2.proto), the message
// kube-apiserver sends for Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf.
// The JSON document is encoded member by member, one function per message: maps become repeated
// Named* pairs in key order, "type" a TypeItem, "items" an ItemsItem, a parameter the oneof its
// "in" selects (body, query, path, header, formData), and every x- member a vendor extension
// whose Any carries the value as YAML text (kube-openapi parses that text back). Members the
// messages have no field for are left out, and so are the parts this server never publishes
// (shared parameter and response definitions, OAuth2 security schemes, xml).

#include "models/kube/gojson.h"

#include <string>

namespace server {

// The openapi.v2.Document message of a Swagger 2.0 document.
std::string encodeOpenApiV2(const kube::Json &document);

} // namespace server
