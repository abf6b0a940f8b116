#include "app/commands.h"

#include <cstdio>

namespace app {

int cmdExport(const QStringList &)
{
    std::fputs("daemonscope: the 'export' command is not available in this build\n", stderr);
    return 2;
}

} // namespace app
