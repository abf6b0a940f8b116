#pragma once
// A compact status-bar indicator for node-agent upgrades: the running rollout's progress
// ("Upgrade agents-v1-33-1: 14/39 · 1 in flight"), or its phase when it waits (Paused, Halted).
// Hidden when no rollout runs. Clicking it asks to show the rollout.

#include "models/snapshot/snapshot.h"

#include <QLabel>

namespace gui {

class UpgradeStatusIndicator : public QLabel
{
    Q_OBJECT

public:
    explicit UpgradeStatusIndicator(QWidget *parent = nullptr);
    void setSnapshot(const models::SnapshotPtr &snapshot);
    QString rollout() const { return m_rollout; }

Q_SIGNALS:
    void activated(const QString &rollout);

protected:
    void mousePressEvent(QMouseEvent *event) override;

private:
    QString m_rollout;
    const void *m_shown = nullptr;
};

} // namespace gui
