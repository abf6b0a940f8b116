// Cluster::Impl: the simulated components wired to the store, and the virtual clock.

#include "models/sim/clusterimpl.h"
#include "models/controllers/daemonsetcontroller.h"
#include "models/controllers/jobcontroller.h"
#include "models/controllers/replicasetcontroller.h"
#include "models/sim/controllerclients.h"
#include "models/sim/disruptioncontroller.h"
#include "models/sim/kubelet.h"
#include "models/sim/scheduler.h"
#include "models/sim/taintmanager.h"

#include <algorithm>

namespace sim {

namespace {

store::StoreOptions storeOptions(const ClusterOptions &o)
{
    store::StoreOptions s;
    s.seed = o.seed;
    s.start = o.start;
    s.gracefulDeletion = o.mode == Mode::Continuous;
    return s;
}

} // namespace

Cluster::Impl::Impl(ClusterOptions o) : store::Store(storeOptions(o)), options(std::move(o))
{
    dsClient = std::make_unique<EmbeddedDaemonSetClient>(*this);
    dsController = std::make_unique<controllers::DaemonSetController>(*dsClient);
    rsClient = std::make_unique<EmbeddedReplicaSetClient>(*this);
    rsController = std::make_unique<controllers::ReplicaSetController>(*rsClient);
    kubelet = std::make_unique<Kubelet>(*this);
    scheduler = std::make_unique<Scheduler>(*this);
    disruption = std::make_unique<DisruptionController>(*this);
    taintManager = std::make_unique<TaintManager>(*this);
    jobClient = std::make_unique<EmbeddedJobClient>(*this);
    jobController = std::make_unique<controllers::JobController>(*jobClient);
    wireInformers();
}

Cluster::Impl::~Impl() = default;

void Cluster::Impl::wireInformers()
{
    // Handlers only post timers or observe expectations. The kubelets and the taint manager run
    // only in continuous mode (the stepped harness has neither).
    const bool cont = continuous();
    using api::Kind;
    addInformer(Kind::Pod, [this](const WatchEvent &ev) { scheduler->onPod(ev); });
    if (cont) {
        addInformer(Kind::Pod, [this](const WatchEvent &ev) { kubelet->onPod(ev); });
        addInformer(Kind::Pod, [this](const WatchEvent &ev) { taintManager->onPod(ev); });
    }
    addInformer(Kind::Pod, [this](const WatchEvent &ev) { dsController->onPod(ev); });
    addInformer(Kind::Pod, [this](const WatchEvent &ev) { rsController->onPod(ev); });
    addInformer(Kind::Pod, [this](const WatchEvent &ev) { disruption->onPod(ev); });
    addInformer(Kind::Pod, [this](const WatchEvent &ev) { jobController->onPod(ev); });
    // A node that leaves the cluster takes its injected fault with it.
    addInformer(Kind::Node, [this](const WatchEvent &ev) {
        if (ev.type == WatchEvent::Type::Deleted)
            faults.erase(ev.name);
    });
    addInformer(Kind::Node, [this](const WatchEvent &ev) { dsController->onNode(ev); });
    addInformer(Kind::Node, [this](const WatchEvent &ev) { scheduler->onNode(ev); });
    if (cont)
        addInformer(Kind::Node, [this](const WatchEvent &ev) { taintManager->onNode(ev); });
    addInformer(Kind::DaemonSet, [this](const WatchEvent &ev) { dsController->onDaemonSet(ev); });
    addInformer(Kind::ControllerRevision, [this](const WatchEvent &ev) { dsController->onRevision(ev); });
    addInformer(Kind::ReplicaSet, [this](const WatchEvent &ev) { rsController->onReplicaSet(ev); });
    addInformer(Kind::ReplicaSet, [this](const WatchEvent &ev) { disruption->onReplicaSet(ev); });
    addInformer(Kind::PodDisruptionBudget, [this](const WatchEvent &ev) { disruption->onBudget(ev); });
    addInformer(Kind::Job, [this](const WatchEvent &ev) { jobController->onJob(ev); });
    setOwnedPodsObserver([this](const std::string &ownerUid, const std::string &node) {
        dsController->podsChanged(ownerUid, node);
    });
    if (cont)
        setNodeReadinessObserver([this](const std::string &node) { kubelet->nodeChanged(node); });
}

void Cluster::Impl::deliver(std::function<void()> fn)
{
    if (continuous())
        loop.post(now, std::move(fn));
    else
        fn();
}

// ---- clock -------------------------------------------------------------------------------

void Cluster::Impl::runTimersUntil(kube::Timestamp t)
{
    while (!loop.empty() && loop.nextTime() <= t) {
        now = std::max(now, loop.nextTime());
        auto fn = loop.takeNext();
        ++stats.timers;
        fn();
        if (instantObserver && (loop.empty() || loop.nextTime() > now))
            instantObserver();
    }
    now = std::max(now, t);
}

bool Cluster::Impl::runNextInstant(kube::Timestamp limit)
{
    if (loop.empty() || loop.nextTime() > limit)
        return false;
    const kube::Timestamp t = loop.nextTime();
    now = std::max(now, t);
    while (!loop.empty() && loop.nextTime() <= t) {
        auto fn = loop.takeNext();
        ++stats.timers;
        fn();
    }
    if (instantObserver)
        instantObserver();
    return true;
}

void Cluster::startNodeLeases()
{
    d->kubelet->startNodeLeases();
}

void Cluster::seedResourceVersion(std::uint64_t floor)
{
    d->rv = std::max(d->rv, floor);
}

} // namespace sim
