#include "models/planners/rolloutheadline.h"

#include "models/itemmodels/ageclock.h"

#include "models/kube/intorstring.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace models {

namespace {

constexpr qint64 kMinute = 60 * 1000;
constexpr int kNamedNodes = 3; // the sentence names this many nodes, then "and N more"

QString age(qint64 ms)
{
    return QString::fromStdString(kube::humanAge(ms));
}

// An IntOrString as the snapshot spells it ("1", "10%") resolved against `total`, rounding up.
int scaled(const QString &value, int total)
{
    if (value.isEmpty())
        return 0;
    kube::IntOrString v;
    if (value.endsWith(QLatin1Char('%'))) {
        v = kube::IntOrString::fromString(value.toStdString());
    } else {
        bool ok = false;
        const int n = value.toInt(&ok);
        if (!ok)
            return 0;
        v = kube::IntOrString::fromInt(n);
    }
    auto r = v.scaledValue(total, true);
    return r ? std::max(0, *r) : 0;
}

// Container states that mean "this pod will not become ready by waiting".
bool failingReason(const QString &reason)
{
    static const QStringList kFailing = {
        QStringLiteral("CrashLoopBackOff"),     QStringLiteral("ImagePullBackOff"),
        QStringLiteral("ErrImagePull"),         QStringLiteral("ErrImageNeverPull"),
        QStringLiteral("InvalidImageName"),     QStringLiteral("CreateContainerConfigError"),
        QStringLiteral("CreateContainerError"), QStringLiteral("RunContainerError"),
        QStringLiteral("PreCreateHookError"),   QStringLiteral("PostStartHookError"),
    };
    return kFailing.contains(reason);
}

// The pods of one node as rollingUpdate sees them (terminating pods are not counted there).
struct NodePods
{
    const PodInfo *newPod = nullptr; // oldest non-terminating pod on the current revision
    const PodInfo *oldPod = nullptr; // oldest non-terminating pod on another revision
    int newCount = 0;
    int oldCount = 0;
    const PodInfo *terminating = nullptr; // some terminating pod, when there is one
    bool holder = false;                  // holds the budget
};

QString joinNodes(const QStringList &nodes, int unnamed = 0)
{
    QStringList shown = nodes.mid(0, kNamedNodes);
    QString text = shown.join(QStringLiteral(", "));
    const int more = static_cast<int>(nodes.size()) - static_cast<int>(shown.size());
    if (more > 0)
        text = RolloutHeadline::tr("%1 and %n more", nullptr, more).arg(text);
    if (unnamed > 0) {
        const QString missing = RolloutHeadline::tr("%n node(s) without a pod", nullptr, unnamed);
        text = text.isEmpty() ? missing : RolloutHeadline::tr("%1 and %2").arg(text, missing);
    }
    return text;
}

QString mostCommon(const std::map<QString, int> &counts)
{
    QString best;
    int n = 0;
    for (const auto &[k, c] : counts) { // ordered: ties go to the first name
        if (c > n) {
            best = k;
            n = c;
        }
    }
    return best;
}

} // namespace

qint64 RolloutHeadline::stuckThresholdMs(qint64 meanNodeMs)
{
    return std::max<qint64>(2 * kMinute, 5 * meanNodeMs);
}

qint64 RolloutHeadline::slowThresholdMs(qint64 meanNodeMs)
{
    return std::max<qint64>(30 * 1000, 2 * meanNodeMs);
}

qint64 RolloutHeadline::terminatingThresholdMs(qint64 meanNodeMs)
{
    return std::max<qint64>(2 * kMinute, 3 * meanNodeMs);
}

int RolloutHeadline::resolvedMaxSurge(const DaemonSetInfo &ds)
{
    if (ds.strategyType != QLatin1String("RollingUpdate"))
        return 0;
    return scaled(ds.maxSurge, ds.counts.desired);
}

int RolloutHeadline::resolvedMaxUnavailable(const DaemonSetInfo &ds)
{
    if (ds.strategyType != QLatin1String("RollingUpdate"))
        return 0;
    const int desired = ds.counts.desired;
    const int maxUnavailable = scaled(ds.maxUnavailable, desired);
    // rollingUpdate: "if both are zero, default maxUnavailable to 1" (with pods to update).
    if (desired > 0 && maxUnavailable == 0 && resolvedMaxSurge(ds) == 0)
        return 1;
    return maxUnavailable;
}

const RolloutTiming *RolloutHeadline::activeRollout(const DaemonSetInfo &ds)
{
    if (!ds.record || ds.record->rollouts.empty())
        return nullptr;
    const RolloutTiming &r = ds.record->rollouts.back();
    return r.completed == 0 && r.supersededBy.isEmpty() ? &r : nullptr;
}

bool RolloutHeadline::podAvailable(const PodInfo &pod, int minReadySeconds, qint64 now)
{
    if (!pod.ready || pod.deleting)
        return false;
    if (minReadySeconds <= 0 || pod.readySince <= 0)
        return true;
    return now - pod.readySince >= qint64(minReadySeconds) * 1000;
}

qint64 RolloutHeadline::estimateRemainingMs(const DaemonSetInfo &ds, qint64 now)
{
    if (ds.paused || ds.strategyType != QLatin1String("RollingUpdate"))
        return -1;
    std::set<QString> doneNodes;
    if (ds.pods) {
        for (const PodInfo &p : *ds.pods) {
            if (p.hash == ds.currentRevisionHash && podAvailable(p, ds.minReadySeconds, now))
                doneNodes.insert(p.node);
        }
    }
    const int remaining = std::max(0, ds.counts.desired - static_cast<int>(doneNodes.size()));
    if (remaining == 0)
        return 0;
    const RolloutTiming *active = activeRollout(ds);
    const qint64 mean = active ? active->meanNodeMs() : 0;
    if (mean <= 0)
        return -1;
    const int surge = resolvedMaxSurge(ds);
    const int parallel = std::clamp(surge > 0 ? surge : resolvedMaxUnavailable(ds), 1, remaining);
    return qint64(remaining) * mean / parallel;
}

namespace {

// One computation of a headline: its inputs, the nodes as rollingUpdate classifies them, and the
// earliest time after `now` at which its outcome flips (every comparison with `now` names it).
struct HeadlineRun
{
    using H = RolloutHeadline;

    RolloutHeadline &h;
    const ClusterSnapshot &snapshot;
    const DaemonSetInfo &ds;
    const RolloutObservation &observation;
    const RolloutTiming *active;
    qint64 now;

    qint64 sinceProgress = 0;
    bool slow = false;
    std::vector<std::pair<QString, NodePods>> byNode{}; // by node name
    bool hasPods(const QString &node) const
    {
        auto it = std::lower_bound(byNode.begin(), byNode.end(), node,
                                   [](const auto &entry, const QString &name) { return entry.first < name; });
        return it != byNode.end() && it->first == node;
    }
    int maxSurge = 0;
    QStringList holders{};     // nodes holding the budget
    QStringList unavailable{}; // nodes whose DaemonSet pod is missing or not available
    int waiting = 0;           // nodes with an available old pod and no new pod: not started yet
    int unnamedMissing = 0;    // nodes without a pod that cannot be named
    bool exhausted = false;

    void flipsAt(qint64 t)
    {
        if (t > now && (h.changesAt == 0 || t < h.changesAt))
            h.changesAt = t;
    }

    RolloutHeadline finish(H::Reason reason)
    {
        h.reason = reason;
        h.text = H::describe(h);
        // The durations the sentence shows, which read differently as time goes on.
        if (reason == H::Slow || reason == H::Stuck || reason == H::PodsStuckTerminating)
            flipsAt(now + AgeClock::untilWordingChanges(h.durationMs));
        if (h.stuck && reason != H::PodsStuckTerminating)
            flipsAt(now + AgeClock::untilWordingChanges(h.noProgressMs));
        return h;
    }

    bool available(const PodInfo *p)
    {
        if (p && p->ready && !p->deleting && ds.minReadySeconds > 0 && p->readySince > 0)
            flipsAt(p->readySince + qint64(ds.minReadySeconds) * 1000);
        return p && H::podAvailable(*p, ds.minReadySeconds, now);
    }

    void timeSinceProgress();
    void groupPods();
    void classifyNodes();
    bool newPodsFailing();
    bool notReadyNodes();
    bool podsStuckTerminating();
    H::Reason slowOrStuck();
};

void HeadlineRun::timeSinceProgress()
{
    qint64 lastProgress = observation.lastProgress;
    if (active)
        lastProgress = std::max({lastProgress, active->started, active->lastProgress});
    sinceProgress = lastProgress > 0 ? std::max<qint64>(0, now - lastProgress) : 0;
    h.noProgressMs = sinceProgress;
    h.stuck = lastProgress > 0 && sinceProgress > h.stuckAfterMs;
    slow = lastProgress > 0 && sinceProgress > H::slowThresholdMs(h.meanNodeMs);
    if (lastProgress > 0) {
        flipsAt(lastProgress + H::slowThresholdMs(h.meanNodeMs) + 1);
        flipsAt(lastProgress + h.stuckAfterMs + 1);
    }
}

void HeadlineRun::groupPods()
{
    if (!ds.pods)
        return;
    for (const PodInfo *pod : podsInNodeOrder(*ds.pods)) {
        const PodInfo &p = *pod;
        if (byNode.empty() || byNode.back().first != p.node)
            byNode.emplace_back(p.node, NodePods{});
        NodePods &n = byNode.back().second;
        if (p.deleting) {
            if (!n.terminating)
                n.terminating = &p;
            continue;
        }
        const bool isNew = p.hash == ds.currentRevisionHash;
        const PodInfo *&slot = isNew ? n.newPod : n.oldPod;
        ++(isNew ? n.newCount : n.oldCount);
        if (!slot || p.created < slot->created)
            slot = &p;
    }
}

// The nodes as rollingUpdate classifies them: which hold the budget, which are unavailable,
// which wait; then the nodes without any pod, and whether the budget is used up.
void HeadlineRun::classifyNodes()
{
    maxSurge = H::resolvedMaxSurge(ds);
    const int maxUnavailable = H::resolvedMaxUnavailable(ds);
    int present = 0; // nodes with a non-terminating pod
    for (auto &[node, n] : byNode) {
        const bool excess = n.newCount > 1 || n.oldCount > 1;
        const bool hasPod = n.newPod || n.oldPod;
        if (hasPod)
            ++present;
        const bool isUnavailable = !hasPod || (n.newPod && n.oldPod) || (n.newPod && !available(n.newPod)) ||
                                   (!n.newPod && !available(n.oldPod));
        if (isUnavailable || excess)
            unavailable << node;
        if (!n.newPod && n.oldPod && available(n.oldPod)) {
            ++waiting;
            continue;
        }
        if (maxSurge > 0)
            n.holder = excess || (n.newPod && n.oldPod && !available(n.newPod));
        else
            n.holder = isUnavailable || excess;
        if (n.holder)
            holders << node;
    }
    // Nodes that should run a pod but have none at all (not even a terminating one).
    const auto &c = ds.counts;
    const int scheduledPresent = std::max(0, present - c.misscheduled);
    int missing = std::max(0, c.desired - scheduledPresent);
    for (const auto &[node, n] : byNode) {
        if (!n.newPod && !n.oldPod)
            --missing; // only terminating pods: already named
    }
    missing = std::max(0, missing);
    QStringList missingNodes;
    if (missing > 0 && snapshot.nodes) {
        QStringList podless;
        for (const NodeInfo &node : *snapshot.nodes) {
            if (!hasPods(node.name))
                podless << node.name;
        }
        if (podless.size() <= missing)
            missingNodes = podless;
    }
    unnamedMissing = missing - static_cast<int>(missingNodes.size());
    if (maxSurge == 0) {
        holders << missingNodes;
        std::sort(holders.begin(), holders.end());
    }
    unavailable << missingNodes;
    std::sort(unavailable.begin(), unavailable.end());

    h.budgetName = maxSurge > 0 ? QStringLiteral("maxSurge") : QStringLiteral("maxUnavailable");
    h.budget = maxSurge > 0 ? maxSurge : maxUnavailable;
    const int used = static_cast<int>(holders.size()) + (maxSurge == 0 ? unnamedMissing : 0);
    exhausted = waiting > 0 && used >= h.budget;
}

// 1. New pods that will not become ready by waiting.
bool HeadlineRun::newPodsFailing()
{
    QStringList nodes;
    std::map<QString, int> reasons;
    for (const auto &[node, n] : byNode) {
        const PodInfo *p = n.newPod;
        if (!p || p->ready)
            continue;
        const bool failing =
            failingReason(p->waitingReason) || p->phase == QLatin1String("Failed") || p->restarts > 0;
        if (!failing)
            continue;
        nodes << node;
        if (!p->waitingReason.isEmpty())
            ++reasons[p->waitingReason];
        else if (p->phase == QLatin1String("Failed"))
            ++reasons[p->phase];
    }
    if (nodes.isEmpty())
        return false;
    h.nodes = nodes;
    const RevisionInfo *rev = ds.currentRevision();
    h.image = rev ? rev->imageSummary : QString();
    h.waitingReason = mostCommon(reasons);
    return true;
}

// 2. NotReady nodes whose pod is missing or unavailable.
bool HeadlineRun::notReadyNodes()
{
    QStringList nodes;
    for (const QString &node : unavailable) {
        const NodeInfo *info = snapshot.node(node);
        if (info && !info->ready)
            nodes << node;
    }
    if (nodes.isEmpty())
        return false;
    h.nodes = nodes;
    return true;
}

// 3. Pods terminating for too long.
bool HeadlineRun::podsStuckTerminating()
{
    const qint64 limit = H::terminatingThresholdMs(h.meanNodeMs);
    QStringList nodes;
    qint64 longest = 0;
    for (const auto &[node, n] : byNode) {
        if (!n.terminating)
            continue;
        qint64 since = 0;
        if (auto it = observation.deletingSince.find(n.terminating->name);
            it != observation.deletingSince.end())
            since = it->second;
        // The tracker starts a node's replacement when its old pod is deleted: an earlier
        // witness than this model when the DaemonSet was selected mid-rollout.
        if (active) {
            for (const NodeReplaceTiming &t : active->nodes) {
                if (t.node == node && t.finished == 0 && t.started > 0)
                    since = since > 0 ? std::min(since, t.started) : t.started;
            }
        }
        if (since > 0)
            flipsAt(since + limit + 1);
        if (since > 0 && now - since > limit) {
            nodes << node;
            longest = std::max(longest, now - since);
        }
    }
    if (nodes.isEmpty())
        return false;
    h.nodes = nodes;
    h.durationMs = longest;
    return true;
}

// 4. Slow or stuck: say what holds the rollout.
RolloutHeadline::Reason HeadlineRun::slowOrStuck()
{
    QStringList notReady;
    std::map<QString, int> reasons;
    for (const auto &[node, n] : byNode) {
        if (n.newPod && !available(n.newPod) && n.holder) {
            notReady << node;
            if (!n.newPod->waitingReason.isEmpty())
                ++reasons[n.newPod->waitingReason];
        }
    }
    if (!notReady.isEmpty() && exhausted) {
        h.nodes = notReady;
        const RevisionInfo *rev = ds.currentRevision();
        h.image = rev ? rev->imageSummary : QString();
        h.waitingReason = mostCommon(reasons);
        return H::NewPodsNotReady;
    }
    if (exhausted) {
        h.nodes = holders;
        h.unnamedNodes = maxSurge == 0 ? unnamedMissing : 0;
        return H::BudgetExhausted;
    }
    h.durationMs = sinceProgress;
    return h.stuck ? H::Stuck : H::Slow;
}

} // namespace

RolloutHeadline RolloutHeadline::compute(const ClusterSnapshot &snapshot, const QString &dsKey,
                                         const RolloutObservation &observation, std::optional<qint64> at)
{
    RolloutHeadline h;
    const DaemonSetInfo *ds = dsKey.isEmpty() ? nullptr : snapshot.daemonSet(dsKey);
    if (!ds) {
        h.text = describe(h);
        return h;
    }
    const auto &c = ds->counts;
    h.counts = c;
    h.revision = ds->currentRevisionNumber;
    const RolloutTiming *active = activeRollout(*ds);
    h.meanNodeMs = active ? active->meanNodeMs() : 0;
    h.stuckAfterMs = stuckThresholdMs(h.meanNodeMs);
    HeadlineRun run{h, snapshot, *ds, observation, active, at.value_or(snapshot.clock.now)};

    if (ds->paused)
        return run.finish(Paused);
    if (ds->observedGeneration >= ds->generation && c.updated == c.desired && c.available == c.desired &&
        c.misscheduled == 0)
        return run.finish(Complete);
    if (ds->strategyType == QLatin1String("OnDelete"))
        return run.finish(OnDelete);
    if (ds->observedGeneration < ds->generation)
        return run.finish(WaitingForController);

    run.timeSinceProgress();
    run.groupPods();
    run.classifyNodes();
    if (run.newPodsFailing())
        return run.finish(NewPodsNotReady);
    if (run.notReadyNodes())
        return run.finish(NodeNotReady);
    if (run.podsStuckTerminating())
        return run.finish(PodsStuckTerminating);
    if (run.slow || h.stuck)
        return run.finish(run.slowOrStuck());
    h.nodes = run.holders; // the nodes being replaced right now
    return run.finish(Progressing);
}

QString RolloutHeadline::describe(const RolloutHeadline &h)
{
    const auto &c = h.counts;
    QString text;
    switch (h.reason) {
    case NoDaemonSet:
        return tr("No DaemonSet selected");
    case Complete:
        return tr("Rollout complete: %1 of %2 pods updated and available").arg(c.updated).arg(c.desired);
    case Paused:
        return tr("Paused: update strategy switched to OnDelete; new nodes still get pods");
    case OnDelete:
        return tr("OnDelete: pods are replaced only when deleted (%1 of %2 updated)")
            .arg(c.updated)
            .arg(c.desired);
    case WaitingForController:
        return tr("Waiting for the DaemonSet controller to observe the latest change");
    case Progressing:
        text = tr("Rolling out revision %1: %2 of %3 updated, %4 available")
                   .arg(h.revision)
                   .arg(c.updated)
                   .arg(c.desired)
                   .arg(c.available);
        if (!h.nodes.isEmpty())
            text = tr("%1; replacing %2").arg(text, joinNodes(h.nodes));
        return text;
    case Slow:
        if (h.meanNodeMs > 0)
            return tr("Slow: no progress for %1 (a node usually takes %2); %3 of %4 updated")
                .arg(age(h.durationMs), age(h.meanNodeMs))
                .arg(c.updated)
                .arg(c.desired);
        return tr("Slow: no progress for %1; %2 of %3 updated")
            .arg(age(h.durationMs))
            .arg(c.updated)
            .arg(c.desired);
    case Stuck:
        return tr("Stuck: no progress for %1; %2 of %3 updated, %4 available")
            .arg(age(h.durationMs))
            .arg(c.updated)
            .arg(c.desired)
            .arg(c.available);
    case BudgetExhausted:
        text = tr("Waiting: the %1 budget (%2) is used by %3")
                   .arg(h.budgetName)
                   .arg(h.budget)
                   .arg(joinNodes(h.nodes, h.unnamedNodes));
        break;
    case NewPodsNotReady:
        if (h.waitingReason.isEmpty())
            text = tr("New pods are not becoming ready: %1 on %2").arg(h.image, joinNodes(h.nodes));
        else
            text = tr("New pods are not becoming ready: %1 on %2 (%3)")
                       .arg(h.image, joinNodes(h.nodes), h.waitingReason);
        break;
    case PodsStuckTerminating:
        text = tr("Pods stuck terminating on %1 for %2").arg(joinNodes(h.nodes), age(h.durationMs));
        break;
    case NodeNotReady:
        if (h.nodes.size() == 1)
            text = tr("Node %1 is NotReady; its pod counts against the budget").arg(h.nodes.front());
        else
            text = tr("Nodes %1 are NotReady; their pods count against the budget").arg(joinNodes(h.nodes));
        break;
    }
    // A cause found while nothing moves for longer than the threshold: say it is stuck.
    if (h.stuck && h.reason != PodsStuckTerminating)
        text = tr("%1 (no progress for %2)").arg(text, age(h.noProgressMs));
    return text;
}

QString RolloutHeadline::reasonName(Reason reason)
{
    switch (reason) {
    case NoDaemonSet:
        return QStringLiteral("NoDaemonSet");
    case Complete:
        return QStringLiteral("Complete");
    case Progressing:
        return QStringLiteral("Progressing");
    case Slow:
        return QStringLiteral("Slow");
    case WaitingForController:
        return QStringLiteral("WaitingForController");
    case BudgetExhausted:
        return QStringLiteral("BudgetExhausted");
    case NewPodsNotReady:
        return QStringLiteral("NewPodsNotReady");
    case PodsStuckTerminating:
        return QStringLiteral("PodsStuckTerminating");
    case NodeNotReady:
        return QStringLiteral("NodeNotReady");
    case Paused:
        return QStringLiteral("Paused");
    case OnDelete:
        return QStringLiteral("OnDelete");
    case Stuck:
        return QStringLiteral("Stuck");
    }
    return {};
}

} // namespace models
