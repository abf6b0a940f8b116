#include "models/sim/nodeupgradeagent.h"

#include "models/api/nodeupgradelogic.h"

#include <cstdio>

namespace sim {

NodeUpgradeAgent::NodeUpgradeAgent(Cluster &cluster, NodeUpgradeAgentTimings timings)
    : m_cluster(cluster), m_timings(timings)
{
    m_watch = m_cluster.watch(api::Kind::Node, [this](const WatchEvent &ev) { onNode(ev); });
    m_podWatch = m_cluster.watch(api::Kind::Pod, [this](const WatchEvent &ev) { onPod(ev); });
}

NodeUpgradeAgent::~NodeUpgradeAgent()
{
    m_cluster.unwatch(m_watch);
    m_cluster.unwatch(m_podWatch);
}

// A restart Job's pod running on its node: token "TARGET#job/NAMESPACE/POD".
void NodeUpgradeAgent::onPod(const WatchEvent &ev)
{
    const kube::Pod *pod = ev.pod;
    // Once the kubelet has it Ready: nothing of the kubelet's start-up is still pending then.
    if (ev.type == WatchEvent::Type::Deleted || !pod || pod->phase != "Running" || !pod->ready ||
        pod->nodeName.empty())
        return;
    const kube::OwnerReference *ref = pod->metadata.controllerRef();
    const std::string target = pod->metadata.annotation(api::ann::kTargetVersion);
    if (!ref || ref->kind != "Job" || target.empty())
        return;
    const std::string token = target + "#job/" + pod->metadata.namespace_ + "/" + pod->metadata.name;
    if (m_handled[pod->nodeName] == token)
        return;
    m_handled[pod->nodeName] = token;
    at(m_cluster.now() + m_timings.ackDelay, pod->nodeName, token, &NodeUpgradeAgent::finishJobPod);
}

void NodeUpgradeAgent::finishJobPod(const std::string &node, const std::string &token)
{
    const std::string ref = token.substr(token.find("#job/") + 5);
    const auto slash = ref.find('/');
    const kube::Pod *pod = m_cluster.pod(ref.substr(0, slash), ref.substr(slash + 1));
    if (!pod || pod->isTerminal() || pod->isDeleting())
        return;
    kube::Pod done = *pod;
    const bool fails = m_cluster.faultOf(node) == FaultKind::AgentUnresponsive;
    done.phase = fails ? "Failed" : "Succeeded";
    done.ready = false;
    if (!m_cluster.updateStatus(done.toJson()))
        return retry(node, token, &NodeUpgradeAgent::finishJobPod); // a pod gone by then is left
    if (!fails)
        at(m_cluster.now() + m_timings.leaveDelay, node, token, &NodeUpgradeAgent::leave);
}

void NodeUpgradeAgent::onNode(const WatchEvent &ev)
{
    if (ev.type == WatchEvent::Type::Deleted || !ev.node) {
        m_handled.erase(ev.name);
        return;
    }
    const std::string token = ev.node->metadata.annotation(api::ann::kKamikaze);
    if (token.empty() || m_handled[ev.name] == token)
        return;
    m_handled[ev.name] = token;
    at(m_cluster.now() + m_timings.ackDelay, ev.name, token, &NodeUpgradeAgent::acknowledge);
}

void NodeUpgradeAgent::restartOn(const std::string &node, const std::string &version)
{
    const std::string token = version + "#external";
    m_handled[node] = token;
    at(m_cluster.now() + m_timings.leaveDelay, node, token, &NodeUpgradeAgent::leave);
}

void NodeUpgradeAgent::at(kube::Timestamp t, const std::string &node, const std::string &token,
                          void (NodeUpgradeAgent::*step)(const std::string &, const std::string &))
{
    std::weak_ptr<char> alive = m_alive;
    m_cluster.schedule(t, [this, alive, node, token, step] {
        if (alive.expired() || !current(node, token))
            return;
        (this->*step)(node, token);
    });
}

bool NodeUpgradeAgent::current(const std::string &node, const std::string &token) const
{
    auto it = m_handled.find(node);
    return it != m_handled.end() && it->second == token && m_cluster.node(node);
}

void NodeUpgradeAgent::acknowledge(const std::string &node, const std::string &token)
{
    if (m_cluster.faultOf(node) == FaultKind::AgentUnresponsive)
        return; // the request is lost; a re-send (new token) is handled afresh
    if (!m_cluster.annotateNode(node, {{api::ann::kKamikazeAck, token}}))
        return retry(node, token, &NodeUpgradeAgent::acknowledge);
    at(m_cluster.now() + m_timings.leaveDelay, node, token, &NodeUpgradeAgent::leave);
}

void NodeUpgradeAgent::retry(const std::string &node, const std::string &token,
                             void (NodeUpgradeAgent::*step)(const std::string &, const std::string &))
{
    at(m_cluster.now() + kStatusRetry, node, token, step);
}

void NodeUpgradeAgent::leave(const std::string &node, const std::string &token)
{
    if (m_cluster.faultOf(node) == FaultKind::RebootsQuickly) {
        // Back before the node lifecycle controller notices: Ready never changes.
        at(m_cluster.now() + m_timings.leaveDelay, node, token, &NodeUpgradeAgent::rejoin);
        return;
    }
    if (!setReady(node, false, nullptr))
        return retry(node, token, &NodeUpgradeAgent::leave);
    at(m_cluster.now() + m_timings.downTime, node, token, &NodeUpgradeAgent::rejoin);
}

void NodeUpgradeAgent::rejoin(const std::string &node, const std::string &token)
{
    const auto fault = m_cluster.faultOf(node);
    if (fault == FaultKind::NeverReturns)
        return;
    const std::string target = api::kamikazeTarget(token);
    if (!setReady(node, true, fault == FaultKind::ReturnsOldVersion ? nullptr : &target))
        return retry(node, token, &NodeUpgradeAgent::rejoin);
    if (fault == FaultKind::FlapsNotReady)
        at(m_cluster.now() + m_timings.flapInterval, node, token, &NodeUpgradeAgent::flap);
}

void NodeUpgradeAgent::flap(const std::string &node, const std::string &token)
{
    const kube::Node *n = m_cluster.node(node);
    if (!n)
        return;
    if (m_cluster.faultOf(node) != FaultKind::FlapsNotReady) {
        if (!n->isReady() && !setReady(node, true, nullptr))
            retry(node, token, &NodeUpgradeAgent::flap);
        return;
    }
    if (!setReady(node, !n->isReady(), nullptr))
        return retry(node, token, &NodeUpgradeAgent::flap);
    at(m_cluster.now() + m_timings.flapInterval, node, token, &NodeUpgradeAgent::flap);
}

// The boot ID of the node's `boot`th boot, the same in every run (no random draw, so the
// cluster's random sequence is not disturbed): FNV-1a of the node's name and boot number, as a
// UUID.
std::string NodeUpgradeAgent::bootId(const std::string &node, int boot) const
{
    const std::string seed = node + "#" + std::to_string(boot);
    std::uint64_t h = 1469598103934665603ull;
    std::string hex;
    for (int part = 0; part < 2; ++part) {
        for (unsigned char c : seed + char('a' + part)) {
            h ^= c;
            h *= 1099511628211ull;
        }
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        hex += buf;
    }
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) +
           "-" + hex.substr(20, 12);
}

bool NodeUpgradeAgent::setReady(const std::string &node, bool ready, const std::string *version)
{
    const kube::Node *n = m_cluster.node(node);
    if (!n)
        return true; // nothing left to write to
    const bool readyKept = n->isReady() == ready && n->condition("Ready");
    if (readyKept && (!version || *version == n->kubeletVersion))
        return true;
    kube::Node copy = *n;
    if (!readyKept && ready)
        copy.setCondition(
            {"Ready", "True", "KubeletReady", "kubelet is posting ready status", m_cluster.now()});
    else if (!readyKept)
        copy.setCondition(
            {"Ready", "Unknown", "KubeletRestarting", "the node agent is restarting", m_cluster.now()});
    const int boot = m_boots[node] + (version ? 1 : 0);
    if (version) {
        copy.kubeletVersion = *version;
        copy.info.bootID = bootId(node, boot); // the agent restarted: a new boot
    }
    if (!m_cluster.updateNodeStatus(std::move(copy)))
        return false;
    m_boots[node] = boot;
    return true;
}

} // namespace sim
