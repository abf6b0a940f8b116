// The GUI's way onto a live cluster, offscreen: the connect dialog lists a kubeconfig's contexts
// with their namespaces and refuses a broken file; the main window switches to a LiveBackend
// for the chosen context and its explorer shows the served DaemonSets; "Embedded Demo Cluster"
// switches back.

#include "models/daemonsetlistmodel.h"
#include "models/embeddedbackend.h"
#include "models/engine/scenariorunner.h"
#include "models/server/apiserver.h"
#include "ui/connectdialog.h"
#include "ui/mainwindow.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<server::ApiServer> startServer()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/web.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto cluster = engine::ScenarioRunner::buildCluster(f.readAll().toStdString(), "web.yaml");
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
