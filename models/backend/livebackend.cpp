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
    post(m_worker, &LiveWorker::rollback, dsKey, toRevision);
}

void LiveBackend::pause(const QString &dsKey)
{
    post(m_worker, &LiveWorker::pause, dsKey);
}

void LiveBackend::resume(const QString &dsKey)
{
    post(m_worker, &LiveWorker::resume, dsKey);
}

void LiveBackend::startUpgrade(const QString &rolloutJson)
{
    post(m_worker, &LiveWorker::startUpgrade, rolloutJson);
}

void LiveBackend::requestUpgradeInventory()
{
    post(m_worker, &LiveWorker::requestUpgradeInventory);
}

void LiveBackend::upgradeControl(const QString &rollout, const QString &action, const QString &node,
                                 const QString &note)
{
    post(m_worker, &LiveWorker::upgradeControl, rollout, action, node, note);
}

void LiveBackend::loadScenario(const QString &path)
{
    post(m_worker, &LiveWorker::unavailable, ActionKind::LoadScenario, path);
}

void LiveBackend::setSpeed(double)
{
    post(m_worker, &LiveWorker::unavailable, ActionKind::SetSpeed, QString());
}

void LiveBackend::step(qint64)
{
    post(m_worker, &LiveWorker::unavailable, ActionKind::Step, QString());
}

void LiveBackend::setSeed(quint64)
{
    post(m_worker, &LiveWorker::unavailable, ActionKind::SetSeed, QString());
}

void LiveBackend::injectFault(const QString &node, const QString &)
{
    post(m_worker, &LiveWorker::unavailable, ActionKind::InjectFault, node);
}

void LiveBackend::cordon(const QString &node, bool unschedulable)
{
    post(m_worker, &LiveWorker::cordon, node, unschedulable);
}

void LiveBackend::drain(const QString &node, bool deleteEmptyDirData)
{
    post(m_worker, &LiveWorker::drainNode, node, deleteEmptyDirData);
}

// ---- Starting a rollout

void LiveBackend::setImage(const QString &dsKey, const QMap<QString, QString> &images)
{
    post(m_worker, &LiveWorker::setImage, dsKey, images);
}

void LiveBackend::restartRollout(const QString &dsKey)
{
    post(m_worker, &LiveWorker::restartRollout, dsKey);
}

void LiveBackend::setUpdateStrategy(const QString &dsKey, const QString &maxUnavailable,
                                    const QString &maxSurge)
{
    post(m_worker, &LiveWorker::setUpdateStrategy, dsKey, maxUnavailable, maxSurge);
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
