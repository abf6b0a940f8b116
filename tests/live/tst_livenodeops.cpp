// Node actions of the live backend against the embedded API server (in process, real libcurl
// transport), next to /usr/bin/kubectl against a twin server built from the same scenario:
// cordon, drain --ignore-daemonsets and a drain a PodDisruptionBudget blocks end in the same
// state either way. Permissions: a SelfSubjectAccessReview answers for the restricted user of
// ServerOptions::viewerToken, the snapshot carries the answers, and the user's writes are 403.

#include "models/backend/livebackend.h"

#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/server/kubeconfigwriter.h"

#include "tests/support/backendwait.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;
using models::ActionKind;
using models::ActionResult;
using models::ClusterSnapshot;

namespace {

std::unique_ptr<sim::Cluster> drainCluster()
{
    QFile f(QStringLiteral(DAEMONSCOPE_SOURCE_DIR "/tests/serve/drain.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    auto c = scenario::ScenarioRunner::buildCluster(f.readAll().toStdString(), "drain.yaml");
    return c ? std::move(*c) : nullptr;
}

std::unique_ptr<server::ApiServer> startServer(server::ServerOptions options = {})
{
    options.speed = 10;
    options.bookmarkInterval = std::chrono::milliseconds(200);
    auto s = std::make_unique<server::ApiServer>(drainCluster(), options);
    if (auto r = s->start(); !r) {
        qWarning("server: %s", r.error().message.c_str());
        return nullptr;
    }
    return s;
}

models::LiveBackendOptions optionsFor(const server::ApiServer &s, const std::string &token = {})
{
    models::LiveBackendOptions o;
    client::RestConfig config;
    config.server = s.url();
    config.caPem = s.caCertificatePem();
    config.token = token;
    config.contextName = "test";
    o.restConfig = config;
    o.publishIntervalMs = 20;
    o.initialBackoffMs = 50;
    o.maxBackoffMs = 400;
    o.drainRetryDelaysMs = {200, 200};
    return o;
}

// What the drain tests compare: per node, whether it is cordoned, and its non-terminating pods
// by app label ("node-0: cordoned agent" — pod names differ between the twins, and so may the
// node a replacement goes to when two are equally good).
QString state(server::ApiServer &s)
{
    QStringList lines;
    s.withCluster([&](sim::Cluster &c) {
        for (const auto *n : c.nodes()) {
            QStringList apps;
            for (const auto *p : c.pods())
                if (p->nodeName == n->metadata.name && !p->isDeleting() && !p->isTerminal())
                    apps << QString::fromStdString(
                        p->metadata.labels.count("app") ? p->metadata.labels.at("app") : std::string("?"));
            apps.sort();
            apps.removeDuplicates(); // how many of a ReplicaSet's pods share a node may differ
            lines << QString::fromStdString(n->metadata.name) +
                         (n->unschedulable ? u": cordoned "_s : u": "_s) + apps.join(u',');
        }
    });
    return lines.join(u'\n');
}

int apiPods(server::ApiServer &s, bool readyOnly)
{
    int n = 0;
    s.withCluster([&](sim::Cluster &c) {
        for (const auto *p : c.pods())
            if (p->metadata.labels.count("app") && p->metadata.labels.at("app") == "api" &&
                !p->isDeleting() && (!readyOnly || p->ready))
                ++n;
    });
    return n;
}

template <typename Pred> bool waitServer(Pred pred, int ms = 30000)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        if (pred())
            return true;
        QTest::qWait(50);
    }
    return pred();
}

void setMinAvailable(server::ApiServer &s, int n)
{
    s.withCluster([&](sim::Cluster &c) {
        auto r = c.patch(api::Kind::PodDisruptionBudget, "default", "api", api::PatchType::Merge,
                         {{"spec", {{"minAvailable", n}}}});
        if (!r)
            qWarning("patch pdb: %s", r.error().message.c_str());
    });
}

} // namespace

class TstLiveNodeOps : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void consoleAndKubectlDrainEndTheSame();
    void viewerGetsDenialsAndAdminDoesNot();

private:
    struct Kubectl
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Kubectl kubectl(const QString &kubeconfig, const QStringList &args);
    QString writeKubeconfig(const server::ApiServer &s, const std::string &token, const QString &name);
    QTemporaryDir m_dir;
};

void TstLiveNodeOps::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!QFile::exists(u"/usr/bin/kubectl"_s))
        QSKIP("/usr/bin/kubectl is not installed");
}

TstLiveNodeOps::Kubectl TstLiveNodeOps::kubectl(const QString &kubeconfig, const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
    env.remove(u"KUBECONFIG"_s);
    p.setProcessEnvironment(env);
    p.start(u"/usr/bin/kubectl"_s, QStringList{u"--kubeconfig"_s, kubeconfig} + args);
    Kubectl r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString TstLiveNodeOps::writeKubeconfig(const server::ApiServer &s, const std::string &token,
                                        const QString &name)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(
        QByteArray::fromStdString(server::KubeconfigWriter::render(s.url(), s.caCertificatePem(), token)));
    return path;
}

void TstLiveNodeOps::consoleAndKubectlDrainEndTheSame()
{
    auto console = startServer();
    auto twin = startServer();
    QVERIFY(console && twin);
    QVERIFY(waitServer([&] { return apiPods(*console, true) == 3 && apiPods(*twin, true) == 3; }));
    QCOMPARE(state(*console), state(*twin)); // the same scenario and seed: the same placement
    const QString kc = writeKubeconfig(*twin, {}, u"twin.kubeconfig"_s);

    models::LiveBackend backend(optionsFor(*console));
    QSignalSpy results(&backend, &models::ClusterBackend::actionFinished);
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) {
        return s.nodes->size() == 3 && s.daemonSet(u"default/agent"_s);
    }));

    // Cordon and uncordon.
    backend.cordon(u"node-2"_s, true);
    ActionResult r = waitResult(results, ActionKind::Cordon);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"cordoned"_s);
    QCOMPARE(kubectl(kc, {u"cordon"_s, u"node-2"_s}).exitCode, 0);
    QCOMPARE(state(*console), state(*twin));
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) { return s.node(u"node-2"_s)->unschedulable; }));
    backend.cordon(u"node-2"_s, false);
    r = waitResult(results, ActionKind::Uncordon);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(kubectl(kc, {u"uncordon"_s, u"node-2"_s}).exitCode, 0);
    QCOMPARE(state(*console), state(*twin));

    // Drain node-0: the console and kubectl drain --ignore-daemonsets.
    backend.drain(u"node-0"_s, false);
    r = waitResult(results, ActionKind::Drain);
    QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(r.message, u"drained 1 of 1 pod; skipped 1 DaemonSet pod"_s);
    const Kubectl drained =
        kubectl(kc, {u"drain"_s, u"node-0"_s, u"--ignore-daemonsets"_s, u"--timeout=60s"_s});
    QVERIFY2(drained.exitCode == 0, qPrintable(drained.err));
    QVERIFY(waitServer([&] { return apiPods(*console, true) == 3 && apiPods(*twin, true) == 3; }));
    QVERIFY(waitServer([&] { return state(*console) == state(*twin); }));
    QVERIFY2(state(*console).contains(u"node-0: cordoned agent\n"_s), qPrintable(state(*console)));

    // A budget that allows nothing: the console retries and names it; kubectl gives up at its
    // timeout with the API's words. Either way the node stays cordoned with its api pod.
    setMinAvailable(*console, 3);
    setMinAvailable(*twin, 3);
    QVERIFY(waitServer([&] { return state(*console).contains(u"node-1: agent,api"_s); }));
    backend.drain(u"node-1"_s, false);
    r = waitResult(results, ActionKind::Drain);
    QVERIFY(!r.ok);
    QVERIFY2(
        r.message.contains(QRegularExpression(
            u"^drained 0 of \\d pods?; api-\\S+: cannot evict, would violate PodDisruptionBudget default/api "
            "\\(minAvailable 3, 3 healthy of 3\\).*; skipped 1 DaemonSet pod$"_s)),
        qPrintable(r.message));
    const Kubectl blocked =
        kubectl(kc, {u"drain"_s, u"node-1"_s, u"--ignore-daemonsets"_s, u"--timeout=5s"_s});
    QCOMPARE(blocked.exitCode, 1);
    QVERIFY2(blocked.err.contains(u"Cannot evict pod as it would violate the pod's disruption budget."_s),
             qPrintable(blocked.err));
    QCOMPARE(state(*console), state(*twin));
    QVERIFY2(state(*console).contains(u"node-1: cordoned agent,api"_s), qPrintable(state(*console)));
    QVERIFY(waitFor(backend, [](const ClusterSnapshot &s) { return s.node(u"node-1"_s)->unschedulable; }));
}

void TstLiveNodeOps::viewerGetsDenialsAndAdminDoesNot()
{
    server::ServerOptions so;
    so.tls = true;
    so.token = "admin-token";
    so.viewerToken = "viewer-token";
    auto srv = startServer(so);
    QVERIFY(srv);

    models::LiveBackend viewer(optionsFor(*srv, "viewer-token"));
    QVERIFY(waitFor(viewer, [](const ClusterSnapshot &s) {
        return s.backend.connected && s.backend.permissions.answers.size() >= 4;
    }));
    const auto &denied = viewer.latest()->backend.permissions;
    QCOMPARE(denied.denial(u"patch"_s, u"daemonsets"_s, u"default"_s),
             u"you may not patch daemonsets in default"_s);
    QCOMPARE(denied.denial(u"patch"_s, u"nodes"_s), u"you may not patch nodes"_s);
    QCOMPARE(denied.denial(u"create"_s, u"pods/eviction"_s), u"you may not create pods/eviction"_s);
    QVERIFY(!denied.allows(u"create"_s, u"nodeupgraderollouts"_s));
    // The server refuses the write as it said it would.
    QSignalSpy results(&viewer, &models::ClusterBackend::actionFinished);
    viewer.cordon(u"node-0"_s, true);
    const ActionResult r = waitResult(results, ActionKind::Cordon);
    QVERIFY(!r.ok);
    QVERIFY2(r.message.contains(u"nodes \"node-0\" is forbidden: User \"daemonscope-viewer\" cannot patch "
                                "resource \"nodes\""_s),
             qPrintable(r.message));
    const QString viewerKc = writeKubeconfig(*srv, "viewer-token", u"viewer.kubeconfig"_s);
    const Kubectl canI = kubectl(viewerKc, {u"auth"_s, u"can-i"_s, u"patch"_s, u"daemonsets"_s});
    QCOMPARE(canI.out.trimmed(), u"no - the viewer may only get, list and watch"_s);
    QCOMPARE(kubectl(viewerKc, {u"auth"_s, u"can-i"_s, u"list"_s, u"pods"_s}).out.trimmed(), u"yes"_s);

    models::LiveBackend admin(optionsFor(*srv, "admin-token"));
    QVERIFY(waitFor(admin, [](const ClusterSnapshot &s) {
        return s.backend.connected && s.backend.permissions.answers.size() >= 4;
    }));
    for (const auto &[question, allowed] : admin.latest()->backend.permissions.answers)
        QVERIFY2(allowed, qPrintable(question));
    QVERIFY(admin.latest()->backend.permissions.denial(u"patch"_s, u"daemonsets"_s, u"default"_s).isEmpty());
}

QTEST_MAIN(TstLiveNodeOps)
#include "tst_livenodeops.moc"
