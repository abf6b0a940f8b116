// Entry point: the GUI without a sub-command, headless sub-commands otherwise.
#include "app/cmdserve.h"
#include "app/cmdupgrade.h"
#include "app/commands.h"
#include "app/guimain.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <cstring>

namespace {

const char kUsage[] =
    "Usage: daemonscope [OPTIONS]            open the console on the embedded demo cluster\n"
    "       daemonscope COMMAND [ARGS...]    run a headless command\n"
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
    "                      serve a simulated cluster to kubectl over a Kubernetes-compatible API\n"
    "  upgrade status NAME --scenario FILE\n"
    "                      node-agent upgrade: headline, counts, conditions and per-node table\n"
    "\n"
    "Options:\n"
    "  -h, --help          show this help\n"
    "  -v, --version       show the version\n"
    "  --scenario FILE     (GUI) open this scenario instead of the bundled demo\n"
    "  --kubeconfig FILE, --context NAME\n"
    "                      (GUI) open a real cluster instead\n"
    "\n"
    "history, rollback, diff daemonset/NAME and export also work on a real cluster: give\n"
    "--kubeconfig FILE, --context NAME and -n NS instead of --scenario FILE.\n"
    "Run 'daemonscope COMMAND --help' for a command's options.\n";

} // namespace

int main(int argc, char **argv)
{
    if (argc >= 2) {
        const char *first = argv[1];
        if (std::strcmp(first, "--version") == 0 || std::strcmp(first, "-v") == 0) {
            std::printf("daemonscope %s\n", DAEMONSCOPE_VERSION);
            return 0;
        }
        if (std::strcmp(first, "--help") == 0 || std::strcmp(first, "-h") == 0 ||
            std::strcmp(first, "help") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        using Command = int (*)(const QStringList &);
        struct Entry
        {
            const char *name;
            Command fn;
        };
        static const Entry commands[] = {{"diff", app::cmdDiff},       {"sim", app::cmdSim},
                                         {"history", app::cmdHistory}, {"rollback", app::cmdRollback},
                                         {"export", app::cmdExport},   {"serve", app::cmdServe},
                                         {"upgrade", app::cmdUpgrade}};
        for (const auto &e : commands) {
            if (std::strcmp(first, e.name) == 0) {
                QCoreApplication core(argc, argv);
                QCoreApplication::setApplicationName(QStringLiteral("daemonscope"));
                QCoreApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
                return e.fn(QCoreApplication::arguments());
            }
        }
        if (first[0] != '-') {
            std::fprintf(stderr, "daemonscope: unknown command \"%s\"\n\n%s", first, kUsage);
            return 2;
        }
    }
    return app::guiMain(argc, argv);
}
