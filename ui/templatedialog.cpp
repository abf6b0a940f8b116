#include "ui/templatedialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gui {

TemplateDialog::TemplateDialog(const QString &title, const QString &yaml, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(title);
    auto *layout = new QVBoxLayout(this);
    m_text = new QPlainTextEdit(this);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlainText(yaml);
    m_text->setAccessibleName(tr("Pod template YAML"));
    layout->addWidget(m_text);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_text->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    // Wide enough for typical template lines, in units of the font rather than pixels.
    const QFontMetrics fm(m_text->font());
    resize(fm.horizontalAdvance(QLatin1Char('x')) * 90, fm.lineSpacing() * 36);
}

QString TemplateDialog::text() const
{
    return m_text->toPlainText();
}

} // namespace gui
