#include "models/controllers/replicasetcontroller.h"
#include "models/controllers/podtemplate.h"
#include "models/kube/jsonfield.h"

#include <algorithm>

namespace controllers {

using kube::Json;
using kube::Pod;

ReplicaSetController::ReplicaSetController(ReplicaSetClient &client)
    : m_c(client), m_queue(client.timers(), [this](const std::string &key) { sync(key); })
{}

void ReplicaSetController::onReplicaSet(const api::WatchEvent &ev)
{
    m_c.deliver([this, key = ev.key()] { enqueue(key); });
}

void ReplicaSetController::onPod(const api::WatchEvent &ev)
{
    const Pod &pod = *ev.pod;
    std::vector<std::string> keys;
    if (const auto *ref = pod.metadata.controllerRef()) {
        if (ref->kind != "ReplicaSet")
            return;
        const std::string *key = m_c.replicaSetKeyOfUid(ref->uid);
        if (!key)
            return;
        keys.push_back(*key);
    } else {
        for (const kube::ReplicaSet *rs : m_c.replicaSetsIn(pod.metadata.namespace_)) {
            auto sel = rs->selector();
            if (sel && !sel->empty() && sel->matches(pod.metadata.labels))
                keys.push_back(rs->metadata.key());
        }
    }
    if (keys.empty())
        return;
    m_c.deliver([this, keys] {
        for (const auto &k : keys)
            enqueue(k);
    });
}

void ReplicaSetController::enqueue(const std::string &key)
{
    if (!m_c.continuous())
        return;
    m_queue.scheduleAt(key, m_queue.spaced(key, m_c.now(), kSyncInterval));
}

void ReplicaSetController::sync(const std::string &key)
{
    m_queue.synced(key, m_c.now());
    const kube::ReplicaSet *current = m_c.replicaSet(key);
    if (!current) {
        m_queue.succeeded(key);
        return;
    }
    const kube::ReplicaSet rs = *current;
    auto sel = rs.selector();
    if (!sel || sel->empty() || rs.metadata.deletionTimestamp)
        return;
    claim(rs, *sel);
    std::vector<const Pod *> active;
    if (const auto *owned = m_c.podsControlledBy(rs.metadata.uid))
        for (const auto &[name, pod] : *owned)
            if (!pod->isDeleting() && !pod->isTerminal())
                active.push_back(pod);
    const int want = rs.replicas();
    const int have = static_cast<int>(active.size());
    bool written = true;
    if (have < want)
        written = create(rs, want - have);
    else if (have > want)
        written = remove(rs, active, have - want);
    // Status from the (possibly changed) store.
    updateStatus(key, rs);
    if (written) {
        m_queue.succeeded(key);
    } else { // rate-limited requeue
        const kube::Duration delay = m_queue.retryDelay(key);
        if (m_c.continuous())
            m_queue.scheduleAt(key, m_c.now() + delay);
    }
}

// Adopts the matching orphans and releases the owned pods that no longer match.
void ReplicaSetController::claim(const kube::ReplicaSet &rs, const kube::LabelSelector &sel)
{
    // Copies first: each write changes the lists walked.
    std::vector<Pod> adopt, release;
    if (const auto *orphans = m_c.orphanPods(rs.metadata.namespace_))
        for (const auto &[name, pod] : *orphans)
            if (!pod->isDeleting() && sel.matches(pod->metadata.labels))
                adopt.push_back(*pod);
    if (const auto *owned = m_c.podsControlledBy(rs.metadata.uid))
        for (const auto &[name, pod] : *owned)
            if (!sel.matches(pod->metadata.labels))
                release.push_back(*pod);
    for (Pod &p : adopt) {
        p.metadata.ownerReferences.push_back(
            {"apps/v1", "ReplicaSet", rs.metadata.name, rs.metadata.uid, true, true});
        m_c.updatePod(std::move(p));
    }
    for (Pod &p : release) {
        auto &refs = p.metadata.ownerReferences;
        refs.erase(
            std::remove_if(refs.begin(), refs.end(), [&](const auto &r) { return r.uid == rs.metadata.uid; }),
            refs.end());
        m_c.updatePod(std::move(p));
    }
}

// Creates `count` pods from the template (at most 500 a sync), with an event for each; stops at
// the first refusal.
bool ReplicaSetController::create(const kube::ReplicaSet &rs, int count)
{
    const Json &tpl = rs.spec.contains("template") ? rs.spec["template"] : Json::object();
    const Pod prototype =
        podFromTemplate(tpl, m_c.sharedSpec(tpl.contains("spec") ? tpl["spec"] : Json::object()),
                        rs.metadata.namespace_, {"apps/v1", "ReplicaSet", rs.metadata.name, rs.metadata.uid});
    for (int i = 0; i < std::min(count, 500); ++i) {
        auto created = m_c.createPod(prototype);
        if (!created) {
            m_c.recordEvent(rs, "Warning", "FailedCreate", "Error creating: " + created.error().message);
            return false;
        }
        m_c.recordEvent(rs, "Normal", "SuccessfulCreate", "Created pod: " + (*created)->metadata.name);
    }
    return true;
}

// Deletes `excess` of the active pods, the least useful first: unscheduled, not running, not
// ready, the newest.
bool ReplicaSetController::remove(const kube::ReplicaSet &rs, const std::vector<const Pod *> &active,
                                  int excess)
{
    std::vector<const Pod *> ranked = active;
    std::sort(ranked.begin(), ranked.end(), [](const Pod *a, const Pod *b) {
        const bool sa = !a->nodeName.empty(), sb = !b->nodeName.empty();
        if (sa != sb)
            return !sa;
        const bool ra = a->phase == "Running", rb = b->phase == "Running";
        if (ra != rb)
            return !ra;
        if (a->ready != b->ready)
            return !a->ready;
        const auto ta = a->metadata.creationTimestamp.value_or(0),
                   tb = b->metadata.creationTimestamp.value_or(0);
        if (ta != tb)
            return ta > tb;
        return a->metadata.name < b->metadata.name;
    });
    std::vector<std::string> names;
    for (int i = 0; i < excess; ++i)
        names.push_back(ranked[static_cast<std::size_t>(i)]->metadata.name);
    bool written = true;
    for (const auto &name : names) {
        auto deleted = m_c.deletePod(rs.metadata.namespace_, name);
        if (deleted) {
            m_c.recordEvent(rs, "Normal", "SuccessfulDelete", "Deleted pod: " + name);
        } else if (deleted.error().reason != "NotFound") {
            m_c.recordEvent(rs, "Warning", "FailedDelete", "Error deleting: " + deleted.error().message);
            written = false;
        }
    }
    return written;
}

void ReplicaSetController::updateStatus(const std::string &key, const kube::ReplicaSet &rs)
{
    kube::ReplicaSetStatus st;
    const int minReady = kube::integerOr<int>(rs.spec, "minReadySeconds", 0);
    if (const auto *owned = m_c.podsControlledBy(rs.metadata.uid)) {
        for (const auto &[name, pod] : *owned) {
            if (pod->isDeleting() || pod->isTerminal())
                continue;
            ++st.replicas;
            if (pod->ready)
                ++st.readyReplicas;
            if (pod->isAvailable(minReady, m_c.now()))
                ++st.availableReplicas;
        }
    }
    st.observedGeneration = rs.metadata.generation;
    const kube::ReplicaSet *cur = m_c.replicaSet(key);
    if (cur && !(cur->status == st)) {
        kube::ReplicaSet updated = *cur;
        updated.status = st;
        m_c.updateReplicaSetStatus(std::move(updated));
    }
}

} // namespace controllers
