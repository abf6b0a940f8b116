#include "ui/revisionpalette.h"

namespace gui {

QColor RevisionPalette::color(qint64 revisionNumber)
{
    static constexpr QRgb colors[size] = {
        0x4e79a7, // blue
        0xf28e2b, // orange
        0x59a14f, // green
        0xb07aa1, // purple
        0xedc948, // yellow
        0x76b7b2, // teal
        0x9c755f, // brown
        0xff9da7, // pink
        0x8ca252, // olive
        0x6b6ecf, // indigo
    };
    if (revisionNumber < 0)
        return {};
    // Revisions start at 1 in Kubernetes; revision 1 takes the first colour.
    const qint64 slot = ((revisionNumber - 1) % size + size) % size;
    return QColor::fromRgb(colors[slot]);
}

} // namespace gui
