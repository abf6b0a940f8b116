#pragma once
// The Nodes tab of a DaemonSet page: the pod-to-revision map with its legend, a search line
// (node name or key=value label), a filter by pod state or by why a node is behind, a line
// counting the nodes behind per cause (each count a link that filters the map to them), and a
// line describing the current node.

#include "models/itemmodels/nodetile.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace models {
class NodeMapFilter;
class NodeMapModel;
} // namespace models

namespace gui {

class NodeMapView;

class NodesTab : public QWidget
{
    Q_OBJECT

public:
    explicit NodesTab(QWidget *parent = nullptr);

    // referenceTime: "now" for pod ages (the virtual clock), 0 for the wall clock.
    void setTiles(std::vector<models::NodeTile> tiles, qint64 referenceTime);
    // Moves "now" on for ages without rebuilding the tiles.
    void setReferenceTime(qint64 referenceTime);
    void setHighlightedRevision(qint64 revisionNumber); // -1 clears

    NodeMapView *mapView() const { return m_view; }
    models::NodeMapModel *model() const { return m_model; }
    models::NodeMapFilter *filter() const { return m_filter; }
    QLineEdit *searchEdit() const { return m_search; }
    QComboBox *stateCombo() const { return m_states; }
    QLabel *behindLabel() const { return m_behind; }
    // Shows only the nodes behind for `cause` (LagCause::None: every node), as the state
    // filter's matching entry does.
    void filterByLag(models::NodeTile::LagCause cause);
    QString currentNode() const;

signals:
    void highlightedRevisionChanged(qint64 revisionNumber);
    void nodeActivated(const QString &node);
    // The map's context menu request for a tile or card (NodeMapView::nodeContextMenuRequested).
    void nodeContextMenuRequested(const QString &node, const QPoint &globalPos);

private:
    void applyStateFilter();
    void updateNodeDetails();
    void updateCountLabel();
    void updateBehindLabel();

    models::NodeMapModel *m_model = nullptr;
    models::NodeMapFilter *m_filter = nullptr;
    NodeMapView *m_view = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_states = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_behind = nullptr;
    QLabel *m_details = nullptr;
};

} // namespace gui
