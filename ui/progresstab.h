#pragma once
// The Progress tab of a DaemonSet page: a headline saying why the rollout waits (or that it is
// moving / complete), the ETA, and a chart of desired / updated / available / unavailable
// pods and the maxUnavailable budget over time, with vertical lines where a rollout started,
// was rolled back, paused or resumed.
//
// The chart is a view of models::RolloutProgressModel (and its RolloutMarkerModel): every
// series is bound with QVXYModelMapper, x = the model's ElapsedColumn (seconds since the
// latest rollout started). The tab owns its model and is fed like the other tabs:
//
//     auto *progress = new gui::ProgressTab(this);
//     m_tabs->addTab(progress, tr("Progress"));
//     // on every snapshot: progress->setSnapshot(snapshot);
//     // when the DaemonSet changes: progress->setDaemonSetKey(dsKey);
//
// Feed every snapshot, also while the tab is hidden: the model records the history of every
// DaemonSet so switching shows recent progress at once. The chart theme (light/dark) follows
// the widget's palette.

#include "models/snapshot/snapshot.h"

#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace models {
class RolloutProgressModel;
} // namespace models

namespace gui {

class ProgressTab : public QWidget
{
    Q_OBJECT

public:
    explicit ProgressTab(QWidget *parent = nullptr);
    ~ProgressTab() override;

    void setSnapshot(const models::SnapshotPtr &snapshot);
    void setDaemonSetKey(const QString &dsKey);

    models::RolloutProgressModel *model() const { return m_model; }
    QChartView *chartView() const { return m_view; }
    QChart *chart() const { return m_chart; }
    QLabel *headlineLabel() const { return m_headline; }
    QLabel *etaLabel() const { return m_eta; }
    // Desired, updated, available, unavailable, budget — in that order.
    const QList<QLineSeries *> &dataSeries() const { return m_series; }
    // One series per marker, in marker order.
    const QList<QLineSeries *> &markerSeries() const { return m_markerSeries; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    void updateAxes();
    void updateHeadline();
    void rebuildMarkers();
    bool dark() const;

    models::RolloutProgressModel *m_model = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_eta = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QList<QLineSeries *> m_series;
    QList<QLineSeries *> m_markerSeries;
    bool m_applyingTheme = false;
};

} // namespace gui
