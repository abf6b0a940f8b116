#include "ui/connectdialog.h"

#include "ui/mainwindow.h"
#include "ui/theme.h"

#include "models/backend/kubeconfigcontexts.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

namespace gui {

ConnectDialog::ConnectDialog(const QString &kubeconfig, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Connect to Cluster"));
    m_file = new QLineEdit(kubeconfig, this);
    m_file->setObjectName(QStringLiteral("kubeconfigFile"));
    // Room for a path such as /home/someone/.kube/config-production without scrolling.
    m_file->setMinimumWidth(m_file->fontMetrics().averageCharWidth() * 48);
    const QString env = qEnvironmentVariable("KUBECONFIG");
    m_file->setPlaceholderText(env.isEmpty() ? QDir::home().filePath(QStringLiteral(".kube/config"))
                                             : tr("KUBECONFIG: %1").arg(env));
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ConnectDialog::browse);
    connect(m_file, &QLineEdit::editingFinished, this, &ConnectDialog::reload);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);

    m_context = new QComboBox(this);
    m_context->setObjectName(QStringLiteral("context"));
    connect(m_context, &QComboBox::currentTextChanged, this, &ConnectDialog::contextChanged);
    m_server = new QLabel(this);
    m_server->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_namespace = new QLineEdit(this);
    m_namespace->setObjectName(QStringLiteral("namespace"));
    m_all = new QCheckBox(tr("All namespaces"), this);
    m_all->setObjectName(QStringLiteral("allNamespaces"));
    connect(m_all, &QCheckBox::toggled, m_namespace, &QWidget::setDisabled);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("connectError"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    updateErrorColor();
    m_error->hide();

    auto *form = new QFormLayout;
    // A row whose field is a layout gets no buddy from QFormLayout: without one the mnemonic
    // would show as a literal "&".
    auto *fileLabel = new QLabel(tr("&Kubeconfig:"), this);
    fileLabel->setBuddy(m_file);
    form->addRow(fileLabel, fileRow);
    form->addRow(tr("C&ontext:"), m_context);
    form->addRow(tr("Server:"), m_server);
    form->addRow(tr("&Namespace:"), m_namespace);
    form->addRow(QString(), m_all);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    reload();
}

void ConnectDialog::browse()
{
    const QString start =
        m_file->text().isEmpty() ? QDir::home().filePath(QStringLiteral(".kube")) : m_file->text();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a Kubeconfig"), start);
    if (!path.isEmpty())
        setKubeconfig(path);
}

void ConnectDialog::setKubeconfig(const QString &path)
{
    m_file->setText(path);
    reload();
}

void ConnectDialog::reload()
{
    const auto config = models::KubeconfigContexts::read(m_file->text());
    const QString previous = m_context->currentText();
    m_context->blockSignals(true);
    m_context->clear();
    m_namespaces.clear();
    m_servers.clear();
    for (const auto &ctx : config.contexts) {
        m_context->addItem(ctx.name);
        m_namespaces.insert(ctx.name, ctx.namespace_);
        m_servers.insert(ctx.name, ctx.server);
    }
    QString error;
    switch (config.problem) {
    case models::KubeconfigContexts::Problem::None:
        break;
    case models::KubeconfigContexts::Problem::Unreadable:
        error = config.loadError;
        break;
    case models::KubeconfigContexts::Problem::NotFound:
        // Nothing was read: say where the console looked, not that a file has no contexts.
        error = config.searched.isEmpty()
                    ? tr("No kubeconfig: neither KUBECONFIG nor HOME is set. Choose a file with Browse….")
                    : tr("No kubeconfig found (looked for %1). Choose a file with Browse….")
                          .arg(config.searched.join(QStringLiteral(", ")));
        break;
    case models::KubeconfigContexts::Problem::NoContexts:
        error = tr("The kubeconfig %1 has no contexts.").arg(config.file);
        break;
    }
    if (m_context->count() > 0) {
        const int keep = m_context->findText(previous);
        const int cur = m_context->findText(config.current);
        m_context->setCurrentIndex(keep >= 0 ? keep : (cur >= 0 ? cur : 0));
    }
    m_context->blockSignals(false);
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
    contextChanged();
}

void ConnectDialog::updateErrorColor()
{
    QPalette p = m_error->palette();
    p.setColor(QPalette::WindowText, Theme::errorColor());
    m_error->setPalette(p);
}

void ConnectDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) &&
        m_error)
        updateErrorColor();
}

void ConnectDialog::contextChanged()
{
    const QString ctx = m_context->currentText();
    const QString ns = m_namespaces.value(ctx);
    m_namespace->setText(ns.isEmpty() ? QStringLiteral("default") : ns);
    m_server->setText(m_servers.value(ctx));
}

void ConnectDialog::setContext(const QString &context)
{
    const int i = m_context->findText(context);
    if (i >= 0)
        m_context->setCurrentIndex(i);
}

void ConnectDialog::setNamespace(const QString &ns)
{
    m_namespace->setText(ns);
}

void ConnectDialog::setAllNamespaces(bool all)
{
    m_all->setChecked(all);
}

QString ConnectDialog::kubeconfig() const
{
    return m_file->text().trimmed();
}

QStringList ConnectDialog::contexts() const
{
    QStringList out;
    for (int i = 0; i < m_context->count(); ++i)
        out << m_context->itemText(i);
    return out;
}

QString ConnectDialog::context() const
{
    return m_context->currentText();
}

QString ConnectDialog::namespace_() const
{
    return m_namespace->text().trimmed();
}

bool ConnectDialog::allNamespaces() const
{
    return m_all->isChecked();
}

QString ConnectDialog::errorText() const
{
    return m_error->text();
}

models::LiveBackendOptions ConnectDialog::options() const
{
    models::LiveBackendOptions o;
    o.kubeconfig = kubeconfig();
    o.context = context();
    o.namespace_ = namespace_();
    o.allNamespaces = allNamespaces();
    return o;
}

void ConnectDialog::addActions(MainWindow *window, QMenu *menu)
{
    auto *connectAction = new QAction(tr("&Connect to Cluster…"), window);
    connectAction->setObjectName(QStringLiteral("connectCluster"));
    connectAction->setStatusTip(tr("Watch a real cluster through a kubeconfig context"));
    QObject::connect(connectAction, &QAction::triggered, window, [window] {
        ConnectDialog dialog(QString(), window);
        if (dialog.exec() == QDialog::Accepted)
            window->setBackend(new models::LiveBackend(dialog.options()));
    });
    auto *demoAction = new QAction(tr("&Embedded Demo Cluster"), window);
    demoAction->setObjectName(QStringLiteral("useEmbeddedDemo"));
    demoAction->setStatusTip(tr("Return to the simulated cluster"));
    QObject::connect(demoAction, &QAction::triggered, window, [window] { window->useEmbeddedBackend(); });
    menu->addAction(connectAction);
    menu->addAction(demoAction);
}

} // namespace gui
