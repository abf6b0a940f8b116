// LiveUpgradeCluster's writes: the node patches, cordons and taints, the node's status
// conditions, evictions, deletions and restart Jobs, the rollout's spec and status, and the
// core/v1 Events — the API calls kubectl makes, each read back into the caches at once.

#include "models/liveupgrade/liveupgradecluster.h"
#include "models/liveupgrade/liveupgradewire.h"

#include "models/kube/event.h"
#include "models/kube/jsonfield.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/timeutil.h"

#include <algorithm>

namespace models {

using kube::ApiStatus;
using kube::Json;
using kube::Result;
using namespace wire;

namespace {

bool setTaint(std::vector<kube::Taint> &taints, const kube::Taint &t)
{
    for (auto &e : taints)
        if (e.key == t.key && e.effect == t.effect) {
            if (e == t)
                return false;
            e = t;
            return true;
        }
    taints.push_back(t);
    return true;
}

bool removeTaint(std::vector<kube::Taint> &taints, const std::string &key)
{
    const auto before = taints.size();
    taints.erase(
        std::remove_if(taints.begin(), taints.end(), [&](const kube::Taint &t) { return t.key == key; }),
        taints.end());
    return taints.size() != before;
}

std::string podPath(const std::string &ns, const std::string &name)
{
    return client::resourceFor<kube::Pod>().objectPath(ns, name);
}

} // namespace

// ---- node writes ------------------------------------------------------------------------------

Result<void> LiveUpgradeCluster::patchNodeWith(const std::string &name, client::PatchType type,
                                               const Json &body, const std::string &fieldManager)
{
    auto r = m_client->patch<kube::Node>({}, name, type, dump(body), fieldManager);
    if (!r)
        return r.error();
    apply(Change{false, std::make_shared<const kube::Node>(std::move(*r))});
    return {};
}

Result<void> LiveUpgradeCluster::patchNode(const std::string &name, const Json &mergePatch)
{
    log("patchNode", "patchNode " + name);
    return patchNodeWith(name, client::PatchType::Merge, mergePatch, kComponent);
}

Result<void> LiveUpgradeCluster::cordon(const std::string &name)
{
    log("cordon", "cordon " + name);
    if (const auto *n = node(name); n && n->unschedulable)
        return {}; // kubectl: "already cordoned"
    // kubectl cordon: a strategic-merge patch of spec.unschedulable only.
    return patchNodeWith(name, client::PatchType::Strategic, {{"spec", {{"unschedulable", true}}}},
                         "kubectl-cordon");
}

Result<void> LiveUpgradeCluster::uncordon(const std::string &name)
{
    log("uncordon", "uncordon " + name);
    if (const auto *n = node(name); n && !n->unschedulable)
        return {};
    return patchNodeWith(name, client::PatchType::Strategic, {{"spec", {{"unschedulable", nullptr}}}},
                         "kubectl-uncordon");
}

Result<void> LiveUpgradeCluster::editTaints(const std::string &name,
                                            const std::function<bool(std::vector<kube::Taint> &)> &edit)
{
    // spec.taints has no merge key: the whole list is written, conditional on the version it
    // was computed from, and computed again from a fresh read after a conflict.
    ApiStatus last;
    for (int attempt = 0; attempt <= kConflictRetries; ++attempt) {
        std::shared_ptr<const kube::Node> current;
        if (auto it = m_nodes.find({std::string(), name}); attempt == 0 && it != m_nodes.end()) {
            current = it->second;
        } else {
            auto fresh = m_client->get<kube::Node>({}, name);
            if (!fresh)
                return fresh.error();
            current = std::make_shared<const kube::Node>(std::move(*fresh));
            apply(Change{false, current});
        }
        std::vector<kube::Taint> taints = current->taints;
        if (!edit(taints))
            return {};
        Json list = Json::array();
        for (const auto &t : taints)
            list.push_back(t.toJson());
        Json body = {{"spec", {{"taints", taints.empty() ? Json() : list}}}};
        if (!current->metadata.resourceVersion.empty())
            body["metadata"] = {{"resourceVersion", current->metadata.resourceVersion}};
        auto r = patchNodeWith(name, client::PatchType::Merge, body, "kubectl-taint");
        if (r || r.error().code != 409)
            return r;
        last = r.error();
    }
    return last;
}

Result<void> LiveUpgradeCluster::taint(const std::string &name, const kube::Taint &t)
{
    log("taint", "taint " + name + " " + t.key + "=" + t.value + ":" + t.effect);
    return editTaints(name, [&](std::vector<kube::Taint> &taints) { return setTaint(taints, t); });
}

Result<void> LiveUpgradeCluster::untaint(const std::string &name, const std::string &key)
{
    log("untaint", "untaint " + name + " " + key);
    return editTaints(name, [&](std::vector<kube::Taint> &taints) { return removeTaint(taints, key); });
}

// ---- pod writes -------------------------------------------------------------------------------

Result<void> LiveUpgradeCluster::rereadPod(const std::string &ns, const std::string &name)
{
    auto p = m_client->get<kube::Pod>(ns, name);
    if (p) {
        apply(Change{false, std::make_shared<const kube::Pod>(std::move(*p))});
        return {};
    }
    if (p.error().code == 404) {
        auto it = m_pods.find({ns, name});
        if (it != m_pods.end())
            apply(Change{true, it->second});
        return {};
    }
    return p.error();
}

Result<void> LiveUpgradeCluster::setNodeConditions(const std::string &name,
                                                   const std::vector<kube::NodeCondition> &set,
                                                   const std::vector<std::string> &remove)
{
    // A strategic-merge patch of the status subresource: conditions merge by type, so the
    // kubelet's own conditions stay as they are; "$patch": "delete" removes one.
    std::string line = "conditions " + name;
    Json conditions = Json::array();
    for (const auto &c : set) {
        Json j = {{"type", c.type}, {"status", c.status}, {"reason", c.reason}, {"message", c.message}};
        if (c.lastTransitionTime) {
            j["lastTransitionTime"] = kube::formatRfc3339(*c.lastTransitionTime);
            j["lastHeartbeatTime"] = kube::formatRfc3339(*c.lastTransitionTime);
        }
        conditions.push_back(j);
        line += " " + c.type + "=" + c.status;
    }
    for (const auto &type : remove) {
        conditions.push_back({{"$patch", "delete"}, {"type", type}});
        line += " -" + type;
    }
    log("conditions", line);
    if (conditions.empty())
        return {};
    const Json body = {{"status", {{"conditions", conditions}}}};
    auto r = m_client->transport().request(
        "PATCH", "/api/v1/nodes/" + name + "/status", {{"fieldManager", kComponent}}, dump(body),
        client::KubeClient::contentTypeFor(client::PatchType::Strategic), kJson);
    if (!r)
        return r.error();
    const Json answer = Json::parse(r->body, nullptr, false);
    if (auto node = kube::Node::fromJson(answer))
        apply(Change{false, std::make_shared<const kube::Node>(std::move(*node))});
    return {};
}

Result<void> LiveUpgradeCluster::evict(const std::string &ns, const std::string &name,
                                       const api::EvictOptions &options)
{
    log("evict", "evict " + ns + "/" + name + (options.dryRun ? " dry-run" : ""));
    Json deleteOptions = Json::object();
    if (options.gracePeriodSeconds)
        deleteOptions["gracePeriodSeconds"] = *options.gracePeriodSeconds;
    if (!options.preconditions.uid.empty())
        deleteOptions["preconditions"]["uid"] = options.preconditions.uid;
    if (!options.preconditions.resourceVersion.empty())
        deleteOptions["preconditions"]["resourceVersion"] = options.preconditions.resourceVersion;
    if (options.dryRun)
        deleteOptions["dryRun"] = Json::array({"All"});
    Json body = {
        {"apiVersion", "policy/v1"}, {"kind", "Eviction"}, {"metadata", {{"name", name}, {"namespace", ns}}}};
    if (!deleteOptions.empty())
        body["deleteOptions"] = deleteOptions;
    auto r =
        m_client->transport().request("POST", podPath(ns, name) + "/eviction", {}, dump(body), kJson, kJson);
    if (!r)
        return r.error();
    if (options.dryRun)
        return {};
    // The answer is a Status: the pod's new state (terminating, or gone) is read again. The
    // eviction stands when that read fails; the pod reflector brings the state later.
    (void)rereadPod(ns, name);
    return {};
}

Result<void> LiveUpgradeCluster::createJob(const Json &job)
{
    const auto &res = client::resourceFor<kube::Job>();
    const Json *meta = kube::member(job, "metadata");
    const std::string ns = meta ? kube::stringOr(*meta, "namespace") : std::string();
    log("createJob", "createJob " + ns + "/" + (meta ? kube::stringOr(*meta, "name") : std::string()));
    auto r = m_client->transport().request("POST", res.collectionPath(ns), {}, dump(job), kJson, kJson);
    if (!r)
        return r.error();
    if (auto decoded = kube::Job::fromJson(Json::parse(r->body, nullptr, false)))
        apply(Change{false, std::make_shared<const kube::Job>(std::move(*decoded))});
    return {};
}

std::optional<kube::Job> LiveUpgradeCluster::job(const std::string &ns, const std::string &name) const
{
    auto it = m_jobs.find({ns, name});
    if (it == m_jobs.end())
        return std::nullopt;
    return *it->second;
}

Result<void> LiveUpgradeCluster::deletePod(const std::string &ns, const std::string &name)
{
    log("delete", "delete " + ns + "/" + name);
    auto r = m_client->transport().request("DELETE", podPath(ns, name), {}, {}, {}, kJson);
    if (!r)
        return r.error();
    (void)rereadPod(ns, name);
    return {};
}

// ---- rollout writes ---------------------------------------------------------------------------

Result<api::NodeUpgradeRollout> LiveUpgradeCluster::fetchRollout(const std::string &name)
{
    const auto &res = rolloutResource();
    auto j = m_client->getJson(res, {}, name);
    if (!j)
        return j.error();
    auto r = api::NodeUpgradeRollout::fromJson(*j);
    if (!r)
        return decodeError("cannot decode " + res.qualifiedName() + " \"" + name +
                           "\": " + r.error().message);
    apply(Change{false, std::make_shared<const api::NodeUpgradeRollout>(*r)});
    return r;
}

Result<void> LiveUpgradeCluster::putRollout(const api::NodeUpgradeRollout &rollout, bool status)
{
    const auto &res = rolloutResource();
    Json body = rollout.toJson();
    body["apiVersion"] = res.apiVersion;
    body["kind"] = res.kind;
    const std::string what = res.qualifiedName() + " \"" + rollout.metadata.name + "\"";
    auto r = m_client->transport().request(
        "PUT", res.objectPath({}, rollout.metadata.name) + (status ? "/status" : ""), {}, dump(body), kJson,
        kJson);
    if (!r)
        return r.error();
    auto answer = decodeRollout(r->body, what);
    if (!answer)
        return answer.error(); // written, but unreadable: the reflector brings the state
    apply(Change{false, std::make_shared<const api::NodeUpgradeRollout>(std::move(*answer))});
    return {};
}

Result<bool> LiveUpgradeCluster::applyRollout(const Json &manifest)
{
    const auto &res = rolloutResource();
    const Json *meta = manifest.is_object() ? kube::member(manifest, "metadata") : nullptr;
    const std::string name = meta ? kube::stringOr(*meta, "name") : std::string();
    if (name.empty())
        return ApiStatus::badRequest("the rollout has no metadata.name");
    log("apply", "apply " + name);
    const std::string what = res.qualifiedName() + " \"" + name + "\"";
    const auto store = [&](const std::string &body) {
        if (auto answer = decodeRollout(body, what))
            apply(Change{false, std::make_shared<const api::NodeUpgradeRollout>(std::move(*answer))});
    };
    ApiStatus last;
    for (int attempt = 0; attempt <= kConflictRetries; ++attempt) {
        auto existing = m_client->getJson(res, {}, name);
        if (!existing && existing.error().code == 404) {
            Json body = manifest;
            body["apiVersion"] = res.apiVersion;
            body["kind"] = res.kind;
            body.erase("status");
            auto r =
                m_client->transport().request("POST", res.collectionPath({}), {}, dump(body), kJson, kJson);
            if (!r)
                return r.error();
            store(r->body);
            return true;
        }
        if (!existing)
            return existing.error();
        Json body = std::move(*existing);
        body["spec"] = manifest.contains("spec") ? manifest["spec"] : Json::object();
        for (const char *field : {"labels", "annotations"}) {
            const Json *given = kube::member(*meta, field);
            if (!given || !given->is_object())
                continue;
            Json &mine = body["metadata"][field];
            if (!mine.is_object())
                mine = Json::object();
            mine.update(*given);
        }
        auto r = m_client->transport().request("PUT", res.objectPath({}, name), {}, dump(body), kJson, kJson);
        if (r) {
            store(r->body);
            return false;
        }
        if (r.error().code != 409)
            return r.error();
        last = r.error();
    }
    return last;
}

Result<void> LiveUpgradeCluster::rewriteRollout(const std::string &name, bool status,
                                                const std::function<bool(api::NodeUpgradeRollout &)> &change)
{
    // From the cache first; after a conflict from a fresh read, changed again and written again.
    ApiStatus last;
    for (int attempt = 0; attempt <= kConflictRetries; ++attempt) {
        api::NodeUpgradeRollout r;
        if (const auto *cached = attempt == 0 ? rollout(name) : nullptr) {
            r = *cached;
        } else {
            auto fresh = fetchRollout(name);
            if (!fresh)
                return fresh.error();
            r = std::move(*fresh);
        }
        if (!change(r))
            return {};
        auto written = putRollout(r, status);
        if (written || written.error().code != 409)
            return written;
        last = written.error();
    }
    return last;
}

Result<void> LiveUpgradeCluster::editRollout(const std::string &name,
                                             const std::function<void(api::NodeUpgradeRollout &)> &fn)
{
    log("edit", "edit " + name);
    return rewriteRollout(name, false, [&](api::NodeUpgradeRollout &r) {
        const api::NodeUpgradeRollout base = r;
        fn(r);
        r.status = base.status;                           // status only through updateRolloutStatus
        r.metadata.generation = base.metadata.generation; // the API server owns it
        r.metadata.resourceVersion = base.metadata.resourceVersion;
        return !(r.spec == base.spec && r.metadata.annotations == base.metadata.annotations);
    });
}

Result<void> LiveUpgradeCluster::updateRolloutStatus(const std::string &name,
                                                     const api::NodeUpgradeRolloutStatus &status)
{
    log("status", "status " + name);
    return rewriteRollout(name, true, [&](api::NodeUpgradeRollout &r) {
        if (r.status == status)
            return false;
        r.status = status;
        return true;
    });
}

// ---- events -----------------------------------------------------------------------------------

void LiveUpgradeCluster::recordEvent(const std::string &type, const std::string &reason,
                                     const std::string &message, api::Kind kind, const std::string &ns,
                                     const std::string &name)
{
    log("event", "event " + std::string(api::kindName(kind)) + " " + name + " " + reason);
    try {
        const bool namespaced = api::isNamespaced(kind);
        // Events about cluster-scoped objects go to "default", as kubectl and the
        // kube-controller-manager put them.
        const std::string eventNs = namespaced && !ns.empty() ? ns : "default";
        std::string uid;
        if (kind == api::Kind::Node) {
            if (const auto *n = node(name))
                uid = n->metadata.uid;
        } else if (kind == api::Kind::NodeUpgradeRollout) {
            if (const auto *r = rollout(name))
                uid = r->metadata.uid;
        } else if (kind == api::Kind::Pod) {
            if (const auto *p = pod(ns, name))
                uid = p->metadata.uid;
        } else if (kind == api::Kind::ReplicaSet) {
            if (const auto *rs = replicaSet(ns, name))
                uid = rs->metadata.uid;
        }
        const kube::Timestamp t = now();
        // client-go's recorder names events NAME.<hex of the time in ns>; the counter keeps two
        // events in the same millisecond apart.
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "%llx",
                      static_cast<unsigned long long>(t) * 1000000ULL + (m_nextEvent++ % 1000000ULL));
        Json involved = {
            {"kind", api::kindName(kind)}, {"apiVersion", api::apiVersion(kind)}, {"name", name}};
        if (namespaced)
            involved["namespace"] = ns;
        if (!uid.empty())
            involved["uid"] = uid;
        const std::string stamp = kube::formatRfc3339(t);
        const Json body = {{"apiVersion", "v1"},
                           {"kind", "Event"},
                           {"metadata", {{"name", name + "." + suffix}, {"namespace", eventNs}}},
                           {"involvedObject", involved},
                           {"reason", reason},
                           {"message", message},
                           {"type", type},
                           {"source", {{"component", kComponent}}},
                           {"firstTimestamp", stamp},
                           {"lastTimestamp", stamp},
                           {"count", 1},
                           {"reportingComponent", kComponent},
                           {"reportingInstance", ""}};
        // Best effort, as client-go's recorder: a refused event changes nothing the controller
        // decides on.
        (void)m_client->transport().request(
            "POST", client::resourceFor<kube::Event>().collectionPath(eventNs), {}, dump(body), kJson, kJson);
    } catch (...) {
        // An event must never take the controller down.
    }
}

} // namespace models
