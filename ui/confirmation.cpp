#include "ui/confirmation.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace gui {

namespace {

QString &productionContextStore()
{
    static QString context; // GUI thread only
    return context;
}

} // namespace

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
                   ConfirmKind kind, const QString &objectName)
{
    if (productionGuardActive()) {
        QDialog *dialog = makeGuardedConfirmation(parent, title, text, verb, kind,
                                                  objectName.isEmpty() ? productionContext() : objectName);
        const bool yes = dialog->exec() == QDialog::Accepted;
        delete dialog;
        return yes;
    }
    QMessageBox *box = makeConfirmation(parent, title, text, verb, kind);
    box->exec();
    const bool yes =
        box->clickedButton() && box->clickedButton()->objectName() == QLatin1String("confirmActionButton");
    delete box;
    return yes;
}

// ---- production guard --------------------------------------------------------------------------

void setProductionContext(const QString &context)
{
    productionContextStore() = context;
}

QString productionContext()
{
    return productionContextStore();
}

bool productionGuardActive()
{
    return !productionContextStore().isEmpty();
}

QLineEdit *addNameGuard(QBoxLayout *layout, QPushButton *go, const QString &name)
{
    if (!productionGuardActive() || !layout || !go)
        return nullptr;
    auto *label = new QLabel(
        QApplication::translate("gui::Confirmation", "Production context %1: type <b>%2</b> to confirm.")
            .arg(productionContext().toHtmlEscaped(), name.toHtmlEscaped()));
    label->setWordWrap(true);
    auto *edit = new QLineEdit;
    edit->setObjectName(QStringLiteral("confirmNameEdit"));
    edit->setPlaceholderText(name);
    edit->setAccessibleName(QApplication::translate("gui::Confirmation", "Name to confirm"));
    label->setBuddy(edit);
    layout->addWidget(label);
    layout->addWidget(edit);
    // The caller's own enabling (a dialog that waits for a preview) is kept: the guard only ever
    // disables, and re-checks whenever the caller or the user changes something.
    const auto check = [go, edit, name] {
        const bool typed = edit->text() == name;
        go->setProperty("nameGuardTyped", typed);
        if (!typed)
            go->setEnabled(false);
        else if (go->property("nameGuardWanted").toBool())
            go->setEnabled(true);
    };
    go->setProperty("nameGuardWanted", go->isEnabled());
    QObject::connect(edit, &QLineEdit::textChanged, go, check);
    check();
    edit->setFocus();
    return edit;
}

QDialog *makeGuardedConfirmation(QWidget *parent, const QString &title, const QString &text,
                                 const QString &verb, ConfirmKind kind, const QString &name)
{
    auto *dialog = new QDialog(parent);
    dialog->setWindowTitle(title);
    auto *layout = new QVBoxLayout(dialog);
    auto *row = new QHBoxLayout;
    auto *icon = new QLabel;
    const auto pixmap = dialog->style()->standardIcon(
        kind == ConfirmKind::Destroy ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxQuestion);
    icon->setPixmap(pixmap.pixmap(32, 32));
    icon->setAlignment(Qt::AlignTop);
    row->addWidget(icon);
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(label, 1);
    layout->addLayout(row);
    auto *buttons = new QDialogButtonBox;
    QPushButton *go =
        buttons->addButton(verb, kind == ConfirmKind::Destroy ? QDialogButtonBox::DestructiveRole
                                                              : QDialogButtonBox::AcceptRole);
    go->setObjectName(QStringLiteral("confirmActionButton"));
    go->setAutoDefault(false);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setDefault(true);
    QObject::connect(go, &QPushButton::clicked, dialog, &QDialog::accept);
    QObject::connect(cancel, &QPushButton::clicked, dialog, &QDialog::reject);
    addNameGuard(layout, go, name);
    layout->addWidget(buttons);
    return dialog;
}

} // namespace gui
