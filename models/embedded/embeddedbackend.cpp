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
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey, toRevision] { w->rollback(dsKey, toRevision); },
        Qt::QueuedConnection);
}

void EmbeddedBackend::pause(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->pause(dsKey); }, Qt::QueuedConnection);
}

void EmbeddedBackend::resume(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->resume(dsKey); }, Qt::QueuedConnection);
}

void EmbeddedBackend::loadScenario(const QString &path)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, path] { w->loadScenario(path); }, Qt::QueuedConnection);
}

void EmbeddedBackend::setSpeed(double speed)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, speed] { w->setSpeed(speed); }, Qt::QueuedConnection);
}

void EmbeddedBackend::step(qint64 ms)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ms] { w->step(ms); }, Qt::QueuedConnection);
}

void EmbeddedBackend::setSeed(quint64 seed)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, seed] { w->setSeed(seed); }, Qt::QueuedConnection);
}

void EmbeddedBackend::injectFault(const QString &node, const QString &faultKind)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node, faultKind] { w->injectFault(node, faultKind); }, Qt::QueuedConnection);
}

void EmbeddedBackend::setSuspended(bool suspended)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, suspended] { w->setSuspended(suspended); }, Qt::QueuedConnection);
}

void EmbeddedBackend::startUpgrade(const QString &rolloutJson)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, rolloutJson] { w->startUpgrade(rolloutJson); }, Qt::QueuedConnection);
}

void EmbeddedBackend::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                     const QString &note)
{
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, rollout, action, node, note] { w->upgradeControl(rollout, action, node, note); },
        Qt::QueuedConnection);
}

void EmbeddedBackend::cordon(const QString &node, bool unschedulable)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node, unschedulable] { w->cordon(node, unschedulable); },
        Qt::QueuedConnection);
}

void EmbeddedBackend::drain(const QString &node, bool deleteEmptyDirData)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node, deleteEmptyDirData] { w->drainNode(node, deleteEmptyDirData); },
        Qt::QueuedConnection);
}

// ---- Starting a rollout

void EmbeddedBackend::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey, images] { w->setImage(dsKey, images); }, Qt::QueuedConnection);
}

void EmbeddedBackend::restartRollout(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->restartRollout(dsKey); }, Qt::QueuedConnection);
}

void EmbeddedBackend::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                        const QString &maxSurge)
{
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, dsKey, maxUnavailable, maxSurge] {
            w->setUpdateStrategy(dsKey, maxUnavailable, maxSurge);
        },
        Qt::QueuedConnection);
}

// ---- drill-down -----------------------------------------------------------------------------

quint64 EmbeddedBackend::requestDetail(const QString &kind, const QString &ns, const QString &name)
{
    const quint64 id = nextRequestId();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, kind, ns, name] { w->requestDetail(id, kind, ns, name); },
        Qt::QueuedConnection);
    return id;
}

quint64 EmbeddedBackend::startLogs(const LogRequest &r)
{
    const quint64 id = nextRequestId();
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, r] {
            w->startLogs(id, r.namespace_, r.pod, r.container, r.previous, r.follow, r.tailLines);
        },
        Qt::QueuedConnection);
    return id;
}

void EmbeddedBackend::stopLogs(quint64 id)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id] { w->stopLogs(id); }, Qt::QueuedConnection);
}

} // namespace models
