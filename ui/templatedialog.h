#pragma once
// A read-only view of one pod template as YAML (kubectl get -o yaml style), with Copy.

#include <QDialog>

class QPlainTextEdit;

namespace gui {

class TemplateDialog : public QDialog
{
    Q_OBJECT

public:
    TemplateDialog(const QString &title, const QString &yaml, QWidget *parent = nullptr);

    QString text() const;

private:
    QPlainTextEdit *m_text = nullptr;
};

} // namespace gui
