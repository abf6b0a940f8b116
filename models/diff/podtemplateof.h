#pragma once
// The pod template (PodTemplateSpec {metadata, spec}) inside a workload manifest, so that any
// two objects that carry one can be diffed.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

namespace diff {

// DaemonSet, Deployment, ReplicaSet, StatefulSet → spec.template; ControllerRevision →
// data.spec.template without its "$patch" key (data may be an object or a JSON string);
// PodTemplate → template. Errors (Invalid) name the kind, the object and what is missing, or the
// first field whose JSON type the API server would refuse (kube::fieldTypeErrors).
// AlreadyChecked skips that check for an object known to pass it — one kube::loadManifests
// returned, which refuses objects with such fields.
enum class FieldTypes { Check, AlreadyChecked };
kube::Result<kube::Json> podTemplateOf(const kube::Json &object, FieldTypes types = FieldTypes::Check);
// The same for an object the caller gives up: the template is moved out of it, not copied.
kube::Result<kube::Json> podTemplateOf(kube::Json &&object, FieldTypes types = FieldTypes::Check);

} // namespace diff
