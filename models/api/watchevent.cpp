#include "models/api/watchevent.h"

namespace api {

const char *watchEventTypeName(WatchEvent::Type type)
{
    switch (type) {
    case WatchEvent::Type::Added:
        return "ADDED";
    case WatchEvent::Type::Modified:
        return "MODIFIED";
    case WatchEvent::Type::Deleted:
        return "DELETED";
    }
    return "";
}

kube::Json WatchEvent::object() const
{
    if (pod)
        return pod->toJson();
    if (node)
        return node->toJson();
    if (daemonSet)
        return daemonSet->toJson();
    if (controllerRevision)
        return controllerRevision->toJson();
    if (replicaSet)
        return replicaSet->toJson();
    if (event)
        return event->toJson();
    if (podDisruptionBudget)
        return podDisruptionBudget->toJson();
    if (namespaceObject)
        return {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", namespaceObject->toJson()}};
    if (custom)
        return *custom;
    return kube::Json();
}

} // namespace api
