// Store: the API handler's requests — create, update, status update, apply, get, list, patch,
// delete with preconditions, eviction — each with the write refusals tests inject
// (refuseWrites) before the store's rules (apiserver.cpp) decide it.

#include "models/api/fieldmanager.h"
#include "models/api/preconditions.h"
#include "models/kube/jsonfield.h"
#include "models/kube/labelselector.h"
#include "models/store/store.h"

namespace store {

using kube::ApiStatus;
using kube::Json;

kube::Result<Json> Store::create(const Json &manifest, const WriteOptions &options)
{
    return apiCreate(manifest, options.dryRun);
}

// refuseWrites for a write that names its object by a manifest.
std::optional<ApiStatus> Store::refusedManifest(const Json &manifest, bool dryRun)
{
    if (m_writeRefusals.empty() || dryRun || !manifest.is_object())
        return std::nullopt;
    const auto kind = api::kindFromString(manifest.value("kind", std::string()));
    const Json meta = manifest.value("metadata", Json::object());
    if (!kind || !meta.is_object())
        return std::nullopt;
    return refusedWrite(*kind, meta.value("namespace", std::string()), meta.value("name", std::string()));
}

kube::Result<Json> Store::update(const Json &manifest, const WriteOptions &options)
{
    if (auto refused = refusedManifest(manifest, options.dryRun))
        return *refused;
    return apiUpdate(manifest, false, options.dryRun);
}
kube::Result<Json> Store::updateStatus(const Json &manifest, const WriteOptions &options)
{
    if (auto refused = refusedManifest(manifest, options.dryRun))
        return *refused;
    return apiUpdate(manifest, true, options.dryRun);
}

kube::Result<void> Store::updateNodeStatus(kube::Node node)
{
    if (auto refused = refusedWrite(api::Kind::Node, "", node.metadata.name))
        return *refused;
    return writeNodeStatus(std::move(node));
}

kube::Result<StatusStored> Store::updateRolloutStatus(const std::string &name,
                                                      const std::string &resourceVersion,
                                                      const api::NodeUpgradeRolloutStatus &status)
{
    if (auto refused = refusedWrite(api::Kind::NodeUpgradeRollout, "", name))
        return *refused;
    return writeRolloutStatus(name, resourceVersion, status);
}

kube::Result<Json> Store::apply(const Json &manifest)
{
    if (!manifest.is_object())
        return ApiStatus::badRequest("the object must be a JSON object");
    auto kind = api::kindFromString(kube::stringOr(manifest, "kind"));
    if (!kind)
        return apiCreate(manifest); // reports the unknown kind
    const Json meta = manifest.value("metadata", Json::object());
    const std::string name = kube::stringOr(meta, "name");
    std::string ns = kube::stringOr(meta, "namespace");
    if (api::isNamespaced(*kind) && ns.empty())
        ns = "default";
    Json config = manifest;
    if (!config.contains("apiVersion"))
        config["apiVersion"] = api::apiVersion(*kind);
    const api::FieldManagerContext ctx{api::kApplyManager, api::apiVersion(*kind), "",
                                       kube::formatRfc3339(now)};
    const Json live =
        name.empty() ? Json() : objectJson(*kind, key(api::isNamespaced(*kind) ? ns : "", name));
    auto merged = api::FieldManager::apply(live.is_null() ? nullptr : &live, config, ctx, true);
    if (!merged)
        return merged.error();
    if (live.is_null())
        return apiCreate(*merged);
    return apiUpdate(*merged, false);
}

kube::Result<Json> Store::list(api::Kind kind, const std::string &ns, const std::string &labelSelector) const
{
    auto sel = kube::LabelSelector::fromQueryString(labelSelector);
    if (!sel)
        return sel.error();
    Json items = Json::array();
    auto add = [&](const std::string &k, const kube::StringMap &labels) {
        if (sel->matches(labels))
            items.push_back(objectJson(kind, k));
    };
    const bool nsd = api::isNamespaced(kind);
    switch (kind) {
    case api::Kind::Namespace:
        for (const auto &[k, m] : namespaces)
            add(k, m.labels);
        break;
    case api::Kind::Node:
        forRange(nodes, ns, false, [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::Pod:
        forRange(pods, ns, nsd, [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::DaemonSet:
        forRange(daemonSets, ns, nsd,
                 [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::ControllerRevision:
        forRange(revisions, ns, nsd, [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::ReplicaSet:
        forRange(replicaSets, ns, nsd,
                 [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::Event:
        forRange(events, ns, nsd, [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::PodDisruptionBudget:
        forRange(pdbs, ns, nsd, [&](const std::string &k, const auto &o) { add(k, o.metadata.labels); });
        break;
    case api::Kind::NodeUpgradeRollout:
    case api::Kind::Lease:
    case api::Kind::Service:
    case api::Kind::Job:
        if (auto byKind = jsonObjects.find(kind); byKind != jsonObjects.end())
            forRange(byKind->second, ns, nsd, [&](const std::string &k, const Json &o) {
                kube::StringMap labels;
                const Json *meta = kube::member(o, "metadata");
                if (const Json *l = meta ? kube::member(*meta, "labels") : nullptr)
                    if (auto m = kube::stringMapFromJson(*l, "metadata.labels"))
                        labels = *m;
                add(k, labels);
            });
        break;
    }
    return Json{{"apiVersion", api::apiVersion(kind)},
                {"kind", std::string(api::kindName(kind)) + "List"},
                {"metadata", {{"resourceVersion", std::to_string(rv)}}},
                {"items", std::move(items)}};
}

std::optional<ApiStatus> Store::refusedWrite(api::Kind kind, const std::string &ns, const std::string &name)
{
    if (m_writeRefusals.empty())
        return std::nullopt;
    auto it = m_writeRefusals.find(std::string(api::kindName(kind)) + "/" + ns + "/" + name);
    if (it == m_writeRefusals.end())
        return std::nullopt;
    ApiStatus status = it->second.second;
    if (--it->second.first <= 0)
        m_writeRefusals.erase(it);
    return status;
}

void Store::refuseWrites(api::Kind kind, const std::string &ns, const std::string &name, int count,
                         ApiStatus status)
{
    const std::string key = std::string(api::kindName(kind)) + "/" + ns + "/" + name;
    if (count <= 0)
        m_writeRefusals.erase(key);
    else
        m_writeRefusals[key] = {count, std::move(status)};
}

kube::Result<Json> Store::patch(api::Kind kind, const std::string &ns, const std::string &name,
                                api::PatchType type, const Json &patch, const WriteOptions &options)
{
    if (!options.dryRun)
        if (auto refused = refusedWrite(kind, ns, name))
            return *refused;
    return apiPatch(kind, ns, name, type, patch, options);
}

kube::Result<Json> Store::patchStatus(api::Kind kind, const std::string &ns, const std::string &name,
                                      api::PatchType type, const Json &patch, const WriteOptions &options)
{
    if (!options.dryRun)
        if (auto refused = refusedWrite(kind, ns, name))
            return *refused;
    return apiPatch(kind, ns, name, type, patch, options, true);
}

kube::Result<void> Store::remove(api::Kind kind, const std::string &ns, const std::string &name,
                                 std::optional<std::int64_t> gracePeriodSeconds,
                                 DeletePropagation propagation)
{
    if (auto refused = refusedWrite(kind, ns, name))
        return *refused;
    return apiDelete(kind, ns, name, gracePeriodSeconds, propagation);
}

kube::Result<kube::Json> Store::remove(api::Kind kind, const std::string &ns, const std::string &name,
                                       const DeleteOptions &options)
{
    auto current = get(kind, ns, name);
    if (!current)
        return current.error();
    const kube::Json &meta = (*current)["metadata"];
    if (auto failed = api::preconditionFailure(options.preconditions, kube::stringOr(meta, "uid"),
                                               kube::stringOr(meta, "resourceVersion")))
        return *failed;
    if (options.dryRun)
        return *current;
    if (auto r = remove(kind, ns, name, options.gracePeriodSeconds, options.propagation); !r)
        return r.error();
    auto after = get(kind, ns, name);
    return after ? *after : *current;
}

kube::Result<void> Store::evict(const std::string &ns, const std::string &name, const EvictOptions &options)
{
    if (!options.dryRun)
        if (auto refused = refusedWrite(api::Kind::Pod, ns.empty() ? "default" : ns, name))
            return *refused;
    return evictPod(ns.empty() ? "default" : ns, name, options);
}

void Store::addInformer(api::Kind kind, Handler handler)
{
    const auto at = static_cast<std::size_t>(kind);
    if (m_informers.size() <= at)
        m_informers.resize(at + 1);
    m_informers[at].push_back(std::move(handler));
}

void Store::setOwnedPodsObserver(std::function<void(const std::string &, const std::string &)> observer)
{
    m_ownedPodsObserver = std::move(observer);
}

void Store::setNodeReadinessObserver(std::function<void(const std::string &)> observer)
{
    m_nodeReadinessObserver = std::move(observer);
}

int Store::watch(std::optional<api::Kind> kind, Handler callback)
{
    const int id = m_nextWatchId++;
    m_watchers.push_back({id, kind, std::move(callback)});
    return id;
}

void Store::unwatch(int id)
{
    for (auto &w : m_watchers)
        if (w.id == id) {
            w.id = 0; // dispatch may be iterating; the slot is skipped from now on
            w.callback = nullptr;
        }
}

} // namespace store
