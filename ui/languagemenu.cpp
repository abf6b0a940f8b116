#include "ui/languagemenu.h"

#include "models/settings/appsettings.h"
#include "ui/apptranslator.h"

#include <QActionGroup>
#include <QMainWindow>
#include <QStatusBar>

namespace gui {

LanguageMenu::LanguageMenu(QWidget *parent) : QMenu(tr("&Language"), parent)
{
    setObjectName(QStringLiteral("languageMenu"));
    const QString restart = tr("Takes effect when Daemonscope is restarted");
    setStatusTip(restart);
    m_group = new QActionGroup(this);
    m_group->setExclusive(true);

    const QString current = models::AppSettings().languageOverride();
    auto add = [&](const QString &language, const QString &text) {
        QAction *a = addAction(text);
        a->setObjectName(QStringLiteral("language_") +
                         (language.isEmpty() ? QStringLiteral("system") : language));
        a->setCheckable(true);
        a->setData(language);
        a->setStatusTip(restart);
        a->setChecked(language == current);
        m_group->addAction(a);
        connect(a, &QAction::triggered, this, [this, language] { choose(language); });
    };
    add(QString(), tr("&System (%1)").arg(AppTranslator::nativeName(AppTranslator::resolve(QString()))));
    addSeparator();
    for (const QString &language : AppTranslator::availableLanguages())
        add(language, AppTranslator::nativeName(language));
    if (!m_group->checkedAction()) // an override this version has no translation for
        m_group->actions().constFirst()->setChecked(true);
}

QString LanguageMenu::selected() const
{
    return models::AppSettings().languageOverride();
}

void LanguageMenu::choose(const QString &language)
{
    models::AppSettings settings;
    settings.setLanguageOverride(language);
    settings.sync();
    for (QAction *a : m_group->actions())
        a->setChecked(a->data().toString() == language);
    for (QObject *o = parent(); o; o = o->parent()) {
        if (auto *window = qobject_cast<QMainWindow *>(o)) {
            window->statusBar()->showMessage(
                tr("The language changes to %1 when Daemonscope is restarted.")
                    .arg(AppTranslator::nativeName(AppTranslator::resolve(language))),
                15000);
            break;
        }
    }
    emit languageChosen(language);
}

} // namespace gui
