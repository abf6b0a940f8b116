#pragma once
// Theme — applies the appearance chosen in View → Theme: System leaves the desktop's style and
// palette; Light and Dark use the Fusion style (which follows the palette everywhere, unlike
// some desktop styles) with a light or a dark palette. Applied live to the whole application.

#include "models/settings/appsettings.h"

#include <QIcon>
#include <QPalette>
#include <QStyle>

namespace gui {

class Theme
{
public:
    static void apply(models::AppSettings::Theme theme);
    static models::AppSettings::Theme current();
    static QPalette darkPalette();
    // Whether the palette in use is dark (text lighter than the window), whatever chose it.
    static bool isDark();
    // Text that reports an error, readable on the window colour of either palette (about 5:1 on
    // both): red 0xc62828 on light, 0xff6b6b on dark.
    static QColor errorColor();
    // The style's standard icon for `widget`, readable on its palette: on a dark palette a grey
    // glyph (Fusion's media icons are dark grey, invisible on a dark toolbar) is redrawn in the
    // palette's button text colour; coloured icons (arrows, folders, warnings) stay as they are.
    static QIcon standardIcon(QStyle::StandardPixmap which, const QWidget *widget);
    // `icon` with grey glyphs recoloured to `glyph`, when it has no colour of its own.
    static QIcon tintedIfGrey(const QIcon &icon, const QColor &glyph);
};

} // namespace gui
