#pragma once
// LanguageMenu — View → Language: System (the desktop's language), then every language the app
// has a translation for, each named in itself ("Deutsch"). The choice is stored in the settings
// (AppSettings::languageOverride) and takes effect at the next start: the menu says so in its
// status tip and, once chosen, in the main window's status bar.

#include <QMenu>

class QActionGroup;

namespace gui {

class LanguageMenu : public QMenu
{
    Q_OBJECT

public:
    explicit LanguageMenu(QWidget *parent = nullptr);

    // The stored override, "" for System.
    QString selected() const;
    // Stores `language` ("" = System) as if chosen from the menu.
    void choose(const QString &language);

signals:
    void languageChosen(const QString &language);

private:
    QActionGroup *m_group = nullptr;
};

} // namespace gui
