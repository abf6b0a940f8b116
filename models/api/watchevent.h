#pragma once
// A watch event (apimachinery's watch.Event) as a store delivers it to its watchers: the type,
// the object's kind, namespace, name and resourceVersion, and the object as written. The
// simulated store (models/sim) sends these to its controllers and to `serve`'s watch
// streams; the controllers of models/controllers receive them through their client interface,
// whatever store is behind it.

#include "models/api/kind.h"
#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"

#include <cstdint>
#include <string>

namespace api {

struct WatchEvent
{
    enum class Type { Added, Modified, Deleted };
    Type type = Type::Added;
    Kind kind = Kind::Pod;
    std::string namespace_;
    std::string name;
    std::uint64_t resourceVersion = 0;
    // The object as written (for Deleted: its last state). Exactly the pointer of `kind` is
    // set; it is valid only during the callback.
    const kube::Pod *pod = nullptr;
    const kube::Node *node = nullptr;
    const kube::DaemonSet *daemonSet = nullptr;
    const kube::ControllerRevision *controllerRevision = nullptr;
    const kube::ReplicaSet *replicaSet = nullptr;
    const kube::Event *event = nullptr;
    const kube::PodDisruptionBudget *podDisruptionBudget = nullptr;
    const kube::ObjectMeta *namespaceObject = nullptr;
    const kube::Json *custom = nullptr; // JSON kinds (isJsonKind): the stored JSON object

    kube::Json object() const; // the full JSON an API server would send in the watch event
    std::string key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }
};
const char *watchEventTypeName(WatchEvent::Type type); // ADDED, MODIFIED, DELETED

} // namespace api
