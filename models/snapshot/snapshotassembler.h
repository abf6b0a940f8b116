#pragma once
// SnapshotAssembler — the one pipeline that turns a cluster's objects into ClusterSnapshots, for
// both sources: the embedded engine (SnapshotBuilder, models/embedded/) and a live cluster's
// reflectors (LiveSnapshotBuilder). A source tells it what its watches delivered (the pods of each
// DaemonSet, the nodes, which DaemonSets, revisions and events changed) and, at each build, hands
// it the objects it holds; the assembler keeps the converted mirror and assembles the snapshot —
// the nodes, the newest events, every DaemonSet with its pods, revisions, rollout record and badge
// — sharing whatever did not change with the previous snapshot by pointer.
//
// The conversions of single objects (nodeInfo, podInfo, badges, image summaries) are its static
// helpers, so both sources show identical values.
//
// Single-threaded: the source's owner calls it.

#include "models/history/rollouttracker.h"
#include "models/liveupgrade/observedupgrade.h"
#include "models/snapshot/snapshot.h"
#include "models/snapshot/stringpool.h"

#include <QSet>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kube {
struct ControllerRevision;
struct DaemonSet;
struct Node;
struct Pod;
} // namespace kube

namespace models {

class SnapshotAssembler
{
public:
    RolloutTracker &tracker() { return m_tracker; }
    ObservedUpgradeTracker &observed() { return m_observed; }

    // ---- what the source's watches delivered ----------------------------------------------
    // A pod of DaemonSet `dsKey` written (converted now) or deleted, observed at `now` (`created`:
    // it is new); a pod found as the source starts, which the rollout records do not observe.
    void podChanged(const std::string &dsKey, const kube::Pod &pod, bool created, bool deleted,
                    kube::Timestamp now);
    void podLoaded(const std::string &dsKey, const kube::Pod &pod);
    // The converted pods, by DaemonSet key and pod name.
    const std::map<std::string, std::map<std::string, PodInfo>> &pods() const { return m_pods; }
    // The converted nodes by name; a source that changes them says so with nodesChanged().
    std::map<std::string, NodeInfo> &nodes() { return m_nodes; }
    void nodesChanged() { m_nodesDirty = true; }
    // A DaemonSet written or deleted, observed at `now`; the set of namespaces changed.
    void daemonSetChanged(const kube::DaemonSet &ds, bool deleted, kube::Timestamp now);
    void daemonSetListChanged() { m_daemonSetListDirty = true; }
    // A revision of DaemonSet `dsKey` written or deleted; a revision no DaemonSet owns deleted
    // (its parsed template is not kept).
    void revisionChanged(const std::string &dsKey, const kube::ControllerRevision &cr, bool deleted);
    void revisionDeleted(const std::string &revisionKey) { m_revisionTemplates.erase(revisionKey); }
    // Drops what is kept of the DaemonSet's pods and of its revisions `revisionKeys`.
    void forgetDaemonSet(const std::string &dsKey, const std::vector<std::string> &revisionKeys);
    void eventsChanged() { m_eventsDirty = true; }
    bool eventsDirty() const { return m_eventsDirty || !m_previous; }
    // Nothing built yet, or something changed since the last build (the clock not considered).
    bool hasChanges() const;

    // ---- one build ------------------------------------------------------------------------
    // begin() starts the snapshot (sequence, backend, clock, the nodes); the source publishes
    // the events when they changed (publishEvents) and adds each DaemonSet (addDaemonSet), then
    // finish() orders the DaemonSets by key, adds the upgrades other tools drive and keeps the
    // snapshot as the next build's previous.
    std::shared_ptr<ClusterSnapshot> begin(const BackendInfo &backend, const ClockInfo &clock);
    // The previous snapshot's events when none changed; otherwise the newest kMaxEvents of
    // `all`, newest first, which are taken out of it (the older ones stay, for the source to drop).
    void publishEvents(ClusterSnapshot &snap, std::vector<EventInfo> &all);
    // The revisions a DaemonSet owns and the name of its current one.
    using RevisionsOf =
        std::function<std::pair<std::vector<const kube::ControllerRevision *>, std::string>()>;
    // The DaemonSet's entry: the previous snapshot's when nothing of it changed, otherwise
    // assembled from `ds`, its pods and `revisions()` (asked only then); its rollout record and
    // badge are set either way.
    void addDaemonSet(ClusterSnapshot &snap, const kube::DaemonSet &ds, const RevisionsOf &revisions);
    // The previous snapshot, null before the first.
    const ClusterSnapshot *previous() const { return m_previous.get(); }
    std::shared_ptr<const ClusterSnapshot> finish(std::shared_ptr<ClusterSnapshot> snap);

    // ---- single objects, shared with the sources and tests --------------------------------
    // The badge rule documented at RolloutBadge. `oldestNotReadyCreated`: creation time of the
    // oldest non-terminating, not Ready pod on the current revision (0 when none).
    // `upgradingNodes`: nodes a node-agent upgrade has in flight (see RolloutBadge).
    // `notReadyNodes`: nodes that are not Ready (see RolloutBadge::Settled).
    static std::pair<RolloutBadge, QString> computeBadge(const DaemonSetInfo &ds, const RolloutTiming *active,
                                                         qint64 oldestNotReadyCreated, qint64 now,
                                                         const QSet<QString> &upgradingNodes = {},
                                                         const QSet<QString> &notReadyNodes = {});
    static NodeInfo nodeInfo(const kube::Node &node);
    // The revision's pod template from ControllerRevision.data (null json when unreadable).
    static kube::Json revisionTemplate(const std::string &data);

private:
    // The nodes of `nodes` that a node-agent upgrade has in flight; that are not Ready.
    static QSet<QString> upgradingNodes(const std::vector<NodeInfo> &nodes);
    static QSet<QString> notReadyNodes(const std::vector<NodeInfo> &nodes);
    // "nginx:1.27" for one container, "a:1, b:2" for several (by container order; the image
    // reference as written, without the registry path shortened).
    static QString imageSummary(const kube::Json &podTemplate);
    // The node pool from well-known labels (pool, node-pool, cloud provider pool labels).
    static QString poolOf(const std::map<QString, QString> &labels);
    // Repeating values (node, hash, phase, waiting reason) come from `pool`, shared.
    static PodInfo podInfo(const kube::Pod &pod, StringPool &pool);
    // A DaemonSet's identity, spec and status fields (everything but pods, revisions, badge and
    // record); the pod template is shared with previous when unchanged.
    static DaemonSetInfo daemonSetSpecInfo(const kube::DaemonSet &ds, const DaemonSetInfo *previous);
    // Revision key ("ns/name") -> (data, parsed template): a template is parsed once per data.
    using RevisionTemplateCache =
        std::map<std::string, std::pair<std::string, std::shared_ptr<const kube::Json>>>;
    // The pods and revisions part of a DaemonSetInfo: pods from `podsByName` (null: none), the
    // DaemonSet's own `revisions` with `currentName` marked current, templates through
    // `templates`. Sets `oldestNotReady` (see computeBadge) and returns the revision number of
    // each hash, for RolloutTracker::reconcile.
    static std::map<std::string, std::int64_t>
    fillPodsAndRevisions(DaemonSetInfo &info, const std::map<std::string, PodInfo> *podsByName,
                         const std::vector<const kube::ControllerRevision *> &revisions,
                         const std::string &currentName, RevisionTemplateCache &templates,
                         qint64 &oldestNotReady);
    // computeBadge's Stuck badge when a pod on the current revision has not become Ready for
    // kStuckPodThreshold.
    static std::pair<RolloutBadge, QString> stuckPodBadge(const DaemonSetInfo &ds,
                                                          qint64 oldestNotReadyCreated, qint64 now,
                                                          const QSet<QString> &upgradingNodes,
                                                          const QSet<QString> &notReadyNodes);
    void convertPod(const std::string &dsKey, const kube::Pod &pod, bool deleted);
    DaemonSetInfo assembleDaemonSet(const kube::DaemonSet &ds, const DaemonSetInfo *previous,
                                    const RevisionsOf &revisions);

    RolloutTracker m_tracker;
    ObservedUpgradeTracker m_observed; // upgrades other tools drive (no NodeUpgradeRollout)
    std::shared_ptr<const ClusterSnapshot> m_previous;
    quint64 m_sequence = 0;

    StringPool m_strings;
    std::map<std::string, std::map<std::string, PodInfo>> m_pods; // dsKey -> pod name -> pod
    std::map<std::string, NodeInfo> m_nodes;
    RevisionTemplateCache m_revisionTemplates;
    std::map<std::string, qint64> m_oldestNotReady; // dsKey -> creation time (see computeBadge)

    std::set<std::string> m_dirtyDaemonSets;
    bool m_daemonSetListDirty = true;
    bool m_nodesDirty = true;
    bool m_eventsDirty = true;
    // The nodes being upgraded and the nodes not Ready, of the last snapshot's node list (made
    // again only when that list is), and the clock of the build under way.
    QSet<QString> m_upgrading, m_notReady;
    qint64 m_now = 0;
};

} // namespace models
