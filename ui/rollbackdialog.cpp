#include "ui/rollbackdialog.h"

#include "models/kube/timeutil.h"
#include "ui/diffview.h"
#include "ui/managedbylabel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QStyle>
#include <QVBoxLayout>

namespace gui {

namespace {

QLabel *makeLabel(QWidget *parent, const QString &accessibleName)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAccessibleName(accessibleName);
    return l;
}

} // namespace

RollbackDialog::RollbackDialog(models::ClusterBackend *backend, const QString &dsKey, qint64 toRevision,
                               QWidget *parent)
    : QDialog(parent), m_backend(backend), m_dsKey(dsKey)
{
    setWindowTitle(tr("Roll Back %1").arg(dsKey));
    auto *layout = new QVBoxLayout(this);

    auto *form = new QFormLayout;
    m_target = new QComboBox(this);
    m_target->setAccessibleName(tr("Target revision"));
    form->addRow(tr("Roll back &to:"), m_target);
    layout->addLayout(form);

    m_headline = makeLabel(this, tr("Rollback summary"));
    layout->addWidget(m_headline);
    m_warning = makeLabel(this, tr("Rollback warning"));
    m_warning->setForegroundRole(QPalette::BrightText);
    m_warning->setAutoFillBackground(true);
    m_warning->setMargin(style()->pixelMetric(QStyle::PM_LayoutTopMargin, nullptr, this) / 2);
    layout->addWidget(m_warning);
    m_managed = new ManagedByLabel(this);
    layout->addWidget(m_managed);
    m_impact = makeLabel(this, tr("Nodes affected"));
    layout->addWidget(m_impact);
    m_estimate = makeLabel(this, tr("Estimated duration"));
    layout->addWidget(m_estimate);

    m_diff = new DiffView(this);
    m_diff->setAccessibleName(tr("Current template against the target revision"));
    layout->addWidget(m_diff, 1);

    m_outcomeLabel = makeLabel(this, tr("Rollback outcome"));
    m_outcomeLabel->setVisible(false);
    layout->addWidget(m_outcomeLabel);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = m_buttons->addButton(tr("&Roll Back"), QDialogButtonBox::AcceptRole);
    // Return must not replace pods: Cancel is the default, rolling back takes the button (or
    // its Alt+R mnemonic).
    m_confirm->setAutoDefault(false);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    connect(m_confirm, &QPushButton::clicked, this, &RollbackDialog::confirm);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    if (backend)
        connect(backend, &models::ClusterBackend::actionFinished, this, &RollbackDialog::onActionFinished);

    fillTargets();
    const int preset = m_target->findData(toRevision);
    m_target->setCurrentIndex(preset >= 0 ? preset : 0);
    connect(m_target, &QComboBox::currentIndexChanged, this, &RollbackDialog::updatePreview);
    updatePreview();

    const QFontMetrics fm(font());
    resize(fm.averageCharWidth() * 130, fm.lineSpacing() * 40);
    if (screen())
        resize(size().boundedTo(screen()->availableSize() * 9 / 10));
}

qint64 RollbackDialog::requestedRevision() const
{
    return m_target->currentData().toLongLong();
}

void RollbackDialog::fillTargets()
{
    m_target->clear();
    m_target->addItem(tr("Previous revision (kubectl rollout undo)"), qint64(0));
    if (!m_backend)
        return;
    const auto snapshot = m_backend->latest();
    const models::DaemonSetInfo *ds = snapshot ? snapshot->daemonSet(m_dsKey) : nullptr;
    if (!ds || !ds->revisions)
        return;
    // Newest first: the usual target is a recent one.
    for (auto it = ds->revisions->rbegin(); it != ds->revisions->rend(); ++it) {
        m_target->addItem(tr("Revision %1 · %2 · %3%4")
                              .arg(it->number)
                              .arg(it->hash, it->imageSummary, it->current ? tr(" (current)") : QString()),
                          it->number);
    }
}

void RollbackDialog::updatePreview()
{
    const auto snapshot = m_backend ? m_backend->latest() : models::ClusterSnapshot::empty();
    m_preview = models::RollbackPreview::compute(*snapshot, m_dsKey, requestedRevision());
    const auto &p = m_preview;

    QPalette warn = m_warning->palette();
    if (!p.ok) {
        m_headline->setText(tr("kubectl would refuse this rollback."));
        m_warning->setText(tr("<b>Cannot roll back:</b> %1").arg(p.message.toHtmlEscaped()));
        warn.setColor(QPalette::Window, QColor(0xb0, 0x30, 0x30));
    } else {
        m_headline->setText(tr("Roll back <b>%1</b> from revision %2 to revision %3 (%4, %5).")
                                .arg(m_dsKey.toHtmlEscaped())
                                .arg(p.currentRevision)
                                .arg(p.targetRevision)
                                .arg(p.targetName.toHtmlEscaped(), p.targetHash.toHtmlEscaped()));
        if (p.skipped)
            m_warning->setText(tr("<b>Nothing to do:</b> %1. kubectl would not change the DaemonSet.")
                                   .arg(p.message.toHtmlEscaped()));
        warn.setColor(QPalette::Window, QColor(0x9a, 0x60, 0x00));
    }
    warn.setColor(QPalette::WindowText, Qt::white);
    m_warning->setPalette(warn);
    m_warning->setVisible(!p.ok || p.skipped);
    m_managed->setWarnings(p.ok && !p.skipped ? p.managedWarnings : QStringList());

    if (p.ok && !p.skipped) {
        QString impact = tr("%n node(s) will get a new pod", nullptr, p.newPods());
        QStringList parts;
        if (p.nodesToReplace > 0)
            parts << tr("%n replaced", nullptr, p.nodesToReplace);
        if (p.nodesWithoutPod > 0)
            parts << tr("%n without a pod yet", nullptr, p.nodesWithoutPod);
        if (!parts.isEmpty())
            impact += QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
        impact +=
            QStringLiteral("; ") + tr("%n already run(s) the target revision.", nullptr, p.nodesOnTarget);
        m_impact->setText(impact);
        if (p.manualOnly)
            m_estimate->setText(tr("Estimated duration: none — %1").arg(p.estimateText));
        else
            m_estimate->setText(tr("Estimated duration: <b>%1</b> — %2")
                                    .arg(QString::fromStdString(kube::formatDuration(p.estimatedMs)),
                                         p.estimateText.toHtmlEscaped()));
    } else {
        m_impact->setText(p.ok ? tr("No pod is replaced.") : QString());
        m_estimate->clear();
    }
    m_impact->setVisible(!m_impact->text().isEmpty());
    m_estimate->setVisible(!m_estimate->text().isEmpty());

    if (p.ok) {
        m_diff->setTemplates(tr("current (revision %1)").arg(p.currentRevision), p.diff.oldTemplate,
                             tr("revision %1 (target)").arg(p.targetRevision), p.diff.newTemplate);
    } else {
        m_diff->clear();
    }
    m_confirm->setEnabled(p.ok && !m_waiting && m_outcome.isEmpty() && m_backend);
    m_confirm->setText(p.skipped ? tr("&Roll Back Anyway") : tr("&Roll Back"));
}

void RollbackDialog::confirm()
{
    if (!m_backend || m_waiting || !m_preview.ok)
        return;
    m_waiting = true;
    m_confirm->setEnabled(false);
    m_target->setEnabled(false);
    m_outcomeLabel->setText(tr("Rolling back…"));
    m_outcomeLabel->setVisible(true);
    m_backend->rollback(m_dsKey, requestedRevision());
}

void RollbackDialog::onActionFinished(const models::ActionResult &result)
{
    if (!m_waiting || result.kind != models::ActionKind::Rollback || result.target != m_dsKey)
        return;
    m_waiting = false;
    m_outcome = result.message;
    m_outcomeLabel->setText(
        result.ok ? tr("<b>%1:</b> %2").arg(m_dsKey.toHtmlEscaped(), result.message.toHtmlEscaped())
                  : tr("<b>Rollback failed:</b> %1").arg(result.message.toHtmlEscaped()));
    // The dialog has done its job; what is left is to close it.
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("&Close"));
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    m_buttons->button(QDialogButtonBox::Cancel)->setFocus();
    emit rollbackFinished(result);
}

} // namespace gui
