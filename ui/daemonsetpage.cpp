#include "ui/daemonsetpage.h"

#include "models/itemmodels/eventfiltermodel.h"
#include "models/itemmodels/eventlistmodel.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "ui/difftab.h"
#include "ui/nodestab.h"
#include "ui/nodetiles.h"
#include "ui/pausedbanner.h"
#include "ui/progresstab.h"
#include "ui/rollouthistoryview.h"
#include "ui/statusbadgedelegate.h"
#include "ui/timelineview.h"

#include "models/planners/managedby.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

namespace gui {

namespace {

// The rows of the events table measured to fit its columns: those in view first, then around.
constexpr int kEventRowsMeasured = 100;

} // namespace

DaemonSetPage::DaemonSetPage(QWidget *parent) : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    m_placeholder = new QLabel(
        tr("Choose a DaemonSet in the explorer to see its revisions, nodes, diffs and events."), m_stack);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_placeholder);

    auto *content = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(content);

    auto *titleRow = new QHBoxLayout;
    m_title = new QLabel(content);
    QFont titleFont = m_title->font();
    if (titleFont.pointSizeF() > 0)
        titleFont.setPointSizeF(titleFont.pointSizeF() * 1.35);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setAccessibleName(tr("DaemonSet"));
    titleRow->addWidget(m_title);
    m_badge = new QLabel(content);
    m_badge->setAutoFillBackground(true);
    m_badge->setAccessibleName(tr("Rollout status"));
    {
        const int pad = m_badge->fontMetrics().averageCharWidth();
        m_badge->setContentsMargins(pad, 0, pad, 0);
    }
    titleRow->addWidget(m_badge);
    buildRolloutButtons(titleRow, content);
    layout->addLayout(titleRow);

    m_summary = new QLabel(content);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("Counts and strategy"));
    layout->addWidget(m_summary);
    m_headline = new QLabel(content);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setAccessibleName(tr("Why the rollout is waiting"));
    layout->addWidget(m_headline);

    m_banner = new PausedBanner(content);
    m_banner->setVisible(false);
    connect(m_banner, &PausedBanner::resumeRequested, this, &DaemonSetPage::resumeRequested);
    layout->addWidget(m_banner);

    m_tabs = new QTabWidget(content);
    m_tabs->setAccessibleName(tr("DaemonSet views"));
    m_tabs->setDocumentMode(true);

    m_timelineModel = new models::RevisionTimelineModel(nullptr, this);
    m_timeline = new TimelineView(m_timelineModel, m_tabs);
    m_tabs->addTab(m_timeline, tr("&Timeline"));

    m_nodes = new NodesTab(m_tabs);
    m_tabs->addTab(m_nodes, tr("&Nodes"));

    m_diff = new DiffTab(m_tabs);
    m_tabs->addTab(m_diff, tr("&Diff"));

    auto *events = new QWidget(m_tabs);
    auto *eventsLayout = new QVBoxLayout(events);
    auto *eventsBar = new QHBoxLayout;
    m_eventSearch = new QLineEdit(events);
    m_eventSearch->setPlaceholderText(tr("Filter events: reason, object or message"));
    m_eventSearch->setClearButtonEnabled(true);
    m_eventSearch->setAccessibleName(tr("Event filter"));
    eventsBar->addWidget(m_eventSearch, 1);
    m_allEvents = new QCheckBox(tr("&Whole cluster"), events);
    m_allEvents->setToolTip(tr("Show the events of every object, not only this DaemonSet and its pods"));
    m_eventTypes = new QComboBox(events);
    m_eventTypes->setObjectName(QStringLiteral("eventTypeFilter"));
    m_eventTypes->setAccessibleName(tr("Event type"));
    m_eventTypes->addItem(tr("All types"), QVariant::fromValue(models::EventFilterModel::Types::All));
    m_eventTypes->addItem(tr("Warnings"), QVariant::fromValue(models::EventFilterModel::Types::Warning));
    m_eventTypes->addItem(tr("Normal"), QVariant::fromValue(models::EventFilterModel::Types::Normal));
    eventsBar->insertWidget(1, m_eventTypes);
    eventsBar->addWidget(m_allEvents);
    eventsLayout->addLayout(eventsBar);
    m_eventModel = new models::EventListModel(this);
    m_eventFilter = new models::EventFilterModel(this);
    m_eventFilter->setSourceModel(m_eventModel);
    m_eventsEmpty = new QLabel(events);
    m_eventsEmpty->setObjectName(QStringLiteral("eventsEmpty"));
    m_eventsEmpty->setWordWrap(true);
    m_eventsEmpty->setAlignment(Qt::AlignCenter);
    m_eventsEmpty->setForegroundRole(QPalette::PlaceholderText);
    m_eventsEmpty->hide();
    eventsLayout->addWidget(m_eventsEmpty, 1);
    m_eventsView = new QTableView(events);
    m_eventsView->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_eventsView->setModel(m_eventFilter);
    m_eventsView->setAccessibleName(tr("Events"));
    m_eventsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventsView->setAlternatingRowColors(true);
    m_eventsView->setWordWrap(false);
    m_eventsView->verticalHeader()->setVisible(false);
    // Word wrap is off, so every row is one line high: a fixed height. ResizeToContents would
    // measure every cell of up to 2,000 events on each update, even while the tab is hidden.
    m_eventsView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_eventsView->verticalHeader()->setDefaultSectionSize(m_eventsView->fontMetrics().height() + 6);
    // Its columns fit their contents while it is shown, measuring the rows in view and a few
    // around them: with Qt's default of a thousand rows a single update of a large DaemonSet's
    // events took 30 ms, and the events change with nearly every snapshot.
    m_eventsView->horizontalHeader()->setResizeContentsPrecision(kEventRowsMeasured);
    fitEventColumns(false);
    m_eventsView->installEventFilter(this);
    // Click a header to sort by it; newest first until then.
    m_eventsView->horizontalHeader()->setSortIndicator(models::EventListModel::TimeColumn,
                                                       Qt::DescendingOrder);
    m_eventsView->setSortingEnabled(true);
    eventsLayout->addWidget(m_eventsView, 1);
    m_tabs->addTab(events, tr("&Events"));

    m_progress = new ProgressTab(m_tabs);
    m_tabs->addTab(m_progress, tr("&Progress"));
    connect(m_eventSearch, &QLineEdit::textChanged, m_eventFilter, &models::EventFilterModel::setSearchText);
    connect(m_eventTypes, &QComboBox::currentIndexChanged, this, [this] {
        m_eventFilter->setTypes(m_eventTypes->currentData().value<models::EventFilterModel::Types>());
    });
    connect(m_allEvents, &QCheckBox::toggled, this,
            [this](bool all) { m_eventModel->setDaemonSetKey(all ? QString() : m_key); });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_eventFilter, signal, this, &DaemonSetPage::updateEventsPlaceholder);
    connect(m_eventFilter, &QAbstractItemModel::modelReset, this, &DaemonSetPage::updateEventsPlaceholder);
    connect(m_eventFilter, &QAbstractItemModel::layoutChanged, this, &DaemonSetPage::updateEventsPlaceholder);

    layout->addWidget(m_tabs, 1);
    m_stack->addWidget(content);

    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (currentTab() == Tab::Nodes)
            refreshNodes();
        if (currentTab() == Tab::Diff)
            refreshDiff();
        emit currentTabChanged(currentTab());
    });
    connect(m_timeline, &TimelineView::revisionSelected, this, [this](qint64 number) {
        m_highlighted = number;
        m_nodes->setHighlightedRevision(number);
    });
    connect(m_nodes, &NodesTab::highlightedRevisionChanged, this, [this](qint64 number) {
        if (number == m_highlighted)
            return;
        m_highlighted = number;
        if (number >= 0)
            m_timeline->selectRevision(number);
    });
    connect(m_timeline, &TimelineView::diffRequested, this, &DaemonSetPage::showDiff);
    connect(m_timeline, &TimelineView::rollbackRequested, this, &DaemonSetPage::rollbackRequested);

    m_stack->setCurrentIndex(0);
}

DaemonSetPage::~DaemonSetPage() = default;

const models::DaemonSetInfo *DaemonSetPage::daemonSet() const
{
    return m_snapshot && !m_key.isEmpty() ? m_snapshot->daemonSet(m_key) : nullptr;
}

void DaemonSetPage::setSnapshot(const models::SnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    m_timelineModel->setSnapshot(snapshot);
    m_eventModel->setSnapshot(snapshot);
    m_progress->setSnapshot(snapshot);
    m_nodesDirty = true;
    m_diffDirty = true;
    refresh();
}

void DaemonSetPage::setDaemonSet(const QString &dsKey)
{
    if (dsKey == m_key)
        return;
    m_key = dsKey;
    m_highlighted = -1;
    m_timelineModel->setDaemonSetKey(dsKey);
    m_progress->setDaemonSetKey(dsKey);
    m_eventModel->setDaemonSetKey(m_allEvents->isChecked() ? QString() : dsKey);
    updateEventsPlaceholder();
    m_nodes->setHighlightedRevision(-1);
    m_nodesDirty = true;
    m_diffDirty = true;
    refresh();
}

// A hidden table's columns need no width, yet a header that sizes them to their contents measures
// its rows on every update all the same: while the Events tab is hidden (another tab, page or
// window shown) the columns keep their widths, and they fit their contents again when it shows.
void DaemonSetPage::fitEventColumns(bool shown)
{
    QHeaderView *header = m_eventsView->horizontalHeader();
    header->setSectionResizeMode(shown ? QHeaderView::ResizeToContents : QHeaderView::Interactive);
    header->setSectionResizeMode(models::EventListModel::MessageColumn, QHeaderView::Stretch);
}

bool DaemonSetPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_eventsView && (event->type() == QEvent::Show || event->type() == QEvent::Hide))
        fitEventColumns(event->type() == QEvent::Show);
    return QWidget::eventFilter(watched, event);
}

void DaemonSetPage::updateEventsPlaceholder()
{
    const bool none = m_eventFilter->rowCount() == 0;
    if (none) {
        const int all = m_eventModel->rowCount();
        QString text;
        if (all > 0)
            text = tr("No event matches the filter (%n hidden).", nullptr, all);
        else if (m_allEvents->isChecked())
            text = tr("No events in the cluster. Kubernetes keeps events for an hour by default "
                      "(kube-apiserver --event-ttl), so a quiet cluster has none.");
        else
            text = tr("No events for %1 or its pods. Kubernetes keeps events for an hour by default "
                      "(kube-apiserver --event-ttl); tick Whole cluster to see the events of other objects.")
                       .arg(m_key);
        m_eventsEmpty->setText(text);
    }
    m_eventsEmpty->setVisible(none);
    m_eventsView->setVisible(!none);
}

void DaemonSetPage::setCurrentTab(Tab tab)
{
    m_tabs->setCurrentIndex(static_cast<int>(tab));
}

DaemonSetPage::Tab DaemonSetPage::currentTab() const
{
    return static_cast<Tab>(std::max(0, m_tabs->currentIndex()));
}

bool DaemonSetPage::showDiff(const QString &leftName, const QString &rightName)
{
    refreshDiff();
    if (!m_diff->setPairByKey(leftName, rightName))
        return false;
    setCurrentTab(Tab::Diff);
    return true;
}

void DaemonSetPage::refresh()
{
    const models::DaemonSetInfo *ds = daemonSet();
    m_stack->setCurrentIndex(ds ? 1 : 0);
    if (!ds) {
        m_placeholder->setText(
            m_key.isEmpty() ? tr("Choose a DaemonSet in the explorer to see its revisions, nodes, diffs and "
                                 "events.")
                            : tr("DaemonSet %1 is not in the cluster (any more).").arg(m_key));
        m_banner->setVisible(false);
        return;
    }
    m_title->setText(ds->key);
    m_badge->setText(models::badgeName(ds->badge));
    QPalette badgePalette = m_badge->palette();
    badgePalette.setColor(QPalette::Window, StatusBadgeDelegate::badgeColor(static_cast<int>(ds->badge)));
    badgePalette.setColor(QPalette::WindowText, Qt::white);
    m_badge->setPalette(badgePalette);

    const auto &c = ds->counts;
    QString strategy = ds->strategyType;
    if (ds->strategyType == QLatin1String("RollingUpdate"))
        strategy = tr("RollingUpdate (maxUnavailable %1, maxSurge %2)").arg(ds->maxUnavailable, ds->maxSurge);
    m_summary->setText(
        tr("Revision %1 · %2 · desired %3 · updated %4 · ready %5 · available %6 · unavailable %7")
            .arg(ds->currentRevisionNumber)
            .arg(strategy)
            .arg(c.desired)
            .arg(c.updated)
            .arg(c.ready)
            .arg(c.available)
            .arg(c.unavailable));
    m_timeline->history()->setDaemonSet(ds, m_snapshot->clock.now);
    m_headline->setText(ds->badgeReason);
    m_headline->setVisible(!ds->badgeReason.isEmpty());

    m_banner->setVisible(ds->paused);
    m_banner->setSavedStrategy(ds->paused ? ds->savedStrategy : QString());
    refreshRolloutButtons(*ds);

    if (currentTab() == Tab::Nodes)
        refreshNodes();
    if (currentTab() == Tab::Diff)
        refreshDiff();
}

void DaemonSetPage::refreshNodes()
{
    const models::DaemonSetInfo *ds = daemonSet();
    if (!m_nodesDirty || !ds)
        return;
    m_nodesDirty = false;
    const qint64 now = m_snapshot->backend.kind == models::BackendKind::Embedded ? m_snapshot->clock.now : 0;
    const TileInputs inputs{ds->key,
                            m_snapshot->nodes.get(),
                            ds->pods.get(),
                            ds->revisions.get(),
                            m_snapshot->events.get(),
                            ds->currentRevisionNumber,
                            ds->counts,
                            ds->paused,
                            ds->strategyType + QLatin1Char('/') + ds->maxUnavailable};
    if (inputs == m_tileInputs) {
        m_nodes->setReferenceTime(now);
        return;
    }
    m_tileInputs = inputs;
    auto tiles = buildNodeTiles(*m_snapshot, *ds);
    // Colours follow the template, not the number: a revision a rollback renumbered keeps the
    // colour it had (the timeline's, from the same memory).
    std::map<qint64, qint64> keys;
    for (const auto &rev : *ds->revisions)
        keys[rev.number] = m_timelineModel->memory().colorKey(ds->key, rev.name);
    for (auto &tile : tiles) {
        const auto it = keys.find(tile.revisionNumber);
        tile.colorKey = it != keys.end() && it->second >= 0 ? it->second : tile.revisionNumber;
    }
    m_nodes->setTiles(std::move(tiles), now);
}

void DaemonSetPage::refreshDiff()
{
    if (!m_diffDirty)
        return;
    m_diffDirty = false;
    const models::DaemonSetInfo *ds = daemonSet();
    m_diff->setDaemonSet(ds, ds ? m_timelineModel->memory().revisions(ds->key)
                                : std::vector<models::RememberedRevision>{});
}

// ---- Starting a rollout: the buttons after the badge, and who else manages the DaemonSet.

void DaemonSetPage::buildRolloutButtons(QHBoxLayout *row, QWidget *parent)
{
    m_managedBy = new QLabel(parent);
    m_managedBy->setAccessibleName(tr("Managed by"));
    m_managedBy->setVisible(false);
    row->addWidget(m_managedBy);
    row->addStretch(1);
    const struct
    {
        models::StartRolloutMode mode;
        const char *text;
        const char *tip;
    } buttons[] = {
        {models::StartRolloutMode::SetImage, QT_TR_NOOP("Set Image…"),
         QT_TR_NOOP("kubectl set image: change container images, with a preview")},
        {models::StartRolloutMode::Restart, QT_TR_NOOP("Restart…"),
         QT_TR_NOOP("kubectl rollout restart: replace every pod, with a preview")},
        {models::StartRolloutMode::Strategy, QT_TR_NOOP("Update Strategy…"),
         QT_TR_NOOP("Edit maxUnavailable and maxSurge, with a preview")},
    };
    for (const auto &b : buttons) {
        auto *button = new QToolButton(parent);
        button->setText(tr(b.text));
        button->setToolTip(tr(b.tip));
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        const models::StartRolloutMode mode = b.mode;
        connect(button, &QToolButton::clicked, this, [this, mode] { emit startRolloutRequested(mode); });
        row->addWidget(button);
        m_rolloutButtons.push_back(button);
    }
}

void DaemonSetPage::refreshRolloutButtons(const models::DaemonSetInfo &ds)
{
    QStringList names;
    QStringList evidence;
    for (const models::ManagedBy &m : *ds.managedBy) {
        names << m.name;
        evidence << m.name + QStringLiteral(": ") + m.evidence;
    }
    m_managedBy->setText(names.isEmpty() ? QString()
                                         : tr("managed by %1").arg(names.join(QStringLiteral(", "))));
    m_managedBy->setToolTip(evidence.join(QLatin1Char('\n')));
    m_managedBy->setVisible(!names.isEmpty());
}

} // namespace gui
