#pragma once
// The explorer's "Node upgrades" section: the NodeUpgradeRollouts of the snapshot with a phase
// badge and "done/nodes". Selecting one asks the main window to show the node-upgrade page. It
// hides itself while there is no rollout, so a cluster that never upgrades sees no change.

#include "models/snapshot/snapshot.h"

#include <QWidget>

class QLabel;
class QTreeView;

namespace models {
class UpgradeRolloutListModel;
}

namespace gui {

class UpgradeExplorer : public QWidget
{
    Q_OBJECT

public:
    explicit UpgradeExplorer(QWidget *parent = nullptr);

    void setSnapshot(const models::SnapshotPtr &snapshot);
    bool select(const QString &rollout); // false when absent
    void clearSelection();
    QString current() const;
    QTreeView *view() const { return m_view; }
    models::UpgradeRolloutListModel *model() const { return m_model; }

Q_SIGNALS:
    void rolloutActivated(const QString &name);

private:
    models::UpgradeRolloutListModel *m_model = nullptr;
    QLabel *m_title = nullptr;
    QTreeView *m_view = nullptr;
};

} // namespace gui
