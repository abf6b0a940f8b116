#include "models/history/revisionmemory.h"

#include <algorithm>

namespace models {

void RevisionMemory::observe(const ClusterSnapshot &snapshot)
{
    for (const auto &ds : snapshot.daemonSets)
        observe(ds, snapshot.clock.now);
}

void RevisionMemory::observe(const DaemonSetInfo &ds, qint64 now)
{
    Entry &e = m_entries[ds.key];
    if (!e.uid.isEmpty() && !ds.uid.isEmpty() && e.uid != ds.uid)
        e.byName.clear();
    if (!ds.uid.isEmpty())
        e.uid = ds.uid;
    if (!ds.revisions)
        return;
    for (auto &[name, r] : e.byName) {
        const bool live = std::any_of(ds.revisions->begin(), ds.revisions->end(),
                                      [&](const RevisionInfo &x) { return x.name == name; });
        if (!live && !r.removed) {
            r.removed = true;
            r.removedAt = now;
        }
    }
    for (const RevisionInfo &info : *ds.revisions) {
        auto [it, inserted] = e.byName.try_emplace(info.name);
        RememberedRevision &r = it->second;
        if (inserted) {
            r.name = info.name;
            r.firstSeen = now;
        } else if (r.number != info.number && r.number != 0) {
            r.previousNumbers.append(r.number);
        }
        r.hash = info.hash;
        r.number = info.number;
        r.created = info.created;
        r.changeCause = info.changeCause;
        r.imageSummary = info.imageSummary;
        r.podTemplate = info.podTemplate;
        r.lastSeen = now;
        r.removed = false;
        r.removedAt = 0;
    }
}

std::vector<RememberedRevision> RevisionMemory::revisions(const QString &dsKey) const
{
    std::vector<RememberedRevision> out;
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end())
        return out;
    for (const auto &[name, r] : it->second.byName)
        out.push_back(r);
    std::sort(out.begin(), out.end(), [](const RememberedRevision &a, const RememberedRevision &b) {
        return a.number != b.number ? a.number < b.number : a.name < b.name;
    });
    return out;
}

qint64 RevisionMemory::colorKey(const QString &dsKey, const QString &name) const
{
    const RememberedRevision *r = find(dsKey, name);
    if (!r)
        return -1;
    return r->previousNumbers.isEmpty() ? r->number : r->previousNumbers.front();
}

const RememberedRevision *RevisionMemory::find(const QString &dsKey, const QString &name) const
{
    auto it = m_entries.find(dsKey);
    if (it == m_entries.end())
        return nullptr;
    auto r = it->second.byName.find(name);
    return r == it->second.byName.end() ? nullptr : &r->second;
}

QStringList RevisionMemory::daemonSetKeys() const
{
    QStringList keys;
    for (const auto &[key, e] : m_entries)
        keys.append(key);
    return keys;
}

QString RevisionMemory::uidOf(const QString &dsKey) const
{
    auto it = m_entries.find(dsKey);
    return it == m_entries.end() ? QString() : it->second.uid;
}

void RevisionMemory::restore(const QString &dsKey, const QString &uid,
                             std::vector<RememberedRevision> revisions)
{
    Entry &e = m_entries[dsKey];
    e.uid = uid;
    e.byName.clear();
    for (auto &r : revisions) {
        const QString name = r.name;
        e.byName[name] = std::move(r);
    }
}

} // namespace models
