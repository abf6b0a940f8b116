#pragma once
// ThemeMenu — View → Theme: System, Light, Dark. The choice applies at once (Theme::apply) and is
// stored in the settings (AppSettings::theme) for the next start.

#include "models/settings/appsettings.h"

#include <QMenu>

class QActionGroup;

namespace gui {

class ThemeMenu : public QMenu
{
    Q_OBJECT

public:
    explicit ThemeMenu(QWidget *parent = nullptr);

    // Applies and stores `theme` as if chosen from the menu.
    void choose(models::AppSettings::Theme theme);

signals:
    void themeChosen(models::AppSettings::Theme theme);

private:
    QActionGroup *m_group = nullptr;
};

} // namespace gui
