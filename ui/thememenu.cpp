#include "ui/thememenu.h"

#include "ui/theme.h"

#include <QActionGroup>

namespace gui {

ThemeMenu::ThemeMenu(QWidget *parent) : QMenu(tr("&Theme"), parent)
{
    using Theme = models::AppSettings::Theme;
    setObjectName(QStringLiteral("themeMenu"));
    m_group = new QActionGroup(this);
    m_group->setExclusive(true);
    const Theme current = models::AppSettings().theme();
    auto add = [&](Theme theme, const QString &text, const QString &tip) {
        QAction *a = addAction(text);
        a->setObjectName(QStringLiteral("theme_") + models::AppSettings::themeName(theme));
        a->setCheckable(true);
        a->setChecked(theme == current);
        a->setData(static_cast<int>(theme));
        a->setStatusTip(tip);
        m_group->addAction(a);
        connect(a, &QAction::triggered, this, [this, theme] { choose(theme); });
    };
    add(Theme::System, tr("&System"), tr("Use the desktop's style and colours"));
    add(Theme::Light, tr("&Light"), tr("Light colours"));
    add(Theme::Dark, tr("&Dark"), tr("Dark colours"));
}

void ThemeMenu::choose(models::AppSettings::Theme theme)
{
    models::AppSettings settings;
    settings.setTheme(theme);
    settings.sync();
    for (QAction *a : m_group->actions())
        a->setChecked(a->data().toInt() == static_cast<int>(theme));
    Theme::apply(theme);
    emit themeChosen(theme);
}

} // namespace gui
