#include "ui/windowlayout.h"

#include <QMainWindow>
#include <QSplitter>

namespace gui {

namespace {

QString settingsName(const QSplitter *splitter)
{
    // The main splitter keeps the key the first versions used (window/splitter).
    return splitter->objectName() == QLatin1String("mainSplitter") ? QString() : splitter->objectName();
}

} // namespace

void WindowLayout::save(const QMainWindow *window, models::AppSettings &settings)
{
    settings.setWindowGeometry(window->saveGeometry());
    settings.setWindowState(window->saveState());
    for (const QSplitter *splitter : window->findChildren<QSplitter *>()) {
        if (!splitter->objectName().isEmpty())
            settings.setSplitterState(settingsName(splitter), splitter->saveState());
    }
}

void WindowLayout::restore(QMainWindow *window, const models::AppSettings &settings)
{
    if (const QByteArray geometry = settings.windowGeometry(); !geometry.isEmpty())
        window->restoreGeometry(geometry);
    if (const QByteArray state = settings.windowState(); !state.isEmpty())
        window->restoreState(state);
    for (QSplitter *splitter : window->findChildren<QSplitter *>()) {
        if (splitter->objectName().isEmpty())
            continue;
        if (const QByteArray state = settings.splitterState(settingsName(splitter)); !state.isEmpty())
            splitter->restoreState(state);
    }
}

} // namespace gui
