#include "ui/exportjob.h"

#include <QFileInfo>
#include <QProgressDialog>
#include <QSaveFile>
#include <QThread>
#include <QWidget>

namespace gui {

namespace {

// Shorter exports finish before anyone could read a dialog; showing one would only flicker.
constexpr int kProgressDelayMs = 400;

} // namespace

ExportJob *ExportJob::start(QWidget *parent, const QString &title, const QString &path, Renderer render)
{
    return new ExportJob(parent, title, path, std::move(render));
}

ExportJob::ExportJob(QWidget *parent, const QString &title, const QString &path, Renderer render)
    : QObject(parent), m_path(path), m_render(std::move(render))
{
    if (parent) {
        m_progress =
            new QProgressDialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), QString(), 0, 0, parent);
        m_progress->setWindowTitle(title);
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(kProgressDelayMs);
        m_progress->setCancelButton(nullptr);
        m_progress->setAccessibleName(tr("Export progress"));
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
    }
    m_thread = QThread::create([this] {
        QString error;
        const QByteArray data = m_render(&error);
        if (!error.isEmpty()) {
            m_message = error;
            return;
        }
        QSaveFile file(m_path);
        if (!file.open(QIODevice::WriteOnly)) {
            m_message = tr("Cannot write %1: %2").arg(m_path, file.errorString());
            return;
        }
        if (file.write(data) != data.size() || !file.commit()) {
            m_message = tr("Cannot write %1: %2").arg(m_path, file.errorString());
            file.cancelWriting();
            return;
        }
        m_ok = true;
        m_message = tr("Wrote %1 (%2 bytes)").arg(m_path).arg(data.size());
    });
    connect(m_thread, &QThread::finished, this, &ExportJob::onWorkerDone);
    m_thread->start();
}

ExportJob::~ExportJob()
{
    // The parent window may close while the worker still writes: let it finish the file.
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void ExportJob::onWorkerDone()
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    if (m_progress) {
        m_progress->close();
        m_progress->deleteLater();
    }
    emit finished(m_ok, m_message);
    deleteLater();
}

} // namespace gui
