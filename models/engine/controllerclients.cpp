#include "models/engine/controllerclients.h"

#include "models/engine/clusterimpl.h"

namespace engine {

kube::Timestamp EmbeddedReplicaSetClient::now() const
{
    return m_c.now;
}

bool EmbeddedReplicaSetClient::continuous() const
{
    return m_c.continuous();
}

void EmbeddedReplicaSetClient::deliver(std::function<void()> fn)
{
    m_c.deliver(std::move(fn));
}

controllers::Timers &EmbeddedReplicaSetClient::timers()
{
    return m_c.loop;
}

const kube::ReplicaSet *EmbeddedReplicaSetClient::replicaSet(const std::string &key) const
{
    auto it = m_c.replicaSets.find(key);
    return it == m_c.replicaSets.end() ? nullptr : &it->second;
}

const std::string *EmbeddedReplicaSetClient::replicaSetKeyOfUid(const std::string &uid) const
{
    auto it = m_c.replicaSetByUid.find(uid);
    return it == m_c.replicaSetByUid.end() ? nullptr : &it->second;
}

std::vector<const kube::ReplicaSet *> EmbeddedReplicaSetClient::replicaSetsIn(const std::string &ns) const
{
    std::vector<const kube::ReplicaSet *> out;
    const std::string prefix = ns + "/";
    for (auto it = m_c.replicaSets.lower_bound(prefix);
         it != m_c.replicaSets.end() && it->first.starts_with(prefix); ++it)
        out.push_back(&it->second);
    return out;
}

const controllers::ReplicaSetClient::Pods *
EmbeddedReplicaSetClient::podsControlledBy(const std::string &uid) const
{
    auto it = m_c.podsByOwner.find(uid);
    return it == m_c.podsByOwner.end() ? nullptr : &it->second;
}

const controllers::ReplicaSetClient::Pods *EmbeddedReplicaSetClient::orphanPods(const std::string &ns) const
{
    auto it = m_c.orphanPods.find(ns);
    return it == m_c.orphanPods.end() ? nullptr : &it->second;
}

std::shared_ptr<const kube::Json> EmbeddedReplicaSetClient::sharedSpec(kube::Json spec)
{
    return m_c.internSpec(std::move(spec));
}

kube::Result<const kube::Pod *> EmbeddedReplicaSetClient::createPod(kube::Pod pod)
{
    return m_c.createPod(std::move(pod));
}

kube::Result<void> EmbeddedReplicaSetClient::deletePod(const std::string &ns, const std::string &name)
{
    return m_c.deletePodAsClient(ns, name);
}

void EmbeddedReplicaSetClient::updatePodOwners(kube::Pod pod)
{
    m_c.commitPod(std::move(pod), false);
}

void EmbeddedReplicaSetClient::updateReplicaSetStatus(kube::ReplicaSet rs)
{
    m_c.commitReplicaSet(std::move(rs), false);
}

void EmbeddedReplicaSetClient::recordEvent(const kube::ReplicaSet &rs, const std::string &type,
                                           const std::string &reason, const std::string &message)
{
    m_c.recordEvent(type, reason, message, api::Kind::ReplicaSet, rs.metadata.namespace_, rs.metadata.name,
                    rs.metadata.uid);
}

} // namespace engine
