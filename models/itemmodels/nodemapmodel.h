#pragma once
// The pod-to-revision map as a list model: one row per node, sorted by zone then node name.
// setTiles() takes the whole picture and applies only the difference (rows removed, rows
// inserted, dataChanged for tiles whose values changed), so views keep their current item
// and scroll position; a routine update of a 5,000-node cluster is one hash lookup and one
// comparison per node, with no sorting.

#include "models/itemmodels/nodetile.h"

#include <QAbstractListModel>
#include <QHash>

#include <vector>

namespace models {

class NodeMapModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        NodeNameRole = Qt::UserRole + 1, // QString (also Qt::DisplayRole)
        ZoneRole,                        // QString
        LabelsRole,                      // QStringList "key=value"
        PodNameRole,                     // QString
        RevisionHashRole,                // QString
        RevisionNumberRole,              // qint64, -1 without pod
        PodStateRole,                    // int (NodeTile::PodState)
        PodCreatedRole,                  // qint64 ms since epoch
        NodeConditionsRole,              // QString
        NodeReadyRole,                   // bool
        HighlightedRole,                 // bool; answered by NodeMapFilter, false here
        TileRole,                        // NodeTile
        LagCauseRole,                    // int (NodeTile::LagCause), 0 when not behind
        LagDetailRole,                   // QString: the evidence of the cause
        ColorKeyRole,                    // qint64: NodeTile::colorKey (revision number when unset)
    };
    Q_ENUM(Role)

    // One entry of the legend: how many pods run a revision.
    struct RevisionCount
    {
        qint64 revisionNumber = -1;
        QString revisionHash;
        qint64 colorKey = -1; // NodeTile::colorKey of its tiles (the revision number when unset)
        int count = 0;
        bool operator==(const RevisionCount &) const = default;
    };

    explicit NodeMapModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Replaces the picture. Tiles are keyed by node name (a duplicate name keeps its first
    // tile); a node whose zone changed moves to its new group (remove + insert).
    void setTiles(std::vector<NodeTile> tiles);
    const NodeTile &tile(int row) const { return m_tiles[static_cast<size_t>(row)]; }
    int rowOfNode(const QString &node) const; // -1 when absent

    // Pods per revision (tiles with revisionNumber >= 0), ascending by revision number.
    const std::vector<RevisionCount> &revisionCounts() const { return m_counts; }
    int countForRevision(qint64 revisionNumber) const;

    // Nodes behind per cause (LagCause::None left out), in the enum's order.
    struct LagCount
    {
        NodeTile::LagCause cause = NodeTile::LagCause::None;
        int count = 0;
        bool operator==(const LagCount &) const = default;
    };
    const std::vector<LagCount> &lagCounts() const { return m_lagCounts; }

    // "Now" for ages in tooltips: the virtual clock of a simulation, or 0 for the wall clock.
    void setReferenceTime(qint64 msSinceEpoch);
    qint64 referenceTime() const { return m_referenceTime; }

    // Tooltip text of one tile: node, pod, revision and hash, pod age, node conditions, and why
    // the node is behind.
    QString toolTip(const NodeTile &tile) const;
    static QString stateName(NodeTile::PodState state);

signals:
    void revisionCountsChanged();
    void lagCountsChanged();

private:
    // setTiles' steps: a tile per node, the rows that go, the rows that come (`sourceOfRow`:
    // per row, its tile's index in `tiles`, or -1), the rows whose values changed.
    static std::vector<NodeTile> uniqueByNode(std::vector<NodeTile> tiles);
    bool dropGoneRows(std::vector<int> &sourceOfRow);
    void insertFreshRows(std::vector<NodeTile> &tiles, std::vector<int> fresh, std::vector<int> &sourceOfRow);
    void updateKeptRows(std::vector<NodeTile> &tiles, std::vector<int> &sourceOfRow);
    void rebuildIndex();
    void recount();

    std::vector<NodeTile> m_tiles;
    std::vector<QString> m_keys; // sort key per row (zone, node in natural order)
    QHash<QString, int> m_rowOfNode;
    std::vector<RevisionCount> m_counts;
    std::vector<LagCount> m_lagCounts;
    qint64 m_referenceTime = 0;
};

} // namespace models
