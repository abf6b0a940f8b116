#pragma once
// Hand-built snapshots for model tests: a DaemonSet with revisions and pods, an event list.

#include "models/snapshot/snapshot.h"

#include <memory>

namespace testing {

inline kube::Json podTemplate(const std::string &image)
{
    return kube::Json{{"metadata", {{"labels", {{"app", "web"}}}}},
                      {"spec", {{"containers", kube::Json::array({{{"name", "web"}, {"image", image}}})}}}};
}

struct RevSpec
{
    QString name;
    qint64 number;
    std::string image;
};

inline models::DaemonSetInfo daemonSet(const QString &ns, const QString &name, std::vector<RevSpec> revs,
                                       const QString &current, int nodes)
{
    models::DaemonSetInfo ds;
    ds.key = ns + QLatin1Char('/') + name;
    ds.namespace_ = ns;
    ds.name = name;
    ds.uid = ds.key + QStringLiteral("-uid");
    ds.generation = ds.observedGeneration = 1;
    ds.strategyType = QStringLiteral("RollingUpdate");
    ds.maxUnavailable = QStringLiteral("1");
    ds.maxSurge = QStringLiteral("0");
    ds.counts = {nodes, nodes, nodes, nodes, nodes, 0, 0};
    ds.badge = models::RolloutBadge::Complete;
    auto revisions = std::make_shared<std::vector<models::RevisionInfo>>();
    auto pods = std::make_shared<std::vector<models::PodInfo>>();
    for (const auto &r : revs) {
        models::RevisionInfo info;
        info.name = r.name;
        info.hash = r.name.section(QLatin1Char('-'), -1);
        info.number = r.number;
        info.created = 1000 * r.number;
        info.imageSummary = QString::fromStdString(r.image);
        info.podTemplate = std::make_shared<const kube::Json>(podTemplate(r.image));
        info.current = r.name == current;
        if (info.current) {
            info.podCount = nodes;
            ds.podTemplate = info.podTemplate;
            ds.currentRevisionName = info.name;
            ds.currentRevisionHash = info.hash;
            ds.currentRevisionNumber = info.number;
            for (int i = 0; i < nodes; ++i) {
                models::PodInfo p;
                p.name = name + QStringLiteral("-pod%1").arg(i);
                p.node = QStringLiteral("node-%1").arg(i);
                p.hash = info.hash;
                p.ready = true;
                p.phase = QStringLiteral("Running");
                pods->push_back(p);
            }
        }
        revisions->push_back(info);
    }
    std::sort(revisions->begin(), revisions->end(),
              [](const auto &a, const auto &b) { return a.number < b.number; });
    if (!ds.podTemplate)
        ds.podTemplate = std::make_shared<const kube::Json>(kube::Json::object());
    ds.revisions = revisions;
    ds.pods = pods;
    ds.record = std::make_shared<const models::DaemonSetRecord>();
    return ds;
}

inline std::shared_ptr<models::ClusterSnapshot> snapshot(std::vector<models::DaemonSetInfo> daemonSets,
                                                         qint64 now = 100000)
{
    auto s = std::make_shared<models::ClusterSnapshot>(*models::ClusterSnapshot::empty());
    s->backend.name = QStringLiteral("embedded: test");
    s->backend.connected = true;
    s->clock.now = now;
    std::sort(daemonSets.begin(), daemonSets.end(),
              [](const auto &a, const auto &b) { return a.key < b.key; });
    for (const auto &d : daemonSets) {
        if (!s->namespaces.contains(d.namespace_))
            s->namespaces.append(d.namespace_);
    }
    s->namespaces.sort();
    s->daemonSets = std::move(daemonSets);
    return s;
}

inline models::EventInfo event(const QString &key, qint64 time, const QString &ds, const QString &reason,
                               int count = 1)
{
    models::EventInfo e;
    e.key = key;
    e.time = e.firstTime = time;
    e.daemonSetKey = ds;
    e.object = QStringLiteral("daemonset/") + ds;
    e.type =
        reason.startsWith(QLatin1String("Failed")) ? QStringLiteral("Warning") : QStringLiteral("Normal");
    e.reason = reason;
    e.message = reason + QStringLiteral(" message");
    e.count = count;
    return e;
}

} // namespace testing
