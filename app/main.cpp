// Entry point: --version, --help and `diff A.yaml B.yaml` here; every other sub-command and the
// GUI in the program module (programmodule.h).
#include "app/commands.h"
#include "app/programmodule.h"
#include "app/usage.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <cstring>

namespace {

// The sub-commands, for the unknown-command message; the module runs all but diff of files.
constexpr const char *kCommands[] = {"diff",   "sim",   "history", "rollback",
                                     "export", "serve", "upgrade", "controller"};

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
            std::fputs(app::programUsage(), stdout);
            return 0;
        }
        if (std::strcmp(first, "diff") == 0) {
            int rc = 0;
            {
                QCoreApplication core(argc, argv);
                QCoreApplication::setApplicationName(QStringLiteral("daemonscope"));
                QCoreApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
                rc = app::cmdDiff(QCoreApplication::arguments());
            }
            if (rc != app::kDiffNeedsModule)
                return rc;
            return app::runProgramModule(argc, argv);
        }
        bool known = false;
        for (const char *c : kCommands)
            known = known || std::strcmp(first, c) == 0;
        if (!known && first[0] != '-') {
            std::fprintf(stderr, "daemonscope: unknown command \"%s\"\n\n%s", first, app::programUsage());
            return 2;
        }
    }
    return app::runProgramModule(argc, argv);
}
