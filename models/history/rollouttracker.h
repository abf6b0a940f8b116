#pragma once
// RolloutTracker — records, per DaemonSet, when each rollout started (a template change was
// observed), when it completed, how long each node's pod replacement took, and the actions
// the user took. It is fed from the engine's watch fan-out (observe*), so its times are the
// virtual times at which the writes happened, not the coarser times of snapshot publication.
//
// Assumptions: a pod belongs to the DaemonSet named by its controller reference; a rollout's
// target hash is the template hash of the DaemonSet's new template (api::templateHash with
// the DaemonSet's collisionCount), corrected by reconcile() with the current revision's hash
// when they differ (rollback to a revision hashed under another collisionCount). A node's
// replacement starts at the first of (old pod deleted, new pod created) and ends when the new
// pod becomes Ready. A template change before completion supersedes the running rollout.
//
// Single-threaded: the worker that owns the Cluster owns the tracker.

#include "models/snapshot/snapshot.h"

#include "models/kube/daemonset.h"
#include "models/kube/pod.h"

#include <map>
#include <memory>
#include <string>

namespace models {

class RolloutTracker
{
public:
    // First sighting records the template without starting a rollout; a later template change
    // starts one. `deleted` forgets the rollout state (the record of actions stays).
    void observeDaemonSet(const kube::DaemonSet &ds, kube::Timestamp now, bool deleted = false);
    // A pod write (created = ADDED, else MODIFIED/DELETED) for the DaemonSet `dsKey`.
    void observePod(const kube::Pod &pod, const std::string &dsKey, bool created, kube::Timestamp now);
    // A ControllerRevision of `dsKey` was written: its number as of now names rollouts that
    // start from or go to it (later renumbering by a rollback does not rewrite them).
    void observeRevision(const std::string &dsKey, const std::string &hash, std::int64_t number);
    // Sets the target hash/revision of the running rollout from the cluster's current revision.
    // numberByHash: the DaemonSet's revision numbers by hash (names the rollout's from-revision).
    void reconcile(const std::string &dsKey, const std::string &currentHash, std::int64_t currentRevision,
                   const std::map<std::string, std::int64_t> &numberByHash);
    void recordAction(const std::string &dsKey, ActionRecord action);

    // The immutable record for a snapshot; the same pointer until something changes.
    std::shared_ptr<const DaemonSetRecord> record(const std::string &dsKey);
    // The rollout in progress (not completed, not superseded), null when none.
    const RolloutTiming *activeRollout(const std::string &dsKey) const;
    void clear() { m_entries.clear(); }

private:
    struct Entry
    {
        kube::Json podTemplate;
        bool seen = false;
        std::string hash; // hash of the last observed template
        DaemonSetRecord record;
        std::map<std::string, std::size_t> nodeIndex; // node -> index in the active rollout's nodes
        std::map<std::string, std::int64_t> numbers;  // revision number by hash, as last written
        std::shared_ptr<const DaemonSetRecord> published;
    };
    RolloutTiming *active(Entry &e);

    std::map<std::string, Entry> m_entries;
};

} // namespace models
