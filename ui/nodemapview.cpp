#include "ui/nodemapview.h"

#include "models/itemmodels/nodemapmodel.h"
#include "ui/nodemaplegend.h"
#include "ui/nodetilepainter.h"
#include "ui/revisionpalette.h"

#include <QAbstractItemModel>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <map>
#include <tuple>

namespace gui {

using models::NodeMapModel;
using PodState = models::NodeTile::PodState;

namespace {
constexpr int margin = 8;
constexpr int groupSpacing = 10;
constexpr std::size_t kMaxLabelledTiles = 2000; // cards with names only below this many nodes
constexpr int kMaxFillTile = 40;                // squares grow up to this to fill the pane
constexpr int labelGap = 6;
constexpr int stateCount = static_cast<int>(PodState::NotScheduled) + 1;
} // namespace

NodeMapView::NodeMapView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    setAccessibleName(tr("Node map"));
    setAccessibleDescription(tr("One tile per node, grouped by zone, coloured by the revision of its pod"));
    m_legend = new NodeMapLegend(this);
    connect(m_legend, &NodeMapLegend::revisionClicked, this,
            [this](qint64 revision) { setHighlightedRevision(revision == m_highlighted ? -1 : revision); });
    updateLegendGeometry();
}

NodeMapView::~NodeMapView() = default;

QSize NodeMapView::sizeHint() const
{
    return {640, 420};
}

void NodeMapView::setModel(QAbstractItemModel *model)
{
    if (model == m_model)
        return;
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_model = model;
    connectModel();
    markAllDirty();
}

void NodeMapView::connectModel()
{
    if (!m_model)
        return;
    auto all = [this] { markAllDirty(); };
    m_connections << connect(m_model, &QAbstractItemModel::modelReset, this, all);
    m_connections << connect(m_model, &QAbstractItemModel::layoutChanged, this, all);
    m_connections << connect(m_model, &QAbstractItemModel::rowsInserted, this, all);
    m_connections << connect(m_model, &QAbstractItemModel::rowsRemoved, this, all);
    m_connections << connect(m_model, &QAbstractItemModel::rowsMoved, this, all);
    m_connections << connect(m_model, &QObject::destroyed, this, all);
    m_connections << connect(
        m_model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex &tl, const QModelIndex &br, const QList<int> &roles) {
            if (m_dataDirty)
                return; // a full re-read is pending anyway
            const bool onlyHighlight = roles.size() == 1 && roles.front() == NodeMapModel::HighlightedRole;
            const int last = qMin(br.row(), static_cast<int>(m_tiles.size()) - 1);
            for (int r = qMax(0, tl.row()); r <= last; ++r) {
                Tile &t = m_tiles[static_cast<size_t>(r)];
                if (onlyHighlight) {
                    t.highlighted = m_model->index(r, 0).data(NodeMapModel::HighlightedRole).toBool();
                    continue;
                }
                const QString oldZone = t.zone;
                const QString oldNode = t.node;
                readRow(r, t);
                if (t.zone != oldZone)
                    m_layoutDirty = true;
                if (t.node != oldNode) {
                    m_rowOfNode.remove(oldNode);
                    m_rowOfNode.insert(t.node, r);
                }
            }
            m_countsDirty = true;
            scheduleRelayout();
        });
}

void NodeMapView::readRow(int row, Tile &tile) const
{
    const QModelIndex idx = m_model->index(row, 0);
    tile.node = idx.data(NodeMapModel::NodeNameRole).toString();
    tile.zone = idx.data(NodeMapModel::ZoneRole).toString();
    const QVariant rev = idx.data(NodeMapModel::RevisionNumberRole);
    tile.revision = rev.isValid() ? rev.toLongLong() : -1;
    const QVariant key = idx.data(NodeMapModel::ColorKeyRole);
    tile.colorKey = key.isValid() ? key.toLongLong() : tile.revision;
    tile.hash = idx.data(NodeMapModel::RevisionHashRole).toString();
    tile.state = qBound(0, idx.data(NodeMapModel::PodStateRole).toInt(), stateCount - 1);
    const QVariant ready = idx.data(NodeMapModel::NodeReadyRole);
    tile.nodeReady = !ready.isValid() || ready.toBool();
    tile.highlighted = idx.data(NodeMapModel::HighlightedRole).toBool();
    const QVariant whole = idx.data(NodeMapModel::TileRole);
    tile.cordoned = whole.isValid() && whole.value<models::NodeTile>().cordoned;
}

void NodeMapView::markAllDirty()
{
    m_dataDirty = true;
    m_layoutDirty = true;
    m_countsDirty = true;
    scheduleRelayout();
}

void NodeMapView::scheduleRelayout()
{
    viewport()->update();
    if (m_relayoutScheduled)
        return;
    m_relayoutScheduled = true;
    // Bursts of model signals (one dataChanged per changed run of rows) end in one relayout.
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_relayoutScheduled = false;
            // Always: a const accessor may have refreshed the cache already, but only this
            // path brings the scroll range and the accessible description up to date.
            ensureLayout();
            updateScrollBars();
            updateAccessibleDescription();
        },
        Qt::QueuedConnection);
}

void NodeMapView::ensureLayout() const
{
    if (m_layoutWidth != viewport()->width() || m_layoutHeight != viewport()->height())
        m_layoutDirty = true;
    if (m_dataDirty)
        rebuildData();
    if (m_layoutDirty)
        rebuildLayout();
    if (m_countsDirty)
        rebuildCounts();
}

void NodeMapView::rebuildData() const
{
    const int rows = m_model ? m_model->rowCount() : 0;
    m_tiles.assign(static_cast<size_t>(rows), Tile{});
    m_rowOfNode.clear();
    m_rowOfNode.reserve(rows);
    for (int r = 0; r < rows; ++r) {
        readRow(r, m_tiles[static_cast<size_t>(r)]);
        m_rowOfNode.insert(m_tiles[static_cast<size_t>(r)].node, r);
    }
    m_dataDirty = false;
    m_layoutDirty = true;
    m_countsDirty = true;
}

int NodeMapView::headerHeight() const
{
    return fontMetrics().height() + 10;
}

void NodeMapView::rebuildLayout() const
{
    m_layoutWidth = viewport()->width();
    m_layoutHeight = viewport()->height();
    m_groups.clear();
    // Groups are runs of equal zone in row order; NodeMapModel sorts by zone, so each zone is
    // one run. Another model's order is kept as it is.
    for (size_t r = 0; r < m_tiles.size(); ++r) {
        if (m_groups.empty() || m_groups.back().zone != m_tiles[r].zone) {
            Group g;
            g.zone = m_tiles[r].zone;
            g.firstRow = static_cast<int>(r);
            m_groups.push_back(std::move(g));
        }
        ++m_groups.back().count;
    }
    chooseCells();
    m_columns = qMax(1, (m_layoutWidth - 2 * margin + m_cellGap) / pitchX());
    int y = margin;
    const int h = headerHeight();
    for (auto &g : m_groups) {
        g.top = y;
        g.lines = (g.count + m_columns - 1) / m_columns;
        y += h + g.lines * pitchY() + groupSpacing;
    }
    m_contentHeight = m_groups.empty() ? 0 : y - groupSpacing + margin;
    m_layoutDirty = false;
    m_countsDirty = true;
}

int NodeMapView::contentHeightFor(int w, int h, int gap) const
{
    const int columns = qMax(1, (m_layoutWidth - 2 * margin + gap) / (w + gap));
    int y = margin;
    for (const auto &g : m_groups)
        y += headerHeight() + (g.count + columns - 1) / columns * (h + gap) + groupSpacing;
    return y - groupSpacing + margin;
}

void NodeMapView::chooseCells() const
{
    // A few nodes in a big pane: cards wide enough for the longest node name, when all of them
    // fit without scrolling. Measuring every name is bounded by kMaxLabelledTiles.
    const int available = m_layoutHeight;
    if (!m_tiles.empty() && m_tiles.size() <= kMaxLabelledTiles) {
        const QFontMetrics fm = fontMetrics();
        int longest = 0;
        for (const auto &t : m_tiles)
            longest = qMax(longest, fm.horizontalAdvance(t.node));
        const int w = qMax(longest + 2 * fm.averageCharWidth(), m_tileSize);
        const int h = qMax(fm.height() + fm.height() / 2 + 4, m_tileSize);
        if (contentHeightFor(w, h, labelGap) <= available && w + 2 * margin <= m_layoutWidth) {
            m_labelled = true;
            m_cellWidth = w;
            m_cellHeight = h;
            m_cellGap = labelGap;
            return;
        }
    }
    // Squares: the tile size, grown (up to kMaxFillTile) while everything still fits.
    m_labelled = false;
    int size = m_tileSize;
    for (int s = qMax(m_tileSize, kMaxFillTile); s > m_tileSize; s -= 2) {
        if (contentHeightFor(s, s, qMax(3, s / 4)) <= available) {
            size = s;
            break;
        }
    }
    m_cellWidth = m_cellHeight = size;
    m_cellGap = qMax(3, size / 4);
}

void NodeMapView::rebuildCounts() const
{
    const QLocale locale;
    for (auto &g : m_groups) {
        g.stateCounts.assign(stateCount, 0);
        for (int r = g.firstRow; r < g.firstRow + g.count; ++r)
            ++g.stateCounts[static_cast<size_t>(m_tiles[static_cast<size_t>(r)].state)];
        QStringList parts;
        parts << (g.zone.isEmpty() ? tr("(no zone)") : g.zone);
        parts << tr("%1 nodes").arg(locale.toString(g.count));
        for (int s = 0; s < stateCount; ++s) {
            if (g.stateCounts[static_cast<size_t>(s)] > 0)
                parts << QStringLiteral("%1 %2").arg(locale.toString(g.stateCounts[static_cast<size_t>(s)]),
                                                     NodeMapModel::stateName(static_cast<PodState>(s)));
        }
        g.header = parts.join(QStringLiteral("  ·  "));
    }
    std::map<qint64, NodeMapLegend::Entry> entries;
    for (const auto &t : m_tiles) {
        if (t.revision < 0)
            continue;
        auto &e = entries[t.revision];
        if (e.count == 0) {
            e.revisionNumber = t.revision;
            e.revisionHash = t.hash;
            e.colorKey = t.colorKey;
        }
        ++e.count;
    }
    std::vector<NodeMapLegend::Entry> list;
    for (auto &[rev, e] : entries)
        list.push_back(e);
    // The legend is a child widget: handing it new values does not change this view's state.
    const int before = m_legend->heightForWidth(m_legend->width());
    m_legend->setEntries(std::move(list));
    if (m_legend->heightForWidth(m_legend->width()) != before)
        QMetaObject::invokeMethod(const_cast<NodeMapView *>(this), &NodeMapView::updateLegendGeometry,
                                  Qt::QueuedConnection);
    m_countsDirty = false;
}

void NodeMapView::updateScrollBars()
{
    QScrollBar *bar = verticalScrollBar();
    const int page = viewport()->height();
    bar->setPageStep(page);
    bar->setSingleStep(pitchY());
    bar->setRange(0, qMax(0, m_contentHeight - page));
}

void NodeMapView::updateLegendGeometry()
{
    const QRect cr = contentsRect();
    const int h = m_legend->heightForWidth(cr.width());
    setViewportMargins(0, h, 0, 0);
    m_legend->setGeometry(cr.left(), cr.top(), cr.width(), h);
}

void NodeMapView::updateAccessibleDescription()
{
    const int row = currentRow();
    if (row < 0) {
        setAccessibleDescription(
            tr("%n nodes in %1 zones", nullptr, static_cast<int>(m_tiles.size())).arg(m_groups.size()));
        return;
    }
    const Tile &t = m_tiles[static_cast<size_t>(row)];
    const QString state = NodeMapModel::stateName(static_cast<PodState>(t.state));
    setAccessibleDescription(t.revision >= 0
                                 ? tr("Node %1, revision %2, %3").arg(t.node).arg(t.revision).arg(state)
                                 : tr("Node %1, %2").arg(t.node, state));
}

void NodeMapView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateLegendGeometry();
    ensureLayout();
    updateScrollBars();
}

void NodeMapView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void NodeMapView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::StyleChange) {
        m_layoutDirty = true; // header height follows the font
        updateLegendGeometry();
        scheduleRelayout();
    }
    QAbstractScrollArea::changeEvent(event);
}

void NodeMapView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    viewport()->update();
}

void NodeMapView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

void NodeMapView::setHighlightedRevision(qint64 revisionNumber)
{
    if (revisionNumber < 0)
        revisionNumber = -1;
    if (revisionNumber == m_highlighted)
        return;
    m_highlighted = revisionNumber;
    m_legend->setHighlightedRevision(revisionNumber);
    viewport()->update();
    emit highlightedRevisionChanged(revisionNumber);
}

void NodeMapView::setTileSize(int size)
{
    size = qBound(6, size, 64);
    if (size == m_tileSize)
        return;
    m_tileSize = size;
    m_gap = qMax(3, size / 4);
    m_layoutDirty = true;
    scheduleRelayout();
}

int NodeMapView::groupOfRow(int row) const
{
    auto it = std::upper_bound(m_groups.begin(), m_groups.end(), row,
                               [](int r, const Group &g) { return r < g.firstRow; });
    return static_cast<int>(it - m_groups.begin()) - 1;
}

QRect NodeMapView::contentRect(int row) const
{
    const int g = groupOfRow(row);
    if (g < 0)
        return {};
    const Group &group = m_groups[static_cast<size_t>(g)];
    const int i = row - group.firstRow;
    return {margin + (i % m_columns) * pitchX(), group.top + headerHeight() + (i / m_columns) * pitchY(),
            m_cellWidth, m_cellHeight};
}

int NodeMapView::rowAtContent(const QPoint &p) const
{
    auto it = std::upper_bound(m_groups.begin(), m_groups.end(), p.y(),
                               [](int y, const Group &g) { return y < g.top; });
    if (it == m_groups.begin())
        return -1;
    const Group &g = *(it - 1);
    const int ly = p.y() - g.top - headerHeight();
    const int lx = p.x() - margin;
    if (ly < 0 || lx < 0)
        return -1;
    const int line = ly / pitchY();
    const int col = lx / pitchX();
    if (ly % pitchY() >= m_cellHeight || lx % pitchX() >= m_cellWidth || col >= m_columns || line >= g.lines)
        return -1;
    const int i = line * m_columns + col;
    return i < g.count ? g.firstRow + i : -1;
}

QString NodeMapView::nodeAt(const QPoint &viewportPos) const
{
    ensureLayout();
    const int row = rowAtContent(viewportPos + QPoint(0, verticalScrollBar()->value()));
    return row < 0 ? QString() : m_tiles[static_cast<size_t>(row)].node;
}

QRect NodeMapView::tileRect(const QString &node) const
{
    ensureLayout();
    const int row = m_rowOfNode.value(node, -1);
    if (row < 0)
        return {};
    return contentRect(row).translated(0, -verticalScrollBar()->value());
}

QString NodeMapView::tooltipFor(const QString &node) const
{
    ensureLayout();
    const int row = m_rowOfNode.value(node, -1);
    if (row < 0 || !m_model)
        return {};
    const QString tip = m_model->index(row, 0).data(Qt::ToolTipRole).toString();
    return tip.isEmpty() ? node : tip;
}

QList<QPair<QString, int>> NodeMapView::zones() const
{
    ensureLayout();
    QList<QPair<QString, int>> out;
    for (const auto &g : m_groups)
        out.append({g.zone, g.count});
    return out;
}

int NodeMapView::currentRow() const
{
    if (m_currentNode.isEmpty())
        return -1;
    ensureLayout();
    return m_rowOfNode.value(m_currentNode, -1);
}

void NodeMapView::setCurrentNode(const QString &node)
{
    ensureLayout();
    const int row = m_rowOfNode.value(node, -1);
    if (row >= 0) {
        moveCurrentTo(row);
    } else if (node != m_currentNode) {
        m_currentNode = node;
        viewport()->update();
        emit currentNodeChanged(node);
    }
}

void NodeMapView::moveCurrentTo(int row)
{
    if (row < 0 || row >= static_cast<int>(m_tiles.size()))
        return;
    updateScrollBars(); // the range must be current before scrolling to the tile
    QRect r = contentRect(row);
    const int g = groupOfRow(row);
    if (g >= 0 && (row - m_groups[static_cast<size_t>(g)].firstRow) < m_columns)
        r.setTop(m_groups[static_cast<size_t>(g)].top); // first line: show the zone header too
    QScrollBar *bar = verticalScrollBar();
    const int h = viewport()->height();
    if (r.top() - margin < bar->value())
        bar->setValue(r.top() - margin);
    else if (r.bottom() + margin > bar->value() + h)
        bar->setValue(r.bottom() + margin - h + 1);

    const QString node = m_tiles[static_cast<size_t>(row)].node;
    if (node == m_currentNode)
        return;
    m_currentNode = node;
    viewport()->update();
    updateAccessibleDescription();
    emit currentNodeChanged(node);
}

int NodeMapView::rowAbove(int row) const
{
    const int g = groupOfRow(row);
    const Group &group = m_groups[static_cast<size_t>(g)];
    const int i = row - group.firstRow;
    if (i >= m_columns)
        return row - m_columns;
    if (g == 0)
        return row;
    const Group &prev = m_groups[static_cast<size_t>(g - 1)];
    const int lastLine = (prev.count - 1) / m_columns;
    return prev.firstRow + qMin(lastLine * m_columns + i, prev.count - 1);
}

int NodeMapView::rowBelow(int row) const
{
    const int g = groupOfRow(row);
    const Group &group = m_groups[static_cast<size_t>(g)];
    const int i = row - group.firstRow;
    const int line = i / m_columns;
    if (line + 1 < group.lines)
        return group.firstRow + qMin(i + m_columns, group.count - 1);
    if (g + 1 >= static_cast<int>(m_groups.size()))
        return row;
    const Group &next = m_groups[static_cast<size_t>(g + 1)];
    return next.firstRow + qMin(i % m_columns, next.count - 1);
}

void NodeMapView::keyPressEvent(QKeyEvent *event)
{
    // Shift+F10 opens the context menu as the menu key does (the platform sends only the latter).
    if (event->key() == Qt::Key_F10 && event->modifiers() == Qt::ShiftModifier) {
        QContextMenuEvent menu(QContextMenuEvent::Keyboard, QPoint(), QPoint());
        contextMenuEvent(&menu);
        return;
    }
    ensureLayout();
    const int rows = static_cast<int>(m_tiles.size());
    if (rows == 0) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    const int row = currentRow();
    int target = -1;
    switch (event->key()) {
    case Qt::Key_Left:
        target = row < 0 ? 0 : qMax(0, row - 1);
        break;
    case Qt::Key_Right:
        target = row < 0 ? 0 : qMin(rows - 1, row + 1);
        break;
    case Qt::Key_Up:
        target = row < 0 ? 0 : rowAbove(row);
        break;
    case Qt::Key_Down:
        target = row < 0 ? 0 : rowBelow(row);
        break;
    case Qt::Key_PageUp:
    case Qt::Key_PageDown: {
        target = row < 0 ? 0 : row;
        const int steps = qMax(1, viewport()->height() / pitchY() - 1);
        for (int k = 0; k < steps; ++k)
            target = event->key() == Qt::Key_PageUp ? rowAbove(target) : rowBelow(target);
        break;
    }
    case Qt::Key_Home:
        target = 0;
        break;
    case Qt::Key_End:
        target = rows - 1;
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (row >= 0) {
            emit nodeActivated(m_currentNode);
            event->accept();
            return;
        }
        break;
    default:
        break;
    }
    if (target < 0) {
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    moveCurrentTo(target);
    event->accept();
}

void NodeMapView::mousePressEvent(QMouseEvent *event)
{
    setFocus(Qt::MouseFocusReason);
    const QString node = nodeAt(event->position().toPoint());
    if (node.isEmpty()) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    moveCurrentTo(m_rowOfNode.value(node, -1));
    event->accept();
}

void NodeMapView::mouseReleaseEvent(QMouseEvent *event)
{
    // Presses on a tile were taken; their releases belong to this view as well.
    if (!nodeAt(event->position().toPoint()).isEmpty()) {
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseReleaseEvent(event);
}

void NodeMapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const QString node = nodeAt(event->position().toPoint());
    if (!node.isEmpty()) {
        moveCurrentTo(m_rowOfNode.value(node, -1));
        emit nodeActivated(node);
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseDoubleClickEvent(event);
}

bool NodeMapView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString node = nodeAt(help->pos());
        if (node.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), tooltipFor(node), viewport(), tileRect(node));
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void NodeMapView::paintEvent(QPaintEvent *event)
{
    ensureLayout();
    updateScrollBars();
    QPainter p(viewport());
    const QPalette pal = palette();
    const int scroll = verticalScrollBar()->value();
    const QRect visible = event->rect().translated(0, scroll);
    p.translate(0, -scroll);

    if (m_tiles.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRect(0, scroll, viewport()->width(), viewport()->height()), Qt::AlignCenter,
                   m_model ? tr("No nodes match") : tr("No nodes"));
        return;
    }

    bool anyModelHighlight = false;
    if (m_highlighted < 0) {
        anyModelHighlight =
            std::any_of(m_tiles.begin(), m_tiles.end(), [](const Tile &t) { return t.highlighted; });
    }
    const bool highlightActive = m_highlighted >= 0 || anyModelHighlight;
    const int currentRowIndex = m_rowOfNode.value(m_currentNode, -1);
    const bool focused = hasFocus();
    const int hh = headerHeight();
    QFont headerFont = font();
    headerFont.setBold(true);

    // Colours per revision once per frame, not per tile.
    QHash<qint64, QPair<QColor, QColor>> colours;
    auto coloursOf = [&](qint64 revision) {
        auto it = colours.find(revision);
        if (it == colours.end()) {
            const QColor fill = RevisionPalette::color(revision);
            it = colours.insert(revision, {fill, NodeTilePainter::outlineColor(fill, pal)});
        }
        return *it;
    };
    auto lookOf = [&](const Tile &t, bool current) {
        NodeTilePainter::Look look;
        std::tie(look.fill, look.outline) = coloursOf(t.colorKey);
        look.state = static_cast<PodState>(t.state);
        look.nodeReady = t.nodeReady;
        look.cordoned = t.cordoned;
        look.highlighted = t.highlighted || (m_highlighted >= 0 && t.revision == m_highlighted);
        look.dimmed = highlightActive && !look.highlighted;
        look.current = current;
        look.focused = focused;
        return look;
    };

    auto first = std::upper_bound(m_groups.begin(), m_groups.end(), visible.top(),
                                  [](int y, const Group &g) { return y < g.top; });
    if (first != m_groups.begin())
        --first;
    for (auto it = first; it != m_groups.end() && it->top <= visible.bottom(); ++it) {
        const Group &g = *it;
        const QRect header(margin, g.top, viewport()->width() - 2 * margin, hh);
        if (header.intersects(visible)) {
            p.setFont(headerFont);
            p.setPen(pal.color(QPalette::Text));
            const QString text = fontMetrics().elidedText(g.header, Qt::ElideRight, header.width());
            p.drawText(header.adjusted(0, 0, 0, -4), Qt::AlignLeft | Qt::AlignVCenter, text);
            p.setPen(QPen(pal.color(QPalette::Mid), 1));
            p.drawLine(QPointF(header.left(), header.bottom() - 2.5),
                       QPointF(header.right(), header.bottom() - 2.5));
        }
        p.setFont(font()); // node names on cards in the view's own font
        const int tilesTop = g.top + hh;
        const int firstLine = qMax(0, (visible.top() - tilesTop) / pitchY() - 1);
        const int lastLine = qMin(g.lines - 1, (visible.bottom() - tilesTop) / pitchY() + 1);
        for (int line = firstLine; line <= lastLine; ++line) {
            for (int col = 0; col < m_columns; ++col) {
                const int i = line * m_columns + col;
                if (i >= g.count)
                    break;
                const int row = g.firstRow + i;
                const QRect r(margin + col * pitchX(), tilesTop + line * pitchY(), m_cellWidth, m_cellHeight);
                const Tile &t = m_tiles[static_cast<size_t>(row)];
                NodeTilePainter::paint(&p, r, lookOf(t, false), pal);
                if (m_labelled)
                    NodeTilePainter::paintLabel(&p, r, t.node, lookOf(t, false), pal);
            }
        }
    }
    // The current tile last, so its focus ring lies above the neighbours.
    if (currentRowIndex >= 0) {
        const QRect r = contentRect(currentRowIndex);
        if (r.adjusted(-4, -4, 4, 4).intersects(visible)) {
            const Tile &t = m_tiles[static_cast<size_t>(currentRowIndex)];
            NodeTilePainter::paint(&p, r, lookOf(t, true), pal);
            if (m_labelled)
                NodeTilePainter::paintLabel(&p, r, t.node, lookOf(t, true), pal);
        }
    }
}

// ---- node context menu

void NodeMapView::contextMenuEvent(QContextMenuEvent *event)
{
    QString node;
    QPoint global;
    if (event->reason() == QContextMenuEvent::Mouse) {
        node = nodeAt(viewport()->mapFromGlobal(event->globalPos()));
        global = event->globalPos();
        if (!node.isEmpty() && node != m_currentNode)
            setCurrentNode(node);
    } else {
        node = m_currentNode;
        const QRect r = tileRect(node);
        global = viewport()->mapToGlobal(r.isEmpty() ? viewport()->rect().center() : r.center());
    }
    if (node.isEmpty()) {
        event->ignore();
        return;
    }
    event->accept();
    Q_EMIT nodeContextMenuRequested(node, global);
}

} // namespace gui
