#pragma once
// WindowSession — what the console remembers between runs, wired into a MainWindow: the history
// database (opened at HistoryDatabase::defaultPath() or a given file; it restores the timeline's
// remembered revisions for the cluster shown and records snapshots and actions), and the
// preferences kept in AppSettings (the scenario and backend used last, the simulation speed,
// the diff view's "hide server noise"). Window geometry and splitters are saved by
// MainWindow::closeEvent through WindowLayout; theme and language by their menus.
//
// Messages about the history file (a damaged file moved aside, a location that cannot be
// written) go to the window's status bar; a moved-aside file is also reported in a dialog,
// because the user may want to keep or inspect the old file.

#include "models/backend/livebackend.h"
#include "models/settings/appsettings.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>

#include <optional>

namespace models {
class ClusterBackend;
class HistoryRecorder;
} // namespace models

namespace gui {

class MainWindow;

class WindowSession : public QObject
{
    Q_OBJECT

public:
    // `historyPath` empty: the standard location. The session is a child of the window.
    explicit WindowSession(MainWindow *window, const QString &historyPath = {});
    ~WindowSession() override;

    models::HistoryRecorder *recorder() const { return m_recorder; }
    models::AppSettings &settings() { return m_settings; }
    // The dialog reporting a moved-aside history file, while it is open.
    QMessageBox *recoveryDialog() const { return m_recoveryDialog; }

    // The scenario to open at start: the one loaded last when it still exists, else the demo.
    QString startupScenario() const;
    // The simulation speed to start with (the one used last).
    double startupSpeed() const;
    // The live cluster to connect to at start: the one used last when the app was showing a live
    // cluster (its kubeconfig context connected once), else none.
    std::optional<models::LiveBackendOptions> startupLiveBackend() const;

private:
    void attach(models::ClusterBackend *backend);
    void onSnapshotApplied();
    void showStartupMessage();

    MainWindow *m_window = nullptr;
    models::AppSettings m_settings;
    models::HistoryRecorder *m_recorder = nullptr;
    QPointer<QMessageBox> m_recoveryDialog;
    QMetaObject::Connection m_actions;
};

} // namespace gui
