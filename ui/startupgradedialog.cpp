#include "ui/startupgradedialog.h"

#include "models/kube/yamldocument.h"
#include "models/planners/upgradepreflight.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QVersionNumber>

namespace gui {

namespace {

QLineEdit *durationEdit(const QString &value, QWidget *parent)
{
    auto *e = new QLineEdit(value, parent);
    e->setPlaceholderText(QStringLiteral("30m"));
    e->setMaximumWidth(e->fontMetrics().averageCharWidth() * 10);
    return e;
}

} // namespace

QString StartUpgradeDialog::suggestedTargetVersion(const models::ClusterSnapshot &snapshot)
{
    QString best;
    QVersionNumber bestNumber;
    for (const auto &n : *snapshot.nodes) {
        QString v = n.agentVersion;
        const QVersionNumber number =
            QVersionNumber::fromString(v.startsWith(QLatin1Char('v')) ? v.mid(1) : v);
        if (best.isEmpty() || QVersionNumber::compare(number, bestNumber) > 0) {
            best = v;
            bestNumber = number;
        }
    }
    return best;
}

StartUpgradeDialog::StartUpgradeDialog(models::SnapshotPtr snapshot, QWidget *parent)
    : QDialog(parent), m_snapshot(snapshot ? std::move(snapshot) : models::ClusterSnapshot::empty())
{
    setWindowTitle(tr("Start Node Upgrade"));
    setObjectName(QStringLiteral("startUpgradeDialog"));

    const QString target = suggestedTargetVersion(*m_snapshot);
    m_name = new QLineEdit(this);
    QString name = QStringLiteral("agents-") + (target.isEmpty() ? QStringLiteral("upgrade") : target);
    name.replace(QLatin1Char('.'), QLatin1Char('-'));
    name = name.toLower();
    const QString base = name;
    for (int i = 2; m_snapshot->upgrade(name); ++i)
        name = base + QStringLiteral("-%1").arg(i);
    m_name->setText(name);
    m_target = new QLineEdit(target, this);
    m_selector = new QLineEdit(this);
    m_selector->setPlaceholderText(tr("every node (e.g. node-pool=general)"));
    m_maxUnavailable = new QLineEdit(QStringLiteral("1"), this);
    m_maxUnavailable->setToolTip(
        tr("A number or a percentage of the matched nodes (rounded down, at least 1)"));
    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setRange(0, 100);
    m_threshold->setDecimals(0);
    m_threshold->setSuffix(QStringLiteral(" %"));
    m_threshold->setValue(90);
    m_threshold->setToolTip(
        tr("A controller's pod is deleted only while more than this share of its replicas is ready"));
    m_singleReplica = new QComboBox(this);
    m_singleReplica->addItem(tr("Allow (with a Warning)"), QStringLiteral("Allow"));
    m_singleReplica->addItem(tr("Block until an admin acts"), QStringLiteral("Block"));
    m_unready = new QComboBox(this);
    m_unready->addItem(tr("Always delete"), QStringLiteral("AlwaysDelete"));
    m_unready->addItem(tr("Count toward health"), QStringLiteral("CountTowardHealth"));
    m_unmanaged = new QComboBox(this);
    m_unmanaged->addItem(tr("After a timeout since marking"), QStringLiteral("afterTimeout"));
    m_unmanaged->addItem(tr("Immediately"), QStringLiteral("immediate"));
    m_unmanaged->addItem(tr("Never (wait for an admin)"), QStringLiteral("never"));
    m_unmanagedTimeout = durationEdit(QStringLiteral("1h"), this);
    m_onDrainTimeout = new QComboBox(this);
    m_onDrainTimeout->addItem(tr("Hold (keep the node cordoned)"), QStringLiteral("Hold"));
    m_onDrainTimeout->addItem(tr("Skip the node"), QStringLiteral("Skip"));
    m_onDrainTimeout->addItem(tr("Force the drain"), QStringLiteral("Force"));
    m_localData = new QComboBox(this);
    m_localData->setObjectName(QStringLiteral("localDataPolicy"));
    m_localData->addItem(tr("Block (the node waits)"), QStringLiteral("Block"));
    m_localData->addItem(tr("Delete (their data is lost)"), QStringLiteral("Delete"));
    m_maxFailed = new QSpinBox(this);
    m_maxFailed->setRange(1, 1000);
    m_maxFailed->setValue(1);
    m_zoneSerial = new QCheckBox(tr("One zone at a time"), this);
    m_zoneSerial->setChecked(true);
    m_startPaused = new QCheckBox(tr("Create paused (observe only)"), this);
    m_drainTimeout = durationEdit(QStringLiteral("30m"), this);
    m_drainStall = durationEdit(QStringLiteral("5m"), this);
    m_returnTimeout = durationEdit(QStringLiteral("10m"), this);
    m_soak = durationEdit(QStringLiteral("2m"), this);

    // How a drained node restarts on the new version (spec.restart).
    m_restart = new QComboBox(this);
    m_restart->setObjectName(QStringLiteral("restartMechanism"));
    m_restart->addItem(tr("Ask the node's agent (annotation handshake)"), QStringLiteral("Annotation"));
    m_restart->addItem(tr("Run an upgrade Job on the node"), QStringLiteral("Job"));
    m_restart->addItem(tr("Another tool restarts or replaces it"), QStringLiteral("External"));
    m_jobBox = new QGroupBox(tr("Upgrade Job"), this);
    m_jobNamespace = new QLineEdit(QStringLiteral("kube-system"), m_jobBox);
    m_jobTemplate = new QPlainTextEdit(m_jobBox);
    m_jobTemplate->setObjectName(QStringLiteral("jobTemplate"));
    m_jobTemplate->setAccessibleName(tr("Job template (YAML)"));
    m_jobTemplate->setPlainText(
        QStringLiteral("spec:\n"
                       "  backoffLimit: 2\n"
                       "  ttlSecondsAfterFinished: 86400\n"
                       "  template:\n"
                       "    spec:\n"
                       "      hostPID: true\n"
                       "      containers:\n"
                       "        - name: upgrade\n"
                       "          image: registry.example/node-agent-installer:latest\n"
                       "          securityContext: {privileged: true}\n"));
    m_jobTemplate->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_jobTemplate->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_jobTemplate->setMinimumHeight(fontMetrics().lineSpacing() * 8);
    auto *jform = new QFormLayout(m_jobBox);
    jform->addRow(tr("N&amespace:"), m_jobNamespace);
    jform->addRow(tr("&Job template (YAML):"), m_jobTemplate);
    m_jobBox->setVisible(false);
    connect(m_restart, &QComboBox::currentIndexChanged, this,
            [this] { m_jobBox->setVisible(m_restart->currentData().toString() == QLatin1String("Job")); });

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Target version:"), m_target);
    form->addRow(tr("Node &selector:"), m_selector);
    form->addRow(tr("&maxUnavailable:"), m_maxUnavailable);
    form->addRow(tr("Controller &health threshold:"), m_threshold);
    form->addRow(tr("Single-&replica controllers:"), m_singleReplica);
    form->addRow(tr("Unready pods:"), m_unready);
    auto *unmanagedRow = new QHBoxLayout;
    unmanagedRow->addWidget(m_unmanaged, 1);
    unmanagedRow->addWidget(m_unmanagedTimeout);
    form->addRow(tr("&Unmanaged pods:"), unmanagedRow);
    // A row holding a layout gets no buddy of its own: without one the label shows the "&".
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(unmanagedRow)))
        label->setBuddy(m_unmanaged);
    form->addRow(tr("On &drain timeout:"), m_onDrainTimeout);
    form->addRow(tr("Pods with &emptyDir data:"), m_localData);
    form->addRow(tr("Halt after failed nodes:"), m_maxFailed);
    form->addRow(tr("Restart on the ne&w version:"), m_restart);
    form->addRow(QString(), m_zoneSerial);
    form->addRow(QString(), m_startPaused);

    auto *timeouts = new QGroupBox(tr("Timeouts"), this);
    auto *tform = new QFormLayout(timeouts);
    tform->addRow(tr("Drain timeout:"), m_drainTimeout);
    tform->addRow(tr("Drain stall:"), m_drainStall);
    tform->addRow(tr("Return after restart:"), m_returnTimeout);
    tform->addRow(tr("Soak:"), m_soak);

    auto *left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_jobBox);
    left->addWidget(timeouts);
    left->addStretch(1);

    auto *preflightBox = new QGroupBox(tr("Pre-flight"), this);
    auto *pl = new QVBoxLayout(preflightBox);
    m_preflight = new QPlainTextEdit(preflightBox);
    m_preflight->setObjectName(QStringLiteral("preflightText"));
    m_preflight->setReadOnly(true);
    m_preflight->setAccessibleName(tr("Pre-flight report"));
    m_preflight->setMinimumWidth(fontMetrics().averageCharWidth() * 60);
    pl->addWidget(m_preflight);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addWidget(preflightBox, 1);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Start Upgrade"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_buttons);

    for (QLineEdit *e : {m_name, m_target, m_selector, m_maxUnavailable, m_unmanagedTimeout, m_drainTimeout,
                         m_drainStall, m_returnTimeout, m_soak})
        connect(e, &QLineEdit::textChanged, this, &StartUpgradeDialog::updatePreflight);
    for (QComboBox *c : {m_singleReplica, m_unready, m_unmanaged, m_onDrainTimeout, m_localData, m_restart})
        connect(c, &QComboBox::currentIndexChanged, this, &StartUpgradeDialog::updatePreflight);
    connect(m_jobNamespace, &QLineEdit::textChanged, this, &StartUpgradeDialog::updatePreflight);
    connect(m_jobTemplate, &QPlainTextEdit::textChanged, this, &StartUpgradeDialog::updatePreflight);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &StartUpgradeDialog::updatePreflight);
    connect(m_maxFailed, &QSpinBox::valueChanged, this, &StartUpgradeDialog::updatePreflight);
    connect(m_zoneSerial, &QCheckBox::toggled, this, &StartUpgradeDialog::updatePreflight);
    updatePreflight();
}

QString StartUpgradeDialog::rolloutName() const
{
    return m_name->text().trimmed();
}

kube::Json StartUpgradeDialog::specJson() const
{
    kube::Json spec = kube::Json::object();
    spec["targetVersion"] = m_target->text().trimmed().toStdString();
    kube::Json selector = kube::Json::object();
    for (const QString &part : m_selector->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString kv = part.trimmed();
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            selector[kv.left(eq).trimmed().toStdString()] = kv.mid(eq + 1).trimmed().toStdString();
        else if (!kv.isEmpty())
            selector[kv.toStdString()] = "";
    }
    if (!selector.empty())
        spec["nodeSelector"] = selector;
    const QString maxU = m_maxUnavailable->text().trimmed();
    bool isInt = false;
    const int n = maxU.toInt(&isInt);
    spec["maxUnavailable"] = isInt ? kube::Json(n) : kube::Json(maxU.toStdString());
    spec["controllerHealthThreshold"] = m_threshold->value() / 100.0;
    spec["singleReplicaPolicy"] = m_singleReplica->currentData().toString().toStdString();
    spec["unreadyPodPolicy"] = m_unready->currentData().toString().toStdString();
    const QString unmanaged = m_unmanaged->currentData().toString();
    if (unmanaged == QLatin1String("afterTimeout"))
        spec["unmanagedPodPolicy"] = {{"afterTimeout", m_unmanagedTimeout->text().trimmed().toStdString()}};
    else
        spec["unmanagedPodPolicy"] = unmanaged.toStdString();
    spec["onDrainTimeout"] = m_onDrainTimeout->currentData().toString().toStdString();
    spec["localDataPolicy"] = m_localData->currentData().toString().toStdString();
    spec["maxFailedNodes"] = m_maxFailed->value();
    spec["zoneSerial"] = m_zoneSerial->isChecked();
    spec["paused"] = m_startPaused->isChecked();
    spec["soakDuration"] = m_soak->text().trimmed().toStdString();
    spec["timeouts"] = {{"drainTimeout", m_drainTimeout->text().trimmed().toStdString()},
                        {"drainStall", m_drainStall->text().trimmed().toStdString()},
                        {"returnTimeout", m_returnTimeout->text().trimmed().toStdString()}};
    const std::string mechanism = m_restart->currentData().toString().toStdString();
    if (mechanism != "Annotation") {
        spec["restart"] = {{"mechanism", mechanism}};
        if (mechanism == "Job") {
            spec["restart"]["jobNamespace"] = m_jobNamespace->text().trimmed().toStdString();
            auto tpl = jobTemplate();
            spec["restart"]["jobTemplate"] = tpl ? *tpl : kube::Json();
        }
    }
    return spec;
}

kube::Result<kube::Json> StartUpgradeDialog::jobTemplate() const
{
    auto docs = kube::parseYamlDocuments(m_jobTemplate->toPlainText().toStdString(), "job template");
    if (!docs)
        return docs.error();
    if (docs->size() != 1 || !(*docs)[0].value.is_object())
        return kube::ApiStatus::badRequest(
            "job template: one YAML map is expected (metadata and spec of the Job)");
    return (*docs)[0].value;
}

QString StartUpgradeDialog::rolloutJson() const
{
    return QString::fromStdString(
        models::UpgradePreflight::rolloutManifest(rolloutName(), specJson()).dump());
}

QString StartUpgradeDialog::preflightText() const
{
    return m_preflight->toPlainText();
}

void StartUpgradeDialog::setSnapshot(models::SnapshotPtr snapshot)
{
    if (!snapshot)
        return;
    m_snapshot = std::move(snapshot);
    updatePreflight();
}

void StartUpgradeDialog::updatePreflight()
{
    QString problem;
    if (rolloutName().isEmpty())
        problem = tr("The rollout needs a name.");
    else if (m_snapshot->upgrade(rolloutName()))
        problem = tr("A rollout named %1 exists: starting updates its spec.").arg(rolloutName());
    if (m_restart->currentData().toString() == QLatin1String("Job"))
        if (auto tpl = jobTemplate(); !tpl) {
            m_preflight->setPlainText(tr("Invalid: %1").arg(QString::fromStdString(tpl.error().message)));
            m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
            return;
        }
    const auto report = models::UpgradePreflight::forSpec(*m_snapshot, specJson());
    if (!report) {
        m_preflight->setPlainText(tr("Invalid: %1").arg(QString::fromStdString(report.error().message)));
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
        return;
    }
    QString text = report->text();
    if (!problem.isEmpty())
        text = problem + QLatin1Char('\n') + text;
    m_preflight->setPlainText(text);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!rolloutName().isEmpty());
}

} // namespace gui
