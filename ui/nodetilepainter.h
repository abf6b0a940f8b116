#pragma once
// Paints one node tile: fill by revision colour, outline by pod state. Shared by the node map
// and its legend so the key shows exactly what the map draws.

#include "models/itemmodels/nodetile.h"

#include <QColor>
#include <QRect>
#include <QString>

class QPainter;
class QPalette;

namespace gui {

class NodeTilePainter
{
public:
    struct Look
    {
        QColor fill;    // revision colour; invalid when the node has no pod
        QColor outline; // outline of the fill; invalid: outlineColor(fill) (pass it to save work)
        models::NodeTile::PodState state = models::NodeTile::PodState::Missing;
        bool nodeReady = true;
        bool dimmed = false;      // another revision is highlighted
        bool highlighted = false; // this tile's revision is highlighted
        bool current = false;
        bool focused = false;  // the view has keyboard focus (current tile drawn strongly)
        bool cordoned = false; // the node is unschedulable: a "no entry" sign in a corner
    };

    // r is the tile in logical pixels; highlight and focus rings are drawn up to 2 px outside.
    static void paint(QPainter *p, const QRect &r, const Look &look, const QPalette &palette);

    // The node's name inside a tile drawn as a card (elided to fit), in the colour that reads
    // best on the tile's fill.
    static void paintLabel(QPainter *p, const QRect &r, const QString &text, const Look &look,
                           const QPalette &palette);

    static QColor outlineColor(const QColor &fill, const QPalette &palette);
    // Outline colour of "not ready" tiles and the not-ready node marker.
    static QColor alertColor(const QPalette &palette);
};

} // namespace gui
