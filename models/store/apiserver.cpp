// Store: the JSON API — create, update (PUT), status update, patch, get, delete with
// API-server defaulting, validation, generations and optimistic concurrency.

#include "models/api/nodeupgraderollout.h"
#include "models/api/preconditions.h"
#include "models/api/strategicmerge.h"
#include "models/api/validation.h"
#include "models/kube/apischema.h"
#include "models/kube/defaults.h"
#include "models/kube/jsonfield.h"
#include "models/store/store.h"

#include <algorithm>

namespace store {

using kube::ApiStatus;
using kube::Json;

namespace {

struct Target
{
    api::Kind kind;
    std::string ns;
    std::string name;
};

kube::Result<Target> targetOf(const Json &manifest)
{
    if (!manifest.is_object())
        return ApiStatus::badRequest("the object must be a JSON object");
    const std::string kindText = kube::stringOr(manifest, "kind");
    if (kindText.empty())
        return ApiStatus::badRequest("Object 'Kind' is missing in the object");
    auto kind = api::kindFromString(kindText);
    if (!kind || kindText != api::kindName(*kind))
        return ApiStatus::badRequest("no kind \"" + kindText + "\" is registered for the engine");
    Target t{*kind, {}, {}};
    if (auto m = manifest.find("metadata"); m != manifest.end() && m->is_object()) {
        if (auto n = m->find("name"); n != m->end() && n->is_string())
            t.name = n->get<std::string>();
        if (auto n = m->find("namespace"); n != m->end() && n->is_string())
            t.ns = n->get<std::string>();
    }
    if (api::isNamespaced(*kind) && t.ns.empty())
        t.ns = "default";
    if (!api::isNamespaced(*kind))
        t.ns.clear();
    return t;
}

// ValidateObjectMeta for every kind but DaemonSets, whose validation checks the metadata with
// the spec. Namespaces are named by DNS-1123 labels, every other kind here by subdomains. A name
// the server is to generate is checked as generated (the prefix cut to 58 characters, 5 added).
kube::Result<void> validateMetadata(api::Kind kind, const Json &manifest)
{
    if (kind == api::Kind::DaemonSet)
        return {};
    const Json *metaJson = kube::member(manifest, "metadata");
    auto meta = kube::ObjectMeta::fromJson(metaJson ? *metaJson : Json());
    if (!meta)
        return meta.error();
    if (meta->name.empty() && !meta->generateName.empty())
        meta->name = meta->generateName.substr(0, api::kDns1123LabelMaxLength - 5) + "00000";
    return api::validateObjectMeta(api::qualifiedKind(kind), *meta, api::isNamespaced(kind),
                                   kind == api::Kind::Namespace ? api::NameRule::Dns1123Label
                                                                : api::NameRule::Dns1123Subdomain);
}

// Decoding into the Go types canonicalises quantities and leaves out the empty values of
// omitempty fields: the engine stores what kube-apiserver would store, so re-stating 1000m as 1 or
// adding nodeSelector: {} is no template change (kube::schema::normalize).
void normalizeManifest(Json &m)
{
    if (const kube::schema::Struct *s = kube::schema::structForObject(m); s && s->builtIn)
        kube::schema::normalize(m, *s);
}

Json namespaceJson(const kube::ObjectMeta &m)
{
    return {{"apiVersion", "v1"},
            {"kind", "Namespace"},
            {"metadata", m.toJson()},
            {"spec", {{"finalizers", Json::array({"kubernetes"})}}},
            {"status", {{"phase", "Active"}}}};
}

// The generation annotation is the apps/v1 face of the internal templateGeneration.
void setTemplateGeneration(kube::DaemonSet &ds, std::int64_t tg)
{
    ds.metadata.annotations[kube::kTemplateGenerationAnnotation] = std::to_string(tg);
}

ApiStatus conflict(api::Kind kind, const std::string &name)
{
    return ApiStatus::conflict(
        api::qualifiedResource(kind), name,
        "the object has been modified; please apply your changes to the latest version and "
        "try again");
}

template <typename T> kube::Result<T> parse(const Json &j)
{
    try {
        return T::fromJson(j);
    } catch (const std::exception &e) {
        return ApiStatus::badRequest(std::string("decoding ") + e.what());
    }
}

} // namespace

void defaultNode(kube::Node &n, kube::Timestamp now)
{
    if (!n.condition("Ready"))
        n.setCondition({"Ready", "True", "KubeletReady", "kubelet is posting ready status", now});
    // The node lifecycle controller's NoSchedule tainting pass: the unschedulable taint follows
    // spec.unschedulable both ways (kubectl uncordon only clears the field).
    auto isUnschedulableTaint = [](const kube::Taint &t) {
        return t.key == "node.kubernetes.io/unschedulable" && t.effect == "NoSchedule";
    };
    const bool has = std::any_of(n.taints.begin(), n.taints.end(), isUnschedulableTaint);
    if (n.unschedulable && !has)
        n.taints.push_back({"node.kubernetes.io/unschedulable", "", "NoSchedule"});
    else if (!n.unschedulable && has)
        n.taints.erase(std::remove_if(n.taints.begin(), n.taints.end(), isUnschedulableTaint),
                       n.taints.end());
}

Json Store::objectJson(api::Kind kind, const std::string &k) const
{
    switch (kind) {
    case api::Kind::Namespace:
        if (auto it = namespaces.find(k); it != namespaces.end())
            return namespaceJson(it->second);
        break;
    case api::Kind::Node:
        if (auto it = nodes.find(k); it != nodes.end())
            return it->second.toJson();
        break;
    case api::Kind::Pod:
        if (auto it = pods.find(k); it != pods.end())
            return it->second.toJson();
        break;
    case api::Kind::DaemonSet:
        if (auto it = daemonSets.find(k); it != daemonSets.end())
            return it->second.toJson();
        break;
    case api::Kind::ControllerRevision:
        if (auto it = revisions.find(k); it != revisions.end())
            return it->second.toJson();
        break;
    case api::Kind::ReplicaSet:
        if (auto it = replicaSets.find(k); it != replicaSets.end())
            return it->second.toJson();
        break;
    case api::Kind::Event:
        if (auto it = events.find(k); it != events.end())
            return it->second.toJson();
        break;
    case api::Kind::PodDisruptionBudget:
        if (auto it = pdbs.find(k); it != pdbs.end())
            return it->second.toJson();
        break;
    case api::Kind::NodeUpgradeRollout:
    case api::Kind::Lease:
    case api::Kind::Service:
    case api::Kind::Job:
        if (const Json *o = jsonObject(kind, k))
            return *o;
        break;
    }
    return Json();
}

kube::Result<Json> Store::get(api::Kind kind, const std::string &ns, const std::string &name) const
{
    const std::string k = key(api::isNamespaced(kind) ? (ns.empty() ? "default" : ns) : std::string(), name);
    Json j = objectJson(kind, k);
    if (j.is_null())
        return ApiStatus::notFound(api::qualifiedResource(kind), name);
    return j;
}

kube::Result<Json> Store::apiCreate(const Json &manifest, bool dryRun)
{
    auto t = targetOf(manifest);
    if (!t)
        return t.error();
    Json m = manifest;
    normalizeManifest(m);
    if (!m.contains("metadata") || !m["metadata"].is_object())
        m["metadata"] = Json::object();
    if (api::isNamespaced(t->kind))
        m["metadata"]["namespace"] = t->ns;
    for (const char *serverOwned :
         {"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "generation"})
        m["metadata"].erase(serverOwned);
    if (t->name.empty() && !(t->kind == api::Kind::Pod && m["metadata"].contains("generateName")))
        return ApiStatus::invalid(api::qualifiedKind(t->kind), "",
                                  "metadata.name: Required value: name or generateName is required");
    if (auto v = validateMetadata(t->kind, m); !v)
        return v.error();
    const std::string k = key(t->ns, t->name);
    WriteContext u{t->kind, t->ns, t->name, k, std::move(m), Json(), false, dryRun};
    switch (t->kind) {
    case api::Kind::Namespace:
        return createNamespace(u);
    case api::Kind::Node:
        return createNode(u);
    case api::Kind::Pod:
        return createPodObject(u);
    case api::Kind::DaemonSet:
        return createDaemonSet(u);
    case api::Kind::ControllerRevision:
        return createRevision(u);
    case api::Kind::ReplicaSet:
        return createReplicaSet(u);
    case api::Kind::Event:
        return createEvent(u);
    case api::Kind::PodDisruptionBudget:
        return createPdb(u);
    case api::Kind::NodeUpgradeRollout:
    case api::Kind::Lease:
    case api::Kind::Service:
    case api::Kind::Job:
        return createJsonKind(u);
    }
    return objectJson(t->kind, k);
}

kube::Result<Json> Store::createNamespace(WriteContext &u)
{
    if (namespaces.count(u.name))
        return ApiStatus::alreadyExists("namespaces", u.name);
    auto declared = kube::ObjectMeta::fromJson(u.m["metadata"]);
    if (!declared)
        return declared.error();
    if (u.dryRun) {
        kube::ObjectMeta meta = *declared;
        meta.name = u.name;
        meta.uid = rng.uuid();
        meta.creationTimestamp = now;
        meta.labels["kubernetes.io/metadata.name"] = u.name;
        return namespaceJson(meta);
    }
    ensureNamespace(u.name, &*declared);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createNode(WriteContext &u)
{
    if (nodes.count(u.name))
        return ApiStatus::alreadyExists("nodes", u.name);
    auto n = parse<kube::Node>(u.m);
    if (!n)
        return n.error();
    n->metadata.uid = rng.uuid();
    n->metadata.creationTimestamp = now;
    defaultNode(*n, now);
    if (u.dryRun)
        return n->toJson();
    commitNode(std::move(*n), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createPodObject(WriteContext &u)
{
    if (u.m.contains("spec"))
        kube::applyPodSpecDefaults(u.m["spec"]);
    u.m.erase("status");
    auto p = parse<kube::Pod>(u.m);
    if (!p)
        return p.error();
    if (p->spec)
        p->spec = internSpec(*p->spec);
    if (u.dryRun) {
        if (auto r = preparePod(*p); !r)
            return r.error();
        p->metadata.uid = rng.uuid();
        p->metadata.creationTimestamp = now;
        return p->toJson();
    }
    auto created = createPod(std::move(*p));
    if (!created)
        return created.error();
    return (*created)->toJson();
}

kube::Result<Json> Store::createDaemonSet(WriteContext &u)
{
    if (daemonSets.count(u.key))
        return ApiStatus::alreadyExists("daemonsets.apps", u.name);
    kube::applyDaemonSetDefaults(u.m);
    u.m.erase("status");
    auto ds = parse<kube::DaemonSet>(u.m);
    if (!ds)
        return ds.error();
    if (auto v = api::validateDaemonSet(*ds, nullptr); !v)
        return v.error();
    const std::int64_t tg = std::max<std::int64_t>(1, ds->templateGeneration().value_or(0));
    setTemplateGeneration(*ds, tg);
    ds->metadata.generation = 1;
    ds->metadata.uid = rng.uuid();
    ds->metadata.creationTimestamp = now;
    if (u.dryRun)
        return ds->toJson();
    ensureNamespace(u.ns);
    commitDaemonSet(std::move(*ds), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createRevision(WriteContext &u)
{
    if (revisions.count(u.key))
        return ApiStatus::alreadyExists("controllerrevisions.apps", u.name);
    auto cr = parse<kube::ControllerRevision>(u.m);
    if (!cr)
        return cr.error();
    cr->metadata.uid = rng.uuid();
    cr->metadata.creationTimestamp = now;
    if (u.dryRun)
        return cr->toJson();
    commitRevision(std::move(*cr), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createReplicaSet(WriteContext &u)
{
    if (replicaSets.count(u.key))
        return ApiStatus::alreadyExists("replicasets.apps", u.name);
    kube::applyReplicaSetDefaults(u.m);
    u.m.erase("status");
    auto rs = parse<kube::ReplicaSet>(u.m);
    if (!rs)
        return rs.error();
    rs->metadata.generation = 1;
    rs->metadata.uid = rng.uuid();
    rs->metadata.creationTimestamp = now;
    if (u.dryRun)
        return rs->toJson();
    ensureNamespace(u.ns);
    commitReplicaSet(std::move(*rs), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createEvent(WriteContext &u)
{
    if (events.count(u.key))
        return ApiStatus::alreadyExists("events", u.name);
    auto e = parse<kube::Event>(u.m);
    if (!e)
        return e.error();
    e->metadata.uid = rng.uuid();
    e->metadata.creationTimestamp = now;
    if (u.dryRun)
        return e->toJson();
    ensureNamespace(u.ns);
    commitEvent(std::move(*e), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createPdb(WriteContext &u)
{
    if (pdbs.count(u.key))
        return ApiStatus::alreadyExists(api::qualifiedResource(u.kind), u.name);
    u.m.erase("status");
    auto pdb = parse<kube::PodDisruptionBudget>(u.m);
    if (!pdb)
        return pdb.error();
    if (auto v = api::validatePodDisruptionBudget(*pdb); !v)
        return v.error();
    pdb->metadata.generation = 1;
    pdb->metadata.uid = rng.uuid();
    pdb->metadata.creationTimestamp = now;
    if (u.dryRun)
        return pdb->toJson();
    ensureNamespace(u.ns);
    commitPdb(std::move(*pdb), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::createJsonKind(WriteContext &u)
{
    if (jsonObject(u.kind, u.key))
        return ApiStatus::alreadyExists(api::qualifiedResource(u.kind), u.name);
    auto obj = prepareJsonObject(u.kind, std::move(u.m), nullptr, false);
    if (!obj)
        return obj.error();
    if (u.dryRun)
        return *obj;
    if (api::isNamespaced(u.kind))
        ensureNamespace(u.ns);
    reserveJsonObject(u.kind, *obj, nullptr);
    commitJson(u.kind, std::move(*obj), true);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::apiUpdate(Json m, bool statusOnly, bool dryRun, Json current)
{
    auto t = targetOf(m);
    if (!t)
        return t.error();
    const std::string k = key(t->ns, t->name);
    if (current.is_null())
        current = objectJson(t->kind, k);
    if (current.is_null())
        return ApiStatus::notFound(api::qualifiedResource(t->kind), t->name);
    normalizeManifest(m);
    if (!m.contains("metadata") || !m["metadata"].is_object())
        m["metadata"] = Json::object();
    const std::string wantRv = kube::stringOr(m["metadata"], "resourceVersion");
    const std::string haveRv = kube::stringOr(current["metadata"], "resourceVersion");
    if (!wantRv.empty() && wantRv != haveRv)
        return conflict(t->kind, t->name);
    if (auto failed = api::preconditionFailure({kube::stringOr(m["metadata"], "uid"), {}},
                                               kube::stringOr(current["metadata"], "uid"), haveRv))
        return *failed;
    if (api::isNamespaced(t->kind))
        m["metadata"]["namespace"] = t->ns;
    // Server-owned metadata always comes from the stored object.
    for (const char *owned :
         {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"}) {
        if (current["metadata"].contains(owned))
            m["metadata"][owned] = current["metadata"][owned];
        else
            m["metadata"].erase(owned);
    }
    m["metadata"]["resourceVersion"] = haveRv;
    if (!statusOnly) {
        if (auto v = validateMetadata(t->kind, m); !v)
            return v.error();
    }

    WriteContext u{t->kind, t->ns, t->name, k, std::move(m), std::move(current), statusOnly, dryRun};
    switch (t->kind) {
    case api::Kind::Namespace:
        return updateNamespace(u);
    case api::Kind::Node:
        return updateNode(u);
    case api::Kind::Pod:
        return updatePod(u);
    case api::Kind::DaemonSet:
        return updateDaemonSet(u);
    case api::Kind::ControllerRevision:
        return updateRevision(u);
    case api::Kind::ReplicaSet:
        return updateReplicaSet(u);
    case api::Kind::Event:
        return updateEvent(u);
    case api::Kind::PodDisruptionBudget:
        return updatePdb(u);
    case api::Kind::NodeUpgradeRollout:
    case api::Kind::Lease:
    case api::Kind::Service:
    case api::Kind::Job:
        return updateJsonKind(u);
    }
    return objectJson(t->kind, k);
}

kube::Result<Json> Store::updateNamespace(WriteContext &u)
{
    if (u.statusOnly)
        return u.current; // the phase is the namespace controller's
    // Labels, annotations and owners may change; the name label is the server's.
    auto parsed = kube::ObjectMeta::fromJson(u.m["metadata"]);
    if (!parsed)
        return parsed.error();
    kube::ObjectMeta meta = namespaces.at(u.name);
    meta.labels = parsed->labels;
    meta.labels["kubernetes.io/metadata.name"] = u.name;
    meta.annotations = parsed->annotations;
    meta.ownerReferences = parsed->ownerReferences;
    meta.extra = parsed->extra;
    const Json next = namespaceJson(meta);
    if (u.unchanged(next))
        return u.current;
    if (u.dryRun)
        return next;
    meta.resourceVersion = nextResourceVersion();
    kube::ObjectMeta &slot = namespaces[u.name] = std::move(meta);
    fanOutNamespace(WatchEvent::Type::Modified, slot);
    return namespaceJson(slot);
}

kube::Result<Json> Store::updateNode(WriteContext &u)
{
    const kube::Node &old = nodes.at(u.key);
    Json merged = u.m;
    if (!u.statusOnly)
        merged["status"] = u.current["status"];
    else
        merged["spec"] = u.current["spec"], merged["metadata"] = u.current["metadata"];
    auto n = parse<kube::Node>(merged);
    if (!n)
        return n.error();
    if (!u.statusOnly)
        defaultNode(*n, now);
    else
        n->metadata = old.metadata;
    Json next = n->toJson();
    if (u.unchanged(next))
        return u.current;
    if (u.dryRun)
        return next;
    // The answer is the object as written (encoded once), with the version it was given.
    std::string written = std::to_string(rv + 1);
    commitNode(std::move(*n), false);
    next["metadata"]["resourceVersion"] = std::move(written);
    return next;
}

kube::Result<void> Store::writeNodeStatus(kube::Node n)
{
    const std::string &name = n.metadata.name;
    auto it = nodes.find(name);
    if (it == nodes.end())
        return ApiStatus::notFound(api::qualifiedResource(api::Kind::Node), name);
    const kube::Node &old = it->second;
    if (!n.metadata.resourceVersion.empty() && n.metadata.resourceVersion != old.metadata.resourceVersion)
        return conflict(api::Kind::Node, name);
    if (auto failed =
            api::preconditionFailure({n.metadata.uid, {}}, old.metadata.uid, old.metadata.resourceVersion))
        return *failed;
    // Metadata and spec as stored (compared first: a writer's copy of the stored node usually
    // has them unchanged, and a comparison allocates nothing).
    if (!(n.metadata == old.metadata))
        n.metadata = old.metadata;
    n.unschedulable = old.unschedulable; // spec
    if (n.taints != old.taints)
        n.taints = old.taints;
    if (n.podCIDR != old.podCIDR)
        n.podCIDR = old.podCIDR;
    // The API carries times to the second (RFC 3339 without a fraction): what the JSON path
    // would store after its encoding and decoding.
    for (auto &c : n.conditions)
        if (c.lastTransitionTime)
            *c.lastTransitionTime -= ((*c.lastTransitionTime % 1000) + 1000) % 1000;
    if (n == old)
        return {};
    commitNode(std::move(n), false);
    return {};
}

kube::Result<StatusStored> Store::writeRolloutStatus(const std::string &name,
                                                     const std::string &resourceVersion,
                                                     const api::NodeUpgradeRolloutStatus &status)
{
    constexpr api::Kind kind = api::Kind::NodeUpgradeRollout;
    const Json *stored = jsonObject(kind, name);
    if (!stored)
        return ApiStatus::notFound(api::qualifiedResource(kind), name);
    if (!resourceVersion.empty() &&
        resourceVersion != kube::stringOr((*stored)["metadata"], "resourceVersion"))
        return conflict(kind, name);
    // The status as the server stores it, as if read back and written again (prepareRollout;
    // a status always reads).
    const bool asGiven = status.isStored();
    Json statusJson;
    if (asGiven) {
        statusJson = status.toJson();
    } else {
        api::NodeUpgradeRolloutStatus stored = status;
        stored.normalize();
        statusJson = stored.toJson();
    }
    if (const Json *old = kube::member(*stored, "status"); old && *old == statusJson)
        return StatusStored::Unchanged;
    commitJson(kind, withStatus(*stored, std::move(statusJson)), false);
    return asGiven ? StatusStored::AsGiven : StatusStored::Normalized;
}

kube::Result<Json> Store::updatePod(WriteContext &u)
{
    const kube::Pod &old = pods.at(u.key);
    kube::Pod p = old;
    if (u.statusOnly) {
        auto parsed = parse<kube::Pod>(u.m);
        if (!parsed)
            return parsed.error();
        p.phase = parsed->phase;
        p.ready = parsed->ready;
        p.readyTransitionTime = parsed->readyTransitionTime;
        p.startTime = parsed->startTime;
        p.waitingReason = parsed->waitingReason;
        p.restartCount = parsed->restartCount;
    } else {
        // Pod specs are immutable here; metadata (labels, annotations, owners) may change.
        Json meta = u.m["metadata"];
        auto parsed = kube::ObjectMeta::fromJson(meta);
        if (!parsed)
            return parsed.error();
        p.metadata.labels = parsed->labels;
        p.metadata.annotations = parsed->annotations;
        p.metadata.ownerReferences = parsed->ownerReferences;
        p.metadata.finalizers = parsed->finalizers;
    }
    if (u.unchanged(p.toJson()))
        return u.current;
    if (u.dryRun)
        return p.toJson();
    return commitPod(std::move(p), false)->toJson();
}

kube::Result<Json> Store::updateDaemonSet(WriteContext &u)
{
    const kube::DaemonSet old = daemonSets.at(u.key);
    if (u.statusOnly) {
        auto parsed = kube::DaemonSetStatus::fromJson(u.m.value("status", Json()));
        if (!parsed)
            return parsed.error();
        kube::DaemonSet ds = old;
        ds.status = *parsed;
        if (auto v = api::validateDaemonSetStatus(ds, old); !v)
            return v.error();
        if (u.unchanged(ds.toJson()))
            return u.current;
        if (u.dryRun)
            return ds.toJson();
        commitDaemonSet(std::move(ds), false);
        return objectJson(u.kind, u.key);
    }
    kube::applyDaemonSetDefaults(u.m);
    u.m.erase("status");
    auto ds = parse<kube::DaemonSet>(u.m);
    if (!ds)
        return ds.error();
    if (auto v = api::validateDaemonSet(*ds, &old); !v)
        return v.error();
    ds->status = old.status;
    std::int64_t tg = old.templateGeneration().value_or(1);
    ds->metadata.generation = old.metadata.generation;
    if (ds->podTemplate() != old.podTemplate()) {
        ++tg;
        ++ds->metadata.generation;
    } else if (ds->spec != old.spec) {
        ++ds->metadata.generation;
    }
    setTemplateGeneration(*ds, tg);
    if (u.unchanged(ds->toJson()))
        return u.current;
    if (u.dryRun)
        return ds->toJson();
    commitDaemonSet(std::move(*ds), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::updateRevision(WriteContext &u)
{
    auto cr = parse<kube::ControllerRevision>(u.m);
    if (!cr)
        return cr.error();
    const kube::ControllerRevision &old = revisions.at(u.key);
    if (cr->data != old.data)
        return ApiStatus::invalid(
            "ControllerRevision.apps", u.name,
            "data: Invalid value: runtime.RawExtension{Raw:[]uint8(...)}: field is immutable");
    if (u.unchanged(cr->toJson()))
        return u.current;
    if (u.dryRun)
        return cr->toJson();
    commitRevision(std::move(*cr), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::updateReplicaSet(WriteContext &u)
{
    const kube::ReplicaSet old = replicaSets.at(u.key);
    kube::ReplicaSet rs = old;
    if (u.statusOnly) {
        auto parsed = parse<kube::ReplicaSet>(u.m);
        if (!parsed)
            return parsed.error();
        rs.status = parsed->status;
    } else {
        kube::applyReplicaSetDefaults(u.m);
        u.m.erase("status");
        auto parsed = parse<kube::ReplicaSet>(u.m);
        if (!parsed)
            return parsed.error();
        rs = std::move(*parsed);
        rs.status = old.status;
        rs.metadata.generation = old.metadata.generation + (rs.spec != old.spec ? 1 : 0);
    }
    if (u.unchanged(rs.toJson()))
        return u.current;
    if (u.dryRun)
        return rs.toJson();
    commitReplicaSet(std::move(rs), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::updateEvent(WriteContext &u)
{
    auto e = parse<kube::Event>(u.m);
    if (!e)
        return e.error();
    if (u.unchanged(e->toJson()))
        return u.current;
    if (u.dryRun)
        return e->toJson();
    commitEvent(std::move(*e), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::updatePdb(WriteContext &u)
{
    const kube::PodDisruptionBudget old = pdbs.at(u.key);
    kube::PodDisruptionBudget next = old;
    if (u.statusOnly) {
        auto parsed = parse<kube::PodDisruptionBudget>(u.m);
        if (!parsed)
            return parsed.error();
        next.status = std::move(parsed->status);
    } else {
        u.m.erase("status");
        auto parsed = parse<kube::PodDisruptionBudget>(u.m);
        if (!parsed)
            return parsed.error();
        if (auto v = api::validatePodDisruptionBudget(*parsed); !v)
            return v.error();
        next = std::move(*parsed);
        next.status = old.status;
        next.metadata.generation = old.metadata.generation + (next.spec == old.spec ? 0 : 1);
    }
    if (u.unchanged(next.toJson()))
        return u.current;
    if (u.dryRun)
        return next.toJson();
    commitPdb(std::move(next), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::updateJsonKind(WriteContext &u)
{
    auto next = prepareJsonObject(u.kind, std::move(u.m), &u.current, u.statusOnly);
    if (!next)
        return next.error();
    if (u.unchanged(*next))
        return u.current;
    if (u.dryRun)
        return *next;
    reserveJsonObject(u.kind, *next, &u.current);
    commitJson(u.kind, std::move(*next), false);
    return objectJson(u.kind, u.key);
}

kube::Result<Json> Store::apiPatch(api::Kind kind, const std::string &ns, const std::string &name,
                                   api::PatchType type, const Json &patch, const WriteOptions &options,
                                   bool statusOnly)
{
    const std::string k = key(api::isNamespaced(kind) ? (ns.empty() ? "default" : ns) : std::string(), name);
    Json current = objectJson(kind, k);
    if (current.is_null())
        return ApiStatus::notFound(api::qualifiedResource(kind), name);
    // Preconditions carried by the patch itself.
    if (patch.is_object() && patch.contains("metadata") && patch["metadata"].is_object()) {
        const Json &pm = patch["metadata"];
        if (pm.contains("resourceVersion") && pm["resourceVersion"].is_string() &&
            pm["resourceVersion"] != kube::stringOr(current["metadata"], "resourceVersion"))
            return conflict(kind, name);
        if (pm.contains("uid") && pm["uid"].is_string())
            if (auto failed = api::preconditionFailure({pm["uid"].get<std::string>(), {}},
                                                       kube::stringOr(current["metadata"], "uid"), {}))
                return *failed;
    }
    auto applied = api::patchDocument(current, type, patch);
    if (!applied)
        return applied.error();
    Json patched = std::move(*applied);
    const Json *pm = kube::member(patched, "metadata");
    const std::string patchedName = pm ? kube::stringOr(*pm, "name") : std::string();
    if (patchedName != name)
        return api::nameMismatch(patchedName, name);
    patched["kind"] = api::kindName(kind);
    patched["apiVersion"] = api::apiVersion(kind);
    patched["metadata"]["resourceVersion"] = kube::stringOr(current["metadata"], "resourceVersion");
    if (options.decode)
        if (auto decoded = options.decode(patched); !decoded)
            return decoded.error();
    // The object just read is the one the update starts from: nothing ran in between.
    return apiUpdate(std::move(patched), statusOnly, options.dryRun, std::move(current));
}

void Store::orphanDependents(const std::string &ownerUid)
{
    auto withoutOwner = [&](kube::ObjectMeta &meta) {
        auto &refs = meta.ownerReferences;
        refs.erase(std::remove_if(refs.begin(), refs.end(),
                                  [&](const kube::OwnerReference &r) { return r.uid == ownerUid; }),
                   refs.end());
    };
    std::vector<kube::Pod> pods_;
    if (auto it = podsByOwner.find(ownerUid); it != podsByOwner.end())
        for (const auto &[pn, pod] : it->second)
            pods_.push_back(*pod);
    for (auto &pod : pods_) {
        withoutOwner(pod.metadata);
        commitPod(std::move(pod), false);
    }
    std::vector<kube::ControllerRevision> crs;
    for (const auto &[ck, cr] : revisions)
        if (const auto *ref = cr.metadata.controllerRef(); ref && ref->uid == ownerUid)
            crs.push_back(cr);
    for (auto &cr : crs) {
        withoutOwner(cr.metadata);
        commitRevision(std::move(cr), false);
    }
}

kube::Result<void> Store::apiDelete(api::Kind kind, const std::string &nsIn, const std::string &name,
                                    std::optional<std::int64_t> grace, DeletePropagation propagation)
{
    const std::string ns = api::isNamespaced(kind) ? (nsIn.empty() ? "default" : nsIn) : std::string();
    const std::string k = key(ns, name);
    switch (kind) {
    case api::Kind::Pod:
        return deletePod(ns, name, grace);
    case api::Kind::Node:
        if (!nodes.count(name))
            return ApiStatus::notFound("nodes", name);
        eraseNode(name);
        return {};
    case api::Kind::DaemonSet:
    case api::Kind::ReplicaSet:
        return deleteWorkload(kind, ns, name, grace, propagation);
    case api::Kind::ControllerRevision:
        if (!revisions.count(k))
            return ApiStatus::notFound("controllerrevisions.apps", name);
        eraseRevision(k);
        return {};
    case api::Kind::Event:
        if (!events.count(k))
            return ApiStatus::notFound("events", name);
        eraseEvent(k);
        return {};
    case api::Kind::PodDisruptionBudget:
        if (!pdbs.count(k))
            return ApiStatus::notFound(api::qualifiedResource(kind), name);
        erasePdb(k);
        return {};
    case api::Kind::Job:
        return deleteJob(ns, name, grace, propagation);
    case api::Kind::NodeUpgradeRollout:
    case api::Kind::Lease:
    case api::Kind::Service:
        if (!jsonObject(kind, k))
            return ApiStatus::notFound(api::qualifiedResource(kind), name);
        eraseJson(kind, k);
        return {};
    case api::Kind::Namespace:
        return deleteNamespace(name);
    }
    return {};
}

// A DaemonSet or ReplicaSet, and what it owns: its ControllerRevisions and pods, unless orphaned.
kube::Result<void> Store::deleteWorkload(api::Kind kind, const std::string &ns, const std::string &name,
                                         std::optional<std::int64_t> grace, DeletePropagation propagation)
{
    const std::string k = key(ns, name);
    std::string uid;
    if (kind == api::Kind::DaemonSet) {
        auto it = daemonSets.find(k);
        if (it == daemonSets.end())
            return ApiStatus::notFound("daemonsets.apps", name);
        uid = it->second.metadata.uid;
    } else {
        auto it = replicaSets.find(k);
        if (it == replicaSets.end())
            return ApiStatus::notFound("replicasets.apps", name);
        uid = it->second.metadata.uid;
    }
    // Orphan: the dependents lose their owner reference before the owner goes, as the
    // orphan finalizer holds the owner until the collector has updated them.
    if (propagation == DeletePropagation::Orphan)
        orphanDependents(uid);
    if (kind == api::Kind::DaemonSet)
        eraseDaemonSet(k);
    else
        eraseReplicaSet(k);
    if (propagation == DeletePropagation::Orphan)
        return {};
    // Garbage collection of dependents (background; foreground ends the same here).
    std::vector<std::string> crs, podNames;
    for (const auto &[ck, cr] : revisions)
        if (const auto *ref = cr.metadata.controllerRef(); ref && ref->uid == uid)
            crs.push_back(ck);
    for (const auto &ck : crs)
        eraseRevision(ck);
    if (auto it = podsByOwner.find(uid); it != podsByOwner.end())
        for (const auto &[pn, pod] : it->second)
            podNames.emplace_back(pn);
    // The collector's deletes of the dependents just read from the owner index: deletePod can
    // only answer NotFound, for a pod already gone, and that is the end wanted.
    for (const auto &pn : podNames)
        (void)deletePod(ns, pn, grace);
    return {};
}

// A Job, and its pods unless orphaned.
kube::Result<void> Store::deleteJob(const std::string &ns, const std::string &name,
                                    std::optional<std::int64_t> grace, DeletePropagation propagation)
{
    const api::Kind kind = api::Kind::Job;
    const std::string k = key(ns, name);
    const Json *job = jsonObject(kind, k);
    if (!job)
        return ApiStatus::notFound(api::qualifiedResource(kind), name);
    const std::string uid = kube::stringOr((*job)["metadata"], "uid");
    if (propagation == DeletePropagation::Orphan)
        orphanDependents(uid);
    eraseJson(kind, k);
    std::vector<std::string> podNames;
    if (auto it = podsByOwner.find(uid); it != podsByOwner.end() && propagation != DeletePropagation::Orphan)
        for (const auto &[pn, pod] : it->second)
            podNames.emplace_back(pn);
    for (const auto &pn : podNames)
        (void)deletePod(ns, pn, grace); // as deleteWorkload's: NotFound at most, the end wanted
    return {};
}

// A Namespace and everything in it. The namespace controller's deletes of what it holds, each
// named from the store just now: NotFound is the only answer they can have, and it is the end
// wanted.
kube::Result<void> Store::deleteNamespace(const std::string &name)
{
    auto it = namespaces.find(name);
    if (it == namespaces.end())
        return ApiStatus::notFound("namespaces", name);
    const std::string prefix = name + "/";
    auto keysIn = [&](const auto &map) {
        std::vector<std::string> out;
        for (auto i = map.lower_bound(prefix); i != map.end() && i->first.rfind(prefix, 0) == 0; ++i)
            out.push_back(i->first);
        return out;
    };
    for (const auto &dk : keysIn(daemonSets))
        (void)apiDelete(api::Kind::DaemonSet, name, dk.substr(prefix.size()), 0);
    for (const auto &rk : keysIn(replicaSets))
        (void)apiDelete(api::Kind::ReplicaSet, name, rk.substr(prefix.size()), 0);
    for (const auto &pk : keysIn(pods))
        erasePod(pk);
    for (const auto &ck : keysIn(revisions))
        eraseRevision(ck);
    for (const auto &ek : keysIn(events))
        (void)apiDelete(api::Kind::Event, name, ek.substr(prefix.size()), 0);
    for (const auto &bk : keysIn(pdbs))
        erasePdb(bk);
    for (api::Kind jsonKind : {api::Kind::Lease, api::Kind::Service, api::Kind::Job})
        if (auto byKind = jsonObjects.find(jsonKind); byKind != jsonObjects.end())
            for (const auto &jk : keysIn(byKind->second))
                eraseJson(jsonKind, jk);
    kube::ObjectMeta gone = namespaces.at(name);
    namespaces.erase(name);
    gone.resourceVersion = nextResourceVersion();
    fanOutNamespace(WatchEvent::Type::Deleted, gone);
    return {};
}

} // namespace store
