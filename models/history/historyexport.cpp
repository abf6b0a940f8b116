#include "models/history/historyexport.h"

#include <set>

namespace models {

std::optional<diff::HistoryReport> HistoryExport::report(const ClusterSnapshot &snapshot,
                                                         const QString &dsKey, const RevisionMemory *memory,
                                                         bool ignoreServerNoise,
                                                         const std::vector<ActionRecord> *actions)
{
    const DaemonSetInfo *ds = snapshot.daemonSet(dsKey);
    if (!ds)
        return std::nullopt;
    diff::HistoryReport report;
    report.name = ds->name.toStdString();
    report.namespace_ = ds->namespace_.toStdString();
    report.generatedAt = snapshot.clock.now;
    report.source = snapshot.backend.name.toStdString();
    report.ignoreServerNoise = ignoreServerNoise;

    std::set<QString> live;
    for (const RevisionInfo &r : *ds->revisions) {
        diff::HistoryRevision h;
        h.number = r.number;
        h.name = r.name.toStdString();
        h.hash = r.hash.toStdString();
        h.created = r.created;
        h.changeCause = r.changeCause.toStdString();
        h.imageSummary = r.imageSummary.toStdString();
        if (r.podTemplate)
            h.podTemplate = *r.podTemplate;
        h.current = r.current;
        h.pods = r.podCount;
        if (memory) {
            if (const RememberedRevision *m = memory->find(dsKey, r.name)) {
                for (qint64 n : m->previousNumbers)
                    h.previousNumbers.push_back(n);
            }
        }
        live.insert(r.name);
        report.revisions.push_back(std::move(h));
    }
    if (memory) {
        for (const RememberedRevision &m : memory->revisions(dsKey)) {
            if (live.count(m.name) || !m.removed)
                continue;
            diff::HistoryRevision h;
            h.number = m.number;
            h.name = m.name.toStdString();
            h.hash = m.hash.toStdString();
            h.created = m.created;
            h.changeCause = m.changeCause.toStdString();
            h.imageSummary = m.imageSummary.toStdString();
            if (m.podTemplate)
                h.podTemplate = *m.podTemplate;
            h.removed = true;
            for (qint64 n : m.previousNumbers)
                h.previousNumbers.push_back(n);
            report.revisions.push_back(std::move(h));
        }
    }

    if (ds->record) {
        for (const RolloutTiming &r : ds->record->rollouts) {
            diff::HistoryRollout h;
            h.fromRevision = r.fromRevision;
            h.toRevision = r.toRevision;
            h.fromHash = r.fromHash.toStdString();
            h.toHash = r.toHash.toStdString();
            h.started = r.started;
            h.completed = r.completed;
            h.supersededBy = r.supersededBy.toStdString();
            for (const NodeReplaceTiming &t : r.nodes)
                h.nodes.push_back({t.node.toStdString(), t.started, t.finished});
            report.rollouts.push_back(std::move(h));
        }
    }
    static const std::vector<ActionRecord> kNone;
    const std::vector<ActionRecord> &log = actions ? *actions : ds->record ? ds->record->actions : kNone;
    for (const ActionRecord &a : log) {
        diff::HistoryAction h;
        h.time = a.time;
        h.user = a.user.toStdString();
        h.action = actionKindName(a.kind).toStdString();
        h.target = a.target.toStdString();
        h.parameters = a.parameters.toStdString();
        h.ok = a.ok;
        h.outcome = a.outcome.toStdString();
        report.actions.push_back(std::move(h));
    }
    return report;
}

} // namespace models
