#include "ui/upgradestatusindicator.h"

#include "models/itemmodels/upgraderolloutlistmodel.h"

#include <QMouseEvent>

namespace gui {

UpgradeStatusIndicator::UpgradeStatusIndicator(QWidget *parent) : QLabel(parent)
{
    setObjectName(QStringLiteral("upgradeStatus"));
    setAccessibleName(tr("Node upgrade progress"));
    setCursor(Qt::PointingHandCursor);
    hide();
}

void UpgradeStatusIndicator::setSnapshot(const models::SnapshotPtr &snapshot)
{
    if (!snapshot || snapshot->upgrades.get() == m_shown)
        return;
    m_shown = snapshot->upgrades.get();
    QStringList parts;
    m_rollout.clear();
    for (const auto &u : *snapshot->upgrades) {
        if (!u.running())
            continue;
        if (m_rollout.isEmpty())
            m_rollout = u.name;
        QString text = u.observed
                           ? tr("Observed upgrade: %1/%2").arg(u.counts.upToDate).arg(u.counts.nodes)
                           : tr("Upgrade %1: %2/%3").arg(u.name).arg(u.counts.upToDate).arg(u.counts.nodes);
        if (u.phase == models::UpgradeRolloutPhase::Progressing)
            text += tr(" · %n in flight", nullptr, u.counts.inFlight);
        else
            text += QStringLiteral(" · ") + models::UpgradeRolloutListModel::phaseTitle(u.phase);
        parts << text;
    }
    setText(parts.join(QStringLiteral("  ")));
    setToolTip(tr("Click to show the node upgrade"));
    setVisible(!parts.isEmpty());
}

void UpgradeStatusIndicator::mousePressEvent(QMouseEvent *event)
{
    if (!m_rollout.isEmpty())
        Q_EMIT activated(m_rollout);
    QLabel::mousePressEvent(event);
}

} // namespace gui
