// The console on a live cluster as a restricted user: the SelfSubjectAccessReviews the live
// backend asks on connecting decide which actions the window offers. The viewer of
// ServerOptions::viewerToken sees Roll Back, Pause and Start Node Upgrade disabled with the
// reason as tooltip; the administrator does not. A context named like production shows the bar.

#include "models/backend/livebackend.h"

#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "ui/confirmation.h"
#include "ui/mainwindow.h"
#include "ui/productionbar.h"

#include <QAction>
#include <QFile>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<server::ApiServer> startServer()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto cluster = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "drain.yaml");
    if (!cluster)
        return nullptr;
    server::ServerOptions so;
    so.tls = true;
    so.token = "admin-token";
    so.viewerToken = "viewer-token";
    auto s = std::make_unique<server::ApiServer>(std::move(*cluster), so);
    if (auto r = s->start(); !r)
        return nullptr;
    return s;
}

models::LiveBackendOptions optionsFor(const server::ApiServer &s, const std::string &token,
                                      const std::string &context)
{
    models::LiveBackendOptions o;
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.token = token;
    config.contextName = context;
    config.clusterName = "served";
    o.restConfig = config;
    o.publishIntervalMs = 20;
    return o;
}

} // namespace

class TstPermissionsUi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void actionsFollowTheReviews_data();
    void actionsFollowTheReviews();
};

void TstPermissionsUi::actionsFollowTheReviews_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("context");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<bool>("production");
    QTest::newRow("the viewer sees the actions disabled, with the reason")
        << u"viewer-token"_s << u"kind-dev"_s << false << false;
    QTest::newRow("the administrator of a production context may act, after typing names")
        << u"admin-token"_s << u"kind-prod"_s << true << true;
}

void TstPermissionsUi::actionsFollowTheReviews()
{
    QFETCH(QString, token);
    QFETCH(QString, context);
    QFETCH(bool, allowed);
    QFETCH(bool, production);
    auto server = startServer();
    QVERIFY(server);
    gui::MainWindow window(
        new models::LiveBackend(optionsFor(*server, token.toStdString(), context.toStdString())));
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.snapshot() &&
                                 window.snapshot()->backend.permissions.answers.size() >= 4 &&
                                 window.snapshot()->daemonSet(u"default/agent"_s),
                             20000);
    QVERIFY(window.selectDaemonSet(u"default/agent"_s));
    QAction *pause = window.action(u"pauseRollout"_s);
    QAction *upgrade = window.action(u"startUpgrade"_s);
    QVERIFY(pause && upgrade);
    QTRY_COMPARE(pause->isEnabled(), allowed);
    QCOMPARE(upgrade->isEnabled(), allowed);
    if (!allowed) {
        QCOMPARE(pause->toolTip(), u"you may not patch daemonsets in default"_s);
        QCOMPARE(window.action(u"rollback"_s)->toolTip(), u"you may not patch daemonsets in default"_s);
        QCOMPARE(upgrade->toolTip(), u"you may not create nodeupgraderollouts"_s);
    } else {
        QVERIFY(!pause->toolTip().startsWith(u"you may not"_s));
    }
    auto *bar = window.findChild<gui::ProductionBar *>(u"productionBar"_s);
    QVERIFY(bar);
    QCOMPARE(bar->isVisible(), production);
    QCOMPARE(gui::productionGuardActive(), production);
    if (production)
        QCOMPARE(bar->text(), u"Production context kind-prod — actions ask for the name"_s);
}

QTEST_MAIN(TstPermissionsUi)
#include "tst_permissionsui.moc"
