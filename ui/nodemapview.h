#pragma once
// The pod-to-revision map: one painted tile per node, grouped by zone, coloured by revision,
// outlined by pod state. It views any list model that answers the NodeMapModel roles
// (normally a NodeMapFilter over a NodeMapModel). Painting touches only the visible rows;
// the model's values and the tile layout are cached and refreshed by row on dataChanged, in
// full on structural changes or a resize, at most once per event-loop pass.

#include <QAbstractItemModel>
#include <QAbstractScrollArea>
#include <QHash>
#include <QPointer>

#include <vector>

namespace gui {

class NodeMapLegend;

class NodeMapView : public QAbstractScrollArea
{
    Q_OBJECT

public:
    explicit NodeMapView(QWidget *parent = nullptr);
    ~NodeMapView() override;

    void setModel(QAbstractItemModel *model);
    QAbstractItemModel *model() const { return m_model; }

    // Tiles of this revision get a highlight ring, the others are dimmed; -1 clears. A model
    // answering NodeMapModel::HighlightedRole (NodeMapFilter) highlights its tiles as well.
    void setHighlightedRevision(qint64 revisionNumber);
    qint64 highlightedRevision() const { return m_highlighted; }

    QString currentNode() const { return m_currentNode; }
    void setCurrentNode(const QString &node); // scrolls the tile into view

    // Tile edge length in logical pixels (default 16).
    void setTileSize(int size);
    int tileSize() const { return m_tileSize; }
    // Whether the tiles are drawn as cards with the node's name (few nodes, room to spare).
    bool labelledTiles() const
    {
        ensureLayout();
        return m_labelled;
    }
    QSize cellSize() const
    {
        ensureLayout();
        return {m_cellWidth, m_cellHeight};
    }

    // The tooltip of a node's tile (the model's Qt::ToolTipRole), empty for unknown nodes.
    QString tooltipFor(const QString &node) const;
    // Geometry in viewport coordinates at the current scroll position; empty when unknown.
    QRect tileRect(const QString &node) const;
    QString nodeAt(const QPoint &viewportPos) const;
    // Rows per zone as laid out, in display order: zone name and node count.
    QList<QPair<QString, int>> zones() const;

    NodeMapLegend *legend() const { return m_legend; }
    QSize sizeHint() const override;

signals:
    void currentNodeChanged(const QString &node);
    void nodeActivated(const QString &node);
    void highlightedRevisionChanged(qint64 revisionNumber);
    // A context menu for a node's tile: right click, the menu key or Shift+F10 on the current
    // tile; globalPos is where the menu goes (the pointer, or the tile's centre).
    void nodeContextMenuRequested(const QString &node, const QPoint &globalPos);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    struct Tile
    {
        QString node;
        QString zone;
        qint64 revision = -1;
        qint64 colorKey = -1; // RevisionPalette key (NodeMapModel::ColorKeyRole)
        QString hash;
        int state = 0;
        bool nodeReady = true;
        bool highlighted = false; // from the model's HighlightedRole
        bool cordoned = false;    // from the model's TileRole (NodeTile::cordoned)
    };
    struct Group
    {
        QString zone;
        int firstRow = 0;
        int count = 0;
        int top = 0;   // content y of the header
        int lines = 0; // tile lines
        std::vector<int> stateCounts;
        QString header; // painted header text (zone and counts)
    };

    void connectModel();
    void readRow(int row, Tile &tile) const;
    void markAllDirty();
    void scheduleRelayout();
    void ensureLayout() const;
    void rebuildData() const;
    void rebuildLayout() const;
    void rebuildCounts() const;
    void updateScrollBars();
    void updateLegendGeometry();
    void updateAccessibleDescription();

    int groupOfRow(int row) const;
    QRect contentRect(int row) const; // content coordinates
    int rowAtContent(const QPoint &p) const;
    int currentRow() const;
    void moveCurrentTo(int row);
    int rowAbove(int row) const;
    int rowBelow(int row) const;
    int headerHeight() const;
    int pitchX() const { return m_cellWidth + m_cellGap; }
    int pitchY() const { return m_cellHeight + m_cellGap; }
    // The content height of the groups laid out in cells of w x h with `gap` between them.
    int contentHeightFor(int w, int h, int gap) const;
    void chooseCells() const;

    QPointer<QAbstractItemModel> m_model;
    QList<QMetaObject::Connection> m_connections;
    NodeMapLegend *m_legend = nullptr;
    QString m_currentNode;
    qint64 m_highlighted = -1;
    int m_tileSize = 16;
    int m_gap = 4;
    bool m_relayoutScheduled = false;

    // Cache, refreshed lazily from const accessors as well as from painting.
    mutable std::vector<Tile> m_tiles;
    mutable QHash<QString, int> m_rowOfNode;
    mutable std::vector<Group> m_groups;
    mutable int m_columns = 1;
    // The cells the layout chose (see chooseCells): labelled cards showing the node name when
    // every node fits in the viewport that way, else squares from the tile size up to
    // kMaxFillTile grown to fill the viewport.
    mutable int m_cellWidth = 16;
    mutable int m_cellHeight = 16;
    mutable int m_cellGap = 4;
    mutable bool m_labelled = false;
    mutable int m_layoutHeight = -1;
    mutable int m_contentHeight = 0;
    mutable int m_layoutWidth = -1;
    mutable bool m_dataDirty = true;
    mutable bool m_layoutDirty = true;
    mutable bool m_countsDirty = true;
};

} // namespace gui
