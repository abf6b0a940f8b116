// ProgressTab offscreen: five line series bound to the progress model (point counts and values
// follow the rows), marker series per marker, the headline and ETA labels, the palette-driven
// theme, and a real rollout on the embedded engine moving the headline from progressing to
// complete.
//
// Set DAEMONSCOPE_PROGRESS_PNG=/path/file.png to save a picture of the tab after the
// hand-built rollout.

#include "progressfactory.h"

#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/rolloutmarkermodel.h"
#include "models/itemmodels/rolloutprogressmodel.h"
#include "ui/progresstab.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using models::RolloutHeadline;
using models::RolloutProgressModel;
using namespace progress;

namespace {

constexpr qint64 kSecond = 1000;

// Ten nodes, maxUnavailable 20%: the rollout starts 9 s after frame 0, new pods on
// node-1..node-4 become ready, then the next two crash-loop and the rollout stalls. Frame i
// is at i x 10 s.
std::shared_ptr<models::ClusterSnapshot> frame(int i)
{
    RolloutSpec s;
    s.maxUnavailable = QStringLiteral("20%");
    s.now = kNow + i * 10 * kSecond;
    s.rolloutAgo = i == 0 ? 0 : (i * 10 - 9) * kSecond; // frame 0 is before the rollout
    QStringList nodes;
    const int done = std::min(4, i / 2);
    for (int n = 0; n < 10; ++n) {
        if (n < done)
            nodes << QStringLiteral("N");
        else if (n < done + 2 && i % 2 == 1 && done < 4)
            nodes << QStringLiteral("n");
        else if (done == 4 && n < 6 && i > 8)
            nodes << QStringLiteral("n");
        else
            nodes << QStringLiteral("O");
    }
    s.nodes = nodes.join(QLatin1Char(' '));
    if (i > 8) {
        s.waitingReason = QStringLiteral("CrashLoopBackOff");
        s.restarts = 2;
        s.newImage = QStringLiteral("fluent-bit:3.0-broken");
    }
    auto snap = rolloutSnapshot(s);
    if (i >= 2) {
        // Four nodes finished in ~20 s each: the ETA has a per-node time to work with.
        auto record = std::make_shared<models::DaemonSetRecord>(*snap->daemonSets.front().record);
        auto &r = record->rollouts.front();
        for (int n = 0; n < done; ++n)
            r.nodes.push_back(
                {nodeName(n), r.started + n * 10 * kSecond, r.started + (n + 2) * 10 * kSecond});
        r.lastProgress = r.started + (done + 1) * 10 * kSecond;
        snap->daemonSets.front().record = record;
    }
    return snap;
}

} // namespace

class TestProgressTab : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seriesAreBoundToTheModel();
    void headlineAndEtaFollowTheModel();
    void themeFollowsThePalette();
    void embeddedRolloutEndsComplete();
    void axisStartsOnATickAndStopsAfterCompletion();
    void unavailableIsDrawnOverTheBudget();
};

void TestProgressTab::seriesAreBoundToTheModel()
{
    gui::ProgressTab tab;
    tab.resize(900, 560);
    tab.setDaemonSetKey(kKey);
    const int frames = 14;
    for (int i = 0; i < frames; ++i)
        tab.setSnapshot(frame(i));
    const QString png = qEnvironmentVariable("DAEMONSCOPE_PROGRESS_PNG");
    if (!png.isEmpty()) {
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QVERIFY(tab.grab().save(png));
    }

    const auto &series = tab.dataSeries();
    QCOMPARE(series.size(), 5);
    const QStringList names = {QStringLiteral("Desired"), QStringLiteral("Updated"),
                               QStringLiteral("Available"), QStringLiteral("Unavailable"),
                               QStringLiteral("maxUnavailable budget")};
    const int columns[] = {RolloutProgressModel::DesiredColumn, RolloutProgressModel::UpdatedColumn,
                           RolloutProgressModel::AvailableColumn, RolloutProgressModel::UnavailableColumn,
                           RolloutProgressModel::BudgetColumn};
    const RolloutProgressModel *model = tab.model();
    QVERIFY(model->rowCount() > 5);
    for (int s = 0; s < 5; ++s) {
        QCOMPARE(series[s]->name(), names[s]);
        QVERIFY(tab.chart()->series().contains(series[s]));
        QCOMPARE(series[s]->count(), model->rowCount());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QPointF p = series[s]->at(row);
            QCOMPARE(p.x(), model->data(model->index(row, RolloutProgressModel::ElapsedColumn)).toDouble());
            QCOMPARE(p.y(), model->data(model->index(row, columns[s])).toDouble());
        }
    }
    // The budget is 20% of 10 nodes.
    QCOMPARE(series[4]->at(0).y(), 2.0);

    // One more changed snapshot adds one point to every series.
    const int before = model->rowCount();
    RolloutSpec fixed;
    fixed.nodes = QStringLiteral("N N N N N N N N N N");
    fixed.maxUnavailable = QStringLiteral("20%");
    fixed.now = kNow + frames * 10 * kSecond;
    fixed.rolloutAgo = (frames * 10 - 9) * kSecond;
    tab.setSnapshot(rolloutSnapshot(fixed));
    QCOMPARE(model->rowCount(), before + 1);
    for (auto *s : series)
        QCOMPARE(s->count(), before + 1);

    // The rollout start is a marker: one vertical segment.
    QCOMPARE(tab.markerSeries().size(), model->markers()->markerCount());
    QCOMPARE(tab.markerSeries().size(), 1);
    QCOMPARE(tab.markerSeries().front()->count(), 2);
    QCOMPARE(tab.markerSeries().front()->at(0).x(), tab.markerSeries().front()->at(1).x());
}

void TestProgressTab::headlineAndEtaFollowTheModel()
{
    gui::ProgressTab tab;
    QCOMPARE(tab.headlineLabel()->text(), QStringLiteral("No DaemonSet selected"));
    tab.setDaemonSetKey(kKey);
    tab.setSnapshot(frame(4));
    QCOMPARE(tab.model()->headline().reason, RolloutHeadline::Progressing);
    QCOMPARE(tab.headlineLabel()->text(), tab.model()->headlineText());
    QVERIFY(tab.headlineLabel()->wordWrap());
    QVERIFY(tab.headlineLabel()->font().bold());
    // 8 nodes left, 20 s each, two at a time.
    QCOMPARE(tab.model()->etaMs(), 80 * kSecond);
    QCOMPARE(tab.etaLabel()->text(), QStringLiteral("ETA: about 80s left"));

    for (int i = 5; i <= 10; ++i)
        tab.setSnapshot(frame(i));
    QCOMPARE(tab.model()->headline().reason, RolloutHeadline::NewPodsNotReady);
    QCOMPARE(
        tab.headlineLabel()->text(),
        QStringLiteral(
            "New pods are not becoming ready: fluent-bit:3.0-broken on node-5, node-6 (CrashLoopBackOff)"));
    QVERIFY(!tab.headlineLabel()->accessibleName().isEmpty());
    // A named cause makes the estimate meaningless.
    QCOMPARE(tab.model()->etaMs(), qint64(-1));
    QVERIFY(tab.etaLabel()->isHidden());
    QVERIFY(tab.chartView()->accessibleDescription().contains(QStringLiteral("updated 6, available 8")));
}

void TestProgressTab::themeFollowsThePalette()
{
    gui::ProgressTab tab;
    QPalette dark = tab.palette();
    dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x25));
    dark.setColor(QPalette::Base, QColor(0x18, 0x1a, 0x1b));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xea, 0xed));
    tab.setPalette(dark);
    QCOMPARE(tab.chart()->theme(), QChart::ChartThemeDark);
    QCOMPARE(tab.chart()->backgroundBrush().color(), QColor(0x18, 0x1a, 0x1b));
    // Our colours survive setTheme: the budget line stays dashed.
    QCOMPARE(tab.dataSeries().at(4)->pen().style(), Qt::DashLine);
    const QString png = qEnvironmentVariable("DAEMONSCOPE_PROGRESS_PNG");
    if (!png.isEmpty()) {
        tab.resize(900, 560);
        tab.setDaemonSetKey(kKey);
        for (int i = 0; i < 14; ++i)
            tab.setSnapshot(frame(i));
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QVERIFY(tab.grab().save(QString(png).replace(QStringLiteral(".png"), QStringLiteral("-dark.png"))));
    }

    QPalette light = dark;
    light.setColor(QPalette::Window, QColor(0xf5, 0xf5, 0xf5));
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    tab.setPalette(light);
    QCOMPARE(tab.chart()->theme(), QChart::ChartThemeLight);
    QCOMPARE(tab.dataSeries().at(4)->pen().style(), Qt::DashLine);
}

void TestProgressTab::embeddedRolloutEndsComplete()
{
    models::EmbeddedBackendOptions options;
    options.scenarioPath = QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/progress/data/rollout.yaml");
    options.speed = 0;
    models::EmbeddedBackend backend(options);
    gui::ProgressTab tab;
    connect(&backend, &models::ClusterBackend::snapshotReady, &tab, &gui::ProgressTab::setSnapshot);
    tab.setDaemonSetKey(QStringLiteral("default/web"));

    // The template change is the scenario's last step: the rollout is under way (or about to
    // be observed) while the clock stands still.
    QTRY_VERIFY_WITH_TIMEOUT(tab.model()->rowCount() > 0, 20000);
    QVERIFY(tab.model()->headline().reason != RolloutHeadline::Complete);
    const QString before = tab.headlineLabel()->text();

    backend.setSpeed(40);
    QTRY_COMPARE_WITH_TIMEOUT(tab.model()->headline().reason, RolloutHeadline::Complete, 60000);
    QVERIFY(tab.headlineLabel()->text() != before);
    QVERIFY(tab.headlineLabel()->text().startsWith(QStringLiteral("Rollout complete: 5 of 5")));
    // The chart saw the rollout: several samples and a rollout-start marker.
    QVERIFY(tab.model()->rowCount() >= 3);
    QVERIFY(tab.model()->markers()->markerCount() >= 1);
    QCOMPARE(tab.dataSeries().front()->count(), tab.model()->rowCount());
}

// The time axis begins and ends on ticks (not at the first sample's odd second), includes the
// rollout's start, and stops a little after the last change once the rollout is over instead of
// growing with the clock; a scenario still being built records nothing.
void TestProgressTab::axisStartsOnATickAndStopsAfterCompletion()
{
    gui::ProgressTab tab;
    tab.setDaemonSetKey(kKey);
    auto loading = frame(1);
    loading->backend.loading = true;
    tab.setSnapshot(loading);
    QCOMPARE(tab.model()->rowCount(), 0);

    for (int i = 2; i <= 7; ++i)
        tab.setSnapshot(frame(i));
    auto *x = qobject_cast<QValueAxis *>(tab.chart()->axes(Qt::Horizontal).front());
    QVERIFY(x);
    const double step = x->tickInterval();
    QVERIFY(step > 0);
    QCOMPARE(std::fmod(x->min(), step), 0.0);
    QCOMPARE(std::fmod(x->max(), step), 0.0);
    QVERIFY(x->min() <= 0); // the rollout started before the first sample (frame 2, 11 s in)
    QVERIFY(x->max() >= tab.model()->elapsedSeconds(tab.model()->lastTime()));

    RolloutSpec done;
    done.nodes = QStringLiteral("N N N N N N N N N N");
    done.maxUnavailable = QStringLiteral("20%");
    done.rolloutAgo = 71 * kSecond;
    done.now = kNow + 80 * kSecond;
    auto complete = rolloutSnapshot(done);
    complete->daemonSets.front().badge = models::RolloutBadge::Complete;
    tab.setSnapshot(complete);
    const double end = x->max();
    // An hour later, nothing changed: the axis has not moved.
    done.now = kNow + 3600 * kSecond;
    done.rolloutAgo = 3591 * kSecond; // the same rollout, started 9 s after kNow
    complete = rolloutSnapshot(done);
    complete->daemonSets.front().badge = models::RolloutBadge::Complete;
    tab.setSnapshot(complete);
    QCOMPARE(tab.model()->lastTime(), kNow + 3600 * kSecond);
    QCOMPARE(x->max(), end);
    QVERIFY(end < 300);

    // While a rollout is not over, the axis follows the clock.
    complete->daemonSets.front().badge = models::RolloutBadge::Stuck;
    tab.setSnapshot(complete);
    QVERIFY(x->max() >= 3600 - 71);
}

// When as many pods are unavailable as the budget allows, the two lines coincide: the budget is
// drawn first so the Unavailable line stays visible on top of it.
void TestProgressTab::unavailableIsDrawnOverTheBudget()
{
    gui::ProgressTab tab;
    const QList<QAbstractSeries *> drawn = tab.chart()->series();
    const auto &data = tab.dataSeries();
    QVERIFY(drawn.indexOf(data.at(4)) < drawn.indexOf(data.at(3)));
    QCOMPARE(data.at(3)->name(), QStringLiteral("Unavailable"));
}

QTEST_MAIN(TestProgressTab)
#include "tst_progresstab.moc"
