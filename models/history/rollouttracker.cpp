#include "models/history/rollouttracker.h"

#include "models/api/daemonsetlogic.h"

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

bool rolloutDone(const kube::DaemonSet &ds)
{
    const auto &s = ds.status;
    return s.observedGeneration >= ds.metadata.generation &&
           s.updatedNumberScheduled == s.desiredNumberScheduled &&
           s.numberAvailable == s.desiredNumberScheduled;
}

} // namespace

RolloutTiming *RolloutTracker::active(Entry &e)
{
    if (e.record.rollouts.empty())
        return nullptr;
    auto &r = e.record.rollouts.back();
    return r.completed == 0 && r.supersededBy.isEmpty() ? &r : nullptr;
}

void RolloutTracker::observeDaemonSet(const kube::DaemonSet &ds, kube::Timestamp now, bool deleted)
{
    const std::string key = ds.metadata.key();
    Entry &e = m_entries[key];
    if (deleted) {
        if (auto *r = active(e))
            r->supersededBy = QStringLiteral("deleted");
        e.seen = false;
        e.published.reset();
        return;
    }
    const kube::Json &tmpl = ds.podTemplate();
    if (!e.seen) {
        e.seen = true;
        e.podTemplate = tmpl;
        e.hash = api::templateHash(tmpl, ds.status.collisionCount);
        return;
    }
    if (tmpl != e.podTemplate) {
        const std::string newHash = api::templateHash(tmpl, ds.status.collisionCount);
        if (auto *r = active(e))
            r->supersededBy = q(newHash);
        RolloutTiming t;
        t.fromHash = q(e.hash);
        t.toHash = q(newHash);
        t.started = now;
        t.lastProgress = now;
        if (auto n = e.numbers.find(e.hash); n != e.numbers.end())
            t.fromRevision = n->second;
        if (auto n = e.numbers.find(newHash); n != e.numbers.end())
            t.toRevision = n->second; // an existing revision (rollback); renumbered below
        e.record.rollouts.push_back(std::move(t));
        e.nodeIndex.clear();
        e.podTemplate = tmpl;
        e.hash = newHash;
        e.published.reset();
        return;
    }
    if (auto *r = active(e); r && rolloutDone(ds)) {
        r->completed = now;
        e.published.reset();
    }
}

void RolloutTracker::observePod(const kube::Pod &pod, const std::string &dsKey, bool created,
                                kube::Timestamp now)
{
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end())
        return;
    Entry &e = it->second;
    RolloutTiming *r = active(e);
    if (!r)
        return;
    const std::string &node = pod.node();
    if (node.empty())
        return;
    const QString hash = q(pod.metadata.label(kube::kRevisionHashLabel));
    const bool onTarget = hash == r->toHash;
    auto idx = e.nodeIndex.find(node);
    // A replacement starts with the first of: old pod deleted, new pod created.
    const bool starts = (created && onTarget) || (!onTarget && pod.isDeleting());
    if (starts && idx == e.nodeIndex.end()) {
        r->nodes.push_back(NodeReplaceTiming{q(node), now, 0});
        idx = e.nodeIndex.emplace(node, r->nodes.size() - 1).first;
        r->lastProgress = now;
        e.published.reset();
    }
    if (onTarget && created) {
        r->lastProgress = now;
        e.published.reset();
    }
    if (onTarget && pod.ready && !pod.isDeleting() && idx != e.nodeIndex.end() &&
        r->nodes[idx->second].finished == 0) {
        r->nodes[idx->second].finished = now;
        r->lastProgress = now;
        e.published.reset();
    }
}

void RolloutTracker::reconcile(const std::string &dsKey, const std::string &currentHash,
                               std::int64_t currentRevision,
                               const std::map<std::string, std::int64_t> &numberByHash)
{
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end())
        return;
    Entry &e = it->second;
    bool changed = false;
    // Numbers of rollouts that ended between two builds (headless runs build once at the
    // end) come from the revisions as they are now.
    for (auto &r : e.record.rollouts) {
        if (r.toRevision == 0) {
            if (auto f = numberByHash.find(r.toHash.toStdString()); f != numberByHash.end()) {
                r.toRevision = f->second;
                changed = true;
            }
        }
        if (r.fromRevision == 0) {
            if (auto f = numberByHash.find(r.fromHash.toStdString()); f != numberByHash.end()) {
                r.fromRevision = f->second;
                changed = true;
            }
        }
    }
    if (!e.record.rollouts.empty() && !currentHash.empty()) {
        auto &r = e.record.rollouts.back();
        if (r.supersededBy.isEmpty()) {
            // A rollback to a revision hashed under another collisionCount: the cluster's
            // current revision names the real target.
            if (r.completed == 0 && r.toHash != q(currentHash)) {
                r.toHash = q(currentHash);
                e.hash = currentHash;
                changed = true;
            }
            if (r.toHash == q(currentHash) && r.toRevision != currentRevision) {
                r.toRevision = currentRevision;
                changed = true;
            }
        }
    }
    if (changed)
        e.published.reset();
}

void RolloutTracker::observeRevision(const std::string &dsKey, const std::string &hash, std::int64_t number)
{
    Entry &e = m_entries[dsKey];
    e.numbers[hash] = number;
    if (e.record.rollouts.empty())
        return;
    auto &r = e.record.rollouts.back();
    if (r.completed == 0 && r.supersededBy.isEmpty() && r.toHash == q(hash) && r.toRevision != number) {
        r.toRevision = number;
        e.published.reset();
    }
}

void RolloutTracker::recordAction(const std::string &dsKey, ActionRecord action)
{
    Entry &e = m_entries[dsKey];
    e.record.actions.push_back(std::move(action));
    e.published.reset();
}

std::shared_ptr<const DaemonSetRecord> RolloutTracker::record(const std::string &dsKey)
{
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end()) {
        static const auto none = std::make_shared<const DaemonSetRecord>();
        return none;
    }
    Entry &e = it->second;
    if (!e.published)
        e.published = std::make_shared<const DaemonSetRecord>(e.record);
    return e.published;
}

const RolloutTiming *RolloutTracker::activeRollout(const std::string &dsKey) const
{
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end() || it->second.record.rollouts.empty())
        return nullptr;
    const auto &r = it->second.record.rollouts.back();
    return r.completed == 0 && r.supersededBy.isEmpty() ? &r : nullptr;
}

} // namespace models
