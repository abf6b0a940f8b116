#pragma once
// Kind — the resource kinds the embedded API server stores, with the names kubectl and the
// API use for them (kind "DaemonSet", resource "daemonsets.apps", short name "ds").

#include <optional>
#include <string>

namespace api {

// NodeUpgradeRollout (upgrade.daemonscope.io/v1alpha1, cluster-scoped) is the one custom kind.
// It, Lease (coordination.k8s.io/v1), Service (v1) and Job (batch/v1) are JSON kinds (isJsonKind): the store
// keeps them as the JSON object the API serves (Cluster::Impl::jsonObjects), checked and
// defaulted by jsonkinds.cpp.
enum class Kind {
    Namespace,
    Node,
    Pod,
    DaemonSet,
    ControllerRevision,
    ReplicaSet,
    Event,
    NodeUpgradeRollout,
    PodDisruptionBudget,
    Lease,
    Service,
    Job
};

// The built-in kinds; `daemonscope serve` serves these and NodeUpgradeRollout
// (server::ResourcePath::servedKinds).
inline constexpr Kind kAllKinds[] = {Kind::Namespace,
                                     Kind::Node,
                                     Kind::Pod,
                                     Kind::DaemonSet,
                                     Kind::ControllerRevision,
                                     Kind::ReplicaSet,
                                     Kind::Event,
                                     Kind::PodDisruptionBudget,
                                     Kind::Lease,
                                     Kind::Service,
                                     Kind::Job};

// Accepts the kind ("DaemonSet"), lower-case kind, plural resource ("daemonsets", with or
// without its group) and kubectl short names ("ds", "po", "no", "ns", "rs", "ev", "pdb", "nur",
// "svc").
std::optional<Kind> kindFromString(const std::string &text);
const char *kindName(Kind kind);          // "DaemonSet"
const char *resourceName(Kind kind);      // "daemonsets"
const char *qualifiedResource(Kind kind); // "daemonsets.apps" (core kinds: "pods")
const char *qualifiedKind(Kind kind);     // "DaemonSet.apps" (core kinds: "Pod"), used in Invalid
const char *apiVersion(Kind kind);        // "apps/v1", "v1", "policy/v1", "upgrade.daemonscope.io/v1alpha1"
const char *apiGroup(Kind kind);          // "apps", "" (core), "policy", "coordination.k8s.io" ...
bool isNamespaced(Kind kind);
bool isJsonKind(Kind kind); // NodeUpgradeRollout, Lease, Service, Job

} // namespace api
