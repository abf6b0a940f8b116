#pragma once
// StartRolloutPreview — what starting a rollout would do, computed from a snapshot before the
// user confirms, with the same decisions the backends then send (api/startrollout.h):
//
// - Set image / Restart: the new pod template (the current one with the PATCH applied), its
//   diff against the current template, whether it is an existing revision again (a set image
//   back to an earlier image reuses that revision: nodes still on it keep their pods), how many
//   nodes get a new pod and the estimated duration — RolloutImpact, the rules of a rollback's
//   preview (rollbackpreview.h).
// - Strategy: a strategy edit starts no rollout; it changes how the running one (and the next)
//   proceeds. The preview shows the new budget ("up to N nodes at a time of M"), the nodes the
//   running rollout still has to replace and its estimate under the new budget. On a DaemonSet
//   the app paused, the saved strategy is edited and it stays paused.
//
// Every mode lists the tools that will revert the change (managedby.h).

#include "models/planners/rollbackpreview.h"

#include "models/kube/daemonset.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace models {

enum class StartRolloutMode { SetImage, Restart, Strategy };

struct StartRolloutRequest
{
    StartRolloutMode mode = StartRolloutMode::SetImage;
    QMap<QString, QString> images; // SetImage: container name → image
    QString maxUnavailable;        // Strategy: "1", "10%"
    QString maxSurge;              // Strategy: "0", "25%"
};

class StartRolloutPreview : public RolloutImpact
{
public:
    StartRolloutMode mode = StartRolloutMode::SetImage;
    bool ok = false;      // false: the action would be refused; `message` says why
    QString message;      // the refusal, or what the action would print
    bool changed = false; // ok and false: nothing would change, nothing is sent
    qint64 currentRevision = 0;
    qint64 reusedRevision = 0; // the new template is this existing revision (0: a new one)

    diff::TemplateDiff diff; // SetImage / Restart: current template → new template

    // Strategy
    bool editsSavedStrategy = false; // paused: the saved strategy is what changes
    int budgetNodes = 0;             // the new budget: up to this many nodes at a time
    int oldBudgetNodes = 0;          // the current one (0: OnDelete or paused)
    QString budgetText;              // "up to 2 nodes at a time of 42"

    QStringList managedWarnings; // tools that will revert it, one sentence each

    // restartedAt: the time a restart stamps (RFC 3339); empty: the snapshot's clock.
    static StartRolloutPreview compute(const ClusterSnapshot &snapshot, const QString &dsKey,
                                       const StartRolloutRequest &request, const QString &restartedAt = {});
};

// The action log's parameters: "nginx=nginx:1.28, sidecar=envoy:1.30" (by container name),
// "maxUnavailable=2, maxSurge=0", "restartedAt=2026-12-04T10:30:00Z".
QString setImageParameters(const QMap<QString, QString> &images);
QString strategyParameters(const QString &maxUnavailable, const QString &maxSurge);
QString restartParameters(const QString &restartedAt);

// The DaemonSet as far as a snapshot knows it (name, the app's pause annotation, template and
// update strategy): what api/startrollout.h decides on.
kube::DaemonSet daemonSetOf(const DaemonSetInfo &ds);

} // namespace models
