#pragma once
// AgeClock — the time a view shows between snapshots, and one wake-up for the next moment a
// duration it shows reads differently. A backend publishes a snapshot when something changed,
// not on a tick, so between two snapshots "5m" ages, "for 7m54s" clauses and thresholds are
// carried forward here: the snapshot's time plus the real time since it arrived (x speed) while
// its clock runs; a stopped clock (paused simulation) holds still and schedules nothing.
//
// A view calls setClock() with each snapshot, wakeAt() with the earliest time its wording
// changes, and refreshes what it shows on due(). Durations read as kube::humanAge writes them:
// whole seconds below 10 minutes, whole minutes below 8 hours, hours below 8 days, then days;
// untilWordingChanges() is that rule.

#include "models/snapshot/snapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace models {

class AgeClock : public QObject
{
    Q_OBJECT

public:
    explicit AgeClock(QObject *parent = nullptr);

    void setClock(const ClockInfo &clock); // with every snapshot: the count since it restarts
    qint64 now() const;                    // the clock's time carried forward by the real time since
    // Emits due() once when now() reaches `time` (0 or a stopped clock: no wake-up), at the
    // earliest kMinWaitMs real ms from now. Replaces the previous wake-up.
    void wakeAt(qint64 time);
    static constexpr int kMinWaitMs = 100;
    bool pending() const { return m_timer.isActive(); }
    qint64 wakeTime() const { return m_wakeAt; }

    // How long until kube::humanAge(durationMs) reads differently; at least 1 ms.
    static qint64 untilWordingChanges(qint64 durationMs);
    // The earliest time after `now` at which humanAge(now - t) reads differently for one of
    // `times` (ages of things that happened at those times; 0 entries are skipped); 0 when none.
    template <typename Range, typename TimeOf>
    static qint64 nextAgeChange(const Range &rows, qint64 now, TimeOf timeOf)
    {
        qint64 next = 0;
        for (const auto &row : rows) {
            const qint64 t = timeOf(row);
            if (t <= 0)
                continue;
            const qint64 at = now + untilWordingChanges(now - t);
            if (next == 0 || at < next)
                next = at;
        }
        return next;
    }

Q_SIGNALS:
    void due();

private:
    ClockInfo m_clock;
    QElapsedTimer m_arrived;
    QTimer m_timer; // single shot
    qint64 m_wakeAt = 0;
};

} // namespace models
