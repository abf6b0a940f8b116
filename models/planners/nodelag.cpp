#include "models/planners/nodelag.h"

namespace models {

namespace {

using Cause = NodeTile::LagCause;

bool isImagePullReason(const QString &reason)
{
    return reason == QLatin1String("ErrImagePull") || reason == QLatin1String("ImagePullBackOff") ||
           reason == QLatin1String("InvalidImageName") || reason == QLatin1String("ErrImageNeverPull") ||
           reason == QLatin1String("RegistryUnavailable");
}

bool isCreatingReason(const QString &reason)
{
    return reason == QLatin1String("ContainerCreating") || reason == QLatin1String("PodInitializing");
}

// The pod's newest Warning when its reason is one of `reasons`.
const EventInfo *warningOf(const LagInputs &in, std::initializer_list<const char *> reasons)
{
    if (!in.warnings || !in.pod || !in.daemonSet)
        return nullptr;
    const EventInfo *e = in.warnings->newest(in.daemonSet->namespace_, in.pod->name);
    if (!e)
        return nullptr;
    for (const char *r : reasons) {
        if (e->reason == QLatin1String(r))
            return e;
    }
    return nullptr;
}

NodeLag oldRevision(const DaemonSetInfo &ds)
{
    if (ds.paused)
        return {Cause::RolloutPaused, {}};
    if (ds.strategyType == QLatin1String("OnDelete"))
        return {Cause::WaitingForDelete, {}};
    QString detail;
    if (!ds.maxUnavailable.isEmpty())
        detail = NodeLag::tr("maxUnavailable %1, %n unavailable now", nullptr, ds.counts.unavailable)
                     .arg(ds.maxUnavailable);
    return {Cause::WaitingForBudget, detail};
}

NodeLag podNotReady(const LagInputs &in)
{
    const PodInfo &pod = *in.pod;
    if (isImagePullReason(pod.waitingReason)) {
        const EventInfo *e = warningOf(in, {"Failed", "ErrImagePull", "BackOff"});
        return {Cause::ImagePull, e ? e->message : pod.waitingReason};
    }
    if (pod.waitingReason == QLatin1String("CrashLoopBackOff") || pod.restarts > 0) {
        QString detail = NodeLag::tr("%n restarts", nullptr, pod.restarts);
        if (const EventInfo *e = warningOf(in, {"BackOff"}))
            detail += QStringLiteral("; ") + e->message;
        return {Cause::CrashLoop, detail};
    }
    const bool pending = pod.phase == QLatin1String("Pending") || pod.phase.isEmpty();
    if (pending) {
        if (const EventInfo *e = warningOf(in, {"FailedScheduling"}))
            return {Cause::Unschedulable, e->message};
    }
    if (pending || isCreatingReason(pod.waitingReason))
        return {Cause::Starting, pod.waitingReason};
    if (const EventInfo *e = warningOf(in, {"Unhealthy"}))
        return {Cause::ReadinessFailing, e->message};
    if (pod.created > 0 && in.now - pod.created < kStuckPodThreshold)
        return {Cause::Starting, pod.waitingReason};
    return {Cause::ReadinessFailing, pod.waitingReason};
}

} // namespace

PodWarnings::PodWarnings(const std::vector<EventInfo> *events)
{
    if (!events)
        return;
    static const QString podPrefix = QStringLiteral("pod/");
    for (const EventInfo &e : *events) { // newest first: the first seen per pod wins
        if (e.type != QLatin1String("Warning") || !e.object.startsWith(podPrefix))
            continue;
        const QString key = e.object.mid(podPrefix.size());
        if (!m_byPod.contains(key))
            m_byPod.insert(key, &e);
    }
}

const EventInfo *PodWarnings::newest(const QString &namespace_, const QString &pod) const
{
    return m_byPod.value(namespace_ + QLatin1Char('/') + pod, nullptr);
}

NodeLag classifyLag(const LagInputs &in)
{
    if (!in.targeted || !in.node || !in.daemonSet)
        return {};
    const DaemonSetInfo &ds = *in.daemonSet;
    const PodInfo *pod = in.pod;
    const bool current = pod && pod->hash == ds.currentRevisionHash;
    const bool behind = !pod || pod->deleting || !pod->ready || !current || in.podsOnNode > 1;
    if (!behind)
        return {};
    if (!in.node->ready)
        return {Cause::NodeNotReady, in.node->conditions};
    if (in.node->upgrading)
        return {Cause::NodeUpgrading, in.node->draining.isEmpty()
                                          ? in.node->agentVersion
                                          : in.node->draining + QStringLiteral("=True")};
    if (!pod)
        return {Cause::NoPod, {}};
    if (pod->deleting)
        return {Cause::Replacing, NodeLag::tr("pod %1 is terminating").arg(pod->name)};
    if (!pod->ready)
        return podNotReady(in);
    if (!current)
        return oldRevision(ds);
    return {Cause::Replacing, NodeLag::tr("the old pod is still on the node")};
}

QString lagCauseName(NodeTile::LagCause cause)
{
    switch (cause) {
    case Cause::None:
        return NodeLag::tr("up to date");
    case Cause::NodeNotReady:
        return NodeLag::tr("node not ready");
    case Cause::NodeUpgrading:
        return NodeLag::tr("node being upgraded");
    case Cause::Unschedulable:
        return NodeLag::tr("cannot be scheduled");
    case Cause::ImagePull:
        return NodeLag::tr("image pull failing");
    case Cause::CrashLoop:
        return NodeLag::tr("crashing");
    case Cause::ReadinessFailing:
        return NodeLag::tr("not becoming ready");
    case Cause::Starting:
        return NodeLag::tr("starting");
    case Cause::Replacing:
        return NodeLag::tr("being replaced");
    case Cause::NoPod:
        return NodeLag::tr("no pod yet");
    case Cause::WaitingForBudget:
        return NodeLag::tr("waiting for the rollout budget");
    case Cause::WaitingForDelete:
        return NodeLag::tr("waiting for a pod deletion (OnDelete)");
    case Cause::RolloutPaused:
        return NodeLag::tr("rollout paused");
    }
    return {};
}

} // namespace models
