#include "app/programmodule.h"

#include <cstdio>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace app {

namespace {

// The directory of the running executable (from /proc/self/exe, so a symlink to it in the PATH
// still finds the module beside the real file).
std::string executableDir()
{
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0)
        return ".";
    std::string path(buf.data(), static_cast<std::size_t>(n));
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

} // namespace

int runProgramModule(int argc, char **argv)
{
    const std::string dir = executableDir();
    const std::string candidates[] = {dir + "/" DAEMONSCOPE_MODULE_FILE,
                                      dir + "/" DAEMONSCOPE_MODULE_RELDIR "/" DAEMONSCOPE_MODULE_FILE};
    std::string tried, why;
    for (const auto &path : candidates) {
        if (::access(path.c_str(), F_OK) != 0) {
            tried += (tried.empty() ? "" : ", ") + path;
            continue;
        }
        void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *e = ::dlerror();
            std::fprintf(stderr, "daemonscope: cannot load %s: %s\n", path.c_str(), e ? e : "unknown error");
            return 2;
        }
        using Entry = int (*)(int, char **);
        auto entry = reinterpret_cast<Entry>(::dlsym(handle, "daemonscope_module_main"));
        if (!entry) {
            std::fprintf(stderr, "daemonscope: %s has no entry point daemonscope_module_main\n",
                         path.c_str());
            return 2;
        }
        return entry(argc, argv); // the module stays loaded until the process ends
    }
    std::fprintf(stderr, "daemonscope: the program module %s is missing (looked for %s)\n",
                 DAEMONSCOPE_MODULE_FILE, tried.c_str());
    return 2;
}

} // namespace app
