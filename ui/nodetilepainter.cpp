#include "ui/nodetilepainter.h"

#include <QPainter>
#include <QPalette>

namespace gui {

using PodState = models::NodeTile::PodState;

namespace {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

// A colour between a and b; t = 0 gives a.
QColor mix(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

// Outlines are filled rectangles, not pen strokes: a tile map paints thousands of them, and
// filling is far cheaper than QPainter's stroker (dashes, joins), stays crisp at any device
// pixel ratio and lies exactly inside r.
void frame(QPainter *p, const QRectF &r, qreal w, const QColor &c)
{
    p->fillRect(QRectF(r.left(), r.top(), r.width(), w), c);
    p->fillRect(QRectF(r.left(), r.bottom() - w, r.width(), w), c);
    p->fillRect(QRectF(r.left(), r.top() + w, w, r.height() - 2 * w), c);
    p->fillRect(QRectF(r.right() - w, r.top() + w, w, r.height() - 2 * w), c);
}

// A frame of dashes along each edge, starting with a dash at every corner.
void dashedFrame(QPainter *p, const QRectF &r, qreal w, const QColor &c, qreal dash, qreal gap)
{
    const qreal step = dash + gap;
    for (qreal x = r.left(); x < r.right(); x += step) {
        const qreal len = qMin(dash, r.right() - x);
        p->fillRect(QRectF(x, r.top(), len, w), c);
        p->fillRect(QRectF(x, r.bottom() - w, len, w), c);
    }
    for (qreal y = r.top() + w; y < r.bottom() - w; y += step) {
        const qreal len = qMin(dash, r.bottom() - w - y);
        p->fillRect(QRectF(r.left(), y, w, len), c);
        p->fillRect(QRectF(r.right() - w, y, w, len), c);
    }
}

} // namespace

void NodeTilePainter::paintLabel(QPainter *p, const QRect &r, const QString &text, const Look &look,
                                 const QPalette &palette)
{
    const bool filled = look.state != PodState::Missing && look.state != PodState::NotScheduled;
    const QColor behind = filled && look.fill.isValid() ? look.fill : palette.color(QPalette::Base);
    // Black or white, whichever contrasts more with the fill (relative luminance).
    const qreal luminance = 0.2126 * behind.redF() + 0.7152 * behind.greenF() + 0.0722 * behind.blueF();
    QColor ink = luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
    if (look.dimmed)
        ink.setAlphaF(0.45);
    p->save();
    p->setPen(ink);
    const QRect area = r.adjusted(4, 1, -4, -1);
    p->drawText(area, Qt::AlignCenter, p->fontMetrics().elidedText(text, Qt::ElideMiddle, area.width()));
    p->restore();
}

QColor NodeTilePainter::outlineColor(const QColor &fill, const QPalette &palette)
{
    if (!fill.isValid())
        return palette.color(QPalette::Mid);
    return isDark(palette) ? fill.lighter(150) : fill.darker(150);
}

QColor NodeTilePainter::alertColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x5c, 0x5c) : QColor(0xd0, 0x1c, 0x1c);
}

void NodeTilePainter::paint(QPainter *p, const QRect &r, const Look &look, const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor outline = look.outline.isValid() ? look.outline : outlineColor(look.fill, palette);
    const QRectF rf(r);

    switch (look.state) {
    case PodState::Ready:
        p->fillRect(r, look.fill);
        frame(p, rf, 1, outline);
        break;
    case PodState::NotReady:
        p->fillRect(r, look.fill.isValid() ? look.fill : palette.color(QPalette::Mid));
        dashedFrame(p, rf, 2, alertColor(palette), 3, 1.5);
        break;
    case PodState::Terminating: {
        p->fillRect(r, look.fill.isValid() ? look.fill : palette.color(QPalette::Mid));
        // Hatching drawn as lines (not a pattern brush) so it scales with the device pixel ratio.
        p->save();
        p->setClipRect(r);
        p->setRenderHint(QPainter::Antialiasing, true);
        QColor hatch = mix(text, base, 0.15);
        hatch.setAlphaF(0.75);
        p->setPen(QPen(hatch, 1.2));
        const int step = qMax(4, r.width() / 3);
        for (int d = -r.height(); d < r.width(); d += step)
            p->drawLine(QPointF(r.left() + d, r.bottom() + 1),
                        QPointF(r.left() + d + r.height() + 1, r.top()));
        p->restore();
        frame(p, rf, 1, outline);
        break;
    }
    case PodState::Missing: {
        // The frame halfway between base and text: visible on light and dark palettes (Mid is
        // nearly the base colour on a dark one).
        p->fillRect(r, base);
        frame(p, rf, 1.5, mix(base, text, 0.5));
        break;
    }
    case PodState::Surging:
        p->fillRect(r, look.fill.isValid() ? look.fill : palette.color(QPalette::Mid));
        frame(p, rf, 1, text);
        frame(p, rf.adjusted(2.5, 2.5, -2.5, -2.5), 1, text);
        break;
    case PodState::NotScheduled: {
        p->fillRect(r, mix(base, text, 0.24));
        break;
    }
    }

    if (!look.nodeReady) {
        // A corner mark: the node itself is NotReady, whatever its pod says.
        p->save();
        p->setRenderHint(QPainter::Antialiasing, true);
        p->setPen(Qt::NoPen);
        p->setBrush(alertColor(palette));
        const qreal s = qMax(4.0, qMin(r.width(), r.height()) * 0.45);
        const QPointF tr(rf.right() + 1, rf.top());
        const QPointF pts[3] = {tr, tr - QPointF(s, 0), tr + QPointF(0, s)};
        p->drawPolygon(pts, 3);
        p->restore();
    }

    if (look.cordoned) {
        // A "no entry" sign in the bottom-left corner (the NotReady mark takes the top-right one):
        // closed for new pods. A ring in the window colour keeps it apart from any revision colour.
        p->save();
        p->setRenderHint(QPainter::Antialiasing, true);
        const qreal d = qMax(6.0, qMin(r.width(), r.height()) * 0.45);
        const QRectF sign(rf.left() + 0.5, rf.bottom() - d - 0.5, d, d);
        p->setPen(QPen(palette.color(QPalette::Window), 1));
        p->setBrush(alertColor(palette));
        p->drawEllipse(sign);
        p->setPen(Qt::NoPen);
        p->setBrush(Qt::white);
        const qreal barH = qMax(1.5, d * 0.2);
        p->drawRect(QRectF(sign.left() + d * 0.22, sign.center().y() - barH / 2, d * 0.56, barH));
        p->restore();
    }

    if (look.dimmed) {
        QColor veil = base;
        veil.setAlphaF(0.7);
        p->fillRect(r, veil);
    }
    if (look.highlighted)
        frame(p, rf.adjusted(-2, -2, 2, 2), 2, palette.color(QPalette::Highlight));
    if (look.current) {
        if (look.focused)
            frame(p, rf.adjusted(-3, -3, 3, 3), 2, text);
        else
            dashedFrame(p, rf.adjusted(-3, -3, 3, 3), 1.5, palette.color(QPalette::Mid), 2, 2);
    }
}

} // namespace gui
