#include "ui/startrolloutdialog.h"

#include "ui/confirmation.h"

#include "models/kube/timeutil.h"
#include "ui/diffview.h"
#include "ui/managedbylabel.h"
#include "ui/theme.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
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

QString duration(qint64 ms)
{
    return QString::fromStdString(kube::formatDuration(ms));
}

// The values a strategy edit starts from: the strategy in force, or the saved one while paused.
std::pair<QString, QString> currentBudget(const models::DaemonSetInfo &ds)
{
    if (ds.paused) {
        const auto saved = kube::Json::parse(ds.savedStrategy.toStdString(), nullptr, false);
        const auto ru = saved.is_object() ? saved.value("rollingUpdate", kube::Json::object()) : kube::Json();
        auto text = [&](const char *key, const char *fallback) {
            if (!ru.is_object() || !ru.contains(key))
                return QString::fromLatin1(fallback);
            const auto &v = ru[key];
            return v.is_string() ? QString::fromStdString(v.get<std::string>())
                                 : QString::fromStdString(v.dump());
        };
        return {text("maxUnavailable", "1"), text("maxSurge", "0")};
    }
    if (ds.strategyType != QLatin1String("RollingUpdate"))
        return {QStringLiteral("1"), QStringLiteral("0")};
    return {ds.maxUnavailable, ds.maxSurge};
}

} // namespace

StartRolloutDialog::StartRolloutDialog(models::ClusterBackend *backend, const QString &dsKey,
                                       models::StartRolloutMode mode, QWidget *parent)
    : QDialog(parent), m_backend(backend), m_dsKey(dsKey), m_mode(mode)
{
    QString verb;
    switch (mode) {
    case models::StartRolloutMode::SetImage:
        setWindowTitle(tr("Set Image of %1").arg(dsKey));
        verb = tr("&Set Image");
        break;
    case models::StartRolloutMode::Restart:
        setWindowTitle(tr("Restart %1").arg(dsKey));
        verb = tr("&Restart");
        break;
    case models::StartRolloutMode::Strategy:
        setWindowTitle(tr("Update Strategy of %1").arg(dsKey));
        verb = tr("&Apply Strategy");
        break;
    }
    auto *layout = new QVBoxLayout(this);
    const auto snapshot = backend ? backend->latest() : models::ClusterSnapshot::empty();
    const models::DaemonSetInfo *ds = snapshot->daemonSet(dsKey);

    auto *form = new QFormLayout;
    if (ds && mode == models::StartRolloutMode::SetImage)
        buildImageRows(form, *ds);
    if (ds && mode == models::StartRolloutMode::Strategy)
        buildStrategyRows(form, *ds);
    layout->addLayout(form);

    m_error = makeLabel(this, tr("Why it cannot be sent"));
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, Theme::errorColor());
    m_error->setPalette(errorPalette);
    m_error->setTextFormat(Qt::PlainText); // the API server's words, quotes and all
    m_error->setVisible(false);
    layout->addWidget(m_error);

    m_headline = makeLabel(this, tr("Summary"));
    layout->addWidget(m_headline);
    m_managed = new ManagedByLabel(this);
    layout->addWidget(m_managed);
    m_impact = makeLabel(this, tr("Nodes affected"));
    layout->addWidget(m_impact);
    m_estimate = makeLabel(this, tr("Estimated duration"));
    layout->addWidget(m_estimate);

    m_diff = new DiffView(this);
    m_diff->setAccessibleName(tr("Current template against the new one"));
    m_diff->setVisible(mode != models::StartRolloutMode::Strategy);
    layout->addWidget(m_diff, 1);
    if (mode == models::StartRolloutMode::Strategy)
        layout->addStretch(1);

    m_outcomeLabel = makeLabel(this, tr("Outcome"));
    m_outcomeLabel->setVisible(false);
    layout->addWidget(m_outcomeLabel);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = m_buttons->addButton(verb, QDialogButtonBox::AcceptRole);
    // Return must not start a rollout: Cancel is the default, the verb takes the button (or its
    // mnemonic).
    m_confirm->setAutoDefault(false);
    cancelButton()->setDefault(true);
    connect(m_confirm, &QPushButton::clicked, this, &StartRolloutDialog::confirm);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // On a production context the DaemonSet's name must be typed before the verb is enabled.
    m_nameGuard = addNameGuard(layout, m_confirm, dsKey.section(QLatin1Char('/'), 1));
    layout->addWidget(m_buttons);

    if (backend)
        connect(backend, &models::ClusterBackend::actionFinished, this,
                &StartRolloutDialog::onActionFinished);
    updatePreview();

    const QFontMetrics fm(font());
    if (mode == models::StartRolloutMode::Strategy)
        resize(fm.averageCharWidth() * 90, fm.lineSpacing() * 18);
    else
        resize(fm.averageCharWidth() * 130, fm.lineSpacing() * 40);
    if (screen())
        resize(size().boundedTo(screen()->availableSize() * 9 / 10));
}

QPushButton *StartRolloutDialog::cancelButton() const
{
    return m_buttons->button(QDialogButtonBox::Cancel);
}

void StartRolloutDialog::buildImageRows(QFormLayout *form, const models::DaemonSetInfo &ds)
{
    const kube::Json &tpl = *ds.podTemplate;
    const kube::Json spec = tpl.is_object() ? tpl.value("spec", kube::Json::object()) : kube::Json::object();
    for (const char *list : {"initContainers", "containers"}) {
        const kube::Json containers = spec.is_object() ? spec.value(list, kube::Json::array()) : kube::Json();
        if (!containers.is_array())
            continue;
        for (const auto &c : containers) {
            const QString name = QString::fromStdString(c.value("name", std::string()));
            const QString image = QString::fromStdString(c.value("image", std::string()));
            if (name.isEmpty() || m_imageEdits.contains(name))
                continue;
            auto *edit = new QLineEdit(image, this);
            edit->setAccessibleName(tr("Image of container %1").arg(name));
            edit->setPlaceholderText(image);
            edit->setToolTip(tr("Current image: %1").arg(image));
            m_currentImages.insert(name, image);
            m_imageEdits.insert(name, edit);
            connect(edit, &QLineEdit::textChanged, this, &StartRolloutDialog::updatePreview);
            const QString label = QLatin1String(list) == QLatin1String("initContainers")
                                      ? tr("%1 (init container):").arg(name)
                                      : tr("%1:").arg(name);
            form->addRow(label, edit);
        }
    }
}

void StartRolloutDialog::buildStrategyRows(QFormLayout *form, const models::DaemonSetInfo &ds)
{
    const auto [unavailable, surge] = currentBudget(ds);
    m_maxUnavailable = new QLineEdit(unavailable, this);
    m_maxUnavailable->setAccessibleName(QStringLiteral("maxUnavailable"));
    m_maxUnavailable->setPlaceholderText(tr("a number or a percentage, e.g. 1 or 10%"));
    m_maxSurge = new QLineEdit(surge, this);
    m_maxSurge->setAccessibleName(QStringLiteral("maxSurge"));
    m_maxSurge->setPlaceholderText(tr("a number or a percentage, e.g. 0 or 25%"));
    form->addRow(tr("max&Unavailable:"), m_maxUnavailable);
    form->addRow(tr("max&Surge:"), m_maxSurge);
    connect(m_maxUnavailable, &QLineEdit::textChanged, this, &StartRolloutDialog::updatePreview);
    connect(m_maxSurge, &QLineEdit::textChanged, this, &StartRolloutDialog::updatePreview);
}

models::StartRolloutRequest StartRolloutDialog::request() const
{
    models::StartRolloutRequest r;
    r.mode = m_mode;
    for (auto it = m_imageEdits.begin(); it != m_imageEdits.end(); ++it) {
        const QString image = it.value()->text().trimmed();
        if (image != m_currentImages.value(it.key()))
            r.images.insert(it.key(), image);
    }
    if (m_maxUnavailable)
        r.maxUnavailable = m_maxUnavailable->text().trimmed();
    if (m_maxSurge)
        r.maxSurge = m_maxSurge->text().trimmed();
    return r;
}

models::ActionKind StartRolloutDialog::actionKind() const
{
    switch (m_mode) {
    case models::StartRolloutMode::SetImage:
        return models::ActionKind::SetImage;
    case models::StartRolloutMode::Restart:
        return models::ActionKind::RestartRollout;
    case models::StartRolloutMode::Strategy:
        break;
    }
    return models::ActionKind::SetStrategy;
}

void StartRolloutDialog::updatePreview()
{
    const auto snapshot = m_backend ? m_backend->latest() : models::ClusterSnapshot::empty();
    const models::StartRolloutRequest req = request();
    const bool nothingEdited = m_mode == models::StartRolloutMode::SetImage && req.images.isEmpty();
    m_preview = nothingEdited ? models::StartRolloutPreview{}
                              : models::StartRolloutPreview::compute(*snapshot, m_dsKey, req);
    const auto &p = m_preview;
    const models::DaemonSetInfo *ds = snapshot->daemonSet(m_dsKey);
    m_managed->setWarnings(ds ? models::managedByWarnings(*ds, m_mode == models::StartRolloutMode::SetImage
                                                                   ? models::ManagedChange::SetImage
                                                               : m_mode == models::StartRolloutMode::Restart
                                                                   ? models::ManagedChange::Restart
                                                                   : models::ManagedChange::Strategy)
                              : QStringList());

    m_error->setVisible(!nothingEdited && !p.ok);
    m_error->setText(p.ok ? QString() : p.message);
    if (nothingEdited) {
        m_headline->setText(tr("Edit an image to see what would change."));
    } else if (!p.ok) {
        m_headline->setText(ds ? tr("This cannot be sent as it is.") : QString());
    } else {
        switch (m_mode) {
        case models::StartRolloutMode::SetImage:
            m_headline->setText(!p.changed ? tr("Nothing changes: the containers already use these images.")
                                : p.reusedRevision > 0
                                    ? tr("Set the image of <b>%1</b>: the template goes back to revision %2.")
                                          .arg(m_dsKey.toHtmlEscaped())
                                          .arg(p.reusedRevision)
                                    : tr("Set the image of <b>%1</b>: a new revision after revision %2.")
                                          .arg(m_dsKey.toHtmlEscaped())
                                          .arg(p.currentRevision));
            break;
        case models::StartRolloutMode::Restart:
            m_headline->setText(tr("Restart <b>%1</b>: the template gets the annotation "
                                   "kubectl.kubernetes.io/restartedAt, a new revision after revision %2, "
                                   "and every pod is replaced.")
                                    .arg(m_dsKey.toHtmlEscaped())
                                    .arg(p.currentRevision));
            break;
        case models::StartRolloutMode::Strategy:
            m_headline->setText(
                !p.changed ? tr("Nothing changes: the strategy already has these values.")
                : p.editsSavedStrategy
                    ? tr("<b>%1</b> is paused: the saved strategy is edited and it stays paused. When "
                         "resumed it rolls out %2.")
                          .arg(m_dsKey.toHtmlEscaped(), p.budgetText.toHtmlEscaped())
                    : tr("A strategy edit starts no rollout; it changes how the running or next one "
                         "proceeds: <b>%1</b>%2.")
                          .arg(p.budgetText.toHtmlEscaped(),
                               p.oldBudgetNodes > 0 ? tr(" (now %1)").arg(p.oldBudgetNodes) : QString()));
            break;
        }
    }
    showImpact();

    if (m_mode != models::StartRolloutMode::Strategy) {
        // Unchanged, both panes show the current template (what an edit will be compared to).
        if (p.ok)
            m_diff->setTemplates(tr("current (revision %1)").arg(p.currentRevision), p.diff.oldTemplate,
                                 tr("new template"), p.diff.newTemplate);
        else if (nothingEdited && ds && ds->podTemplate)
            m_diff->setTemplates(tr("current (revision %1)").arg(ds->currentRevisionNumber), *ds->podTemplate,
                                 tr("new template"), *ds->podTemplate);
        else
            m_diff->clear();
    }
    const bool wanted = p.ok && p.changed && !m_waiting && m_outcome.isEmpty() && m_backend;
    m_confirm->setProperty("nameGuardWanted", wanted);
    m_confirm->setEnabled(wanted && (!m_nameGuard || m_confirm->property("nameGuardTyped").toBool()));
}

void StartRolloutDialog::showImpact()
{
    const auto &p = m_preview;
    m_impact->clear();
    m_estimate->clear();
    if (p.ok && p.changed && m_mode != models::StartRolloutMode::Strategy) {
        QString impact = tr("%n node(s) will get a new pod", nullptr, p.newPods());
        if (p.nodesOnTarget > 0)
            impact +=
                QStringLiteral("; ") + tr("%n already run(s) the target revision.", nullptr, p.nodesOnTarget);
        m_impact->setText(impact);
    } else if (p.ok && p.changed) {
        m_impact->setText(p.nodesToReplace > 0
                              ? tr("No new rollout starts. The running rollout has %n node(s) left.", nullptr,
                                   p.nodesToReplace)
                              : tr("No new rollout starts and no pod is replaced now; the next rollout "
                                   "runs %1.")
                                    .arg(p.budgetText));
    }
    if (p.ok && p.changed && (m_mode != models::StartRolloutMode::Strategy || p.nodesToReplace > 0)) {
        if (p.manualOnly)
            m_estimate->setText(tr("Estimated duration: none — %1").arg(p.estimateText.toHtmlEscaped()));
        else
            m_estimate->setText(tr("Estimated duration: <b>%1</b> — %2")
                                    .arg(duration(p.estimatedMs), p.estimateText.toHtmlEscaped()));
    }
    m_impact->setVisible(!m_impact->text().isEmpty());
    m_estimate->setVisible(!m_estimate->text().isEmpty());
}

void StartRolloutDialog::confirm()
{
    if (!m_backend || m_waiting || !m_preview.ok || !m_preview.changed)
        return;
    m_waiting = true;
    m_confirm->setEnabled(false);
    for (QLineEdit *e : m_imageEdits)
        e->setReadOnly(true);
    for (QLineEdit *e : {m_maxUnavailable, m_maxSurge})
        if (e)
            e->setReadOnly(true);
    m_outcomeLabel->setText(tr("Sending…"));
    m_outcomeLabel->setVisible(true);
    const models::StartRolloutRequest req = request();
    switch (m_mode) {
    case models::StartRolloutMode::SetImage:
        m_backend->setImage(m_dsKey, req.images);
        break;
    case models::StartRolloutMode::Restart:
        m_backend->restartRollout(m_dsKey);
        break;
    case models::StartRolloutMode::Strategy:
        m_backend->setUpdateStrategy(m_dsKey, req.maxUnavailable, req.maxSurge);
        break;
    }
}

void StartRolloutDialog::onActionFinished(const models::ActionResult &result)
{
    if (!m_waiting || result.kind != actionKind() || result.target != m_dsKey)
        return;
    m_waiting = false;
    m_outcome = result.message;
    m_outcomeLabel->setText(result.ok ? tr("<b>Done:</b> %1").arg(result.message.toHtmlEscaped())
                                      : tr("<b>Failed:</b> %1").arg(result.message.toHtmlEscaped()));
    cancelButton()->setText(tr("&Close"));
    cancelButton()->setDefault(true);
    cancelButton()->setFocus();
    emit actionFinished(result);
}

} // namespace gui
