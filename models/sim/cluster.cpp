#include "models/sim/cluster.h"
#include "models/api/fieldmanager.h"
#include "models/kube/jsonfield.h"

#include "models/api/daemonsetlogic.h"
#include "models/api/validation.h"
#include "models/controllers/daemonsetcontroller.h"
#include "models/sim/clusterimpl.h"
#include "models/sim/kubelet.h"
#include "models/sim/nodeupgraderuntime.h"

#include <algorithm>

namespace sim {

using kube::ApiStatus;
using kube::Json;

Cluster::Cluster(ClusterOptions options) : d(std::make_unique<Impl>(std::move(options))) {}
Cluster::~Cluster() = default;

NodeUpgradeRuntime &Cluster::nodeUpgrade()
{
    if (!m_nodeUpgrade)
        m_nodeUpgrade = std::make_unique<NodeUpgradeRuntime>(*this);
    return *m_nodeUpgrade;
}

kube::Timestamp Cluster::now() const
{
    return d->now;
}
Mode Cluster::mode() const
{
    return d->options.mode;
}
std::uint64_t Cluster::seed() const
{
    return d->options.seed;
}
const ClusterOptions &Cluster::options() const
{
    return d->options;
}

// ---- API (the store's handler) ------------------------------------------------------------

kube::Result<Json> Cluster::create(const Json &manifest, const WriteOptions &options)
{
    return d->create(manifest, options);
}
kube::Result<Json> Cluster::update(const Json &manifest, const WriteOptions &options)
{
    return d->update(manifest, options);
}
kube::Result<Json> Cluster::updateStatus(const Json &manifest, const WriteOptions &options)
{
    return d->updateStatus(manifest, options);
}
kube::Result<void> Cluster::updateNodeStatus(kube::Node node)
{
    return d->updateNodeStatus(std::move(node));
}
kube::Result<Cluster::StatusStored> Cluster::updateRolloutStatus(const std::string &name,
                                                                 const std::string &resourceVersion,
                                                                 const api::NodeUpgradeRolloutStatus &status)
{
    return d->updateRolloutStatus(name, resourceVersion, status);
}
kube::Result<Json> Cluster::apply(const Json &manifest)
{
    return d->apply(manifest);
}
kube::Result<Json> Cluster::get(api::Kind kind, const std::string &ns, const std::string &name) const
{
    return d->get(kind, ns, name);
}
kube::Result<Json> Cluster::list(api::Kind kind, const std::string &ns,
                                 const std::string &labelSelector) const
{
    return d->list(kind, ns, labelSelector);
}
void Cluster::refuseWrites(api::Kind kind, const std::string &ns, const std::string &name, int count,
                           ApiStatus status)
{
    d->refuseWrites(kind, ns, name, count, std::move(status));
}
kube::Result<Json> Cluster::patch(api::Kind kind, const std::string &ns, const std::string &name,
                                  api::PatchType type, const Json &patch, const WriteOptions &options)
{
    return d->patch(kind, ns, name, type, patch, options);
}
kube::Result<Json> Cluster::patchStatus(api::Kind kind, const std::string &ns, const std::string &name,
                                        api::PatchType type, const Json &patch, const WriteOptions &options)
{
    return d->patchStatus(kind, ns, name, type, patch, options);
}
kube::Result<void> Cluster::remove(api::Kind kind, const std::string &ns, const std::string &name,
                                   std::optional<std::int64_t> gracePeriodSeconds,
                                   DeletePropagation propagation)
{
    return d->remove(kind, ns, name, gracePeriodSeconds, propagation);
}
kube::Result<Json> Cluster::remove(api::Kind kind, const std::string &ns, const std::string &name,
                                   const DeleteOptions &options)
{
    return d->remove(kind, ns, name, options);
}
kube::Result<void> Cluster::evict(const std::string &ns, const std::string &name, const EvictOptions &options)
{
    return d->evict(ns, name, options);
}
kube::Result<Json> Cluster::getScale(api::Kind kind, const std::string &ns, const std::string &name) const
{
    return d->getScale(kind, ns, name);
}
kube::Result<Json> Cluster::updateScale(api::Kind kind, const std::string &ns, const std::string &name,
                                        const Json &scale, const WriteOptions &options)
{
    return d->updateScale(kind, ns, name, scale, options);
}
kube::Result<Json> Cluster::patchScale(api::Kind kind, const std::string &ns, const std::string &name,
                                       api::PatchType type, const Json &patch, const WriteOptions &options)
{
    return d->patchScale(kind, ns, name, type, patch, options);
}
std::uint64_t Cluster::pinPods()
{
    return d->pinPods();
}
void Cluster::unpinPods(std::uint64_t resourceVersion)
{
    d->unpinPods(resourceVersion);
}
Cluster::PodPage Cluster::podPage(std::uint64_t resourceVersion, const std::string &ns,
                                  const std::string &after, std::size_t limit,
                                  const std::function<bool(const kube::Pod &)> &keep) const
{
    return d->podPage(resourceVersion, ns, after, limit, keep);
}
std::size_t Cluster::podCount(const std::string &ns) const
{
    return d->podCount(ns);
}
std::size_t Cluster::keptPodVersions() const
{
    return d->keptPodVersions();
}

// ---- typed reads -------------------------------------------------------------------------

namespace {

template <typename Map> auto values(const Map &map)
{
    std::vector<const typename Map::mapped_type *> out;
    out.reserve(map.size());
    for (const auto &[k, v] : map)
        out.push_back(&v);
    return out;
}

template <typename Map> auto find(const Map &map, const std::string &k) -> const typename Map::mapped_type *
{
    auto it = map.find(k);
    return it == map.end() ? nullptr : &it->second;
}

} // namespace

const kube::DaemonSet *Cluster::daemonSet(const std::string &ns, const std::string &name) const
{
    return find(d->daemonSets, Impl::key(ns, name));
}
std::vector<const kube::DaemonSet *> Cluster::daemonSets() const
{
    return values(d->daemonSets);
}
const kube::Node *Cluster::node(const std::string &name) const
{
    return find(d->nodes, name);
}
std::vector<const kube::Node *> Cluster::nodes() const
{
    return values(d->nodes);
}
const kube::Pod *Cluster::pod(const std::string &ns, const std::string &name) const
{
    return find(d->pods, Impl::key(ns, name));
}
std::vector<const kube::Pod *> Cluster::pods() const
{
    return values(d->pods);
}

std::vector<const kube::Pod *> Cluster::podsOf(const std::string &ns, const std::string &dsName) const
{
    std::vector<const kube::Pod *> out;
    const kube::DaemonSet *ds = daemonSet(ns, dsName);
    if (!ds)
        return out;
    if (auto it = d->podsByOwner.find(ds->metadata.uid); it != d->podsByOwner.end())
        for (const auto &[name, pod] : it->second)
            if (pod->metadata.namespace_ == ns)
                out.push_back(pod);
    return out;
}

std::vector<const kube::Pod *> Cluster::selectPods(const PodSelector &s) const
{
    std::vector<const kube::Pod *> base;
    std::string currentHash;
    auto split = [](const std::string &key) {
        auto slash = key.find('/');
        return slash == std::string::npos ? std::pair{std::string("default"), key}
                                          : std::pair{key.substr(0, slash), key.substr(slash + 1)};
    };
    if (s.all) {
        base = pods();
    } else if (!s.daemonSet.empty()) {
        auto [ns, name] = split(s.daemonSet);
        base = podsOf(ns, name);
        if (s.hash == "current") {
            const std::string crName = currentRevisionName(ns, name);
            if (const auto *cr = find(d->revisions, Impl::key(ns, crName)))
                currentHash = cr->metadata.label(kube::kRevisionHashLabel);
        }
    } else if (!s.replicaSet.empty()) {
        auto [ns, name] = split(s.replicaSet);
        if (const auto *rs = replicaSet(ns, name))
            if (auto it = d->podsByOwner.find(rs->metadata.uid); it != d->podsByOwner.end())
                for (const auto &[pn, pod] : it->second)
                    base.push_back(pod);
    }
    std::vector<const kube::Pod *> out;
    for (const auto *p : base) {
        if (!s.nodes.empty() && std::find(s.nodes.begin(), s.nodes.end(), p->node()) == s.nodes.end())
            continue;
        if (!s.hash.empty()) {
            const std::string want = s.hash == "current" ? currentHash : s.hash;
            if (p->metadata.label(kube::kRevisionHashLabel) != want)
                continue;
        }
        if (s.ready && p->ready != *s.ready)
            continue;
        out.push_back(p);
    }
    std::sort(out.begin(), out.end(), [](const kube::Pod *a, const kube::Pod *b) {
        if (a->node() != b->node())
            return a->node() < b->node();
        if (a->metadata.name != b->metadata.name)
            return a->metadata.name < b->metadata.name;
        return a->metadata.namespace_ < b->metadata.namespace_;
    });
    if (s.limit && static_cast<int>(out.size()) > *s.limit)
        out.resize(static_cast<std::size_t>(std::max(0, *s.limit)));
    return out;
}

std::vector<const kube::ControllerRevision *> Cluster::controllerRevisions() const
{
    return values(d->revisions);
}

std::vector<const kube::ControllerRevision *> Cluster::controllerRevisionsOf(const std::string &ns,
                                                                             const std::string &dsName) const
{
    std::vector<const kube::ControllerRevision *> out;
    const kube::DaemonSet *ds = daemonSet(ns, dsName);
    if (!ds)
        return out;
    store::forRange(d->revisions, ns, true, [&](const std::string &, const kube::ControllerRevision &cr) {
        if (const auto *ref = cr.metadata.controllerRef(); ref && ref->uid == ds->metadata.uid)
            out.push_back(&cr);
    });
    std::sort(out.begin(), out.end(), [](const auto *a, const auto *b) {
        return a->revision != b->revision ? a->revision < b->revision : a->metadata.name < b->metadata.name;
    });
    return out;
}

std::string Cluster::currentRevisionName(const std::string &ns, const std::string &dsName) const
{
    const kube::DaemonSet *ds = daemonSet(ns, dsName);
    if (!ds)
        return {};
    const std::string patch = api::daemonSetPatch(ds->podTemplate());
    std::string best;
    std::int64_t bestRev = -1;
    for (const auto *cr : controllerRevisionsOf(ns, dsName))
        if (cr->data == patch && cr->revision >= bestRev) {
            best = cr->metadata.name;
            bestRev = cr->revision;
        }
    return best;
}

std::vector<const kube::ReplicaSet *> Cluster::replicaSets() const
{
    return values(d->replicaSets);
}
const kube::ReplicaSet *Cluster::replicaSet(const std::string &ns, const std::string &name) const
{
    return find(d->replicaSets, Impl::key(ns, name));
}
std::vector<const kube::Event *> Cluster::events() const
{
    return values(d->events);
}
const kube::Event *Cluster::event(const std::string &ns, const std::string &name) const
{
    return find(d->events, Impl::key(ns, name));
}
std::vector<const kube::PodDisruptionBudget *> Cluster::podDisruptionBudgets() const
{
    return values(d->pdbs);
}

std::vector<std::string> Cluster::namespaces() const
{
    std::vector<std::string> out;
    for (const auto &[k, v] : d->namespaces)
        out.push_back(k);
    return out;
}
std::uint64_t Cluster::resourceVersion() const
{
    return d->rv;
}

EngineStats Cluster::stats() const
{
    EngineStats s = d->stats;
    s.writes = d->rv;
    return s;
}

// ---- watch -------------------------------------------------------------------------------

int Cluster::watch(api::Kind kind, std::function<void(const WatchEvent &)> callback)
{
    return d->watch(kind, std::move(callback));
}

int Cluster::watchAll(std::function<void(const WatchEvent &)> callback)
{
    return d->watch(std::nullopt, std::move(callback));
}

void Cluster::unwatch(int id)
{
    d->unwatch(id);
}

// ---- kubectl -----------------------------------------------------------------------------

api::RollbackOutcome Cluster::rollback(const std::string &ns, const std::string &name,
                                       std::int64_t toRevision)
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds) {
        api::RollbackOutcome o;
        o.requestedRevision = toRevision;
        o.message = "failed to retrieve DaemonSet " + name + ": daemonsets.apps \"" + name + "\" not found";
        return o;
    }
    api::RollbackOutcome o =
        api::decideRollback(*ds, api::controlledRevisions(*ds, controllerRevisions()), toRevision);
    if (o.action != api::RollbackOutcome::Action::Patch)
        return o;
    Json body = Json::parse(o.patch, nullptr, false);
    auto r = body.is_discarded() ? kube::Result<Json>(ApiStatus::badRequest("invalid revision data"))
                                 : patch(api::Kind::DaemonSet, ns, name, api::PatchType::Strategic, body);
    if (!r) {
        o.action = api::RollbackOutcome::Action::Error;
        o.message = "failed restoring revision " + std::to_string(toRevision) + ": " + r.error().message;
        return o;
    }
    o.performed = true;
    return o;
}

kube::Result<std::string> Cluster::historyText(const std::string &ns, const std::string &name,
                                               std::optional<std::int64_t> revision) const
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds)
        return ApiStatus::notFound("daemonsets.apps", name);
    const auto revs = api::controlledRevisions(*ds, controllerRevisions());
    if (revision)
        return api::historyRevisionText(*ds, revs, *revision);
    return api::historyTable(name, revs);
}

kube::Result<api::RolloutStatus> Cluster::rolloutStatusOf(const std::string &ns,
                                                          const std::string &name) const
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds)
        return ApiStatus::notFound("daemonsets.apps", name);
    return api::rolloutStatus(*ds);
}

kube::Result<void> Cluster::pause(const std::string &ns, const std::string &name)
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds)
        return ApiStatus::notFound("daemonsets.apps", name);
    auto p = api::pausePatch(*ds);
    if (!p)
        return {};
    auto r = patch(api::Kind::DaemonSet, ns, name, api::PatchType::Merge, *p);
    if (!r)
        return r.error();
    return {};
}

kube::Result<void> Cluster::resume(const std::string &ns, const std::string &name)
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds)
        return ApiStatus::notFound("daemonsets.apps", name);
    auto p = api::resumePatch(*ds);
    if (!p)
        return p.error();
    if (!*p)
        return {};
    auto r = patch(api::Kind::DaemonSet, ns, name, api::PatchType::Merge, **p);
    if (!r)
        return r.error();
    return {};
}

// ---- simulation --------------------------------------------------------------------------

SyncResult Cluster::syncDaemonSet(const std::string &ns, const std::string &name)
{
    SyncResult r = d->dsController->sync(Impl::key(ns, name));
    if (d->continuous())
        d->runTimersUntil(d->now); // deliver what the sync caused at this instant
    return r;
}

void Cluster::setInstantObserver(std::function<void()> observer)
{
    d->instantObserver = std::move(observer);
}

void Cluster::advance(kube::Duration dur)
{
    const kube::Timestamp target = d->now + std::max<kube::Duration>(0, dur);
    if (d->continuous())
        d->runTimersUntil(target);
    else
        d->now = target;
}

void Cluster::setTime(kube::Timestamp t)
{
    if (d->continuous()) {
        if (t > d->now)
            d->runTimersUntil(t);
    } else {
        d->now = t;
    }
}

bool Cluster::runUntil(const std::function<bool()> &done, kube::Duration timeout)
{
    if (done())
        return true;
    if (!d->continuous())
        return false;
    const kube::Timestamp deadline = d->now + std::max<kube::Duration>(0, timeout);
    d->runTimersUntil(d->now); // anything pending at this instant first
    if (done())
        return true;
    while (d->runNextInstant(deadline))
        if (done())
            return true;
    d->now = std::max(d->now, deadline);
    return done();
}

bool Cluster::rolloutComplete(const std::string &ns, const std::string &name) const
{
    const kube::DaemonSet *ds = daemonSet(ns, name);
    if (!ds || ds->updateStrategyType() != "RollingUpdate")
        return false;
    return api::rolloutStatus(*ds).done;
}

bool Cluster::podsReady(int n) const
{
    int ready = 0;
    for (const auto &[k, p] : d->pods)
        if (p.ready && !p.isDeleting())
            ++ready;
    return ready >= n;
}

// ---- hooks -------------------------------------------------------------------------------

namespace {

std::pair<std::string, std::string> splitKey(const std::string &key)
{
    auto slash = key.find('/');
    if (slash == std::string::npos)
        return {"default", key};
    return {key.substr(0, slash), key.substr(slash + 1)};
}

} // namespace

kube::Result<void> Cluster::markReady(const std::vector<std::string> &podKeys, bool ready)
{
    for (const auto &k : podKeys) {
        auto [ns, name] = splitKey(k);
        if (!d->pods.count(Impl::key(ns, name)))
            return ApiStatus::notFound("pods", name);
    }
    for (const auto &k : podKeys) {
        auto [ns, name] = splitKey(k);
        kube::Pod p = d->pods.at(Impl::key(ns, name));
        if (p.ready == ready && p.readyTransitionTime)
            continue;
        p.ready = ready;
        p.readyTransitionTime = d->now;
        if (ready && p.phase == "Pending") {
            p.phase = "Running";
            p.startTime = d->now;
        }
        d->commitPod(std::move(p), false);
    }
    return {};
}

kube::Result<void> Cluster::setPodLabels(const std::vector<std::string> &podKeys,
                                         const kube::StringMap &labels)
{
    Json patchBody = {{"metadata", {{"labels", kube::stringMapToJson(labels)}}}};
    for (const auto &k : podKeys) {
        auto [ns, name] = splitKey(k);
        auto r = patch(api::Kind::Pod, ns, name, api::PatchType::Merge, patchBody);
        if (!r)
            return r.error();
    }
    return {};
}

kube::Result<void> Cluster::addNode(kube::Node node)
{
    if (node.metadata.name.empty())
        return ApiStatus::invalid("Node", "",
                                  "metadata.name: Required value: name or generateName is required");
    node.fillSimulatedMachine(d->nodes.size());
    auto r = create(node.toJson());
    if (!r)
        return r.error();
    return {};
}

namespace {

kube::Result<void> editNode(Cluster::Impl &d, const std::string &name,
                            const std::function<bool(kube::Node &)> &edit)
{
    auto it = d.nodes.find(name);
    if (it == d.nodes.end())
        return ApiStatus::notFound("nodes", name);
    if (auto refused = d.refusedWrite(api::Kind::Node, "", name))
        return *refused;
    kube::Node n = it->second;
    if (edit(n))
        d.commitNode(std::move(n), false);
    return {};
}

bool setTaint(kube::Node &n, const kube::Taint &t)
{
    for (auto &e : n.taints)
        if (e.key == t.key && e.effect == t.effect) {
            if (e == t)
                return false;
            e = t;
            return true;
        }
    n.taints.push_back(t);
    return true;
}

bool removeTaint(kube::Node &n, const std::string &key, const std::string &effect = {})
{
    const auto before = n.taints.size();
    n.taints.erase(std::remove_if(n.taints.begin(), n.taints.end(),
                                  [&](const kube::Taint &t) {
                                      return t.key == key && (effect.empty() || t.effect == effect);
                                  }),
                   n.taints.end());
    return n.taints.size() != before;
}

} // namespace

kube::Result<void> Cluster::cordon(const std::string &node)
{
    return editNode(*d, node, [](kube::Node &n) {
        const bool changed = !n.unschedulable;
        n.unschedulable = true;
        return setTaint(n, {"node.kubernetes.io/unschedulable", "", "NoSchedule"}) || changed;
    });
}

kube::Result<void> Cluster::uncordon(const std::string &node)
{
    return editNode(*d, node, [](kube::Node &n) {
        const bool changed = n.unschedulable;
        n.unschedulable = false;
        return removeTaint(n, "node.kubernetes.io/unschedulable", "NoSchedule") || changed;
    });
}

kube::Result<void> Cluster::taint(const std::string &node, const kube::Taint &t)
{
    return editNode(*d, node, [&](kube::Node &n) { return setTaint(n, t); });
}

kube::Result<void> Cluster::untaint(const std::string &node, const std::string &key)
{
    return editNode(*d, node, [&](kube::Node &n) { return removeTaint(n, key); });
}

kube::Result<void> Cluster::annotateNode(const std::string &node,
                                         const std::map<std::string, std::optional<std::string>> &changes)
{
    if (auto refused = d->refusedWrite(api::Kind::Node, "", node))
        return *refused;
    auto it = d->nodes.find(node);
    if (it == d->nodes.end())
        return ApiStatus::notFound("nodes", node);
    // Nothing to write when every change is already there (a pass repeating itself).
    const kube::StringMap &current = it->second.metadata.annotations;
    if (std::all_of(changes.begin(), changes.end(), [&](const auto &change) {
            auto a = current.find(change.first);
            return change.second ? a != current.end() && a->second == *change.second : a == current.end();
        }))
        return {};
    kube::Node n = it->second;
    for (const auto &[key, value] : changes)
        if (value)
            n.metadata.annotations[key] = *value;
        else
            n.metadata.annotations.erase(key);
    if (auto v = api::validateObjectMeta("Node", n.metadata, false, api::NameRule::Dns1123Subdomain); !v)
        return v.error();
    defaultNode(n, d->now);
    d->commitNode(std::move(n), false);
    return {};
}

kube::Result<void> Cluster::setNodeConditions(const std::string &node,
                                              const std::vector<kube::NodeCondition> &set,
                                              const std::vector<std::string> &remove)
{
    return editNode(*d, node, [&](kube::Node &n) {
        const std::vector<kube::NodeCondition> before = n.conditions;
        for (const auto &c : set)
            n.setCondition(c);
        std::erase_if(n.conditions, [&](const kube::NodeCondition &c) {
            return std::find(remove.begin(), remove.end(), c.type) != remove.end();
        });
        return n.conditions != before;
    });
}

kube::Result<void> Cluster::fault(const std::string &nodeName, FaultKind kind)
{
    if (!d->nodes.count(nodeName))
        return ApiStatus::notFound("nodes", nodeName);
    const bool wasUnreachable = d->faults.count(nodeName) && d->faults.at(nodeName) == FaultKind::Unreachable;
    const bool wasReady = d->nodes.at(nodeName).isReady();
    // The node lifecycle controller's view: conditions plus the condition taints (NoSchedule
    // from TaintNodesByCondition, NoExecute from taint-based eviction).
    auto setHealth = [&](const char *status, const char *reason, const char *message, const char *taintKey) {
        return editNode(*d, nodeName, [&](kube::Node &n) {
            bool changed = false;
            const kube::NodeCondition *cur = n.condition("Ready");
            if (!cur || cur->status != status) {
                n.setCondition({"Ready", status, reason, message, d->now});
                changed = true;
            }
            for (const char *k : {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"})
                if (!taintKey || std::string(k) != taintKey)
                    changed = removeTaint(n, k) || changed;
            if (taintKey) {
                changed = setTaint(n, {taintKey, "", "NoSchedule"}) || changed;
                changed = setTaint(n, {taintKey, "", "NoExecute"}) || changed;
            }
            return changed;
        });
    };
    kube::Result<void> r;
    switch (kind) {
    case FaultKind::NotReady:
        d->faults[nodeName] = kind;
        r = setHealth("False", "KubeletNotReady", "container runtime is down",
                      "node.kubernetes.io/not-ready");
        break;
    case FaultKind::Unreachable:
        d->faults[nodeName] = kind;
        r = setHealth("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.",
                      "node.kubernetes.io/unreachable");
        break;
    case FaultKind::Ready:
        d->faults.erase(nodeName);
        r = setHealth("True", "KubeletReady", "kubelet is posting ready status", nullptr);
        break;
    default:
        // Faults of the node-agent upgrade: recorded for the controller that acts on them.
        d->faults[nodeName] = kind;
        return {};
    }
    const bool isUnreachable = d->faults.count(nodeName) && d->faults.at(nodeName) == FaultKind::Unreachable;
    // RecordNodeStatusChange: the node lifecycle controller reports a node that stops being
    // ready, the kubelet one that is ready again.
    if (const auto node = d->nodes.find(nodeName);
        r && node != d->nodes.end() && node->second.isReady() != wasReady)
        d->recordEvent("Normal", wasReady ? "NodeNotReady" : "NodeReady",
                       "Node " + nodeName + " status is now: " + (wasReady ? "NodeNotReady" : "NodeReady"),
                       api::Kind::Node, "", nodeName, node->second.metadata.uid,
                       wasReady ? "node-controller" : "kubelet");
    if (wasUnreachable != isUnreachable && d->continuous())
        d->kubelet->nodeChanged(nodeName);
    return r;
}

std::optional<FaultKind> Cluster::faultOf(const std::string &node) const
{
    auto it = d->faults.find(node);
    if (it == d->faults.end())
        return std::nullopt;
    return it->second;
}

const std::map<std::string, FaultKind> &Cluster::faults() const
{
    return d->faults;
}

std::vector<Activity> Cluster::takeActivity()
{
    return std::exchange(d->activity, {});
}
std::vector<EmittedEvent> Cluster::takeEvents()
{
    return std::exchange(d->emitted, {});
}
void Cluster::stopLogs()
{
    d->logs = false;
    d->activity = {};
    d->emitted = {};
}

bool Cluster::keepsLogs() const
{
    return d->logs;
}

void Cluster::schedule(kube::Timestamp t, std::function<void()> fn)
{
    d->loop.post(std::max(t, d->now), std::move(fn));
}
std::uint64_t Cluster::randomU64()
{
    return d->rng.next();
}

void Cluster::recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                          api::Kind kind, const std::string &ns, const std::string &name)
{
    std::string uid;
    if (kind == api::Kind::Node) {
        if (const auto *n = node(name))
            uid = n->metadata.uid;
    } else if (kind == api::Kind::DaemonSet) {
        if (const auto *ds = daemonSet(ns, name))
            uid = ds->metadata.uid;
    } else if (api::isJsonKind(kind)) {
        if (const Json *o =
                d->jsonObject(kind, Impl::key(api::isNamespaced(kind) ? ns : std::string(), name)))
            uid = kube::stringOr((*o)["metadata"], "uid");
    }
    d->recordEvent(type, reason, message, kind, ns, name, uid);
}

} // namespace sim
