#pragma once
// Headless sub-commands of the daemonscope executable. Each takes the full argument list
// (argv[0] first, then the sub-command name, then its arguments), prints to stdout/stderr and
// returns the process exit code.

#include <QStringList>

namespace app {

// daemonscope diff A.yaml B.yaml, in the executable itself; kDiffNeedsModule when the arguments
// name revisions of a DaemonSet (diff daemonset/NAME A B [--scenario F]): cmdDiffRevisions then.
constexpr int kDiffNeedsModule = -1;
int cmdDiff(const QStringList &arguments);
int cmdDiffRevisions(const QStringList &arguments); // in the program module
int cmdSim(const QStringList &arguments);           // daemonscope sim run FILE [--trace T] [--trace-state]
int cmdHistory(
    const QStringList &arguments); // daemonscope history daemonset/NAME --scenario FILE [--revision N]
int cmdRollback(
    const QStringList &arguments); // daemonscope rollback daemonset/NAME --scenario FILE [--to-revision N]
int cmdExport(
    const QStringList &arguments); // daemonscope export daemonset/NAME --scenario FILE --format F [-o OUT]

} // namespace app
