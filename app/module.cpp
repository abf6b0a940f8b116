// The program module's entry: every sub-command but the executable's own (programmodule.h),
// and the GUI when there is none.
#include "app/cmdcontroller.h"
#include "app/cmdserve.h"
#include "app/cmdupgrade.h"
#include "app/commands.h"
#include "app/guimain.h"
#include "app/programmodule.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstring>

extern "C" __attribute__((visibility("default"))) int daemonscope_module_main(int argc, char **argv)
{
    if (argc >= 2) {
        using Command = int (*)(const QStringList &);
        struct Entry
        {
            const char *name;
            Command fn;
        };
        static const Entry commands[] = {{"diff", app::cmdDiffRevisions}, {"sim", app::cmdSim},
                                         {"history", app::cmdHistory},    {"rollback", app::cmdRollback},
                                         {"export", app::cmdExport},      {"serve", app::cmdServe},
                                         {"upgrade", app::cmdUpgrade},    {"controller", app::cmdController}};
        for (const auto &e : commands) {
            if (std::strcmp(argv[1], e.name) == 0) {
                QCoreApplication core(argc, argv);
                QCoreApplication::setApplicationName(QStringLiteral("daemonscope"));
                QCoreApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
                return e.fn(QCoreApplication::arguments());
            }
        }
    }
    return app::guiMain(argc, argv);
}
