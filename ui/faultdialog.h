#pragma once
// Chooses a node and a fault to inject into the embedded cluster (Simulation → Inject fault).

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;

namespace gui {

class FaultDialog : public QDialog
{
    Q_OBJECT

public:
    FaultDialog(const QStringList &nodes, const QString &currentNode, QWidget *parent = nullptr);

    QString node() const;
    QString faultKind() const; // sim::FaultKind name: NotReady, Ready, Unreachable, ...

    // The fault kinds in menu order, with a one-line explanation each.
    static QList<QPair<QString, QString>> faultKinds();

private:
    void updateExplanation();

    QComboBox *m_node = nullptr;
    QComboBox *m_kind = nullptr;
    QLabel *m_explanation = nullptr;
};

} // namespace gui
