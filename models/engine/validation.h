#pragma once
// API-server validation of DaemonSets (pkg/apis/apps/validation), with upstream field paths
// and messages: a single error reads `DaemonSet.apps "web" is invalid: <path>: <detail>`,
// several are joined as `[a, b]`. Invalid values are printed as Go's %#v would print them
// (IntOrString values as intstr.IntOrString{Type:0, IntVal:1, StrVal:""}).

#include "models/kube/daemonset.h"

namespace engine {

kube::Result<void> validateDaemonSet(const kube::DaemonSet &ds, const kube::DaemonSet *old);
kube::Result<void> validateDaemonSetStatus(const kube::DaemonSet &ds, const kube::DaemonSet &old);

} // namespace engine
