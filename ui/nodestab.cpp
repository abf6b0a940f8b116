#include "ui/nodestab.h"

#include "models/itemmodels/nodemapfilter.h"
#include "models/itemmodels/nodemapmodel.h"
#include "models/planners/nodelag.h"
#include "ui/nodemapview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace gui {

namespace {

using State = models::NodeTile::PodState;
using Lag = models::NodeTile::LagCause;

struct StateChoice
{
    const char *label;
    QList<State> states;
};

constexpr int kFirstLag = static_cast<int>(Lag::NodeNotReady);
constexpr int kLastLag = static_cast<int>(Lag::RolloutPaused);

QList<Lag> everyLag()
{
    QList<Lag> all;
    for (int c = kFirstLag; c <= kLastLag; ++c)
        all << static_cast<Lag>(c);
    return all;
}

const StateChoice kChoices[] = {
    {QT_TRANSLATE_NOOP("gui::NodesTab", "All pod states"), {}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Problems (not ready, terminating, missing)"),
     {State::NotReady, State::Terminating, State::Missing}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Ready"), {State::Ready}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Not ready"), {State::NotReady}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Terminating"), {State::Terminating}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Missing"), {State::Missing}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Surging"), {State::Surging}},
    {QT_TRANSLATE_NOOP("gui::NodesTab", "Not scheduled"), {State::NotScheduled}},
};

} // namespace

NodesTab::NodesTab(QWidget *parent) : QWidget(parent)
{
    m_model = new models::NodeMapModel(this);
    m_filter = new models::NodeMapFilter(this);
    m_filter->setSourceModel(m_model);

    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Filter nodes: name or label=value"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Node filter"));
    m_search->setToolTip(
        tr("Space-separated terms, all must match: a part of the node name, or key=value for a label"));
    auto *searchLabel = new QLabel(tr("&Filter:"), this);
    searchLabel->setBuddy(m_search);
    bar->addWidget(searchLabel);
    bar->addWidget(m_search, 2);

    m_states = new QComboBox(this);
    m_states->setAccessibleName(tr("Pod state filter"));
    for (const auto &c : kChoices)
        m_states->addItem(tr(c.label));
    // Then the causes: "Behind (any cause)" and one entry per cause, the cause in the item data.
    m_states->addItem(tr("Behind (any cause)"), -1);
    for (int c = kFirstLag; c <= kLastLag; ++c)
        m_states->addItem(tr("Behind: %1").arg(models::lagCauseName(static_cast<Lag>(c))), c);
    auto *stateLabel = new QLabel(tr("&State:"), this);
    stateLabel->setBuddy(m_states);
    bar->addWidget(stateLabel);
    bar->addWidget(m_states, 1);
    m_count = new QLabel(this);
    m_count->setAccessibleName(tr("Shown nodes"));
    bar->addWidget(m_count);
    layout->addLayout(bar);

    m_behind = new QLabel(this);
    m_behind->setAccessibleName(tr("Nodes behind by cause"));
    m_behind->setTextFormat(Qt::RichText);
    m_behind->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_behind->setWordWrap(true);
    m_behind->setVisible(false);
    layout->addWidget(m_behind);
    connect(m_behind, &QLabel::linkActivated, this, [this](const QString &link) {
        bool ok = false;
        const int cause = link.mid(int(qstrlen("lag:"))).toInt(&ok);
        if (ok && cause >= kFirstLag && cause <= kLastLag)
            filterByLag(static_cast<Lag>(cause));
    });

    m_view = new NodeMapView(this);
    m_view->setModel(m_filter);
    m_view->setAccessibleName(tr("Node map"));
    layout->addWidget(m_view, 1);

    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAccessibleName(tr("Current node"));
    m_details->setText(
        tr("Click a tile (or use the arrow keys) to see its node and pod; Return or a double click "
           "opens its details and logs, a right click (or the Menu key) its actions."));
    layout->addWidget(m_details);

    connect(m_search, &QLineEdit::textChanged, m_filter, &models::NodeMapFilter::setFilterText);
    connect(m_states, &QComboBox::currentIndexChanged, this, &NodesTab::applyStateFilter);
    connect(m_view, &NodeMapView::currentNodeChanged, this, &NodesTab::updateNodeDetails);
    connect(m_view, &NodeMapView::nodeActivated, this, &NodesTab::nodeActivated);
    connect(m_view, &NodeMapView::nodeContextMenuRequested, this, &NodesTab::nodeContextMenuRequested);
    connect(m_view, &NodeMapView::highlightedRevisionChanged, this, [this](qint64 revision) {
        m_filter->setHighlightedRevision(revision);
        emit highlightedRevisionChanged(revision);
    });
    connect(m_model, &models::NodeMapModel::lagCountsChanged, this, &NodesTab::updateBehindLabel);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &NodesTab::updateCountLabel);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &NodesTab::updateCountLabel);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &NodesTab::updateCountLabel);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &NodesTab::updateCountLabel);
    updateCountLabel();
}

void NodesTab::setTiles(std::vector<models::NodeTile> tiles, qint64 referenceTime)
{
    m_model->setReferenceTime(referenceTime);
    m_model->setTiles(std::move(tiles));
    updateNodeDetails();
    updateCountLabel();
}

void NodesTab::setReferenceTime(qint64 referenceTime)
{
    if (m_model->referenceTime() == referenceTime)
        return;
    m_model->setReferenceTime(referenceTime);
    updateNodeDetails();
}

void NodesTab::setHighlightedRevision(qint64 revisionNumber)
{
    m_filter->setHighlightedRevision(revisionNumber);
    m_view->setHighlightedRevision(revisionNumber);
}

QString NodesTab::currentNode() const
{
    return m_view->currentNode();
}

void NodesTab::applyStateFilter()
{
    const int i = m_states->currentIndex();
    if (i >= 0 && i < int(std::size(kChoices))) {
        m_filter->setLagFilter({});
        m_filter->setStateFilter(kChoices[i].states);
    } else if (i >= int(std::size(kChoices))) {
        const int cause = m_states->itemData(i).toInt();
        m_filter->setStateFilter({});
        m_filter->setLagFilter(cause < 0 ? everyLag() : QList<Lag>{static_cast<Lag>(cause)});
    }
    updateCountLabel();
}

void NodesTab::filterByLag(models::NodeTile::LagCause cause)
{
    const int i = cause == Lag::None ? 0 : m_states->findData(static_cast<int>(cause));
    if (i >= 0)
        m_states->setCurrentIndex(i);
}

void NodesTab::updateBehindLabel()
{
    const auto &counts = m_model->lagCounts();
    m_behind->setVisible(!counts.empty());
    if (counts.empty()) {
        m_behind->clear();
        return;
    }
    const QLocale locale;
    QStringList parts;
    int total = 0;
    for (const auto &c : counts) {
        total += c.count;
        parts << QStringLiteral("<a href=\"lag:%1\">%2 %3</a>")
                     .arg(static_cast<int>(c.cause))
                     .arg(locale.toString(c.count), models::lagCauseName(c.cause).toHtmlEscaped());
    }
    m_behind->setText(
        tr("Why %n node(s) are behind: %1", nullptr, total).arg(parts.join(QStringLiteral(" · "))));
}

void NodesTab::updateNodeDetails()
{
    const QString node = m_view->currentNode();
    const int row = node.isEmpty() ? -1 : m_model->rowOfNode(node);
    if (row < 0)
        return;
    // The tooltip text is the one description of a tile; the details line repeats it on one line.
    QString text = m_model->toolTip(m_model->tile(row));
    text.replace(QLatin1Char('\n'), QStringLiteral(" · "));
    m_details->setText(text);
}

void NodesTab::updateCountLabel()
{
    m_count->setText(tr("%1 of %2 nodes").arg(m_filter->rowCount()).arg(m_model->rowCount()));
}

} // namespace gui
