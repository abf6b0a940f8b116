#pragma once
// Start a rollout of a DaemonSet, after a preview, in one of three modes:
// - Set Image: a row per container (init containers marked) with its image, editable; the
//   changed ones are sent as `kubectl set image` would send them.
// - Restart: `kubectl rollout restart` (the template annotation restartedAt = now).
// - Update Strategy: maxUnavailable and maxSurge, checked as the API server checks them (the
//   error shows under the fields and the confirm button stays disabled while they are invalid).
// The preview (models::StartRolloutPreview) follows every keystroke: the template diff, how many
// nodes get a new pod, the estimate, or for a strategy edit the new budget; and a warning when
// Helm, Argo CD, Flux, kubectl apply or another field manager will revert the change. Cancel is
// the default button; the verb ("Set Image", "Restart", "Apply Strategy") sends the action, and
// the dialog then shows the outcome.

#include "models/backend/clusterbackend.h"
#include "models/planners/startrolloutpreview.h"

#include <QDialog>
#include <QMap>
#include <QPointer>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace gui {

class DiffView;
class ManagedByLabel;

class StartRolloutDialog : public QDialog
{
    Q_OBJECT

public:
    StartRolloutDialog(models::ClusterBackend *backend, const QString &dsKey, models::StartRolloutMode mode,
                       QWidget *parent = nullptr);

    models::StartRolloutMode mode() const { return m_mode; }
    const models::StartRolloutPreview &preview() const { return m_preview; }
    // What would be sent: the images that differ from the template, or the strategy fields.
    models::StartRolloutRequest request() const;
    QString outcome() const { return m_outcome; } // empty until the backend answered
    bool isWaiting() const { return m_waiting; }

    // Set Image: the editor of a container's image (null when there is no such container).
    QLineEdit *imageEdit(const QString &container) const { return m_imageEdits.value(container); }
    QLineEdit *maxUnavailableEdit() const { return m_maxUnavailable; }
    QLineEdit *maxSurgeEdit() const { return m_maxSurge; }
    DiffView *diffView() const { return m_diff; }
    QPushButton *confirmButton() const { return m_confirm; }
    QPushButton *cancelButton() const;
    QLabel *headlineLabel() const { return m_headline; }
    QLabel *impactLabel() const { return m_impact; }
    QLabel *estimateLabel() const { return m_estimate; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *outcomeLabel() const { return m_outcomeLabel; }
    ManagedByLabel *managedLabel() const { return m_managed; }

public slots:
    void confirm();
    void updatePreview();

signals:
    void actionFinished(const models::ActionResult &result);

private:
    void buildImageRows(QFormLayout *form, const models::DaemonSetInfo &ds);
    void buildStrategyRows(QFormLayout *form, const models::DaemonSetInfo &ds);
    void showImpact();
    void onActionFinished(const models::ActionResult &result);
    models::ActionKind actionKind() const;

    QPointer<models::ClusterBackend> m_backend;
    QString m_dsKey;
    models::StartRolloutMode m_mode;
    models::StartRolloutPreview m_preview;
    QMap<QString, QString> m_currentImages; // container -> image in the template
    QString m_outcome;
    bool m_waiting = false;

    QMap<QString, QLineEdit *> m_imageEdits;
    QLineEdit *m_maxUnavailable = nullptr;
    QLineEdit *m_maxSurge = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_error = nullptr;
    ManagedByLabel *m_managed = nullptr;
    QLabel *m_impact = nullptr;
    QLabel *m_estimate = nullptr;
    QLabel *m_outcomeLabel = nullptr;
    DiffView *m_diff = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QPushButton *m_confirm = nullptr;
    QLineEdit *m_nameGuard = nullptr; // the production guard's name field, null elsewhere
};

} // namespace gui
