#pragma once
// RevisionMemory — every ControllerRevision the app has seen, per DaemonSet key, including the
// ones the cluster has since deleted (revisionHistoryLimit) and every number a revision had
// before a rollback renumbered it. The revision timeline shows the removed ones greyed out; a
// history store can persist and restore the records (restore()).
//
// A revision is identified by its name (the name carries the template hash, so a revision
// deleted and later recreated for the same template is the same revision again). When a
// DaemonSet's UID changes (deleted and recreated), its memory starts over.

#include "models/snapshot/snapshot.h"

#include <QList>
#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace models {

struct RememberedRevision
{
    QString name;
    QString hash;
    qint64 number = 0;             // the number it has (or had when it was removed)
    QList<qint64> previousNumbers; // numbers it had before, oldest first
    qint64 created = 0;
    QString changeCause;
    QString imageSummary;
    std::shared_ptr<const kube::Json> podTemplate;
    qint64 firstSeen = 0;
    qint64 lastSeen = 0;
    bool removed = false;
    qint64 removedAt = 0; // first snapshot time it was missing
};

class RevisionMemory
{
public:
    void observe(const ClusterSnapshot &snapshot);
    void observe(const DaemonSetInfo &ds, qint64 now);

    // Sorted by number, then name.
    std::vector<RememberedRevision> revisions(const QString &dsKey) const;
    const RememberedRevision *find(const QString &dsKey, const QString &name) const;
    // The key of a revision's colour: the first number it was seen with (a rollback renumbers a
    // revision but its template, and so its colour, stays), -1 when the revision is unknown.
    qint64 colorKey(const QString &dsKey, const QString &name) const;
    QStringList daemonSetKeys() const;
    QString uidOf(const QString &dsKey) const;

    // Replaces what is remembered for a DaemonSet (loading persisted history).
    void restore(const QString &dsKey, const QString &uid, std::vector<RememberedRevision> revisions);
    // Forgets everything (another cluster was opened: its history is a different one).
    void clear() { m_entries.clear(); }

private:
    struct Entry
    {
        QString uid;
        std::map<QString, RememberedRevision> byName;
    };
    std::map<QString, Entry> m_entries;
};

} // namespace models
