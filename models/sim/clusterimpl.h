#pragma once
// Cluster::Impl — the state behind the Cluster facade: the object store with its API handler
// (models/store, the base), and the simulation around it — the virtual clock's timer queue, the
// controllers on their clients, the simulated kubelets, scheduler, disruption and taint
// controllers, the faults injected into nodes, and the trace's logs. The constructor wires the
// components to the store's informers in the order the trace depends on. Private to the simulation.

#include "models/sim/cluster.h"
#include "models/sim/eventloop.h"
#include "models/store/store.h"

#include <map>

namespace controllers {
class DaemonSetController;
class JobController;
class ReplicaSetController;
} // namespace controllers

namespace sim {

using store::defaultNode;

class EmbeddedDaemonSetClient;
class DisruptionController;
class EmbeddedJobClient;
class EmbeddedReplicaSetClient;
class Kubelet;
class TaintManager;
class Scheduler;

struct Cluster::Impl : store::Store
{
    explicit Impl(ClusterOptions o);
    ~Impl();

    ClusterOptions options;
    EventLoop loop;
    std::function<void()> instantObserver; // see Cluster::setInstantObserver
    EngineStats stats;

    std::map<std::string, FaultKind> faults;
    std::vector<Activity> activity;                    // kept while `logs` (Cluster::stopLogs)
    std::unique_ptr<EmbeddedDaemonSetClient> dsClient; // before the controller it serves
    std::unique_ptr<controllers::DaemonSetController> dsController;
    std::unique_ptr<EmbeddedReplicaSetClient> rsClient; // before the controller it serves
    std::unique_ptr<controllers::ReplicaSetController> rsController;
    std::unique_ptr<Kubelet> kubelet;
    std::unique_ptr<Scheduler> scheduler;
    std::unique_ptr<DisruptionController> disruption;
    std::unique_ptr<TaintManager> taintManager;
    std::unique_ptr<EmbeddedJobClient> jobClient; // before the controller it serves
    std::unique_ptr<controllers::JobController> jobController;

    bool continuous() const { return options.mode == Mode::Continuous; }
    // Informer delivery: immediate in stepped mode (the unit-test harness observes its own
    // writes at once); in continuous mode after everything already queued for this instant.
    void deliver(std::function<void()> fn);

    // ---- clock -------------------------------------------------------------------------
    void runTimersUntil(kube::Timestamp t);
    bool runNextInstant(kube::Timestamp limit); // runs all timers of the next instant <= limit

private:
    // The components' handlers on the store's informers, in the order every write reaches them.
    void wireInformers();
};

} // namespace sim
