#pragma once
// The daemonscope executable is small: it answers --version and --help and compares two
// manifest files (daemonscope diff A.yaml B.yaml) with Qt Core and the diff library alone, so
// that these start in a few milliseconds. Everything else — the GUI, the simulator, serve, the
// controller and every command that talks to a cluster — lives in the program module
// (daemonscope-app.so, app/module.cpp), which links Qt Widgets, libcurl and the rest and is
// loaded only when one of them runs.
//
// The module is looked for beside the executable (the build tree) and in the installed
// location relative to it (DAEMONSCOPE_MODULE_RELDIR, e.g. ../lib/daemonscope).

namespace app {

// Loads the module and runs the command argv names (the GUI without one). When the module
// cannot be loaded, says which file and why on stderr and returns 2.
int runProgramModule(int argc, char **argv);

} // namespace app

// The module's entry point, looked up by name.
extern "C" int daemonscope_module_main(int argc, char **argv);
