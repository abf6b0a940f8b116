#include "app/commands.h"

#include <cstdio>

namespace app {

int cmdHistory(const QStringList &)
{
    std::fputs("daemonscope: the 'history' command is not available in this build\n", stderr);
    return 2;
}

} // namespace app
