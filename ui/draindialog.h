#pragma once
// DrainDialog — the question before kubectl drain NODE --ignore-daemonsets: which pods go
// (evicted through their PodDisruptionBudgets), which stay and why (DaemonSet pods), which make
// the drain refuse (pods without a controller), from the snapshot where it knows (models::
// previewDrain); the --delete-emptydir-data choice; what happens when a budget blocks. Cancel is
// the default button; on a production context the node's name must be typed (confirmation.h).

#include "models/snapshot/snapshot.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;

namespace gui {

class DrainDialog : public QDialog
{
    Q_OBJECT

public:
    DrainDialog(const models::ClusterSnapshot &snapshot, const QString &node, QWidget *parent = nullptr);

    QString node() const { return m_node; }
    bool deleteEmptyDirData() const;
    QPushButton *drainButton() const { return m_drain; }
    QCheckBox *emptyDirCheck() const { return m_emptyDir; }
    QString summaryText() const; // the preview as shown (plain text)

private:
    QString m_node;
    QLabel *m_summary = nullptr;
    QCheckBox *m_emptyDir = nullptr;
    QPushButton *m_drain = nullptr;
};

} // namespace gui
