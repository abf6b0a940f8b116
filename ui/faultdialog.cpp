#include "ui/faultdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gui {

QList<QPair<QString, QString>> FaultDialog::faultKinds()
{
    return {
        {QStringLiteral("NotReady"),
         tr("The node's Ready condition turns False; its pods stop being ready.")},
        {QStringLiteral("Ready"), tr("Recover: the node becomes Ready again and the fault is cleared.")},
        {QStringLiteral("Unreachable"),
         tr("The node stops reporting (Ready=Unknown), as when the network splits.")},
        {QStringLiteral("AgentUnresponsive"),
         tr("The node stays Ready but its agent never acknowledges a restart.")},
        {QStringLiteral("NeverReturns"), tr("After its next agent restart the node goes away for good.")},
        {QStringLiteral("ReturnsOldVersion"),
         tr("After its next agent restart the node comes back on the old version.")},
        {QStringLiteral("FlapsNotReady"),
         tr("After its next restart the node flips between NotReady and Ready.")},
        {QStringLiteral("RebootsQuickly"),
         tr("Its next restart is over before the node is seen NotReady: only the version and the boot ID "
            "change.")},
    };
}

FaultDialog::FaultDialog(const QStringList &nodes, const QString &currentNode, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Inject Fault"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_node = new QComboBox(this);
    m_node->addItems(nodes);
    m_node->setEditable(true); // type to search in big clusters
    m_node->setInsertPolicy(QComboBox::NoInsert);
    m_node->setAccessibleName(tr("Node"));
    if (const int i = m_node->findText(currentNode); i >= 0)
        m_node->setCurrentIndex(i);
    form->addRow(tr("&Node:"), m_node);
    m_kind = new QComboBox(this);
    m_kind->setAccessibleName(tr("Fault"));
    for (const auto &[kind, text] : faultKinds())
        m_kind->addItem(kind, text);
    form->addRow(tr("&Fault:"), m_kind);
    layout->addLayout(form);
    m_explanation = new QLabel(this);
    m_explanation->setWordWrap(true);
    layout->addWidget(m_explanation);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Inject"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &FaultDialog::updateExplanation);
    connect(m_node, &QComboBox::currentTextChanged, this, [this, buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(m_node->findText(text) >= 0);
    });
    buttons->button(QDialogButtonBox::Ok)->setEnabled(m_node->findText(m_node->currentText()) >= 0);
    updateExplanation();
}

QString FaultDialog::node() const
{
    return m_node->currentText();
}

QString FaultDialog::faultKind() const
{
    return m_kind->currentText();
}

void FaultDialog::updateExplanation()
{
    m_explanation->setText(m_kind->currentData().toString());
}

} // namespace gui
