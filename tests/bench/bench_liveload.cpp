// Loading a big cluster from an API server: time and peak RSS to list 50,000 pods (10,000 nodes
// x 5 DaemonSets by default) from `daemonscope serve`, (1) through the client library
// (KubeClient::list<Pod>: pages of 500, SAX-decoded into compact pods), (2) through a
// LiveBackend until its first snapshot holds every pod, and (3) with
// `kubectl get pods -A -o json > /dev/null` against the same server. The client and kubectl
// lists are also measured unpaged (limit 0, `--chunk-size=0`): the ratio paged/unpaged is what
// paging costs on this server. Each measurement runs in a child process of its own so its peak
// RSS is its alone (wait4's ru_maxrss).
//
// Usage: bench_liveload [pods=50000] [--daemonscope PATH] [--kubectl PATH]
// The scenario is generated into a temporary folder; the server listens on a free loopback port
// and is stopped (SIGTERM, by its pid) at the end.

#include "tests/support/benchcluster.h"

#include "models/backend/livebackend.h"
#include "models/client/httptransport.h"
#include "models/client/kubeclient.h"
#include "models/client/kubeconfig.h"
#include "models/kube/jsonfield.h"
#include "models/kube/pod.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kDaemonSets = testsupport::kBenchDaemonSets;

std::string scenarioYaml(int nodes)
{
    return testsupport::benchScenarioYaml(nodes, "bench", false);
}

struct Measurement
{
    double ms = 0;
    double peakMb = 0;
    int exitCode = -1;
};

// Runs fn in a child process; wall time and the child's peak RSS.
template <typename F> Measurement measure(F &&fn)
{
    std::fflush(stdout);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int rc = fn();
        std::fflush(stdout);
        _exit(rc);
    }
    Measurement m;
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    m.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    m.peakMb = double(ru.ru_maxrss) / 1024.0;
    m.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return m;
}

int loadWithClient(const std::string &kubeconfig, int expected, int limit)
{
    client::KubeconfigOptions ko;
    ko.explicitPath = kubeconfig;
    auto config = client::Kubeconfig::load(ko);
    auto rest = config ? config->resolve(ko) : kube::Result<client::RestConfig>(config.error());
    if (!rest) {
        std::fprintf(stderr, "%s\n", rest.error().message.c_str());
        return 2;
    }
    client::KubeClient kc(std::make_shared<client::HttpTransport>(*rest));
    client::ListOptions options;
    options.limit = limit;
    auto pods = kc.list<kube::Pod>("", options);
    if (!pods) {
        std::fprintf(stderr, "%s\n", pods.error().message.c_str());
        return 2;
    }
    std::printf("  client listed %zu pods\n", pods->items.size());
    return int(pods->items.size()) == expected ? 0 : 1;
}

// The LiveBackend's requests as the server answers them: per list (path and selector), its
// pages, when the first started and the last ended (from the backend's start), the time spent
// waiting for answers and the bytes; what lies between pages is the client's decoding.
class TimingTransport : public client::Transport
{
public:
    explicit TimingTransport(std::shared_ptr<client::Transport> inner) : m_inner(std::move(inner)) {}

    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        std::string key = method + " " + path;
        for (const auto &[k, v] : query)
            if (k == "labelSelector" || k == "fieldSelector" || k == "limit")
                key += " " + k + "=" + v;
        const double t0 = sinceStart();
        auto r = m_inner->request(method, path, query, body, contentType, accept, options);
        const double t1 = sinceStart();
        std::lock_guard lock(m_mutex);
        List &l = m_lists[key];
        if (l.pages == 0)
            l.first = t0;
        ++l.pages;
        l.last = t1;
        l.waiting += t1 - t0;
        l.bytes += r ? r->body.size() : 0;
        l.failed += r ? 0 : 1;
        return r;
    }
    kube::Result<void> watch(const std::string &path, const client::Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel,
                             const client::RequestOptions &options = {}) override
    {
        return m_inner->watch(path, query, onLine, cancel, options);
    }
    void interrupt(const std::atomic<bool> &cancel) override { m_inner->interrupt(cancel); }
    std::string server() const override { return m_inner->server(); }

    void print() const
    {
        std::lock_guard lock(m_mutex);
        for (const auto &[key, l] : m_lists)
            std::printf("    %-72s %3d pages  %6.0f .. %6.0f ms  waiting %6.0f ms  %6.1f MB%s\n", key.c_str(),
                        l.pages, l.first, l.last, l.waiting, double(l.bytes) / 1e6,
                        l.failed ? "  (FAILED)" : "");
    }

private:
    struct List
    {
        int pages = 0;
        int failed = 0;
        double first = 0, last = 0, waiting = 0;
        std::size_t bytes = 0;
    };
    double sinceStart() const
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
    }

    std::shared_ptr<client::Transport> m_inner;
    const std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    mutable std::mutex m_mutex;
    std::map<std::string, List> m_lists;
};

// Until the first snapshot that holds every pod and node, each DaemonSet's revisions and the
// events.
int loadWithBackend(const std::string &kubeconfig, int expected, int expectedNodes)
{
    int argc = 1;
    char name[] = "bench_liveload";
    char *argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    models::LiveBackendOptions options;
    options.kubeconfig = QString::fromStdString(kubeconfig);
    options.allNamespaces = true;
    std::shared_ptr<TimingTransport> timing;
    options.transportFactory = [&timing](const client::RestConfig &config) {
        timing = std::make_shared<TimingTransport>(std::make_shared<client::HttpTransport>(config));
        return timing;
    };
    QElapsedTimer clock;
    clock.start();
    auto owned = std::make_unique<models::LiveBackend>(options);
    models::LiveBackend &backend = *owned;
    int result = 1;
    std::string lastCounts;
    QObject::connect(&backend, &models::ClusterBackend::snapshotReady, &app, [&](models::SnapshotPtr s) {
        std::size_t pods = 0;
        for (const auto &ds : s->daemonSets)
            pods += ds.pods->size();
        const std::string counts = std::to_string(s->daemonSets.size()) + " DaemonSets, " +
                                   std::to_string(pods) + " pods, " + std::to_string(s->nodes->size()) +
                                   " nodes, " + std::to_string(s->events->size()) + " events";
        if (counts != lastCounts)
            std::printf("    %6lld ms  snapshot %llu: %s\n", static_cast<long long>(clock.elapsed()),
                        static_cast<unsigned long long>(s->sequence), counts.c_str());
        lastCounts = counts;
        bool revisions = !s->daemonSets.empty();
        for (const auto &ds : s->daemonSets)
            revisions = revisions && !ds.revisions->empty();
        if (int(pods) >= expected && int(s->nodes->size()) >= expectedNodes && revisions &&
            !s->events->empty()) {
            std::printf("  backend snapshot holds %zu pods of %zu DaemonSets on %zu nodes\n", pods,
                        s->daemonSets.size(), s->nodes->size());
            result = 0;
            app.quit();
        }
    });
    QTimer::singleShot(300000, &app, &QCoreApplication::quit);
    app.exec();
    // Shutting down with every watch open: what closing the console costs.
    const auto t0 = std::chrono::steady_clock::now();
    owned.reset();
    std::printf("  backend shut down in %.0f ms\n",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (timing)
        timing->print();
    return result;
}

// The server's resident set, from /proc.
double rssMb(pid_t pid)
{
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atof(line.c_str() + 6) / 1024.0;
    return 0;
}

// The first page of a pod list, as the list's cost on the server: the best of five, in ms.
double firstPageMs(client::Transport &t, const client::Query &query)
{
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = t.request("GET", "/api/v1/pods", query, {}, {}, "application/json");
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (!r)
            return -1;
        best = std::min(best, ms);
    }
    return best;
}

// What lists leave behind in the server: its RSS after `rounds` complete paged lists of every
// pod, and after as many lists abandoned after their first page (each keeps its pinned
// resourceVersion for its continue token, up to five minutes or 64 lists); and the slowest page
// of those complete lists, continue pages included.
void serverMemory(client::Transport &t, pid_t server, int rounds)
{
    const double before = rssMb(server);
    double slowest = 0;
    for (int i = 0; i < rounds; ++i) {
        std::string cont;
        do {
            client::Query q = {{"limit", "500"}};
            if (!cont.empty())
                q.push_back({"continue", cont});
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = t.request("GET", "/api/v1/pods", q, {}, {}, "application/json");
            slowest = std::max(
                slowest,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            if (!r)
                return;
            const auto body = kube::Json::parse(r->body, nullptr, false);
            cont = body.is_object() && body.contains("metadata")
                       ? kube::stringOr(body["metadata"], "continue")
                       : std::string();
        } while (!cont.empty());
    }
    const double completed = rssMb(server);
    for (int i = 0; i < rounds; ++i)
        (void)t.request("GET", "/api/v1/pods", {{"limit", "500"}}, {}, {}, "application/json");
    const double abandoned = rssMb(server);
    std::printf("serve   RSS %7.1f MB; after %d complete paged lists %7.1f MB (%+.1f, slowest page %.1f ms); "
                "after %d lists abandoned after the first page %7.1f MB (%+.1f)\n",
                before, rounds, completed, completed - before, slowest, rounds, abandoned,
                abandoned - completed);
}

std::string selfDir()
{
    return std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
}

} // namespace

int main(int argc, char **argv)
{
    int pods = 50000;
    std::string daemonscope = selfDir() + "/../../app/daemonscope";
    std::string kubectl;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--daemonscope" && i + 1 < argc)
            daemonscope = argv[++i];
        else if (a == "--kubectl" && i + 1 < argc)
            kubectl = argv[++i];
        else
            pods = std::atoi(argv[i]);
    }
    if (kubectl.empty()) {
        for (const char *candidate :
             {"/usr/local/bin/kubectl", "/usr/lib/google-cloud-sdk/bin/kubectl.1.32", "/usr/bin/kubectl"})
            if (access(candidate, X_OK) == 0) {
                kubectl = candidate;
                break;
            }
    }
    const int nodes = std::max(1, pods / kDaemonSets);
    pods = nodes * kDaemonSets;

    char dirTemplate[] = "/tmp/bench_liveload.XXXXXX";
    const std::string dir = mkdtemp(dirTemplate);
    const std::string scenario = dir + "/cluster.yaml";
    const std::string kubeconfig = dir + "/kubeconfig";
    std::ofstream(scenario) << scenarioYaml(nodes);
    std::filesystem::create_directory(dir + "/home");

    // The server, its stdout on a pipe until it has written the kubeconfig.
    int out[2];
    if (pipe(out) != 0)
        return 2;
    const auto serveStart = std::chrono::steady_clock::now();
    const pid_t server = fork();
    if (server == 0) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        execl(daemonscope.c_str(), daemonscope.c_str(), "serve", "--scenario", scenario.c_str(), "--speed",
              "0", "--listen", "127.0.0.1:0", "--kubeconfig-out", kubeconfig.c_str(),
              static_cast<char *>(nullptr));
        std::perror("exec daemonscope");
        _exit(127);
    }
    close(out[1]);
    std::string banner;
    char buf[512];
    while (banner.find("kubeconfig: ") == std::string::npos) {
        const ssize_t n = read(out[0], buf, sizeof buf);
        if (n <= 0) {
            std::fprintf(stderr, "daemonscope serve did not start (%s)\n", daemonscope.c_str());
            return 2;
        }
        banner.append(buf, std::size_t(n));
    }
    const double serveMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - serveStart).count();
    std::printf(
        "daemonscope serve --scenario %s --speed 0: %d nodes, %d DaemonSets, %d pods, ready after %.0f ms\n",
        scenario.c_str(), nodes, kDaemonSets, pods, serveMs);

    {
        client::KubeconfigOptions ko;
        ko.explicitPath = kubeconfig;
        auto config = client::Kubeconfig::load(ko);
        auto rest = config ? config->resolve(ko) : kube::Result<client::RestConfig>(config.error());
        if (rest) {
            client::HttpTransport t(*rest);
            std::printf(
                "serve   first page of 500 pods %6.1f ms; of one DaemonSet's pods (labelSelector) %6.1f ms; "
                "of one node's pods (fieldSelector spec.nodeName) %6.1f ms\n",
                firstPageMs(t, {{"limit", "500"}}),
                firstPageMs(t, {{"limit", "500"}, {"labelSelector", "app=agent-0"}}),
                firstPageMs(t, {{"limit", "500"}, {"fieldSelector", "spec.nodeName=node-0"}}));
            serverMemory(t, server, 5);
        }
    }
    for (const int limit : {500, 0}) {
        const Measurement c = measure([&] { return loadWithClient(kubeconfig, pods, limit); });
        std::printf(
            "client  KubeClient::list<Pod>(all namespaces, %-14s, SAX)  %8.0f ms  peak RSS %7.1f MB%s\n",
            limit ? "pages of 500" : "unpaged", c.ms, c.peakMb, c.exitCode == 0 ? "" : "  (FAILED)");
    }
    const Measurement b = measure([&] { return loadWithBackend(kubeconfig, pods, nodes); });
    std::printf(
        "backend LiveBackend, all namespaces, until the first full snapshot %8.0f ms  peak RSS %7.1f MB%s\n",
        b.ms, b.peakMb, b.exitCode == 0 ? "" : "  (FAILED)");
    if (!kubectl.empty()) {
        for (const char *chunk : {"--chunk-size=500", "--chunk-size=0"}) {
            const Measurement k = measure([&] {
                const int devnull = open("/dev/null", O_WRONLY);
                dup2(devnull, STDOUT_FILENO);
                setenv("HOME", (dir + "/home").c_str(), 1);
                execl(kubectl.c_str(), kubectl.c_str(), "--kubeconfig", kubeconfig.c_str(), "get", "pods",
                      "-A", "-o", "json", chunk, static_cast<char *>(nullptr));
                return 127;
            });
            std::printf(
                "kubectl %s --kubeconfig %s get pods -A -o json %s > /dev/null  %8.0f ms  peak RSS %7.1f "
                "MB%s\n",
                kubectl.c_str(), kubeconfig.c_str(), chunk, k.ms, k.peakMb,
                k.exitCode == 0 ? "" : "  (FAILED)");
        }
    } else {
        std::printf("kubectl: not found (--kubectl PATH)\n");
    }
    kill(server, SIGTERM);
    waitpid(server, nullptr, 0);
    std::filesystem::remove_all(dir);
    return 0;
}
