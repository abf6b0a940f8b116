#include "ui/productionbar.h"

#include "models/settings/appsettings.h"
#include "ui/confirmation.h"
#include "ui/theme.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace gui {

ProductionBar::ProductionBar(QWidget *parent)
    : QFrame(parent), m_pattern(QLatin1String(models::AppSettings::kDefaultProductionPattern))
{
    setObjectName(QStringLiteral("productionBar"));
    setAutoFillBackground(true);
    setAccessibleName(tr("Production context"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 10, 4);
    m_label = new QLabel(this);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_label->font();
    f.setBold(true);
    m_label->setFont(f);
    layout->addWidget(m_label, 1);
    setVisible(false);
    applyPalette();
}

void ProductionBar::setPattern(const QString &pattern)
{
    m_pattern = pattern;
    apply();
}

void ProductionBar::setBackendInfo(const models::BackendInfo &info)
{
    if (info.kind == m_info.kind && info.context == m_info.context && info.cluster == m_info.cluster &&
        info.name == m_info.name)
        return;
    m_info = info;
    apply();
}

QString ProductionBar::text() const
{
    return m_label->text();
}

void ProductionBar::apply()
{
    m_context.clear();
    if (m_info.kind == models::BackendKind::Live &&
        models::AppSettings::isProductionContext(m_pattern, m_info.context, m_info.cluster))
        m_context = m_info.context.isEmpty() ? m_info.cluster : m_info.context;
    setProductionContext(m_context);
    m_label->setText(tr("Production context %1 — actions ask for the name").arg(m_context));
    setToolTip(tr("The context or cluster name matches the production pattern \"%1\" (Settings → "
                  "Production Contexts…): every destructive action asks you to type the object's name.")
                   .arg(m_pattern));
    setVisible(active());
}

void ProductionBar::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
}

void ProductionBar::applyPalette()
{
    // A saturated red with white text: about 6:1 on either theme, and unmistakable on both.
    const QColor background = Theme::isDark() ? QColor(0xb7, 0x1c, 0x1c) : QColor(0xc6, 0x28, 0x28);
    QPalette p = palette();
    if (p.color(QPalette::Window) == background)
        return;
    p.setColor(QPalette::Window, background);
    p.setColor(QPalette::WindowText, Qt::white);
    setPalette(p);
}

QString ProductionBar::editPattern(QWidget *parent, const QString &current, const QString &context,
                                   const QString &cluster)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(tr("Production Contexts"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *intro = new QLabel(tr("A live context whose kubeconfig context or cluster name matches this "
                                "regular expression (case-insensitive) is treated as production: a red bar "
                                "shows it, and every destructive action asks you to type the name of the "
                                "DaemonSet, node or rollout."),
                             &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *edit = new QLineEdit(current, &dialog);
    edit->setObjectName(QStringLiteral("productionPatternEdit"));
    edit->setAccessibleName(tr("Production pattern"));
    layout->addWidget(edit);
    auto *verdict = new QLabel(&dialog);
    verdict->setWordWrap(true);
    layout->addWidget(verdict);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    QPushButton *save = buttons->button(QDialogButtonBox::Save);
    const auto check = [&] {
        const QRegularExpression re(edit->text(), QRegularExpression::CaseInsensitiveOption);
        const bool valid = !edit->text().isEmpty() && re.isValid();
        save->setEnabled(valid);
        if (!valid) {
            verdict->setText(edit->text().isEmpty() ? tr("Enter an expression.")
                                                    : tr("Not a valid expression: %1").arg(re.errorString()));
            return;
        }
        if (context.isEmpty() && cluster.isEmpty()) {
            verdict->setText(QString());
            return;
        }
        const bool matches = models::AppSettings::isProductionContext(edit->text(), context, cluster);
        verdict->setText(matches
                             ? tr("The current context %1 matches: it is treated as production.").arg(context)
                             : tr("The current context %1 does not match.").arg(context));
    };
    QObject::connect(edit, &QLineEdit::textChanged, &dialog, check);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    check();
    if (dialog.exec() != QDialog::Accepted)
        return {};
    return edit->text();
}

} // namespace gui
