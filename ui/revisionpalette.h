#pragma once
// Colours of revisions, shared by every view that shows them (node map, legend, timeline), so
// revision 3 has the same colour everywhere. Stable by revision number; consecutive numbers
// get clearly different hues; no red (red means "not ready") and no grey (grey means "no pod").
// The hues are mid-tone so they read on light and dark palettes alike.

#include <QColor>

namespace gui {

class RevisionPalette
{
public:
    static constexpr int size = 10;
    // revisionNumber < 0 (no pod) gives an invalid QColor.
    static QColor color(qint64 revisionNumber);
};

} // namespace gui
