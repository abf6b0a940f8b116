#include "app/usage.h"

namespace app {

const char *programUsage()
{
    return "Usage: daemonscope [OPTIONS]            open the console (the embedded demo cluster by default)\n"
           "       daemonscope COMMAND [ARGS...]    run a headless command\n"
           "\n"
           "Console options:\n"
           "  --scenario FILE     open this scenario in the embedded engine instead of the demo\n"
           "  --kubeconfig FILE, --context NAME\n"
           "                      watch a real cluster instead (default file: KUBECONFIG, ~/.kube/config)\n"
           "  -n, --namespace NS  live cluster: watch this namespace (default: the context's)\n"
           "  -A, --all-namespaces\n"
           "                      live cluster: watch every namespace\n"
           "  --select NS/NAME    select this DaemonSet\n"
           "  --tab TAB           show this tab: timeline, nodes, diff, events, progress or upgrade\n"
           "  --speed X           virtual clock speed, 0 (paused) to 1000\n"
           "  --history-db FILE   keep the revision and action history in this SQLite file\n"
           "  --start-upgrade JSON\n"
           "                      start a node-agent upgrade: the start form's defaults with these spec\n"
           "                      fields replaced, e.g. '{\"maxUnavailable\":\"10%\"}'\n"
           "  --screenshot FILE   save a screenshot of the window to FILE (PNG) and quit\n"
           "  --screenshot-tab TAB\n"
           "                      the tab shown in the screenshot\n"
           "  --quit-after MS     wait MS milliseconds before the screenshot, or quit after them\n"
           "  -h, --help          show this help\n"
           "  -v, --version       show the version\n"
           "\n"
           "Commands:\n"
           "  diff A.yaml B.yaml [--format unified|html|markdown|json] [-o OUT] [--ignore-noise]\n"
           "                      diff the pod templates of two manifests (exit 1 when they differ)\n"
           "  diff daemonset/NAME REV_A REV_B --scenario FILE\n"
           "                      diff two revisions of a DaemonSet in a scenario\n"
           "  sim run FILE [--trace T] [--trace-state]\n"
           "                      run a scenario file and check its expectations\n"
           "  history daemonset/NAME --scenario FILE [--revision N] [-n NS]\n"
           "                      print the rollout history, as kubectl rollout history\n"
           "  rollback daemonset/NAME --scenario FILE [--to-revision N] [-n NS]\n"
           "                      roll back, as kubectl rollout undo\n"
           "  export daemonset/NAME --scenario FILE --format markdown|html|json [-o OUT]\n"
           "                      export the revision history report\n"
           "  serve [--scenario FILE] [--listen 127.0.0.1:PORT] [--speed X] [--kubeconfig-out FILE] [--tls]\n"
           "        [--state-dir DIR]\n"
           "                      serve a simulated cluster to kubectl over a Kubernetes-compatible API\n"
           "  controller [--kubeconfig FILE] [--context NAME] [--in-cluster] [--lease-namespace NS]\n"
           "             [--lease-duration D] [--renew-deadline D] [--retry-period D] "
           "[--no-leader-election]\n"
           "             [--print-crd]\n"
           "                      run the node-upgrade controller against a cluster, leader-elected\n"
           "  upgrade status NAME --scenario FILE\n"
           "                      node-agent upgrade: headline, counts, conditions and per-node table\n"
           "\n"
           "history, rollback, diff daemonset/NAME and export also work on a real cluster: give\n"
           "--kubeconfig FILE, --context NAME and -n NS instead of --scenario FILE.\n"
           "Run 'daemonscope COMMAND --help' for a command's options.\n";
}

QString commandHelp(const QCommandLineParser &parser, const QString &command)
{
    QString text = parser.helpText();
    const QString prefix = QStringLiteral("Usage: ");
    if (!text.startsWith(prefix))
        return text;
    // "Usage: /path/to/daemonscope [options] ..." — the path ends at the first space.
    qsizetype end = text.indexOf(QLatin1Char(' '), prefix.size());
    const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'));
    if (end < 0 || (lineEnd >= 0 && end > lineEnd))
        end = lineEnd < 0 ? text.size() : lineEnd;
    text.replace(prefix.size(), end - prefix.size(), QStringLiteral("daemonscope ") + command);
    return text;
}

QString parseError(const QCommandLineParser &parser)
{
    const QStringList unknown = parser.unknownOptionNames();
    if (!unknown.isEmpty()) {
        const QString &name = unknown.front();
        return QStringLiteral("unknown option %1%2")
            .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name);
    }
    return parser.errorText();
}

QCommandLineOption requestTimeoutOption()
{
    return {QStringLiteral("request-timeout"),
            QStringLiteral("Give up on a single server request after this long, e.g. 10s or 1m; 0 waits for "
                           "ever (default: 60s)."),
            QStringLiteral("DURATION")};
}

} // namespace app
