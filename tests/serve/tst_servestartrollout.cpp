// The real kubectl against the engine's API server (in process) and the console's live actions
// against a second server built from the same scenario: `kubectl set image`, `kubectl rollout
// restart` and `kubectl patch` of the update strategy leave the same DaemonSet spec as the
// console's set image, restart and strategy edit, and print the same lines. Skips when kubectl
// is not on the PATH.

#include "models/backend/liveactions.h"

#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/kube/timeutil.h"
#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"

#include <QDateTime>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;
using kube::Json;

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
    options.speed = 0; // both servers stay where the scenario left them
    auto s = std::make_unique<server::ApiServer>(std::move(*cluster), options);
    if (auto r = s->start(); !r)
        return nullptr;
    return s;
}

Json served(server::ApiServer &s)
{
    Json out;
    s.withCluster([&](sim::Cluster &c) {
        if (const auto *ds = c.daemonSet("default", "web"))
            out = ds->toJson();
    });
    return out;
}

// The spec, without the restart stamp (its time is the writer's clock).
Json specOf(const Json &ds)
{
    Json spec = ds.value("spec", Json::object());
    if (spec.contains("/template/metadata/annotations"_json_pointer))
        spec["template"]["metadata"]["annotations"].erase("kubectl.kubernetes.io/restartedAt");
    if (spec.contains("/template/metadata/annotations"_json_pointer) &&
        spec["template"]["metadata"]["annotations"].empty())
        spec["template"]["metadata"].erase("annotations");
    return spec;
}

struct Kubectl
{
    QString program;
    QString kubeconfig;
    QString out;
    QString err;
    int exitCode = -1;

    bool run(const QStringList &args)
    {
        QProcess p;
        p.start(program, QStringList{u"--kubeconfig"_s, kubeconfig} + args);
        if (!p.waitForFinished(60000))
            return false;
        out = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        exitCode = p.exitCode();
        return true;
    }
};

QString writeKubeconfig(const QTemporaryDir &dir, const server::ApiServer &s)
{
    const QString path = dir.filePath(u"kubeconfig"_s);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QStringLiteral("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"%1\"}\n"
                           "contexts:\n- name: c\n  context: {cluster: c, user: u, namespace: default}\n"
                           "users:\n- name: u\n  user: {}\ncurrent-context: c\n")
                .arg(QString::fromStdString(s.url()))
                .toUtf8());
    return path;
}

} // namespace

class TestServeStartRollout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void kubectlAndTheConsoleLeaveTheSameSpec_data();
    void kubectlAndTheConsoleLeaveTheSameSpec();
    void aMissingContainerIsRefusedAlike();

private:
    QString m_kubectl;
};

void TestServeStartRollout::initTestCase()
{
    m_kubectl = QStandardPaths::findExecutable(u"kubectl"_s);
    if (m_kubectl.isEmpty())
        QSKIP("KUBECTL NOT FOUND on the PATH");
}

void TestServeStartRollout::kubectlAndTheConsoleLeaveTheSameSpec_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QStringList>("kubectl");
    QTest::addColumn<QString>("line");
    QTest::newRow("set image") << u"setImage"_s
                               << QStringList{u"set"_s, u"image"_s, u"ds/web"_s, u"web=nginx:1.28"_s}
                               << u"daemonset.apps/web image updated"_s;
    QTest::newRow("rollout restart") << u"restart"_s << QStringList{u"rollout"_s, u"restart"_s, u"ds/web"_s}
                                     << u"daemonset.apps/web restarted"_s;
    QTest::newRow("strategy")
        << u"strategy"_s
        << QStringList{u"patch"_s, u"ds"_s, u"web"_s, u"-p"_s,
                       uR"({"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":2,"maxSurge":0}}}})"_s}
        << u"daemonset.apps/web patched"_s;
}

void TestServeStartRollout::kubectlAndTheConsoleLeaveTheSameSpec()
{
    QFETCH(QString, action);
    QFETCH(QStringList, kubectl);
    QFETCH(QString, line);
    QTemporaryDir dir;
    auto byKubectl = startServer();
    auto byConsole = startServer();
    QVERIFY(byKubectl && byConsole);
    const Json before = served(*byKubectl);
    QVERIFY(specOf(before) == specOf(served(*byConsole)));

    Kubectl k;
    k.program = m_kubectl;
    k.kubeconfig = writeKubeconfig(dir, *byKubectl);
    QVERIFY(k.run(kubectl));
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QCOMPARE(k.out, line);

    client::RestConfig config;
    config.server = byConsole->url();
    client::KubeClient kube(std::make_shared<client::HttpTransport>(config), "default");
    models::LiveActions actions(kube);
    models::LiveRolloutStart r;
    if (action == u"setImage"_s)
        r = actions.setImage("default", "web", {{"web", "nginx:1.28"}});
    else if (action == u"restart"_s)
        r = actions.restart("default", "web",
                            kube::formatRfc3339(QDateTime::currentMSecsSinceEpoch() / 1000 * 1000));
    else
        r = actions.setStrategy("default", "web", kube::IntOrString::fromInt(2),
                                kube::IntOrString::fromInt(0));
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(QString::fromStdString(r.message), line);

    const Json afterKubectl = served(*byKubectl);
    const Json afterConsole = served(*byConsole);
    QVERIFY(specOf(afterKubectl) != specOf(before) || action == u"restart"_s);
    QCOMPARE(QString::fromStdString(specOf(afterConsole).dump()),
             QString::fromStdString(specOf(afterKubectl).dump()));
    QVERIFY(afterConsole["metadata"]["generation"] == afterKubectl["metadata"]["generation"]);
    if (action == u"restart"_s) {
        for (const Json *ds : {&afterKubectl, &afterConsole}) {
            const Json &a = (*ds)["spec"]["template"]["metadata"]["annotations"];
            QVERIFY(a.contains("kubectl.kubernetes.io/restartedAt"));
            QVERIFY(kube::parseRfc3339(a["kubectl.kubernetes.io/restartedAt"].get<std::string>()));
        }
    }
}

void TestServeStartRollout::aMissingContainerIsRefusedAlike()
{
    QTemporaryDir dir;
    auto srv = startServer();
    QVERIFY(srv);
    Kubectl k;
    k.program = m_kubectl;
    k.kubeconfig = writeKubeconfig(dir, *srv);
    QVERIFY(k.run({u"set"_s, u"image"_s, u"ds/web"_s, u"sidecar=envoy:1.31"_s}));
    QVERIFY(k.exitCode != 0);

    client::RestConfig config;
    config.server = srv->url();
    client::KubeClient kube(std::make_shared<client::HttpTransport>(config), "default");
    models::LiveActions actions(kube);
    const auto r = actions.setImage("default", "web", {{"sidecar", "envoy:1.31"}});
    QVERIFY(!r.ok);
    QVERIFY2(k.err.contains(QString::fromStdString(r.message)), qPrintable(k.err));
}

QTEST_GUILESS_MAIN(TestServeStartRollout)
#include "tst_servestartrollout.moc"
