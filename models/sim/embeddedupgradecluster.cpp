#include "models/sim/embeddedupgradecluster.h"

#include "models/kube/jsonfield.h"
#include "models/sim/nodeupgraderolloutstore.h"
#include "models/sim/podselector.h"

#include <algorithm>
#include <map>
#include <optional>

namespace sim {

EmbeddedUpgradeCluster::EmbeddedUpgradeCluster(Cluster &cluster, NodeUpgradeRolloutStore &rollouts)
    : m_cluster(cluster), m_rollouts(rollouts)
{}

kube::Timestamp EmbeddedUpgradeCluster::now() const
{
    return m_cluster.now();
}

bool EmbeddedUpgradeCluster::runsTimers() const
{
    return m_cluster.mode() == Mode::Continuous;
}

void EmbeddedUpgradeCluster::schedule(kube::Timestamp t, std::function<void()> fn)
{
    m_cluster.schedule(t, std::move(fn));
}

const kube::Node *EmbeddedUpgradeCluster::node(const std::string &name) const
{
    return m_cluster.node(name);
}

std::vector<const kube::Node *> EmbeddedUpgradeCluster::nodes() const
{
    return m_cluster.nodes();
}

const kube::Pod *EmbeddedUpgradeCluster::pod(const std::string &ns, const std::string &name) const
{
    return m_cluster.pod(ns, name);
}

std::vector<const kube::Pod *> EmbeddedUpgradeCluster::pods() const
{
    return m_cluster.pods();
}

std::vector<const kube::Pod *> EmbeddedUpgradeCluster::podsOnNode(const std::string &node) const
{
    PodSelector sel;
    sel.all = true;
    sel.nodes = {node};
    return m_cluster.selectPods(sel);
}

const kube::ReplicaSet *EmbeddedUpgradeCluster::replicaSet(const std::string &ns,
                                                           const std::string &name) const
{
    return m_cluster.replicaSet(ns, name);
}

std::vector<const kube::ReplicaSet *> EmbeddedUpgradeCluster::replicaSets() const
{
    return m_cluster.replicaSets();
}

std::vector<const kube::PodDisruptionBudget *> EmbeddedUpgradeCluster::podDisruptionBudgets() const
{
    return m_cluster.podDisruptionBudgets();
}

const api::NodeUpgradeRollout *EmbeddedUpgradeCluster::rollout(const std::string &name) const
{
    return m_rollouts.get(name);
}

std::vector<const api::NodeUpgradeRollout *> EmbeddedUpgradeCluster::rollouts() const
{
    return m_rollouts.list();
}

int EmbeddedUpgradeCluster::watch(api::Kind kind, std::function<void(const WatchEvent &)> callback)
{
    return m_cluster.watch(kind, std::move(callback));
}

void EmbeddedUpgradeCluster::unwatch(int id)
{
    m_cluster.unwatch(id);
}

namespace {

// The annotations a merge patch that touches nothing but metadata.annotations sets (a string) or
// removes (null); nullopt for any other patch.
std::optional<std::map<std::string, std::optional<std::string>>> annotationsOnly(const kube::Json &patch)
{
    if (!patch.is_object() || patch.size() != 1)
        return std::nullopt;
    const kube::Json *meta = kube::member(patch, "metadata");
    if (!meta || !meta->is_object() || meta->size() != 1)
        return std::nullopt;
    const kube::Json *a = kube::member(*meta, "annotations");
    if (!a || !a->is_object())
        return std::nullopt;
    std::map<std::string, std::optional<std::string>> changes;
    for (auto it = a->begin(); it != a->end(); ++it) {
        if (it.value().is_string())
            changes[it.key()] = it.value().get<std::string>();
        else if (it.value().is_null())
            changes[it.key()] = std::nullopt;
        else
            return std::nullopt; // the API server's decoder answers that one
    }
    return changes;
}

} // namespace

kube::Result<void> EmbeddedUpgradeCluster::patchNode(const std::string &name, const kube::Json &mergePatch)
{
    // The controller's usual write, applied to the stored node without encoding it.
    if (auto changes = annotationsOnly(mergePatch))
        return m_cluster.annotateNode(name, *changes);
    auto r = m_cluster.patch(api::Kind::Node, "", name, api::PatchType::Merge, mergePatch);
    if (!r)
        return r.error();
    return {};
}

kube::Result<void> EmbeddedUpgradeCluster::cordon(const std::string &node)
{
    return m_cluster.cordon(node);
}

kube::Result<void> EmbeddedUpgradeCluster::uncordon(const std::string &node)
{
    return m_cluster.uncordon(node);
}

kube::Result<void> EmbeddedUpgradeCluster::taint(const std::string &node, const kube::Taint &taint)
{
    return m_cluster.taint(node, taint);
}

kube::Result<void> EmbeddedUpgradeCluster::untaint(const std::string &node, const std::string &key)
{
    return m_cluster.untaint(node, key);
}

kube::Result<void> EmbeddedUpgradeCluster::setNodeConditions(const std::string &node,
                                                             const std::vector<kube::NodeCondition> &set,
                                                             const std::vector<std::string> &remove)
{
    return m_cluster.setNodeConditions(node, set, remove);
}

kube::Result<void> EmbeddedUpgradeCluster::evict(const std::string &ns, const std::string &name,
                                                 const EvictOptions &options)
{
    return m_cluster.evict(ns, name, options);
}

kube::Result<void> EmbeddedUpgradeCluster::deletePod(const std::string &ns, const std::string &name)
{
    return m_cluster.remove(api::Kind::Pod, ns, name);
}

kube::Result<void> EmbeddedUpgradeCluster::createJob(const kube::Json &job)
{
    auto created = m_cluster.create(job);
    if (!created)
        return created.error();
    return {};
}

std::optional<kube::Job> EmbeddedUpgradeCluster::job(const std::string &ns, const std::string &name) const
{
    auto j = m_cluster.get(api::Kind::Job, ns, name);
    if (!j)
        return std::nullopt;
    auto decoded = kube::Job::fromJson(*j);
    if (!decoded)
        return std::nullopt;
    return std::move(*decoded);
}

kube::Result<void>
EmbeddedUpgradeCluster::editRollout(const std::string &name,
                                    const std::function<void(api::NodeUpgradeRollout &)> &fn)
{
    return m_rollouts.edit(name, fn);
}

kube::Result<void> EmbeddedUpgradeCluster::updateRolloutStatus(const std::string &name,
                                                               const api::NodeUpgradeRolloutStatus &status)
{
    return m_rollouts.updateStatus(name, status);
}

void EmbeddedUpgradeCluster::recordEvent(const std::string &type, const std::string &reason,
                                         const std::string &message, api::Kind kind, const std::string &ns,
                                         const std::string &name)
{
    m_cluster.recordEvent(type, reason, message, kind, ns, name);
}

} // namespace sim
