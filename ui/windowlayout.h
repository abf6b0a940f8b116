#pragma once
// WindowLayout — saves and restores a main window's layout in the settings: its geometry, its
// dock and toolbar state, and the state of every QSplitter inside it that has an object name
// ("mainSplitter" under window/splitter, any other under window/splitter-<name>). A splitter
// without a name is not restored: its place in the layout could not be told apart from
// another's.

#include "models/settings/appsettings.h"

class QMainWindow;

namespace gui {

class WindowLayout
{
public:
    static void save(const QMainWindow *window, models::AppSettings &settings);
    // Keeps the current layout for every part never saved (or saved unreadably).
    static void restore(QMainWindow *window, const models::AppSettings &settings);
};

} // namespace gui
