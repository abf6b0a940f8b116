#include "ui/progresstab.h"
#include "ui/chartaxis.h"

#include "models/itemmodels/rolloutmarkermodel.h"
#include "models/itemmodels/rolloutprogressmodel.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QVXYModelMapper>
#include <QValueAxis>

#include <cmath>
#include <iterator>
#include <vector>

namespace gui {

namespace {

using models::RolloutHeadline;
using models::RolloutMarker;
using models::RolloutMarkerModel;
using models::RolloutProgressModel;

struct SeriesStyle
{
    int column;
    const char *name;
    QColor light;
    QColor dark;
    Qt::PenStyle style;
    qreal width;
};

// Colours that read on both themes; the budget is dashed so it is not taken for a count.
const SeriesStyle kSeries[] = {
    {RolloutProgressModel::DesiredColumn, QT_TRANSLATE_NOOP("gui::ProgressTab", "Desired"),
     QColor(0x6b, 0x72, 0x80), QColor(0xb0, 0xb7, 0xc3), Qt::SolidLine, 2},
    {RolloutProgressModel::UpdatedColumn, QT_TRANSLATE_NOOP("gui::ProgressTab", "Updated"),
     QColor(0x1f, 0x6f, 0xd1), QColor(0x5d, 0xa9, 0xff), Qt::SolidLine, 2.5},
    {RolloutProgressModel::AvailableColumn, QT_TRANSLATE_NOOP("gui::ProgressTab", "Available"),
     QColor(0x1e, 0x8e, 0x3e), QColor(0x5c, 0xd6, 0x7d), Qt::SolidLine, 2},
    {RolloutProgressModel::UnavailableColumn, QT_TRANSLATE_NOOP("gui::ProgressTab", "Unavailable"),
     QColor(0xc6, 0x28, 0x28), QColor(0xff, 0x6b, 0x6b), Qt::SolidLine, 2},
    {RolloutProgressModel::BudgetColumn, QT_TRANSLATE_NOOP("gui::ProgressTab", "maxUnavailable budget"),
     QColor(0xd9, 0x77, 0x06), QColor(0xff, 0xb3, 0x47), Qt::DashLine, 2},
};

QColor markerColor(RolloutMarker::Kind kind, bool dark)
{
    switch (kind) {
    case RolloutMarker::RolloutStart:
        return dark ? QColor(0x9a, 0xa5, 0xb1) : QColor(0x4b, 0x55, 0x63);
    case RolloutMarker::Rollback:
        return dark ? QColor(0xc0, 0x84, 0xfc) : QColor(0x7e, 0x22, 0xce);
    case RolloutMarker::Pause:
        return dark ? QColor(0xfa, 0xcc, 0x15) : QColor(0xa1, 0x62, 0x07);
    case RolloutMarker::Resume:
        return dark ? QColor(0x2d, 0xd4, 0xbf) : QColor(0x0f, 0x76, 0x6e);
    }
    return {};
}

bool isProblem(const RolloutHeadline &h)
{
    switch (h.reason) {
    case RolloutHeadline::BudgetExhausted:
    case RolloutHeadline::NewPodsNotReady:
    case RolloutHeadline::PodsStuckTerminating:
    case RolloutHeadline::NodeNotReady:
    case RolloutHeadline::Stuck:
        return true;
    default:
        return h.stuck;
    }
}

} // namespace

ProgressTab::ProgressTab(QWidget *parent) : QWidget(parent), m_model(new RolloutProgressModel(this))
{
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("progressHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_headline->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    m_headline->setFont(bold);
    m_headline->setAccessibleName(tr("Rollout headline"));

    m_eta = new QLabel(this);
    m_eta->setObjectName(QStringLiteral("progressEta"));
    m_eta->setAccessibleName(tr("Estimated time left"));

    m_chart = makeTimeChart();
    m_x = makeCountAxis(m_chart, tr("Seconds since rollout start"));
    m_y = makeCountAxis(m_chart, tr("Pods"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    // The budget is drawn first, under the counts: when as many pods are unavailable as the
    // budget allows, the Unavailable line shows on top of it instead of disappearing.
    const int budgetIndex = int(std::size(kSeries)) - 1;
    std::vector<QLineSeries *> created(std::size(kSeries));
    for (int i : {budgetIndex, 0, 1, 2, 3}) {
        const SeriesStyle &s = kSeries[i];
        auto *series = new QLineSeries(m_chart);
        series->setName(tr(s.name));
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        auto *mapper = new QVXYModelMapper(series);
        mapper->setXColumn(RolloutProgressModel::ElapsedColumn);
        mapper->setYColumn(s.column);
        mapper->setSeries(series);
        mapper->setModel(m_model);
        created[static_cast<std::size_t>(i)] = series;
    }
    for (QLineSeries *series : created)
        m_series << series;

    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(240);
    m_view->setAccessibleName(tr("Rollout progress chart"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_eta);
    layout->addWidget(m_view, 1);

    connect(m_model, &RolloutProgressModel::headlineChanged, this, &ProgressTab::updateHeadline);
    connect(m_model, &RolloutProgressModel::etaChanged, this, &ProgressTab::updateHeadline);
    connect(m_model, &RolloutProgressModel::rangeChanged, this, &ProgressTab::updateAxes);
    connect(m_model, &RolloutProgressModel::modelReset, this, &ProgressTab::updateAxes);
    RolloutMarkerModel *markers = m_model->markers();
    connect(markers, &QAbstractItemModel::rowsInserted, this, &ProgressTab::rebuildMarkers);
    connect(markers, &QAbstractItemModel::rowsRemoved, this, &ProgressTab::rebuildMarkers);
    connect(markers, &QAbstractItemModel::modelReset, this, &ProgressTab::rebuildMarkers);

    applyTheme();
    updateHeadline();
    updateAxes();
}

ProgressTab::~ProgressTab() = default;

void ProgressTab::setSnapshot(const models::SnapshotPtr &snapshot)
{
    m_model->setSnapshot(snapshot);
}

void ProgressTab::setDaemonSetKey(const QString &dsKey)
{
    m_model->setDaemonSetKey(dsKey);
}

bool ProgressTab::dark() const
{
    return palette().color(QPalette::Window).lightness() < 128;
}

void ProgressTab::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_applyingTheme)
        applyTheme();
}

void ProgressTab::applyTheme()
{
    m_applyingTheme = true;
    const bool isDark = dark();
    // setTheme resets every series' pen and the axes' fonts and colours: set ours after it.
    m_chart->setTheme(isDark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const QPalette pal = palette();
    m_chart->setBackgroundBrush(pal.brush(QPalette::Base));
    m_chart->setBackgroundRoundness(0);
    m_chart->legend()->setLabelColor(pal.color(QPalette::Text));
    for (QValueAxis *axis : {m_x, m_y}) {
        axis->setLabelsColor(pal.color(QPalette::Text));
        axis->setTitleBrush(pal.brush(QPalette::Text));
        QColor grid = pal.color(QPalette::Text);
        grid.setAlpha(40);
        axis->setGridLineColor(grid);
        axis->setLinePenColor(pal.color(QPalette::Mid));
    }
    for (int i = 0; i < m_series.size(); ++i) {
        const SeriesStyle &s = kSeries[i];
        QPen pen(isDark ? s.dark : s.light, s.width, s.style);
        pen.setCapStyle(Qt::FlatCap);
        m_series[i]->setPen(pen);
    }
    m_view->setBackgroundBrush(pal.brush(QPalette::Base));
    m_applyingTheme = false;
    rebuildMarkers();
    updateHeadline();
}

void ProgressTab::updateHeadline()
{
    const RolloutHeadline &h = m_model->headline();
    m_headline->setText(h.text);
    m_headline->setAccessibleDescription(h.text);
    QPalette pal = palette();
    if (isProblem(h))
        pal.setColor(QPalette::WindowText, dark() ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x1e, 0x1e));
    m_headline->setPalette(pal);

    const QString eta = m_model->etaText();
    m_eta->setText(eta.isEmpty() ? QString() : tr("ETA: %1").arg(eta));
    m_eta->setVisible(!eta.isEmpty());

    const int rows = m_model->rowCount();
    if (rows > 0) {
        const models::ProgressSample &s = *m_model->sample(rows - 1);
        m_view->setAccessibleDescription(
            tr("Desired %1, updated %2, available %3, unavailable %4, maxUnavailable budget %5")
                .arg(s.desired)
                .arg(s.updated)
                .arg(s.available)
                .arg(s.unavailable)
                .arg(s.budget));
    } else {
        m_view->setAccessibleDescription(tr("No samples yet"));
    }
}

void ProgressTab::updateAxes()
{
    // Whether x = 0 is a rollout start or just the first sample.
    bool fromRollout = false;
    for (const RolloutMarker &m : m_model->markers()->markers()) {
        if (m.time == m_model->origin() &&
            (m.kind == RolloutMarker::RolloutStart || m.kind == RolloutMarker::Rollback))
            fromRollout = true;
    }
    const int rows = m_model->rowCount();
    double x0 = 0;
    double x1 = 60;
    if (rows > 0) {
        x0 = m_model->elapsedSeconds(m_model->firstTime());
        x1 = m_model->elapsedSeconds(m_model->lastTime());
        if (m_model->rolloutDone()) {
            // Over: the axis ends a little after the last change, from the moment it is over
            // on, and does not grow with the clock (the lines stay flat beyond it).
            const double changed = m_model->elapsedSeconds(m_model->lastChangeTime());
            x1 = changed + std::max(30.0, (changed - x0) / 10);
        }
        x1 = std::max(x1, x0 + 60); // a fresh series still gets a minute of room
        // The rollout's start is in view even when the samples begin later (the console
        // started watching during the rollout).
        if (fromRollout)
            x0 = std::min(x0, 0.0);
    }
    // Both ends on ticks, round values anchored at 0 (the rollout start): no axis that starts at
    // -337 because that is when the first sample happened to be taken.
    const double xStep = niceStep(x1 - x0, 8);
    x0 = std::floor(x0 / xStep) * xStep;
    x1 = std::ceil(x1 / xStep) * xStep;
    setAxis(m_x, x0, x1, niceStep(x1 - x0, 8));
    const int top = m_model->maxValue();
    const double yStep = niceStep(top, 6);
    setAxis(m_y, 0, std::ceil((top + 0.5) / yStep) * yStep, yStep);

    m_x->setTitleText(fromRollout ? tr("Seconds since rollout start") : tr("Seconds since first sample"));
    updateHeadline();
}

void ProgressTab::rebuildMarkers()
{
    if (m_applyingTheme)
        return;
    for (QLineSeries *s : std::as_const(m_markerSeries)) {
        m_chart->removeSeries(s);
        delete s;
    }
    m_markerSeries.clear();
    const RolloutMarkerModel *markers = m_model->markers();
    const bool isDark = dark();
    QList<RolloutMarker::Kind> inLegend;
    for (int i = 0; i < markers->markerCount(); ++i) {
        const RolloutMarker &m = markers->marker(i);
        auto *series = new QLineSeries(m_chart);
        series->setName(RolloutMarkerModel::kindName(m.kind));
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        QPen pen(markerColor(m.kind, isDark), 1.5,
                 m.kind == RolloutMarker::Rollback ? Qt::DashLine : Qt::DotLine);
        series->setPen(pen);
        auto *mapper = new QVXYModelMapper(series);
        mapper->setXColumn(RolloutMarkerModel::ElapsedColumn);
        mapper->setYColumn(RolloutMarkerModel::ValueColumn);
        mapper->setFirstRow(2 * i);
        mapper->setRowCount(2);
        mapper->setSeries(series);
        mapper->setModel(const_cast<RolloutMarkerModel *>(markers));
        // One legend entry per kind of marker.
        const bool first = !inLegend.contains(m.kind);
        inLegend << m.kind;
        for (QLegendMarker *lm : m_chart->legend()->markers(series))
            lm->setVisible(first);
        m_markerSeries << series;
    }
    updateAxes();
}

} // namespace gui
