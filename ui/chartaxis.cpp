#include "ui/chartaxis.h"

#include <QChart>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gui {

double niceStep(double span, int ticks)
{
    const double raw = std::max(1.0, span / ticks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double f : {1.0, 2.0, 5.0, 10.0}) {
        if (f * magnitude >= raw)
            return f * magnitude;
    }
    return 10 * magnitude;
}

void setAxis(QValueAxis *axis, double min, double max, double interval)
{
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(min, max);
    } else {
        axis->setRange(min, max);
        axis->setTickInterval(interval);
    }
}

QChart *makeTimeChart()
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

QValueAxis *makeCountAxis(QChart *chart, const QString &title)
{
    auto *axis = new QValueAxis(chart);
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTitleText(title);
    return axis;
}

} // namespace gui
