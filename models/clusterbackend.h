#pragma once
// ClusterBackend — the one interface the GUI sees, whether the data comes from the embedded
// engine or a live cluster. It lives on the GUI thread. Every command returns at once and
// completes asynchronously: its outcome arrives as actionFinished, the resulting state as the
// next snapshotReady. Snapshots are immutable and shared (std::shared_ptr<const ...>), so
// the GUI thread never touches the backend's working state and no mutex is shared.
//
// A backend publishes the snapshot showing an action's effect before it emits the action's
// actionFinished, so latest() is up to date when the result arrives.
//
// Commands a backend cannot perform (simulation controls on a live cluster) finish with
// ActionResult{ok = false} and a message saying so; they never block or throw.

#include "models/snapshot.h"

#include <QObject>
#include <QString>

#include <memory>

namespace models {

struct ActionResult
{
    ActionKind kind = ActionKind::Rollback;
    QString target; // "default/web", a node name, a scenario path; empty for clock controls
    bool ok = false;
    QString message;     // "rolled back", "skipped rollback (current template already matches
                         // revision 5)", "paused", or the error text
    qint64 revision = 0; // rollback: the revision rolled back to (0 if none)
};

// The action log's user: $USER, else $USERNAME, else the account of the process's user id
// (getpwuid), else "uid N" — never empty.
QString operatingSystemUser();
// A rollback's recorded parameters: the revision it went to when known ("toRevision=4"), with
// the request when that was "the previous one" ("toRevision=4, requested=0"); the request
// alone when no revision was chosen.
QString rollbackParameters(qint64 requested, qint64 resolved);

class ClusterBackend : public QObject
{
    Q_OBJECT

public:
    explicit ClusterBackend(QObject *parent = nullptr);
    ~ClusterBackend() override;

    virtual BackendKind kind() const = 0;
    // Whether setSpeed/step/setSeed/injectFault/loadScenario do anything.
    virtual bool isSimulation() const = 0;

    // The last published snapshot (GUI thread); ClusterSnapshot::empty() before the first.
    std::shared_ptr<const ClusterSnapshot> latest() const;

public Q_SLOTS:
    // kubectl rollout undo daemonset/NAME [--to-revision=N]; 0 = the previous revision.
    virtual void rollback(const QString &dsKey, qint64 toRevision) = 0;
    // The app's pause: updateStrategy switched to OnDelete, the old one saved in an annotation.
    virtual void pause(const QString &dsKey) = 0;
    virtual void resume(const QString &dsKey) = 0;
    // Embedded: replaces the cluster by the scenario's (its steps are run first).
    virtual void loadScenario(const QString &path) = 0;
    // Embedded: virtual ms per real ms, 0 = clock paused, clamped to 0..1000.
    virtual void setSpeed(double speed) = 0;
    // Embedded: advance the virtual clock by ms at once (works while paused).
    virtual void step(qint64 ms) = 0;
    // Embedded: rebuild the current scenario with this seed.
    virtual void setSeed(quint64 seed) = 0;
    // Embedded: engine::FaultKind name (NotReady, Ready, Unreachable, ...).
    virtual void injectFault(const QString &node, const QString &faultKind) = 0;
    // While another backend is shown: a simulation stops its clock and publishes nothing until it
    // is resumed, then publishes at once and goes on where it stopped. Does nothing by default
    // (a live backend's watches follow the cluster for as long as it exists).
    virtual void setSuspended(bool suspended);

    // Node-agent upgrade (docs node-upgrade.md). A backend that cannot do it finishes with
    // ActionResult{ok = false, "not supported by this backend"} (the default).
    // Creates or updates a NodeUpgradeRollout from a manifest ({metadata:{name}, spec:{...}}) or
    // the scenario step's flat map, as JSON; outcome ActionKind::StartUpgrade, target = name.
    virtual void startUpgrade(const QString &rolloutJson);
    // action: pause, resume, abort, acknowledge (rollout; node empty) or hold, release, skip,
    // retry, force, abort (one node); note: the pause reason. Outcome ActionKind::UpgradeControl,
    // target = rollout name.
    virtual void upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                const QString &note);

Q_SIGNALS:
    void snapshotReady(std::shared_ptr<const models::ClusterSnapshot> snapshot);
    void actionFinished(const models::ActionResult &result);
    void errorOccurred(const QString &message);

protected:
    // Emits actionFinished{kind, target, ok = false, "not supported by this backend"}, queued.
    void finishUnsupported(ActionKind kind, const QString &target);
    // Stores the snapshot as latest() and emits snapshotReady. GUI thread only.
    void publish(std::shared_ptr<const ClusterSnapshot> snapshot);

private:
    std::shared_ptr<const ClusterSnapshot> m_latest;
};

} // namespace models

Q_DECLARE_METATYPE(models::ActionResult)
