#include "models/engine/nodeupgraderolloutstore.h"

namespace engine {

using kube::ApiStatus;
using kube::Json;

kube::Result<NodeUpgradeRollout> NodeUpgradeRolloutStore::apply(const Json &manifest, kube::Timestamp now,
                                                                const std::string &uid)
{
    if (!manifest.is_object())
        return ApiStatus::badRequest("a NodeUpgradeRollout must be a map");
    std::string name;
    Json specJson;
    kube::StringMap annotations;
    if (manifest.contains("spec")) {
        const Json meta = manifest.value("metadata", Json::object());
        name = meta.value("name", "");
        specJson = manifest["spec"];
        if (meta.contains("annotations"))
            if (auto a = kube::stringMapFromJson(meta["annotations"], "metadata.annotations"))
                annotations = *a;
    } else {
        name = manifest.value("name", "");
        specJson = manifest;
        specJson.erase("name");
    }
    if (name.empty())
        return ApiStatus::invalid(kNodeUpgradeKind, "", "metadata.name: Required value: name is required");
    auto spec = NodeUpgradeRolloutSpec::fromJson(specJson);
    if (!spec)
        return ApiStatus::invalid(kNodeUpgradeKind, name, spec.error().message);
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end()) {
        NodeUpgradeRollout r;
        r.metadata.name = name;
        r.metadata.uid = uid;
        r.metadata.generation = 1;
        r.metadata.creationTimestamp = now;
        r.metadata.annotations = annotations;
        r.spec = *spec;
        auto &slot = m_rollouts[name] = std::move(r);
        commit(slot);
        return slot;
    }
    NodeUpgradeRollout &r = it->second;
    if (r.spec == *spec)
        return r;
    r.spec = *spec;
    ++r.metadata.generation;
    commit(r);
    return r;
}

const NodeUpgradeRollout *NodeUpgradeRolloutStore::get(const std::string &name) const
{
    auto it = m_rollouts.find(name);
    return it == m_rollouts.end() ? nullptr : &it->second;
}

std::vector<const NodeUpgradeRollout *> NodeUpgradeRolloutStore::list() const
{
    std::vector<const NodeUpgradeRollout *> out;
    for (const auto &[k, r] : m_rollouts)
        out.push_back(&r);
    return out;
}

kube::Result<void> NodeUpgradeRolloutStore::edit(const std::string &name,
                                                 const std::function<void(NodeUpgradeRollout &)> &fn)
{
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end())
        return ApiStatus::notFound("nodeupgraderollouts", name);
    NodeUpgradeRollout copy = it->second;
    fn(copy);
    copy.status = it->second.status; // status only through updateStatus
    const bool specChanged = !(copy.spec == it->second.spec);
    if (!specChanged && copy.metadata.annotations == it->second.metadata.annotations)
        return {};
    if (specChanged)
        ++copy.metadata.generation;
    it->second = std::move(copy);
    commit(it->second);
    return {};
}

kube::Result<void> NodeUpgradeRolloutStore::updateStatus(const std::string &name,
                                                         const NodeUpgradeRolloutStatus &status)
{
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end())
        return ApiStatus::notFound("nodeupgraderollouts", name);
    if (it->second.status == status)
        return {};
    it->second.status = status;
    commit(it->second);
    return {};
}

kube::Result<void> NodeUpgradeRolloutStore::remove(const std::string &name)
{
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end())
        return ApiStatus::notFound("nodeupgraderollouts", name);
    NodeUpgradeRollout gone = std::move(it->second);
    m_rollouts.erase(it);
    commit(gone, true);
    return {};
}

int NodeUpgradeRolloutStore::watch(std::function<void(const NodeUpgradeRollout &, bool)> callback)
{
    const int id = m_nextWatch++;
    m_watchers.emplace(id, std::move(callback));
    return id;
}

void NodeUpgradeRolloutStore::unwatch(int id)
{
    m_watchers.erase(id);
}

void NodeUpgradeRolloutStore::commit(NodeUpgradeRollout &r, bool deleted)
{
    r.metadata.resourceVersion = std::to_string(++m_rv);
    const auto watchers = m_watchers; // a callback may unwatch
    for (const auto &[id, cb] : watchers)
        cb(r, deleted);
}

} // namespace engine
