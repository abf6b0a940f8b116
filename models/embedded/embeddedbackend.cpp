#include "models/embedded/embeddedbackend.h"

#include "models/embedded/embeddedworker.h"

namespace models {

EmbeddedBackend::EmbeddedBackend(EmbeddedBackendOptions options, QObject *parent) : ClusterBackend(parent)
{
    auto inFlight = std::make_shared<std::atomic<int>>(0);
    m_worker = new EmbeddedWorker(std::move(options), inFlight);
    m_worker->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("daemonscope-engine"));
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &EmbeddedWorker::snapshotReady, this,
            [this, inFlight](std::shared_ptr<const ClusterSnapshot> s) {
                inFlight->fetch_sub(1);
                publish(std::move(s));
            });
    connect(m_worker, &EmbeddedWorker::actionFinished, this, &ClusterBackend::actionFinished);
    connect(m_worker, &EmbeddedWorker::errorOccurred, this, &ClusterBackend::errorOccurred);
    connect(m_worker, &EmbeddedWorker::detailReady, this, &ClusterBackend::detailReady);
    connect(m_worker, &EmbeddedWorker::logData, this, &ClusterBackend::logData);
    connect(m_worker, &EmbeddedWorker::logFinished, this, &ClusterBackend::logFinished);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, &EmbeddedWorker::start, Qt::QueuedConnection);
}

EmbeddedBackend::~EmbeddedBackend()
{
    m_thread.quit();
    m_thread.wait();
}

void EmbeddedBackend::rollback(const QString &dsKey, qint64 toRevision)
{
    post(m_worker, &EmbeddedWorker::rollback, dsKey, toRevision);
}

void EmbeddedBackend::pause(const QString &dsKey)
{
    post(m_worker, &EmbeddedWorker::pause, dsKey);
}

void EmbeddedBackend::resume(const QString &dsKey)
{
    post(m_worker, &EmbeddedWorker::resume, dsKey);
}

void EmbeddedBackend::loadScenario(const QString &path)
{
    post(m_worker, &EmbeddedWorker::loadScenario, path);
}

void EmbeddedBackend::setSpeed(double speed)
{
    post(m_worker, &EmbeddedWorker::setSpeed, speed);
}

void EmbeddedBackend::step(qint64 ms)
{
    post(m_worker, &EmbeddedWorker::step, ms);
}

void EmbeddedBackend::setSeed(quint64 seed)
{
    post(m_worker, &EmbeddedWorker::setSeed, seed);
}

void EmbeddedBackend::injectFault(const QString &node, const QString &faultKind)
{
    post(m_worker, &EmbeddedWorker::injectFault, node, faultKind);
}

void EmbeddedBackend::setSuspended(bool suspended)
{
    post(m_worker, &EmbeddedWorker::setSuspended, suspended);
}

void EmbeddedBackend::startUpgrade(const QString &rolloutJson)
{
    post(m_worker, &EmbeddedWorker::startUpgrade, rolloutJson);
}

void EmbeddedBackend::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                     const QString &note)
{
    post(m_worker, &EmbeddedWorker::upgradeControl, rollout, action, node, note);
}

void EmbeddedBackend::cordon(const QString &node, bool unschedulable)
{
    post(m_worker, &EmbeddedWorker::cordon, node, unschedulable);
}

void EmbeddedBackend::drain(const QString &node, bool deleteEmptyDirData)
{
    post(m_worker, &EmbeddedWorker::drainNode, node, deleteEmptyDirData);
}

// ---- Starting a rollout

void EmbeddedBackend::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    post(m_worker, &EmbeddedWorker::setImage, dsKey, images);
}

void EmbeddedBackend::restartRollout(const QString &dsKey)
{
    post(m_worker, &EmbeddedWorker::restartRollout, dsKey);
}

void EmbeddedBackend::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                        const QString &maxSurge)
{
    post(m_worker, &EmbeddedWorker::setUpdateStrategy, dsKey, maxUnavailable, maxSurge);
}

// ---- drill-down -----------------------------------------------------------------------------

quint64 EmbeddedBackend::requestDetail(const QString &kind, const QString &ns, const QString &name)
{
    const quint64 id = nextRequestId();
    post(m_worker, &EmbeddedWorker::requestDetail, id, kind, ns, name);
    return id;
}

quint64 EmbeddedBackend::startLogs(const LogRequest &r)
{
    const quint64 id = nextRequestId();
    post(m_worker, &EmbeddedWorker::startLogs, id, r.namespace_, r.pod, r.container, r.previous, r.follow,
         r.tailLines);
    return id;
}

void EmbeddedBackend::stopLogs(quint64 id)
{
    post(m_worker, &EmbeddedWorker::stopLogs, id);
}

} // namespace models
