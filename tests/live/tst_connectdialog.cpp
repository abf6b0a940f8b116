// The GUI's way onto a live cluster, offscreen: the connect dialog lists a kubeconfig's contexts
// with their namespaces and refuses a broken file; the main window switches to a LiveBackend
// for the chosen context and its explorer shows the served DaemonSets; "Embedded Demo Cluster"
// switches back.

#include "models/embedded/embeddedbackend.h"
#include "models/itemmodels/daemonsetlistmodel.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "ui/connectdialog.h"
#include "ui/mainwindow.h"
#include "ui/theme.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<server::ApiServer> startServer()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto cluster = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
    if (!cluster)
        return nullptr;
    server::ServerOptions options;
    options.speed = 0;
    auto s = std::make_unique<server::ApiServer>(std::move(*cluster), options);
    if (!s->start())
        return nullptr;
    return s;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QByteArray kubeconfigFor(const std::string &url)
{
    kube::Json config = {
        {"apiVersion", "v1"},
        {"kind", "Config"},
        {"current-context", "served"},
        {"clusters",
         {{{"name", "served"}, {"cluster", {{"server", url}}}},
          {{"name", "elsewhere"}, {"cluster", {{"server", "http://127.0.0.1:9"}}}}}},
        {"users", {{{"name", "me"}, {"user", kube::Json::object()}}}},
        {"contexts",
         {{{"name", "served"}, {"context", {{"cluster", "served"}, {"user", "me"}}}},
          {{"name", "other"},
           {"context", {{"cluster", "elsewhere"}, {"user", "me"}, {"namespace", "kube-system"}}}}}}};
    return QByteArray::fromStdString(config.dump());
}

} // namespace

class TstConnectDialog : public QObject
{
    Q_OBJECT

private slots:
    void listsTheContextsOfTheKubeconfig_data();
    void listsTheContextsOfTheKubeconfig();
    void aBrokenKubeconfigCannotBeUsed();
    void withoutAKubeconfigTheDialogSaysWhereItLooked();
    void theErrorIsReadableInBothThemes();
    void theKubeconfigFieldHasItsMnemonic();
    void connectingShowsTheServedDaemonSets();
};

void TstConnectDialog::listsTheContextsOfTheKubeconfig_data()
{
    QTest::addColumn<QString>("choose");
    QTest::addColumn<QString>("ns");
    QTest::addColumn<QString>("server");
    QTest::newRow("the current context is preselected with the default namespace")
        << QString() << u"default"_s << u"http://127.0.0.1:8080"_s;
    QTest::newRow("another context brings its own namespace")
        << u"other"_s << u"kube-system"_s << u"http://127.0.0.1:9"_s;
}

void TstConnectDialog::listsTheContextsOfTheKubeconfig()
{
    QFETCH(QString, choose);
    QFETCH(QString, ns);
    QFETCH(QString, server);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"config"_s);
    QVERIFY(writeFile(path, kubeconfigFor("http://127.0.0.1:8080")));
    gui::ConnectDialog dialog(path);
    QCOMPARE(dialog.contexts(), (QStringList{u"other"_s, u"served"_s}));
    QCOMPARE(dialog.context(), u"served"_s);
    if (!choose.isEmpty())
        dialog.setContext(choose);
    QCOMPARE(dialog.namespace_(), ns);
    QVERIFY(dialog.errorText().isEmpty());
    const auto options = dialog.options();
    QCOMPARE(options.kubeconfig, path);
    QCOMPARE(options.context, choose.isEmpty() ? u"served"_s : choose);
    QCOMPARE(options.namespace_, ns);
    QVERIFY(!options.allNamespaces);
    QVERIFY(dialog.findChildren<QLabel *>().size() > 0);
    bool serverShown = false;
    for (auto *label : dialog.findChildren<QLabel *>())
        serverShown = serverShown || label->text() == server;
    QVERIFY(serverShown);
}

void TstConnectDialog::aBrokenKubeconfigCannotBeUsed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"config"_s);
    QVERIFY(writeFile(path, "clusters: [not, a, map\n"));
    gui::ConnectDialog dialog(path);
    QVERIFY(dialog.contexts().isEmpty());
    QVERIFY2(dialog.errorText().contains(path), qPrintable(dialog.errorText()));
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
}

void TstConnectDialog::withoutAKubeconfigTheDialogSaysWhereItLooked()
{
    QTemporaryDir home;
    const QByteArray oldHome = qgetenv("HOME"), oldConfig = qgetenv("KUBECONFIG");
    const bool hadConfig = qEnvironmentVariableIsSet("KUBECONFIG");
    qputenv("HOME", home.path().toUtf8());
    qunsetenv("KUBECONFIG");
    gui::ConnectDialog dialog(QString{});
    qputenv("HOME", oldHome);
    if (hadConfig)
        qputenv("KUBECONFIG", oldConfig);
    QVERIFY(dialog.contexts().isEmpty());
    QVERIFY2(dialog.errorText().contains(u"No kubeconfig found"_s), qPrintable(dialog.errorText()));
    QVERIFY2(dialog.errorText().contains(home.filePath(u".kube/config"_s)), qPrintable(dialog.errorText()));
    QVERIFY(!dialog.errorText().contains(u"no contexts"_s));
    QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());

    // A file that exists and lists no context is named.
    const QString empty = home.filePath(u"empty-config"_s);
    QVERIFY(writeFile(empty, "apiVersion: v1\nkind: Config\n"));
    gui::ConnectDialog named(empty);
    QCOMPARE(named.errorText(), u"The kubeconfig "_s + empty + u" has no contexts."_s);
}

namespace {

double luminance(const QColor &c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

void TstConnectDialog::theErrorIsReadableInBothThemes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"missing-config"_s);
    const QPalette before = QApplication::palette();
    for (const auto theme : {models::AppSettings::Theme::Light, models::AppSettings::Theme::Dark}) {
        gui::Theme::apply(theme);
        gui::ConnectDialog dialog(path);
        dialog.show();
        auto *error = dialog.findChild<QLabel *>(u"connectError"_s);
        QVERIFY(error);
        QVERIFY(error->isVisibleTo(&dialog));
        QVERIFY2(error->text().contains(path), qPrintable(error->text()));
        const QColor text = error->palette().color(QPalette::WindowText);
        const QColor window = dialog.palette().color(QPalette::Window);
        QVERIFY2(contrast(text, window) >= 4.5,
                 qPrintable(u"%1 on %2: %3"_s.arg(text.name(), window.name()).arg(contrast(text, window))));
        // A picture for a visual review when DAEMONSCOPE_SCREENSHOTS names a directory.
        if (const QString shots = qEnvironmentVariable("DAEMONSCOPE_SCREENSHOTS"); !shots.isEmpty())
            dialog.grab().save(QDir(shots).filePath(
                theme == models::AppSettings::Theme::Dark ? u"connect-dark.png"_s : u"connect-light.png"_s));
    }
    // A theme switch while the dialog is open recolours the error.
    gui::Theme::apply(models::AppSettings::Theme::Light);
    gui::ConnectDialog dialog(path);
    auto *error = dialog.findChild<QLabel *>(u"connectError"_s);
    const QColor light = error->palette().color(QPalette::WindowText);
    gui::Theme::apply(models::AppSettings::Theme::Dark);
    QCoreApplication::processEvents();
    QVERIFY(error->palette().color(QPalette::WindowText) != light);
    QCOMPARE(error->palette().color(QPalette::WindowText), gui::Theme::errorColor());
    gui::Theme::apply(models::AppSettings::Theme::System);
    QApplication::setPalette(before);
}

void TstConnectDialog::theKubeconfigFieldHasItsMnemonic()
{
    gui::ConnectDialog dialog(QString{});
    auto *file = dialog.findChild<QLineEdit *>(u"kubeconfigFile"_s);
    QVERIFY(file);
    bool found = false;
    for (auto *label : dialog.findChildren<QLabel *>())
        if (label->text() == u"&Kubeconfig:"_s) {
            found = true;
            QCOMPARE(label->buddy(), file); // so the "&" is a mnemonic, not shown
        }
    QVERIFY(found);
}

void TstConnectDialog::connectingShowsTheServedDaemonSets()
{
    auto server = startServer();
    QVERIFY(server);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"config"_s);
    QVERIFY(writeFile(path, kubeconfigFor(server->url())));

    gui::MainWindow window(new models::EmbeddedBackend);
    window.show();
    QVERIFY(window.action(u"connectCluster"_s));
    QVERIFY(window.action(u"useEmbeddedDemo"_s));
    gui::ConnectDialog dialog(path, &window);
    window.setBackend(new models::LiveBackend(dialog.options()));
    QCOMPARE(window.backend()->kind(), models::BackendKind::Live);
    QTRY_VERIFY_WITH_TIMEOUT(window.daemonSetModel()->indexOfDaemonSet(u"default/web"_s).isValid(), 20000);
    QVERIFY(window.daemonSetModel()->indexOfDaemonSet(u"default/solo"_s).isValid());
    QVERIFY(window.snapshot()->backend.name.startsWith(u"served / default"_s));
    // The simulation controls do not apply to a live cluster.
    QVERIFY(!window.action(u"injectFault"_s) || !window.action(u"injectFault"_s)->isEnabled());

    window.action(u"useEmbeddedDemo"_s)->trigger();
    QCOMPARE(window.backend()->kind(), models::BackendKind::Embedded);
    QTRY_VERIFY_WITH_TIMEOUT(!window.daemonSetModel()->indexOfDaemonSet(u"default/web"_s).isValid() ||
                                 window.snapshot()->backend.kind == models::BackendKind::Embedded,
                             10000);
    QCOMPARE(window.snapshot()->backend.kind, models::BackendKind::Embedded);
}

QTEST_MAIN(TstConnectDialog)
#include "tst_connectdialog.moc"
