#pragma once
// Request bodies in Kubernetes' protobuf encoding (application/vnd.kubernetes.protobuf): the
// 4-byte magic "k8s\0", then a runtime.Unknown message whose typeMeta names the kind and whose
// raw bytes are the object's own message. kubectl 1.32 and later send the bodies of its typed
// clients this way: DeleteOptions and policy/v1 Eviction (drain, delete), Namespace and
// PodDisruptionBudget (`kubectl create namespace`, `kubectl create pdb`); these kinds are
// decoded into the JSON the server reads for them (the fields a client sets). Everything else
// is refused as an unsupported media type, and malformed input is a 400 naming what is wrong;
// nothing is read past the body.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <string>

namespace server {

inline constexpr const char *kProtobufMediaType = "application/vnd.kubernetes.protobuf";

// Whether a Content-Type names the protobuf media type (parameters ignored, any case).
bool isProtobufContentType(const std::string &contentType);

// The body as the JSON object the same request would carry in JSON: {"kind":"DeleteOptions",
// "gracePeriodSeconds":…,"preconditions":{…},"propagationPolicy":…,"dryRun":[…]} or
// {"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":…,"namespace":…},
// "deleteOptions":{…}}, or the Namespace / PodDisruptionBudget as JSON. 415 for another kind,
// 400 for a malformed message.
kube::Result<kube::Json> decodeProtobufBody(const std::string &body);

} // namespace server
