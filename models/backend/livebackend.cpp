#include "models/backend/livebackend.h"

#include "models/backend/livedrilldown.h"
#include "models/backend/liveworker.h"

namespace models {

LiveBackend::LiveBackend(LiveBackendOptions options, QObject *parent) : ClusterBackend(parent)
{
    auto inFlight = std::make_shared<std::atomic<int>>(0);
    m_worker = new LiveWorker(std::move(options), inFlight);
    m_drill = std::make_shared<LiveDrillDown>();
    m_worker->setDrillDown(m_drill);
    connect(m_drill.get(), &LiveDrillDown::detailReady, this, &ClusterBackend::detailReady);
    connect(m_drill.get(), &LiveDrillDown::logData, this, &ClusterBackend::logData);
    connect(m_drill.get(), &LiveDrillDown::logFinished, this, &ClusterBackend::logFinished);
    m_worker->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("daemonscope-live"));
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LiveWorker::snapshotReady, this,
            [this, inFlight](std::shared_ptr<const ClusterSnapshot> s) {
                inFlight->fetch_sub(1);
                publish(std::move(s));
            });
    connect(m_worker, &LiveWorker::actionFinished, this, &ClusterBackend::actionFinished);
    connect(m_worker, &LiveWorker::errorOccurred, this, &ClusterBackend::errorOccurred);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, &LiveWorker::start, Qt::QueuedConnection);
}

LiveBackend::~LiveBackend()
{
    // The watches end on the worker thread before it quits, so no reflector outlives the client.
    m_drill->stopAll();
    QMetaObject::invokeMethod(m_worker, &LiveWorker::stop, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void LiveBackend::rollback(const QString &dsKey, qint64 toRevision)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey, toRevision] { w->rollback(dsKey, toRevision); },
        Qt::QueuedConnection);
}

void LiveBackend::pause(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->pause(dsKey); }, Qt::QueuedConnection);
}

void LiveBackend::resume(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->resume(dsKey); }, Qt::QueuedConnection);
}

void LiveBackend::startUpgrade(const QString &rolloutJson)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, rolloutJson] { w->startUpgrade(rolloutJson); }, Qt::QueuedConnection);
}

void LiveBackend::requestUpgradeInventory()
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->requestUpgradeInventory(); }, Qt::QueuedConnection);
}

void LiveBackend::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                 const QString &note)
{
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, rollout, action, node, note] { w->upgradeControl(rollout, action, node, note); },
        Qt::QueuedConnection);
}

void LiveBackend::loadScenario(const QString &path)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, path] { w->unavailable(ActionKind::LoadScenario, path); },
        Qt::QueuedConnection);
}

void LiveBackend::setSpeed(double)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->unavailable(ActionKind::SetSpeed, QString()); }, Qt::QueuedConnection);
}

void LiveBackend::step(qint64)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->unavailable(ActionKind::Step, QString()); }, Qt::QueuedConnection);
}

void LiveBackend::setSeed(quint64)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->unavailable(ActionKind::SetSeed, QString()); }, Qt::QueuedConnection);
}

void LiveBackend::injectFault(const QString &node, const QString &)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node] { w->unavailable(ActionKind::InjectFault, node); },
        Qt::QueuedConnection);
}

void LiveBackend::cordon(const QString &node, bool unschedulable)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node, unschedulable] { w->cordon(node, unschedulable); },
        Qt::QueuedConnection);
}

void LiveBackend::drain(const QString &node, bool deleteEmptyDirData)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, node, deleteEmptyDirData] { w->drainNode(node, deleteEmptyDirData); },
        Qt::QueuedConnection);
}

// ---- Starting a rollout

void LiveBackend::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey, images] { w->setImage(dsKey, images); }, Qt::QueuedConnection);
}

void LiveBackend::restartRollout(const QString &dsKey)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, dsKey] { w->restartRollout(dsKey); }, Qt::QueuedConnection);
}

void LiveBackend::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
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

quint64 LiveBackend::requestDetail(const QString &kind, const QString &ns, const QString &name)
{
    const quint64 id = nextRequestId();
    m_drill->requestDetail(id, kind, ns, name);
    return id;
}

quint64 LiveBackend::startLogs(const LogRequest &request)
{
    const quint64 id = nextRequestId();
    m_drill->startLogs(id, request);
    return id;
}

void LiveBackend::stopLogs(quint64 id)
{
    m_drill->stopLogs(id);
}

} // namespace models
