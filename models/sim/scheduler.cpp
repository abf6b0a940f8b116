#include "models/sim/scheduler.h"

#include "models/kube/jsonfield.h"
#include "models/kube/nodeaffinity.h"
#include "models/kube/quantity.h"
#include "models/sim/clusterimpl.h"

#include <algorithm>

namespace sim {

using kube::Pod;

Scheduler::Scheduler(Cluster::Impl &cluster) : m_c(cluster)
{
    for (const auto &[name, node] : m_c.nodes)
        m_byLoad.emplace(0, name);
    for (const auto &[key, pod] : m_c.pods)
        count(key, &pod);
}

namespace {

// The node a pod takes room on: bound and not finished.
std::string roomOn(const Pod *pod)
{
    return pod && !pod->nodeName.empty() && !pod->isTerminal() ? pod->nodeName : std::string();
}

} // namespace

void Scheduler::count(const std::string &podKey, const Pod *pod)
{
    const std::string now = roomOn(pod);
    auto it = m_room.find(podKey);
    const std::string before = it == m_room.end() ? std::string() : it->second;
    if (now == before)
        return;
    auto move = [this](const std::string &node, int by) {
        int &l = m_load[node];
        const bool listed = m_byLoad.erase({l, node}) > 0;
        l += by;
        if (listed)
            m_byLoad.emplace(l, node);
        if (l == 0)
            m_load.erase(node);
    };
    if (!before.empty())
        move(before, -1);
    if (!now.empty())
        move(now, +1);
    if (now.empty())
        m_room.erase(podKey);
    else
        m_room[podKey] = now;
}

void Scheduler::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    const std::string key = ev.key();
    count(key, ev.type == WatchEvent::Type::Deleted ? nullptr : &pod);
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

void Scheduler::onNode(const WatchEvent &ev)
{
    if (ev.type != WatchEvent::Type::Modified) {
        auto l = m_load.find(ev.name);
        const std::pair<int, std::string> entry{l == m_load.end() ? 0 : l->second, ev.name};
        if (ev.type == WatchEvent::Type::Added)
            m_byLoad.insert(entry);
        else
            m_byLoad.erase(entry);
    }
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
    auto it = m_load.find(node);
    return it == m_load.end() ? 0 : it->second;
}

namespace {

std::vector<kube::Toleration> tolerationsOf(const Pod &pod)
{
    if (pod.spec && pod.spec->contains("tolerations"))
        if (auto t = kube::tolerationsFromJson((*pod.spec)["tolerations"]))
            return std::move(*t);
    return {};
}

bool toleratesNode(const std::vector<kube::Toleration> &tolerations, const kube::Node &node)
{
    for (const auto &taint : node.taints) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute")
            continue;
        if (!kube::tolerationsTolerateTaint(tolerations, taint))
            return false;
    }
    return true;
}

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

Scheduler::Request requestOf(const Pod &pod)
{
    Scheduler::Request sum, init;
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
    return unfit(requestOf(pod), node, load(node.metadata.name));
}

std::string Scheduler::unfit(const Request &want, const kube::Node &node, int podsOnNode) const
{
    if (podsOnNode >= node.allocatablePods)
        return "Too many pods";
    if (want.cpu == 0 && want.memory == 0)
        return {};
    Scheduler::Request used;
    if (auto it = m_c.podsByNode.find(node.metadata.name); it != m_c.podsByNode.end())
        for (const auto &[key, p] : it->second)
            if (!p->nodeName.empty() && !p->isTerminal()) {
                const Scheduler::Request r = requestOf(*p);
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
        if (it == m_c.nodes.end() || !toleratesNode(tolerationsOf(pod), it->second))
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
    // What the pod asks for is read once, not once per node.
    const std::vector<kube::Toleration> tolerations = tolerationsOf(pod);
    const Request want = requestOf(pod);
    const bool selects = spec.contains("nodeSelector") || spec.contains("affinity");
    // The least loaded node that takes the pod, the first by name among equals: the nodes in
    // that order, the first that passes every filter.
    for (const auto &[l, name] : m_byLoad) {
        auto it = m_c.nodes.find(name);
        if (it == m_c.nodes.end())
            continue;
        const kube::Node &node = it->second;
        if (node.unschedulable || !toleratesNode(tolerations, node) || !node.isReady())
            continue;
        if (selects && (!kube::nodeSelectorMatches(spec, node) || !kube::requiredAffinityMatches(spec, node)))
            continue;
        if (!unfit(want, node, l).empty())
            continue;
        return name;
    }
    return {};
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
                m_c.recordEvent("Warning", "FailedScheduling", why, api::Kind::Pod, p.metadata.namespace_,
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
                        api::Kind::Pod, meta.namespace_, meta.name, meta.uid, "default-scheduler");
        m_c.updatePod(it, [&node](Pod &p) { p.nodeName = node; });
    }
}

} // namespace sim
