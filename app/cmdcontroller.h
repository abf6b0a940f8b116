#pragma once
// daemonscope controller — the node-upgrade controller, headless, against a live cluster: the
// same controller code the embedded engine runs (controllers::NodeUpgradeController) reading the
// cluster through reflectors and writing through the API (models::LiveUpgradeCluster), as one
// of several replicas that elect a leader through a coordination.k8s.io/v1 Lease
// (models::LeaderElector). Only the leader acts; the others wait for the Lease. A leader that
// cannot renew within --renew-deadline stops acting and exits (status 3) so its supervisor
// restarts it as a candidate; SIGINT/SIGTERM release the Lease and exit 0.
//
// Where the cluster is: --in-cluster (the pod's service account), else the kubeconfig as kubectl
// reads it (--kubeconfig, KUBECONFIG, ~/.kube/config; --context).
//
// Output: one line per controller event (time, type, reason, object, message) and per
// leadership change on stdout; errors on stderr. Exit codes: 0 stopped by a signal, 1 the
// cluster could not be reached or read, 2 bad arguments, 3 leadership lost.

#include <QStringList>

namespace app {

int cmdController(const QStringList &arguments);

} // namespace app
