#include "ui/objectdetaildialog.h"

#include "models/settings/appsettings.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace gui {

namespace {

QString html(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
}

} // namespace

ObjectDetailDialog::ObjectDetailDialog(models::ClusterBackend *backend, const QString &dsKey,
                                       const QString &node, QWidget *parent)
    : QDialog(parent), m_backend(backend), m_dsKey(dsKey), m_node(node)
{
    setObjectName(QStringLiteral("objectDetailDialog"));
    resize(900, 640);

    // The DaemonSet's pod on the node: the newest one that is not being deleted, else any.
    if (m_backend)
        if (const auto *ds = m_backend->latest()->daemonSet(dsKey)) {
            const models::PodInfo *best = nullptr;
            for (const auto &p : *ds->pods)
                if (p.node == node && (!best || (best->deleting && !p.deleting) ||
                                       (best->deleting == p.deleting && p.created > best->created)))
                    best = &p;
            if (best) {
                m_podNamespace = ds->namespace_;
                m_pod = best->name;
            }
        }
    setWindowTitle(m_pod.isEmpty() ? tr("Node %1").arg(node) : tr("%1 on node %2").arg(m_pod, node));

    auto *layout = new QVBoxLayout(this);
    m_header = new QLabel(this);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_header);

    m_tabs = new QTabWidget(this);
    m_podView = new QTextBrowser(m_tabs);
    m_podView->setObjectName(QStringLiteral("podView"));
    m_nodeView = new QTextBrowser(m_tabs);
    m_nodeView->setObjectName(QStringLiteral("nodeView"));
    m_tabs->addTab(m_podView, tr("&Pod"));
    m_tabs->addTab(m_nodeView, tr("&Node"));

    auto *logs = new QWidget(m_tabs);
    auto *logLayout = new QVBoxLayout(logs);
    auto *controls = new QHBoxLayout;
    auto *containerLabel = new QLabel(tr("&Container:"), logs);
    m_container = new QComboBox(logs);
    m_container->setObjectName(QStringLiteral("containerPicker"));
    containerLabel->setBuddy(m_container);
    m_previous = new QCheckBox(tr("P&revious"), logs);
    m_previous->setToolTip(tr("The lines of the container's previous (terminated) instance"));
    m_follow = new QCheckBox(tr("&Follow"), logs);
    m_follow->setToolTip(tr("Keep streaming new lines"));
    auto *tailLabel = new QLabel(tr("&Tail:"), logs);
    m_tail = new QSpinBox(logs);
    m_tail->setRange(0, kMaxLogLines);
    m_tail->setValue(kDefaultTailLines);
    m_tail->setSuffix(tr(" lines"));
    tailLabel->setBuddy(m_tail);
    auto *reload = new QPushButton(tr("Re&load"), logs);
    auto *copy = new QPushButton(tr("C&opy"), logs);
    auto *save = new QPushButton(tr("&Save…"), logs);
    controls->addWidget(containerLabel);
    controls->addWidget(m_container, 1);
    controls->addWidget(m_previous);
    controls->addWidget(m_follow);
    controls->addWidget(tailLabel);
    controls->addWidget(m_tail);
    controls->addWidget(reload);
    controls->addWidget(copy);
    controls->addWidget(save);
    logLayout->addLayout(controls);
    m_log = new QPlainTextEdit(logs);
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    logLayout->addWidget(m_log, 1);
    m_logStatus = new QLabel(logs);
    m_logStatus->setWordWrap(true);
    m_logStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    logLayout->addWidget(m_logStatus);
    m_tabs->addTab(logs, tr("&Logs"));
    layout->addWidget(m_tabs, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *refreshButton = buttons->addButton(tr("R&efresh"), QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refreshButton, &QPushButton::clicked, this, &ObjectDetailDialog::refresh);
    connect(reload, &QPushButton::clicked, this, &ObjectDetailDialog::restartLogs);
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_log->toPlainText()); });
    connect(save, &QPushButton::clicked, this, &ObjectDetailDialog::saveLogs);
    connect(m_previous, &QCheckBox::toggled, this, &ObjectDetailDialog::restartLogs);
    connect(m_follow, &QCheckBox::toggled, this, &ObjectDetailDialog::restartLogs);
    connect(m_container, &QComboBox::activated, this, &ObjectDetailDialog::restartLogs);
    connect(m_tail, &QSpinBox::editingFinished, this, &ObjectDetailDialog::restartLogs);

    if (m_backend) {
        connect(m_backend, &models::ClusterBackend::detailReady, this, &ObjectDetailDialog::onDetail);
        connect(m_backend, &models::ClusterBackend::logData, this, &ObjectDetailDialog::onLogData);
        connect(m_backend, &models::ClusterBackend::logFinished, this, &ObjectDetailDialog::onLogFinished);
    }
    refresh();
}

ObjectDetailDialog::~ObjectDetailDialog()
{
    stopLogs();
}

QString ObjectDetailDialog::podText() const
{
    return m_podView->toPlainText();
}

QString ObjectDetailDialog::nodeText() const
{
    return m_nodeView->toPlainText();
}

QString ObjectDetailDialog::logText() const
{
    return m_log->toPlainText();
}

void ObjectDetailDialog::refresh()
{
    if (!m_backend)
        return;
    m_header->setText(
        m_pod.isEmpty()
            ? tr("Node <b>%1</b>: the DaemonSet %2 has no pod on it.").arg(html(m_node), html(m_dsKey))
            : tr("Pod <b>%1/%2</b> of %3 on node <b>%4</b>")
                  .arg(html(m_podNamespace), html(m_pod), html(m_dsKey), html(m_node)));
    m_nodeRequest = m_backend->requestDetail(QStringLiteral("Node"), QString(), m_node);
    if (m_pod.isEmpty()) {
        m_podView->setPlainText(tr("No pod of %1 on this node.").arg(m_dsKey));
        m_tabs->setTabEnabled(2, false);
        m_tabs->setCurrentIndex(1);
        return;
    }
    m_podRequest = m_backend->requestDetail(QStringLiteral("Pod"), m_podNamespace, m_pod);
    restartLogs();
}

void ObjectDetailDialog::onDetail(const models::ObjectDetail &d)
{
    const bool pod = d.requestId == m_podRequest && m_podRequest != 0;
    if (!pod && (d.requestId != m_nodeRequest || m_nodeRequest == 0))
        return;
    QTextBrowser *view = pod ? m_podView : m_nodeView;
    if (!d.ok || !d.object) {
        view->setPlainText(tr("Cannot read %1 %2: %3").arg(d.kind, d.name, d.error));
        return;
    }
    const qint64 now = m_backend ? m_backend->latest()->clock.now : 0;
    if (pod) {
        m_podSections = models::ObjectDescribe::pod(*d.object, d.events, now);
        showSections(view, m_podSections);
        const QString current = m_container->currentText();
        const QStringList names = models::ObjectDescribe::containerNames(*d.object);
        if (names != QStringList([this] {
                QStringList have;
                for (int i = 0; i < m_container->count(); ++i)
                    have << m_container->itemText(i);
                return have;
            }())) {
            m_container->clear();
            m_container->addItems(names);
            if (names.contains(current))
                m_container->setCurrentText(current);
        }
    } else {
        m_nodeSections = models::ObjectDescribe::node(*d.object, d.events, podsOnNode(), now);
        showSections(view, m_nodeSections);
    }
    if (!d.error.isEmpty()) // the object was read, its events were not
        view->append(QStringLiteral("<p><i>%1</i></p>").arg(html(d.error)));
}

QList<models::NodePodRow> ObjectDetailDialog::podsOnNode() const
{
    QList<models::NodePodRow> rows;
    if (!m_backend)
        return rows;
    const auto snapshot = m_backend->latest();
    for (const auto &ds : snapshot->daemonSets)
        for (const auto &p : *ds.pods)
            if (p.node == m_node)
                rows.push_back(models::NodePodRow{ds.namespace_, p.name, p.ready, p.hash,
                                                  QStringLiteral("DaemonSet/") + ds.name});
    return rows;
}

void ObjectDetailDialog::showSections(QTextBrowser *view, const QList<models::DescribeSection> &sections)
{
    // Colours come from the palette (no fixed colours), so the light and dark themes both read.
    QString out;
    for (const auto &s : sections) {
        out += QStringLiteral("<h3>%1</h3>").arg(html(s.title));
        if (!s.fields.isEmpty()) {
            out += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
            for (const auto &f : s.fields)
                out += QStringLiteral("<tr><td valign='top'><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                           .arg(html(f.label.trimmed()), html(f.value));
            out += QStringLiteral("</table>");
        }
        if (!s.columns.isEmpty() && !s.rows.isEmpty()) {
            out += QStringLiteral("<table cellspacing='0' cellpadding='3' border='1'><tr>");
            for (const auto &c : s.columns)
                out += QStringLiteral("<th align='left'>%1</th>").arg(html(c));
            out += QStringLiteral("</tr>");
            for (const auto &r : s.rows) {
                out += QStringLiteral("<tr>");
                for (const auto &cell : r)
                    out += QStringLiteral("<td valign='top'>%1</td>").arg(html(cell));
                out += QStringLiteral("</tr>");
            }
            out += QStringLiteral("</table>");
        }
    }
    const int scroll = view->verticalScrollBar()->value();
    view->setHtml(out);
    view->verticalScrollBar()->setValue(scroll);
}

void ObjectDetailDialog::stopLogs()
{
    if (m_backend && m_logRequest && m_logRunning)
        m_backend->stopLogs(m_logRequest);
    m_logRunning = false;
    m_logRequest = 0;
}

void ObjectDetailDialog::restartLogs()
{
    stopLogs();
    if (!m_backend || m_pod.isEmpty())
        return;
    m_log->clear();
    models::LogRequest r;
    r.namespace_ = m_podNamespace;
    r.pod = m_pod;
    r.container = m_container->currentText();
    r.previous = m_previous->isChecked();
    r.follow = m_follow->isChecked();
    r.tailLines = m_tail->value();
    m_logStatus->setText(r.follow ? tr("Following…") : tr("Reading…"));
    m_logRequest = m_backend->startLogs(r);
    m_logRunning = true;
}

void ObjectDetailDialog::onLogData(quint64 id, const QString &text)
{
    if (id != m_logRequest || text.isEmpty())
        return;
    QScrollBar *bar = m_log->verticalScrollBar();
    const bool atBottom = bar->value() >= bar->maximum();
    QString chunk = text;
    if (chunk.endsWith(QLatin1Char('\n')))
        chunk.chop(1);
    m_log->appendPlainText(chunk);
    if (atBottom)
        bar->setValue(bar->maximum());
}

void ObjectDetailDialog::onLogFinished(quint64 id, bool ok, const QString &message)
{
    if (id != m_logRequest)
        return;
    m_logRunning = false;
    const int lines = m_log->document()->isEmpty() ? 0 : m_log->blockCount();
    if (!ok)
        m_logStatus->setText(tr("Error: %1").arg(message));
    else if (!message.isEmpty())
        m_logStatus->setText(tr("%n line(s); ended: %1", nullptr, lines).arg(message));
    else
        m_logStatus->setText(tr("%n line(s)", nullptr, lines));
}

void ObjectDetailDialog::saveLogs()
{
    models::AppSettings settings;
    QString dir = settings.exportDirectory();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested =
        dir + QLatin1Char('/') + m_pod + QLatin1Char('-') +
        (m_container->currentText().isEmpty() ? QStringLiteral("log") : m_container->currentText()) +
        QStringLiteral(".log");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Logs"), suggested,
                                                      tr("Log files (*.log *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    const QByteArray bytes = m_log->toPlainText().toUtf8() + '\n';
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        QMessageBox::warning(this, tr("Save Logs"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    settings.setExportDirectory(QFileInfo(path).absolutePath());
}

} // namespace gui
