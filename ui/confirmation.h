#pragma once
// Confirmation — the console's questions before an action: the buttons say what they do
// ("Abort Rollout", "Cancel"), never a generic OK, and the safe choice (Cancel) is the default
// and the escape button, so Return or Esc on a question changes nothing. Actions that destroy
// work are asked with a warning icon and a destructive-role button.

#include <QString>

class QMessageBox;
class QWidget;

namespace gui {

enum class ConfirmKind { Change, Destroy };

// The question as a dialog, not yet shown (the caller owns it). Its buttons are the verb and
// Cancel; Cancel is default and escape.
QMessageBox *makeConfirmation(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                              ConfirmKind kind);
// Asks modally; true only when the verb button was chosen.
bool confirmAction(QWidget *parent, const QString &title, const QString &text, const QString &verb,
                   ConfirmKind kind);

} // namespace gui
