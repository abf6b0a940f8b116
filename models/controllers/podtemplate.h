#pragma once
// The pod a controller creates from its pod template, as upstream's PodControl makes it
// (controller.GetPodFromTemplate): the template's labels and annotations, a name generated from
// the controller's ("<name>-"), the controller's namespace and the controller as the pod's
// controlling owner; `spec` is the template's spec as the cluster shares it between pods.

#include "models/kube/gojson.h"
#include "models/kube/objectmeta.h"
#include "models/kube/pod.h"

#include <memory>
#include <string>

namespace controllers {

kube::Pod podFromTemplate(const kube::Json &podTemplate, std::shared_ptr<const kube::Json> spec,
                          const std::string &ns, kube::OwnerReference controller);

} // namespace controllers
