#include "models/api/kubectldrain.h"

#include <algorithm>
#include <map>

namespace api {

namespace {

// kubectl's fatal messages (filters.go), completed by PodDeleteList.errors as "cannot delete %s: %s".
const char *fatalText(DrainVerdict v)
{
    switch (v) {
    case DrainVerdict::RefuseDaemonSet:
        return "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
    case DrainVerdict::RefuseLocalStorage:
        return "Pods with local storage (use --delete-emptydir-data to override)";
    case DrainVerdict::RefuseUnmanaged:
        return "Pods declare no controller (use --force to override)";
    case DrainVerdict::RefuseOrphan:
        return "Pods whose DaemonSet is gone (use --force to override)";
    default:
        return "";
    }
}

bool finished(const kube::Pod &pod)
{
    return pod.isTerminal();
}

// The filters in kubectl's order; the first that does not let the pod go decides.
DrainVerdict decide(const kube::Pod &pod, const DrainOptions &options, const DaemonSetExists &dsExists)
{
    // daemonSetFilter
    const kube::OwnerReference *ref = pod.metadata.controllerRef();
    if (ref && ref->kind == "DaemonSet" && !finished(pod)) {
        if (dsExists && !dsExists(pod.metadata.namespace_, ref->name)) {
            if (!options.force)
                return DrainVerdict::RefuseOrphan;
        } else if (!options.ignoreDaemonSets) {
            return DrainVerdict::RefuseDaemonSet;
        } else {
            return DrainVerdict::SkipDaemonSet;
        }
    }
    // mirrorPodFilter
    if (isMirrorPod(pod))
        return DrainVerdict::SkipMirror;
    if (finished(pod))
        return DrainVerdict::EvictFinished;
    // localStorageFilter
    if (hasLocalStorage(pod) && !options.deleteEmptyDirData)
        return DrainVerdict::RefuseLocalStorage;
    // unreplicatedFilter
    if (!ref && !options.force)
        return DrainVerdict::RefuseUnmanaged;
    return DrainVerdict::Evict;
}

} // namespace

bool isMirrorPod(const kube::Pod &pod)
{
    return pod.metadata.annotations.count(kMirrorPodAnnotation) > 0;
}

bool hasLocalStorage(const kube::Pod &pod)
{
    if (!pod.spec || !pod.spec->is_object())
        return false;
    const auto volumes = pod.spec->find("volumes");
    if (volumes == pod.spec->end() || !volumes->is_array())
        return false;
    return std::any_of(volumes->begin(), volumes->end(), [](const kube::Json &v) {
        if (!v.is_object())
            return false;
        const auto e = v.find("emptyDir");
        return e != v.end() && !e->is_null();
    });
}

DrainPlan getPodsForDeletion(const std::vector<const kube::Pod *> &podsOnNode, const DrainOptions &options,
                             const DaemonSetExists &daemonSetExists)
{
    DrainPlan plan;
    plan.pods.reserve(podsOnNode.size());
    for (const kube::Pod *pod : podsOnNode)
        plan.pods.push_back(
            {pod->metadata.namespace_, pod->metadata.name, decide(*pod, options, daemonSetExists)});
    return plan;
}

bool DrainPlan::refused() const
{
    return std::any_of(pods.begin(), pods.end(), [](const DrainPodDecision &d) { return d.refused(); });
}

std::vector<DrainPodDecision> DrainPlan::toEvict() const
{
    std::vector<DrainPodDecision> out;
    for (const auto &d : pods)
        if (d.evicts())
            out.push_back(d);
    return out;
}

std::vector<std::string> DrainPlan::errors() const
{
    std::map<std::string, std::string> byMessage; // sorted: Go's map order is random
    for (const auto &d : pods) {
        if (!d.refused())
            continue;
        std::string &list = byMessage[fatalText(d.verdict)];
        list += (list.empty() ? "" : ", ") + d.key();
    }
    std::vector<std::string> out;
    for (const auto &[message, list] : byMessage)
        out.push_back("cannot delete " + message + ": " + list);
    return out;
}

std::string DrainPlan::warning() const
{
    std::string list;
    for (const auto &d : pods)
        if (d.verdict == DrainVerdict::SkipDaemonSet)
            list += (list.empty() ? "" : ", ") + d.key();
    return list.empty() ? std::string() : "ignoring DaemonSet-managed Pods: " + list;
}

const kube::PodDisruptionBudget *coveringBudget(const kube::Pod &pod,
                                                const std::vector<const kube::PodDisruptionBudget *> &budgets)
{
    for (const auto *b : budgets)
        if (b && b->metadata.namespace_ == pod.metadata.namespace_ && b->covers(pod.metadata.labels))
            return b;
    return nullptr;
}

std::string budgetBlockText(const std::string &pod, const kube::PodDisruptionBudget *budget,
                            const std::string &serverMessage)
{
    if (!budget)
        return pod + ": cannot evict: " + serverMessage;
    std::string rule;
    if (budget->spec.minAvailable)
        rule = "minAvailable " + budget->spec.minAvailable->toString();
    else if (budget->spec.maxUnavailable)
        rule = "maxUnavailable " + budget->spec.maxUnavailable->toString();
    const auto &st = budget->status;
    return pod + ": cannot evict, would violate PodDisruptionBudget " + budget->metadata.namespace_ + "/" +
           budget->metadata.name + " (" + (rule.empty() ? std::string() : rule + ", ") +
           std::to_string(st.currentHealthy) + " healthy of " + std::to_string(st.expectedPods) + ")";
}

std::vector<int> drainRetryDelaysMs()
{
    return {1000, 2000, 4000, 8000};
}

std::string drainSummary(int evicted, int toEvict, int skippedDaemonSet,
                         const std::vector<std::string> &blockers)
{
    std::string text = "drained " + std::to_string(evicted) + " of " + std::to_string(toEvict) +
                       (toEvict == 1 ? " pod" : " pods");
    for (const auto &b : blockers)
        text += "; " + b;
    if (skippedDaemonSet > 0)
        text += "; skipped " + std::to_string(skippedDaemonSet) +
                (skippedDaemonSet == 1 ? " DaemonSet pod" : " DaemonSet pods");
    return text;
}

DrainRun::DrainRun(const DrainPlan &plan)
{
    for (const auto &d : plan.pods) {
        if (d.evicts())
            m_pending.emplace_back(d.namespace_, d.name);
        else if (d.verdict == DrainVerdict::SkipDaemonSet)
            ++m_skippedDaemonSet;
    }
    m_toEvict = static_cast<int>(m_pending.size());
}

std::optional<int> DrainRun::round(const Evict &evict, const std::vector<int> &delays)
{
    std::vector<std::pair<std::string, std::string>> blocked;
    m_blockers.clear();
    for (const auto &[ns, pod] : m_pending) {
        Answer a = evict(ns, pod);
        switch (a.outcome) {
        case Eviction::Evicted:
            ++m_evicted; // gone already counts, as for kubectl
            break;
        case Eviction::Blocked:
            blocked.emplace_back(ns, pod);
            m_blockers.push_back(std::move(a.text));
            break;
        case Eviction::Failed:
            m_failures.push_back(std::move(a.text));
            break;
        }
    }
    m_pending = std::move(blocked);
    if (!m_pending.empty() && m_attempt < delays.size())
        return delays[m_attempt++];
    return std::nullopt;
}

std::string DrainRun::summary() const
{
    std::vector<std::string> named = m_failures;
    named.insert(named.end(), m_blockers.begin(), m_blockers.end());
    return drainSummary(m_evicted, m_toEvict, m_skippedDaemonSet, named);
}

} // namespace api
