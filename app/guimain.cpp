#include "app/guimain.h"

#include <QApplication>
#include <QMainWindow>

namespace app {

int guiMain(int argc, char **argv)
{
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Daemonscope"));
    QApplication::setOrganizationName(QStringLiteral("Daemonscope"));
    QApplication::setApplicationVersion(QStringLiteral(DAEMONSCOPE_VERSION));
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Daemonscope"));
    window.resize(1400, 900);
    window.show();
    return application.exec();
}

} // namespace app
