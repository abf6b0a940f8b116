#pragma once
// LiveSnapshotBuilder — the live cluster's source of ClusterSnapshots: it keeps the watched
// DaemonSets, their ControllerRevisions and the events as its reflectors deliver them, feeds the
// pods and nodes into the SnapshotAssembler (the pipeline the embedded backend shares, so both
// show identical values), and at each build hands it the DaemonSets with their own revisions.
//
// History follows kubectl: a revision belongs to a DaemonSet when its controller owner
// reference carries the DaemonSet's UID; the current revision is the highest one whose data
// matches the DaemonSet's template (byte equality as the controller does, or equal templates
// when the server serialises differently from the engine).
//
// Single-threaded: the live worker owns it.

#include "models/snapshot/snapshotassembler.h"

#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace models {

struct LiveUpgradeView;

class LiveSnapshotBuilder
{
public:
    void setBackendInfo(const BackendInfo &info);
    const BackendInfo &backendInfo() const { return m_backend; }
    RolloutTracker &tracker() { return m_assembler.tracker(); }

    // `now`: wall time of the observation (the tracker's clock on a live cluster).
    void daemonSetChanged(const kube::DaemonSet &ds, bool deleted, kube::Timestamp now);
    void revisionChanged(const std::string &dsKey, const kube::ControllerRevision &cr, bool deleted);
    void podChanged(const std::string &dsKey, const kube::Pod &pod, bool created, bool deleted,
                    kube::Timestamp now);
    void nodeChanged(const kube::Node &node, bool deleted);
    void eventChanged(const kube::Event &event, bool deleted);
    // Drops the DaemonSet's pods and revisions (its watches ended).
    void forgetDaemonSet(const std::string &dsKey);

    const kube::DaemonSet *daemonSet(const std::string &key) const;
    // The node-agent upgrade part: the LiveUpgradeRuntime's latest view (a new pointer marks
    // it changed).
    void setUpgrades(std::shared_ptr<const LiveUpgradeView> view);
    bool hasChanges() const;
    std::shared_ptr<const ClusterSnapshot> build(const ClockInfo &clock);

    // The current revision's name among `revisions` (see the class comment), empty when none.
    static std::string currentRevisionName(const kube::DaemonSet &ds,
                                           const std::map<std::string, kube::ControllerRevision> &revisions);

private:
    BackendInfo m_backend;
    bool m_backendDirty = true;
    SnapshotAssembler m_assembler;

    std::map<std::string, kube::DaemonSet> m_daemonSets;                                // key -> DS
    std::map<std::string, std::map<std::string, kube::ControllerRevision>> m_revisions; // dsKey -> name -> CR
    // The DaemonSet whose pods include NAME in namespace NS (its key), or null: a search of that
    // namespace's DaemonSets in the assembler's pods, not a second index of every pod.
    const std::string *podOwner(const std::string &ns, const std::string &name) const;
    // Events about a pod not known (yet) as a DaemonSet's: "ns/pod" -> event keys. The lists
    // arrive in any order, so such an event gets its DaemonSet when the pod comes.
    std::map<std::string, std::set<std::string>> m_eventsAwaitingPod;
    std::map<std::string, EventInfo> m_events;

    std::shared_ptr<const LiveUpgradeView> m_upgrades;
    bool m_upgradesDirty = false;
    // While another controller drives: the view's rollouts with the cluster's Events about each
    // rollout and its nodes (the controller that posted them is elsewhere), rebuilt when either
    // changes.
    std::shared_ptr<const UpgradeRolloutList> m_observedUpgrades;
    std::shared_ptr<const UpgradeRolloutList> m_observedSource; // the view's list it was made from
    void observeUpgradeEvents();
};

} // namespace models
