#pragma once
// RolloutHeadline — the one-line answer to "why is this rollout not moving?" for a DaemonSet,
// computed from a snapshot plus what the progress model observed over time (a single snapshot
// does not say since when nothing changed, or since when a pod has been terminating).
//
// The result is a code with parameters (reason, budget, nodes, image, durations) and the
// translated sentence built from them, so views only display it and tests can assert the code.
//
// Budget arithmetic follows the DaemonSet controller's rollingUpdate (daemonset-semantics.md
// §3.5 for maxSurge = 0, §3.6 for maxSurge > 0), using only what a snapshot holds:
// - maxSurge = 0: a node holds the maxUnavailable budget when its pod is missing (no
//   non-terminating pod), not available, or it has both an old and a new pod, or more than one
//   of either ("excess"). The budget is exhausted when these nodes reach maxUnavailable while
//   nodes with an available old pod still wait.
// - maxSurge > 0: a node holds the maxSurge budget when it has an old pod and a new pod that is
//   not available yet (or excess pods); exhausted when they reach maxSurge while nodes with an
//   available old pod and no new pod still wait.
// Nodes whose pod is missing and that have no pod at all cannot be told from nodes the
// DaemonSet does not target (the snapshot has no nodeSelector evaluation): they are named only
// when every pod-less node can be one of them, otherwise counted.
//
// Stuck versus slow. "Progress" is a change of the updated or available count (the progress
// model's observation) or a pod write the rollout tracker counts (RolloutTiming::lastProgress).
// With m = the mean per-node replace time observed in the running rollout (0 while none
// finished):
// - stuck after max(2 min, 5 x m) without progress: a normal rollout replaces a node in about
//   m, so five node-times without any change is not slowness, and 2 min covers image pulls
//   before the first node finished;
// - slow after max(30 s, 2 x m): worth saying, not yet alarming;
// - a pod is stuck terminating after max(2 min, 3 x m) (grace periods are 30 s by default).
// The DaemonSet's Stuck badge (snapshot.h) uses a more conservative rule for the explorer; the
// headline is the detailed view and speaks earlier.
//
// Time. With the same snapshot and observation the headline changes only when a threshold
// above is crossed, a pod reaches minReadySeconds, or a duration it shows reads differently
// ("for 1m59s" becomes "for 2m"; at kube::humanAge's granularity: seconds below 10 minutes,
// then minutes, hours, days; AgeClock::untilWordingChanges). compute() says when that next happens
// (changesAt), so a view recomputes it then, and on new inputs, instead of on a fixed tick.

#include "models/snapshot/snapshot.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>

namespace models {

// What the progress model remembers between snapshots of the selected DaemonSet.
struct RolloutObservation
{
    qint64 lastProgress = 0;                 // last time the updated or available count changed; 0 = unknown
    std::map<QString, qint64> deletingSince; // pod name -> first time it was seen terminating
};

struct RolloutHeadline
{
    Q_DECLARE_TR_FUNCTIONS(models::RolloutHeadline)

public:
    enum Reason {
        NoDaemonSet,          // none selected, or not in the snapshot
        Complete,             // updated == available == desired, generation observed
        Progressing,          // moving normally
        Slow,                 // no progress for a while, below the stuck threshold
        WaitingForController, // observedGeneration < generation
        BudgetExhausted,      // nodes holding the budget are named in `nodes`
        NewPodsNotReady,      // new pods failing (or, when slow/stuck, never becoming ready)
        PodsStuckTerminating, // pods terminating for longer than the threshold
        NodeNotReady,         // NotReady nodes whose pods count against the budget
        Paused,               // the app's pause (strategy switched to OnDelete)
        OnDelete,             // the DaemonSet's own strategy is OnDelete
        Stuck,                // no progress beyond the threshold and no known cause
    };

    Reason reason = NoDaemonSet;
    QString budgetName;      // "maxUnavailable" or "maxSurge" (BudgetExhausted, Progressing)
    int budget = 0;          // resolved against desired
    QStringList nodes;       // every node the sentence is about, sorted; the text names the first few
    int unnamedNodes = 0;    // BudgetExhausted: nodes without a pod that could not be named
    QString image;           // NewPodsNotReady: the current revision's image summary
    QString waitingReason;   // NewPodsNotReady: most common reason ("CrashLoopBackOff"), may be empty
    qint64 durationMs = 0;   // PodsStuckTerminating: longest; Slow/Stuck: time since progress
    qint64 revision = 0;     // the current revision number
    qint64 noProgressMs = 0; // time since the last progress (0 when unknown)
    bool stuck = false;      // noProgressMs > stuckAfterMs
    qint64 stuckAfterMs = 0;
    qint64 meanNodeMs = 0; // observed per-node replace time of the running rollout, 0 = unknown
    DaemonSetCounts counts;
    QString text; // the translated sentence
    // The earliest time after `now` at which compute() on the same inputs gives another headline
    // (a threshold crossed, a pod available, a shown duration reading differently); 0 = never.
    qint64 changesAt = 0;

    bool operator==(const RolloutHeadline &) const = default;

    // `now`: the time to judge at; the snapshot's clock when not given (a view whose snapshot
    // is older than the wall clock passes the time it shows).
    static RolloutHeadline compute(const ClusterSnapshot &snapshot, const QString &dsKey,
                                   const RolloutObservation &observation, std::optional<qint64> now = {});

    // The sentence for a computed headline (compute() fills `text` with it).
    static QString describe(const RolloutHeadline &headline);
    static QString reasonName(Reason reason); // untranslated identifier: "BudgetExhausted"

    static qint64 stuckThresholdMs(qint64 meanNodeMs);       // max(2 min, 5 x mean)
    static qint64 slowThresholdMs(qint64 meanNodeMs);        // max(30 s, 2 x mean)
    static qint64 terminatingThresholdMs(qint64 meanNodeMs); // max(2 min, 3 x mean)

    // maxUnavailable / maxSurge resolved against desiredNumberScheduled as rollingUpdate does
    // (percentages rounded up; both 0 with desired > 0 forces maxUnavailable = 1). 0 when the
    // strategy is not RollingUpdate (paused included) or the value is invalid.
    static int resolvedMaxUnavailable(const DaemonSetInfo &ds);
    static int resolvedMaxSurge(const DaemonSetInfo &ds);
    // The rollout in progress (last record entry, not completed, not superseded); null when none.
    static const RolloutTiming *activeRollout(const DaemonSetInfo &ds);
    // Whether the pod counts as available at `now` (Ready for minReadySeconds, not terminating).
    static bool podAvailable(const PodInfo &pod, int minReadySeconds, qint64 now);
    // Remaining time: nodes without an available new pod x mean per-node time / parallelism
    // (the budget: maxSurge when > 0, else maxUnavailable). 0 when complete, -1 when unknown
    // (no node finished yet, not RollingUpdate, paused).
    static qint64 estimateRemainingMs(const DaemonSetInfo &ds, qint64 now);
};

} // namespace models
