#include "app/commands.h"

#include <cstdio>

namespace app {

int cmdSim(const QStringList &)
{
    std::fputs("daemonscope: the 'sim' command is not available in this build\n", stderr);
    return 2;
}

} // namespace app
