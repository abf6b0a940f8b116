#pragma once
// The warning shown before a change that another tool will revert (models/planners/managedby.h): one
// line per tool (Helm, Argo CD, Flux, kubectl apply, another field manager), on the same amber
// as the rollback dialog's warnings. Hidden when the list is empty. The rollback dialog, the
// start-rollout dialog and the pause question all show it.

#include "models/planners/managedby.h"

#include <QLabel>
#include <QStringList>

namespace gui {

class ManagedByLabel : public QLabel
{
    Q_OBJECT

public:
    explicit ManagedByLabel(QWidget *parent = nullptr);

    void setWarnings(const QStringList &warnings);
    QStringList warnings() const { return m_warnings; }

    // The warnings as rich text (a bold lead and one line per tool); empty when none.
    static QString html(const QStringList &warnings);

private:
    QStringList m_warnings;
};

// Asks before a change that has no dialog of its own (the pause) when another tool will revert
// it, with the same warning; true at once when nothing else manages the DaemonSet.
bool confirmManagedChange(QWidget *parent, const models::DaemonSetInfo &ds, models::ManagedChange change,
                          const QString &title, const QString &verb);

} // namespace gui
