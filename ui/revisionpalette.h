#pragma once
// Colours of revisions, shared by every view that shows them (node map, legend, timeline), so
// revision 3 has the same colour everywhere. Keyed by the number a revision's template was
// first seen with (RevisionMemory::colorKey), so a rollback that renumbers a revision does not
// recolour its pods; consecutive keys get clearly different hues; no red (red means "not
// ready") and no grey (grey means "no pod"). The hues are mid-tone so they read on light and dark palettes
// alike.

#include <QColor>

namespace gui {

class RevisionPalette
{
public:
    static constexpr int size = 10;
    // key < 0 (no pod) gives an invalid QColor.
    static QColor color(qint64 key);
};

} // namespace gui
