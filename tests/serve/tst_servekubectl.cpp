// `daemonscope serve` driven by the real kubectl: the kubectl on PATH (a dispatcher that picks
// the binary matching the server's /version, i.e. 1.32) and kubectl 1.27 from the same folder
// when it is installed. Each test starts its own server on a free loopback port with the test
// scenario (tests/serve/web.yaml), writes the kubeconfig to a temporary folder, runs kubectl
// with a fresh HOME (cold discovery cache) and checks kubectl's exact output and exit codes
// (kube-api.md Part A, daemonset-semantics.md §4 and §6). Only processes started here are
// stopped, by their own handles.

#include "tests/support/serveprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

QString sourceDir()
{
    const QString env = qEnvironmentVariable("DAEMONSCOPE_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(DAEMONSCOPE_SOURCE_DIR) : env;
}

QString scenarioPath(const QString &name = QStringLiteral("web.yaml"))
{
    return sourceDir() + QStringLiteral("/tests/serve/") + name;
}

// The kubectl binaries to run: label -> path.
// The kubectl on PATH and 1.27 beside it; with `everyVersion`, each of 1.27 … 1.33 found there.
QList<QPair<QString, QString>> kubectls(bool everyVersion = false)
{
    QList<QPair<QString, QString>> out;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    if (onPath.isEmpty())
        return out;
    out.append({QStringLiteral("kubectl on PATH"), onPath});
    const QString dir = QFileInfo(QFileInfo(onPath).canonicalFilePath()).absolutePath();
    for (int minor = 27; minor <= (everyVersion ? 33 : 27); ++minor) {
        const QString k = dir + QStringLiteral("/kubectl.1.%1").arg(minor);
        if (QFileInfo(k).isExecutable())
            out.append({QStringLiteral("kubectl 1.%1").arg(minor), k});
    }
    return out;
}

struct KubectlResult
{
    int exitCode = -1;
    QString out;
    QString err;
};

// The server as these tests start it: the test scenario, extra arguments after it.
class Server : public testsupport::ServeProcess
{
public:
    Server(const QTemporaryDir &dir, const QStringList &extra, const QString &scenario = scenarioPath())
        : ServeProcess(dir, scenario, extra)
    {}
};

} // namespace

class TstServeKubectl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void getDaemonSetsShowsTheServerColumns_data();
    void getDaemonSetsShowsTheServerColumns();
    void getYamlPrintsTheStoredObject_data();
    void getYamlPrintsTheStoredObject();
    void rolloutHistoryPrintsEveryRevision_data();
    void rolloutHistoryPrintsEveryRevision();
    void rolloutHistoryOfOneRevisionPrintsItsTemplate_data();
    void rolloutHistoryOfOneRevisionPrintsItsTemplate();
    void rolloutUndoFollowsKubectlRules_data();
    void rolloutUndoFollowsKubectlRules();
    void mergePatchStartsARolloutThatStatusFollows_data();
    void mergePatchStartsARolloutThatStatusFollows();
    void nodeUpgradeRolloutsAreServed_data();
    void nodeUpgradeRolloutsAreServed();
    void getPodsWatchPrintsTheListThenEachChange_data();
    void getPodsWatchPrintsTheListThenEachChange();
    void tlsServerNeedsTheGeneratedToken_data();
    void tlsServerNeedsTheGeneratedToken();
    void serveRefusesNonLoopbackAddresses_data();
    void serveRefusesNonLoopbackAddresses();
    void serveStopsCleanlyOnSignals_data();
    void serveStopsCleanlyOnSignals();
    void restartedTlsServerKeepsItsCaTokenAndClimbingResourceVersions();
    void dryRunAndOrphanDeletesKeepWhatTheySay_data();
    void dryRunAndOrphanDeletesKeepWhatTheySay();
    void authCanIAndWhoamiAnswerForTheOneIdentity_data();
    void authCanIAndWhoamiAnswerForTheOneIdentity();
    void diffAndServerDryRunsChangeNothing_data();
    void diffAndServerDryRunsChangeNothing();
    void drainEvictsThroughTheDisruptionBudget_data();
    void drainEvictsThroughTheDisruptionBudget();
    void explainAndStrictValidationFollowTheSchemas_data();
    void explainAndStrictValidationFollowTheSchemas();
    void serverSideApplyLikeACluster_data();
    void serverSideApplyLikeACluster();
    void batteryOfEverydayCommands_data();
    void batteryOfEverydayCommands();
    void manifestsNeedNoValidateFalse_data();
    void manifestsNeedNoValidateFalse();
    void servicesLeasesAndNodesDescribeLikeACluster_data();
    void servicesLeasesAndNodesDescribeLikeACluster();

private:
    enum class Transports { Http, Https, Both };
    void addKubectlRows(Transports transports);
    // One row per kubectl version found (1.27 … 1.33), column "binary".
    static void addEveryVersionRows();
    KubectlResult kubectl(const QString &binary, const QString &kubeconfig, const QStringList &args);
    std::unique_ptr<Server> startServer(bool tls, const QString &speed = QStringLiteral("4"),
                                        const QString &scenario = scenarioPath());

    QTemporaryDir m_dir;
};

void TstServeKubectl::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString binary = qEnvironmentVariable("DAEMONSCOPE_BINARY");
    if (binary.isEmpty() || !QFileInfo(binary).isExecutable())
        QSKIP("DAEMONSCOPE_BINARY does not name the daemonscope executable");
    if (kubectls().isEmpty())
        QSKIP("KUBECTL NOT FOUND: no kubectl on PATH, so the kubectl comparisons did not run (kubectl is not "
              "a Debian package; the README says where it comes from)");
    QDir(m_dir.path()).mkdir(QStringLiteral("home"));
}

void TstServeKubectl::addKubectlRows(Transports transports)
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<bool>("tls");
    for (const auto &[label, path] : kubectls()) {
        if (transports != Transports::Https)
            QTest::newRow(qPrintable(label + QStringLiteral(" over http"))) << path << false;
        if (transports != Transports::Http)
            QTest::newRow(qPrintable(label + QStringLiteral(" over https with the CA and token")))
                << path << true;
    }
}

void TstServeKubectl::addEveryVersionRows()
{
    QTest::addColumn<QString>("binary");
    for (const auto &[label, path] : kubectls(true))
        QTest::newRow(qPrintable(label)) << path;
}

KubectlResult TstServeKubectl::kubectl(const QString &binary, const QString &kubeconfig,
                                       const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // A home of its own: kubectl's discovery cache starts cold and nothing of the user's is read.
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    env.remove(QStringLiteral("KUBECONFIG"));
    p.setProcessEnvironment(env);
    p.start(binary, QStringList{QStringLiteral("--kubeconfig"), kubeconfig} + args);
    KubectlResult r;
    if (!p.waitForFinished(180000)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("kubectl did not finish");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

std::unique_ptr<Server> TstServeKubectl::startServer(bool tls, const QString &speed, const QString &scenario)
{
    QStringList extra{QStringLiteral("--speed"), speed};
    if (tls)
        extra << QStringLiteral("--tls");
    auto s = std::make_unique<Server>(m_dir, extra, scenario);
    if (!s->waitReady()) {
        qWarning("serve did not start: %s", qPrintable(s->diagnostics()));
        return nullptr;
    }
    return s;
}

#define RUN_OK(result)                                                                                       \
    QVERIFY2((result).exitCode == 0, qPrintable(QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3")          \
                                                    .arg((result).exitCode)                                  \
                                                    .arg((result).out, (result).err)))

void TstServeKubectl::getDaemonSetsShowsTheServerColumns_data()
{
    addKubectlRows(Transports::Both);
}

void TstServeKubectl::getDaemonSetsShowsTheServerColumns()
{
    QFETCH(QString, binary);
    QFETCH(bool, tls);
    auto server = startServer(tls);
    QVERIFY(server);
    const auto r = kubectl(binary, server->kubeconfig(), {QStringLiteral("get"), QStringLiteral("ds")});
    RUN_OK(r);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    const QStringList header = lines[0].split(QRegularExpression(QStringLiteral("\\s{2,}")));
    QCOMPARE(header, (QStringList{u"NAME"_s, u"DESIRED"_s, u"CURRENT"_s, u"READY"_s, u"UP-TO-DATE"_s,
                                  u"AVAILABLE"_s, u"NODE SELECTOR"_s, u"AGE"_s}));
    QVERIFY2(QRegularExpression(QStringLiteral("^solo\\s+3\\s+3\\s+3\\s+3\\s+3\\s+<none>\\s+\\d+[smhd]"))
                 .match(lines[1])
                 .hasMatch(),
             qPrintable(lines[1]));
    QVERIFY2(QRegularExpression(QStringLiteral("^web\\s+3\\s+3\\s+3\\s+3\\s+3\\s+<none>\\s+\\d+[smhd]"))
                 .match(lines[2])
                 .hasMatch(),
             qPrintable(lines[2]));

    const auto wide = kubectl(binary, server->kubeconfig(),
                              {QStringLiteral("get"), QStringLiteral("ds"), QStringLiteral("web"),
                               QStringLiteral("-o"), QStringLiteral("wide")});
    RUN_OK(wide);
    QVERIFY2(wide.out.contains(QStringLiteral("CONTAINERS   IMAGES       SELECTOR")), qPrintable(wide.out));
    QVERIFY2(wide.out.contains(QStringLiteral("web          nginx:1.27   app=web")), qPrintable(wide.out));

    const auto missing = kubectl(binary, server->kubeconfig(),
                                 {QStringLiteral("get"), QStringLiteral("ds"), QStringLiteral("nope")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err,
             QStringLiteral("Error from server (NotFound): daemonsets.apps \"nope\" not found\n"));
}

void TstServeKubectl::getYamlPrintsTheStoredObject_data()
{
    addKubectlRows(Transports::Http);
}

void TstServeKubectl::getYamlPrintsTheStoredObject()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const auto r = kubectl(binary, server->kubeconfig(),
                           {QStringLiteral("get"), QStringLiteral("ds"), QStringLiteral("web"),
                            QStringLiteral("-o"), QStringLiteral("yaml")});
    RUN_OK(r);
    QVERIFY2(r.out.startsWith(QStringLiteral("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n")),
             qPrintable(r.out));
    for (const char *expected :
         {"\n  name: web\n", "\n  namespace: default\n", "\n  generation: 2\n", "\n  resourceVersion: \"",
          "image: nginx:1.27\n", "\n    type: RollingUpdate\n", "\n  observedGeneration: 2\n",
          "\n  numberAvailable: 3\n", "\n  updatedNumberScheduled: 3\n",
          "kubernetes.io/change-cause: kubectl set image ds/web web=nginx:1.27\n"})
        QVERIFY2(r.out.contains(QString::fromUtf8(expected)), expected);
}

void TstServeKubectl::rolloutHistoryPrintsEveryRevision_data()
{
    addKubectlRows(Transports::Both);
}

void TstServeKubectl::rolloutHistoryPrintsEveryRevision()
{
    QFETCH(QString, binary);
    QFETCH(bool, tls);
    auto server = startServer(tls);
    QVERIFY(server);
    const auto r =
        kubectl(binary, server->kubeconfig(),
                {QStringLiteral("rollout"), QStringLiteral("history"), QStringLiteral("daemonset/web")});
    RUN_OK(r);
    QCOMPARE(r.out, QStringLiteral("daemonset.apps/web \n"
                                   "REVISION  CHANGE-CAUSE\n"
                                   "1         <none>\n"
                                   "2         kubectl set image ds/web web=nginx:1.27\n"
                                   "\n"));
}

void TstServeKubectl::rolloutHistoryOfOneRevisionPrintsItsTemplate_data()
{
    addKubectlRows(Transports::Http);
}

void TstServeKubectl::rolloutHistoryOfOneRevisionPrintsItsTemplate()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const auto r = kubectl(binary, server->kubeconfig(),
                           {QStringLiteral("rollout"), QStringLiteral("history"),
                            QStringLiteral("daemonset/web"), QStringLiteral("--revision=1")});
    RUN_OK(r);
    QVERIFY2(r.out.startsWith(QStringLiteral("daemonset.apps/web with revision #1\nPod Template:\n")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("  Labels:\tapp=web\n")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("   web:\n    Image:\tnginx:1.26\n    Port:\t80/TCP\n")),
             qPrintable(r.out));

    const auto second = kubectl(binary, server->kubeconfig(),
                                {QStringLiteral("rollout"), QStringLiteral("history"),
                                 QStringLiteral("daemonset/web"), QStringLiteral("--revision=2")});
    RUN_OK(second);
    QVERIFY2(second.out.contains(QStringLiteral("    Image:\tnginx:1.27\n")), qPrintable(second.out));

    const auto missing = kubectl(binary, server->kubeconfig(),
                                 {QStringLiteral("rollout"), QStringLiteral("history"),
                                  QStringLiteral("daemonset/web"), QStringLiteral("--revision=7")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(missing.err, QStringLiteral("error: unable to find the specified revision\n"));
}

void TstServeKubectl::rolloutUndoFollowsKubectlRules_data()
{
    addKubectlRows(Transports::Http);
}

void TstServeKubectl::rolloutUndoFollowsKubectlRules()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    auto undo = [&](const QString &name, const QStringList &more = {}) {
        return kubectl(binary, kc,
                       QStringList{QStringLiteral("rollout"), QStringLiteral("undo"),
                                   QStringLiteral("daemonset/") + name} +
                           more);
    };
    auto image = [&]() {
        return kubectl(binary, kc,
                       {QStringLiteral("get"), QStringLiteral("ds"), QStringLiteral("web"),
                        QStringLiteral("-o"),
                        QStringLiteral("jsonpath={.spec.template.spec.containers[0].image}")})
            .out;
    };
    auto waitRolledOut = [&]() {
        return kubectl(binary, kc,
                       {QStringLiteral("rollout"), QStringLiteral("status"), QStringLiteral("daemonset/web"),
                        QStringLiteral("--timeout=150s")});
    };

    const auto absent = undo(QStringLiteral("web"), {QStringLiteral("--to-revision=9")});
    QCOMPARE(absent.exitCode, 1);
    QCOMPARE(absent.err, QStringLiteral("error: unable to find specified revision 9 in history\n"));

    const auto same = undo(QStringLiteral("web"), {QStringLiteral("--to-revision=2")});
    RUN_OK(same);
    QCOMPARE(same.out,
             QStringLiteral(
                 "daemonset.apps/web skipped rollback (current template already matches revision 2)\n"));

    const auto lonely = undo(QStringLiteral("solo"));
    QCOMPARE(lonely.exitCode, 1);
    QCOMPARE(lonely.err, QStringLiteral("error: no last revision to roll back to\n"));

    const auto previous = undo(QStringLiteral("web"));
    RUN_OK(previous);
    QCOMPARE(previous.out, QStringLiteral("daemonset.apps/web rolled back\n"));
    QCOMPARE(image(), QStringLiteral("nginx:1.26"));
    const auto status = waitRolledOut();
    RUN_OK(status);
    QVERIFY2(status.out.endsWith(QStringLiteral("daemon set \"web\" successfully rolled out\n")),
             qPrintable(status.out));

    // Revision 1's template came back: the controller renumbered it 3 (daemonset-semantics §6).
    const auto history = kubectl(
        binary, kc, {QStringLiteral("rollout"), QStringLiteral("history"), QStringLiteral("daemonset/web")});
    RUN_OK(history);
    QCOMPARE(history.out, QStringLiteral("daemonset.apps/web \n"
                                         "REVISION  CHANGE-CAUSE\n"
                                         "2         kubectl set image ds/web web=nginx:1.27\n"
                                         "3         <none>\n"
                                         "\n"));
    const auto gone = undo(QStringLiteral("web"), {QStringLiteral("--to-revision=1")});
    QCOMPARE(gone.exitCode, 1);
    QCOMPARE(gone.err, QStringLiteral("error: unable to find specified revision 1 in history\n"));

    const auto back = undo(QStringLiteral("web"), {QStringLiteral("--to-revision=2")});
    RUN_OK(back);
    QCOMPARE(back.out, QStringLiteral("daemonset.apps/web rolled back\n"));
    QCOMPARE(image(), QStringLiteral("nginx:1.27"));
    RUN_OK(waitRolledOut());
    const auto skipped = undo(QStringLiteral("web"), {QStringLiteral("--to-revision=4")});
    RUN_OK(skipped);
    QCOMPARE(skipped.out,
             QStringLiteral(
                 "daemonset.apps/web skipped rollback (current template already matches revision 4)\n"));
}

void TstServeKubectl::mergePatchStartsARolloutThatStatusFollows_data()
{
    addKubectlRows(Transports::Http);
}

void TstServeKubectl::nodeUpgradeRolloutsAreServed_data()
{
    addKubectlRows(Transports::Http);
}

// The custom kind (upgrade.daemonscope.io/v1alpha1, cluster-scoped) through discovery, create,
// the server's table, the controller's status, a merge patch and delete.
void TstServeKubectl::nodeUpgradeRolloutsAreServed()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();

    const auto resources = kubectl(binary, kc, {u"api-resources"_s, u"--api-group=upgrade.daemonscope.io"_s});
    RUN_OK(resources);
    QVERIFY2(
        QRegularExpression(u"\nnodeupgraderollouts\\s+nur\\s+upgrade\\.daemonscope\\.io/v1alpha1\\s+false\\s+"
                           u"NodeUpgradeRollout\n"_s)
            .match(resources.out)
            .hasMatch(),
        qPrintable(resources.out));

    const QString manifest = m_dir.filePath(u"rollout.yaml"_s);
    {
        QFile f(manifest);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "apiVersion: upgrade.daemonscope.io/v1alpha1\nkind: NodeUpgradeRollout\n"
            "metadata: {name: agents}\nspec: {targetVersion: v2.0.0, maxUnavailable: 1, soakDuration: 1h}\n");
    }
    const auto created = kubectl(binary, kc, {u"create"_s, u"-f"_s, manifest});
    RUN_OK(created);
    QCOMPARE(created.out, u"nodeupgraderollout.upgrade.daemonscope.io/agents created\n"_s);

    // The upgrade controller acts on it: its status appears in the table.
    QString row;
    for (int i = 0; i < 60; ++i) {
        const auto got = kubectl(binary, kc, {u"get"_s, u"nur"_s});
        RUN_OK(got);
        const QStringList lines = got.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].split(QRegularExpression(u"\\s{2,}"_s)),
                 (QStringList{u"NAME"_s, u"TARGET"_s, u"PHASE"_s, u"UP-TO-DATE"_s, u"IN-FLIGHT"_s, u"NODES"_s,
                              u"AGE"_s}));
        row = lines[1];
        if (QRegularExpression(u"^agents\\s+v2\\.0\\.0\\s+Progressing\\s+\\d\\s+1\\s+3\\s+\\d+[smhd]$"_s)
                .match(row)
                .hasMatch())
            break;
        QTest::qWait(250);
    }
    QVERIFY2(row.contains(u"Progressing"_s), qPrintable(row));

    const auto paused = kubectl(
        binary, kc,
        {u"patch"_s, u"nur"_s, u"agents"_s, u"--type=merge"_s, u"-p"_s, uR"({"spec":{"paused":true}})"_s});
    RUN_OK(paused);
    QCOMPARE(paused.out, u"nodeupgraderollout.upgrade.daemonscope.io/agents patched\n"_s);
    const auto spec = kubectl(binary, kc,
                              {u"get"_s, u"nodeupgraderollouts.upgrade.daemonscope.io"_s, u"agents"_s,
                               u"-o"_s, u"jsonpath={.spec.paused} {.spec.targetVersion}"_s});
    RUN_OK(spec);
    QCOMPARE(spec.out, u"true v2.0.0"_s);

    const auto deleted = kubectl(binary, kc, {u"delete"_s, u"nur"_s, u"agents"_s});
    RUN_OK(deleted);
    QCOMPARE(deleted.out, u"nodeupgraderollout.upgrade.daemonscope.io \"agents\" deleted\n"_s);
    const auto none = kubectl(binary, kc, {u"get"_s, u"nur"_s});
    RUN_OK(none);
    QCOMPARE(none.err, u"No resources found\n"_s);
}

void TstServeKubectl::mergePatchStartsARolloutThatStatusFollows()
{
    QFETCH(QString, binary);
    // Slow enough that the rollout is still running when rollout status starts watching.
    auto server = startServer(false, QStringLiteral("0.5"));
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    const QString imagePatch = QStringLiteral(
        R"({"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28","ports":[{"containerPort":80}]}]}}}})");
    const auto patched = kubectl(binary, kc,
                                 {QStringLiteral("patch"), QStringLiteral("ds"), QStringLiteral("web"),
                                  QStringLiteral("--type=merge"), QStringLiteral("-p"), imagePatch});
    RUN_OK(patched);
    QCOMPARE(patched.out, QStringLiteral("daemonset.apps/web patched\n"));
    const QStringList generationArgs = {QStringLiteral("get"), QStringLiteral("ds"), QStringLiteral("web"),
                                        QStringLiteral("-o"),
                                        QStringLiteral("jsonpath={.metadata.generation}")};
    const auto before = kubectl(binary, kc, generationArgs);
    RUN_OK(before);
    const auto again = kubectl(binary, kc,
                               {QStringLiteral("patch"), QStringLiteral("ds"), QStringLiteral("web"),
                                QStringLiteral("--type=merge"), QStringLiteral("-p"), imagePatch});
    RUN_OK(again);
    // kubectl says "(no change)" when the answer equals the object it read first; the rollout's
    // status may move in between (as on a real cluster), so the spec is checked by its generation.
    QVERIFY2(again.out == QStringLiteral("daemonset.apps/web patched (no change)\n") ||
                 again.out == QStringLiteral("daemonset.apps/web patched\n"),
             qPrintable(again.out));
    const auto after = kubectl(binary, kc, generationArgs);
    RUN_OK(after);
    QCOMPARE(after.out, before.out);

    const auto status = kubectl(binary, kc,
                                {QStringLiteral("rollout"), QStringLiteral("status"),
                                 QStringLiteral("daemonset/web"), QStringLiteral("--timeout=150s")});
    RUN_OK(status);
    const QStringList lines = status.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    // Three nodes, one at a time: the rollout cannot be over when the status command starts,
    // so the final line must have come through the watch.
    QVERIFY2(lines.size() >= 2, qPrintable(status.out));
    QCOMPARE(lines.last(), QStringLiteral("daemon set \"web\" successfully rolled out"));
    static const QRegularExpression waiting(
        QStringLiteral("^Waiting for daemon set spec update to be observed\\.\\.\\.$|^Waiting for daemon set "
                       "\"web\" rollout to "
                       "finish: \\d out of 3 new pods have been updated\\.\\.\\.$|^Waiting for daemon set "
                       "\"web\" rollout to finish: "
                       "\\d of 3 updated pods are available\\.\\.\\.$"));
    for (int i = 0; i + 1 < lines.size(); ++i)
        QVERIFY2(waiting.match(lines[i]).hasMatch(), qPrintable(lines[i]));

    const auto history = kubectl(
        binary, kc, {QStringLiteral("rollout"), QStringLiteral("history"), QStringLiteral("daemonset/web")});
    RUN_OK(history);
    QVERIFY2(history.out.contains(QStringLiteral("\n3         ")), qPrintable(history.out));

    // Pause: OnDelete. rollout status refuses it, as on a real cluster.
    const auto paused =
        kubectl(binary, kc,
                {QStringLiteral("patch"), QStringLiteral("ds"), QStringLiteral("web"),
                 QStringLiteral("--type=merge"), QStringLiteral("-p"),
                 QStringLiteral(R"({"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}})")});
    RUN_OK(paused);
    QCOMPARE(paused.out, QStringLiteral("daemonset.apps/web patched\n"));
    const auto refused = kubectl(binary, kc,
                                 {QStringLiteral("rollout"), QStringLiteral("status"),
                                  QStringLiteral("daemonset/web"), QStringLiteral("--timeout=30s")});
    QCOMPARE(refused.exitCode, 1);
    QCOMPARE(refused.err,
             QStringLiteral("error: rollout status is only available for RollingUpdate strategy type\n"));
}

void TstServeKubectl::getPodsWatchPrintsTheListThenEachChange_data()
{
    addKubectlRows(Transports::Http);
}

void TstServeKubectl::getPodsWatchPrintsTheListThenEachChange()
{
    QFETCH(QString, binary);
    auto server = startServer(false, QStringLiteral("2"));
    QVERIFY(server);
    QProcess watch;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    watch.setProcessEnvironment(env);
    watch.start(binary,
                {QStringLiteral("--kubeconfig"), server->kubeconfig(), QStringLiteral("get"),
                 QStringLiteral("pods"), QStringLiteral("-w"), QStringLiteral("--output-watch-events"),
                 QStringLiteral("-l"), QStringLiteral("app=web")});
    QVERIFY(watch.waitForStarted());
    QByteArray out;
    auto lines = [&] {
        out += watch.readAllStandardOutput();
        return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    };
    // The header and the three pods of the list.
    QTRY_VERIFY_WITH_TIMEOUT(lines().size() >= 4, 60000);
    const QStringList initial = lines().mid(0, 4);
    QCOMPARE(initial[0].split(QRegularExpression(QStringLiteral("\\s+"))),
             (QStringList{u"EVENT"_s, u"NAME"_s, u"READY"_s, u"STATUS"_s, u"RESTARTS"_s, u"AGE"_s}));
    QStringList initialPods;
    for (int i = 1; i < 4; ++i) {
        const QStringList cells = initial[i].split(QRegularExpression(QStringLiteral("\\s+")));
        QCOMPARE(cells.size(), 6);
        QCOMPARE(cells[0], QStringLiteral("ADDED"));
        QVERIFY2(cells[1].startsWith(QStringLiteral("web-")), qPrintable(initial[i]));
        QCOMPARE(cells[2], QStringLiteral("1/1"));
        QCOMPARE(cells[3], QStringLiteral("Running"));
        initialPods << cells[1];
    }

    // A template change replaces every pod; the watch shows it as it happens.
    const auto patched = kubectl(
        binary, server->kubeconfig(),
        {QStringLiteral("patch"), QStringLiteral("ds"), QStringLiteral("web"), QStringLiteral("-p"),
         QStringLiteral(
             R"({"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.29"}]}}}})")});
    RUN_OK(patched);
    auto sawNewPod = [&] {
        for (const QString &l : lines().mid(4)) {
            const QStringList cells = l.split(QRegularExpression(QStringLiteral("\\s+")));
            if (cells.size() == 6 && cells[0] == QStringLiteral("ADDED") && !initialPods.contains(cells[1]))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(sawNewPod(), 60000);
    watch.kill(); // kubectl get -w runs until stopped
    watch.waitForFinished(10000);
    const QStringList all = lines();
    bool oldPodLeft = false;
    for (const QString &l : all.mid(4)) {
        const QStringList cells = l.split(QRegularExpression(QStringLiteral("\\s+")));
        QCOMPARE(cells.size(), 6);
        QVERIFY2(QStringList({u"ADDED"_s, u"MODIFIED"_s, u"DELETED"_s}).contains(cells[0]), qPrintable(l));
        // The watch starts at the list's resourceVersion: the listed pods are not replayed.
        QVERIFY2(!(cells[0] == QStringLiteral("ADDED") && initialPods.contains(cells[1])), qPrintable(l));
        if (initialPods.contains(cells[1]) &&
            (cells[0] == QStringLiteral("DELETED") || cells[3] == QStringLiteral("Terminating")))
            oldPodLeft = true;
    }
    QVERIFY2(oldPodLeft, qPrintable(all.join(QLatin1Char('\n'))));
}

void TstServeKubectl::tlsServerNeedsTheGeneratedToken_data()
{
    addKubectlRows(Transports::Https);
}

void TstServeKubectl::tlsServerNeedsTheGeneratedToken()
{
    QFETCH(QString, binary);
    QFETCH(bool, tls);
    auto server = startServer(tls);
    QVERIFY(server);
    QFile file(server->kubeconfig());
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString config = QString::fromUtf8(file.readAll());
    QVERIFY2(config.contains(QStringLiteral("server: https://127.0.0.1:")), qPrintable(config));
    QVERIFY(config.contains(QStringLiteral("certificate-authority-data: LS0t")));
    QVERIFY(QRegularExpression(QStringLiteral("\n\\s+token: [0-9a-f]{64}\n")).match(config).hasMatch());
    QCOMPARE(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
             QFileDevice::Permissions());

    const auto ok = kubectl(binary, server->kubeconfig(), {QStringLiteral("get"), QStringLiteral("nodes")});
    RUN_OK(ok);
    QVERIFY2(ok.out.startsWith(QStringLiteral("NAME     STATUS   ROLES    AGE")), qPrintable(ok.out));
    QCOMPARE(ok.out.count(QStringLiteral("   Ready    <none>   ")), 3);

    const auto wrong =
        kubectl(binary, server->kubeconfig(),
                {QStringLiteral("--token=not-the-token"), QStringLiteral("get"), QStringLiteral("ds")});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.err.contains(QStringLiteral("error: You must be logged in to the server (Unauthorized)")),
             qPrintable(wrong.err));
}

void TstServeKubectl::serveRefusesNonLoopbackAddresses_data()
{
    QTest::addColumn<QString>("listen");
    QTest::newRow("every interface") << u"0.0.0.0:0"_s;
    QTest::newRow("a LAN address") << u"192.168.10.20:6443"_s;
    QTest::newRow("IPv6 any") << u"[::]:0"_s;
}

void TstServeKubectl::serveRefusesNonLoopbackAddresses()
{
    QFETCH(QString, listen);
    QProcess p;
    p.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"),
            {QStringLiteral("serve"), QStringLiteral("--scenario"), scenarioPath(),
             QStringLiteral("--listen"), listen});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("refusing to listen on")), qPrintable(err));
}

void TstServeKubectl::serveStopsCleanlyOnSignals_data()
{
    QTest::addColumn<int>("signal");
    QTest::addColumn<QString>("message");
    QTest::newRow("SIGTERM") << int(SIGTERM) << u"Stopped (SIGTERM)."_s;
    QTest::newRow("SIGINT, as Ctrl+C sends") << int(SIGINT) << u"Stopped (SIGINT)."_s;
}

void TstServeKubectl::serveStopsCleanlyOnSignals()
{
    QFETCH(int, signal);
    QFETCH(QString, message);
    auto server = startServer(false);
    QVERIFY(server);
    // A watch is open while the server stops: it must end, not hold the shutdown.
    QProcess watch;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
    watch.setProcessEnvironment(env);
    watch.start(kubectls().first().second,
                {QStringLiteral("--kubeconfig"), server->kubeconfig(), QStringLiteral("get"),
                 QStringLiteral("ds"), QStringLiteral("-w")});
    QByteArray watched;
    QTRY_VERIFY_WITH_TIMEOUT((watched += watch.readAllStandardOutput()).contains("\nweb "), 60000);
    ::kill(static_cast<pid_t>(server->process().processId()), signal);
    QVERIFY(server->process().waitForFinished(30000));
    QCOMPARE(server->process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(server->process().exitCode(), 0);
    QVERIFY2(server->diagnostics().contains(message), qPrintable(server->diagnostics()));
    // kubectl get -w exits 0 when the server ends the stream.
    QVERIFY(watch.waitForFinished(30000));
    QCOMPARE(watch.exitCode(), 0);
}

// Two lives of `serve --tls` with one state folder: the kubeconfig written for the first still
// holds the CA and token of the second, the folder and its files are the owner's alone, and the
// resourceVersions of the second life start above those of the first.
void TstServeKubectl::restartedTlsServerKeepsItsCaTokenAndClimbingResourceVersions()
{
    const QString stateDir = m_dir.filePath(QStringLiteral("serve-state"));
    auto credentials = [](const QString &kubeconfig) {
        QFile f(kubeconfig);
        if (!f.open(QIODevice::ReadOnly))
            return QStringList();
        QStringList out;
        for (const QString &line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n')))
            if (line.contains(QStringLiteral("certificate-authority-data:")) ||
                line.contains(QStringLiteral("token:")))
                out << line.trimmed();
        return out;
    };
    auto listRv = [this](const QString &kubeconfig) -> quint64 {
        const auto r = kubectl(
            kubectls().first().second, kubeconfig,
            {QStringLiteral("get"), QStringLiteral("--raw"), QStringLiteral("/apis/apps/v1/daemonsets")});
        if (r.exitCode != 0)
            return 0;
        // The list's own resourceVersion (what a reflector resumes from), not an item's.
        const QJsonObject list = QJsonDocument::fromJson(r.out.toUtf8()).object();
        return list.value(QStringLiteral("metadata"))
            .toObject()
            .value(QStringLiteral("resourceVersion"))
            .toString()
            .toULongLong();
    };
    const QStringList extra{QStringLiteral("--speed"), QStringLiteral("0"), QStringLiteral("--tls"),
                            QStringLiteral("--state-dir"), stateDir};
    QStringList first;
    quint64 firstRv = 0;
    {
        Server server(m_dir, extra);
        QVERIFY2(server.waitReady(), qPrintable(server.diagnostics()));
        first = credentials(server.kubeconfig());
        QCOMPARE(first.size(), 2);
        firstRv = listRv(server.kubeconfig());
        QVERIFY(firstRv > 0);
    }
    Server server(m_dir, extra);
    QVERIFY2(server.waitReady(), qPrintable(server.diagnostics()));
    QCOMPARE(credentials(server.kubeconfig()), first);
    QVERIFY2(server.diagnostics().contains(stateDir), qPrintable(server.diagnostics()));
    const quint64 secondRv = listRv(server.kubeconfig());
    QVERIFY2(secondRv > firstRv, qPrintable(QStringLiteral("%1 then %2").arg(firstRv).arg(secondRv)));
    QCOMPARE(QFileInfo(stateDir).permissions() &
                 ~(QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ExeUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    for (const char *name : {"ca.crt", "server.crt", "server.key", "token"})
        QCOMPARE(QFileInfo(stateDir + QLatin1Char('/') + QLatin1String(name)).permissions() &
                     ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);

    QProcess help;
    help.start(qEnvironmentVariable("DAEMONSCOPE_BINARY"),
               {QStringLiteral("serve"), QStringLiteral("--help")});
    QVERIFY(help.waitForFinished(60000));
    const QString text = QString::fromUtf8(help.readAllStandardOutput());
    QVERIFY2(text.contains(QStringLiteral("--state-dir <DIR>")) &&
                 text.contains(QStringLiteral("Daemonscope/serve")),
             qPrintable(text));
}

// kubectl delete --dry-run=server deletes nothing (kubectl sends dryRun in the DeleteOptions
// body); --cascade=orphan deletes the DaemonSet and keeps its pods, without the owner reference.
void TstServeKubectl::dryRunAndOrphanDeletesKeepWhatTheySay_data()
{
    // Every version: 1.32 and 1.33 send DeleteOptions differently from the older ones.
    addEveryVersionRows();
}

void TstServeKubectl::dryRunAndOrphanDeletesKeepWhatTheySay()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    auto podNames = [&] {
        const auto pods =
            kubectl(binary, kc, {u"get"_s, u"pods"_s, u"-l"_s, u"app=web"_s, u"-o"_s, u"name"_s});
        return pods.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    };
    const QStringList before = podNames();
    QCOMPARE(before.size(), 3);

    const auto dry = kubectl(binary, kc, {u"delete"_s, u"ds"_s, u"web"_s, u"--dry-run=server"_s});
    RUN_OK(dry);
    QCOMPARE(dry.out, u"daemonset.apps \"web\" deleted (server dry run)\n"_s);
    RUN_OK(kubectl(binary, kc, {u"get"_s, u"ds"_s, u"web"_s}));
    QCOMPARE(podNames(), before);
    const auto dryNs =
        kubectl(binary, kc, {u"delete"_s, u"namespace"_s, u"default"_s, u"--dry-run=server"_s});
    RUN_OK(dryNs);
    QCOMPARE(podNames(), before);

    const auto orphan = kubectl(binary, kc, {u"delete"_s, u"ds"_s, u"web"_s, u"--cascade=orphan"_s});
    RUN_OK(orphan);
    QCOMPARE(orphan.out, u"daemonset.apps \"web\" deleted\n"_s);
    const auto gone = kubectl(binary, kc, {u"get"_s, u"ds"_s, u"web"_s});
    QCOMPARE(gone.exitCode, 1);
    QCOMPARE(podNames(), before);
    const auto owners = kubectl(binary, kc,
                                {u"get"_s, u"pods"_s, u"-l"_s, u"app=web"_s, u"-o"_s,
                                 u"jsonpath={.items[*].metadata.ownerReferences}"_s});
    RUN_OK(owners);
    QCOMPARE(owners.out, QString());
}

// kubectl auth can-i and whoami: over plain HTTP every request is anonymous, over TLS the token
// is the administrator's; both may do everything, and the reviews say so. (kubectl 1.27's whoami
// asks for authentication.k8s.io/v1beta1, which a 1.32 server no longer needs to serve.)
void TstServeKubectl::authCanIAndWhoamiAnswerForTheOneIdentity_data()
{
    addKubectlRows(Transports::Both);
}

void TstServeKubectl::authCanIAndWhoamiAnswerForTheOneIdentity()
{
    QFETCH(QString, binary);
    QFETCH(bool, tls);
    auto server = startServer(tls);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    const auto canDelete = kubectl(binary, kc, {u"auth"_s, u"can-i"_s, u"delete"_s, u"pods"_s});
    RUN_OK(canDelete);
    QCOMPARE(canDelete.out, u"yes\n"_s);
    const auto canPatch = kubectl(
        binary, kc, {u"auth"_s, u"can-i"_s, u"patch"_s, u"daemonsets.apps"_s, u"-n"_s, u"kube-system"_s});
    RUN_OK(canPatch);
    QCOMPARE(canPatch.out, u"yes\n"_s);
    const auto list = kubectl(binary, kc, {u"auth"_s, u"can-i"_s, u"--list"_s});
    RUN_OK(list);
    QVERIFY2(QRegularExpression(u"\\*\\.\\*\\s+\\[\\]\\s+\\[\\]\\s+\\[\\*\\]"_s).match(list.out).hasMatch(),
             qPrintable(list.out));
    if (binary.endsWith(u"kubectl.1.27"_s))
        return;
    const auto whoami = kubectl(binary, kc, {u"auth"_s, u"whoami"_s});
    RUN_OK(whoami);
    QVERIFY2(whoami.out.contains(tls ? u"daemonscope-admin"_s : u"system:anonymous"_s),
             qPrintable(whoami.out));
    QVERIFY2(
        whoami.out.contains(tls ? u"[system:masters system:authenticated]"_s : u"[system:unauthenticated]"_s),
        qPrintable(whoami.out));
}

// kubectl diff and --dry-run=server on every version: the server answers with the object as it
// would be stored and stores nothing. `create namespace` and `create pdb` go through kubectl's
// typed client, which sends protobuf from 1.32 on.
void TstServeKubectl::diffAndServerDryRunsChangeNothing_data()
{
    addEveryVersionRows();
}

void TstServeKubectl::diffAndServerDryRunsChangeNothing()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    auto image = [&] {
        return kubectl(binary, kc,
                       {u"get"_s, u"ds"_s, u"web"_s, u"-o"_s,
                        u"jsonpath={.spec.template.spec.containers[0].image}"_s})
            .out;
    };
    QCOMPARE(image(), u"nginx:1.27"_s);
    const auto live = kubectl(binary, kc, {u"get"_s, u"ds"_s, u"web"_s, u"-o"_s, u"yaml"_s});
    RUN_OK(live);
    QTemporaryDir dir;
    const QString file = dir.filePath(u"web.yaml"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString(live.out).replace(u"image: nginx:1.27"_s, u"image: nginx:1.28"_s).toUtf8());
    }
    const auto setImage =
        kubectl(binary, kc,
                {u"set"_s, u"image"_s, u"ds/web"_s, u"web=nginx:1.29"_s, u"--dry-run=server"_s, u"-o"_s,
                 u"jsonpath={.spec.template.spec.containers[0].image}"_s});
    RUN_OK(setImage);
    QCOMPARE(setImage.out, u"nginx:1.29"_s);
    QCOMPARE(image(), u"nginx:1.27"_s);

    const auto dryNs = kubectl(binary, kc, {u"create"_s, u"namespace"_s, u"dry"_s, u"--dry-run=server"_s});
    RUN_OK(dryNs);
    QCOMPARE(dryNs.out, u"namespace/dry created (server dry run)\n"_s);
    QCOMPARE(kubectl(binary, kc, {u"get"_s, u"namespace"_s, u"dry"_s}).exitCode, 1);

    const auto pdb = kubectl(
        binary, kc, {u"create"_s, u"pdb"_s, u"web"_s, u"--selector=app=web"_s, u"--min-available=2"_s});
    RUN_OK(pdb);
    QCOMPARE(pdb.out, u"poddisruptionbudget.policy/web created\n"_s);
    const auto label = kubectl(binary, kc, {u"label"_s, u"namespace"_s, u"default"_s, u"team=web"_s});
    RUN_OK(label);
    const auto labels = kubectl(
        binary, kc, {u"get"_s, u"namespace"_s, u"default"_s, u"-o"_s, u"jsonpath={.metadata.labels.team}"_s});
    QCOMPARE(labels.out, u"web"_s);

    const auto diff = kubectl(binary, kc, {u"diff"_s, u"-f"_s, file});
    QCOMPARE(diff.exitCode, 1); // differences found
    QVERIFY2(diff.out.contains(u"-      - image: nginx:1.27"_s) &&
                 diff.out.contains(u"+      - image: nginx:1.28"_s),
             qPrintable(diff.out + diff.err));
    QVERIFY2(diff.out.contains(u"+  generation: 3"_s), qPrintable(diff.out));
    QCOMPARE(image(), u"nginx:1.27"_s);
}

// kubectl drain on every version: 1.27–1.31 send the Eviction as JSON, 1.32 and 1.33 as
// protobuf. DaemonSet pods are left alone with --ignore-daemonsets (refused without it); the
// ReplicaSet's pod goes through the PodDisruptionBudget, and a budget that allows nothing keeps
// the pod in place while kubectl retries, until its timeout.
void TstServeKubectl::drainEvictsThroughTheDisruptionBudget_data()
{
    addEveryVersionRows();
}

void TstServeKubectl::drainEvictsThroughTheDisruptionBudget()
{
    QFETCH(QString, binary);
    auto server = startServer(false, QStringLiteral("4"), scenarioPath(QStringLiteral("drain.yaml")));
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    auto podOn = [&](const QString &app, const QString &node) {
        const auto r = kubectl(binary, kc,
                               {u"get"_s, u"pods"_s, u"-l"_s, u"app="_s + app, u"--field-selector"_s,
                                u"spec.nodeName="_s + node, u"-o"_s, u"name"_s});
        return r.out.trimmed();
    };
    const auto pdb = kubectl(binary, kc, {u"get"_s, u"pdb"_s, u"api"_s, u"--no-headers"_s});
    RUN_OK(pdb);
    QVERIFY2(QRegularExpression(u"^api\\s+2\\s+N/A\\s+1\\s"_s).match(pdb.out).hasMatch(),
             qPrintable(pdb.out));
    const QString apiPod = podOn(u"api"_s, u"node-0"_s);
    QVERIFY2(apiPod.startsWith(u"pod/api-"_s), qPrintable(apiPod));

    const auto refused = kubectl(binary, kc, {u"drain"_s, u"node-0"_s, u"--timeout=20s"_s});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(u"cannot delete DaemonSet-managed Pods"_s), qPrintable(refused.err));

    const auto drained =
        kubectl(binary, kc, {u"drain"_s, u"node-0"_s, u"--ignore-daemonsets"_s, u"--timeout=60s"_s});
    RUN_OK(drained);
    QVERIFY2(drained.out.contains(u"node/node-0 drained"_s), qPrintable(drained.out));
    QVERIFY2(drained.out.contains(apiPod + u" evicted"_s), qPrintable(drained.out));
    QCOMPARE(podOn(u"api"_s, u"node-0"_s), QString());
    QVERIFY(podOn(u"agent"_s, u"node-0"_s).startsWith(u"pod/agent-"_s));
    const auto cordoned =
        kubectl(binary, kc, {u"get"_s, u"node"_s, u"node-0"_s, u"-o"_s, u"jsonpath={.spec.unschedulable}"_s});
    QCOMPARE(cordoned.out, u"true"_s);

    // A budget that allows nothing: kubectl retries the eviction and gives up at its timeout.
    RUN_OK(kubectl(
        binary, kc,
        {u"patch"_s, u"pdb"_s, u"api"_s, u"--type=merge"_s, u"-p"_s, u"{\"spec\":{\"minAvailable\":3}}"_s}));
    const QString blockedPod = podOn(u"api"_s, u"node-1"_s);
    QVERIFY(!blockedPod.isEmpty());
    const auto blocked =
        kubectl(binary, kc, {u"drain"_s, u"node-1"_s, u"--ignore-daemonsets"_s, u"--timeout=7s"_s});
    QCOMPARE(blocked.exitCode, 1);
    QVERIFY2(blocked.err.contains(u"Cannot evict pod as it would violate the pod's disruption budget."_s),
             qPrintable(blocked.err));
    QCOMPARE(podOn(u"api"_s, u"node-1"_s), blockedPod);

    RUN_OK(kubectl(binary, kc, {u"uncordon"_s, u"node-0"_s, u"node-1"_s}));
    const auto taints =
        kubectl(binary, kc, {u"get"_s, u"node"_s, u"node-0"_s, u"-o"_s, u"jsonpath={.spec.taints}"_s});
    QCOMPARE(taints.out, QString());
}

QTEST_GUILESS_MAIN(TstServeKubectl)
#include "tst_servekubectl.moc"

void TstServeKubectl::servicesLeasesAndNodesDescribeLikeACluster_data()
{
    addEveryVersionRows();
}

// cluster-info (the `kubernetes` Service), Services created by kubectl (protobuf on 1.32+),
// node Leases, node capacity and machine info in describe, and ages kubectl computes against
// its own clock: at --speed 1 the scenario's steps end at the wall-clock now.
void TstServeKubectl::servicesLeasesAndNodesDescribeLikeACluster()
{
    QFETCH(QString, binary);
    auto server = startServer(false, QStringLiteral("1"));
    QVERIFY(server);
    const QString kc = server->kubeconfig();

    const auto info = kubectl(binary, kc, {u"cluster-info"_s});
    RUN_OK(info);
    QVERIFY2(info.out.contains(u"Kubernetes control plane"_s) && info.out.contains(server->url()),
             qPrintable(info.out));

    const auto created =
        kubectl(binary, kc, {u"create"_s, u"service"_s, u"nodeport"_s, u"probe"_s, u"--tcp=80:8080"_s});
    RUN_OK(created);
    QCOMPARE(created.out, u"service/probe created\n"_s);
    const auto services = kubectl(binary, kc, {u"get"_s, u"svc"_s, u"--no-headers"_s});
    RUN_OK(services);
    const QStringList rows = services.out.trimmed().split(u'\n');
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].simplified().section(u' ', 0, 4), u"kubernetes ClusterIP 10.96.0.1 <none> 443/TCP"_s);
    QCOMPARE(rows[1].simplified().section(u' ', 0, 4), u"probe NodePort 10.96.0.2 <none> 80:30000/TCP"_s);

    const auto leases =
        kubectl(binary, kc,
                {u"get"_s, u"leases"_s, u"-n"_s, u"kube-node-lease"_s, u"-o"_s,
                 u"custom-columns=NAME:.metadata.name,HOLDER:.spec.holderIdentity"_s, u"--no-headers"_s});
    RUN_OK(leases);
    QCOMPARE(leases.out.simplified(), u"node-0 node-0 node-1 node-1 node-2 node-2"_s);

    const auto node = kubectl(binary, kc, {u"describe"_s, u"node"_s, u"node-0"_s});
    RUN_OK(node);
    for (const QString &expected :
         {u"HolderIdentity:  node-0"_s, u"InternalIP:  10.0.0.1"_s,
          u"OS Image:                   Debian GNU/Linux 12 (bookworm)"_s, u"Allocated resources:"_s})
        QVERIFY2(node.out.contains(expected), qPrintable(expected + u"\n"_s + node.out));
    QVERIFY2(!node.out.contains(u"-9223372036854775808"_s), qPrintable(node.out));
    QVERIFY(QRegularExpression(u"\\n  cpu\\s+\\d+m? \\(\\d+%\\)"_s).match(node.out).hasMatch());
    // The pods' ages, computed by kubectl from their creation times: minutes, not the months
    // since the scenario's `start:`.
    const QRegularExpression podRow(u"\\n  default\\s+(web|solo)-\\S+.*\\s(\\S+)\\n"_s);
    auto m = podRow.match(node.out);
    QVERIFY2(m.hasMatch(), qPrintable(node.out));
    const QString age = m.captured(2);
    QVERIFY2(QRegularExpression(u"^\\d+(s|m\\d*s?|m)$"_s).match(age).hasMatch(), qPrintable(age));
}

void TstServeKubectl::explainAndStrictValidationFollowTheSchemas_data()
{
    addEveryVersionRows();
}

// kubectl explain reads the served OpenAPI v3 documents; a manifest with a misspelt field is
// refused under kubectl's default validation exactly as kube-apiserver refuses it, and
// --validate=warn stores it without the field, printing the server's warnings.
void TstServeKubectl::explainAndStrictValidationFollowTheSchemas()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();

    const auto strategy = kubectl(binary, kc, {u"explain"_s, u"ds.spec.updateStrategy"_s});
    RUN_OK(strategy);
    for (const QString &line : {u"GROUP:      apps\nKIND:       DaemonSet\nVERSION:    v1\n"_s,
                                u"FIELD: updateStrategy <DaemonSetUpdateStrategy>"_s,
                                u"  rollingUpdate\t<RollingUpdateDaemonSet>\n"_s, u"  type\t<string>\n"_s})
        QVERIFY2(strategy.out.contains(line), qPrintable(strategy.out));
    const auto ports = kubectl(binary, kc, {u"explain"_s, u"pods.spec.containers.ports"_s});
    RUN_OK(ports);
    QVERIFY2(ports.out.contains(u"  containerPort\t<integer> -required-\n"_s), qPrintable(ports.out));
    const auto nur = kubectl(binary, kc, {u"explain"_s, u"nur.spec"_s});
    RUN_OK(nur);
    QVERIFY2(nur.out.contains(u"GROUP:      upgrade.daemonscope.io\nKIND:       NodeUpgradeRollout\n"_s) &&
                 nur.out.contains(u"  targetVersion\t<string> -required-\n"_s) &&
                 nur.out.contains(u"  timeouts\t<NodeUpgradeTimeouts>\n"_s),
             qPrintable(nur.out));
    const auto missing = kubectl(binary, kc, {u"explain"_s, u"ds.spec.colour"_s});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(u"field \"colour\" does not exist"_s), qPrintable(missing.err));

    QTemporaryDir dir;
    const QString file = dir.filePath(u"typo.yaml"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: typo, namespace: default}\nspec:\n"
                "  selector: {matchLabels: {app: typo}}\n  foo: 1\n  template:\n    metadata: {labels: {app: "
                "typo}}\n"
                "    spec:\n      containers: [{name: c, image: busybox, imagePullPolcy: Always}]\n");
    }
    const auto refused = kubectl(binary, kc, {u"apply"_s, u"-f"_s, file});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(
        refused.err.contains(u"DaemonSet in version \"v1\" cannot be handled as a DaemonSet: strict decoding "
                             "error: unknown field \"spec.foo\", unknown field "
                             "\"spec.template.spec.containers[0].imagePullPolcy\""_s),
        qPrintable(refused.err));
    QCOMPARE(kubectl(binary, kc, {u"get"_s, u"ds"_s, u"typo"_s}).exitCode, 1);

    const auto warned = kubectl(binary, kc, {u"create"_s, u"-f"_s, file, u"--validate=warn"_s});
    RUN_OK(warned);
    QCOMPARE(warned.out, u"daemonset.apps/typo created\n"_s);
    QVERIFY2(warned.err.contains(u"Warning: unknown field \"spec.foo\"\n"_s) &&
                 warned.err.contains(
                     u"Warning: unknown field \"spec.template.spec.containers[0].imagePullPolcy\"\n"_s),
             qPrintable(warned.err));
    const auto stored =
        kubectl(binary, kc,
                {u"get"_s, u"ds"_s, u"typo"_s, u"-o"_s,
                 u"jsonpath={.spec.foo}|{.spec.template.spec.containers[0].imagePullPolicy}"_s});
    RUN_OK(stored);
    QCOMPARE(stored.out, u"|Always"_s);
}

void TstServeKubectl::serverSideApplyLikeACluster_data()
{
    addEveryVersionRows();
}

// kubectl apply --server-side: the server merges and records the manager; a field another
// manager changed is a conflict kubectl explains, --force-conflicts takes it over, and what the
// applier drops from its file goes; kubectl diff --server-side shows nothing after that.
void TstServeKubectl::serverSideApplyLikeACluster()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    QTemporaryDir dir;
    auto manifest = [&](const QString &labels) {
        const QString file = dir.filePath(u"ssa.yaml"_s);
        QFile f(file);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QStringLiteral(
                        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ssa, namespace: default%1}\n"
                        "spec:\n  selector: {matchLabels: {app: ssa}}\n  template:\n"
                        "    metadata: {labels: {app: ssa}}\n    spec:\n      containers: [{name: c, "
                        "image: \"busybox:1.36\"}]\n")
                        .arg(labels)
                        .toUtf8());
        return file;
    };
    auto get = [&](const QString &jsonpath) {
        return kubectl(binary, kc, {u"get"_s, u"ds"_s, u"ssa"_s, u"-o"_s, u"jsonpath="_s + jsonpath}).out;
    };

    const auto first =
        kubectl(binary, kc, {u"apply"_s, u"--server-side"_s, u"-f"_s, manifest(u", labels: {team: a}"_s)});
    RUN_OK(first);
    QCOMPARE(first.out, u"daemonset.apps/ssa serverside-applied\n"_s);
    QCOMPARE(get(u"{.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}"_s),
             u"kubectl/Apply"_s);

    RUN_OK(kubectl(binary, kc, {u"set"_s, u"image"_s, u"ds/ssa"_s, u"c=busybox:1.37"_s}));
    const auto conflict =
        kubectl(binary, kc, {u"apply"_s, u"--server-side"_s, u"-f"_s, manifest(u", labels: {team: a}"_s)});
    QCOMPARE(conflict.exitCode, 1);
    QVERIFY2(
        conflict.err.contains(u"Apply failed with 1 conflict: conflict with \"kubectl-set\" using apps/v1: "
                              ".spec.template.spec.containers[name=\"c\"].image"_s) &&
            conflict.err.contains(u"--force-conflicts"_s),
        qPrintable(conflict.err));
    QCOMPARE(get(u"{.spec.template.spec.containers[0].image}"_s), u"busybox:1.37"_s);

    const auto forced = kubectl(binary, kc,
                                {u"apply"_s, u"--server-side"_s, u"--force-conflicts"_s, u"-f"_s,
                                 manifest(u", labels: {team: a}"_s)});
    RUN_OK(forced);
    QCOMPARE(get(u"{.spec.template.spec.containers[0].image}"_s), u"busybox:1.36"_s);

    RUN_OK(kubectl(binary, kc, {u"label"_s, u"ds"_s, u"ssa"_s, u"owner=ops"_s}));
    const QString smaller = manifest(QString());
    RUN_OK(kubectl(binary, kc, {u"apply"_s, u"--server-side"_s, u"-f"_s, smaller}));
    QCOMPARE(get(u"{.metadata.labels}"_s), u"{\"owner\":\"ops\"}"_s);
    const auto diff = kubectl(binary, kc, {u"diff"_s, u"--server-side"_s, u"-f"_s, smaller});
    QVERIFY2(diff.exitCode == 0 && diff.out.isEmpty(), qPrintable(diff.out + diff.err));
    const auto managed =
        kubectl(binary, kc, {u"get"_s, u"ds"_s, u"ssa"_s, u"-o"_s, u"yaml"_s, u"--show-managed-fields"_s});
    RUN_OK(managed);
    QVERIFY2(managed.out.contains(u"manager: kubectl-label\n"_s) &&
                 !managed.out.contains(u"manager: kubectl-set\n"_s),
             qPrintable(managed.out));
}

void TstServeKubectl::batteryOfEverydayCommands_data()
{
    // The kubectl on PATH and 1.27 in every run; all versions with
    // DAEMONSCOPE_KUBECTL_BATTERY_ALL=1 (the closing check of a change to the server).
    QTest::addColumn<QString>("binary");
    const bool all = qEnvironmentVariableIntValue("DAEMONSCOPE_KUBECTL_BATTERY_ALL") == 1;
    for (const auto &[label, path] : kubectls(all))
        QTest::newRow(qPrintable(label)) << path;
}

// Everyday kubectl, one command after the other against one server, each with the exit code and
// a piece of the output a real cluster gives: reads, every output format, selectors, describe,
// rollouts, explain, auth, raw paths, labels and annotations, the three patch types, Services,
// PDBs, cordon and taints, apply/diff/delete of a file, pods, dry runs and namespaces.
void TstServeKubectl::batteryOfEverydayCommands()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    const auto nodeList =
        kubectl(binary, kc, {u"get"_s, u"nodes"_s, u"-o"_s, u"jsonpath={.items[0].metadata.name}"_s});
    RUN_OK(nodeList);
    const QString node = nodeList.out;
    QVERIFY(!node.isEmpty());
    QTemporaryDir dir;
    const QString file = dir.filePath(u"battery.yaml"_s);
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: battery, namespace: default}\nspec:\n"
            "  selector: {matchLabels: {app: battery}}\n  template:\n    metadata: {labels: {app: battery}}\n"
            "    spec:\n      containers: [{name: c, image: \"busybox:1.36\", resources: {requests: {cpu: "
            "100m}}}]\n");
    }
    const auto webPods = kubectl(
        binary, kc,
        {u"get"_s, u"pods"_s, u"-l"_s, u"app=web"_s, u"-o"_s, u"jsonpath={.items[0].metadata.name}"_s});
    RUN_OK(webPods);
    const QString webPod = webPods.out;
    QVERIFY(!webPod.isEmpty());
    auto writeFile = [&](const QString &name, const QByteArray &text) {
        QFile f(dir.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() ? f.fileName() : QString();
    };
    QByteArray next;
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        next = f.readAll().replace("busybox:1.36", "busybox:1.37");
    }
    const QString file2 = writeFile(u"battery-1.37.yaml"_s, next);
    // A ReplicaSet pinned to the node, so that a PodDisruptionBudget can hold its pod on a drain.
    const QString rsFile = writeFile(
        u"guarded.yaml"_s,
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: guarded, namespace: default}\nspec:\n"
        "  replicas: 1\n  selector: {matchLabels: {app: guarded}}\n  template:\n"
        "    metadata: {labels: {app: guarded}}\n    spec:\n      nodeSelector: {kubernetes.io/hostname: " +
            node.toUtf8() + "}\n      containers: [{name: g, image: \"busybox:1.36\"}]\n");
    QVERIFY(!file2.isEmpty() && !rsFile.isEmpty());
    // kubectl edit below: the editor turns busybox:1.37 into 1.38.
    qputenv("KUBE_EDITOR", "sed -i s/busybox:1.37/busybox:1.38/");
    const auto noEditor = qScopeGuard([] { qunsetenv("KUBE_EDITOR"); });
    struct Step
    {
        QString args;
        int exitCode;
        QString expect; // in stdout or stderr
    };
    const QString image = u"-o jsonpath={.spec.template.spec.containers[0].image}"_s;
    const QList<Step> steps = {
        // The first web pod, before any rollout replaces it: what the scheduler and kubelet said.
        {u"events --for pod/"_s + webPod, 0, u"Started container web"_s},
        {u"describe pod "_s + webPod, 0, u"Successfully assigned default/"_s + webPod},
        {u"get pod "_s + webPod + u" -o yaml"_s, 0, u"ownerReferences"_s},
        {u"version"_s, 0, u"v1.32.0+daemonscope"_s},
        {u"api-resources"_s, 0, u"daemonsets"_s},
        {u"api-resources --api-group=apps -o name"_s, 0, u"daemonsets.apps"_s},
        {u"api-resources --namespaced=false"_s, 0, u"nodes"_s},
        {u"api-versions"_s, 0, u"upgrade.daemonscope.io/v1alpha1"_s},
        {u"cluster-info"_s, 0, u"is running at"_s},
        {u"get nodes"_s, 0, u"Ready"_s},
        {u"get nodes -o wide"_s, 0, u"INTERNAL-IP"_s},
        {u"get nodes --show-labels"_s, 0, u"kubernetes.io/hostname="_s},
        {u"get ds"_s, 0, u"web"_s},
        {u"get ds -A"_s, 0, u"NAMESPACE"_s},
        {u"get ds web -o yaml"_s, 0, u"kind: DaemonSet"_s},
        {u"get ds web -o json"_s, 0, u"\"kind\": \"DaemonSet\""_s},
        {u"get ds web -o jsonpath={.spec.template.spec.containers[0].image}"_s, 0, u"nginx:1.27"_s},
        {u"get ds -o name"_s, 0, u"daemonset.apps/web"_s},
        {u"get ds web -o custom-columns=NAME:.metadata.name,IMAGE:.spec.template.spec.containers[0].image"_s,
         0, u"IMAGE"_s},
        {u"get ds web --show-labels"_s, 0, u"app=web"_s},
        {u"get ds -l app=web"_s, 0, u"web"_s},
        {u"get ds -l app=nothing"_s, 0, u"No resources found"_s},
        {u"get pods -l app=web"_s, 0, u"Running"_s},
        {u"get pods --field-selector=status.phase=Running"_s, 0, u"web-"_s},
        {u"get pods -o wide"_s, 0, u"NODE"_s},
        {u"get pods --sort-by=.metadata.name"_s, 0, u"solo-"_s},
        {u"get pods -A --field-selector=spec.nodeName="_s + node, 0, u"web-"_s},
        {u"get controllerrevisions"_s, 0, u"web-"_s},
        {u"get ns"_s, 0, u"default"_s},
        {u"get events"_s, 0, u"SuccessfulCreate"_s},
        {u"get all"_s, 0, u"daemonset.apps/web"_s},
        {u"get svc"_s, 0, u"kubernetes"_s},
        {u"get leases -n kube-node-lease"_s, 0, node},
        {u"get nur"_s, 0, u"No resources found"_s},
        {u"get --raw /version"_s, 0, u"gitVersion"_s},
        {u"get --raw /healthz"_s, 0, u"ok"_s},
        {u"get --raw /openapi/v3"_s, 0, u"apis/apps/v1"_s},
        {u"get ds nothing"_s, 1, u"daemonsets.apps \"nothing\" not found"_s},
        {u"describe ds web"_s, 0, u"Pods Status:"_s},
        {u"describe node "_s + node, 0, u"Allocated resources:"_s},
        {u"describe svc kubernetes"_s, 0, u"10.96.0.1"_s},
        {u"describe pods -l app=web"_s, 0, u"Controlled By:  DaemonSet/web"_s},
        {u"rollout history ds/web"_s, 0, u"REVISION"_s},
        {u"rollout history ds/web --revision=2"_s, 0, u"nginx:1.27"_s},
        {u"rollout status ds/web"_s, 0, u"successfully rolled out"_s},
        {u"explain ds"_s, 0, u"KIND:       DaemonSet"_s},
        {u"explain pod.spec.tolerations"_s, 0, u"tolerationSeconds"_s},
        {u"explain nodes.spec.taints --recursive"_s, 0, u"effect"_s},
        {u"auth can-i list pods"_s, 0, u"yes"_s},
        {u"auth can-i delete daemonsets -n kube-system"_s, 0, u"yes"_s},
        {u"create ns battery"_s, 0, u"namespace/battery created"_s},
        {u"create ns battery"_s, 1, u"already exists"_s},
        {u"label ds web tier=front"_s, 0, u"daemonset.apps/web labeled"_s},
        {u"get ds -l tier=front -o name"_s, 0, u"daemonset.apps/web"_s},
        {u"label ds web tier-"_s, 0, u"daemonset.apps/web unlabeled"_s},
        {u"annotate ds web note=battery"_s, 0, u"daemonset.apps/web annotate"_s}, // 1.27 prints "annotate"
        {u"annotate ds web note-"_s, 0, u"daemonset.apps/web annotate"_s},
        {u"set image ds/web web=nginx:1.28"_s, 0, u"image updated"_s},
        {u"rollout status ds/web --timeout=120s"_s, 0, u"successfully rolled out"_s},
        {u"rollout history ds/web"_s, 0, u"3 "_s},
        {u"rollout undo ds/web"_s, 0, u"rolled back"_s},
        {u"rollout status ds/web --timeout=120s"_s, 0, u"successfully rolled out"_s},
        {u"rollout undo ds/web --to-revision=99"_s, 1, u"unable to find specified revision 99 in history"_s},
        {u"rollout restart ds/web"_s, 0, u"daemonset.apps/web restarted"_s},
        {u"rollout pause ds/web"_s, 1, u"not supported"_s},
        {u"patch ds web -p {\"spec\":{\"minReadySeconds\":1}}"_s, 0, u"daemonset.apps/web patched"_s},
        {u"patch ds web --type=merge -p {\"spec\":{\"minReadySeconds\":2}}"_s, 0,
         u"daemonset.apps/web patched"_s},
        {u"patch ds web --type=json -p [{\"op\":\"replace\",\"path\":\"/spec/minReadySeconds\",\"value\":0}]"_s,
         0, u"daemonset.apps/web patched"_s},
        {u"patch ds web --type=merge -p {\"spec\":{\"minReadySeconds\":0}}"_s, 0,
         u"daemonset.apps/web patched"_s},
        {u"patch ds web --type=merge -p {\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"x\"}}}}"_s, 1,
         u"field is immutable"_s},
        {u"create service clusterip battery-svc --tcp=80 -n battery"_s, 0, u"service/battery-svc created"_s},
        {u"get svc -n battery battery-svc -o jsonpath={.spec.ports[0].targetPort}"_s, 0, u"80"_s},
        {u"delete svc battery-svc -n battery"_s, 0, u"service \"battery-svc\" deleted"_s},
        {u"create pdb battery-pdb --selector=app=web --min-available=1"_s, 0,
         u"poddisruptionbudget.policy/battery-pdb created"_s},
        {u"get pdb battery-pdb"_s, 0, u"MIN AVAILABLE"_s},
        {u"delete pdb battery-pdb"_s, 0, u"deleted"_s},
        // kubectl create job sends the Job as protobuf; its pod runs until the job is deleted.
        {u"create job battery-job --image=busybox:1.36 -n battery -- echo hi"_s, 0,
         u"job.batch/battery-job created"_s},
        {u"get jobs -n battery"_s, 0, u"COMPLETIONS"_s},
        {u"get job battery-job -n battery -o jsonpath={.spec.template.spec.containers[0].command}"_s, 0,
         u"[\"echo\",\"hi\"]"_s},
        {u"get pods -n battery -l job-name=battery-job -o name"_s, 0, u"pod/battery-job-"_s},
        {u"describe job battery-job -n battery"_s, 0, u"Pods Statuses:"_s},
        {u"delete job battery-job -n battery"_s, 0, u"job.batch \"battery-job\" deleted"_s},
        {u"cordon "_s + node, 0, u"cordoned"_s},
        {u"get node "_s + node, 0, u"SchedulingDisabled"_s},
        {u"uncordon "_s + node, 0, u"uncordoned"_s},
        {u"taint nodes "_s + node + u" battery=yes:NoSchedule"_s, 0, u"tainted"_s},
        {u"taint nodes "_s + node + u" battery-"_s, 0, u"untainted"_s},
        {u"apply -f "_s + file, 0, u"daemonset.apps/battery created"_s},
        {u"apply -f "_s + file, 0, u"daemonset.apps/battery unchanged"_s},
        {u"diff -f "_s + file, 0, QString()},
        {u"apply --server-side -f "_s + file, 0, u"daemonset.apps/battery serverside-applied"_s},
        {u"get ds battery -o jsonpath={.spec.template.spec.containers[0].resources.requests.cpu}"_s, 0,
         u"100m"_s},
        {u"delete -f "_s + file, 0, u"daemonset.apps \"battery\" deleted"_s},
        {u"run battery-pod --image=busybox -n battery"_s, 0, u"pod/battery-pod created"_s},
        {u"get pod battery-pod -n battery -o jsonpath={.spec.containers[0].image}"_s, 0, u"busybox"_s},
        {u"delete pod battery-pod -n battery --grace-period=0 --force"_s, 0, u"deleted"_s},
        {u"delete ds solo --dry-run=server"_s, 0, u"deleted (server dry run)"_s},
        {u"get ds solo -o name"_s, 0, u"daemonset.apps/solo"_s},
        {u"wait --for=condition=Ready pod -l app=solo --timeout=60s"_s, 0, u"condition met"_s},
        // Pod events, health, paging, labels columns and field selectors.
        {u"get events --field-selector=reason=Pulled"_s, 0, u"Pulled"_s},
        {u"get --raw /livez"_s, 0, u"ok"_s},
        {u"get --raw /readyz"_s, 0, u"ok"_s},
        {u"auth can-i --list"_s, 0, u"Resources"_s},
        {u"get pods --chunk-size=1"_s, 0, u"web-"_s},
        {u"get pods -L app"_s, 0, u"APP"_s},
        {u"get pods --field-selector=status.phase=Failed"_s, 0, u"No resources found"_s},
        {u"get leases -n kube-node-lease "_s + node + u" -o yaml"_s, 0, u"holderIdentity"_s},
        {u"version -o json"_s, 0, u"serverVersion"_s},
        {u"api-resources -o wide"_s, 0, u"VERBS"_s},
        {u"api-resources --api-group=policy"_s, 0, u"poddisruptionbudgets"_s},
        {u"get --raw /apis/apps/v1"_s, 0, u"daemonsets"_s},
        {u"get --raw /api/v1/namespaces/default/pods?limit=1"_s, 0, u"\"continue\""_s},
        {u"explain nur"_s, 0, u"NodeUpgradeRollout"_s},
        {u"explain ds.spec.updateStrategy.rollingUpdate"_s, 0, u"maxSurge"_s},
        {u"config view --minify"_s, 0, u"server:"_s},
        {u"label node "_s + node + u" battery=yes"_s, 0, u"labeled"_s},
        {u"get nodes -l battery=yes -o name"_s, 0, u"node/"_s + node},
        {u"label node "_s + node + u" battery-"_s, 0, u"unlabeled"_s},
        {u"create service nodeport battery-np --tcp=80 -n battery"_s, 0, u"service/battery-np created"_s},
        {u"get svc battery-np -n battery -o jsonpath={.spec.type}"_s, 0, u"NodePort"_s},
        // Dry runs on the server change nothing.
        {u"cordon "_s + node + u" --dry-run=server"_s, 0, u"cordoned (server dry run)"_s},
        {u"label ds web tier=x --dry-run=server"_s, 0, u"labeled (server dry run)"_s},
        {u"set image ds/web web=nginx:1.29 --dry-run=server"_s, 0, u"image updated (server dry run)"_s},
        {u"rollout undo ds/web --dry-run=server"_s, 0, u"rolled back (server dry run)"_s},
        {u"delete ns battery --dry-run=server"_s, 0, u"(server dry run)"_s},
        {u"get ns battery"_s, 0, u"Active"_s},
        // Template changes kubectl set makes, each rolled out.
        {u"set env ds/web BATTERY=1"_s, 0, u"env updated"_s},
        {u"rollout status ds/web --timeout=180s"_s, 0, u"successfully rolled out"_s},
        {u"set env ds/web BATTERY-"_s, 0, u"env updated"_s},
        {u"set resources ds/web -c=web --requests=cpu=10m"_s, 0, u"resource requirements updated"_s},
        {u"rollout status ds/web --timeout=180s"_s, 0, u"successfully rolled out"_s},
        {u"get ds web -o jsonpath={.spec.template.spec.containers[0].resources.requests.cpu}"_s, 0, u"10m"_s},
        {u"rollout restart ds/solo"_s, 0, u"restarted"_s},
        {u"rollout status ds/solo --timeout=180s"_s, 0, u"successfully rolled out"_s},
        // create, replace, edit, apply, diff and dry runs of a file, with kubectl's own validation.
        {u"create -f "_s + file, 0, u"daemonset.apps/battery created"_s},
        {u"create -f "_s + file, 1, u"already exists"_s},
        {u"rollout status ds/battery --timeout=120s"_s, 0, u"successfully rolled out"_s},
        {u"replace -f "_s + file2, 0, u"daemonset.apps/battery replaced"_s},
        {u"get ds battery "_s + image, 0, u"busybox:1.37"_s},
        {u"edit ds/battery"_s, 0, u"daemonset.apps/battery edited"_s},
        {u"get ds battery "_s + image, 0, u"busybox:1.38"_s},
        {u"apply -f "_s + file2, 0, u"daemonset.apps/battery configured"_s},
        {u"get ds battery "_s + image, 0, u"busybox:1.37"_s},
        {u"diff -f "_s + file, 1, u"busybox:1.36"_s},
        {u"apply -f "_s + file + u" --dry-run=server"_s, 0, u"configured (server dry run)"_s},
        {u"apply -f "_s + file + u" --dry-run=client"_s, 0, u"configured (dry run)"_s},
        {u"get ds battery "_s + image, 0, u"busybox:1.37"_s},
        {u"rollout status ds/battery --timeout=120s"_s, 0, u"successfully rolled out"_s},
        {u"rollout history ds/battery"_s, 0, u"REVISION"_s},
        // Orphaning delete: the pods stay.
        {u"delete ds battery --cascade=orphan"_s, 0, u"daemonset.apps \"battery\" deleted"_s},
        {u"get ds battery"_s, 1, u"not found"_s},
        {u"get pods -l app=battery -o name"_s, 0, u"pod/battery-"_s},
        {u"delete pods -l app=battery --grace-period=0 --force"_s, 0, u"deleted"_s},
        // Drain through a PodDisruptionBudget: refused while the budget allows nothing.
        {u"create -f "_s + rsFile, 0, u"replicaset.apps/guarded created"_s},
        {u"wait --for=jsonpath={.status.readyReplicas}=1 rs/guarded --timeout=60s"_s, 0, u"condition met"_s},
        {u"create pdb guarded --selector=app=guarded --min-available=1"_s, 0,
         u"poddisruptionbudget.policy/guarded created"_s},
        {u"wait --for=jsonpath={.status.currentHealthy}=1 pdb/guarded --timeout=30s"_s, 0,
         u"condition met"_s},
        {u"describe pdb guarded"_s, 0, u"Allowed disruptions:  0"_s},
        {u"drain "_s + node + u" --ignore-daemonsets --timeout=2s"_s, 1,
         u"Cannot evict pod as it would violate the pod's disruption budget"_s},
        {u"get pods -l app=guarded"_s, 0, u"Running"_s},
        {u"delete pdb guarded"_s, 0, u"deleted"_s},
        {u"drain "_s + node + u" --ignore-daemonsets --timeout=60s"_s, 0, u"drained"_s},
        {u"get node "_s + node, 0, u"SchedulingDisabled"_s},
        {u"uncordon "_s + node, 0, u"uncordoned"_s},
        {u"wait --for=jsonpath={.status.readyReplicas}=1 rs/guarded --timeout=60s"_s, 0, u"condition met"_s},
        {u"get rs guarded -o jsonpath={.status.readyReplicas}"_s, 0, u"1"_s},
        {u"scale rs guarded --replicas=2"_s, 0, u"replicaset.apps/guarded scaled"_s},
        {u"get rs guarded -o jsonpath={.spec.replicas}"_s, 0, u"2"_s},
        {u"scale rs guarded --replicas=5 --current-replicas=1"_s, 1, u"Expected replicas to be 1, was 2"_s},
        {u"scale rs guarded --replicas=0 --dry-run=server"_s, 0, u"scaled (server dry run)"_s},
        {u"delete rs guarded"_s, 0, u"replicaset.apps \"guarded\" deleted"_s},
        {u"get rs"_s, 0, u"No resources found"_s},
        {u"delete ns battery"_s, 0, u"namespace \"battery\" deleted"_s},
    };
    for (const Step &step : steps) {
        QStringList args;
        // Arguments are split on spaces; none of the JSON patches above contains one.
        for (const QString &a : step.args.split(u' ', Qt::SkipEmptyParts))
            args << a;
        const auto r = kubectl(binary, kc, args);
        const QString all = r.out + r.err;
        QVERIFY2(r.exitCode == step.exitCode && (step.expect.isEmpty() || all.contains(step.expect)),
                 qPrintable(u"kubectl %1\nexit %2 (want %3), want %4\n%5"_s.arg(step.args)
                                .arg(r.exitCode)
                                .arg(step.exitCode)
                                .arg(step.expect, all)));
    }
    qInfo("%lld commands", static_cast<long long>(steps.size() + 2));
}

void TstServeKubectl::manifestsNeedNoValidateFalse_data()
{
    addEveryVersionRows();
}

// kubectl validates a manifest before it sends it (it reads /openapi/v3, finds that PATCH takes
// fieldValidation and sends fieldValidation=Strict): create, apply, replace, edit and diff work
// with kubectl's default validation, and kubectl apply's three-way merge (a strategic merge
// from the published schema's patch markers) keeps what another client set.
void TstServeKubectl::manifestsNeedNoValidateFalse()
{
    QFETCH(QString, binary);
    auto server = startServer(false);
    QVERIFY(server);
    const QString kc = server->kubeconfig();
    QTemporaryDir dir;
    auto manifest = [&](const QString &image) {
        const QString file = dir.filePath(u"probe-"_s + QString(image).replace(u':', u'-') + u".yaml"_s);
        QFile f(file);
        if (f.open(QIODevice::WriteOnly))
            f.write(
                QStringLiteral("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: probe, namespace: "
                               "default}\nspec:\n  selector: {matchLabels: {app: probe}}\n  template:\n"
                               "    metadata: {labels: {app: probe}}\n    spec:\n      containers: [{name: "
                               "probe, image: \"%1\"}]\n")
                    .arg(image)
                    .toUtf8());
        return file;
    };
    auto field = [&](const QString &jsonpath) {
        return kubectl(binary, kc, {u"get"_s, u"ds"_s, u"probe"_s, u"-o"_s, u"jsonpath="_s + jsonpath}).out;
    };
    const QString image = u"{.spec.template.spec.containers[0].image}"_s;

    const auto created = kubectl(binary, kc, {u"create"_s, u"-f"_s, manifest(u"busybox:1.36"_s)});
    RUN_OK(created);
    QCOMPARE(created.out, u"daemonset.apps/probe created\n"_s);
    // kubectl replace sends the resourceVersion it has just read; while the controller is still
    // writing the new DaemonSet's status that may be stale (409, as on any cluster), so the
    // replace follows once the pods are up.
    for (int i = 0; i < 120; ++i) {
        const QStringList counts =
            field(u"{.status.numberReady} {.status.desiredNumberScheduled}"_s).split(u' ');
        if (counts.size() == 2 && counts[0] == counts[1] && counts[0].toInt() > 0)
            break;
        QTest::qWait(250);
    }
    const auto replaced = kubectl(binary, kc, {u"replace"_s, u"-f"_s, manifest(u"busybox:1.37"_s)});
    RUN_OK(replaced);
    QCOMPARE(replaced.out, u"daemonset.apps/probe replaced\n"_s);
    QCOMPARE(field(image), u"busybox:1.37"_s);

    // apply, a label set by another client, apply again with a new image: the label survives.
    const auto applied = kubectl(binary, kc, {u"apply"_s, u"-f"_s, manifest(u"busybox:1.37"_s)});
    RUN_OK(applied);
    QCOMPARE(applied.out, u"daemonset.apps/probe configured\n"_s);
    RUN_OK(kubectl(binary, kc, {u"label"_s, u"ds"_s, u"probe"_s, u"owner=ops"_s}));
    const QString next = manifest(u"busybox:1.38"_s);
    const auto diff = kubectl(binary, kc, {u"diff"_s, u"-f"_s, next});
    QCOMPARE(diff.exitCode, 1); // differences found
    QVERIFY2(diff.out.contains(u"-      - image: busybox:1.37"_s) &&
                 diff.out.contains(u"+      - image: busybox:1.38"_s),
             qPrintable(diff.out + diff.err));
    const auto reapplied = kubectl(binary, kc, {u"apply"_s, u"-f"_s, next});
    RUN_OK(reapplied);
    QCOMPARE(reapplied.out, u"daemonset.apps/probe configured\n"_s);
    QCOMPARE(field(image), u"busybox:1.38"_s);
    QCOMPARE(field(u"{.metadata.labels.owner}"_s), u"ops"_s);
    const auto unchanged = kubectl(binary, kc, {u"apply"_s, u"-f"_s, next});
    RUN_OK(unchanged);
    QCOMPARE(unchanged.out, u"daemonset.apps/probe unchanged\n"_s);

    // kubectl edit with an editor that changes the image.
    qputenv("KUBE_EDITOR", "sed -i s/busybox:1.38/busybox:1.39/");
    const auto edited = kubectl(binary, kc, {u"edit"_s, u"ds/probe"_s});
    qunsetenv("KUBE_EDITOR");
    RUN_OK(edited);
    QCOMPARE(edited.out, u"daemonset.apps/probe edited\n"_s);
    QCOMPARE(field(image), u"busybox:1.39"_s);

    // The server still validates: a manifest without containers is refused with its causes.
    const QString broken = dir.filePath(u"broken.yaml"_s);
    {
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: broken, namespace: default}\nspec:\n"
            "  selector: {matchLabels: {app: broken}}\n  template:\n    metadata: {labels: {app: broken}}\n"
            "    spec: {containers: []}\n");
    }
    const auto refused = kubectl(binary, kc, {u"create"_s, u"-f"_s, broken});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(u"The DaemonSet \"broken\" is invalid"_s) &&
                 refused.err.contains(u"spec.template.spec.containers: Required value"_s),
             qPrintable(refused.err));
}
