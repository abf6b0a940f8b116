#pragma once
// OpenApi — the OpenAPI v3 documents of the served API, as kube-apiserver publishes them:
// GET /openapi/v3 is the index ({"paths": {"apis/apps/v1": {"serverRelativeURL":
// "/openapi/v3/apis/apps/v1?hash=…"}}}), and each group-version has one document with its
// paths (every verb of every resource and subresource, each operation carrying
// x-kubernetes-action and x-kubernetes-group-version-kind) and the schemas of its kinds and of
// every type they reach (kube::schema). kubectl reads them to
//   - find that PATCH takes fieldValidation and dryRun, and so leave validation to the server
//     (create, apply, replace and edit send fieldValidation=Strict),
//   - compute strategic-merge patches for `apply` from x-kubernetes-patch-merge-key/-strategy,
//   - print `kubectl explain`.
// GET /openapi/v2 is the same API as one Swagger 2.0 document (the paths of every group-version
// and a definition for every type of the schema table), in JSON or in its protobuf encoding
// (openapiv2.h); kubectl reads it for `kubectl explain --output=plaintext-openapiv2`, and some
// versions' `apply` for strategic-merge patch metadata.
// The documents never change while the server runs: they are built once, on first use.

#include "models/kube/apischema.h"

#include <string>

namespace server {

// The schema of a scalar the documents give inline (not a named component such as Quantity):
// {"type": "integer", "format": "int32"} …; anything else keeps its unknown fields.
kube::Json plainScalarSchema(kube::schema::Scalar s);

class OpenApi
{
public:
    // The index, as JSON text.
    static const std::string &index();
    // The document of one group-version by its index path ("api/v1", "apis/apps/v1"); null when
    // the server does not serve it.
    static const std::string *document(const std::string &path);
    // The hash the index gives for that document.
    static std::string hash(const std::string &path);
    // The Swagger 2.0 document, as JSON text and as gnostic's openapi.v2.Document message.
    static const std::string &v2Json();
    static const std::string &v2Protobuf();
};

} // namespace server
