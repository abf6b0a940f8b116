#pragma once
// LiveDrillDown — LiveBackend's object details and container logs. Each request runs on a
// thread of its own with the backend's KubeClient, so a log that follows for an hour never holds
// up the worker's watches and actions, and stopLogs ends its transfer at once (the transport's
// interrupt) from the GUI thread. Answers leave as signals (queued to the backend's thread).
//
// Detail: GET the pod or node, and its events as `kubectl describe` finds them: a list with
// fieldSelector involvedObject.name, .namespace and .kind (a node's events in every namespace).
// Logs: GET pods/NAME/log with container, previous, tailLines and follow; lines are passed on
// in batches of what one read delivered.

#include "models/backend/clusterbackend.h"

#include <QObject>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace client {
class KubeClient;
}

namespace models {

class LiveDrillDown : public QObject
{
    Q_OBJECT

public:
    explicit LiveDrillDown(QObject *parent = nullptr);
    ~LiveDrillDown() override; // stops and joins every request

    // Set by the worker once the context is resolved; requests before that fail at once.
    void setClient(std::shared_ptr<client::KubeClient> client);
    void requestDetail(quint64 id, const QString &kind, const QString &ns, const QString &name);
    void startLogs(quint64 id, const LogRequest &request);
    void stopLogs(quint64 id);
    void stopAll(); // cancels and joins every request (before the client goes away)

Q_SIGNALS:
    void detailReady(const models::ObjectDetail &detail);
    void logData(quint64 id, const QString &text);
    void logFinished(quint64 id, bool ok, const QString &message);

private:
    struct Job
    {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> cancel;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void launch(quint64 id, std::function<void(const std::atomic<bool> &cancel)> work);
    void reap(); // joins the jobs that have ended (under m_mutex)

    std::mutex m_mutex;
    std::shared_ptr<client::KubeClient> m_client;
    std::map<quint64, Job> m_jobs;
};

} // namespace models
