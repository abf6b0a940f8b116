#include "ui/windowsession.h"

#include "models/history/historyrecorder.h"
#include "models/itemmodels/revisiontimelinemodel.h"
#include "ui/daemonsetpage.h"
#include "ui/difftab.h"
#include "ui/diffview.h"
#include "ui/mainwindow.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

namespace gui {

WindowSession::WindowSession(MainWindow *window, const QString &historyPath)
    : QObject(window), m_window(window)
{
    models::RevisionMemory *memory = &window->page()->timelineModel()->memory();
    m_recorder =
        new models::HistoryRecorder(std::make_unique<models::HistoryDatabase>(historyPath), memory, window);
    window->setHistoryRecorder(m_recorder);

    connect(window, &MainWindow::snapshotApplied, this, &WindowSession::onSnapshotApplied);
    connect(m_recorder, &models::HistoryRecorder::memoryRestored, this, [this] {
        // The views observed the snapshot before the stored history replaced the memory.
        m_window->page()->timelineModel()->setSnapshot(m_window->snapshot());
    });
    connect(m_recorder, &models::HistoryRecorder::problem, this,
            [this](const QString &message) { m_window->statusBar()->showMessage(message, 30000); });

    attach(window->backend());
    connect(window, &MainWindow::backendChanged, this, &WindowSession::attach);

    DiffView *diff = window->page()->diffTab()->diffView();
    diff->setHideServerNoise(m_settings.hideServerNoise());
    connect(diff, &DiffView::hideServerNoiseChanged, this,
            [this](bool hide) { m_settings.setHideServerNoise(hide); });

    showStartupMessage();
    if (window->snapshot())
        onSnapshotApplied();
}

WindowSession::~WindowSession() = default;

QString WindowSession::startupScenario() const
{
    const QString last = m_settings.lastScenarioPath();
    return !last.isEmpty() && QFileInfo::exists(last) ? last : MainWindow::demoScenarioPath();
}

double WindowSession::startupSpeed() const
{
    return m_settings.simulationSpeed();
}

std::optional<models::LiveBackendOptions> WindowSession::startupLiveBackend() const
{
    if (m_settings.lastBackend() != models::BackendKind::Live || m_settings.lastContext().isEmpty())
        return std::nullopt;
    models::LiveBackendOptions options;
    options.kubeconfig = m_settings.lastKubeconfig();
    options.context = m_settings.lastContext();
    return options;
}

void WindowSession::attach(models::ClusterBackend *backend)
{
    // Only the backend the window shows: a backend switched away from may keep running.
    disconnect(m_actions);
    if (!backend)
        return;
    m_actions = connect(backend, &models::ClusterBackend::actionFinished, this,
                        [this](const models::ActionResult &r) {
                            m_recorder->recordAction(r);
                            if (r.kind == models::ActionKind::LoadScenario && r.ok) {
                                // The built-in demo is stored as "" so a newer version's demo replaces it.
                                m_settings.setLastScenarioPath(r.target == MainWindow::demoScenarioPath()
                                                                   ? QString()
                                                                   : QFileInfo(r.target).absoluteFilePath());
                            }
                            if (r.kind == models::ActionKind::Connect && r.ok)
                                m_settings.setLastContext(r.target);
                        });
}

void WindowSession::onSnapshotApplied()
{
    const models::SnapshotPtr snapshot = m_window->snapshot();
    if (!snapshot)
        return;
    m_recorder->recordSnapshot(snapshot);
    const bool loaded =
        !snapshot->backend.scenarioPath.isEmpty() || snapshot->backend.kind == models::BackendKind::Live;
    if (loaded && m_settings.lastBackend() != snapshot->backend.kind)
        m_settings.setLastBackend(snapshot->backend.kind);
    // The speed the clock runs at; a stopped clock keeps the speed it will resume at.
    const double speed = snapshot->clock.speed;
    if (snapshot->backend.kind == models::BackendKind::Embedded && snapshot->clock.running && speed > 0 &&
        !qFuzzyCompare(speed, m_settings.simulationSpeed()))
        m_settings.setSimulationSpeed(speed);
}

void WindowSession::showStartupMessage()
{
    const QString message = m_recorder->startupMessage();
    if (message.isEmpty())
        return;
    m_window->statusBar()->showMessage(message, 60000);
    if (m_recorder->database()->recoveryMessage().isEmpty())
        return;
    auto *box =
        new QMessageBox(QMessageBox::Warning, tr("History File Damaged"), message, QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("historyRecoveryDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_recoveryDialog = box;
    box->open();
}

} // namespace gui
