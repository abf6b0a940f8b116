#include "models/api/daemonsetlogic.h"
#include "models/kube/jsonfield.h"

#include "models/kube/nodeaffinity.h"

#include <algorithm>

namespace api {

using kube::ControllerRevision;
using kube::Json;
using kube::Pod;

std::string daemonSetPatch(const Json &podTemplate)
{
    Json tpl = podTemplate.is_object() ? podTemplate : Json::object();
    tpl["$patch"] = "replace";
    Json patch = Json::object();
    patch["spec"]["template"] = std::move(tpl);
    return kube::goJson(patch);
}

bool matchRevision(const kube::DaemonSet &ds, const ControllerRevision &cr)
{
    return daemonSetPatch(ds.podTemplate()) == cr.data;
}

std::string templateHash(const Json &podTemplate, std::optional<int> collisionCount)
{
    return kube::computeHash(kube::goJson(podTemplate.is_null() ? Json::object() : podTemplate),
                             collisionCount);
}

HistorySplit constructHistory(const kube::DaemonSet &ds,
                              const std::vector<const ControllerRevision *> &claimed)
{
    HistorySplit split;
    const std::string patch = daemonSetPatch(ds.podTemplate());
    std::int64_t maxOld = 0;
    for (const auto *cr : claimed) {
        if (cr->data == patch) {
            split.current.push_back(cr);
        } else {
            split.old.push_back(cr);
            maxOld = std::max(maxOld, cr->revision);
        }
    }
    split.currRevision = maxOld + 1;
    return split;
}

DedupDecision dedupCurHistories(const std::vector<const ControllerRevision *> &current)
{
    DedupDecision d;
    if (current.empty())
        return d;
    if (current.size() == 1) {
        d.keep = current.front();
        return d;
    }
    std::int64_t maxRevision = 0;
    for (const auto *cr : current) {
        if (cr->revision >= maxRevision) {
            d.keep = cr;
            maxRevision = cr->revision;
        }
    }
    for (const auto *cr : current)
        if (cr->metadata.name != d.keep->metadata.name)
            d.remove.push_back(cr);
    return d;
}

std::vector<const ControllerRevision *> cleanupHistory(std::vector<const ControllerRevision *> old,
                                                       int revisionHistoryLimit,
                                                       const std::set<std::string> &liveHashes)
{
    std::vector<const ControllerRevision *> kill;
    int toKill = static_cast<int>(old.size()) - revisionHistoryLimit;
    if (toKill <= 0)
        return kill;
    // Upstream sorts unstably by revision; name breaks ties here so the choice is deterministic.
    std::sort(old.begin(), old.end(), [](const ControllerRevision *a, const ControllerRevision *b) {
        return a->revision != b->revision ? a->revision < b->revision : a->metadata.name < b->metadata.name;
    });
    for (const auto *cr : old) {
        if (toKill <= 0)
            break;
        if (liveHashes.count(cr->metadata.label(kube::kRevisionHashLabel)))
            continue;
        kill.push_back(cr);
        --toKill;
    }
    return kill;
}

// ---- nodes -------------------------------------------------------------------------------

namespace {

kube::Toleration existsToleration(const char *key, const char *effect)
{
    kube::Toleration t;
    t.key = key;
    t.op = "Exists";
    t.effect = effect;
    return t;
}

std::vector<kube::Toleration> defaultDaemonTolerations(bool hostNetwork)
{
    std::vector<kube::Toleration> v = {
        existsToleration("node.kubernetes.io/not-ready", "NoExecute"),
        existsToleration("node.kubernetes.io/unreachable", "NoExecute"),
        existsToleration("node.kubernetes.io/disk-pressure", "NoSchedule"),
        existsToleration("node.kubernetes.io/memory-pressure", "NoSchedule"),
        existsToleration("node.kubernetes.io/pid-pressure", "NoSchedule"),
        existsToleration("node.kubernetes.io/unschedulable", "NoSchedule"),
    };
    if (hostNetwork)
        v.push_back(existsToleration("node.kubernetes.io/network-unavailable", "NoSchedule"));
    return v;
}

// MatchToleration: same key, operator, value and effect.
bool sameToleration(const kube::Toleration &a, const kube::Toleration &b)
{
    auto op = [](const std::string &o) { return o.empty() ? std::string("Equal") : o; };
    return a.key == b.key && op(a.op) == op(b.op) && a.value == b.value && a.effect == b.effect;
}

void addOrUpdate(std::vector<kube::Toleration> &list, const kube::Toleration &t)
{
    for (auto &e : list) {
        if (sameToleration(e, t)) {
            e = t;
            return;
        }
    }
    list.push_back(t);
}

bool anyUntolerated(const std::vector<kube::Taint> &taints, const std::vector<kube::Toleration> &tolerations,
                    bool noScheduleToo)
{
    for (const auto &taint : taints) {
        if (taint.effect != "NoExecute" && !(noScheduleToo && taint.effect == "NoSchedule"))
            continue;
        if (!kube::tolerationsTolerateTaint(tolerations, taint))
            return true;
    }
    return false;
}

const Json &nullJson()
{
    static const Json n;
    return n;
}

} // namespace

void addOrUpdateDaemonPodTolerations(Json &podSpec)
{
    auto existing =
        kube::tolerationsFromJson(podSpec.contains("tolerations") ? podSpec["tolerations"] : Json());
    std::vector<kube::Toleration> list = existing ? *existing : std::vector<kube::Toleration>{};
    for (const auto &t : defaultDaemonTolerations(kube::boolOr(podSpec, "hostNetwork", false)))
        addOrUpdate(list, t);
    Json arr = Json::array();
    for (const auto &t : list)
        arr.push_back(t.toJson());
    podSpec["tolerations"] = std::move(arr);
}

DaemonPodPredicate daemonPodPredicate(const kube::DaemonSet &ds)
{
    DaemonPodPredicate p;
    const Json &tpl = ds.podTemplate();
    const Json &spec = tpl.is_object() && tpl.contains("spec") ? tpl["spec"] : nullJson();
    p.spec = &spec;
    if (spec.is_object()) {
        p.nodeName = kube::stringOr(spec, "nodeName");
        if (auto t = kube::tolerationsFromJson(spec.contains("tolerations") ? spec["tolerations"] : Json()))
            p.tolerations = *t;
        p.hasSelectorOrAffinity = spec.contains("nodeSelector") || spec.contains("affinity");
    }
    for (const auto &t :
         defaultDaemonTolerations(spec.is_object() && kube::boolOr(spec, "hostNetwork", false)))
        addOrUpdate(p.tolerations, t);
    return p;
}

ShouldRun nodeShouldRunDaemonPod(const kube::Node &node, const DaemonPodPredicate &pod)
{
    if (!pod.nodeName.empty() && pod.nodeName != node.metadata.name)
        return {false, false};
    if (pod.hasSelectorOrAffinity && pod.spec && pod.spec->is_object()) {
        if (!kube::nodeSelectorMatches(*pod.spec, node) || !kube::requiredAffinityMatches(*pod.spec, node))
            return {false, false};
    }
    if (anyUntolerated(node.taints, pod.tolerations, true))
        return {false, !anyUntolerated(node.taints, pod.tolerations, false)};
    return {true, true};
}

ShouldRun nodeShouldRunDaemonPod(const kube::Node &node, const kube::DaemonSet &ds)
{
    return nodeShouldRunDaemonPod(node, daemonPodPredicate(ds));
}

// ---- pods --------------------------------------------------------------------------------

namespace {

const std::string kHashKey = kube::kRevisionHashLabel;
const std::string kGenerationKey = kube::kPodTemplateGenerationLabel;

bool hasHash(const Pod &pod, const std::string &hash)
{
    auto it = pod.metadata.labels.find(kHashKey);
    return it != pod.metadata.labels.end() && it->second == hash;
}

} // namespace

bool isPodUpdated(const Pod &pod, const std::string &hash, std::optional<std::int64_t> generation)
{
    if (!hash.empty() && hasHash(pod, hash))
        return true;
    if (generation) {
        auto it = pod.metadata.labels.find(kGenerationKey);
        if (it == pod.metadata.labels.end() || it->second.empty() || it->second.size() > 18)
            return false;
        // Decimal comparison without formatting the generation for every pod.
        std::int64_t v = 0;
        for (char c : it->second) {
            if (c < '0' || c > '9' || (c == '0' && v == 0 && it->second.size() > 1))
                return false;
            v = v * 10 + (c - '0');
        }
        return v == *generation;
    }
    return false;
}

bool podOlder(const Pod *a, const Pod *b)
{
    const bool sa = !a->nodeName.empty(), sb = !b->nodeName.empty();
    if (sa != sb)
        return sa;
    const kube::Timestamp ta = a->metadata.creationTimestamp.value_or(0);
    const kube::Timestamp tb = b->metadata.creationTimestamp.value_or(0);
    if (ta == tb)
        return a->metadata.name < b->metadata.name;
    return ta < tb;
}

PodsOnNodeDecision podsShouldBeOnNode(const NodeDaemonPods &entry, const std::string &hash, bool surge,
                                      int minReadySeconds, kube::Timestamp now,
                                      const std::function<bool(const Pod &)> &failedPodAllowed)
{
    PodsOnNodeDecision d;
    const bool exists = !entry.pods.empty();
    if (entry.should.shouldRun && !exists) {
        d.createPod = true;
        return d;
    }
    if (entry.should.shouldContinueRunning) {
        if (entry.pods.size() == 1 && !entry.pods[0]->isDeleting() && !entry.pods[0]->isTerminal())
            return d; // the common case: one running pod, nothing to decide
        std::vector<const Pod *> running;
        for (const Pod *pod : entry.pods) {
            if (pod->isDeleting())
                continue;
            if (pod->phase == "Failed") {
                if (failedPodAllowed && !failedPodAllowed(*pod)) {
                    d.backoffRequeue = true;
                    continue;
                }
                d.failed.push_back(pod);
                d.toDelete.push_back(pod);
            } else if (pod->phase == "Succeeded") {
                d.succeeded.push_back(pod);
                d.toDelete.push_back(pod);
            } else {
                running.push_back(pod);
            }
        }
        if (!surge) {
            if (running.size() <= 1)
                return d;
            std::sort(running.begin(), running.end(), podOlder);
            for (std::size_t i = 1; i < running.size(); ++i)
                d.toDelete.push_back(running[i]);
            return d;
        }
        if (running.size() <= 1) {
            if (running.empty() && entry.should.shouldRun)
                d.createPod = true;
            return d;
        }
        const Pod *oldestNew = nullptr;
        const Pod *oldestOld = nullptr;
        std::sort(running.begin(), running.end(), podOlder);
        for (const Pod *pod : running) {
            if (hasHash(*pod, hash)) {
                if (!oldestNew) {
                    oldestNew = pod;
                    continue;
                }
            } else if (!oldestOld) {
                oldestOld = pod;
                continue;
            }
            d.toDelete.push_back(pod);
        }
        if (oldestNew && oldestOld) {
            if (!oldestOld->ready || oldestNew->isAvailable(minReadySeconds, now))
                d.toDelete.push_back(oldestOld);
        }
        return d;
    }
    if (exists) {
        for (const Pod *pod : entry.pods)
            if (!pod->isDeleting())
                d.toDelete.push_back(pod);
    }
    return d;
}

// ---- rolling update ----------------------------------------------------------------------

namespace {

kube::Result<int> scaled(const kube::DaemonSet &ds, const std::optional<kube::IntOrString> &v, int total,
                         bool nilIsZero)
{
    if (ds.updateStrategyType() != "RollingUpdate")
        return 0;
    const auto &spec = ds.spec;
    auto us = spec.find("updateStrategy");
    if (us == spec.end() || !us->is_object() || !us->contains("rollingUpdate") ||
        !(*us)["rollingUpdate"].is_object())
        return 0;
    if (!v) {
        if (nilIsZero)
            return 0;
        return kube::ApiStatus::badRequest("nil value for IntOrString");
    }
    return v->scaledValue(total, true);
}

} // namespace

kube::Result<int> surgeCount(const kube::DaemonSet &ds, int numberToSchedule)
{
    return scaled(ds, ds.maxSurge(), numberToSchedule, true);
}

kube::Result<int> unavailableCount(const kube::DaemonSet &ds, int numberToSchedule)
{
    return scaled(ds, ds.maxUnavailable(), numberToSchedule, false);
}

bool allowsSurge(const kube::DaemonSet &ds)
{
    auto s = surgeCount(ds, 1);
    return s.ok() && *s != 0;
}

kube::Result<Budget> updatedDesiredNodeCounts(const kube::DaemonSet &ds, int desired)
{
    Budget b;
    b.desiredNumberScheduled = desired;
    auto mu = unavailableCount(ds, desired);
    if (!mu)
        return kube::ApiStatus::badRequest("invalid value for MaxUnavailable: " + mu.error().message);
    auto ms = surgeCount(ds, desired);
    if (!ms)
        return kube::ApiStatus::badRequest("invalid value for MaxSurge: " + ms.error().message);
    b.maxUnavailable = *mu;
    b.maxSurge = *ms;
    if (desired > 0 && b.maxUnavailable == 0 && b.maxSurge == 0)
        b.maxUnavailable = 1;
    return b;
}

UpdatedPods findUpdatedPodsOnNode(const std::vector<const Pod *> &pods, const std::string &hash,
                                  std::optional<std::int64_t> generation)
{
    UpdatedPods r;
    for (const Pod *pod : pods) {
        if (pod->isDeleting())
            continue;
        if (isPodUpdated(*pod, hash, generation)) {
            if (r.newPod)
                return {nullptr, nullptr, false};
            r.newPod = pod;
        } else {
            if (r.oldPod)
                return {nullptr, nullptr, false};
            r.oldPod = pod;
        }
    }
    return r;
}

RollingNode rollingNode(const NodeDaemonPods &e, const std::string &hash,
                        std::optional<std::int64_t> generation, int minReadySeconds, kube::Timestamp now)
{
    RollingNode n;
    n.node = &e.node;
    n.shouldRun = e.should.shouldRun;
    n.inMap = e.should.shouldRun || !e.pods.empty();
    if (!n.inMap)
        return n;
    const UpdatedPods u = findUpdatedPodsOnNode(e.pods, hash, generation);
    n.ok = u.ok;
    n.oldPod = u.oldPod;
    n.newPod = u.newPod;
    n.oldAvailable = u.oldPod && u.oldPod->isAvailable(minReadySeconds, now);
    n.newAvailable = u.newPod && u.newPod->isAvailable(minReadySeconds, now);
    return n;
}

RollingUpdatePlan rollingUpdate(const std::vector<NodeDaemonPods> &entries, const Budget &budget,
                                const std::string &hash, std::optional<std::int64_t> generation,
                                int minReadySeconds, kube::Timestamp now)
{
    std::vector<RollingNode> nodes;
    nodes.reserve(entries.size());
    for (const auto &e : entries)
        nodes.push_back(rollingNode(e, hash, generation, minReadySeconds, now));
    return rollingUpdatePlan(nodes, budget);
}

RollingUpdatePlan rollingUpdatePlan(const std::vector<RollingNode> &nodes, const Budget &budget)
{
    RollingUpdatePlan plan;
    if (budget.maxSurge == 0) {
        std::vector<std::string> allowed, candidates;
        int numUnavailable = 0;
        for (const auto &n : nodes) {
            if (!n.inMap)
                continue;
            if (!n.ok) {
                ++numUnavailable;
                continue;
            }
            if ((!n.oldPod && !n.newPod) || (n.oldPod && n.newPod)) {
                ++numUnavailable;
            } else if (n.newPod) {
                if (!n.newAvailable)
                    ++numUnavailable;
            } else if (!n.oldAvailable) {
                allowed.push_back(n.oldPod->metadata.name);
                ++numUnavailable;
            } else if (numUnavailable >= budget.maxUnavailable) {
                continue;
            } else {
                candidates.push_back(n.oldPod->metadata.name);
            }
        }
        int remaining =
            std::clamp(budget.maxUnavailable - numUnavailable, 0, static_cast<int>(candidates.size()));
        plan.podsToDelete = allowed;
        plan.podsToDelete.insert(plan.podsToDelete.end(), candidates.begin(), candidates.begin() + remaining);
        plan.numUnavailable = numUnavailable;
        plan.candidates = static_cast<int>(candidates.size());
        return plan;
    }

    std::vector<std::string> oldToDelete, shouldNotRun, candidateNodes, allowedNodes;
    int numSurge = 0, numAvailable = 0;
    for (const auto &n : nodes) {
        if (!n.inMap)
            continue;
        if (!n.ok) {
            ++numSurge;
            continue;
        }
        if (n.oldPod) {
            if (n.oldAvailable)
                ++numAvailable;
        } else if (n.newPod && n.newAvailable) {
            ++numAvailable;
        }
        if (!n.oldPod)
            continue;
        if (!n.newPod) {
            if (!n.oldAvailable) {
                if (!n.shouldRun) {
                    oldToDelete.push_back(n.oldPod->metadata.name);
                    continue;
                }
                allowedNodes.push_back(*n.node);
            } else {
                if (!n.shouldRun) {
                    shouldNotRun.push_back(n.oldPod->metadata.name);
                    continue;
                }
                if (numSurge >= budget.maxSurge)
                    continue;
                candidateNodes.push_back(*n.node);
            }
        } else {
            if (!n.newAvailable) {
                ++numSurge;
                continue;
            }
            oldToDelete.push_back(n.oldPod->metadata.name);
        }
    }
    int remainingSurge = budget.maxSurge - numSurge;
    if (int deletable = numAvailable - budget.desiredNumberScheduled; deletable > 0) {
        deletable = std::min(deletable, static_cast<int>(shouldNotRun.size()));
        oldToDelete.insert(oldToDelete.end(), shouldNotRun.begin(), shouldNotRun.begin() + deletable);
    }
    remainingSurge = std::clamp(remainingSurge, 0, static_cast<int>(candidateNodes.size()));
    plan.podsToDelete = oldToDelete;
    plan.nodesToCreate = allowedNodes;
    plan.nodesToCreate.insert(plan.nodesToCreate.end(), candidateNodes.begin(),
                              candidateNodes.begin() + remainingSurge);
    plan.numSurge = numSurge;
    plan.numAvailable = numAvailable;
    plan.candidates = static_cast<int>(candidateNodes.size());
    return plan;
}

// ---- status ------------------------------------------------------------------------------

StatusShare &StatusShare::operator+=(const StatusShare &o)
{
    desired += o.desired;
    current += o.current;
    misscheduled += o.misscheduled;
    ready += o.ready;
    available += o.available;
    updated += o.updated;
    return *this;
}

StatusShare &StatusShare::operator-=(const StatusShare &o)
{
    desired -= o.desired;
    current -= o.current;
    misscheduled -= o.misscheduled;
    ready -= o.ready;
    available -= o.available;
    updated -= o.updated;
    return *this;
}

StatusShare daemonSetStatusShare(const NodeDaemonPods &e, const std::string &hash,
                                 std::optional<std::int64_t> generation, int minReadySeconds,
                                 kube::Timestamp now)
{
    StatusShare s;
    if (!e.nodeExists)
        return s;
    const bool scheduled = !e.pods.empty();
    if (e.should.shouldRun) {
        s.desired = 1;
        if (!scheduled)
            return s;
        s.current = 1;
        const Pod *first = *std::min_element(e.pods.begin(), e.pods.end(), podOlder);
        if (first->ready) {
            s.ready = 1;
            if (first->isAvailable(minReadySeconds, now))
                s.available = 1;
        }
        if (isPodUpdated(*first, hash, generation))
            s.updated = 1;
    } else if (scheduled) {
        s.misscheduled = 1;
    }
    return s;
}

kube::DaemonSetStatus daemonSetStatusOf(const StatusShare &t)
{
    kube::DaemonSetStatus s;
    s.desiredNumberScheduled = t.desired;
    s.currentNumberScheduled = t.current;
    s.numberMisscheduled = t.misscheduled;
    s.numberReady = t.ready;
    s.numberAvailable = t.available;
    s.updatedNumberScheduled = t.updated;
    s.numberUnavailable = t.desired - t.available;
    return s;
}

kube::DaemonSetStatus computeDaemonSetStatus(const std::vector<NodeDaemonPods> &entries,
                                             const std::string &hash, std::optional<std::int64_t> generation,
                                             int minReadySeconds, kube::Timestamp now)
{
    StatusShare total;
    for (const auto &e : entries)
        total += daemonSetStatusShare(e, hash, generation, minReadySeconds, now);
    return daemonSetStatusOf(total);
}

bool statusUnchanged(const kube::DaemonSet &ds, const kube::DaemonSetStatus &c)
{
    const auto &s = ds.status;
    return s.desiredNumberScheduled == c.desiredNumberScheduled &&
           s.currentNumberScheduled == c.currentNumberScheduled &&
           s.numberMisscheduled == c.numberMisscheduled && s.numberReady == c.numberReady &&
           s.updatedNumberScheduled == c.updatedNumberScheduled && s.numberAvailable == c.numberAvailable &&
           s.numberUnavailable == c.numberUnavailable && s.observedGeneration >= ds.metadata.generation;
}

} // namespace api
