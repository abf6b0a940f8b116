#pragma once
// daemonscope serve — the simulated cluster behind a Kubernetes-compatible API on loopback.

#include <QStringList>

namespace app {

// daemonscope serve [--scenario FILE] [--listen 127.0.0.1:PORT] [--speed X]
//                   [--kubeconfig-out FILE] [--tls]
int cmdServe(const QStringList &arguments);

} // namespace app
