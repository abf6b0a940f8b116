// daemonscope serve — loads a scenario (the bundled demo by default), runs its steps and keeps
// simulating the resulting cluster in real time x --speed behind a Kubernetes-compatible API
// that kubectl can use. Listens on loopback only. With --tls it serves HTTPS with a generated
// CA and requires a generated bearer token; both go into the kubeconfig written with
// --kubeconfig-out (atomically, mode 0600) and are kept in the state folder (--state-dir), so
// a restarted server is trusted by the kubeconfigs written for it before. resourceVersions
// count from the wall clock (microseconds since the epoch), so they never go back across
// restarts. The virtual clock is placed so that the scenario's steps end at the wall-clock now
// (--scenario-clock keeps the scenario's `start:`), so the ages kubectl computes are true at
// --speed 1. Runs until SIGINT or SIGTERM.
//
// Exit codes: 0 stopped by a signal; 1 the server could not start; 2 bad arguments or an
// invalid scenario.

#include "app/cmdserve.h"
#include "app/usage.h"

#include "models/scenario/scenariorunner.h"
#include "models/server/apiserver.h"
#include "models/server/kubeconfigwriter.h"
#include "models/server/servestate.h"
#include "models/server/tlsmaterial.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <pthread.h>

// The bundled scenarios live in the ui library's resources; a static library needs an explicit
// reference to keep them. Q_INIT_RESOURCE must be called outside any namespace.
static void initServeResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace app {

namespace {

int usageError(const QString &message)
{
    std::fprintf(
        stderr,
        "error: %s\nUsage: daemonscope serve [--scenario FILE] [--listen 127.0.0.1:PORT] [--speed X] "
        "[--kubeconfig-out FILE] [--tls] [--state-dir DIR]\n",
        message.toUtf8().constData());
    return 2;
}

// "127.0.0.1:8443", "localhost:0", "[::1]:8443".
bool splitListen(const QString &text, QString &host, int &port)
{
    const int colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    host = text.left(colon);
    bool ok = false;
    port = text.mid(colon + 1).toInt(&ok);
    if (!ok || port < 0 || port > 65535)
        return false;
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return !host.isEmpty();
}

bool writeKubeconfig(const QString &path, const std::string &text, QString &error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = file.errorString();
        return false;
    }
    // It may hold a bearer token: readable by the owner only.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(text.data(), static_cast<qint64>(text.size()));
    if (!file.commit()) {
        error = file.errorString();
        return false;
    }
    return true;
}

// Spelled out like the history database's folder, so every way of starting the app finds it.
QString defaultStateDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/Daemonscope/serve");
}

} // namespace

int cmdServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Serve a simulated cluster over a Kubernetes-compatible API on loopback, for kubectl."));
    parser.addHelpOption();
    const QCommandLineOption scenarioOption(
        QStringLiteral("scenario"), QStringLiteral("The scenario to simulate (default: the bundled demo)."),
        QStringLiteral("FILE"));
    const QCommandLineOption listenOption(
        QStringLiteral("listen"), QStringLiteral("Loopback address and port; port 0 picks a free one."),
        QStringLiteral("HOST:PORT"), QStringLiteral("127.0.0.1:0"));
    const QCommandLineOption speedOption(
        QStringLiteral("speed"), QStringLiteral("Virtual seconds per real second (0 freezes the clock)."),
        QStringLiteral("X"), QStringLiteral("1"));
    const QCommandLineOption kubeconfigOption(QStringLiteral("kubeconfig-out"),
                                              QStringLiteral("Write a kubeconfig for this server to FILE."),
                                              QStringLiteral("FILE"));
    const QCommandLineOption tlsOption(
        QStringLiteral("tls"),
        QStringLiteral("Serve HTTPS with a generated CA and require a generated token."));
    const QCommandLineOption stateOption(
        QStringLiteral("state-dir"),
        QStringLiteral("With --tls: keep the CA, the server certificate and key and the token in DIR "
                       "(folder 0700, files 0600) and reuse them when the server is started again, so "
                       "kubeconfigs written earlier stay valid (default: %1).")
            .arg(defaultStateDir()),
        QStringLiteral("DIR"));
    const QCommandLineOption scenarioClockOption(
        QStringLiteral("scenario-clock"),
        QStringLiteral("Keep the scenario's own clock (its start: field) instead of placing its steps "
                       "so that they end now; timestamps are then the same on every run, and ages "
                       "kubectl computes against its own clock are off by as much."));
    const QCommandLineOption viewerOption(
        QStringLiteral("viewer-kubeconfig-out"),
        QStringLiteral("With --tls: also write a kubeconfig for the restricted user daemonscope-viewer to "
                       "FILE (context daemonscope-viewer, a token made for this run): it may get, list and "
                       "watch, and every write is refused with 403 Forbidden."),
        QStringLiteral("FILE"));
    const QCommandLineOption noUpgradeControllerOption(
        QStringLiteral("no-node-upgrade-controller"),
        QStringLiteral("Run no node-upgrade controller: NodeUpgradeRollouts are left to an external one "
                       "(daemonscope controller); the simulated node agents still restart on request."));
    parser.addOptions({scenarioOption, listenOption, speedOption, kubeconfigOption, tlsOption, stateOption,
                       scenarioClockOption, viewerOption, noUpgradeControllerOption});
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args))
        return usageError(parseError(parser));
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(commandHelp(parser, QStringLiteral("serve")).toUtf8().constData(), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(
            QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));

    QString host;
    int port = 0;
    if (!splitListen(parser.value(listenOption), host, port))
        return usageError(
            QStringLiteral("--listen: expected HOST:PORT, got \"%1\"").arg(parser.value(listenOption)));
    if (!server::ApiServer::isLoopback(host.toStdString()))
        return usageError(QStringLiteral("--listen: refusing to listen on %1: only loopback addresses "
                                         "(127.0.0.0/8, ::1, localhost) are served")
                              .arg(host));
    bool speedOk = false;
    const double speed = parser.value(speedOption).toDouble(&speedOk);
    if (!speedOk || speed < 0)
        return usageError(
            QStringLiteral("--speed: expected a number >= 0, got \"%1\"").arg(parser.value(speedOption)));

    QString scenarioPath = parser.value(scenarioOption);
    if (scenarioPath.isEmpty()) {
        initServeResources();
        scenarioPath = QStringLiteral(":/scenarios/demo.yaml");
    }
    QFile scenarioFile(scenarioPath);
    if (!scenarioFile.open(QIODevice::ReadOnly))
        return usageError(QStringLiteral("cannot read %1: %2").arg(scenarioPath, scenarioFile.errorString()));
    const QByteArray text = scenarioFile.readAll();
    // Clients compute ages against their own clock: unless asked to keep the scenario's clock,
    // the steps are placed so that they end now.
    const auto wallNow = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    auto cluster =
        parser.isSet(scenarioClockOption)
            ? scenario::ScenarioRunner::buildCluster(text.toStdString(), scenarioPath.toStdString())
            : scenario::ScenarioRunner::buildClusterEndingAt(text.toStdString(), scenarioPath.toStdString(),
                                                             wallNow);
    if (!cluster) {
        std::fprintf(stderr, "%s\n", cluster.error().message.c_str());
        return 2;
    }

    server::ServerOptions options;
    options.host = host.toStdString();
    options.port = port;
    options.speed = speed;
    options.tls = parser.isSet(tlsOption);
    options.nodeUpgradeController = !parser.isSet(noUpgradeControllerOption);
    // Every server life starts above every earlier one (unless the clock went back by more than
    // the writes of the earlier life took), so a client never sees a resourceVersion go back.
    options.resourceVersionFloor =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    QString stateDir;
    if (options.tls) {
        stateDir = parser.isSet(stateOption) ? parser.value(stateOption) : defaultStateDir();
        if (stateDir.isEmpty())
            return usageError(QStringLiteral("--state-dir: expected a folder"));
        auto state = server::ServeState::open(QFile::encodeName(stateDir).toStdString());
        if (!state) {
            std::fprintf(stderr, "error: %s\n", state.error().message.c_str());
            return 1;
        }
        options.tlsMaterial = std::make_shared<const server::TlsMaterial>(state->tls());
        options.token = state->token();
    }
    if (parser.isSet(viewerOption)) {
        if (!options.tls)
            return usageError(QStringLiteral("--viewer-kubeconfig-out needs --tls"));
        QString token;
        for (int i = 0; i < 3; ++i)
            token += QString::number(QRandomGenerator::system()->generate64(), 16)
                         .rightJustified(16, QLatin1Char('0'));
        options.viewerToken = token.toStdString();
    }

    // Blocked before any thread starts, so every thread inherits the mask and the signals
    // reach only the sigwait below.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    server::ApiServer apiServer(std::move(*cluster), options);
    if (auto started = apiServer.start(); !started) {
        std::fprintf(stderr, "error: %s\n", started.error().message.c_str());
        return 1;
    }
    const std::string url = apiServer.url();
    if (parser.isSet(kubeconfigOption)) {
        QString error;
        const QString path = parser.value(kubeconfigOption);
        if (!writeKubeconfig(
                path, server::KubeconfigWriter::render(url, apiServer.caCertificatePem(), options.token),
                error)) {
            std::fprintf(stderr, "error: cannot write %s: %s\n", path.toUtf8().constData(),
                         error.toUtf8().constData());
            apiServer.stop();
            return 1;
        }
        std::printf(
            "Serving %s at %s (speed %gx)\nkubeconfig: %s\nTry: kubectl --kubeconfig %s get daemonsets -A\n",
            QFileInfo(scenarioPath).fileName().toUtf8().constData(), url.c_str(), speed,
            path.toUtf8().constData(), path.toUtf8().constData());
    } else {
        std::printf("Serving %s at %s (speed %gx)\n", QFileInfo(scenarioPath).fileName().toUtf8().constData(),
                    url.c_str(), speed);
        if (options.tls)
            std::printf("Use --kubeconfig-out FILE to get the CA certificate and token for this server.\n");
    }
    if (parser.isSet(viewerOption)) {
        QString error;
        const QString path = parser.value(viewerOption);
        if (!writeKubeconfig(path,
                             server::KubeconfigWriter::render(url, apiServer.caCertificatePem(),
                                                              options.viewerToken, "daemonscope-viewer"),
                             error)) {
            std::fprintf(stderr, "error: cannot write %s: %s\n", path.toUtf8().constData(),
                         error.toUtf8().constData());
            apiServer.stop();
            return 1;
        }
        std::printf("viewer kubeconfig (read-only user daemonscope-viewer): %s\n", path.toUtf8().constData());
    }
    if (options.tls)
        std::printf("TLS state (CA, certificate, token): %s\n", stateDir.toUtf8().constData());
    std::fflush(stdout);

    int received = 0;
    sigwait(&stopSignals, &received);
    apiServer.stop();
    std::printf("Stopped (%s).\n", received == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}

} // namespace app
