#include "models/api/kind.h"

#include <algorithm>
#include <cctype>

namespace api {

namespace {

struct KindInfo
{
    Kind kind;
    const char *name;
    const char *resource;
    const char *qualifiedResource;
    const char *qualifiedKind;
    const char *apiVersion;
    const char *shortName;
    bool namespaced;
};

const KindInfo kInfo[] = {
    {Kind::Namespace, "Namespace", "namespaces", "namespaces", "Namespace", "v1", "ns", false},
    {Kind::Node, "Node", "nodes", "nodes", "Node", "v1", "no", false},
    {Kind::Pod, "Pod", "pods", "pods", "Pod", "v1", "po", true},
    {Kind::DaemonSet, "DaemonSet", "daemonsets", "daemonsets.apps", "DaemonSet.apps", "apps/v1", "ds", true},
    {Kind::ControllerRevision, "ControllerRevision", "controllerrevisions", "controllerrevisions.apps",
     "ControllerRevision.apps", "apps/v1", "controllerrevision", true},
    {Kind::ReplicaSet, "ReplicaSet", "replicasets", "replicasets.apps", "ReplicaSet.apps", "apps/v1", "rs",
     true},
    {Kind::Event, "Event", "events", "events", "Event", "v1", "ev", true},
    {Kind::NodeUpgradeRollout, "NodeUpgradeRollout", "nodeupgraderollouts",
     "nodeupgraderollouts.upgrade.daemonscope.io", "NodeUpgradeRollout.upgrade.daemonscope.io",
     "upgrade.daemonscope.io/v1alpha1", "nur", false},
    {Kind::PodDisruptionBudget, "PodDisruptionBudget", "poddisruptionbudgets", "poddisruptionbudgets.policy",
     "PodDisruptionBudget.policy", "policy/v1", "pdb", true},
    {Kind::Lease, "Lease", "leases", "leases.coordination.k8s.io", "Lease.coordination.k8s.io",
     "coordination.k8s.io/v1", "lease", true},
    {Kind::Service, "Service", "services", "services", "Service", "v1", "svc", true},
    {Kind::Job, "Job", "jobs", "jobs.batch", "Job.batch", "batch/v1", "job", true},
};

const KindInfo &info(Kind k)
{
    return kInfo[static_cast<int>(k)];
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

std::optional<Kind> kindFromString(const std::string &text)
{
    const std::string t = lower(text);
    for (const auto &i : kInfo) {
        const std::string name = lower(i.name);
        if (t == name || t == i.resource || t == i.qualifiedResource || t == i.shortName ||
            t == lower(i.qualifiedKind))
            return i.kind;
        // singular resource with group ("daemonset.apps")
        const std::string group = apiGroup(i.kind);
        if (!group.empty() && t == name + "." + group)
            return i.kind;
    }
    return std::nullopt;
}

const char *kindName(Kind kind)
{
    return info(kind).name;
}
const char *resourceName(Kind kind)
{
    return info(kind).resource;
}
const char *qualifiedResource(Kind kind)
{
    return info(kind).qualifiedResource;
}
const char *qualifiedKind(Kind kind)
{
    return info(kind).qualifiedKind;
}
const char *apiVersion(Kind kind)
{
    return info(kind).apiVersion;
}
const char *apiGroup(Kind kind)
{
    // The group is the apiVersion up to its slash; core kinds ("v1") have none.
    switch (kind) {
    case Kind::DaemonSet:
    case Kind::ControllerRevision:
    case Kind::ReplicaSet:
        return "apps";
    case Kind::NodeUpgradeRollout:
        return "upgrade.daemonscope.io";
    case Kind::PodDisruptionBudget:
        return "policy";
    case Kind::Lease:
        return "coordination.k8s.io";
    case Kind::Job:
        return "batch";
    case Kind::Namespace:
    case Kind::Service:
    case Kind::Node:
    case Kind::Pod:
    case Kind::Event:
        break;
    }
    return "";
}
bool isNamespaced(Kind kind)
{
    return info(kind).namespaced;
}

bool isJsonKind(Kind kind)
{
    return kind == Kind::NodeUpgradeRollout || kind == Kind::Lease || kind == Kind::Service ||
           kind == Kind::Job;
}

} // namespace api
