#include "ui/confirmation.h"

#include <QMessageBox>
#include <QPushButton>

namespace gui {

QMessageBox *makeConfirmation(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                              ConfirmKind kind)
{
    auto *box = new QMessageBox(kind == ConfirmKind::Destroy ? QMessageBox::Warning : QMessageBox::Question,
                                title, text, QMessageBox::NoButton, parent);
    QPushButton *go = box->addButton(verb, kind == ConfirmKind::Destroy ? QMessageBox::DestructiveRole
                                                                        : QMessageBox::AcceptRole);
    go->setObjectName(QStringLiteral("confirmActionButton"));
    go->setAutoDefault(false);
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    return box;
}

bool confirmAction(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                   ConfirmKind kind)
{
    QMessageBox *box = makeConfirmation(parent, title, text, verb, kind);
    box->exec();
    const bool yes =
        box->clickedButton() && box->clickedButton()->objectName() == QLatin1String("confirmActionButton");
    delete box;
    return yes;
}

} // namespace gui
