#include "ui/nodeactions.h"

#include "models/backend/clusterbackend.h"
#include "ui/confirmation.h"
#include "ui/draindialog.h"

#include <QMenu>

namespace gui {

NodeActions::NodeActions(QWidget *parentWidget) : QObject(parentWidget), m_parent(parentWidget) {}

void NodeActions::setBackend(models::ClusterBackend *backend)
{
    m_backend = backend;
}

void NodeActions::setSnapshot(models::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
}

QString NodeActions::cordonDenial() const
{
    if (!m_snapshot)
        return {};
    return m_snapshot->backend.permissions.denial(QStringLiteral("patch"), QStringLiteral("nodes"));
}

QString NodeActions::drainDenial() const
{
    if (!m_snapshot)
        return {};
    const QString nodes = cordonDenial();
    if (!nodes.isEmpty())
        return nodes;
    return m_snapshot->backend.permissions.denial(QStringLiteral("create"), QStringLiteral("pods/eviction"));
}

QMenu *NodeActions::makeMenu(const QString &node, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("nodeContextMenu"));
    menu->setToolTipsVisible(true);
    menu->setTitle(node);
    const models::NodeInfo *info = m_snapshot ? m_snapshot->node(node) : nullptr;
    const bool usable = m_backend && info && !(m_snapshot && m_snapshot->backend.loading);
    const bool cordoned = info && info->unschedulable;
    menu->addSection(node);
    QAction *details =
        menu->addAction(tr("Details and &Logs…"), this, [this, node] { emit detailsRequested(node); });
    details->setObjectName(QStringLiteral("nodeDetails"));
    details->setEnabled(info != nullptr);
    details->setToolTip(tr("The node, the DaemonSet's pod on it and the pod's logs (Return on the tile)"));
    menu->addSeparator();
    const QString cordonWhy = cordonDenial();
    QAction *cordonAction = menu->addAction(tr("&Cordon"), this, [this, node] { cordon(node, true); });
    cordonAction->setObjectName(QStringLiteral("cordonNode"));
    cordonAction->setEnabled(usable && !cordoned && cordonWhy.isEmpty());
    cordonAction->setToolTip(!cordonWhy.isEmpty() ? cordonWhy
                             : cordoned
                                 ? tr("%1 is cordoned already").arg(node)
                                 : tr("Mark %1 unschedulable: no new pods are placed there").arg(node));
    QAction *uncordonAction = menu->addAction(tr("&Uncordon"), this, [this, node] { cordon(node, false); });
    uncordonAction->setObjectName(QStringLiteral("uncordonNode"));
    uncordonAction->setEnabled(usable && cordoned && cordonWhy.isEmpty());
    uncordonAction->setToolTip(!cordonWhy.isEmpty() ? cordonWhy
                               : !cordoned          ? tr("%1 is schedulable").arg(node)
                                                    : tr("Mark %1 schedulable again").arg(node));
    menu->addSeparator();
    const QString drainWhy = drainDenial();
    QAction *drainAction = menu->addAction(tr("&Drain…"), this, [this, node] { showDrainDialog(node); });
    drainAction->setObjectName(QStringLiteral("drainNode"));
    drainAction->setEnabled(usable && drainWhy.isEmpty());
    drainAction->setToolTip(!drainWhy.isEmpty() ? drainWhy
                                                : tr("Cordon %1 and evict its pods (asks first)").arg(node));
    return menu;
}

void NodeActions::showMenu(const QString &node, const QPoint &globalPos)
{
    if (node.isEmpty())
        return;
    QMenu *menu = makeMenu(node, m_parent);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void NodeActions::cordon(const QString &node, bool unschedulable)
{
    if (!m_backend)
        return;
    // Cordoning is undone in a click, so it is asked only on a production context.
    if (productionGuardActive() &&
        !confirmAction(m_parent, unschedulable ? tr("Cordon %1").arg(node) : tr("Uncordon %1").arg(node),
                       unschedulable ? tr("Mark node %1 unschedulable?").arg(node)
                                     : tr("Mark node %1 schedulable again?").arg(node),
                       unschedulable ? tr("&Cordon") : tr("&Uncordon"), ConfirmKind::Change, node))
        return;
    m_backend->cordon(node, unschedulable);
}

DrainDialog *NodeActions::showDrainDialog(const QString &node)
{
    if (!m_backend)
        return nullptr;
    if (m_dialog)
        m_dialog->close();
    const models::SnapshotPtr snapshot = m_snapshot ? m_snapshot : models::ClusterSnapshot::empty();
    m_backend->requestUpgradeInventory(); // the next drain previews know every node's pods
    auto *dialog = new DrainDialog(*snapshot, node, m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    QPointer<models::ClusterBackend> backend = m_backend;
    connect(dialog, &QDialog::accepted, this, [backend, dialog] {
        if (backend)
            backend->drain(dialog->node(), dialog->deleteEmptyDirData());
    });
    m_dialog = dialog;
    dialog->show();
    return dialog;
}

} // namespace gui
