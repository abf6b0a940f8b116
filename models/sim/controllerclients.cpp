#include "models/sim/controllerclients.h"

#include "models/sim/clusterimpl.h"

namespace sim {

namespace {

// The values of `map` whose keys start with "ns/", in key order.
template <typename Map>
std::vector<const typename Map::mapped_type *> inNamespace(const Map &map, const std::string &ns)
{
    std::vector<const typename Map::mapped_type *> out;
    const std::string prefix = ns + "/";
    for (auto it = map.lower_bound(prefix); it != map.end() && it->first.starts_with(prefix); ++it)
        out.push_back(&it->second);
    return out;
}

template <typename Map> const typename Map::mapped_type *find(const Map &map, const std::string &key)
{
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
}

} // namespace

// ---- what every controller's client shares ---------------------------------------------

template <typename Client> kube::Timestamp EmbeddedClient<Client>::now() const
{
    return m_c.now;
}

template <typename Client> bool EmbeddedClient<Client>::continuous() const
{
    return m_c.continuous();
}

template <typename Client> void EmbeddedClient<Client>::deliver(std::function<void()> fn)
{
    m_c.deliver(std::move(fn));
}

template <typename Client> controllers::Timers &EmbeddedClient<Client>::timers()
{
    return m_c.loop;
}

template <typename Client>
const controllers::ControllerClient::Pods *
EmbeddedClient<Client>::podsControlledBy(const std::string &uid) const
{
    return find(m_c.podsByOwner, uid);
}

template <typename Client>
std::shared_ptr<const kube::Json> EmbeddedClient<Client>::sharedSpec(kube::Json spec)
{
    return m_c.internSpec(std::move(spec));
}

template <typename Client> kube::Result<const kube::Pod *> EmbeddedClient<Client>::createPod(kube::Pod pod)
{
    return m_c.createPod(std::move(pod));
}

template <typename Client>
kube::Result<void> EmbeddedClient<Client>::deletePod(const std::string &ns, const std::string &name)
{
    return m_c.deletePodAsClient(ns, name);
}

template <typename Client>
const controllers::ControllerClient::Pods *EmbeddedClient<Client>::orphanPods(const std::string &ns) const
{
    return find(m_c.orphanPods, ns);
}

template <typename Client> void EmbeddedClient<Client>::updatePod(kube::Pod pod)
{
    m_c.commitPod(std::move(pod), false);
}

template class EmbeddedClient<controllers::DaemonSetClient>;
template class EmbeddedClient<controllers::ReplicaSetClient>;
template class EmbeddedClient<controllers::JobClient>;

const kube::ReplicaSet *EmbeddedReplicaSetClient::replicaSet(const std::string &key) const
{
    return find(m_c.replicaSets, key);
}

const std::string *EmbeddedReplicaSetClient::replicaSetKeyOfUid(const std::string &uid) const
{
    return find(m_c.replicaSetByUid, uid);
}

std::vector<const kube::ReplicaSet *> EmbeddedReplicaSetClient::replicaSetsIn(const std::string &ns) const
{
    return inNamespace(m_c.replicaSets, ns);
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

// ---- the DaemonSet controller's ---------------------------------------------------------

const kube::DaemonSet *EmbeddedDaemonSetClient::daemonSet(const std::string &key) const
{
    return find(m_c.daemonSets, key);
}

const std::string *EmbeddedDaemonSetClient::daemonSetKeyOfUid(const std::string &uid) const
{
    return find(m_c.daemonSetByUid, uid);
}

std::vector<const kube::DaemonSet *> EmbeddedDaemonSetClient::daemonSetsIn(const std::string &ns) const
{
    return inNamespace(m_c.daemonSets, ns);
}

void EmbeddedDaemonSetClient::forEachDaemonSet(
    const std::function<void(const std::string &, const kube::DaemonSet &)> &fn) const
{
    for (const auto &[key, ds] : m_c.daemonSets)
        fn(key, ds);
}

std::vector<const kube::Node *> EmbeddedDaemonSetClient::nodes() const
{
    std::vector<const kube::Node *> out;
    out.reserve(m_c.nodes.size());
    for (const auto &[name, node] : m_c.nodes)
        out.push_back(&node);
    return out;
}

std::size_t EmbeddedDaemonSetClient::nodeCount() const
{
    return m_c.nodes.size();
}

std::uint64_t EmbeddedDaemonSetClient::nodeSetVersion() const
{
    return m_c.nodeSetVersion;
}

const kube::Pod *EmbeddedDaemonSetClient::pod(const std::string &key) const
{
    return find(m_c.pods, key);
}

const controllers::DaemonSetClient::PodsByNode *
EmbeddedDaemonSetClient::podsControlledByPerNode(const std::string &uid) const
{
    return find(m_c.podsByOwnerNode, uid);
}

std::uint64_t EmbeddedDaemonSetClient::podClaimVersion() const
{
    return m_c.podClaimVersion;
}

const kube::ControllerRevision *EmbeddedDaemonSetClient::revision(const std::string &key) const
{
    return find(m_c.revisions, key);
}

std::vector<const kube::ControllerRevision *>
EmbeddedDaemonSetClient::revisionsIn(const std::string &ns) const
{
    return inNamespace(m_c.revisions, ns);
}

const kube::ControllerRevision *EmbeddedDaemonSetClient::createRevision(kube::ControllerRevision cr)
{
    return m_c.commitRevision(std::move(cr), true);
}

const kube::ControllerRevision *EmbeddedDaemonSetClient::updateRevision(kube::ControllerRevision cr)
{
    return m_c.commitRevision(std::move(cr), false);
}

void EmbeddedDaemonSetClient::deleteRevision(const std::string &key)
{
    m_c.eraseRevision(key);
}

void EmbeddedDaemonSetClient::updateDaemonSetStatus(kube::DaemonSet ds)
{
    m_c.commitDaemonSet(std::move(ds), false);
}

void EmbeddedDaemonSetClient::recordEvent(const kube::DaemonSet &ds, const std::string &type,
                                          const std::string &reason, const std::string &message)
{
    m_c.recordEvent(type, reason, message, api::Kind::DaemonSet, ds.metadata.namespace_, ds.metadata.name,
                    ds.metadata.uid);
}

void EmbeddedDaemonSetClient::syncStarted()
{
    ++m_c.stats.syncs;
}

void EmbeddedDaemonSetClient::podWritten(const std::string &dsKey, bool created, const std::string &pod,
                                         const std::string &node)
{
    if (m_c.logs)
        m_c.activity.push_back(
            {m_c.now, dsKey, created ? Activity::Op::Create : Activity::Op::Delete, pod, node});
}

// ---- the Job controller's ---------------------------------------------------------------

const kube::Json *EmbeddedJobClient::job(const std::string &key) const
{
    return m_c.jsonObject(api::Kind::Job, key);
}

void EmbeddedJobClient::updateJobStatus(kube::Json job)
{
    m_c.commitJson(api::Kind::Job, std::move(job), false);
}

void EmbeddedJobClient::recordEvent(const std::string &ns, const std::string &name, const std::string &uid,
                                    const std::string &type, const std::string &reason,
                                    const std::string &message)
{
    m_c.recordEvent(type, reason, message, api::Kind::Job, ns, name, uid);
}

} // namespace sim
