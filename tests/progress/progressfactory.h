#pragma once
// Hand-built rollouts for the progress tests: a DaemonSet on node-1..node-N whose pods are
// described per node by a few letters, so a table row reads like the node map.
//
//   O old pod available      o old pod not ready      t old pod terminating
//   N new pod available      n new pod not ready      - no pod on the node
//
// "N n t O O" is five nodes: node-1 updated, node-2 starting its new pod, node-3 waiting for its
// old pod to go, node-4 and node-5 not started. Counts (desired, updated, available,
// unavailable) are derived from the pods as the controller's status would be.

#include "models/snapshot/snapshot.h"

#include <QStringList>

#include <memory>

namespace progress {

constexpr qint64 kNow = 1767225600000; // 2026-01-01T00:00:00Z
const QString kKey = QStringLiteral("logging/fluent-bit");
const QString kOldHash = QStringLiteral("6d8f9c7b5");
const QString kNewHash = QStringLiteral("7c9b8d6f4");

struct RolloutSpec
{
    QString nodes; // per node letters, space separated
    QString strategy = QStringLiteral("RollingUpdate");
    QString maxUnavailable = QStringLiteral("1");
    QString maxSurge = QStringLiteral("0");
    bool paused = false;
    QStringList notReadyNodes; // NodeInfo.ready = false
    QString waitingReason;     // of every not-ready new pod
    int restarts = 0;          // of every not-ready new pod
    QString newImage = QStringLiteral("fluent-bit:3.0");
    qint64 rolloutAgo = 0; // ms since the rollout started and last progressed; 0 = no rollout
    qint64 meanNodeMs = 0; // observed per-node replace time; 0 = none finished
    qint64 generation = 2;
    qint64 observedGeneration = 2;
    qint64 now = kNow;
};

inline QString nodeName(int i)
{
    return QStringLiteral("node-%1").arg(i + 1);
}

inline std::shared_ptr<models::ClusterSnapshot> rolloutSnapshot(const RolloutSpec &spec)
{
    auto snap = std::make_shared<models::ClusterSnapshot>(*models::ClusterSnapshot::empty());
    snap->clock.now = spec.now;
    snap->namespaces = QStringList{QStringLiteral("logging")};

    models::DaemonSetInfo ds;
    ds.key = kKey;
    ds.namespace_ = QStringLiteral("logging");
    ds.name = QStringLiteral("fluent-bit");
    ds.uid = QStringLiteral("uid-1");
    ds.generation = spec.generation;
    ds.observedGeneration = spec.observedGeneration;
    ds.strategyType = spec.paused ? QStringLiteral("OnDelete") : spec.strategy;
    if (ds.strategyType == QLatin1String("RollingUpdate")) {
        ds.maxUnavailable = spec.maxUnavailable;
        ds.maxSurge = spec.maxSurge;
    }
    ds.paused = spec.paused;
    ds.podTemplate = std::make_shared<const kube::Json>(kube::Json::object());
    ds.currentRevisionHash = kNewHash;
    ds.currentRevisionNumber = 2;
    ds.currentRevisionName = QStringLiteral("fluent-bit-") + kNewHash;

    auto revisions = std::make_shared<std::vector<models::RevisionInfo>>();
    models::RevisionInfo r1;
    r1.name = QStringLiteral("fluent-bit-") + kOldHash;
    r1.hash = kOldHash;
    r1.number = 1;
    r1.created = spec.now - 3600000;
    r1.imageSummary = QStringLiteral("fluent-bit:2.2");
    r1.podTemplate = ds.podTemplate;
    models::RevisionInfo r2 = r1;
    r2.name = ds.currentRevisionName;
    r2.hash = kNewHash;
    r2.number = 2;
    r2.created = spec.now - spec.rolloutAgo;
    r2.imageSummary = spec.newImage;
    r2.current = true;
    revisions->push_back(r1);
    revisions->push_back(r2);
    ds.revisions = revisions;

    auto nodes = std::make_shared<std::vector<models::NodeInfo>>();
    auto pods = std::make_shared<std::vector<models::PodInfo>>();
    const QStringList perNode = spec.nodes.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    int updated = 0;
    int available = 0;
    for (int i = 0; i < perNode.size(); ++i) {
        models::NodeInfo node;
        node.name = nodeName(i);
        node.ready = !spec.notReadyNodes.contains(node.name);
        nodes->push_back(node);
        bool nodeUpdated = false;
        bool nodeAvailable = false;
        int k = 0;
        for (QChar c : perNode[i]) {
            if (c == QLatin1Char('-'))
                continue;
            models::PodInfo p;
            p.node = node.name;
            p.name = QStringLiteral("fluent-bit-%1%2").arg(i + 1).arg(QChar(QLatin1Char('a' + k++)));
            const bool isNew = c.toLower() == QLatin1Char('n');
            p.hash = isNew ? kNewHash : kOldHash;
            p.ready = c.isUpper();
            p.deleting = c == QLatin1Char('t');
            p.phase = QStringLiteral("Running");
            p.created = isNew ? spec.now - 10000 : spec.now - 3600000;
            p.readySince = p.ready ? p.created + 5000 : 0;
            if (isNew && !p.ready) {
                p.waitingReason = spec.waitingReason;
                p.restarts = spec.restarts;
            }
            nodeUpdated = nodeUpdated || (isNew && !p.deleting);
            nodeAvailable = nodeAvailable || (p.ready && !p.deleting);
            pods->push_back(p);
        }
        updated += nodeUpdated ? 1 : 0;
        available += nodeAvailable ? 1 : 0;
    }
    std::sort(pods->begin(), pods->end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    ds.pods = pods;
    const int desired = static_cast<int>(perNode.size());
    ds.counts = {desired, desired, updated, available, available, desired - available, 0};

    auto record = std::make_shared<models::DaemonSetRecord>();
    if (spec.rolloutAgo > 0) {
        models::RolloutTiming t;
        t.fromHash = kOldHash;
        t.toHash = kNewHash;
        t.fromRevision = 1;
        t.toRevision = 2;
        t.started = spec.now - spec.rolloutAgo;
        t.lastProgress = t.started;
        if (spec.meanNodeMs > 0) {
            // Two nodes replaced in meanNodeMs each, the last one finishing at the rollout start
            // (a test's "no progress since" is rolloutAgo).
            t.started -= 2 * spec.meanNodeMs;
            t.nodes.push_back({QStringLiteral("node-x"), t.started, t.started + spec.meanNodeMs});
            t.nodes.push_back({QStringLiteral("node-y"), t.started + spec.meanNodeMs, t.lastProgress});
        }
        record->rollouts.push_back(t);
    }
    ds.record = record;
    ds.badge = models::RolloutBadge::Progressing;

    snap->daemonSets.push_back(ds);
    snap->nodes = nodes;
    return snap;
}

} // namespace progress
