#include "ui/managedbylabel.h"

#include "ui/confirmation.h"

#include <QStyle>

namespace gui {

ManagedByLabel::ManagedByLabel(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setAccessibleName(tr("Managed by another tool"));
    setAutoFillBackground(true);
    setMargin(style()->pixelMetric(QStyle::PM_LayoutTopMargin, nullptr, this) / 2);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(0x9a, 0x60, 0x00));
    p.setColor(QPalette::WindowText, Qt::white);
    setPalette(p);
    setVisible(false);
}

QString ManagedByLabel::html(const QStringList &warnings)
{
    if (warnings.isEmpty())
        return {};
    QStringList lines;
    for (const QString &w : warnings)
        lines << w.toHtmlEscaped();
    return tr("<b>Another tool manages this DaemonSet.</b><br>%1").arg(lines.join(QStringLiteral("<br>")));
}

void ManagedByLabel::setWarnings(const QStringList &warnings)
{
    m_warnings = warnings;
    setText(html(warnings));
    setVisible(!warnings.isEmpty());
}

bool confirmManagedChange(QWidget *parent, const models::DaemonSetInfo &ds, models::ManagedChange change,
                          const QString &title, const QString &verb)
{
    const QStringList warnings = models::managedByWarnings(ds, change);
    if (warnings.isEmpty())
        return true;
    return confirmAction(parent, title, ManagedByLabel::html(warnings), verb, ConfirmKind::Change);
}

} // namespace gui
