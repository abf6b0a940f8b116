#include "models/api/nodeupgradelogic.h"
#include "models/api/kubectldrain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace api {

namespace {

const char *const kNodePhaseNames[] = {
    "UpToDate", "Pending", "Cordoned", "DrainingManaged", "DrainingUnmanaged", "Restarting", "Soaking",
    "Upgraded", "Failed",  "Skipped",  "Removed"};

std::string percent(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::round(v * 1000.0) / 10.0);
    return buf;
}

} // namespace

const char *nodePhaseName(NodePhase phase)
{
    return kNodePhaseNames[static_cast<int>(phase)];
}

std::optional<NodePhase> nodePhaseFromString(const std::string &text)
{
    for (int i = 0; i < 11; ++i)
        if (text == kNodePhaseNames[i])
            return static_cast<NodePhase>(i);
    return std::nullopt;
}

bool isInFlight(NodePhase p)
{
    return p == NodePhase::Cordoned || p == NodePhase::DrainingManaged || p == NodePhase::DrainingUnmanaged ||
           p == NodePhase::Restarting || p == NodePhase::Soaking;
}

bool isPreRestart(NodePhase p)
{
    return p == NodePhase::Cordoned || p == NodePhase::DrainingManaged || p == NodePhase::DrainingUnmanaged;
}

std::string kamikazeToken(const std::string &target, int attempt, int send)
{
    return target + "#" + std::to_string(attempt) + "." + std::to_string(send);
}

std::string kamikazeTarget(const std::string &token)
{
    const auto hash = token.rfind('#');
    return hash == std::string::npos ? std::string() : token.substr(0, hash);
}

// ---- restart Jobs ------------------------------------------------------------------------

std::string restartJobName(const std::string &rollout, const std::string &node, int attempt)
{
    const std::string name = rollout + "-" + node + "-" + std::to_string(attempt);
    if (name.size() <= 63)
        return name;
    std::uint32_t h = 2166136261u; // FNV-1a
    for (unsigned char c : name) {
        h ^= c;
        h *= 16777619u;
    }
    char hash[9];
    std::snprintf(hash, sizeof hash, "%08x", h);
    std::string cut = name.substr(0, 63 - 9);
    while (!cut.empty() && (cut.back() == '-' || cut.back() == '.'))
        cut.pop_back();
    return cut + "-" + hash;
}

namespace {

void setEnv(kube::Json &container, const char *name, const std::string &value)
{
    kube::Json &env = container["env"];
    if (!env.is_array())
        env = kube::Json::array();
    for (auto &e : env)
        if (e.is_object() && e.value("name", std::string()) == name) {
            e = {{"name", name}, {"value", value}};
            return;
        }
    env.push_back({{"name", name}, {"value", value}});
}

void stamp(kube::Json &meta, const std::string &rollout, const std::string &node, const std::string &target)
{
    if (!meta.is_object())
        meta = kube::Json::object();
    kube::Json &labels = meta["labels"];
    if (!labels.is_object())
        labels = kube::Json::object();
    labels[kRestartJobRolloutLabel] = rollout;
    labels[kRestartJobNodeLabel] = node;
    kube::Json &annotations = meta["annotations"];
    if (!annotations.is_object())
        annotations = kube::Json::object();
    annotations[ann::kTargetVersion] = target;
}

} // namespace

kube::Json restartJobManifest(const kube::Json &jobTemplate, const std::string &jobNamespace,
                              const std::string &name, const std::string &rollout, const std::string &node,
                              const std::string &target)
{
    kube::Json job = {{"apiVersion", "batch/v1"}, {"kind", "Job"}};
    kube::Json meta = jobTemplate.is_object() && jobTemplate.contains("metadata") ? jobTemplate["metadata"]
                                                                                  : kube::Json::object();
    if (!meta.is_object())
        meta = kube::Json::object();
    for (const char *server :
         {"generateName", "uid", "resourceVersion", "creationTimestamp", "managedFields"})
        meta.erase(server);
    meta["name"] = name;
    meta["namespace"] = jobNamespace;
    stamp(meta, rollout, node, target);
    job["metadata"] = std::move(meta);
    kube::Json spec =
        jobTemplate.is_object() && jobTemplate.contains("spec") ? jobTemplate["spec"] : kube::Json::object();
    kube::Json &tpl = spec["template"];
    if (!tpl.is_object())
        tpl = kube::Json::object();
    stamp(tpl["metadata"], rollout, node, target);
    kube::Json &pod = tpl["spec"];
    if (!pod.is_object())
        pod = kube::Json::object();
    pod["nodeName"] = node;
    if (!pod.contains("restartPolicy") || pod["restartPolicy"] != "OnFailure")
        pod["restartPolicy"] = "Never";
    kube::Json &tolerations = pod["tolerations"];
    if (!tolerations.is_array())
        tolerations = kube::Json::array();
    tolerations.push_back(
        {{"key", "node.kubernetes.io/unschedulable"}, {"operator", "Exists"}, {"effect", "NoSchedule"}});
    tolerations.push_back({{"key", kPendingTaintKey}, {"operator", "Exists"}});
    if (pod.contains("containers") && pod["containers"].is_array())
        for (auto &c : pod["containers"]) {
            setEnv(c, "UPGRADE_TARGET_VERSION", target);
            setEnv(c, "UPGRADE_NODE_NAME", node);
        }
    job["spec"] = std::move(spec);
    return job;
}

std::string restartJobToken(const std::string &target, const std::string &ns, const std::string &name)
{
    return target + "#" + ns + "/" + name;
}

std::pair<std::string, std::string> restartJobOf(const std::string &token)
{
    const std::string ref = token.substr(token.rfind('#') + 1);
    const auto slash = ref.find('/');
    if (slash == std::string::npos)
        return {std::string(), ref};
    return {ref.substr(0, slash), ref.substr(slash + 1)};
}

// ---- pods --------------------------------------------------------------------------------

const char *podClassName(PodClass c)
{
    switch (c) {
    case PodClass::Ignored:
        return "ignored";
    case PodClass::DaemonSet:
        return "daemonset";
    case PodClass::Managed:
        return "managed";
    case PodClass::Unmanaged:
        return "unmanaged";
    }
    return "";
}

bool isReplicatedOwnerKind(const std::string &kind)
{
    return kind == "ReplicationController" || kind == "ReplicaSet" || kind == "Deployment" ||
           kind == "StatefulSet" || kind == "Job";
}

PodClass classifyPod(const kube::Pod &pod, bool controllerExists)
{
    if (pod.isTerminal() || isMirrorPod(pod) || pod.metadata.labels.count(kRestartJobNodeLabel))
        return PodClass::Ignored;
    const kube::OwnerReference *ref = pod.metadata.controllerRef();
    if (ref && ref->kind == "DaemonSet")
        return PodClass::DaemonSet;
    if (ref && isReplicatedOwnerKind(ref->kind) && controllerExists)
        return PodClass::Managed;
    return PodClass::Unmanaged;
}

// ---- budget ------------------------------------------------------------------------------

ResolvedBudget resolveMaxUnavailable(const kube::IntOrString &maxUnavailable, int nodes)
{
    auto v = maxUnavailable.scaledValue(std::max(0, nodes), false);
    const int raw = v ? *v : 1;
    if (raw < 1)
        return {1, true};
    return {raw, false};
}

// ---- gate --------------------------------------------------------------------------------

const char *gateVerdictName(GateVerdict v)
{
    switch (v) {
    case GateVerdict::Delete:
        return "Delete";
    case GateVerdict::DeleteUnready:
        return "DeleteUnready";
    case GateVerdict::DeleteSingleReplica:
        return "DeleteSingleReplica";
    case GateVerdict::DeferHealth:
        return "ControllerUnhealthy";
    case GateVerdict::DeferInflight:
        return "DeletionInFlight";
    case GateVerdict::DeferSingleReplica:
        return "SingleReplicaBlocked";
    }
    return "";
}

bool allowsDeletion(GateVerdict v)
{
    return v == GateVerdict::Delete || v == GateVerdict::DeleteUnready ||
           v == GateVerdict::DeleteSingleReplica;
}

bool consumesInflight(GateVerdict v)
{
    return v == GateVerdict::Delete || v == GateVerdict::DeleteSingleReplica;
}

bool controllerHealthy(int ready, int desired, double threshold, HealthComparison comparison)
{
    if (desired <= 0)
        return true; // nothing is promised, nothing to protect
    // Compare ready > threshold * desired without rounding surprises at exact ratios (9/10 vs 0.9).
    const double lhs = static_cast<double>(ready);
    const double rhs = threshold * static_cast<double>(desired);
    const double eps = 1e-9 * std::max(1.0, rhs);
    return comparison == HealthComparison::AtLeast ? lhs >= rhs - eps : lhs > rhs + eps;
}

GateVerdict controllerGate(const ControllerHealth &h, bool podReady, const NodeUpgradeRolloutSpec &spec)
{
    // Unready pods are not serving (k/k#72320): deleting them cannot reduce availability.
    if (!podReady && spec.unreadyPodPolicy == UnreadyPodPolicy::AlwaysDelete)
        return GateVerdict::DeleteUnready;
    if (h.desired == 1 && spec.singleReplicaPolicy == SingleReplicaPolicy::Block)
        return GateVerdict::DeferSingleReplica;
    if (h.inflight >= spec.maxInflightPerController)
        return GateVerdict::DeferInflight;
    if (!controllerHealthy(h.ready, h.desired, spec.controllerHealthThreshold, spec.healthComparison))
        return GateVerdict::DeferHealth;
    return h.desired == 1 ? GateVerdict::DeleteSingleReplica : GateVerdict::Delete;
}

Phrase gateRule(const std::string &controller, const ControllerHealth &h, GateVerdict v,
                const NodeUpgradeRolloutSpec &spec)
{
    Phrase ratio = phrase(UpgradePhrase::GateRatio, {{"controller", controller},
                                                     {"ready", std::to_string(h.ready)},
                                                     {"desired", std::to_string(h.desired)}});
    switch (v) {
    case GateVerdict::DeferHealth:
        return phrase(spec.healthComparison == HealthComparison::AtLeast ? UpgradePhrase::GateBelow
                                                                         : UpgradePhrase::GateNotAbove,
                      {{"ratio", std::move(ratio)}, {"threshold", percent(spec.controllerHealthThreshold)}});
    case GateVerdict::DeferInflight:
        return phrase(h.inflight == 1 ? UpgradePhrase::GateInflightOne : UpgradePhrase::GateInflightMany,
                      {{"ratio", std::move(ratio)}, {"count", std::to_string(h.inflight)}});
    case GateVerdict::DeferSingleReplica:
        return phrase(UpgradePhrase::GateSingleReplica, {{"controller", controller}});
    default:
        return ratio;
    }
}

// ---- unmanaged ---------------------------------------------------------------------------

UnmanagedDecision unmanagedDecision(UnmanagedPodPolicy policy, kube::Duration timeout,
                                    kube::Timestamp incompatibleSince, kube::Timestamp now)
{
    switch (policy) {
    case UnmanagedPodPolicy::Immediate:
        return {true, false, 0};
    case UnmanagedPodPolicy::Never:
        return {false, true, 0};
    case UnmanagedPodPolicy::AfterTimeout: {
        const kube::Duration elapsed = now - std::min(incompatibleSince, now);
        if (elapsed >= timeout)
            return {true, false, 0};
        return {false, false, timeout - elapsed};
    }
    }
    return {};
}

// ---- selection ---------------------------------------------------------------------------

std::string activeZone(const std::set<std::string> &inFlightZones,
                       const std::vector<SelectionCandidate> &candidates, bool zoneSerial)
{
    if (!zoneSerial)
        return {};
    if (!inFlightZones.empty())
        return *inFlightZones.begin();
    // Ready nodes first; the controller's own node goes last, so its zone is chosen only when
    // nothing else is left.
    std::string best;
    bool any = false;
    for (int pass = 0; pass < 4 && !any; ++pass) {
        const bool ready = pass < 2, host = pass % 2 == 1;
        for (const auto &c : candidates)
            if (c.ready == ready && c.controllerHost == host && (!any || c.zone < best)) {
                best = c.zone;
                any = true;
            }
    }
    return best;
}

std::vector<SelectionCandidate> orderCandidates(std::vector<SelectionCandidate> cs, bool zoneSerial,
                                                const std::string &active)
{
    std::sort(cs.begin(), cs.end(), [&](const SelectionCandidate &a, const SelectionCandidate &b) {
        if (a.controllerHost != b.controllerHost)
            return b.controllerHost; // FLUO#123: the controller's own node goes last
        if (a.ready != b.ready)
            return a.ready; // a NotReady node waits until it is Ready
        if (zoneSerial) {
            const bool aa = a.zone == active, ba = b.zone == active;
            if (aa != ba)
                return aa;
            if (a.zone != b.zone)
                return a.zone < b.zone;
        }
        const bool ae = a.managedPods + a.unmanagedPods == 0, be = b.managedPods + b.unmanagedPods == 0;
        if (ae != be)
            return ae;
        if (a.managedPods != b.managedPods)
            return a.managedPods < b.managedPods;
        if (a.incompatibleSince != b.incompatibleSince)
            return a.incompatibleSince < b.incompatibleSince;
        return a.name < b.name;
    });
    return cs;
}

int startsAllowed(int maxUnavailable, int unavailable, int maxStartsPerPass)
{
    return std::max(0, std::min(maxUnavailable - unavailable, std::max(1, maxStartsPerPass)));
}

// ---- reporting ---------------------------------------------------------------------------

std::optional<kube::Duration> estimateEta(std::vector<kube::Duration> durations, int remainingNodes,
                                          int concurrency)
{
    if (remainingNodes <= 0)
        return kube::Duration{0};
    if (durations.empty())
        return std::nullopt;
    std::sort(durations.begin(), durations.end());
    const kube::Duration median = durations[durations.size() / 2];
    const int c = std::max(1, concurrency);
    const long long waves = (remainingNodes + c - 1) / c;
    return (median * waves + 500) / 1000 * 1000; // whole seconds: an estimate, not a measurement
}

std::string clockTime(kube::Timestamp t)
{
    const std::string s = kube::formatRfc3339(t);
    return s.size() >= 16 ? s.substr(11, 5) : s;
}

Phrase headline(const HeadlineInput &in)
{
    Phrase progress = phrase(UpgradePhrase::Progress, {{"upToDate", std::to_string(in.counts.upToDate)},
                                                       {"nodes", std::to_string(in.counts.nodes)}});
    switch (in.phase) {
    case RolloutPhase::Aborted:
        return phrase(UpgradePhrase::Aborted, {{"progress", std::move(progress)}});
    case RolloutPhase::Aborting:
        return phrase(UpgradePhrase::Aborting, {{"nodes", Phrase::list(in.stillInFlight, ", ")}});
    case RolloutPhase::Completed:
        return phrase(UpgradePhrase::Completed, {{"progress", std::move(progress)}});
    case RolloutPhase::CompletedWithExceptions:
        return phrase(UpgradePhrase::CompletedWithExceptions, {{"progress", std::move(progress)},
                                                               {"skipped", std::to_string(in.counts.skipped)},
                                                               {"failed", std::to_string(in.counts.failed)}});
    default:
        break;
    }
    if (!in.refusal.empty())
        return phrase(UpgradePhrase::NotStarted, {{"refusal", in.refusal}});
    if (in.phase == RolloutPhase::Halted)
        return phrase(
            in.failed.size() == 1 ? UpgradePhrase::HaltedOne : UpgradePhrase::HaltedMany,
            {{"count", std::to_string(in.failed.size())}, {"nodes", Phrase::list(in.failed, "; ")}});
    if (in.phase == RolloutPhase::Paused) {
        const bool at = in.pausedAt.has_value(), inFlight = !in.stillInFlight.empty();
        const UpgradePhrase code =
            at ? (inFlight ? UpgradePhrase::PausedByAtInFlight : UpgradePhrase::PausedByAt)
               : (inFlight ? UpgradePhrase::PausedByInFlight : UpgradePhrase::PausedBy);
        return phrase(code, {{"actor", in.pausedBy.empty() ? std::string("admin") : in.pausedBy},
                             {"time", at ? clockTime(*in.pausedAt) : std::string()},
                             {"nodes", Phrase::list(in.stillInFlight, ", ")}});
    }
    if (!in.gateFailure.empty())
        return phrase(UpgradePhrase::Waiting, {{"why", in.gateFailure}});
    if (!in.foreignHolders.empty() && in.budgetUsed >= in.budgetMax && in.counts.pending > 0)
        return phrase(UpgradePhrase::Waiting,
                      {{"why", phrase(UpgradePhrase::BudgetUsedBy,
                                      {{"used", std::to_string(in.budgetUsed)},
                                       {"max", std::to_string(in.budgetMax)},
                                       {"holders", Phrase::list(in.foreignHolders, ", ")}})}});
    if (!in.stalled.empty())
        return phrase(UpgradePhrase::Waiting, {{"why", in.stalled}});
    if (!in.blockedNode.empty())
        return in.blockedNode;
    return phrase(in.eta ? UpgradePhrase::ProgressInFlightEta : UpgradePhrase::ProgressInFlight,
                  {{"progress", std::move(progress)},
                   {"inFlight", std::to_string(in.counts.inFlight)},
                   {"eta", in.eta ? kube::formatDuration(*in.eta) : std::string()}});
}

} // namespace api
