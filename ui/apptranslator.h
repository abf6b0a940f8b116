#pragma once
// AppTranslator — installs the translations the user interface is shown in: the app's own
// (compiled into the binary as :/i18n/daemonscope_<language>.qm) and Qt's (qtbase_<language>.qm
// from the Qt installation, for the standard dialog buttons) when it is installed.
//
// The language is the override chosen in View → Language (AppSettings::languageOverride) or,
// without one, the first of the system locale's UI languages that has a translation; English
// otherwise. English loads daemonscope_en.qm too: it carries the plural forms ("1 node",
// "5 nodes"), the source texts being written as "%n node(s)".

#include <QCoreApplication>
#include <QLocale>
#include <QString>
#include <QStringList>

namespace gui {

class AppTranslator
{
    Q_DECLARE_TR_FUNCTIONS(gui::AppTranslator)

public:
    // The languages with a compiled translation, sorted ("de", "en").
    static QStringList availableLanguages();
    // The language used for `override` ("" = follow `system`; so does an override without a
    // translation).
    static QString resolve(const QString &override, const QLocale &system = QLocale::system());
    // Replaces the translators installed earlier; returns the language now installed. Widgets
    // created before keep their texts: the app applies a change at the next start.
    static QString install(const QString &override = {});
    // The language installed last, empty before install().
    static QString installed();
    // The language's name in itself ("Deutsch", "English"), as language menus show it.
    static QString nativeName(const QString &language);
};

} // namespace gui
