#include "ui/startrolloutactions.h"

#include "ui/startrolloutdialog.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

namespace gui {

StartRolloutActions::StartRolloutActions(QWidget *window, std::function<models::ClusterBackend *()> backend,
                                         std::function<QString()> currentKey)
    : QObject(window), m_window(window), m_backend(std::move(backend)), m_currentKey(std::move(currentKey))
{
    auto make = [this](const QString &name, const QString &text, const QKeySequence &shortcut,
                       const QString &tip, models::StartRolloutMode mode) {
        auto *a = new QAction(text, m_window);
        a->setObjectName(name);
        a->setShortcut(shortcut);
        a->setStatusTip(tip);
        a->setEnabled(false);
        m_window->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { show(mode); });
        return a;
    };
    m_setImage = make(
        QStringLiteral("setImage"), tr("Set &Image…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I),
        tr("kubectl set image: change container images, with a preview"), models::StartRolloutMode::SetImage);
    m_restart = make(
        QStringLiteral("restartRollout"), tr("Res&tart…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
        tr("kubectl rollout restart: replace every pod, with a preview"), models::StartRolloutMode::Restart);
    m_strategy =
        make(QStringLiteral("updateStrategy"), tr("Update &Strategy…"),
             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
             tr("Edit maxUnavailable and maxSurge, with a preview"), models::StartRolloutMode::Strategy);
}

void StartRolloutActions::addTo(QMenu *menu)
{
    menu->addAction(m_setImage);
    menu->addAction(m_restart);
    menu->addAction(m_strategy);
}

void StartRolloutActions::setDaemonSet(const models::DaemonSetInfo *ds)
{
    for (QAction *a : {m_setImage, m_restart, m_strategy})
        a->setEnabled(ds != nullptr);
}

QAction *StartRolloutActions::action(models::StartRolloutMode mode) const
{
    switch (mode) {
    case models::StartRolloutMode::SetImage:
        return m_setImage;
    case models::StartRolloutMode::Restart:
        return m_restart;
    case models::StartRolloutMode::Strategy:
        break;
    }
    return m_strategy;
}

StartRolloutDialog *StartRolloutActions::dialog() const
{
    return m_dialog.data();
}

StartRolloutDialog *StartRolloutActions::show(models::StartRolloutMode mode)
{
    const QString key = m_currentKey();
    models::ClusterBackend *backend = m_backend();
    if (key.isEmpty() || !backend)
        return nullptr;
    if (m_dialog)
        m_dialog->close();
    auto *dialog = new StartRolloutDialog(backend, key, mode, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    m_dialog = dialog;
    dialog->show();
    return dialog;
}

} // namespace gui
