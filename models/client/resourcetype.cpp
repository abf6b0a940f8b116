#include "models/client/resourcetype.h"

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/poddisruptionbudget.h"
#include "models/kube/replicaset.h"

namespace client {

std::string ResourceType::collectionPath(const std::string &namespace_) const
{
    if (!namespaced || namespace_.empty())
        return groupVersionPath + "/" + plural;
    return groupVersionPath + "/namespaces/" + namespace_ + "/" + plural;
}

std::string ResourceType::objectPath(const std::string &namespace_, const std::string &name) const
{
    return collectionPath(namespace_) + "/" + name;
}

std::string ResourceType::qualifiedName() const
{
    const auto slash = apiVersion.find('/');
    return slash == std::string::npos ? plural : plural + "." + apiVersion.substr(0, slash);
}

template <> const ResourceType &resourceFor<kube::DaemonSet>()
{
    static const ResourceType r{"/apis/apps/v1", "daemonsets", "DaemonSet", "apps/v1", true};
    return r;
}

template <> const ResourceType &resourceFor<kube::ControllerRevision>()
{
    static const ResourceType r{"/apis/apps/v1", "controllerrevisions", "ControllerRevision", "apps/v1",
                                true};
    return r;
}

template <> const ResourceType &resourceFor<kube::Pod>()
{
    static const ResourceType r{"/api/v1", "pods", "Pod", "v1", true};
    return r;
}

template <> const ResourceType &resourceFor<kube::Node>()
{
    static const ResourceType r{"/api/v1", "nodes", "Node", "v1", false};
    return r;
}

template <> const ResourceType &resourceFor<kube::Event>()
{
    static const ResourceType r{"/api/v1", "events", "Event", "v1", true};
    return r;
}

template <> const ResourceType &resourceFor<kube::ReplicaSet>()
{
    static const ResourceType r{"/apis/apps/v1", "replicasets", "ReplicaSet", "apps/v1", true};
    return r;
}

template <> const ResourceType &resourceFor<kube::PodDisruptionBudget>()
{
    static const ResourceType r{"/apis/policy/v1", "poddisruptionbudgets", "PodDisruptionBudget", "policy/v1",
                                true};
    return r;
}

template <> const ResourceType &resourceFor<kube::Job>()
{
    static const ResourceType r{"/apis/batch/v1", "jobs", "Job", "batch/v1", true};
    return r;
}

} // namespace client
