#include "models/itemmodels/ageclock.h"

#include <algorithm>
#include <cmath>

namespace models {

AgeClock::AgeClock(QObject *parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer); // a wording change is due at a given instant
    connect(&m_timer, &QTimer::timeout, this, [this] {
        // A timer may fire a little early: what it was set for is due now.
        if (m_clock.running)
            m_clock.now = std::max(
                m_clock.now, m_wakeAt - static_cast<qint64>(double(m_arrived.elapsed()) * m_clock.speed));
        m_wakeAt = 0;
        Q_EMIT due();
    });
}

void AgeClock::setClock(const ClockInfo &clock)
{
    m_clock = clock;
    m_arrived.start();
}

qint64 AgeClock::now() const
{
    if (!m_clock.running || m_clock.speed <= 0 || !m_arrived.isValid())
        return m_clock.now;
    return m_clock.now + static_cast<qint64>(double(m_arrived.elapsed()) * m_clock.speed);
}

void AgeClock::wakeAt(qint64 time)
{
    if (time <= 0 || !m_clock.running || m_clock.speed <= 0) {
        m_timer.stop();
        m_wakeAt = 0;
        return;
    }
    m_wakeAt = time;
    // Not more often than kMinWaitMs: a fast simulation changes "5s" ages every few real
    // milliseconds, and publishes snapshots (which move the ages too) more often than that.
    const double wait = std::ceil(double(time - now()) / m_clock.speed);
    m_timer.start(static_cast<int>(std::clamp(wait, double(kMinWaitMs), 24.0 * 3600 * 1000)));
}

qint64 AgeClock::untilWordingChanges(qint64 durationMs)
{
    constexpr qint64 second = 1000, minute = 60 * second, hour = 60 * minute, day = 24 * hour;
    const qint64 d = std::max<qint64>(0, durationMs);
    const qint64 unit = d < 10 * minute ? second : d < 8 * hour ? minute : d < 8 * day ? hour : day;
    return unit - d % unit;
}

} // namespace models
