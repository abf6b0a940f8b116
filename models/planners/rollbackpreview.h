#pragma once
// RollbackPreview — what `kubectl rollout undo daemonset/NAME [--to-revision=N]` would do,
// computed from a snapshot before the user confirms: the target revision (kubectl's choice),
// whether kubectl would skip it, the template diff, how many nodes get a new pod and an
// estimated duration.
//
// Target choice (DaemonSetRollbacker): N < 0 or no revision numbered N → "unable to find
// specified revision N in history"; N == 0 with fewer than two revisions → "no last revision
// to roll back to"; N == 0 → the second highest revision number. Skip: the target's template
// equals the current one (kubectl compares the canonical bytes; equal JSON values give equal
// canonical bytes) → "skipped rollback (current template already matches revision N)" with
// the *requested* N, as kubectl prints it.
//
// Nodes: the nodes that should run the DaemonSet are taken as the nodes that have one of its
// pods, plus (desired − those) nodes still without one. A node gets a new pod when none of its
// non-terminating pods carries the target hash; nodes without a pod get one either way.
//
// Duration estimate (RollingUpdate):
//   parallel  = maxSurge > 0 ? maxSurge : max(1, maxUnavailable)   (percentages of desired,
//                                                                   rounded up as upstream)
//   waves     = ceil(nodesToReplace / parallel)
//   perNode   = mean observed node replace time of this DaemonSet's latest rollout with finished
//               nodes (pod deleted/created → new pod Ready); fallback, before any was observed:
//               a small agent's pod (api/podtimings.h: start + ready, plus termination when
//               not surging — the embedded kubelet's defaults too), on either backend
//   estimate  = waves × (perNode + minReadySeconds), rounded (seconds, 10 s, minutes)
// Pods down on NotReady nodes hold maxUnavailable budget and are not replaced until the node
// returns: without surge, parallel = max(1, maxUnavailable) − those pods (none left: blocked),
// and their nodes are not counted in the waves.
// OnDelete (also when paused): pods are replaced only when deleted, so no estimate (manual).

#include "models/snapshot/snapshot.h"

#include "models/diff/templatediff.h"

#include <QString>
#include <QStringList>

namespace models {

// The nodes a template change gives a new pod and how long that takes: the "Nodes" and
// "Duration estimate" rules above, shared by every preview of a rollout (rollback, set image,
// restart, strategy edit).
struct RolloutImpact
{
    int desired = 0;
    int nodesToReplace = 0;  // nodes with a pod not on the target revision
    int nodesWithoutPod = 0; // desired nodes that have no pod yet
    int nodesOnTarget = 0;   // nodes already running the target revision (not restarted)
    int newPods() const { return nodesToReplace + nodesWithoutPod; }

    bool manualOnly = false; // OnDelete: nothing is replaced until pods are deleted
    int parallel = 1;
    int waves = 0;
    qint64 perNodeMs = 0;
    bool perNodeObserved = false; // perNodeMs comes from this DaemonSet's own rollouts
    qint64 estimatedMs = 0;       // rounded: whole seconds, 10 s steps past a minute, minutes past an hour
    QString estimateText;         // one line explaining the estimate
    // Nodes that are NotReady with this DaemonSet's pod down: they use maxUnavailable budget and
    // wait for their node, so they shrink `parallel` and are left out of the estimate.
    QStringList heldNodes;
    bool blocked = false; // those pods use the whole budget: the rollout cannot finish

    // Which budget the rollout runs under: the DaemonSet's own, or one about to be set.
    struct Budget
    {
        bool rollingUpdate = true; // false: OnDelete
        bool paused = false;
        QString maxUnavailable; // "1", "10%"
        QString maxSurge;       // "0", "25%"
    };
    static Budget budgetOf(const DaemonSetInfo &ds);
    // Nodes per wave under `budget` for `desired` nodes (maxSurge if set, else maxUnavailable,
    // at least 1; percentages rounded up as upstream).
    static int parallelOf(const Budget &budget, int desired);

    // targetHash: the revision the pods move to; empty when it is a revision no pod runs yet.
    // Also finds the held nodes (the snapshot says which nodes are NotReady).
    void computeNodes(const ClusterSnapshot &snapshot, const DaemonSetInfo &ds, const QString &targetHash);
    // The estimate for nodesToReplace under `budget` (manualOnly when it is OnDelete or paused).
    void computeEstimate(const DaemonSetInfo &ds, const Budget &budget);
};

class RollbackPreview : public RolloutImpact
{
public:
    bool ok = false; // false: kubectl would fail; `message` says why
    QString message; // "rolled back" (would patch), the skipped text, or the error
    bool skipped = false;
    qint64 requestedRevision = 0;
    qint64 targetRevision = 0;
    QString targetName;
    QString targetHash;
    qint64 currentRevision = 0;

    diff::TemplateDiff diff; // current template → target template

    // Tools that will revert this rollback (managedby.h), one sentence each.
    QStringList managedWarnings;

    static RollbackPreview compute(const ClusterSnapshot &snapshot, const QString &dsKey, qint64 toRevision,
                                   bool ignoreServerNoise = false);
};

} // namespace models
