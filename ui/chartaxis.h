#pragma once
// Axis helpers shared by the Qt Charts views (DaemonSet progress, node-upgrade phases).

class QChart;
class QString;
class QValueAxis;

namespace gui {

// The smallest of 1, 2, 5 x 10^k that cuts `span` into at most `ticks` pieces (at least 1).
double niceStep(double span, int ticks);

// Sets range and tick interval so that no state in between has many more ticks than the old
// or the new one: Qt Charts creates and lays out a label item per tick on every change, and
// the range 0..5000 with the previous interval 1 would build 5,000 labels first.
void setAxis(QValueAxis *axis, double min, double max, double interval);

// A chart without animation, legend at the bottom, small margins (the caller owns it).
QChart *makeTimeChart();
// A whole-number axis with dynamic ticks anchored at 0, owned by `chart` (not yet attached).
QValueAxis *makeCountAxis(QChart *chart, const QString &title);

} // namespace gui
