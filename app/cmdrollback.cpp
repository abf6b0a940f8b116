#include "app/commands.h"

#include <cstdio>

namespace app {

int cmdRollback(const QStringList &)
{
    std::fputs("daemonscope: the 'rollback' command is not available in this build\n", stderr);
    return 2;
}

} // namespace app
