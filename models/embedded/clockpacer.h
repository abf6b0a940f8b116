#pragma once
// ClockPacer — how far the embedded cluster's virtual clock advances at each tick of the
// worker's timer, so that it follows real time times the speed asked for.
//
// Each tick is given the real time since the one before. What the ticks have not simulated yet
// is owed and made up by the following ticks — a tick the timer fired late, or one that found the
// engine still busy with a burst of work, is caught up — but a single tick advances at most
// `maxStepTicks` intervals' worth, and what is owed beyond `maxLagMs` of real time is dropped. So
// an engine that cannot keep up for long runs slower than asked instead of taking ever larger
// steps, and the clock never runs ahead of real time times the speed. Fractions of a virtual
// millisecond carry over to the next tick.

#include <algorithm>
#include <cstdint>

namespace models {

class ClockPacer
{
public:
    ClockPacer(std::int64_t intervalMs, std::int64_t maxLagMs = 1000, int maxStepTicks = 2)
        : m_intervalMs(intervalMs), m_maxLagMs(maxLagMs), m_maxStepTicks(maxStepTicks)
    {}

    // Real time since the previous tick (nanoseconds) -> virtual milliseconds to advance now.
    std::int64_t step(std::int64_t realNs, double speed)
    {
        m_owedMs += double(std::max<std::int64_t>(0, realNs)) / 1e6 * speed;
        m_owedMs = std::min(m_owedMs, double(m_maxLagMs) * speed);
        const auto advance = static_cast<std::int64_t>(
            std::min(m_owedMs, double(m_maxStepTicks) * double(m_intervalMs) * speed));
        m_owedMs -= double(advance);
        return advance;
    }
    // Virtual milliseconds owed to real time.
    double owedMs() const { return m_owedMs; }
    // The clock (re)starts: nothing is owed.
    void reset() { m_owedMs = 0; }

private:
    std::int64_t m_intervalMs;
    std::int64_t m_maxLagMs;
    int m_maxStepTicks;
    double m_owedMs = 0;
};

} // namespace models
