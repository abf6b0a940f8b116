#include "models/sim/nodeupgraderolloutstore.h"
#include "models/kube/jsonfield.h"

#include "models/sim/cluster.h"

#include <optional>

namespace sim {

using kube::ApiStatus;
using kube::Json;

NodeUpgradeRolloutStore::NodeUpgradeRolloutStore(Cluster &cluster) : m_cluster(cluster)
{
    m_clusterWatch =
        m_cluster.watch(api::Kind::NodeUpgradeRollout, [this](const api::WatchEvent &ev) { onEvent(ev); });
    // Rollouts written before this adapter existed (a manifest among the scenario objects).
    if (auto existing = m_cluster.list(api::Kind::NodeUpgradeRollout))
        for (const auto &item : (*existing)["items"])
            if (auto r = api::NodeUpgradeRollout::fromJson(item)) {
                m_rv = std::max<std::uint64_t>(m_rv, std::stoull(r->metadata.resourceVersion));
                m_rollouts[r->metadata.name] = std::move(*r);
            }
}

NodeUpgradeRolloutStore::~NodeUpgradeRolloutStore()
{
    m_cluster.unwatch(m_clusterWatch);
}

void NodeUpgradeRolloutStore::onEvent(const api::WatchEvent &ev)
{
    if (!ev.custom)
        return;
    if (!m_ownWrite.empty() && ev.name == m_ownWrite && ev.type == WatchEvent::Type::Modified) {
        m_rv = ev.resourceVersion;
        m_ownWriteVersion = kube::stringOr((*ev.custom)["metadata"], "resourceVersion");
        return; // applied by updateStatus when the write returns
    }
    auto parsed = api::NodeUpgradeRollout::fromJson(*ev.custom);
    if (!parsed)
        return; // the API server validated it; nothing else writes this kind
    m_rv = ev.resourceVersion;
    const bool deleted = ev.type == WatchEvent::Type::Deleted;
    const api::NodeUpgradeRollout *current = nullptr;
    api::NodeUpgradeRollout gone;
    if (deleted) {
        m_rollouts.erase(ev.name);
        gone = std::move(*parsed);
        current = &gone;
    } else {
        // Assign into the existing map node: pointers handed out by get()/list() stay valid.
        api::NodeUpgradeRollout &slot = m_rollouts[ev.name];
        slot = std::move(*parsed);
        current = &slot;
    }
    notify(*current, deleted);
}

void NodeUpgradeRolloutStore::notify(const api::NodeUpgradeRollout &rollout, bool deleted)
{
    const auto watchers = m_watchers; // a callback may unwatch
    for (const auto &[id, cb] : watchers)
        cb(rollout, deleted);
}

kube::Result<api::NodeUpgradeRollout> NodeUpgradeRolloutStore::apply(const Json &manifest, kube::Timestamp,
                                                                     const std::string &)
{
    if (!manifest.is_object())
        return ApiStatus::badRequest("a NodeUpgradeRollout must be a map");
    std::string name;
    Json specJson;
    Json annotations;
    if (manifest.contains("spec")) {
        const Json meta = manifest.value("metadata", Json::object());
        name = kube::stringOr(meta, "name");
        specJson = manifest["spec"];
        if (meta.contains("annotations")) {
            auto a = kube::stringMapFromJson(meta["annotations"], "metadata.annotations");
            if (a && !a->empty())
                annotations = meta["annotations"];
        }
    } else {
        name = kube::stringOr(manifest, "name");
        specJson = manifest;
        specJson.erase("name");
    }
    if (name.empty())
        return ApiStatus::invalid(api::kNodeUpgradeKind, "",
                                  "metadata.name: Required value: name is required");
    auto spec = api::NodeUpgradeRolloutSpec::fromJson(specJson);
    if (!spec)
        return ApiStatus::invalid(api::kNodeUpgradeKind, name, spec.error().message);
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end()) {
        Json body = api::nodeUpgradeRolloutManifest(name, spec->toJson());
        if (!annotations.is_null())
            body["metadata"]["annotations"] = annotations;
        if (auto r = m_cluster.create(body); !r)
            return r.error();
        return m_rollouts.at(name);
    }
    // Re-applying changes the spec only (annotations are the controller's and the admin's).
    if (it->second.spec == *spec)
        return it->second;
    api::NodeUpgradeRollout next = it->second;
    next.spec = *spec;
    if (auto r = m_cluster.update(next.toJson()); !r)
        return r.error();
    return m_rollouts.at(name);
}

const api::NodeUpgradeRollout *NodeUpgradeRolloutStore::get(const std::string &name) const
{
    auto it = m_rollouts.find(name);
    return it == m_rollouts.end() ? nullptr : &it->second;
}

std::vector<const api::NodeUpgradeRollout *> NodeUpgradeRolloutStore::list() const
{
    std::vector<const api::NodeUpgradeRollout *> out;
    out.reserve(m_rollouts.size());
    for (const auto &[k, r] : m_rollouts)
        out.push_back(&r);
    return out;
}

kube::Result<void> NodeUpgradeRolloutStore::edit(const std::string &name,
                                                 const std::function<void(api::NodeUpgradeRollout &)> &fn)
{
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end())
        return ApiStatus::notFound("nodeupgraderollouts", name);
    api::NodeUpgradeRollout copy = it->second;
    fn(copy);
    copy.status = it->second.status; // status only through updateStatus
    if (copy.spec == it->second.spec && copy.metadata.annotations == it->second.metadata.annotations)
        return {};
    copy.metadata.generation = it->second.metadata.generation; // the API server owns it
    if (auto r = m_cluster.update(copy.toJson()); !r)
        return r.error();
    return {};
}

kube::Result<void> NodeUpgradeRolloutStore::updateStatus(const std::string &name,
                                                         const api::NodeUpgradeRolloutStatus &status)
{
    auto it = m_rollouts.find(name);
    if (it == m_rollouts.end())
        return ApiStatus::notFound("nodeupgraderollouts", name);
    // The status as the API server will store it: a write that changes nothing there is not made.
    std::optional<api::NodeUpgradeRolloutStatus> normalized;
    if (!status.isStored()) {
        normalized = status;
        normalized->normalize();
    }
    const api::NodeUpgradeRolloutStatus &normal = normalized ? *normalized : status;
    if (it->second.status == normal)
        return {};
    // Only the status and the resourceVersion change: the write's watch event is not decoded
    // again unless the server stored the status otherwise than given.
    m_ownWrite = name;
    m_ownWriteVersion.clear();
    auto stored = m_cluster.updateRolloutStatus(name, it->second.metadata.resourceVersion, normal);
    m_ownWrite.clear();
    if (!stored)
        return stored.error();
    if (*stored == Cluster::StatusStored::Unchanged)
        return {};
    api::NodeUpgradeRollout &slot = it->second;
    if (*stored == Cluster::StatusStored::AsGiven) {
        slot.status = normal;
        slot.metadata.resourceVersion = m_ownWriteVersion;
    } else if (auto object = m_cluster.get(api::Kind::NodeUpgradeRollout, "", name)) {
        if (auto parsed = api::NodeUpgradeRollout::fromJson(*object))
            slot = std::move(*parsed);
    }
    notify(slot, false);
    return {};
}

kube::Result<void> NodeUpgradeRolloutStore::remove(const std::string &name)
{
    if (!m_rollouts.count(name))
        return ApiStatus::notFound("nodeupgraderollouts", name);
    return m_cluster.remove(api::Kind::NodeUpgradeRollout, "", name);
}

int NodeUpgradeRolloutStore::watch(std::function<void(const api::NodeUpgradeRollout &, bool)> callback)
{
    const int id = m_nextWatch++;
    m_watchers.emplace(id, std::move(callback));
    return id;
}

void NodeUpgradeRolloutStore::unwatch(int id)
{
    m_watchers.erase(id);
}

} // namespace sim
