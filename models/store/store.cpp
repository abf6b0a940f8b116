// Store: the object store, its indexes, the informer and watch fan-out, the typed writes, the
// pods' create and delete, recorded Events and the consistent paged reads of the pods.

#include "models/store/store.h"
#include "models/api/admission.h"
#include "models/kube/defaults.h"
#include "models/kube/jsonfield.h"
#include "models/kube/nodeaffinity.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace store {

using kube::Json;
using kube::Pod;

Store::Store(const StoreOptions &o)
    : now(o.start), rng(o.seed), eventRng(o.seed ^ 0x6576656e74ULL), gracefulDeletion(o.gracefulDeletion)
{}

Store::~Store() = default;

std::shared_ptr<const Json> Store::internSpec(Json spec)
{
    std::string k = kube::goJson(spec);
    auto it = specCache.find(k);
    if (it != specCache.end())
        return it->second;
    auto p = std::make_shared<const Json>(std::move(spec));
    specCache.emplace(std::move(k), p);
    return p;
}

std::string Store::generateName(const std::string &prefix, const std::string &ns, api::Kind kind)
{
    for (;;) {
        std::string name = prefix + rng.string(5);
        const std::string k = key(ns, name);
        const bool taken = kind == api::Kind::Pod     ? pods.count(k) > 0
                           : kind == api::Kind::Event ? events.count(k) > 0
                                                      : false;
        if (!taken)
            return name;
    }
}

void Store::ensureNamespace(const std::string &ns, const kube::ObjectMeta *declared)
{
    if (ns.empty() || namespaces.count(ns))
        return;
    kube::ObjectMeta m;
    if (declared) {
        m.labels = declared->labels;
        m.annotations = declared->annotations;
        m.ownerReferences = declared->ownerReferences;
        m.extra = declared->extra;
    }
    m.name = ns;
    m.uid = rng.uuid();
    m.creationTimestamp = now;
    m.labels["kubernetes.io/metadata.name"] = ns;
    m.resourceVersion = nextResourceVersion();
    fanOutNamespace(WatchEvent::Type::Added, namespaces[ns] = std::move(m));
}

void Store::fanOutNamespace(WatchEvent::Type type, const kube::ObjectMeta &ns)
{
    WatchEvent ev;
    ev.type = type;
    ev.kind = api::Kind::Namespace;
    ev.name = ns.name;
    ev.resourceVersion = rv;
    ev.namespaceObject = &ns;
    fanOut(ev);
}

// ---- indexes -----------------------------------------------------------------------------

void Store::indexPod(const std::string &k, const Pod &p)
{
    const std::string_view name = std::string_view(k).substr(k.size() - p.metadata.name.size());
    if (const auto *ref = p.metadata.controllerRef()) {
        podsByOwner[ref->uid][name] = &p;
        podsByOwnerNode[ref->uid][p.node()][name] = &p;
        ownedPodsChanged(ref->uid, p.node());
    } else
        orphanPods[p.metadata.namespace_][name] = &p;
    if (!p.node().empty())
        podsByNode[p.node()][k] = &p;
}

void Store::unindexPod(const Pod &p, const std::string &node)
{
    const std::string k = key(p.metadata.namespace_, p.metadata.name);
    if (const auto *ref = p.metadata.controllerRef()) {
        ownedPodsChanged(ref->uid, node);
        auto it = podsByOwner.find(ref->uid);
        if (it != podsByOwner.end()) {
            it->second.erase(p.metadata.name);
            if (it->second.empty())
                podsByOwner.erase(it);
        }
        auto on = podsByOwnerNode.find(ref->uid);
        if (on != podsByOwnerNode.end()) {
            auto n = on->second.find(node);
            if (n != on->second.end()) {
                n->second.erase(p.metadata.name);
                if (n->second.empty())
                    on->second.erase(n);
            }
            if (on->second.empty())
                podsByOwnerNode.erase(on);
        }
    } else {
        auto it = orphanPods.find(p.metadata.namespace_);
        if (it != orphanPods.end()) {
            it->second.erase(p.metadata.name);
            if (it->second.empty())
                orphanPods.erase(it);
        }
    }
    if (!node.empty()) {
        auto it = podsByNode.find(node);
        if (it != podsByNode.end()) {
            it->second.erase(k);
            if (it->second.empty())
                podsByNode.erase(it);
        }
    }
}

// ---- fan-out -----------------------------------------------------------------------------

void Store::fanOut(WatchEvent &ev)
{
    // Internal informers first: they only post timers or observe expectations.
    if (const auto at = static_cast<std::size_t>(ev.kind); at < m_informers.size())
        for (const Handler &handler : m_informers[at])
            handler(ev);
    for (std::size_t i = 0; i < m_watchers.size(); ++i) {
        const Watcher &w = m_watchers[i];
        if (w.id > 0 && (!w.kind || *w.kind == ev.kind) && w.callback) {
            auto cb = w.callback; // the callback may add or remove watchers
            cb(ev);
        }
    }
}

namespace {

template <typename T> void setPointer(WatchEvent &ev, const T *p);
template <> void setPointer(WatchEvent &ev, const kube::Pod *p)
{
    ev.pod = p;
}
template <> void setPointer(WatchEvent &ev, const kube::Node *p)
{
    ev.node = p;
}
template <> void setPointer(WatchEvent &ev, const kube::DaemonSet *p)
{
    ev.daemonSet = p;
}
template <> void setPointer(WatchEvent &ev, const kube::ControllerRevision *p)
{
    ev.controllerRevision = p;
}
template <> void setPointer(WatchEvent &ev, const kube::ReplicaSet *p)
{
    ev.replicaSet = p;
}
template <> void setPointer(WatchEvent &ev, const kube::Event *p)
{
    ev.event = p;
}
template <> void setPointer(WatchEvent &ev, const kube::PodDisruptionBudget *p)
{
    ev.podDisruptionBudget = p;
}

template <typename T>
WatchEvent makeEvent(WatchEvent::Type type, api::Kind kind, const T &obj, std::uint64_t rv)
{
    WatchEvent ev;
    ev.type = type;
    ev.kind = kind;
    ev.namespace_ = obj.metadata.namespace_;
    ev.name = obj.metadata.name;
    ev.resourceVersion = rv;
    setPointer(ev, &obj);
    return ev;
}

} // namespace

// ---- typed writes ------------------------------------------------------------------------

namespace {

// The pod's place in the indexes: a write that keeps it leaves the indexes as they are (the
// stored pod keeps its address).
bool sameIndexKeys(const Pod &a, const Pod &b)
{
    const kube::OwnerReference *ra = a.metadata.controllerRef();
    const kube::OwnerReference *rb = b.metadata.controllerRef();
    if ((ra == nullptr) != (rb == nullptr) || (ra && ra->uid != rb->uid))
        return false;
    return a.metadata.name == b.metadata.name && a.metadata.namespace_ == b.metadata.namespace_ &&
           a.node() == b.node();
}

} // namespace

const Pod *Store::commitPod(Pod pod, bool isNew)
{
    const std::string k = key(pod.metadata.namespace_, pod.metadata.name);
    auto it = pods.find(k);
    bool reindex = true;
    if (!isNew) {
        if (it != pods.end()) {
            const auto &old = it->second.metadata;
            if (old.labels != pod.metadata.labels || old.ownerReferences != pod.metadata.ownerReferences)
                ++podClaimVersion;
            reindex = !sameIndexKeys(it->second, pod);
            if (reindex)
                unindexPod(it->second, it->second.node());
        } else {
            isNew = true;
        }
    }
    if (isNew && !pod.metadata.controllerRef())
        ++podClaimVersion;
    ++podWriteVersion;
    pod.metadata.resourceVersion = nextResourceVersion();
    if (it == pods.end()) {
        it = pods.emplace_hint(pods.lower_bound(k), k, std::move(pod));
    } else {
        if (podVersionWanted(it->second))
            keepPodVersion(k, it->second, rv);
        it->second = std::move(pod);
    }
    Pod &slot = it->second;
    if (reindex)
        indexPod(it->first, slot);
    else if (const auto *ref = slot.metadata.controllerRef())
        ownedPodsChanged(ref->uid, slot.node());
    return emitPod(k, slot, isNew);
}

void Store::updatePod(std::map<std::string, Pod>::iterator it, const std::function<void(Pod &)> &edit)
{
    Pod &slot = it->second;
    // The edit writes no other object: this write's resourceVersion is the next one.
    if (podVersionWanted(slot))
        keepPodVersion(it->first, slot, rv + 1);
    const std::string oldNode = slot.node();
    edit(slot);
    if (slot.node() != oldNode) {
        unindexPod(slot, oldNode);
        indexPod(it->first, slot);
    } else if (const auto *ref = slot.metadata.controllerRef()) {
        ownedPodsChanged(ref->uid, oldNode);
    }
    ++podWriteVersion;
    slot.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Modified, api::Kind::Pod, slot, rv);
    fanOut(ev);
}

const Pod *Store::emitPod(const std::string &k, const Pod &slot, bool isNew)
{
    const std::uint64_t version = podWriteVersion;
    WatchEvent ev =
        makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified, api::Kind::Pod, slot, rv);
    fanOut(ev);
    if (version == podWriteVersion)
        return &slot; // no pod was written (or erased) by a watcher
    auto it = pods.find(k);
    return it == pods.end() ? nullptr : &it->second;
}

void Store::erasePod(const std::string &k)
{
    auto it = pods.find(k);
    if (it == pods.end())
        return;
    if (podVersionWanted(it->second))
        keepPodVersion(k, it->second, rv + 1);
    unindexPod(it->second, it->second.node());
    ++podWriteVersion;
    Pod gone = std::move(it->second);
    pods.erase(it);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::Pod, gone, rv);
    fanOut(ev);
}

// ---- versioned pod reads -------------------------------------------------------------------

namespace {

std::uint64_t writtenAt(const Pod &p)
{
    std::uint64_t v = 0;
    const std::string &s = p.metadata.resourceVersion;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

} // namespace

bool Store::podVersionWanted(const Pod &current) const
{
    // Every pin is at or before now, so before the write about to replace `current`: a pin
    // falls in its lifetime when the newest one is not older than it.
    return !m_podPins.empty() && m_podPins.rbegin()->first >= writtenAt(current);
}

void Store::keepPodVersion(const std::string &k, const Pod &old, std::uint64_t until)
{
    m_podHistory[k].push_back({writtenAt(old), until, std::make_shared<const Pod>(old)});
}

void Store::prunePodHistory()
{
    if (m_podPins.empty()) {
        m_podHistory.clear();
        return;
    }
    for (auto it = m_podHistory.begin(); it != m_podHistory.end();) {
        auto &versions = it->second;
        versions.erase(std::remove_if(versions.begin(), versions.end(),
                                      [this](const PodVersion &v) {
                                          const auto pin = m_podPins.lower_bound(v.from);
                                          return pin == m_podPins.end() || pin->first >= v.until;
                                      }),
                       versions.end());
        it = versions.empty() ? m_podHistory.erase(it) : std::next(it);
    }
}

const Pod *Store::podAt(const std::string &k, const Pod *live, std::uint64_t at) const
{
    if (live && writtenAt(*live) <= at)
        return live;
    if (m_podHistory.empty())
        return nullptr;
    auto h = m_podHistory.find(k);
    if (h == m_podHistory.end())
        return nullptr;
    for (const auto &v : h->second)
        if (v.from <= at && at < v.until)
            return v.pod.get();
    return nullptr;
}

std::uint64_t Store::pinPods()
{
    ++m_podPins[rv];
    return rv;
}

void Store::unpinPods(std::uint64_t resourceVersion)
{
    auto it = m_podPins.find(resourceVersion);
    if (it == m_podPins.end())
        return;
    if (--it->second == 0) {
        m_podPins.erase(it);
        prunePodHistory();
    }
}

PodPage Store::podPage(std::uint64_t at, const std::string &ns, const std::string &after, std::size_t limit,
                       const std::function<bool(const kube::Pod &)> &keep) const
{
    // The stored pods and the kept versions, merged in key order.
    const std::string prefix = ns.empty() ? std::string() : ns + "/";
    const auto inRange = [&](const std::string &k) { return k.compare(0, prefix.size(), prefix) == 0; };
    const bool fromStart = after.empty() || after < prefix;
    auto live = fromStart ? pods.lower_bound(prefix) : pods.upper_bound(after);
    auto kept = fromStart ? m_podHistory.lower_bound(prefix) : m_podHistory.upper_bound(after);
    PodPage page;
    const std::string *last = nullptr;
    for (;;) {
        const bool liveOk = live != pods.end() && inRange(live->first);
        const bool keptOk = kept != m_podHistory.end() && inRange(kept->first);
        if (!liveOk && !keptOk)
            break;
        const std::string *k = nullptr;
        const Pod *pod = nullptr;
        if (liveOk && (!keptOk || live->first <= kept->first)) {
            k = &live->first;
            pod = podAt(*k, &live->second, at);
            ++live;
        } else {
            k = &kept->first;
            pod = podAt(*k, nullptr, at);
        }
        if (keptOk && kept->first == *k)
            ++kept;
        if (!pod || (keep && !keep(*pod)))
            continue;
        if (limit != 0 && page.pods.size() == limit) {
            page.more = true;
            break;
        }
        page.pods.push_back(*pod);
        last = k;
    }
    if (last)
        page.lastKey = *last;
    return page;
}

std::size_t Store::podCount(const std::string &ns) const
{
    if (ns.empty())
        return pods.size();
    const std::string prefix = ns + "/";
    std::size_t n = 0;
    for (auto it = pods.lower_bound(prefix); it != pods.end() && it->first.rfind(prefix, 0) == 0; ++it)
        ++n;
    return n;
}

std::size_t Store::keptPodVersions() const
{
    std::size_t n = 0;
    for (const auto &[k, versions] : m_podHistory)
        n += versions.size();
    return n;
}

const kube::Node *Store::commitNode(kube::Node node, bool isNew)
{
    const std::string k = node.metadata.name;
    bool readinessChanged = isNew;
    if (!isNew) {
        auto it = nodes.find(k);
        if (it == nodes.end())
            isNew = readinessChanged = true;
        else
            readinessChanged = it->second.isReady() != node.isReady();
    }
    node.metadata.resourceVersion = nextResourceVersion();
    if (isNew)
        ++nodeSetVersion;
    kube::Node &slot = nodes[k] = std::move(node);
    WatchEvent ev =
        makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified, api::Kind::Node, slot, rv);
    fanOut(ev);
    if (readinessChanged && m_nodeReadinessObserver)
        m_nodeReadinessObserver(k);
    auto it = nodes.find(k);
    return it == nodes.end() ? nullptr : &it->second;
}

void Store::eraseNode(const std::string &name)
{
    auto it = nodes.find(name);
    if (it == nodes.end())
        return;
    kube::Node gone = std::move(it->second);
    nodes.erase(it);
    ++nodeSetVersion;
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::Node, gone, rv);
    fanOut(ev);
    // Pod garbage collection: pods bound to a node that no longer exists are removed.
    std::vector<std::string> orphaned;
    if (auto idx = podsByNode.find(name); idx != podsByNode.end())
        for (const auto &[k, pod] : idx->second)
            if (!pod->nodeName.empty())
                orphaned.emplace_back(k);
    for (const auto &k : orphaned)
        erasePod(k);
}

const kube::DaemonSet *Store::commitDaemonSet(kube::DaemonSet ds, bool isNew)
{
    const std::string k = key(ds.metadata.namespace_, ds.metadata.name);
    if (!isNew && !daemonSets.count(k))
        isNew = true;
    ds.metadata.resourceVersion = nextResourceVersion();
    daemonSetByUid[ds.metadata.uid] = k;
    kube::DaemonSet &slot = daemonSets[k] = std::move(ds);
    WatchEvent ev = makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified,
                              api::Kind::DaemonSet, slot, rv);
    fanOut(ev);
    auto it = daemonSets.find(k);
    return it == daemonSets.end() ? nullptr : &it->second;
}

void Store::eraseDaemonSet(const std::string &k)
{
    auto it = daemonSets.find(k);
    if (it == daemonSets.end())
        return;
    kube::DaemonSet gone = std::move(it->second);
    daemonSets.erase(it);
    daemonSetByUid.erase(gone.metadata.uid);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::DaemonSet, gone, rv);
    fanOut(ev);
}

const kube::ControllerRevision *Store::commitRevision(kube::ControllerRevision cr, bool isNew)
{
    const std::string k = key(cr.metadata.namespace_, cr.metadata.name);
    if (!isNew && !revisions.count(k))
        isNew = true;
    if (isNew) {
        ensureNamespace(cr.metadata.namespace_);
        if (cr.metadata.uid.empty())
            cr.metadata.uid = rng.uuid();
        if (!cr.metadata.creationTimestamp)
            cr.metadata.creationTimestamp = now;
    }
    cr.metadata.resourceVersion = nextResourceVersion();
    kube::ControllerRevision &slot = revisions[k] = std::move(cr);
    WatchEvent ev = makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified,
                              api::Kind::ControllerRevision, slot, rv);
    fanOut(ev);
    auto it = revisions.find(k);
    return it == revisions.end() ? nullptr : &it->second;
}

void Store::eraseRevision(const std::string &k)
{
    auto it = revisions.find(k);
    if (it == revisions.end())
        return;
    kube::ControllerRevision gone = std::move(it->second);
    revisions.erase(it);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::ControllerRevision, gone, rv);
    fanOut(ev);
}

const kube::ReplicaSet *Store::commitReplicaSet(kube::ReplicaSet rs, bool isNew)
{
    const std::string k = key(rs.metadata.namespace_, rs.metadata.name);
    if (!isNew && !replicaSets.count(k))
        isNew = true;
    rs.metadata.resourceVersion = nextResourceVersion();
    replicaSetByUid[rs.metadata.uid] = k;
    kube::ReplicaSet &slot = replicaSets[k] = std::move(rs);
    WatchEvent ev = makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified,
                              api::Kind::ReplicaSet, slot, rv);
    fanOut(ev);
    auto it = replicaSets.find(k);
    return it == replicaSets.end() ? nullptr : &it->second;
}

void Store::eraseReplicaSet(const std::string &k)
{
    auto it = replicaSets.find(k);
    if (it == replicaSets.end())
        return;
    kube::ReplicaSet gone = std::move(it->second);
    replicaSets.erase(it);
    replicaSetByUid.erase(gone.metadata.uid);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::ReplicaSet, gone, rv);
    fanOut(ev);
}

namespace {

// Kinds are ASCII: lowered without the C library's locale ("pod/ns/name" in the event log and
// in the repeat hash).
char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::uint64_t aggregateOf(const kube::Event &e)
{
    return Store::aggregateHash(e.involvedObject.kind, e.involvedObject.namespace_, e.involvedObject.name,
                                e.type, e.reason, e.message);
}

// Whether two Events say the same (what repeats are counted by).
bool sameText(const kube::Event &a, const kube::Event &b)
{
    return a.message == b.message && a.reason == b.reason && a.type == b.type &&
           a.involvedObject.name == b.involvedObject.name && a.involvedObject.kind == b.involvedObject.kind &&
           a.involvedObject.namespace_ == b.involvedObject.namespace_;
}

} // namespace

const kube::Event *Store::commitEvent(kube::Event e, bool isNew)
{
    const std::string k = key(e.metadata.namespace_, e.metadata.name);
    auto existing = events.find(k);
    if (existing == events.end()) {
        isNew = true;
    } else if (!sameText(existing->second, e)) {
        // A client rewrote what a recorded Event says: repeats no longer count on it.
        if (auto a = eventByAggregate.find(aggregateOf(existing->second));
            a != eventByAggregate.end() && a->second == existing)
            eventByAggregate.erase(a);
    }
    e.metadata.resourceVersion = nextResourceVersion();
    if (existing == events.end())
        existing = events.emplace(k, std::move(e)).first;
    else
        existing->second = std::move(e);
    kube::Event &slot = existing->second;
    WatchEvent ev =
        makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified, api::Kind::Event, slot, rv);
    fanOut(ev);
    auto it = events.find(k);
    return it == events.end() ? nullptr : &it->second;
}

void Store::eraseEvent(const std::string &k)
{
    auto it = events.find(k);
    if (it == events.end())
        return;
    const auto a = eventByAggregate.find(aggregateOf(it->second));
    if (a != eventByAggregate.end() && a->second == it)
        eventByAggregate.erase(a);
    kube::Event gone = std::move(it->second);
    events.erase(it);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::Event, gone, rv);
    fanOut(ev);
}

const kube::PodDisruptionBudget *Store::commitPdb(kube::PodDisruptionBudget pdb, bool isNew)
{
    const std::string k = key(pdb.metadata.namespace_, pdb.metadata.name);
    if (!isNew && !pdbs.count(k))
        isNew = true;
    pdb.metadata.resourceVersion = nextResourceVersion();
    kube::PodDisruptionBudget &slot = pdbs[k] = std::move(pdb);
    WatchEvent ev = makeEvent(isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified,
                              api::Kind::PodDisruptionBudget, slot, rv);
    fanOut(ev);
    auto it = pdbs.find(k);
    return it == pdbs.end() ? nullptr : &it->second;
}

void Store::erasePdb(const std::string &k)
{
    auto it = pdbs.find(k);
    if (it == pdbs.end())
        return;
    kube::PodDisruptionBudget gone = std::move(it->second);
    pdbs.erase(it);
    gone.metadata.resourceVersion = nextResourceVersion();
    WatchEvent ev = makeEvent(WatchEvent::Type::Deleted, api::Kind::PodDisruptionBudget, gone, rv);
    fanOut(ev);
}

const Json *Store::jsonObject(api::Kind kind, const std::string &k) const
{
    auto byKind = jsonObjects.find(kind);
    if (byKind == jsonObjects.end())
        return nullptr;
    auto it = byKind->second.find(k);
    return it == byKind->second.end() ? nullptr : &it->second;
}

const Json *Store::commitJson(api::Kind kind, Json obj, bool isNew)
{
    const std::string ns =
        api::isNamespaced(kind) ? kube::stringOr(obj["metadata"], "namespace") : std::string();
    const std::string name = kube::stringOr(obj["metadata"], "name");
    const std::string k = key(ns, name);
    obj["metadata"]["resourceVersion"] = nextResourceVersion();
    auto &objects = jsonObjects[kind];
    Json &slot = objects[k] = std::move(obj);
    WatchEvent ev;
    ev.type = isNew ? WatchEvent::Type::Added : WatchEvent::Type::Modified;
    ev.kind = kind;
    ev.namespace_ = ns;
    ev.name = name;
    ev.resourceVersion = rv;
    ev.custom = &slot;
    fanOut(ev);
    return jsonObject(kind, k);
}

void Store::eraseJson(api::Kind kind, const std::string &k)
{
    auto byKind = jsonObjects.find(kind);
    if (byKind == jsonObjects.end())
        return;
    auto it = byKind->second.find(k);
    if (it == byKind->second.end())
        return;
    Json gone = std::move(it->second);
    byKind->second.erase(it);
    releaseJsonObject(kind, gone);
    gone["metadata"]["resourceVersion"] = nextResourceVersion();
    WatchEvent ev;
    ev.type = WatchEvent::Type::Deleted;
    ev.kind = kind;
    ev.namespace_ = api::isNamespaced(kind) ? kube::stringOr(gone["metadata"], "namespace") : std::string();
    ev.name = kube::stringOr(gone["metadata"], "name");
    ev.resourceVersion = rv;
    ev.custom = &gone;
    fanOut(ev);
}

void Store::expireEvents()
{
    while (!eventExpiry.empty() && eventExpiry.front().first + kEventTtl <= now) {
        const std::string k = eventExpiry.front().second;
        eventExpiry.pop_front();
        auto it = events.find(k);
        if (it == events.end())
            continue;
        const kube::Timestamp last = it->second.lastTimestamp.value_or(0);
        if (last + kEventTtl <= now)
            eraseEvent(k);
        else
            eventExpiry.emplace_back(last, k); // seen again since: check later
    }
}

// ---- pod API -----------------------------------------------------------------------------

kube::Result<const Pod *> Store::createPod(Pod pod)
{
    if (auto r = preparePod(pod); !r)
        return r.error();
    ensureNamespace(pod.metadata.namespace_);
    pod.metadata.uid = rng.uuid();
    pod.metadata.creationTimestamp = now;
    pod.metadata.deletionTimestamp.reset();
    return commitPod(std::move(pod), true);
}

kube::Result<void> Store::preparePod(Pod &pod)
{
    if (pod.metadata.namespace_.empty())
        pod.metadata.namespace_ = "default";
    if (pod.metadata.name.empty()) {
        if (pod.metadata.generateName.empty())
            return kube::ApiStatus::invalid(
                "Pod", "", "metadata.name: Required value: name or generateName is required");
        pod.metadata.name = generateName(pod.metadata.generateName, pod.metadata.namespace_, api::Kind::Pod);
    }
    if (pods.count(key(pod.metadata.namespace_, pod.metadata.name)))
        return kube::ApiStatus::alreadyExists("pods", pod.metadata.name);
    // What the API server adds to every Pod, from a client or a controller: the Pod-only
    // defaults and the DefaultTolerationSeconds admission. Computed once per shared spec.
    if (pod.spec) {
        auto &admitted = m_admittedSpecs[pod.spec.get()];
        if (!admitted.first) {
            admitted.first = pod.spec;
            kube::Json spec = *pod.spec;
            bool changed = kube::applyPodDefaults(spec);
            if (auto with = api::withDefaultTolerationSeconds(spec)) {
                spec = std::move(*with);
                changed = true;
            }
            admitted.second = changed ? internSpec(std::move(spec)) : pod.spec;
        }
        pod.spec = admitted.second;
    }
    return {};
}

kube::Result<void> Store::deletePod(const std::string &ns, const std::string &name,
                                    std::optional<std::int64_t> grace)
{
    const std::string k = key(ns, name);
    auto it = pods.find(k);
    if (it == pods.end())
        return kube::ApiStatus::notFound("pods", name);
    const Pod &pod = it->second;
    const bool immediate = !gracefulDeletion || (grace && *grace == 0) || pod.nodeName.empty();
    if (immediate) {
        erasePod(k);
        return {};
    }
    if (pod.isDeleting())
        return {};
    const std::int64_t seconds = grace.value_or(
        pod.spec ? kube::integerOr<std::int64_t>(*pod.spec, "terminationGracePeriodSeconds", 30) : 30);
    updatePod(it, [&](Pod &p) {
        p.metadata.deletionGracePeriodSeconds = seconds;
        p.metadata.deletionTimestamp = now + seconds * 1000;
    });
    return {};
}

kube::Result<void> Store::deletePodAsClient(const std::string &ns, const std::string &name)
{
    if (auto refused = refusedWrite(api::Kind::Pod, ns, name))
        return *refused;
    return deletePod(ns, name);
}

std::uint64_t Store::aggregateHash(std::string_view kind, const std::string &ns, const std::string &name,
                                   const std::string &type, const std::string &reason,
                                   const std::string &message)
{
    char lower[32]; // kinds are short; a longer one is hashed in pieces
    std::uint64_t h = kube::fnv1a64({});
    for (std::size_t at = 0; at < kind.size(); at += sizeof lower) {
        const std::size_t n = std::min(sizeof lower, kind.size() - at);
        std::transform(kind.begin() + at, kind.begin() + at + n, lower, lowerAscii);
        h = kube::fnv1a64(std::string_view(lower, n), h);
    }
    h = kube::fnv1a64("/", h);
    if (!ns.empty())
        h = kube::fnv1a64("/", kube::fnv1a64(ns, h));
    h = kube::fnv1a64(name, h);
    for (const std::string *part : {&type, &reason, &message})
        h = kube::fnv1a64(*part, kube::fnv1a64("\n", h));
    return h;
}

void Store::recordEvent(const std::string &type, const std::string &reason, const std::string &message,
                        api::Kind kind, const std::string &ns, const std::string &name,
                        const std::string &uid, const char *source, const std::string &fieldPath)
{
    const std::string_view kindName = api::kindName(kind);
    if (logs) {
        std::string object(kindName);
        std::transform(object.begin(), object.end(), object.begin(), lowerAscii);
        emitted.push_back({now, object + "/" + key(ns, name), type, reason, message});
    }
    expireEvents();

    const std::uint64_t aggregate = aggregateHash(kindName, ns, name, type, reason, message);
    if (auto it = eventByAggregate.find(aggregate); it != eventByAggregate.end()) {
        kube::Event e = it->second->second;
        ++e.count;
        e.lastTimestamp = now;
        commitEvent(std::move(e), false);
        return;
    }
    kube::Event e;
    const std::string eventNs = ns.empty() ? "default" : ns;
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".%016llx",
                  static_cast<unsigned long long>(now) * 1000000ULL + (++eventCounter % 1000000ULL));
    e.metadata.name = name + suffix;
    e.metadata.namespace_ = eventNs;
    e.metadata.uid = eventRng.uuid();
    e.metadata.creationTimestamp = now;
    e.involvedObject = {std::string(kindName), ns, name, uid, api::apiVersion(kind), fieldPath};
    e.reason = reason;
    e.message = message;
    e.type = type;
    e.firstTimestamp = now;
    e.lastTimestamp = now;
    e.sourceComponent = source                                   ? source
                        : kind == api::Kind::ReplicaSet          ? "replicaset-controller"
                        : kind == api::Kind::DaemonSet           ? "daemonset-controller"
                        : kind == api::Kind::PodDisruptionBudget ? "controllermanager"
                        : kind == api::Kind::Job                 ? "job-controller"
                                                                 : "daemonscope";
    ensureNamespace(eventNs);
    const std::string eventKey = key(eventNs, e.metadata.name);
    eventExpiry.emplace_back(now, eventKey);
    commitEvent(std::move(e), true);
    if (auto it = events.find(eventKey); it != events.end())
        eventByAggregate[aggregate] = it;
    // Bounded store: past kMaxEvents the oldest recorded Events go before their hour is up.
    while (events.size() > kMaxEvents && !eventExpiry.empty()) {
        const std::string oldest = eventExpiry.front().second;
        eventExpiry.pop_front();
        if (oldest != eventKey)
            eraseEvent(oldest);
    }
}

} // namespace store
