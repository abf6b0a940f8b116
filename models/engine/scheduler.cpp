#include "models/engine/scheduler.h"

#include "models/engine/clusterimpl.h"
#include "models/kube/jsonfield.h"
#include "models/kube/nodeaffinity.h"
#include "models/kube/quantity.h"

#include <algorithm>

namespace engine {

using kube::Pod;

Scheduler::Scheduler(Cluster::Impl &cluster) : m_c(cluster) {}

void Scheduler::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    const std::string key = ev.key();
    if (ev.type == WatchEvent::Type::Deleted) {
        const bool wasPending = m_pending.erase(key) > 0;
        m_reported.erase(key);
        if (!wasPending && !pod.nodeName.empty())
            requestPass(); // room freed on a node
        return;
    }
    if (pod.nodeName.empty() && !pod.isDeleting() && !pod.isTerminal()) {
        if (m_pending.insert(key).second)
            requestPass();
    } else {
        m_pending.erase(key);
    }
}

void Scheduler::onNode(const WatchEvent &)
{
    requestPass();
}

void Scheduler::requestPass()
{
    if (m_passQueued || m_pending.empty())
        return;
    m_passQueued = true;
    m_c.loop.post(m_c.now, [this] {
        m_passQueued = false;
        pass();
    });
}

int Scheduler::load(const std::string &node) const
{
    auto it = m_c.podsByNode.find(node);
    if (it == m_c.podsByNode.end())
        return 0;
    int n = 0;
    for (const auto &[key, pod] : it->second)
        if (!pod->nodeName.empty() && !pod->isTerminal())
            ++n;
    return n;
}

namespace {

bool toleratesNode(const Pod &pod, const kube::Node &node)
{
    std::vector<kube::Toleration> tolerations;
    if (pod.spec && pod.spec->contains("tolerations"))
        if (auto t = kube::tolerationsFromJson((*pod.spec)["tolerations"]))
            tolerations = *t;
    for (const auto &taint : node.taints) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute")
            continue;
        if (!kube::tolerationsTolerateTaint(tolerations, taint))
            return false;
    }
    return true;
}

// What the pod asks for, as NodeResourcesFit computes it (computePodResourceRequest): the sum of
// its containers' requests (a limit stands in for a missing request, as defaulting copies it),
// or the largest init container's if that is more.
struct Request
{
    long long cpu = 0;    // milli-CPU
    long long memory = 0; // milli-bytes
};

long long amount(const kube::Json &resources, const char *name)
{
    for (const char *part : {"requests", "limits"}) {
        const kube::Json *m = kube::member(resources, part);
        const kube::Json *q = m ? kube::member(*m, name) : nullptr;
        if (q && q->is_string())
            if (auto v = kube::quantityMilli(q->get<std::string>()))
                return *v;
    }
    return 0;
}

Request requestOf(const Pod &pod)
{
    Request sum, init;
    if (!pod.spec)
        return sum;
    for (const char *list : {"containers", "initContainers"}) {
        const kube::Json *cs = kube::member(*pod.spec, list);
        if (!cs || !cs->is_array())
            continue;
        for (const auto &c : *cs) {
            const kube::Json *r = kube::member(c, "resources");
            if (!r)
                continue;
            if (std::string(list) == "containers") {
                sum.cpu += amount(*r, "cpu");
                sum.memory += amount(*r, "memory");
            } else {
                init.cpu = std::max(init.cpu, amount(*r, "cpu"));
                init.memory = std::max(init.memory, amount(*r, "memory"));
            }
        }
    }
    return {std::max(sum.cpu, init.cpu), std::max(sum.memory, init.memory)};
}

} // namespace

std::string Scheduler::unfit(const Pod &pod, const kube::Node &node) const
{
    if (load(node.metadata.name) >= node.allocatablePods)
        return "Too many pods";
    const Request want = requestOf(pod);
    if (want.cpu == 0 && want.memory == 0)
        return {};
    Request used;
    if (auto it = m_c.podsByNode.find(node.metadata.name); it != m_c.podsByNode.end())
        for (const auto &[key, p] : it->second)
            if (!p->nodeName.empty() && !p->isTerminal()) {
                const Request r = requestOf(*p);
                used.cpu += r.cpu;
                used.memory += r.memory;
            }
    auto allocatable = [&](const char *name) -> std::optional<long long> {
        const auto a = node.allocatable.find(name);
        return a == node.allocatable.end() ? std::nullopt : kube::quantityMilli(a->second);
    };
    if (const auto cpu = allocatable("cpu"); cpu && want.cpu > 0 && used.cpu + want.cpu > *cpu)
        return "Insufficient cpu";
    if (const auto memory = allocatable("memory");
        memory && want.memory > 0 && used.memory + want.memory > *memory)
        return "Insufficient memory";
    return {};
}

std::string Scheduler::pickNode(const Pod &pod, std::string *why) const
{
    static const kube::Json empty = kube::Json::object();
    const kube::Json &spec = pod.spec ? *pod.spec : empty;
    if (!pod.targetNode.empty()) {
        auto it = m_c.nodes.find(pod.targetNode);
        if (it == m_c.nodes.end() || !toleratesNode(pod, it->second))
            return {};
        // The daemon pod goes through the fit checks like any pod since DaemonSets are scheduled
        // by the default scheduler (1.12): on a full node it stays Pending.
        if (const std::string reason = unfit(pod, it->second); !reason.empty()) {
            if (why) {
                const std::size_t others = m_c.nodes.size() - 1;
                *why = "0/" + std::to_string(m_c.nodes.size()) + " nodes are available: 1 " + reason +
                       (others ? ", " + std::to_string(others) +
                                     " node(s) didn't match Pod's node affinity/selector."
                               : std::string("."));
            }
            return {};
        }
        return pod.targetNode;
    }
    std::string best;
    int bestLoad = 0;
    for (const auto &[name, node] : m_c.nodes) {
        if (!node.isReady() || node.unschedulable || !toleratesNode(pod, node))
            continue;
        if (!kube::nodeSelectorMatches(spec, node) || !kube::requiredAffinityMatches(spec, node))
            continue;
        if (!unfit(pod, node).empty())
            continue;
        const int l = load(name);
        if (best.empty() || l < bestLoad) {
            best = name;
            bestLoad = l;
        }
    }
    return best;
}

void Scheduler::pass()
{
    const std::vector<std::string> keys(m_pending.begin(), m_pending.end());
    for (const auto &key : keys) {
        auto it = m_c.pods.find(key);
        if (it == m_c.pods.end()) {
            m_pending.erase(key);
            continue;
        }
        std::string why;
        const std::string node = pickNode(it->second, &why);
        if (node.empty()) {
            // One FailedScheduling event per pod and reason, not one per pass.
            if (!why.empty() && m_reported[key] != why) {
                m_reported[key] = why;
                const Pod &p = it->second;
                m_c.recordEvent("Warning", "FailedScheduling", why, Kind::Pod, p.metadata.namespace_,
                                p.metadata.name, p.metadata.uid, "default-scheduler");
            }
            continue;
        }
        m_reported.erase(key);
        m_pending.erase(key);
        // Recorded as the binding is written: the kubelet, which sees the binding at once here,
        // reports after it.
        const kube::ObjectMeta &meta = it->second.metadata;
        m_c.recordEvent("Normal", "Scheduled",
                        "Successfully assigned " + meta.namespace_ + "/" + meta.name + " to " + node,
                        Kind::Pod, meta.namespace_, meta.name, meta.uid, "default-scheduler");
        m_c.updatePod(it, [&node](Pod &p) { p.nodeName = node; });
    }
}

} // namespace engine
