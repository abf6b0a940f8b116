#pragma once
// NodeActions — Cordon / Uncordon / Drain… for a node, offered as a context menu on the node map
// (tiles and the Nodes tab's cards) and sent to the ClusterBackend. An action the user may not
// perform (BackendPermissions: patch nodes, create pods/eviction) is shown disabled with the
// reason as its tooltip. Drain asks first (DrainDialog); on a production context cordon and
// uncordon ask too, with the node's name typed (confirmation.h). Outcomes arrive as the
// backend's actionFinished (the status bar words them).

#include "models/snapshot/snapshot.h"

#include <QObject>
#include <QPointer>

class QMenu;
class QWidget;

namespace models {
class ClusterBackend;
}

namespace gui {

class DrainDialog;

class NodeActions : public QObject
{
    Q_OBJECT

public:
    explicit NodeActions(QWidget *parentWidget);

    void setBackend(models::ClusterBackend *backend);
    void setSnapshot(models::SnapshotPtr snapshot);

    // The menu for `node` (the caller owns it): actions "nodeDetails" (emits detailsRequested),
    // "cordonNode", "uncordonNode", "drainNode".
    QMenu *makeMenu(const QString &node, QWidget *parent);
    // Empty when allowed, else why not ("you may not patch nodes").
    QString cordonDenial() const;
    QString drainDenial() const;

Q_SIGNALS:
    // The menu's "Details and Logs…": the window opens the drill-down, as Return on the tile does.
    void detailsRequested(const QString &node);

public Q_SLOTS:
    void showMenu(const QString &node, const QPoint &globalPos);
    void cordon(const QString &node, bool unschedulable);
    // Opens the drain question (non-modal, window-modal); returns it for tests.
    DrainDialog *showDrainDialog(const QString &node);

private:
    QWidget *m_parent = nullptr;
    QPointer<models::ClusterBackend> m_backend;
    models::SnapshotPtr m_snapshot;
    QPointer<DrainDialog> m_dialog;
};

} // namespace gui
