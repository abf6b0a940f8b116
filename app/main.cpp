// Entry point: the GUI without a sub-command, headless sub-commands otherwise.
#include "app/cmdcontroller.h"
#include "app/cmdserve.h"
#include "app/cmdupgrade.h"
#include "app/commands.h"
#include "app/guimain.h"
#include "app/usage.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <cstring>

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
        using Command = int (*)(const QStringList &);
        struct Entry
        {
            const char *name;
            Command fn;
        };
        static const Entry commands[] = {{"diff", app::cmdDiff},       {"sim", app::cmdSim},
                                         {"history", app::cmdHistory}, {"rollback", app::cmdRollback},
                                         {"export", app::cmdExport},   {"serve", app::cmdServe},
                                         {"upgrade", app::cmdUpgrade}, {"controller", app::cmdController}};
        for (const auto &e : commands) {
            if (std::strcmp(first, e.name) == 0) {
                QCoreApplication core(argc, argv);
                QCoreApplication::setApplicationName(QStringLiteral("daemonscope"));
                QCoreApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
                return e.fn(QCoreApplication::arguments());
            }
        }
        if (first[0] != '-') {
            std::fprintf(stderr, "daemonscope: unknown command \"%s\"\n\n%s", first, app::programUsage());
            return 2;
        }
    }
    return app::guiMain(argc, argv);
}
