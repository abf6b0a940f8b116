#pragma once
// The main window's commands that start a rollout — Set Image… (Ctrl+Shift+I), Restart…
// (Ctrl+Shift+R), Update Strategy… (Ctrl+Shift+S) — each opening a StartRolloutDialog for the
// selected DaemonSet. They live on the window (their shortcuts work with the menu bar hidden),
// appear in the Rollout menu, and so in the command palette and the shortcut sheet, which list
// the menus.

#include "models/backend/clusterbackend.h"
#include "models/planners/startrolloutpreview.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace gui {

class StartRolloutDialog;

class StartRolloutActions : public QObject
{
    Q_OBJECT

public:
    // backend and currentKey are asked each time: the window's backend changes when it connects
    // to another cluster.
    StartRolloutActions(QWidget *window, std::function<models::ClusterBackend *()> backend,
                        std::function<QString()> currentKey);

    void addTo(QMenu *menu);
    // Enabled for a shown DaemonSet (null: none, or a scenario still loading).
    void setDaemonSet(const models::DaemonSetInfo *ds);
    QAction *action(models::StartRolloutMode mode) const;
    StartRolloutDialog *dialog() const; // the open one, null when none

public slots:
    StartRolloutDialog *show(models::StartRolloutMode mode);

private:
    QWidget *m_window;
    std::function<models::ClusterBackend *()> m_backend;
    std::function<QString()> m_currentKey;
    QAction *m_setImage = nullptr;
    QAction *m_restart = nullptr;
    QAction *m_strategy = nullptr;
    QPointer<StartRolloutDialog> m_dialog;
};

} // namespace gui
