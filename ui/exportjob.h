#pragma once
// ExportJob — renders an export off the GUI thread and writes it atomically with QSaveFile.
// Reports can take a while for long histories; the GUI stays responsive, and a busy dialog
// appears only when the work takes longer than a moment. The render function runs on a worker
// thread: it must only read the immutable values it captured, never widgets or item models.

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QProgressDialog;
class QThread;
class QWidget;

namespace gui {

class ExportJob : public QObject
{
    Q_OBJECT
public:
    // Returns the rendered document, or sets *error and returns an empty array.
    using Renderer = std::function<QByteArray(QString *error)>;

    // Starts at once; the job deletes itself after finished() was emitted.
    static ExportJob *start(QWidget *parent, const QString &title, const QString &path, Renderer render);

    ~ExportJob() override;

    QString path() const { return m_path; }

signals:
    // ok: the file was written completely; message says where, or why not.
    void finished(bool ok, const QString &message);

private:
    ExportJob(QWidget *parent, const QString &title, const QString &path, Renderer render);
    void onWorkerDone();

    QString m_path;
    Renderer m_render;
    QThread *m_thread = nullptr;
    QPointer<QProgressDialog> m_progress;
    // Written by the worker before it finishes, read on the GUI thread after QThread::finished.
    bool m_ok = false;
    QString m_message;
};

} // namespace gui
