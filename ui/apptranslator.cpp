#include "ui/apptranslator.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QPointer>
#include <QTranslator>

namespace gui {

namespace {

const QString kResourceDir = QStringLiteral(":/i18n");
const QString kPrefix = QStringLiteral("daemonscope_");

// Qt words its standard buttons (QDialogButtonBox, QMessageBox) through the translator, in the
// context QPlatformTheme. Qt's own catalogue is not always installed (Debian ships it in
// qt6-translations-l10n), so the console's catalogue carries the buttons it shows: no "Cancel"
// or "Close" in a German dialog. When Qt's catalogue is there, it is asked first.
[[maybe_unused]] const char *const kStandardButtons[] = {
    QT_TRANSLATE_NOOP("QPlatformTheme", "OK"),    QT_TRANSLATE_NOOP("QPlatformTheme", "Cancel"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Close"), QT_TRANSLATE_NOOP("QPlatformTheme", "Save"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Open"),  QT_TRANSLATE_NOOP("QPlatformTheme", "Apply"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "&Yes"),  QT_TRANSLATE_NOOP("QPlatformTheme", "&No"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Help"),  QT_TRANSLATE_NOOP("QPlatformTheme", "Discard"),
    QT_TRANSLATE_NOOP("QPlatformTheme", "Reset"),
};

QPointer<QTranslator> g_app;
QPointer<QTranslator> g_qt;
QString g_installed;

// "de-AT" / "de_AT" -> {"de_AT", "de"}: the exact translation first, then the language's.
QStringList candidates(const QString &name)
{
    QString n = name;
    n.replace(QLatin1Char('-'), QLatin1Char('_'));
    QStringList out{n};
    const int sep = n.indexOf(QLatin1Char('_'));
    if (sep > 0)
        out.append(n.left(sep));
    return out;
}

} // namespace

QStringList AppTranslator::availableLanguages()
{
    QStringList languages;
    const QStringList files = QDir(kResourceDir).entryList({kPrefix + QStringLiteral("*.qm")}, QDir::Files);
    for (const QString &file : files)
        languages.append(file.mid(kPrefix.size()).chopped(3));
    languages.sort();
    return languages;
}

QString AppTranslator::resolve(const QString &override, const QLocale &system)
{
    const QStringList available = availableLanguages();
    auto pick = [&](const QString &name) -> QString {
        for (const QString &c : candidates(name)) {
            if (available.contains(c))
                return c;
        }
        return {};
    };
    // An override this version has no translation for falls back to the system's language.
    if (const QString lang = override.isEmpty() ? QString() : pick(override); !lang.isEmpty())
        return lang;
    for (const QString &ui : system.uiLanguages()) {
        if (const QString lang = pick(ui); !lang.isEmpty())
            return lang;
    }
    return QStringLiteral("en");
}

QString AppTranslator::install(const QString &override)
{
    auto *app = QCoreApplication::instance();
    if (!app)
        return {};
    delete g_app;
    delete g_qt;
    const QString language = resolve(override);

    auto *own = new QTranslator(app);
    if (own->load(kPrefix + language, kResourceDir)) {
        QCoreApplication::installTranslator(own);
        g_app = own;
    } else {
        delete own;
    }
    if (language != QLatin1String("en")) {
        auto *qt = new QTranslator(app);
        if (qt->load(QStringLiteral("qtbase_") + language,
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            g_qt = qt;
        } else {
            delete qt;
        }
    }
    g_installed = language;
    return language;
}

QString AppTranslator::installed()
{
    return g_installed;
}

QString AppTranslator::nativeName(const QString &language)
{
    if (language == QLatin1String("en"))
        return QStringLiteral("English"); // CLDR's native name for "en" is "American English"
    const QLocale locale(language);
    QString name = locale.nativeLanguageName();
    if (name.isEmpty())
        return language;
    name[0] = name[0].toUpper(); // "français" in a menu of languages reads "Français"
    return name;
}

} // namespace gui
