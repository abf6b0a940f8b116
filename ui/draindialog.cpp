#include "ui/draindialog.h"

#include "models/planners/drainpreview.h"
#include "ui/confirmation.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

namespace gui {

namespace {

QString list(const QStringList &items, int max = 12)
{
    QString html = QStringLiteral("<ul style=\"margin-top:0\">");
    for (int i = 0; i < items.size() && i < max; ++i)
        html += QStringLiteral("<li>%1</li>").arg(items[i].toHtmlEscaped());
    if (items.size() > max)
        html += QStringLiteral("<li>%1</li>").arg(DrainDialog::tr("… and %1 more").arg(items.size() - max));
    return html + QStringLiteral("</ul>");
}

} // namespace

DrainDialog::DrainDialog(const models::ClusterSnapshot &snapshot, const QString &node, QWidget *parent)
    : QDialog(parent), m_node(node)
{
    setObjectName(QStringLiteral("drainDialog"));
    setWindowTitle(tr("Drain %1").arg(node));
    const models::DrainPreview p = models::previewDrain(snapshot, node);
    auto *layout = new QVBoxLayout(this);

    QString html =
        tr("<p><b>Drain %1</b>: cordon the node, then evict its pods through the Eviction API, as "
           "<tt>kubectl drain %1 --ignore-daemonsets</tt> does.%2</p>")
            .arg(node.toHtmlEscaped(), p.cordoned ? tr(" The node is cordoned already.") : QString());
    if (p.workloadKnown) {
        if (p.evictCount == 1)
            html +=
                tr("<p><b>Evicted:</b> 1 pod of a ReplicaSet, Deployment, StatefulSet or Job; its controller "
                   "recreates it on another node.</p>");
        else if (p.evictCount > 1)
            html += tr("<p><b>Evicted:</b> %1 pods of ReplicaSets, Deployments, StatefulSets or Jobs; their "
                       "controllers recreate them on other nodes.</p>")
                        .arg(p.evictCount);
        else
            html += tr("<p><b>Evicted:</b> no pods besides finished ones.</p>");
    } else {
        html +=
            tr("<p><b>Evicted:</b> every pod on the node that has a controller; the drain lists them when "
               "it starts.</p>");
    }
    if (!p.daemonSetPods.isEmpty())
        html += tr("<p><b>Skipped</b> (DaemonSet pods: the DaemonSet controller would put them back at "
                   "once):</p>") +
                list(p.daemonSetPods);
    html += tr("<p>Also skipped: mirror pods of static pods. Finished pods are removed.</p>");
    if (!p.unmanagedPods.isEmpty())
        html += tr("<p><b>Refused:</b> pods without a controller would be lost, so the drain stops before "
                   "evicting anything (kubectl: use --force):</p>") +
                list(p.unmanagedPods);
    html += tr("<p><b>PodDisruptionBudgets</b> decide every eviction. A pod whose budget allows no "
               "disruption is retried for 15 s; then the drain finishes, the node stays cordoned, and the "
               "outcome names the pod and the budget with its numbers.</p>");
    m_summary = new QLabel(html, this);
    m_summary->setObjectName(QStringLiteral("drainSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setMinimumWidth(460);
    layout->addWidget(m_summary);

    m_emptyDir = new QCheckBox(tr("Delete &emptyDir data (--delete-emptydir-data)"), this);
    m_emptyDir->setToolTip(
        tr("Pods with emptyDir volumes are refused unless their scratch data may be lost"));
    layout->addWidget(m_emptyDir);

    auto *buttons = new QDialogButtonBox(this);
    m_drain = buttons->addButton(tr("&Drain"), QDialogButtonBox::DestructiveRole);
    m_drain->setObjectName(QStringLiteral("drainButton"));
    m_drain->setAutoDefault(false);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setDefault(true);
    connect(m_drain, &QPushButton::clicked, this, &QDialog::accept);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    addNameGuard(layout, m_drain, node);
    layout->addWidget(buttons);
    if (!productionGuardActive())
        cancel->setFocus();
}

bool DrainDialog::deleteEmptyDirData() const
{
    return m_emptyDir->isChecked();
}

QString DrainDialog::summaryText() const
{
    QTextDocument doc;
    doc.setHtml(m_summary->text());
    return doc.toPlainText();
}

} // namespace gui
