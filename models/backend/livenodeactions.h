#pragma once
// LiveNodeActions — the node actions and permission questions on a real cluster, with kubectl's
// API calls:
//
//  - cordon / uncordon: a strategic merge PATCH of spec.unschedulable (kubectl's CordonHelper);
//  - drain: cordon, GET pods with fieldSelector spec.nodeName=NODE, GET each DaemonSet a pod
//    names (daemonSetFilter), api::getPodsForDeletion decides, then POST
//    pods/NAME/eviction (policy/v1 Eviction) per pod. A 429 is a pod a PodDisruptionBudget keeps:
//    the budgets of its namespace are read to name it with its numbers;
//  - can-i: POST a SelfSubjectAccessReview (authorization.k8s.io/v1), `kubectl auth can-i`.
//
// Messages are the API's; they never contain credentials. Blocking: call off the GUI thread.

#include "models/api/kubectldrain.h"
#include "models/client/kubeclient.h"

#include <string>
#include <vector>

namespace models {

struct LiveDrainStart
{
    api::DrainPlan plan;
    bool cordoned = false; // this call cordoned the node (it was schedulable)
};

// One eviction's answer, as api::DrainRun's rounds take it (Blocked: budgetBlockText(); Failed:
// "POD: the API's message").
using LiveEviction = api::DrainRun::Answer;

struct AccessQuestion
{
    std::string verb;     // "patch", "create"
    std::string group;    // "" for core, "apps", "policy"
    std::string resource; // "daemonsets", "nodes", "pods"
    std::string subresource;
    std::string namespace_; // empty: cluster-scoped, or every namespace
};

class LiveNodeActions
{
public:
    explicit LiveNodeActions(client::KubeClient &client) : m_client(client) {}

    // kubectl cordon / uncordon. Returns whether the node changed (false: it already was).
    kube::Result<bool> setUnschedulable(const std::string &node, bool unschedulable);
    // The first half of kubectl drain: cordon, list the node's pods, decide.
    kube::Result<LiveDrainStart> startDrain(const std::string &node, const api::DrainOptions &options);
    // POST pods/NAME/eviction. A pod that is gone counts as evicted, as for kubectl.
    LiveEviction evict(const std::string &ns, const std::string &pod);
    // SelfSubjectAccessReview: status.allowed.
    kube::Result<bool> canI(const AccessQuestion &question);

private:
    client::KubeClient &m_client;
};

} // namespace models
