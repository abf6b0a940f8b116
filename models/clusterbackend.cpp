#include "models/clusterbackend.h"

namespace models {

ClusterBackend::ClusterBackend(QObject *parent) : QObject(parent), m_latest(ClusterSnapshot::empty())
{
    // Queued connections across the worker thread need the argument types registered by name.
    qRegisterMetaType<std::shared_ptr<const models::ClusterSnapshot>>(
        "std::shared_ptr<const models::ClusterSnapshot>");
    qRegisterMetaType<models::ActionResult>("models::ActionResult");
}

ClusterBackend::~ClusterBackend() = default;

std::shared_ptr<const ClusterSnapshot> ClusterBackend::latest() const
{
    return m_latest;
}

void ClusterBackend::publish(std::shared_ptr<const ClusterSnapshot> snapshot)
{
    if (!snapshot)
        return;
    m_latest = snapshot;
    Q_EMIT snapshotReady(std::move(snapshot));
}

} // namespace models
