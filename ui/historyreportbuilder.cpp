#include "ui/historyreportbuilder.h"

#include <QFileInfo>

#include <map>

namespace gui {

diff::HistoryReport buildHistoryReport(const models::ClusterSnapshot &snapshot,
                                       const models::DaemonSetInfo &ds,
                                       const std::vector<models::RememberedRevision> &remembered)
{
    diff::HistoryReport report;
    report.name = ds.name.toStdString();
    report.namespace_ = ds.namespace_.toStdString();
    report.generatedAt = snapshot.clock.now;
    if (snapshot.backend.kind == models::BackendKind::Embedded) {
        const QString path = snapshot.backend.scenarioPath;
        report.source = (QStringLiteral("scenario ") +
                         (path.isEmpty() ? snapshot.backend.name : QFileInfo(path).fileName()))
                            .toStdString();
    } else {
        report.source = (QStringLiteral("cluster ") + snapshot.backend.name).toStdString();
    }

    // Live revisions first, then what only the local memory still knows.
    std::map<QString, diff::HistoryRevision> byName;
    if (ds.revisions) {
        for (const auto &r : *ds.revisions) {
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
            byName.emplace(r.name, std::move(h));
        }
    }
    for (const auto &r : remembered) {
        auto it = byName.find(r.name);
        if (it != byName.end()) {
            for (qint64 n : r.previousNumbers)
                it->second.previousNumbers.push_back(n);
            continue;
        }
        diff::HistoryRevision h;
        h.number = r.number;
        h.name = r.name.toStdString();
        h.hash = r.hash.toStdString();
        h.created = r.created;
        h.changeCause = r.changeCause.toStdString();
        h.imageSummary = r.imageSummary.toStdString();
        if (r.podTemplate)
            h.podTemplate = *r.podTemplate;
        h.removed = true;
        for (qint64 n : r.previousNumbers)
            h.previousNumbers.push_back(n);
        byName.emplace(r.name, std::move(h));
    }
    for (auto &[name, h] : byName)
        report.revisions.push_back(std::move(h));

    if (ds.record) {
        for (const auto &t : ds.record->rollouts) {
            diff::HistoryRollout r;
            r.fromRevision = t.fromRevision;
            r.toRevision = t.toRevision;
            r.fromHash = t.fromHash.toStdString();
            r.toHash = t.toHash.toStdString();
            r.started = t.started;
            r.completed = t.completed;
            r.supersededBy = t.supersededBy.toStdString();
            for (const auto &n : t.nodes)
                r.nodes.push_back({n.node.toStdString(), n.started, n.finished});
            report.rollouts.push_back(std::move(r));
        }
        for (const auto &a : ds.record->actions) {
            diff::HistoryAction h;
            h.time = a.time;
            h.user = a.user.toStdString();
            h.action = models::actionKindName(a.kind).toStdString();
            h.target = a.target.toStdString();
            h.parameters = a.parameters.toStdString();
            h.ok = a.ok;
            h.outcome = a.outcome.toStdString();
            report.actions.push_back(std::move(h));
        }
    }
    return report;
}

} // namespace gui
