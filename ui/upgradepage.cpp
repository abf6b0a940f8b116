#include "ui/upgradepage.h"
#include "ui/chartaxis.h"
#include "ui/confirmation.h"

#include "models/api/nodeupgraderollout.h"
#include "models/itemmodels/upgradeeventlistmodel.h"
#include "models/itemmodels/upgradenodetablemodel.h"
#include "models/itemmodels/upgradephasechartmodel.h"
#include "models/itemmodels/upgraderolloutlistmodel.h"
#include "models/kube/jsonlimits.h"
#include "ui/startupgradedialog.h"
#include "ui/upgradechartmapper.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace gui {

namespace {

using Chart = models::UpgradePhaseChartModel;

struct BandStyle
{
    QColor light;
    QColor dark;
};

// Bottom to top: done, soaking, restarting, draining, pending, failed, skipped.
const BandStyle kBands[Chart::BandCount] = {
    {QColor(0x2e, 0x9e, 0x4f), QColor(0x4c, 0xc3, 0x6e)},
    {QColor(0x14, 0xa3, 0x9a), QColor(0x2d, 0xd4, 0xbf)},
    {QColor(0x7e, 0x57, 0xc2), QColor(0xa7, 0x8b, 0xfa)},
    {QColor(0xe0, 0x8a, 0x1e), QColor(0xfb, 0xb0, 0x4a)},
    {QColor(0x9a, 0xa5, 0xb1), QColor(0x6b, 0x72, 0x80)},
    {QColor(0xc6, 0x28, 0x28), QColor(0xff, 0x6b, 0x6b)},
    {QColor(0xa1, 0x62, 0x07), QColor(0xfa, 0xcc, 0x15)},
};

QString actionTitle(const QString &action)
{
    if (action == QLatin1String("hold"))
        return UpgradePage::tr("Hold");
    if (action == QLatin1String("release"))
        return UpgradePage::tr("Release");
    if (action == QLatin1String("skip"))
        return UpgradePage::tr("Skip");
    if (action == QLatin1String("retry"))
        return UpgradePage::tr("Retry");
    if (action == QLatin1String("force"))
        return UpgradePage::tr("Force…");
    return action;
}

QColor phaseColor(models::UpgradeRolloutPhase phase)
{
    switch (models::UpgradeRolloutListModel::badgeOf(phase)) {
    case models::UpgradeRolloutListModel::Running:
        return QColor(0x1f, 0x6f, 0xd1);
    case models::UpgradeRolloutListModel::Paused:
        return QColor(0xa1, 0x62, 0x07);
    case models::UpgradeRolloutListModel::Halted:
        return QColor(0xc6, 0x28, 0x28);
    case models::UpgradeRolloutListModel::Done:
        return QColor(0x1e, 0x8e, 0x3e);
    case models::UpgradeRolloutListModel::Aborted:
        return QColor(0x6b, 0x72, 0x80);
    }
    return {};
}

} // namespace

UpgradePage::UpgradePage(models::ClusterBackend *backend, QWidget *parent)
    : QWidget(parent), m_backend(backend), m_nodeModel(new models::UpgradeNodeTableModel(this)),
      m_chartModel(new models::UpgradePhaseChartModel(this)),
      m_eventModel(new models::UpgradeEventListModel(this))
{
    setObjectName(QStringLiteral("upgradePage"));

    // ---- header: title, phase pill, rollout actions, headline ----
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("upgradeTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_phase = new QLabel(this);
    m_phase->setObjectName(QStringLiteral("upgradePhase"));
    m_phase->setAutoFillBackground(true);
    m_phase->setMargin(3);

    auto makeButton = [this](const QString &name, const QString &text, const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(tip);
        return b;
    };
    m_start = makeButton(QStringLiteral("upgradeStart"), tr("Start Node Upgrade…"),
                         tr("Start a node-agent upgrade with a pre-flight report"));
    m_pause = makeButton(QStringLiteral("upgradePause"), tr("Pause…"),
                         tr("Stop selecting nodes and deleting pods; restarts already sent finish"));
    m_resume = makeButton(QStringLiteral("upgradeResume"), tr("Resume…"),
                          tr("Continue; shows what the first pass will do"));
    m_abort = makeButton(QStringLiteral("upgradeAbort"), tr("Abort…"),
                         tr("End this rollout: draining nodes are uncordoned, restarting nodes finish"));
    m_ack = makeButton(QStringLiteral("upgradeAcknowledge"), tr("Acknowledge Halt"),
                       tr("Acknowledge the failed nodes so the rollout may continue"));
    connect(m_start, &QPushButton::clicked, this, [this] { showStartDialog(false); });
    connect(m_pause, &QPushButton::clicked, this, &UpgradePage::pauseRollout);
    connect(m_resume, &QPushButton::clicked, this, &UpgradePage::resumeRollout);
    connect(m_abort, &QPushButton::clicked, this, &UpgradePage::abortRollout);
    connect(m_ack, &QPushButton::clicked, this, &UpgradePage::acknowledgeHalt);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title);
    top->addWidget(m_phase);
    top->addStretch(1);
    for (QPushButton *b : {m_pause, m_resume, m_abort, m_ack, m_start})
        top->addWidget(b);

    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("upgradeHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont headlineFont = m_headline->font();
    headlineFont.setBold(true);
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.1);
    m_headline->setFont(headlineFont);
    m_headline->setAccessibleName(tr("Upgrade headline"));
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("upgradeDetails"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::PlainText);

    // ---- chart ----
    m_chart = makeTimeChart();
    m_x = makeCountAxis(m_chart, tr("Seconds since the rollout started"));
    m_y = makeCountAxis(m_chart, tr("Nodes"));
    m_ratioAxis = new QValueAxis(m_chart);
    m_ratioAxis->setRange(0, 100);
    m_ratioAxis->setLabelFormat(QStringLiteral("%d %%"));
    m_ratioAxis->setTitleText(tr("Min ready"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_chart->addAxis(m_ratioAxis, Qt::AlignRight);

    m_chartMapper = new UpgradeChartMapper(m_chartModel, Chart::ElapsedColumn, this);
    QLineSeries *lower = nullptr;
    for (int b = 0; b < Chart::BandCount; ++b) {
        auto *upper = new QLineSeries(m_chart);
        m_chartMapper->addSeries(upper, Chart::FirstTopColumn + b);
        auto *area = new QAreaSeries(upper, lower);
        area->setName(Chart::bandName(Chart::Band(b)));
        m_chart->addSeries(area);
        area->attachAxis(m_x);
        area->attachAxis(m_y);
        m_areas << area;
        lower = upper;
    }
    const struct
    {
        int column;
        const char *name;
        bool ratio;
    } lines[] = {
        {Chart::UnavailableColumn, QT_TR_NOOP("Unavailable"), false},
        {Chart::BudgetColumn, QT_TR_NOOP("Budget"), false},
        {Chart::MinReadyPercentColumn, QT_TR_NOOP("Min ready %"), true},
    };
    for (const auto &l : lines) {
        auto *series = new QLineSeries(m_chart);
        series->setName(tr(l.name));
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(l.ratio ? m_ratioAxis : m_y);
        m_chartMapper->addSeries(series, l.column);
        m_lines << series;
    }
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("upgradeChart"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    m_view->setAccessibleName(tr("Nodes per upgrade phase over time"));
    connect(m_chartModel, &models::UpgradePhaseChartModel::rangeChanged, this, &UpgradePage::updateAxes);
    connect(m_chartModel, &QAbstractItemModel::modelReset, this, &UpgradePage::updateAxes);

    // ---- per-node table with node actions ----
    m_nodeProxy = new QSortFilterProxyModel(this);
    m_nodeProxy->setSourceModel(m_nodeModel);
    m_nodeProxy->setSortRole(models::UpgradeNodeTableModel::SortRole);
    m_nodeProxy->setDynamicSortFilter(false); // routine updates must not re-sort 5,000 rows
    m_nodeTable = new QTableView(this);
    m_nodeTable->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_nodeTable->setObjectName(QStringLiteral("upgradeNodeTable"));
    m_nodeTable->setModel(m_nodeProxy);
    m_nodeTable->setSortingEnabled(true);
    m_nodeTable->sortByColumn(models::UpgradeNodeTableModel::NameColumn, Qt::AscendingOrder);
    m_nodeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nodeTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_nodeTable->verticalHeader()->hide();
    m_nodeTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Every column keeps its width (a narrow window scrolls instead of cutting the reason
    // column to nothing); the last one takes what is left over.
    m_nodeTable->horizontalHeader()->setStretchLastSection(true);
    m_nodeTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    const int cw = fontMetrics().averageCharWidth();
    // Wide enough for the usual content and for the header in the language shown (German
    // headers are longer), with room for the sort arrow: no header is cut.
    auto fit = [cw](QTableView *table, const int *chars, int columns) {
        QFont bold = table->horizontalHeader()->font();
        const QFontMetrics hm(bold);
        for (int c = 0; c < columns; ++c) {
            const QString title = table->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            table->setColumnWidth(c, std::max(chars[c] * cw, hm.horizontalAdvance(title) + 2 * cw + 20));
        }
    };
    const int widths[] = {13, 9, 8, 16, 10, 14, 36, 9, 13};
    fit(m_nodeTable, widths, models::UpgradeNodeTableModel::ColumnCount);
    m_nodeTable->setAccessibleName(tr("Nodes of the upgrade"));
    connect(m_nodeTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &UpgradePage::updateNodeButtons);

    auto *nodePanel = new QWidget(this);
    auto *nodeLayout = new QVBoxLayout(nodePanel);
    nodeLayout->setContentsMargins(0, 0, 0, 0);
    auto *nodeButtons = new QHBoxLayout;
    nodeButtons->addWidget(new QLabel(tr("Selected node:"), nodePanel));
    for (const QString &action : {QStringLiteral("hold"), QStringLiteral("release"), QStringLiteral("skip"),
                                  QStringLiteral("retry"), QStringLiteral("force")}) {
        QString name = action;
        name[0] = name[0].toUpper();
        auto *b = makeButton(QStringLiteral("node") + name, actionTitle(action), QString());
        b->setProperty("upgradeAction", action);
        connect(b, &QPushButton::clicked, this, [this, action] { nodeAction(action); });
        nodeButtons->addWidget(b);
        m_nodeButtons << b;
    }
    nodeButtons->addStretch(1);
    nodeLayout->addLayout(nodeButtons);
    nodeLayout->addWidget(m_nodeTable, 1);

    // ---- events ----
    m_eventTable = new QTableView(this);
    m_eventTable->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_eventTable->setObjectName(QStringLiteral("upgradeEventTable"));
    m_eventTable->setModel(m_eventModel);
    m_eventTable->verticalHeader()->hide();
    m_eventTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_eventTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventTable->horizontalHeader()->setSectionResizeMode(models::UpgradeEventListModel::MessageColumn,
                                                           QHeaderView::Stretch);
    const int ew[] = {9, 8, 24, 22, 40, 6};
    fit(m_eventTable, ew, models::UpgradeEventListModel::ColumnCount);
    m_eventTable->setAccessibleName(tr("Upgrade events"));

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(nodePanel, tr("Nodes"));
    m_tabs->addTab(m_eventTable, tr("Events"));
    connect(m_tabs, &QTabWidget::currentChanged, this, &UpgradePage::showLatestEvents);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);

    m_content = new QWidget(this);
    auto *contentLayout = new QVBoxLayout(m_content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addWidget(m_headline);
    contentLayout->addWidget(m_details);
    contentLayout->addWidget(splitter, 1);

    m_empty = new QLabel(tr("No node upgrade selected. Start one with “Start Node Upgrade…”; the "
                            "pre-flight report shows which nodes go in which order before anything happens."),
                         this);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);

    m_driver = new QLabel(this);
    m_driver->setObjectName(QStringLiteral("upgradeDriver"));
    m_driver->setWordWrap(true);
    m_driver->setTextFormat(Qt::PlainText);
    m_driver->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_driver->setAccessibleName(tr("Who drives the node upgrades"));
    m_driver->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_driver);
    layout->addWidget(m_content, 1);
    layout->addWidget(m_empty, 1);

    applyTheme();
    updateHeader();
    updateAxes();
}

UpgradePage::~UpgradePage() = default;

QPushButton *UpgradePage::button(const QString &objectName) const
{
    return findChild<QPushButton *>(objectName);
}

const models::UpgradeRolloutInfo *UpgradePage::rolloutInfo() const
{
    return m_snapshot ? m_snapshot->upgrade(m_rollout) : nullptr;
}

void UpgradePage::setSnapshot(const models::SnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    const bool upgradesChanged = !m_snapshot || m_snapshot->upgrades != snapshot->upgrades ||
                                 m_snapshot->upgradeDriver != snapshot->upgradeDriver;
    // The superseded snapshot is released last, once the models hold the new upgrade list: then
    // it is the snapshot that frees the old list (thousands of node rows), off this thread
    // (ClusterSnapshot::create), not a model dropping its own reference here.
    const models::SnapshotPtr previous = std::exchange(m_snapshot, snapshot);
    // An open start form follows the pods it reports on: a live cluster's are read after the
    // page was first shown, possibly after the form was opened.
    if (m_startDialog && previous &&
        (previous->upgradeInventory != snapshot->upgradeInventory ||
         previous->upgradeInventoryRead != snapshot->upgradeInventoryRead))
        m_startDialog->setSnapshot(snapshot);
    m_chartModel->setSnapshot(snapshot);
    m_nodeModel->setSnapshot(snapshot);
    if (eventsShown())
        m_eventModel->setSnapshot(snapshot);
    else
        m_eventsStale = true;
    m_chartMapper->flush(); // one geometry update per series for all of this snapshot's rows
    if (upgradesChanged) {
        // The node buttons follow the current node's row, which only changes with the upgrades.
        updateHeader();
        updateNodeButtons();
    }
}

bool UpgradePage::eventsShown() const
{
    return m_tabs->currentWidget() == m_eventTable;
}

void UpgradePage::showLatestEvents()
{
    if (!m_eventsStale || !eventsShown())
        return;
    m_eventsStale = false;
    if (m_snapshot)
        m_eventModel->setSnapshot(m_snapshot);
}

void UpgradePage::setRollout(const QString &name)
{
    if (name == m_rollout)
        return;
    m_rollout = name;
    m_chartModel->setRollout(name);
    m_nodeModel->setRollout(name);
    m_eventModel->setRollout(name);
    if (!eventsShown())
        m_eventsStale = true; // it was reset from the snapshot it last saw
    m_nodeProxy->sort(m_nodeTable->horizontalHeader()->sortIndicatorSection(),
                      m_nodeTable->horizontalHeader()->sortIndicatorOrder());
    updateHeader();
    updateNodeButtons();
    updateAxes();
    m_chartMapper->flush();
    Q_EMIT rolloutShown(name);
}

void UpgradePage::applyTheme()
{
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const QPalette pal = palette();
    m_chart->setBackgroundBrush(pal.brush(QPalette::Base));
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setLabelColor(pal.color(QPalette::Text));
    for (QValueAxis *axis : {m_x, m_y, m_ratioAxis}) {
        axis->setLabelsColor(pal.color(QPalette::Text));
        axis->setTitleBrush(pal.brush(QPalette::Text));
        QColor grid = pal.color(QPalette::Text);
        grid.setAlpha(40);
        axis->setGridLineColor(grid);
        axis->setLinePenColor(pal.color(QPalette::Mid));
    }
    m_ratioAxis->setGridLineVisible(false);
    for (int b = 0; b < m_areas.size(); ++b) {
        QColor fill = dark ? kBands[b].dark : kBands[b].light;
        QColor edge = fill.darker(120);
        fill.setAlpha(200);
        m_areas[b]->setBrush(fill);
        m_areas[b]->setPen(QPen(edge, 1));
    }
    const QColor lineColors[] = {dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0x9f, 0x12, 0x39),
                                 dark ? QColor(0xff, 0xff, 0xff) : QColor(0x11, 0x18, 0x27),
                                 dark ? QColor(0x5d, 0xa9, 0xff) : QColor(0x1f, 0x6f, 0xd1)};
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    for (int i = 0; i < m_lines.size(); ++i) {
        QPen pen(lineColors[i], 2, styles[i]);
        pen.setCapStyle(Qt::FlatCap);
        m_lines[i]->setPen(pen);
    }
    m_view->setBackgroundBrush(pal.brush(QPalette::Base));
}

void UpgradePage::updateAxes()
{
    const int rows = m_chartModel->rowCount();
    double x0 = 0;
    double x1 = 60;
    if (rows > 0) {
        x0 = std::floor(m_chartModel->elapsedSeconds(m_chartModel->firstTime()));
        x1 = std::ceil(m_chartModel->elapsedSeconds(m_chartModel->lastTime()));
        x1 = std::max(x1, x0 + 60);
    }
    // The axis ends at the next tick after the last sample, not at the sample: Qt Charts lays
    // every point of every series out again when a range changes, so a range that followed each
    // snapshot doubled the chart's work per snapshot. Now it changes once per tick interval.
    const double xStep = niceStep(x1 - x0, 8);
    x1 = x0 + std::ceil((x1 - x0) / xStep) * xStep;
    setAxis(m_x, x0, x1, xStep);
    const int top = m_chartModel->maxValue();
    const double yStep = niceStep(top, 6);
    setAxis(m_y, 0, std::ceil((top + 0.5) / yStep) * yStep, yStep);
}

void UpgradePage::updateHeader()
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    m_content->setVisible(info != nullptr);
    m_empty->setVisible(info == nullptr);
    m_pause->setVisible(info != nullptr);
    m_resume->setVisible(info != nullptr);
    m_abort->setVisible(info != nullptr);
    m_ack->setVisible(info != nullptr);
    const models::UpgradeDriverInfo driver =
        m_snapshot ? m_snapshot->upgradeDriver : models::UpgradeDriverInfo();
    const QString driverLine = driverText(driver);
    m_driver->setText(driverLine);
    m_driver->setVisible(!driverLine.isEmpty());
    m_start->setEnabled(m_backend != nullptr && driver.mode != models::UpgradeDriverInfo::Mode::Unavailable);
    if (!info) {
        m_title->setText(m_rollout.isEmpty() ? tr("Node upgrade") : tr("Node upgrade %1").arg(m_rollout));
        m_phase->hide();
        return;
    }
    m_title->setText(info->observed ? (info->targetVersion.isEmpty()
                                           ? tr("Observed node upgrade")
                                           : tr("Observed node upgrade → %1").arg(info->targetVersion))
                                    : tr("Node upgrade %1 → %2").arg(info->name, info->targetVersion));
    m_phase->show();
    // A progressing rollout that cannot move says so on its pill too (the Blocked condition).
    const bool stuck = info->phase == models::UpgradeRolloutPhase::Progressing && info->blockedCondition;
    m_phase->setText(QLatin1Char(' ') + models::UpgradeRolloutListModel::phaseTitle(info->phase) +
                     (stuck ? tr(" · blocked") : QString()) + QLatin1Char(' '));
    QPalette pill = m_phase->palette();
    pill.setColor(QPalette::Window, stuck ? QColor(0xa1, 0x62, 0x07) : phaseColor(info->phase));
    pill.setColor(QPalette::WindowText, Qt::white);
    m_phase->setPalette(pill);

    m_headline->setText(info->headline.isEmpty() ? tr("Waiting for the controller's first pass")
                                                 : info->headline);
    QPalette pal = palette();
    if (info->halted() || !info->refusal.isEmpty())
        pal.setColor(QPalette::WindowText, QColor(0xb0, 0x1e, 0x1e));
    m_headline->setPalette(pal);
    m_pause->setVisible(!info->observed);
    m_resume->setVisible(!info->observed);
    m_abort->setVisible(!info->observed);
    m_ack->setVisible(!info->observed);
    if (info->observed) {
        const auto &c = info->counts;
        m_details->setText(
            tr("%1 of %2 nodes on %3 · %4 in flight · %5 pending · at most %6 seen in flight at once")
                .arg(c.upToDate)
                .arg(c.nodes)
                .arg(info->targetVersion.isEmpty() ? tr("a newer version") : info->targetVersion)
                .arg(c.inFlight)
                .arg(c.pending)
                .arg(info->maxUnavailableResolved) +
            QLatin1Char('\n') +
            tr("Driven by another tool (no NodeUpgradeRollout): each node's phase is inferred from its "
               "kubelet "
               "version, cordon, drain conditions, disruption taints and readiness. This console only "
               "watches."));
        return;
    }

    const auto &c = info->counts;
    QString details =
        tr("%1 of %2 nodes on %3 · %4 in flight · %5 pending · %6 failed · %7 skipped · %8 held")
            .arg(c.upToDate)
            .arg(c.nodes)
            .arg(info->targetVersion)
            .arg(c.inFlight)
            .arg(c.pending)
            .arg(c.failed)
            .arg(c.skipped)
            .arg(c.held);
    details += tr(" · budget %1/%2").arg(info->unavailable).arg(info->maxUnavailableResolved);
    if (info->maxUnavailableClamped)
        details += tr(" (maxUnavailable %1 rounded to 0, raised to 1)").arg(info->maxUnavailable);
    details += QLatin1Char('\n') +
               tr("Policies: unmanaged pods %1 · on drain timeout %2 · single replica %3 · health > %4 % · "
                  "halt after %n failed node(s)",
                  nullptr, info->maxFailedNodes)
                   .arg(info->unmanagedPodPolicy, info->onDrainTimeout, info->singleReplicaPolicy)
                   .arg(qRound(info->healthThreshold * 100));
    if (!info->nodeSelector.isEmpty())
        details += tr(" · nodes %1").arg(info->nodeSelector);
    if (info->preview && !info->preview->summary.isEmpty())
        details += QLatin1Char('\n') + tr("On resume: %1").arg(info->preview->summary);
    m_details->setText(details);

    const bool running = info->running();
    m_pause->setEnabled(running && !info->paused && !info->abort);
    m_resume->setEnabled(running && info->paused);
    m_abort->setEnabled(running && !info->abort);
    m_ack->setEnabled(info->halted());
}

void UpgradePage::updateNodeButtons()
{
    const QString node = currentNode();
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    const models::UpgradeNodeRow *row = info && !node.isEmpty() ? info->node(node) : nullptr;
    const QStringList actions = row ? models::UpgradeNodeTableModel::availableActions(*row) : QStringList();
    for (QPushButton *b : std::as_const(m_nodeButtons)) {
        const QString action = b->property("upgradeAction").toString();
        b->setEnabled(actions.contains(action) && info && info->running() && !info->observed);
        // Hold and release share a place: show the one that applies.
        if (action == QLatin1String("hold"))
            b->setVisible(!row || !row->held);
        else if (action == QLatin1String("release"))
            b->setVisible(row && row->held);
    }
}

bool UpgradePage::selectNode(const QString &node)
{
    const int row = m_nodeModel->rowOf(node);
    if (row < 0)
        return false;
    const QModelIndex index = m_nodeProxy->mapFromSource(m_nodeModel->index(row, 0));
    m_nodeTable->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
    m_nodeTable->scrollTo(index);
    updateNodeButtons();
    return true;
}

QString UpgradePage::currentNode() const
{
    const QModelIndex index = m_nodeTable->currentIndex();
    return index.isValid() ? index.data(models::UpgradeNodeTableModel::NameRole).toString() : QString();
}

bool UpgradePage::confirm(const QString &title, const QString &text, const QString &verb, ConfirmKind kind)
{
    if (m_confirm)
        return m_confirm(title, text);
    return confirmAction(this, title, text, verb, kind);
}

void UpgradePage::pauseRollout()
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    if (!info || !m_backend)
        return;
    const QStringList inFlight = info->inFlightNodes();
    QString text = tr("No new node will be selected and no further pod will be deleted. Restarts already "
                      "sent run to completion; reporting continues.");
    text += QStringLiteral("\n\n");
    text += inFlight.isEmpty() ? tr("No node is in flight.")
                               : tr("%n node(s) still in flight:", nullptr, int(inFlight.size())) +
                                     QLatin1Char('\n') + inFlight.join(QLatin1Char('\n'));
    if (!confirm(tr("Pause %1").arg(info->name), text, tr("&Pause Rollout"), ConfirmKind::Change))
        return;
    m_backend->upgradeControl(info->name, QStringLiteral("pause"), QString(), tr("paused from the console"));
}

void UpgradePage::resumeRollout()
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    if (!info || !m_backend)
        return;
    QString text = tr("The first pass after resuming will:");
    const models::UpgradePreviewInfo *p = info->preview.get();
    if (!p || (p->nextNodes.isEmpty() && p->deletions.isEmpty() && p->kamikazes.isEmpty())) {
        text += QLatin1Char('\n') + tr("do nothing yet (no node can be selected now)");
    } else {
        if (!p->nextNodes.isEmpty())
            text += QLatin1Char('\n') + tr("select %1").arg(p->nextNodes.join(QStringLiteral(", ")));
        for (const QString &d : p->deletions)
            text += QLatin1Char('\n') + tr("delete %1").arg(d);
        if (!p->kamikazes.isEmpty())
            text += QLatin1Char('\n') +
                    tr("restart the agent on %1").arg(p->kamikazes.join(QStringLiteral(", ")));
    }
    if (!confirm(tr("Resume %1").arg(info->name), text, tr("&Resume Rollout"), ConfirmKind::Change))
        return;
    m_backend->upgradeControl(info->name, QStringLiteral("resume"), QString(), QString());
}

void UpgradePage::abortRollout()
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    if (!info || !m_backend)
        return;
    if (!confirm(tr("Abort %1").arg(info->name),
                 tr("Cordoned and draining nodes stop and are uncordoned (if this rollout cordoned them); "
                    "deleted pods are not restored. Nodes already restarting finish. This cannot be undone."),
                 tr("&Abort Rollout"), ConfirmKind::Destroy))
        return;
    m_backend->upgradeControl(info->name, QStringLiteral("abort"), QString(), QString());
}

void UpgradePage::acknowledgeHalt()
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    if (!info || !m_backend)
        return;
    m_backend->upgradeControl(info->name, QStringLiteral("acknowledge"), QString(), QString());
}

void UpgradePage::nodeAction(const QString &action)
{
    const models::UpgradeRolloutInfo *info = rolloutInfo();
    const QString node = currentNode();
    if (!info || !m_backend || node.isEmpty())
        return;
    if (action == QLatin1String("force") &&
        !confirm(tr("Force %1").arg(node),
                 tr("Delete the remaining pods on %1 regardless of the controller health gates (grace "
                    "periods are honoured). This is recorded as a Warning event naming you.")
                     .arg(node),
                 tr("&Force Drain"), ConfirmKind::Destroy))
        return;
    m_backend->upgradeControl(info->name, action, node, QString());
}

QString UpgradePage::specOverridesError(const QString &specOverrides)
{
    const auto parsed = kube::JsonLimits::parse(specOverrides.toStdString());
    if (!parsed)
        return tr("the spec fields are not valid JSON: %1")
            .arg(QString::fromStdString(parsed.error().message));
    if (!parsed->is_object())
        return tr("the spec fields must be a JSON object such as {\"maxUnavailable\": \"10%\"}");
    const auto known = api::NodeUpgradeRolloutSpec::fieldNames();
    for (const auto &item : parsed->items())
        if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
            QStringList names;
            for (const auto &k : known)
                names << QString::fromStdString(k);
            return tr("unknown spec field \"%1\" (the fields are %2)")
                .arg(QString::fromStdString(item.key()), names.join(QStringLiteral(", ")));
        }
    return {};
}

QString UpgradePage::driverText(const models::UpgradeDriverInfo &driver)
{
    using Mode = models::UpgradeDriverInfo::Mode;
    switch (driver.mode) {
    case Mode::Engine:
        return {};
    case Mode::Console: {
        QString text = tr("Driven by this console (it holds the Lease %1). Closing the console stops the "
                          "upgrade: nodes in flight stay cordoned until a controller takes the Lease over.")
                           .arg(driver.lease);
        if (!driver.error.isEmpty())
            text += QLatin1Char(' ') + tr("Renewing the Lease failed: %1").arg(driver.error);
        return text;
    }
    case Mode::Controller:
        return tr("Driven by the controller %1 (it holds the Lease %2). Actions here are requests it carries "
                  "out at its next pass; this console runs no second controller.")
            .arg(driver.holder, driver.lease);
    case Mode::Nobody:
        if (driver.reading)
            return tr("Reading the cluster's node upgrades…");
        if (!driver.error.isEmpty())
            return tr("No controller drives the node upgrades: this console cannot take the Lease %1: %2")
                .arg(driver.lease, driver.error);
        if (!driver.consoleMayDrive)
            return tr("No controller holds the Lease %1: rollouts wait until one runs.").arg(driver.lease);
        return tr("No controller holds the Lease %1: a rollout started here is driven by this console "
                  "while it stays open.")
            .arg(driver.lease);
    case Mode::Unavailable:
        if (driver.error.isEmpty())
            return tr("This cluster does not serve NodeUpgradeRollouts. Install the resource with "
                      "kubectl apply -f installer/kubernetes/10-crd.yaml.");
        return tr("The cluster's node upgrades cannot be read: %1").arg(driver.error);
    }
    return {};
}

QString UpgradePage::startDefaultUpgrade(const QString &specOverrides, QString *error)
{
    const auto refuse = [error](const QString &why) {
        if (error)
            *error = why;
        return QString();
    };
    if (!m_backend || !m_snapshot)
        return refuse(tr("no cluster is loaded"));
    const StartUpgradeDialog form(m_snapshot);
    const QString name = form.rolloutName();
    kube::Json manifest = kube::Json::parse(form.rolloutJson().toStdString());
    if (!specOverrides.trimmed().isEmpty()) {
        if (const QString why = specOverridesError(specOverrides); !why.isEmpty())
            return refuse(why);
        manifest["spec"].update(*kube::JsonLimits::parse(specOverrides.toStdString()));
    }
    if (const auto spec = api::NodeUpgradeRolloutSpec::fromJson(manifest["spec"]); !spec)
        return refuse(
            tr("the rollout's spec is invalid: %1").arg(QString::fromStdString(spec.error().message)));
    m_backend->startUpgrade(QString::fromStdString(manifest.dump()));
    setRollout(name);
    return name;
}

StartUpgradeDialog *UpgradePage::showStartDialog(bool modal)
{
    auto *dialog = new StartUpgradeDialog(m_snapshot, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_startDialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!m_backend)
            return;
        const QString name = dialog->rolloutName();
        m_backend->startUpgrade(dialog->rolloutJson());
        setRollout(name);
    });
    if (modal) {
        dialog->exec();
        return nullptr;
    }
    dialog->setWindowModality(Qt::WindowModal);
    dialog->show();
    return dialog;
}

void UpgradePage::setBackend(models::ClusterBackend *backend)
{
    m_backend = backend;
    if (m_backend && isVisible())
        m_backend->requestUpgradeInventory();
}

// The start form's pre-flight report needs every node's pods: a live backend reads them from
// the first time the page is shown (ClusterBackend::requestUpgradeInventory).
void UpgradePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_backend)
        m_backend->requestUpgradeInventory();
}

} // namespace gui
