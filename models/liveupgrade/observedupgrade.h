#pragma once
// ObservedUpgrade — a node-agent upgrade another tool drives (a managed node pool's upgrade,
// kured, cluster-autoscaler or Karpenter replacing nodes, an admin with kubectl drain), watched
// from what the nodes show when no NodeUpgradeRollout is running:
//
// - the target is the newest kubelet version among the nodes; the upgrade starts when a node
//   shows a drain (DrainInProgress / Drained, a disruption taint), a node on an older version is
//   cordoned, or a node is seen moving to the newest version — versions that merely differ do
//   not start one — and stays listed (Completed once every node runs the target) until the
//   console disconnects or a NodeUpgradeRollout runs (then its controller's view is the page's);
// - each node's phase is inferred: while it runs the version it had when the upgrade began it is
//   Pending, Cordoned (spec.unschedulable), DrainingManaged (the DrainInProgress condition or a
//   well-known disruption taint) or Restarting (the Drained condition, or NotReady) — UpToDate
//   when it already runs the newest of several versions; once its version changed it is
//   Restarting while NotReady, Soaking while still cordoned or drained, then Upgraded; a node that
//   leaves the cluster is Removed, one that joins on the newest version (a surge replacement) is
//   UpToDate. A drain that ends with no node having changed version and one version everywhere
//   (a reboot, maintenance) ends the observed upgrade without a trace;
// - per node the time in phase, the reboots seen (a changed bootID), and what blocks its drain
//   (Warning events about the node that report a refused eviction or a failed drain);
// - counts, phase samples over time (the page's chart) and an ETA: the nodes still to go times
//   the mean observed duration of one node (from leaving Pending to Upgraded), divided by the most
//   nodes seen in flight at once.
//
// One tracker per backend, updated with every snapshot on the backend's thread. Both backends
// call addObservedUpgrade() the same way, so the embedded engine (nodes restarted by the
// scenario step restartNode, or drained with kubectl against serve) and a live cluster show
// the same page.

#include "models/snapshot/snapshot.h"
#include "models/snapshot/upgraderolloutinfo.h"

#include <QCoreApplication>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace models {

// A taint a tool puts on a node it is about to drain or remove.
bool isDisruptionTaint(const std::string &key);

// Orders kubelet versions ("v1.31.2" > "v1.30.10"): numbers by value, the rest by text.
int compareVersions(const QString &a, const QString &b);

class ObservedUpgradeTracker
{
    Q_DECLARE_TR_FUNCTIONS(models::ObservedUpgradeTracker)

public:
    static constexpr int kMaxSamples = 600;
    static constexpr qint64 kSampleInterval = 1000;

    // The observed upgrade at `now`, or nullopt while nothing was seen. `rolloutRunning`: a
    // NodeUpgradeRollout is running (its controller's view is the page's; nothing is inferred).
    std::optional<UpgradeRolloutInfo> update(const std::vector<NodeInfo> &nodes,
                                             const std::vector<EventInfo> &events, qint64 now,
                                             bool rolloutRunning);

private:
    struct Track
    {
        UpgradeNodePhase phase = UpgradeNodePhase::Pending;
        qint64 since = 0;
        qint64 left = 0;      // when it left Pending, 0 = not yet
        QString version;      // at the last look
        QString startVersion; // when the observed upgrade began (or the node joined)
        QString bootID;
        int reboots = 0;
        QString zone;
    };
    // moved: the node runs another version than when the upgrade began; targetKnown: some node
    // runs an older version than the target, or some node changed version.
    static UpgradeNodePhase infer(const NodeInfo &n, bool moved, bool targetKnown, const QString &target);
    void beginEpisode(qint64 now);
    bool observe(const std::vector<NodeInfo> &nodes, const QString &target, qint64 now);
    static std::map<QString, QStringList> drainBlockers(const std::vector<EventInfo> &events);
    std::shared_ptr<std::vector<UpgradeNodeRow>>
    track(const std::vector<NodeInfo> &nodes, const std::map<QString, QStringList> &blockers, qint64 now,
          bool targetKnown, UpgradeCountsInfo &counts, std::array<int, kUpgradeNodePhaseCount> &phases,
          bool &anyMoved);
    void sample(qint64 now, const std::array<int, kUpgradeNodePhaseCount> &phases, int inFlight, int blocked);
    QString headlineOf(const UpgradeRolloutInfo &info, bool done, int present, int inFlight) const;
    static UpgradeNodeRow rowOf(const QString &name, const Track &t); // what the tracker knows of it

    std::map<QString, Track> m_nodes;
    std::vector<qint64> m_durations; // per upgraded node: ms from leaving Pending to Upgraded
    std::vector<UpgradeSample> m_samples;
    QString m_target;
    qint64 m_started = 0;
    bool m_seen = false;
    bool m_done = false; // the last look found it Completed
    int m_mostInFlight = 1;
};

// Appends the tracker's observed upgrade to the snapshot's upgrade list (a copy; the shared list
// is not changed) when it has one. Reads the snapshot's nodes, events and clock.
void addObservedUpgrade(ClusterSnapshot &snap, ObservedUpgradeTracker &tracker);

} // namespace models
