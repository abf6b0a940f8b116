#pragma once
// Confirmation — the console's questions before an action: the buttons say what they do
// ("Abort Rollout", "Cancel"), never a generic OK, and the safe choice (Cancel) is the default
// and the escape button, so Return or Esc on a question changes nothing. Actions that destroy
// work are asked with a warning icon and a destructive-role button.
//
// Production guard: while the window shows a production context (setProductionContext, from
// AppSettings::productionPattern), every confirmation — these functions, and the dialogs that
// call addNameGuard — asks the user to type the object's name (the DaemonSet's, the node's, the
// rollout's; the context's when the caller names none) and keeps its verb button disabled until
// the text matches exactly.

#include <QString>

class QBoxLayout;
class QDialog;
class QLineEdit;
class QMessageBox;
class QPushButton;
class QWidget;

namespace gui {

enum class ConfirmKind { Change, Destroy };

// The question as a dialog, not yet shown (the caller owns it). Its buttons are the verb and
// Cancel; Cancel is default and escape.
QMessageBox *makeConfirmation(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                              ConfirmKind kind);
// Asks modally; true only when the verb button was chosen. On a production context the name
// (`objectName`, else the context) must be typed first.
bool confirmAction(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                   ConfirmKind kind, const QString &objectName = QString());

// ---- production guard

// The production context the window shows; empty: none (the guard is off).
void setProductionContext(const QString &context);
QString productionContext();
// Whether an action needs a confirmation it would not ask otherwise (pause, cordon): true on a
// production context.
bool productionGuardActive();
// On a production context: a line "Type NAME to confirm" with an edit (object name
// "confirmNameEdit") added to `layout`, and `go` enabled only while the edit holds `name`
// exactly (combined with `otherwiseEnabled`, re-read on every edit). Returns the edit, or nullptr
// (nothing added) elsewhere.
QLineEdit *addNameGuard(QBoxLayout *layout, QPushButton *go, const QString &name);
// The question with the name guard, not yet shown (caller owns it): a QDialog with the text, the
// guard and the buttons (verb: object name "confirmActionButton").
QDialog *makeGuardedConfirmation(QWidget *parent, const QString &title, const QString &text,
                                 const QString &verb, ConfirmKind kind, const QString &name);

} // namespace gui
