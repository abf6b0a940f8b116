#pragma once
// Starts the desktop console: QApplication, translations, main window.

namespace app {

int guiMain(int argc, char **argv);

} // namespace app
