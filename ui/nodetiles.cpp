#include "ui/nodetiles.h"

#include "models/planners/nodelag.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace gui {

namespace {

bool matchesNodeSelector(const models::NodeInfo &node, const kube::Json &podTemplate)
{
    const auto spec = podTemplate.find("spec");
    if (spec == podTemplate.end() || !spec->is_object())
        return true;
    const auto selector = spec->find("nodeSelector");
    if (selector == spec->end() || !selector->is_object())
        return true;
    for (auto it = selector->begin(); it != selector->end(); ++it) {
        if (!it.value().is_string())
            continue;
        const auto label = node.labels.find(QString::fromStdString(it.key()));
        if (label == node.labels.end() ||
            label->second != QString::fromStdString(it.value().get<std::string>()))
            return false;
    }
    return true;
}

} // namespace

std::vector<models::NodeTile> buildNodeTiles(const models::ClusterSnapshot &snapshot,
                                             const models::DaemonSetInfo &daemonSet)
{
    std::vector<models::NodeTile> tiles;
    if (!snapshot.nodes)
        return tiles;

    QHash<QString, qint64> numberOfHash;
    if (daemonSet.revisions) {
        for (const auto &r : *daemonSet.revisions)
            numberOfHash.insert(r.hash, r.number);
    }
    // Pods in node order (a surge leaves two pods on one node for a while), walked alongside
    // the nodes, which are sorted by name: one sort instead of a container per node.
    const std::vector<const models::PodInfo *> byNode =
        daemonSet.pods ? models::podsInNodeOrder(*daemonSet.pods) : std::vector<const models::PodInfo *>{};
    const models::PodWarnings warnings(snapshot.events.get());
    models::LagInputs lagInputs;
    lagInputs.daemonSet = &daemonSet;
    lagInputs.warnings = &warnings;
    lagInputs.now = snapshot.clock.now;
    int nodesWithPods = 0;               // of the nodes that exist
    std::vector<std::size_t> withoutPod; // tiles decided once nodesWithPods is known

    tiles.reserve(snapshot.nodes->size());
    auto nextPod = byNode.cbegin();
    std::vector<const models::PodInfo *> pods;
    for (const auto &node : *snapshot.nodes) {
        models::NodeTile tile;
        tile.node = node.name;
        tile.zone = !node.zone.isEmpty() ? node.zone : node.pool;
        tile.labels = node.labelTexts; // made once per node change by the snapshot builder
        if (tile.labels.isEmpty())
            for (const auto &[k, v] : node.labels)
                tile.labels << (v.isEmpty() ? k : k + QLatin1Char('=') + v);
        tile.nodeReady = node.ready;
        tile.nodeConditions = node.conditions.isEmpty()
                                  ? (node.ready ? QStringLiteral("Ready") : QStringLiteral("NotReady"))
                                  : node.conditions;
        if (!node.fault.isEmpty())
            tile.nodeConditions +=
                QCoreApplication::translate("gui::NodeTiles", " — fault: %1").arg(node.fault);
        if (node.unschedulable)
            tile.nodeConditions += QStringLiteral(", SchedulingDisabled");
        tile.cordoned = node.unschedulable;

        while (nextPod != byNode.cend() && (*nextPod)->node < node.name)
            ++nextPod; // pods on nodes that are gone
        pods.clear();
        for (; nextPod != byNode.cend() && (*nextPod)->node == node.name; ++nextPod)
            pods.push_back(*nextPod);
        if (pods.empty()) {
            withoutPod.push_back(tiles.size());
            tiles.push_back(std::move(tile));
            continue;
        }
        ++nodesWithPods;
        // The newest pod stands for the node: during a surge that is the incoming revision.
        const models::PodInfo *pod =
            *std::max_element(pods.begin(), pods.end(), [](const auto *a, const auto *b) {
                return std::tie(a->created, a->name) < std::tie(b->created, b->name);
            });
        tile.podName = pod->name;
        tile.revisionHash = pod->hash;
        tile.revisionNumber = numberOfHash.value(pod->hash, -1);
        tile.podCreatedMs = pod->created;
        const auto live = std::count_if(pods.begin(), pods.end(), [](const auto *p) { return !p->deleting; });
        if (live >= 2)
            tile.podState = models::NodeTile::PodState::Surging;
        else if (pod->deleting)
            tile.podState = models::NodeTile::PodState::Terminating;
        else if (pod->ready)
            tile.podState = models::NodeTile::PodState::Ready;
        else
            tile.podState = models::NodeTile::PodState::NotReady;
        lagInputs.node = &node;
        lagInputs.pod = pod;
        lagInputs.podsOnNode = static_cast<int>(live);
        lagInputs.targeted = true;
        const models::NodeLag lag = models::classifyLag(lagInputs);
        tile.lag = lag.cause;
        tile.lagDetail = lag.detail;
        tiles.push_back(std::move(tile));
    }
    const bool shortOfPods = daemonSet.counts.desired > nodesWithPods;
    for (std::size_t i : withoutPod) {
        const bool targeted =
            shortOfPods && matchesNodeSelector((*snapshot.nodes)[i], *daemonSet.podTemplate);
        tiles[i].podState =
            targeted ? models::NodeTile::PodState::Missing : models::NodeTile::PodState::NotScheduled;
        lagInputs.node = &(*snapshot.nodes)[i];
        lagInputs.pod = nullptr;
        lagInputs.podsOnNode = 0;
        lagInputs.targeted = targeted;
        const models::NodeLag lag = models::classifyLag(lagInputs);
        tiles[i].lag = lag.cause;
        tiles[i].lagDetail = lag.detail;
    }
    return tiles;
}

} // namespace gui
