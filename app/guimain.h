#pragma once
// Starts the desktop console: command-line options, QApplication, main window. The options are
// read before QApplication exists, so --help, --version and bad options (exit 2, with the usage)
// work without a display; without one, the console says so instead of letting Qt abort.
//
// Options (besides Qt's own; `daemonscope --help` lists them, app/usage.cpp):
//   --scenario FILE        open this scenario instead of the bundled demo
//   --speed X              start the virtual clock at X (0 = paused, up to 1000)
//   --select NS/NAME       select this DaemonSet once it appears
//   --tab timeline|nodes|diff|events|progress|upgrade
//   --start-upgrade JSON   start a node-agent upgrade: the start form's defaults, JSON's spec fields replaced
//   --screenshot FILE      after the first snapshot and a delay, save the window to FILE and quit
//   --screenshot-tab TAB   the tab shown in the screenshot (same values as --tab)
//   --quit-after MS        the delay before the screenshot (default 2000), or, without
//                          --screenshot, quit after MS of running
//   --history-db FILE      keep the history in FILE instead of the standard location
//   --kubeconfig FILE      watch a live cluster through this kubeconfig (with --context NAME:
//   --context NAME         that context; either one alone uses the defaults for the other)

namespace app {

int guiMain(int argc, char **argv);

} // namespace app
