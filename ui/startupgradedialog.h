#pragma once
// The "Start node upgrade" form: target version, node selector, budget, policies and timeouts
// with the design's defaults (docs node-upgrade.md §1, §8), and the pre-flight report
// (models::UpgradePreflight) recomputed as the fields change, so the operator sees which nodes
// go in which order and which pods will be disrupted before confirming. The dialog only builds
// the rollout; the caller sends rolloutJson() to ClusterBackend::startUpgrade.

#include "models/snapshot/snapshot.h"

#include "models/kube/result.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace gui {

class StartUpgradeDialog : public QDialog
{
    Q_OBJECT

public:
    explicit StartUpgradeDialog(models::SnapshotPtr snapshot, QWidget *parent = nullptr);

    QString rolloutName() const;
    // The NodeUpgradeRollout manifest ({apiVersion, kind, metadata:{name}, spec}) as compact JSON.
    QString rolloutJson() const;
    // The spec as the form writes it (checked by the NodeUpgradeRollout schema when the report
    // is computed and when the backend creates the rollout).
    kube::Json specJson() const;
    // The Job template text (restart mechanism Job) as JSON, or where its YAML is wrong.
    kube::Result<kube::Json> jobTemplate() const;
    QString preflightText() const;
    // A newer snapshot of the cluster: the pre-flight report is computed again from it (the
    // page passes one on when every node's pods have been read meanwhile).
    void setSnapshot(models::SnapshotPtr snapshot);

    // The highest agent version among the snapshot's nodes ("v1.33.1"), empty when none.
    static QString suggestedTargetVersion(const models::ClusterSnapshot &snapshot);

    // Field access for tests and scripted use.
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *targetEdit() const { return m_target; }
    QLineEdit *selectorEdit() const { return m_selector; }
    QLineEdit *maxUnavailableEdit() const { return m_maxUnavailable; }
    QComboBox *unmanagedPolicyCombo() const { return m_unmanaged; }
    QComboBox *drainTimeoutPolicyCombo() const { return m_onDrainTimeout; }
    QComboBox *localDataPolicyCombo() const { return m_localData; }
    QComboBox *restartCombo() const { return m_restart; }
    QPlainTextEdit *jobTemplateEdit() const { return m_jobTemplate; }
    QLineEdit *jobNamespaceEdit() const { return m_jobNamespace; }

public Q_SLOTS:
    void updatePreflight();

private:
    models::SnapshotPtr m_snapshot;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_target = nullptr;
    QLineEdit *m_selector = nullptr;
    QLineEdit *m_maxUnavailable = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QComboBox *m_singleReplica = nullptr;
    QComboBox *m_unready = nullptr;
    QComboBox *m_unmanaged = nullptr;
    QLineEdit *m_unmanagedTimeout = nullptr;
    QComboBox *m_onDrainTimeout = nullptr;
    QComboBox *m_localData = nullptr;
    QComboBox *m_restart = nullptr;
    QLineEdit *m_jobNamespace = nullptr;
    QPlainTextEdit *m_jobTemplate = nullptr;
    QGroupBox *m_jobBox = nullptr;
    QSpinBox *m_maxFailed = nullptr;
    QCheckBox *m_zoneSerial = nullptr;
    QCheckBox *m_startPaused = nullptr;
    QLineEdit *m_drainTimeout = nullptr;
    QLineEdit *m_drainStall = nullptr;
    QLineEdit *m_returnTimeout = nullptr;
    QLineEdit *m_soak = nullptr;
    QPlainTextEdit *m_preflight = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace gui
