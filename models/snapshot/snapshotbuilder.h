#pragma once
// SnapshotBuilder — turns the embedded engine's state into ClusterSnapshots, incrementally.
// It keeps a compact mirror of pods, nodes and events fed by the engine's watch fan-out and
// marks what changed; build() re-reads only the DaemonSets whose objects, revisions or pods
// changed and reuses every other shared part of the previous snapshot by pointer.
//
// It also owns the RolloutTracker (fed from the same watch callbacks) so rollout timings carry
// the virtual times of the writes themselves.
//
// Single-threaded: the owner of the Cluster (the embedded worker, or a headless command) calls
// it. The Cluster must outlive the builder.

#include "models/history/rollouttracker.h"
#include "models/liveupgrade/observedupgrade.h"
#include "models/snapshot/snapshot.h"
#include "models/snapshot/stringpool.h"
#include "models/snapshot/upgradesnapshotbuilder.h"

#include <QSet>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace api {
struct WatchEvent;
} // namespace api

namespace engine {
class Cluster;
} // namespace engine

namespace kube {
struct Event;
struct Node;
struct Pod;
} // namespace kube

namespace models {

class SnapshotBuilder
{
public:
    explicit SnapshotBuilder(engine::Cluster &cluster);
    ~SnapshotBuilder();
    SnapshotBuilder(const SnapshotBuilder &) = delete;
    SnapshotBuilder &operator=(const SnapshotBuilder &) = delete;

    void setBackendInfo(const BackendInfo &info) { m_backend = info; }
    RolloutTracker &tracker() { return m_tracker; }

    // Whether anything changed since the last build (objects or faults); the clock is not
    // considered.
    bool hasChanges() const;
    // A new snapshot (sequence = previous + 1). `clock.now` drives the time-dependent badge.
    std::shared_ptr<const ClusterSnapshot> build(const ClockInfo &clock);

    // ---- pure helpers, shared with other backends and tests ------------------------------
    // The badge rule documented at RolloutBadge. `oldestNotReadyCreated`: creation time of the
    // oldest non-terminating, not Ready pod on the current revision (0 when none).
    // `upgradingNodes`: nodes a node-agent upgrade has in flight (see RolloutBadge).
    // `notReadyNodes`: nodes that are not Ready (see RolloutBadge::Settled).
    static std::pair<RolloutBadge, QString> computeBadge(const DaemonSetInfo &ds, const RolloutTiming *active,
                                                         qint64 oldestNotReadyCreated, qint64 now,
                                                         const QSet<QString> &upgradingNodes = {},
                                                         const QSet<QString> &notReadyNodes = {});
    // The nodes of `nodes` that a node-agent upgrade has in flight.
    static QSet<QString> upgradingNodes(const std::vector<NodeInfo> &nodes);

    // The nodes of `nodes` that are not Ready.
    static QSet<QString> notReadyNodes(const std::vector<NodeInfo> &nodes);
    // "nginx:1.27" for one container, "a:1, b:2" for several (by container order; the image
    // reference as written, without the registry path shortened).
    static QString imageSummary(const kube::Json &podTemplate);
    // The node pool from well-known labels (pool, node-pool, cloud provider pool labels).
    static QString poolOf(const std::map<QString, QString> &labels);
    static NodeInfo nodeInfo(const kube::Node &node);
    // Repeating values (node, hash, phase, waiting reason) come from `pool`, shared.
    static PodInfo podInfo(const kube::Pod &pod, StringPool &pool);
    // A DaemonSet's identity, spec and status fields (everything but pods, revisions, badge and
    // record); the pod template is shared with previous when unchanged. Live and embedded alike.
    static DaemonSetInfo daemonSetSpecInfo(const kube::DaemonSet &ds, const DaemonSetInfo *previous);
    // The revision's pod template from ControllerRevision.data (null json when unreadable).
    static kube::Json revisionTemplate(const std::string &data);
    // Revision key ("ns/name") -> (data, parsed template): a template is parsed once per data.
    using RevisionTemplateCache =
        std::map<std::string, std::pair<std::string, std::shared_ptr<const kube::Json>>>;
    // The pods and revisions part of a DaemonSetInfo, live and embedded alike: pods from
    // `podsByName` (null: none), the DaemonSet's own `revisions` with `currentName` marked
    // current, templates through `templates`. Sets `oldestNotReady` (see computeBadge) and
    // returns the revision number of each hash, for RolloutTracker::reconcile.
    static std::map<std::string, std::int64_t>
    fillPodsAndRevisions(DaemonSetInfo &info, const std::map<std::string, PodInfo> *podsByName,
                         const std::vector<const kube::ControllerRevision *> &revisions,
                         const std::string &currentName, RevisionTemplateCache &templates,
                         qint64 &oldestNotReady);

private:
    // computeBadge's Stuck badge when a pod on the current revision has not become Ready for
    // kStuckPodThreshold.
    static std::pair<RolloutBadge, QString> stuckPodBadge(const DaemonSetInfo &ds,
                                                          qint64 oldestNotReadyCreated, qint64 now,
                                                          const QSet<QString> &upgradingNodes,
                                                          const QSet<QString> &notReadyNodes);
    void onWatch(const api::WatchEvent &event);
    void loadAll();
    DaemonSetInfo buildDaemonSet(const std::string &ns, const std::string &name,
                                 const DaemonSetInfo *previous);

    engine::Cluster &m_cluster;
    int m_watchId = -1;
    BackendInfo m_backend;
    RolloutTracker m_tracker;
    UpgradeSnapshotBuilder m_upgrade;  // the node-agent upgrade part, fed from the same watch
    ObservedUpgradeTracker m_observed; // upgrades other tools drive (no NodeUpgradeRollout)
    std::shared_ptr<const ClusterSnapshot> m_previous;
    quint64 m_sequence = 0;

    StringPool m_strings;
    std::map<std::string, std::map<std::string, PodInfo>> m_pods; // dsKey -> pod name -> pod
    std::map<std::string, NodeInfo> m_nodes;
    // The Events as last watched, by key, converted at the next build: a large rollout records
    // Events faster than snapshots are built, and most are deleted again before then (the store
    // keeps the newest ten thousand). Each keeps the DaemonSet of the pod it is about as it was
    // when the Event was written.
    struct WatchedEvent
    {
        std::optional<EventInfo> info; // empty until converted
        std::string podDaemonSet;
    };
    std::map<std::string, WatchedEvent> m_events;
    void watchEvent(const kube::Event &event);
    void convertEvents();
    RevisionTemplateCache m_revisionTemplates;
    std::map<std::string, qint64> m_oldestNotReady; // dsKey -> creation time (see computeBadge)
    std::map<std::string, std::string> m_faults;    // node -> fault kind as last published
    std::set<std::string> m_changedNodes;           // nodes written since the last build

    std::set<std::string> m_dirtyDaemonSets;
    bool m_daemonSetListDirty = true;
    bool m_nodesDirty = true;
    bool m_eventsDirty = true;
};

} // namespace models
