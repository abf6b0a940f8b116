#include "ui/nodemaplegend.h"

#include "models/itemmodels/nodemapmodel.h"
#include "ui/nodetilepainter.h"
#include "ui/revisionpalette.h"

#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace gui {

using PodState = models::NodeTile::PodState;

namespace {
constexpr int margin = 6;
constexpr int itemGap = 14;
constexpr int textGap = 5;
} // namespace

NodeMapLegend::NodeMapLegend(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Node map legend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void NodeMapLegend::setEntries(std::vector<Entry> entries)
{
    if (entries == m_entries)
        return;
    m_entries = std::move(entries);
    QStringList parts;
    for (const auto &e : m_entries)
        parts << tr("revision %1: %n pods", nullptr, e.count).arg(e.revisionNumber);
    setAccessibleDescription(parts.join(QStringLiteral("; ")));
    updateGeometry();
    update();
}

void NodeMapLegend::setHighlightedRevision(qint64 revisionNumber)
{
    if (revisionNumber == m_highlighted)
        return;
    m_highlighted = revisionNumber;
    update();
}

QString NodeMapLegend::entryText(const Entry &entry)
{
    return tr("rev %1 · %2").arg(entry.revisionNumber).arg(QLocale().toString(entry.count));
}

int NodeMapLegend::swatchSize() const
{
    return qMax(10, fontMetrics().height() - 4);
}

std::vector<NodeMapLegend::Item> NodeMapLegend::layoutItems(int width, int *height) const
{
    std::vector<Item> items;
    for (const auto &e : m_entries) {
        Item it;
        it.revision = e.revisionNumber;
        it.colorKey = e.colorKey >= 0 ? e.colorKey : e.revisionNumber;
        it.text = entryText(e);
        it.toolTip = e.revisionHash.isEmpty()
                         ? tr("Revision %1: %n pods. Click to highlight its nodes.", nullptr, e.count)
                               .arg(e.revisionNumber)
                         : tr("Revision %1 (%2): %n pods. Click to highlight its nodes.", nullptr, e.count)
                               .arg(e.revisionNumber)
                               .arg(e.revisionHash);
        items.push_back(it);
    }
    const PodState states[] = {PodState::Ready,   PodState::NotReady, PodState::Terminating,
                               PodState::Missing, PodState::Surging,  PodState::NotScheduled};
    for (const auto s : states) {
        Item it;
        it.state = static_cast<int>(s);
        it.text = models::NodeMapModel::stateName(s);
        items.push_back(it);
    }
    Item marker;
    marker.state = -2;
    marker.text = tr("node not ready");
    items.push_back(marker);
    Item cordoned;
    cordoned.state = -3;
    cordoned.text = tr("cordoned");
    items.push_back(cordoned);

    const QFontMetrics fm = fontMetrics();
    // Revision entries are measured bold: the highlighted one is painted bold.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    const int lineHeight = qMax(fm.height(), swatchSize()) + 4;
    int x = margin;
    int y = margin;
    for (auto &it : items) {
        const int w =
            swatchSize() + textGap + (it.revision >= 0 ? boldMetrics : fm).horizontalAdvance(it.text);
        if (x > margin && x + w > width - margin) {
            x = margin;
            y += lineHeight;
        }
        it.rect = QRect(x, y, w, lineHeight);
        x += w + itemGap;
    }
    if (height)
        *height = y + lineHeight + margin;
    return items;
}

int NodeMapLegend::heightForWidth(int width) const
{
    int h = 0;
    layoutItems(width, &h);
    return h;
}

QSize NodeMapLegend::sizeHint() const
{
    const int w = qMax(width(), 200);
    return {w, heightForWidth(w)};
}

QSize NodeMapLegend::minimumSizeHint() const
{
    return {100, heightForWidth(100)};
}

void NodeMapLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    // State swatches are grey: halfway between the window and its text reads on light and dark
    // palettes alike (QPalette::Mid is nearly the window colour on a dark one).
    const QColor window = pal.color(QPalette::Window);
    const QColor text = pal.color(QPalette::WindowText);
    const QColor neutral = QColor::fromRgbF(window.redF() * 0.55f + text.redF() * 0.45f,
                                            window.greenF() * 0.55f + text.greenF() * 0.45f,
                                            window.blueF() * 0.55f + text.blueF() * 0.45f);
    const int s = swatchSize();
    int h = 0;
    const auto items = layoutItems(width(), &h);
    for (const auto &it : items) {
        const QRect swatch(it.rect.left(), it.rect.top() + (it.rect.height() - s) / 2, s, s);
        NodeTilePainter::Look look;
        if (it.revision >= 0) {
            look.fill = RevisionPalette::color(it.colorKey);
            look.state = PodState::Ready;
            look.highlighted = it.revision == m_highlighted;
        } else if (it.state == -2) {
            look.fill = neutral;
            look.state = PodState::Ready;
            look.nodeReady = false;
        } else if (it.state == -3) {
            look.fill = neutral;
            look.state = PodState::Ready;
            look.cordoned = true;
        } else {
            look.fill = neutral;
            look.state = static_cast<PodState>(it.state);
        }
        NodeTilePainter::paint(&p, swatch, look, pal);
        p.setPen(pal.color(QPalette::WindowText));
        QFont f = font();
        f.setBold(it.revision >= 0 && it.revision == m_highlighted);
        p.setFont(f);
        p.drawText(QRect(swatch.right() + 1 + textGap, it.rect.top(), it.rect.width() - s - textGap,
                         it.rect.height()),
                   Qt::AlignVCenter | Qt::AlignLeft, it.text);
    }
}

void NodeMapLegend::mousePressEvent(QMouseEvent *event)
{
    const auto items = layoutItems(width(), nullptr);
    for (const auto &it : items) {
        if (it.revision >= 0 && it.rect.contains(event->position().toPoint())) {
            emit revisionClicked(it.revision);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

bool NodeMapLegend::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const auto items = layoutItems(width(), nullptr);
        for (const auto &it : items) {
            if (!it.toolTip.isEmpty() && it.rect.contains(help->pos())) {
                QToolTip::showText(help->globalPos(), it.toolTip, this, it.rect);
                return true;
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

} // namespace gui
