#include "ui/nodetiles.h"

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
    // Pods by node; a surge leaves two pods on one node for a while.
    QHash<QString, std::vector<const models::PodInfo *>> podsOfNode;
    int nodesWithPods = 0;
    if (daemonSet.pods) {
        for (const auto &p : *daemonSet.pods) {
            auto &list = podsOfNode[p.node];
            if (list.empty())
                ++nodesWithPods;
            list.push_back(&p);
        }
    }
    const bool shortOfPods = daemonSet.counts.desired > nodesWithPods;

    tiles.reserve(snapshot.nodes->size());
    for (const auto &node : *snapshot.nodes) {
        models::NodeTile tile;
        tile.node = node.name;
        tile.zone = !node.zone.isEmpty() ? node.zone : node.pool;
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

        const auto it = podsOfNode.constFind(node.name);
        if (it == podsOfNode.constEnd() || it->empty()) {
            tile.podState = shortOfPods && matchesNodeSelector(node, *daemonSet.podTemplate)
                                ? models::NodeTile::PodState::Missing
                                : models::NodeTile::PodState::NotScheduled;
            tiles.push_back(std::move(tile));
            continue;
        }
        // The newest pod stands for the node: during a surge that is the incoming revision.
        const auto &pods = *it;
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
        tiles.push_back(std::move(tile));
    }
    return tiles;
}

} // namespace gui
