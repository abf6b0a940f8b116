#pragma once
// UpgradeCluster — everything the node-upgrade controller reads from and writes to a cluster:
// a clock with timers, listers of nodes, pods, ReplicaSets, PodDisruptionBudgets and
// NodeUpgradeRollouts, watches of pods, nodes and ReplicaSets, and the writes it makes with
// the API operations kubectl uses (node patches, cordon, taints, evictions, deletions, the
// rollout's spec and status, events). The controller sees nothing else of a cluster, so the
// same controller code drives the simulated store (models/sim/embeddedupgradecluster.h) and a live
// API server (models/liveupgrade/liveupgradecluster.h: reflectors for reading, the kube client for
// writing).
//
// The contract an implementation keeps:
// - Reads see every write this controller made and the API server accepted (read your own
//   writes): a write's answer updates what the listers return before the write returns, and the
//   watchers hear of it then, as a Modified (or Deleted) event. Changes made by others reach the
//   listers and the watchers between the controller's calls, never during one.
// - Pointers from the listers stay valid until the object is deleted: a write or a change
//   updates the object in place (the controller keeps a pointer into a node's annotations across
//   its own writes to the node within a pass).
// - Timers run on the thread that calls the controller, one at a time, in time order; `now()`
//   never goes back.
// - A refused write changes nothing and returns the API server's status (HTTP code, reason,
//   message).

#include "models/api/deleteoptions.h"
#include "models/api/nodeupgraderollout.h"
#include "models/api/watchevent.h"
#include "models/kube/job.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace controllers {

class UpgradeCluster
{
public:
    virtual ~UpgradeCluster() = default;

    // ---- clock and timers ------------------------------------------------------------------
    virtual kube::Timestamp now() const = 0;
    // False for a stepped scenario: no timers run, the controller passes only when asked.
    virtual bool runsTimers() const = 0;
    // Runs fn at time t (at once when t has passed), after everything already due by then.
    virtual void schedule(kube::Timestamp t, std::function<void()> fn) = 0;

    // ---- listers ---------------------------------------------------------------------------
    virtual const kube::Node *node(const std::string &name) const = 0;
    virtual std::vector<const kube::Node *> nodes() const = 0; // by name
    virtual const kube::Pod *pod(const std::string &ns, const std::string &name) const = 0;
    virtual std::vector<const kube::Pod *> pods() const = 0; // by namespace, then name
    // The pods bound to the node, by name then namespace.
    virtual std::vector<const kube::Pod *> podsOnNode(const std::string &node) const = 0;
    virtual const kube::ReplicaSet *replicaSet(const std::string &ns, const std::string &name) const = 0;
    virtual std::vector<const kube::ReplicaSet *> replicaSets() const = 0; // by namespace, then name
    virtual std::vector<const kube::PodDisruptionBudget *> podDisruptionBudgets() const = 0;
    // A restart Job (batch/v1) as the job controller reports it; nullopt when there is none.
    virtual std::optional<kube::Job> job(const std::string &ns, const std::string &name) const = 0;
    virtual const api::NodeUpgradeRollout *rollout(const std::string &name) const = 0;
    virtual std::vector<const api::NodeUpgradeRollout *> rollouts() const = 0; // by name

    // ---- watches (Kind::Pod, Kind::Node, Kind::ReplicaSet) ---------------------------------
    virtual int watch(api::Kind kind, std::function<void(const api::WatchEvent &)> callback) = 0;
    virtual void unwatch(int id) = 0;

    // ---- writes ----------------------------------------------------------------------------
    // JSON merge patch of a node (annotations).
    virtual kube::Result<void> patchNode(const std::string &name, const kube::Json &mergePatch) = 0;
    virtual kube::Result<void> cordon(const std::string &node) = 0;
    virtual kube::Result<void> uncordon(const std::string &node) = 0;
    virtual kube::Result<void> taint(const std::string &node, const kube::Taint &taint) = 0;
    virtual kube::Result<void> untaint(const std::string &node, const std::string &key) = 0; // every effect
    // Sets conditions of the node's status (by type; the transition time kept when the status
    // stays) and removes those of the `remove` types, in one status write (nodes/NAME/status);
    // nothing is written when nothing changes.
    virtual kube::Result<void> setNodeConditions(const std::string &node,
                                                 const std::vector<kube::NodeCondition> &set,
                                                 const std::vector<std::string> &remove) = 0;
    // POST pods/NAME/eviction (policy/v1), or its dry run.
    virtual kube::Result<void> evict(const std::string &ns, const std::string &name,
                                     const api::EvictOptions &options = {}) = 0;
    // DELETE of a pod with its own grace period (a forced drain step).
    virtual kube::Result<void> deletePod(const std::string &ns, const std::string &name) = 0;
    // POST of a batch/v1 Job (restart mechanism Job); 409 AlreadyExists when it exists.
    virtual kube::Result<void> createJob(const kube::Json &job) = 0;
    // Edits the rollout's spec or annotations (admin actions), or its status.
    virtual kube::Result<void> editRollout(const std::string &name,
                                           const std::function<void(api::NodeUpgradeRollout &)> &fn) = 0;
    virtual kube::Result<void> updateRolloutStatus(const std::string &name,
                                                   const api::NodeUpgradeRolloutStatus &status) = 0;
    // A core/v1 Event about a node or a rollout, reported by the node-upgrade controller.
    virtual void recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                             api::Kind kind, const std::string &ns, const std::string &name) = 0;
};

} // namespace controllers
