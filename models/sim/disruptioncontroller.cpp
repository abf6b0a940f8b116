#include "models/sim/disruptioncontroller.h"

#include "models/api/disruptionbudget.h"
#include "models/sim/clusterimpl.h"

#include <algorithm>

namespace sim {

namespace {

// getExpectedScale: the sum of the scales of the controllers of the pods; unmanaged pods are
// left out, a controller without a scale makes the count unknowable.
std::optional<int> expectedScale(const std::vector<const kube::Pod *> &pods, const ControllerScale &scaleOf,
                                 std::string &error)
{
    std::map<std::string, int> scales; // controller uid -> scale
    for (const kube::Pod *pod : pods) {
        const kube::OwnerReference *ref = pod->metadata.controllerRef();
        if (!ref || scales.count(ref->uid))
            continue;
        const std::optional<int> scale = scaleOf ? scaleOf(*ref, pod->metadata.namespace_) : std::nullopt;
        if (!scale) {
            error = "found no controllers for pod \"" + pod->metadata.name + "\"";
            return std::nullopt;
        }
        scales[ref->uid] = *scale;
    }
    int total = 0;
    for (const auto &[uid, scale] : scales)
        total += scale;
    return total;
}

} // namespace

PdbSync computePdbStatus(const kube::PodDisruptionBudget &pdb, const std::vector<const kube::Pod *> &pods,
                         const ControllerScale &scaleOf, kube::Timestamp now)
{
    PdbSync out;
    out.noPods = pods.empty();
    int expected = 0;
    int desired = 0;
    const auto &spec = pdb.spec;
    std::string error;
    if (spec.maxUnavailable) {
        if (auto e = expectedScale(pods, scaleOf, error)) {
            expected = *e;
            auto maxUnavailable = spec.maxUnavailable->scaledValue(expected, true);
            if (maxUnavailable)
                desired = std::max(0, expected - *maxUnavailable);
            else
                error = maxUnavailable.error().message;
        }
    } else if (spec.minAvailable) {
        if (spec.minAvailable->isInt()) {
            desired = spec.minAvailable->intValue();
            expected = static_cast<int>(pods.size());
        } else if (auto e = expectedScale(pods, scaleOf, error)) {
            expected = *e;
            auto minAvailable = spec.minAvailable->scaledValue(expected, true);
            if (minAvailable)
                desired = *minAvailable;
            else
                error = minAvailable.error().message;
        }
    }
    if (!error.empty()) {
        // failSafe: nothing may be disrupted while the budget cannot be computed.
        out.error = error;
        out.status = pdb.status;
        out.status.disruptionsAllowed = 0;
        api::setBudgetCondition(out.status, {api::kDisruptionAllowed, "False", out.status.observedGeneration,
                                             now, "SyncFailed", error});
        return out;
    }

    // buildDisruptedPodMap: entries for pods that still exist and are not being deleted, until
    // their deletion is overdue.
    std::map<std::string, kube::Timestamp> disrupted;
    for (const kube::Pod *pod : pods) {
        if (pod->isDeleting())
            continue;
        auto it = pdb.status.disruptedPods.find(pod->metadata.name);
        if (it == pdb.status.disruptedPods.end())
            continue;
        const kube::Timestamp due = it->second + kPdbDeletionTimeout;
        if (due < now)
            continue;
        disrupted[it->first] = it->second;
        if (!out.recheck || due < *out.recheck)
            out.recheck = due;
    }
    // countHealthyPods: Ready, not being deleted, not about to be.
    int healthy = 0;
    for (const kube::Pod *pod : pods) {
        if (pod->isDeleting())
            continue;
        if (auto it = disrupted.find(pod->metadata.name);
            it != disrupted.end() && it->second + kPdbDeletionTimeout > now)
            continue;
        if (pod->ready)
            ++healthy;
    }
    int allowed = healthy - desired;
    if (expected <= 0 || allowed <= 0)
        allowed = 0;

    out.status = pdb.status;
    out.status.currentHealthy = healthy;
    out.status.desiredHealthy = desired;
    out.status.expectedPods = expected;
    out.status.disruptionsAllowed = allowed;
    out.status.disruptedPods = std::move(disrupted);
    out.status.observedGeneration = pdb.metadata.generation;
    api::updateDisruptionAllowedCondition(out.status, now);
    return out;
}

// ---- the controller ----------------------------------------------------------------------

void DisruptionController::enqueue(const std::string &key)
{
    if (!m_queued.insert(key).second)
        return;
    c.deliver([this, key] {
        m_queued.erase(key);
        sync(key);
    });
}

void DisruptionController::onPod(const WatchEvent &ev)
{
    if (c.pdbs.empty() || !ev.pod)
        return;
    const std::string podKey = ev.key();
    if (auto it = m_budgetsOf.find(podKey); it != m_budgetsOf.end())
        for (const auto &budget : it->second)
            enqueue(budget);
    const std::string prefix = ev.namespace_ + "/";
    for (auto it = c.pdbs.lower_bound(prefix); it != c.pdbs.end() && it->first.rfind(prefix, 0) == 0; ++it)
        if (it->second.covers(ev.pod->metadata.labels))
            enqueue(it->first);
}

void DisruptionController::onBudget(const WatchEvent &ev)
{
    if (m_writing)
        return; // the controller's own status write
    const std::string key = ev.key();
    if (ev.type == WatchEvent::Type::Deleted) {
        if (auto it = m_podsOf.find(key); it != m_podsOf.end()) {
            for (const auto &pod : it->second)
                if (auto b = m_budgetsOf.find(pod); b != m_budgetsOf.end()) {
                    b->second.erase(key);
                    if (b->second.empty())
                        m_budgetsOf.erase(b);
                }
            m_podsOf.erase(it);
        }
        return;
    }
    enqueue(key);
}

void DisruptionController::onReplicaSet(const WatchEvent &ev)
{
    // A scale change moves the expected count of the budgets over its pods.
    const std::string prefix = ev.namespace_ + "/";
    for (auto it = c.pdbs.lower_bound(prefix); it != c.pdbs.end() && it->first.rfind(prefix, 0) == 0; ++it)
        enqueue(it->first);
}

void DisruptionController::sync(const std::string &key)
{
    auto it = c.pdbs.find(key);
    if (it == c.pdbs.end())
        return;
    const kube::PodDisruptionBudget &pdb = it->second;
    const std::string &ns = pdb.metadata.namespace_;
    std::vector<const kube::Pod *> pods;
    std::set<std::string> counted;
    const std::string prefix = ns + "/";
    for (auto p = c.pods.lower_bound(prefix); p != c.pods.end() && p->first.rfind(prefix, 0) == 0; ++p)
        if (pdb.covers(p->second.metadata.labels)) {
            pods.push_back(&p->second);
            counted.insert(p->first);
        }
    // Keep the pod -> budget index in step with what this sync counted.
    auto &before = m_podsOf[key];
    for (const auto &pod : before)
        if (!counted.count(pod))
            if (auto b = m_budgetsOf.find(pod); b != m_budgetsOf.end()) {
                b->second.erase(key);
                if (b->second.empty())
                    m_budgetsOf.erase(b);
            }
    for (const auto &pod : counted)
        m_budgetsOf[pod].insert(key);
    before = std::move(counted);

    const ControllerScale scaleOf = [this](const kube::OwnerReference &ref,
                                           const std::string &) -> std::optional<int> {
        if (ref.kind != "ReplicaSet")
            return std::nullopt; // DaemonSets have no scale subresource
        auto k = c.replicaSetByUid.find(ref.uid);
        if (k == c.replicaSetByUid.end())
            return std::nullopt;
        auto rs = c.replicaSets.find(k->second);
        return rs == c.replicaSets.end() ? std::nullopt : std::optional<int>(rs->second.replicas());
    };
    PdbSync result = computePdbStatus(pdb, pods, scaleOf, c.now);
    const std::string name = pdb.metadata.name;
    const std::string uid = pdb.metadata.uid;
    if (result.noPods)
        c.recordEvent("Normal", "NoPods", "No matching pods found", api::Kind::PodDisruptionBudget, ns, name,
                      uid);
    if (!result.error.empty())
        c.recordEvent("Warning", "CalculateExpectedPodCountFailed",
                      "Failed to calculate the number of expected pods: " + result.error,
                      api::Kind::PodDisruptionBudget, ns, name, uid);
    if (result.recheck && c.continuous()) {
        auto &at = m_recheckAt[key];
        if (at == 0 || *result.recheck < at || at <= c.now) {
            at = *result.recheck;
            c.loop.post(*result.recheck + 1, [this, key] { enqueue(key); });
        }
    }
    auto again = c.pdbs.find(key); // recording events does not touch budgets, but be sure
    if (again == c.pdbs.end() || result.status == again->second.status)
        return;
    kube::PodDisruptionBudget next = again->second;
    next.status = std::move(result.status);
    m_writing = true;
    c.commitPdb(std::move(next), false);
    m_writing = false;
}

} // namespace sim
