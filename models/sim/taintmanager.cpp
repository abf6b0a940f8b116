#include "models/sim/taintmanager.h"

#include "models/kube/jsonfield.h"
#include "models/sim/clusterimpl.h"

#include <algorithm>

namespace sim {

using kube::Pod;

namespace {

std::vector<kube::Toleration> tolerationsOf(const Pod &pod)
{
    if (pod.spec)
        if (const kube::Json *list = kube::member(*pod.spec, "tolerations"))
            if (auto t = kube::tolerationsFromJson(*list))
                return *t;
    return {};
}

// getMinTolerationTime: the least tolerationSeconds of the tolerations used (at most 0 counts as
// 0); -1 when none of them carries seconds, i.e. the pod tolerates the taints forever.
kube::Duration minTolerationTime(const std::vector<const kube::Toleration *> &used)
{
    if (used.empty())
        return 0;
    std::int64_t least = -1;
    for (const kube::Toleration *t : used) {
        if (!t->tolerationSeconds)
            continue;
        if (*t->tolerationSeconds <= 0)
            return 0;
        if (least < 0 || *t->tolerationSeconds < least)
            least = *t->tolerationSeconds;
    }
    return least < 0 ? -1 : least * 1000;
}

} // namespace

TaintManager::TaintManager(Cluster::Impl &cluster) : m_c(cluster) {}

void TaintManager::onNode(const WatchEvent &ev)
{
    const std::string name = ev.node->metadata.name;
    std::vector<kube::Taint> taints;
    if (ev.type != WatchEvent::Type::Deleted)
        for (const auto &t : ev.node->taints)
            if (t.effect == "NoExecute")
                taints.push_back(t);
    auto seen = m_nodeTaints.find(name);
    if (seen != m_nodeTaints.end() ? seen->second == taints : taints.empty())
        return;
    if (taints.empty())
        m_nodeTaints.erase(name);
    else
        m_nodeTaints[name] = taints;
    auto idx = m_c.podsByNode.find(name);
    if (idx == m_c.podsByNode.end())
        return;
    std::vector<std::string> keys;
    for (const auto &[key, pod] : idx->second)
        keys.emplace_back(key);
    for (const auto &key : keys)
        if (auto it = m_c.pods.find(key); it != m_c.pods.end() && it->second.nodeName == name)
            process(it->second, taints);
}

void TaintManager::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    const std::string key = Cluster::Impl::key(pod.metadata.namespace_, pod.metadata.name);
    if (ev.type == WatchEvent::Type::Deleted || pod.nodeName.empty() || pod.isDeleting()) {
        m_scheduled.erase(key);
        m_seen.erase(key);
        return;
    }
    auto tainted = m_nodeTaints.find(pod.nodeName);
    if (tainted == m_nodeTaints.end()) {
        m_seen.erase(key);
        if (m_scheduled.count(key))
            cancel(key, &pod);
        return;
    }
    const std::pair<std::string, const kube::Json *> now{pod.nodeName, pod.spec.get()};
    if (auto seen = m_seen.find(key); seen != m_seen.end() && seen->second == now)
        return;
    process(pod, tainted->second);
}

void TaintManager::process(const Pod &pod, const std::vector<kube::Taint> &taints)
{
    const std::string key = Cluster::Impl::key(pod.metadata.namespace_, pod.metadata.name);
    if (taints.empty()) {
        m_seen.erase(key);
        cancel(key, &pod);
        return;
    }
    m_seen[key] = {pod.nodeName, pod.spec.get()};
    // GetMatchingTolerations: every taint needs a toleration; the first that fits is used.
    const std::vector<kube::Toleration> tolerations = tolerationsOf(pod);
    std::vector<const kube::Toleration *> used;
    for (const auto &taint : taints) {
        const kube::Toleration *match = nullptr;
        for (const auto &t : tolerations)
            if (t.toleratesTaint(taint)) {
                match = &t;
                break;
            }
        if (!match) {
            cancel(key, &pod);
            schedule(pod, m_c.now, m_c.now);
            return;
        }
        used.push_back(match);
    }
    const kube::Duration least = minTolerationTime(used);
    if (least < 0) {
        cancel(key, &pod);
        return;
    }
    kube::Timestamp createdAt = m_c.now;
    const kube::Timestamp fireAt = m_c.now + least;
    if (auto it = m_scheduled.find(key); it != m_scheduled.end() && it->second.uid == pod.metadata.uid) {
        createdAt = it->second.createdAt;
        if (createdAt + least <= fireAt)
            return; // the eviction already planned comes first
        cancel(key, &pod);
    }
    schedule(pod, createdAt, fireAt);
}

void TaintManager::schedule(const Pod &pod, kube::Timestamp createdAt, kube::Timestamp fireAt)
{
    const std::string key = Cluster::Impl::key(pod.metadata.namespace_, pod.metadata.name);
    const std::uint64_t epoch = ++m_epoch;
    m_scheduled[key] = {pod.metadata.uid, createdAt, epoch};
    m_c.loop.post(std::max(fireAt, m_c.now), [this, key, epoch] { evict(key, epoch); });
}

void TaintManager::cancel(const std::string &key, const Pod *pod)
{
    auto it = m_scheduled.find(key);
    if (it == m_scheduled.end())
        return;
    m_scheduled.erase(it);
    if (pod)
        m_c.recordEvent("Normal", "TaintManagerEviction",
                        "Cancelling deletion of Pod " + pod->metadata.namespace_ + "/" + pod->metadata.name,
                        api::Kind::Pod, pod->metadata.namespace_, pod->metadata.name, pod->metadata.uid,
                        "taint-eviction-controller");
}

void TaintManager::evict(const std::string &key, std::uint64_t epoch)
{
    auto it = m_scheduled.find(key);
    if (it == m_scheduled.end() || it->second.epoch != epoch)
        return;
    // Out of the plan while the deletion runs: its watch event may end the plan itself.
    Scheduled planned = it->second;
    m_scheduled.erase(it);
    auto pod = m_c.pods.find(key);
    if (pod == m_c.pods.end() || pod->second.metadata.uid != planned.uid || pod->second.isDeleting())
        return;
    const std::string ns = pod->second.metadata.namespace_, name = pod->second.metadata.name;
    if (planned.refusals == 0)
        m_c.recordEvent("Normal", "TaintManagerEviction", "Marking for deletion Pod " + ns + "/" + name,
                        api::Kind::Pod, ns, name, planned.uid, "taint-eviction-controller");
    auto deleted = m_c.deletePodAsClient(ns, name);
    if (deleted || deleted.error().reason == "NotFound")
        return; // a pod already gone needs no deletion
    m_c.recordEvent("Warning", "TaintManagerEviction",
                    "Failed to delete Pod " + ns + "/" + name + ": " + deleted.error().message,
                    api::Kind::Pod, ns, name, planned.uid, "taint-eviction-controller");
    const kube::Duration delay = kube::doubledDelay(kRetryBase, kRetryMax, planned.refusals);
    ++planned.refusals;
    planned.epoch = ++m_epoch;
    m_scheduled[key] = planned;
    m_c.loop.post(m_c.now + delay, [this, key, epoch = planned.epoch] { evict(key, epoch); });
}

} // namespace sim
