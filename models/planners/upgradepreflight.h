#pragma once
// UpgradePreflight — the pre-flight report shown before a node-agent upgrade starts (docs
// node-upgrade.md §10): incompatible nodes per zone, the predicted order, single-replica
// controllers that will be disrupted (or block), unmanaged pods and what the policy will do
// with them, nodes already cordoned by someone else, the resolved budget and a rough duration —
// or, when its own findings say no node can start (the budget is held by NotReady or cordoned
// nodes, or every node to upgrade is NotReady), that it cannot start and why, with no duration.
//
// Computed on the GUI thread from a snapshot (nodes and the upgrade workload inventory) and the
// spec the start form builds, with the engine's own ordering function, so the queue shown is
// the queue the controller will follow (as long as the cluster does not change meanwhile).

#include "models/snapshot/snapshot.h"

#include "models/api/nodeupgraderollout.h"

#include <QCoreApplication>

#include <utility>
#include <vector>

namespace models {

class UpgradePreflight
{
    Q_DECLARE_TR_FUNCTIONS(models::UpgradePreflight)

public:
    static UpgradePreflight compute(const ClusterSnapshot &snapshot, const api::NodeUpgradeRolloutSpec &spec);
    // The report for a spec as a form writes it (JSON), or why the NodeUpgradeRollout schema
    // refuses the spec.
    static kube::Result<UpgradePreflight> forSpec(const ClusterSnapshot &snapshot, const kube::Json &spec);
    // The NodeUpgradeRollout object named `name` with `spec`: {apiVersion, kind, metadata, spec}.
    static kube::Json rolloutManifest(const QString &name, const kube::Json &spec);

    int matched = 0;                              // nodes the selector matches
    int incompatible = 0;                         // of those, with another agent version
    std::vector<std::pair<QString, int>> perZone; // zone ("" = none) -> incompatible nodes, by zone
    QStringList order;                            // predicted selection order
    QStringList singleReplica;                    // "replicaset/default/db on node-3 (disrupted, Warning)"
    QStringList unmanaged;                        // "node-3: default/debug — deleted after 1h"
    QStringList localData;                        // "node-3: default/cache-x — the node waits (…)"
    QStringList cordonedElsewhere;                // nodes already unschedulable
    QStringList notReady;                         // matched nodes NotReady now: each holds a budget slot
    int budget = 1;
    bool budgetClamped = false;
    int heldSlots = 0;           // budget slots taken before the rollout starts (NotReady or cordoned nodes)
    QString cannotStart;         // why no node can start now (then there is no estimate); empty when one can
    QString restart;             // how each drained node restarts, in words
    qint64 estimateMs = 0;       // 0 when cannotStart is set
    bool workloadUnread = false; // a live cluster's pods are still being read: no pod figures yet

    // The report as plain text, one fact per line.
    QString text() const;
};

} // namespace models
