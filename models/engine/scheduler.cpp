#include "models/engine/scheduler.h"

#include "models/engine/clusterimpl.h"
#include "models/kube/nodeaffinity.h"

namespace engine {

using kube::Pod;

Scheduler::Scheduler(Cluster::Impl &cluster) : m_c(cluster) {}

void Scheduler::onPod(const WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    const std::string key = ev.key();
    if (ev.type == WatchEvent::Type::Deleted) {
        const bool wasPending = m_pending.erase(key) > 0;
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

} // namespace

std::string Scheduler::pickNode(const Pod &pod) const
{
    static const kube::Json empty = kube::Json::object();
    const kube::Json &spec = pod.spec ? *pod.spec : empty;
    if (!pod.targetNode.empty()) {
        auto it = m_c.nodes.find(pod.targetNode);
        if (it == m_c.nodes.end() || !toleratesNode(pod, it->second))
            return {};
        return pod.targetNode;
    }
    std::string best;
    int bestLoad = 0;
    for (const auto &[name, node] : m_c.nodes) {
        if (!node.isReady() || node.unschedulable || !toleratesNode(pod, node))
            continue;
        if (!kube::nodeSelectorMatches(spec, node) || !kube::requiredAffinityMatches(spec, node))
            continue;
        const int l = load(name);
        if (l >= node.allocatablePods)
            continue;
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
        const std::string node = pickNode(it->second);
        if (node.empty())
            continue;
        m_pending.erase(key);
        m_c.updatePod(it, [&node](Pod &p) { p.nodeName = node; });
    }
}

} // namespace engine
