#pragma once
// Waiting on a ClusterBackend in tests: for its latest snapshot to satisfy a predicate, and for
// the outcome of an action (taken off the spy, so the next wait for the same kind gets the next).

#include "models/backend/clusterbackend.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QTest>

template <typename Pred> bool waitFor(models::ClusterBackend &b, Pred pred, int ms = 60000)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        if (pred(*b.latest()))
            return true;
        QTest::qWait(20);
    }
    return pred(*b.latest());
}

// The first outcome of `kind` on `spy` (a spy on actionFinished), within `ms`; ok = false and
// "no result" when none came.
inline models::ActionResult waitResult(QSignalSpy &spy, models::ActionKind kind, int ms = 30000)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        for (qsizetype i = 0; i < spy.size(); ++i) {
            const auto r = spy.at(i).at(0).value<models::ActionResult>();
            if (r.kind == kind) {
                spy.removeAt(i);
                return r;
            }
        }
        spy.wait(50);
    }
    models::ActionResult none;
    none.message = QStringLiteral("no result");
    return none;
}
