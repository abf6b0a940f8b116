#include "app/commands.h"

#include <cstdio>

namespace app {

int cmdDiff(const QStringList &)
{
    std::fputs("daemonscope: the 'diff' command is not available in this build\n", stderr);
    return 2;
}

} // namespace app
