#include "app/cmdcontroller.h"

#include "app/clusterargs.h"
#include "app/usage.h"

#include "models/backend/liveconnection.h"
#include "models/client/httptransport.h"
#include "models/client/incluster.h"
#include "models/controllers/nodeupgradecontroller.h"
#include "models/liveupgrade/leaderelection.h"
#include "models/liveupgrade/liveupgradecluster.h"
#include "models/server/crd.h"

#include "models/kube/timeutil.h"

#include <QCommandLineParser>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace app {

namespace {

int usageError(const QString &message)
{
    std::fprintf(
        stderr,
        "error: %s\nUsage: daemonscope controller [--kubeconfig FILE] [--context NAME] [--in-cluster] "
        "[--lease-namespace NS] [--lease-name NAME] [--identity ID] [--lease-duration D] "
        "[--renew-deadline D] [--retry-period D] [--no-leader-election] [--print-crd]\n",
        message.toUtf8().constData());
    return 2;
}

std::string hostName()
{
    char buffer[256] = {};
    if (::gethostname(buffer, sizeof buffer - 1) != 0 || buffer[0] == 0)
        return "daemonscope";
    return buffer;
}

std::mutex g_outputMutex;

void say(const std::string &line)
{
    std::lock_guard lock(g_outputMutex);
    std::printf("%s %s\n",
                kube::formatRfc3339(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count())
                    .c_str(),
                line.c_str());
    std::fflush(stdout);
}

// Prints the controller's events as they are emitted (repeats included), after each pass.
class EventPrinter final : public controllers::NodeUpgradeObserver
{
public:
    explicit EventPrinter(const api::NodeUpgradeEvents &events) : m_events(events) {}
    void afterPass(const controllers::NodeUpgradePassReport &) override { flush(); }
    void flush()
    {
        const auto &emissions = m_events.emissions();
        for (; m_printed < emissions.size(); ++m_printed) {
            const auto &e = m_events.entries()[emissions[m_printed].second];
            say(e.type + " " + e.reason + " " + e.object + ": " + e.message);
        }
    }

private:
    const api::NodeUpgradeEvents &m_events;
    std::size_t m_printed = 0;
};

kube::Result<std::chrono::milliseconds> durationOption(const QCommandLineParser &parser, const QString &name)
{
    const auto d = kube::parseDuration(parser.value(name).toStdString());
    if (!d || *d <= 0)
        return kube::ApiStatus::badRequest("--" + name.toStdString() +
                                           ": expected a duration such as 15s, got \"" +
                                           parser.value(name).toStdString() + "\"");
    return std::chrono::milliseconds(*d);
}

// The controller on its loop thread: reads until synced, then runs passes until told to stop.
class ControllerRun
{
public:
    explicit ControllerRun(std::shared_ptr<client::KubeClient> client) : m_cluster(std::move(client)) {}
    ~ControllerRun() { stop(); }

    void start()
    {
        m_cluster.start();
        m_thread = std::thread([this] {
            if (!m_cluster.waitSynced(std::chrono::hours(24 * 365)) || m_stop.load())
                return;
            api::NodeUpgradeEvents events;
            std::map<std::string, controllers::NodeUpgradeMetrics> metrics;
            controllers::NodeUpgradeController controller(m_cluster, events, metrics);
            EventPrinter printer(events);
            controller.setObserver(&printer);
            say("controller: caches synced, acting on NodeUpgradeRollouts");
            m_cluster.run([this] { return m_stop.load(); });
            printer.flush();
        });
    }

    void stop()
    {
        m_stop = true;
        m_cluster.wake();
        m_cluster.stop();
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    models::LiveUpgradeCluster m_cluster;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

int cmdController(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run the node-upgrade controller against a cluster, leader-elected through a Lease."));
    parser.addHelpOption();
    const QCommandLineOption kubeconfigOption(
        QStringLiteral("kubeconfig"),
        QStringLiteral("Use this kubeconfig file alone (default: KUBECONFIG, then ~/.kube/config)."),
        QStringLiteral("FILE"));
    const QCommandLineOption contextOption(QStringLiteral("context"),
                                           QStringLiteral("The kubeconfig context."), QStringLiteral("NAME"));
    const QCommandLineOption inClusterOption(
        QStringLiteral("in-cluster"),
        QStringLiteral("Use the pod's service account (KUBERNETES_SERVICE_HOST/PORT and "
                       "/var/run/secrets/kubernetes.io/serviceaccount) instead of a kubeconfig."));
    const QCommandLineOption leaseNamespaceOption(
        QStringLiteral("lease-namespace"),
        QStringLiteral("Namespace of the Lease (default: the context's or the pod's namespace)."),
        QStringLiteral("NS"));
    const QCommandLineOption leaseNameOption(
        QStringLiteral("lease-name"),
        QStringLiteral("Name of the Lease (default %1).").arg(QLatin1String(api::kNodeUpgradeLeaseName)),
        QStringLiteral("NAME"), QLatin1String(api::kNodeUpgradeLeaseName));
    const QCommandLineOption identityOption(
        QStringLiteral("identity"),
        QStringLiteral("This replica's holder identity (default: host name and process id)."),
        QStringLiteral("ID"));
    const QCommandLineOption leaseDurationOption(
        QStringLiteral("lease-duration"),
        QStringLiteral(
            "How long candidates wait after the last renewal before taking the Lease (default 15s)."),
        QStringLiteral("D"), QStringLiteral("15s"));
    const QCommandLineOption renewDeadlineOption(
        QStringLiteral("renew-deadline"),
        QStringLiteral(
            "How long the leader keeps trying to renew before it stops acting and exits with status 3 "
            "(default 10s)."),
        QStringLiteral("D"), QStringLiteral("10s"));
    const QCommandLineOption retryPeriodOption(
        QStringLiteral("retry-period"),
        QStringLiteral("Time between attempts to take or renew the Lease (default 2s)."), QStringLiteral("D"),
        QStringLiteral("2s"));
    const QCommandLineOption noElectionOption(
        QStringLiteral("no-leader-election"),
        QStringLiteral("Act at once without a Lease (only when no other replica runs)."));
    const QCommandLineOption printCrdOption(
        QStringLiteral("print-crd"),
        QStringLiteral("Print the NodeUpgradeRollout CustomResourceDefinition (YAML) and exit."));
    parser.addOptions({printCrdOption, kubeconfigOption, contextOption, inClusterOption, leaseNamespaceOption,
                       leaseNameOption, identityOption, leaseDurationOption, renewDeadlineOption,
                       retryPeriodOption, noElectionOption, requestTimeoutOption()});
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);
    if (!parser.parse(args))
        return usageError(parseError(parser));
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(commandHelp(parser, QStringLiteral("controller")).toUtf8().constData(), stdout);
        return 0;
    }
    if (parser.isSet(printCrdOption)) {
        std::fputs(server::nodeUpgradeRolloutCrdYaml().c_str(), stdout);
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(
            QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));

    models::LeaderElectionOptions election;
    for (const auto &[option, target] : {std::pair{&leaseDurationOption, &election.leaseDuration},
                                         std::pair{&renewDeadlineOption, &election.renewDeadline},
                                         std::pair{&retryPeriodOption, &election.retryPeriod}}) {
        auto d = durationOption(parser, option->names().first());
        if (!d)
            return usageError(QString::fromStdString(d.error().message));
        *target = *d;
    }
    if (election.renewDeadline >= election.leaseDuration)
        return usageError(QStringLiteral("--renew-deadline must be shorter than --lease-duration"));
    if (election.retryPeriod >= election.renewDeadline)
        return usageError(QStringLiteral("--retry-period must be shorter than --renew-deadline"));
    auto timeout = ClusterArgs::parseRequestTimeout(parser.value(QStringLiteral("request-timeout")));
    if (!timeout)
        return usageError(QString::fromStdString(timeout.error().message));

    std::shared_ptr<client::KubeClient> client;
    std::string namespace_;
    if (parser.isSet(inClusterOption)) {
        if (parser.isSet(kubeconfigOption) || parser.isSet(contextOption))
            return usageError(QStringLiteral("--in-cluster does not take --kubeconfig or --context"));
        auto rest = client::inClusterConfig();
        if (!rest) {
            std::fprintf(stderr, "error: %s\n", rest.error().message.c_str());
            return 1;
        }
        namespace_ = rest->namespace_;
        client::HttpTransportOptions transportOptions;
        transportOptions.requestTimeout = *timeout;
        client = std::make_shared<client::KubeClient>(
            std::make_shared<client::HttpTransport>(*rest, transportOptions), namespace_);
    } else {
        auto connection =
            models::LiveConnection::open(parser.value(kubeconfigOption).toStdString(),
                                         parser.value(contextOption).toStdString(), {}, *timeout);
        if (!connection) {
            std::fprintf(stderr, "error: %s\n", connection.error().message.c_str());
            return 1;
        }
        client = connection->client;
        namespace_ = connection->namespace_;
    }
    election.namespace_ =
        parser.isSet(leaseNamespaceOption) ? parser.value(leaseNamespaceOption).toStdString() : namespace_;
    election.name = parser.value(leaseNameOption).toStdString();
    election.identity = parser.isSet(identityOption) ? parser.value(identityOption).toStdString()
                                                     : hostName() + "_" + std::to_string(::getpid());
    if (election.identity.empty())
        return usageError(QStringLiteral("--identity: expected a name"));

    // Blocked before any thread starts: every thread inherits the mask and the signals reach only
    // the waiter below.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::atomic<int> signalled{0};
    std::thread signalWaiter([&] {
        int received = 0;
        sigwait(&stopSignals, &received);
        signalled = received;
    });
    signalWaiter.detach(); // the process ends with it blocked in sigwait
    const auto sleepFor = [&](std::chrono::milliseconds d) {
        const auto until = std::chrono::steady_clock::now() + d;
        while (!signalled.load() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
                std::chrono::milliseconds(50), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                   until - std::chrono::steady_clock::now()) +
                                                   std::chrono::milliseconds(1)));
    };

    if (parser.isSet(noElectionOption)) {
        say("controller " + election.identity + ": no leader election, acting now");
        ControllerRun run(client);
        run.start();
        while (!signalled.load())
            sleepFor(std::chrono::milliseconds(200));
        run.stop();
        say(std::string("stopped (") + (signalled.load() == SIGINT ? "SIGINT" : "SIGTERM") + ")");
        return 0;
    }

    models::LeaderElector elector(client, election);
    say("controller " + election.identity + ": candidate for Lease " + election.namespace_ + "/" +
        election.name);
    std::string lastHolder = "-";
    std::string lastError;
    // Candidate: try until this replica holds the Lease.
    while (!signalled.load()) {
        auto r = elector.tryAcquireOrRenew();
        if (!r) {
            if (r.error().message != lastError)
                std::fprintf(stderr, "error: Lease %s/%s: %s\n", election.namespace_.c_str(),
                             election.name.c_str(), r.error().message.c_str());
            lastError = r.error().message;
        } else if (*r) {
            break;
        } else if (!elector.holder().empty() && elector.holder() != lastHolder) {
            lastHolder = elector.holder();
            say("waiting: Lease " + election.namespace_ + "/" + election.name + " is held by " + lastHolder);
        }
        sleepFor(election.retryPeriod);
    }
    if (signalled.load()) {
        say(std::string("stopped (") + (signalled.load() == SIGINT ? "SIGINT" : "SIGTERM") + ")");
        return 0;
    }
    say("leading: holds Lease " + election.namespace_ + "/" + election.name);
    ControllerRun run(client);
    run.start();
    // Leader: renew every retry period; stop acting when renewals fail for the renew deadline.
    while (!signalled.load()) {
        sleepFor(election.retryPeriod);
        if (signalled.load())
            break;
        auto r = elector.tryAcquireOrRenew();
        if (r && *r)
            continue;
        if (!r)
            std::fprintf(stderr, "error: renewing Lease %s/%s: %s\n", election.namespace_.c_str(),
                         election.name.c_str(), r.error().message.c_str());
        const bool lost =
            (r && !*r) || std::chrono::steady_clock::now() - elector.lastRenew() >= election.renewDeadline;
        if (lost) {
            // Stop acting at once, as client-go's OnStoppedLeading exits: a write the controller
            // has in flight may hang on the same unreachable server, so nothing is waited for.
            say("stopped leading: Lease " + election.namespace_ + "/" + election.name +
                (elector.holder().empty() || elector.holder() == election.identity
                     ? std::string(" not renewed")
                     : " taken by " + elector.holder()));
            std::fflush(stderr);
            std::_Exit(3);
        }
    }
    run.stop();
    if (auto released = elector.release(); !released)
        std::fprintf(stderr, "error: releasing Lease %s/%s: %s\n", election.namespace_.c_str(),
                     election.name.c_str(), released.error().message.c_str());
    say(std::string("stopped (") + (signalled.load() == SIGINT ? "SIGINT" : "SIGTERM") + "), Lease released");
    return 0;
}

} // namespace app
