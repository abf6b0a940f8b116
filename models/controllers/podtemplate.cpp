#include "models/controllers/podtemplate.h"

#include "models/kube/jsonfield.h"

namespace controllers {

kube::Pod podFromTemplate(const kube::Json &podTemplate, std::shared_ptr<const kube::Json> spec,
                          const std::string &ns, kube::OwnerReference controller)
{
    kube::Pod pod;
    if (const kube::Json *meta = kube::member(podTemplate, "metadata"); meta && meta->is_object()) {
        if (auto labels = kube::stringMapFromJson(meta->value("labels", kube::Json()), "labels"))
            pod.metadata.labels = std::move(*labels);
        if (auto annotations =
                kube::stringMapFromJson(meta->value("annotations", kube::Json()), "annotations"))
            pod.metadata.annotations = std::move(*annotations);
    }
    pod.metadata.generateName = controller.name + "-";
    pod.metadata.namespace_ = ns;
    controller.controller = true;
    controller.blockOwnerDeletion = true;
    pod.metadata.ownerReferences.push_back(std::move(controller));
    pod.spec = std::move(spec);
    return pod;
}

} // namespace controllers
