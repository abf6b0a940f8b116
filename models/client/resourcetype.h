#pragma once
// ResourceType — where a kind lives in the REST API (group-version path, plural, scope), and
// the mapping from the kube value types the client handles to their resources.

#include <string>

namespace kube {
struct DaemonSet;
struct ControllerRevision;
struct Pod;
struct Node;
struct Event;
struct ReplicaSet;
struct PodDisruptionBudget;
struct Job;
} // namespace kube

namespace client {

struct ResourceType
{
    std::string groupVersionPath; // "/api/v1" or "/apis/apps/v1"
    std::string plural;           // "daemonsets"
    std::string kind;             // "DaemonSet"
    std::string apiVersion;       // "apps/v1"
    bool namespaced = true;

    // Collection path; an empty namespace means all namespaces.
    std::string collectionPath(const std::string &namespace_) const;
    std::string objectPath(const std::string &namespace_, const std::string &name) const;
    // "daemonsets.apps" / "pods", as API messages name resources.
    std::string qualifiedName() const;
};

template <typename T> const ResourceType &resourceFor();
template <> const ResourceType &resourceFor<kube::DaemonSet>();
template <> const ResourceType &resourceFor<kube::ControllerRevision>();
template <> const ResourceType &resourceFor<kube::Pod>();
template <> const ResourceType &resourceFor<kube::Node>();
template <> const ResourceType &resourceFor<kube::Event>();
template <> const ResourceType &resourceFor<kube::ReplicaSet>();
template <> const ResourceType &resourceFor<kube::PodDisruptionBudget>();
template <> const ResourceType &resourceFor<kube::Job>();

} // namespace client
