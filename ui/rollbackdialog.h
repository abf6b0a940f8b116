#pragma once
// Roll back a DaemonSet, after a preview: the target revision (kubectl's choice for "previous"
// or the one picked), the template diff against the current template, how many nodes get a new
// pod, an estimated duration, and a warning when kubectl would skip the rollback. On confirm it
// asks the backend and shows the outcome ("rolled back", "skipped rollback (...)").

#include "models/backend/clusterbackend.h"
#include "models/planners/rollbackpreview.h"

#include <QDialog>
#include <QPointer>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QPushButton;

namespace gui {

class DiffView;
class ManagedByLabel;

class RollbackDialog : public QDialog
{
    Q_OBJECT

public:
    // toRevision 0 = the previous revision, as `kubectl rollout undo` without --to-revision.
    RollbackDialog(models::ClusterBackend *backend, const QString &dsKey, qint64 toRevision,
                   QWidget *parent = nullptr);

    qint64 requestedRevision() const;
    const models::RollbackPreview &preview() const { return m_preview; }
    // Empty until the backend answered.
    QString outcome() const { return m_outcome; }
    bool isWaiting() const { return m_waiting; }

    DiffView *diffView() const { return m_diff; }
    QComboBox *targetPicker() const { return m_target; }
    QPushButton *confirmButton() const { return m_confirm; }
    QLabel *warningLabel() const { return m_warning; }
    QLabel *outcomeLabel() const { return m_outcomeLabel; }

public slots:
    // Sends the rollback (the confirm button does the same).
    void confirm();

signals:
    void rollbackFinished(const models::ActionResult &result);

private:
    void fillTargets();
    void updatePreview();
    void onActionFinished(const models::ActionResult &result);

    QPointer<models::ClusterBackend> m_backend;
    QString m_dsKey;
    models::RollbackPreview m_preview;
    QString m_outcome;
    bool m_waiting = false;

    QComboBox *m_target = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_warning = nullptr;
    QLabel *m_impact = nullptr;
    QLabel *m_estimate = nullptr;
    QLabel *m_outcomeLabel = nullptr;
    DiffView *m_diff = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QPushButton *m_confirm = nullptr;

    // ---- Tools that will revert the rollback (Helm, Argo CD, Flux, kubectl apply, ...)
    ManagedByLabel *m_managed = nullptr;

public:
    ManagedByLabel *managedLabel() const { return m_managed; }
};

} // namespace gui
