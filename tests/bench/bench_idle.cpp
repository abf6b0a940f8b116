// The console at rest on a live cluster: `daemonscope serve` with 10,000 and 50,000 pods (2,000
// and 10,000 nodes x 5 DaemonSets, clock stopped), the real GUI (`daemonscope --kubeconfig FILE
// --context NAME -A`, offscreen) connected to it, and, once the GUI has loaded everything and
// settled, an idle window in which nothing changes on the cluster. Over that window it reports
// the GUI process's CPU (utime + stime from /proc/PID/stat, all threads), its wake-ups (context
// switches of all its threads), its RSS and peak RSS, and every HTTP request it made, split into
// watch requests (renewals of the watches it keeps open) and everything else.
//
// Requests are counted by a loopback TCP forwarder inside this program: the GUI's kubeconfig
// names the forwarder, which passes every byte on to the server and reads the request lines
// going through. "Loaded" means every watch is open (3 cluster-wide watches and a revision and
// a pod watch per DaemonSet: a watch starts after its list has been read), then --settle seconds
// pass before the window starts.
//
// Usage: bench_idle [--pods 10000,50000] [--seconds 60] [--settle 15] [--daemonscope PATH]
//                   [--compare PATH] [--scenario-clock]
// --scenario-clock serves the cluster at its scenario's own time (2026-01-01, `serve
// --scenario-clock`), so every event and revision is months old, as on a cluster where nothing
// happened lately; by default the scenario ends at the wall-clock now and its events are fresh,
// so their ages ("12s") change every second.
// --compare runs a second GUI binary (e.g. an older build) against the same server after the
// first, as the anchor of the same run. Only processes this program started are signalled.

#include "tests/support/benchcluster.h"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kDaemonSets = testsupport::kBenchDaemonSets;

std::string scenarioYaml(int nodes)
{
    return testsupport::benchScenarioYaml(nodes, "bench idle", true);
}

// ---- the counting forwarder -----------------------------------------------------------------

struct Request
{
    Clock::time_point time;
    std::string method;
    std::string target;
    bool watch() const
    {
        return target.find("watch=true") != std::string::npos || target.find("watch=1") != std::string::npos;
    }
};

class Forwarder
{
public:
    explicit Forwarder(int upstreamPort) : m_upstream(upstreamPort)
    {
        m_listen = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        const int one = 1;
        setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || listen(m_listen, 64) != 0) {
            std::perror("forwarder");
            std::exit(2);
        }
        socklen_t len = sizeof a;
        getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }

    ~Forwarder()
    {
        m_stop = true;
        m_acceptor.join();
        close(m_listen);
        for (auto &t : m_connections)
            t.join();
    }

    int port() const { return m_port; }

    std::vector<Request> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    void acceptLoop()
    {
        while (!m_stop) {
            pollfd p{m_listen, POLLIN, 0};
            if (poll(&p, 1, 200) <= 0)
                continue;
            const int client = accept(m_listen, nullptr, nullptr);
            if (client < 0)
                continue;
            const int server = socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            a.sin_port = htons(static_cast<uint16_t>(m_upstream));
            if (connect(server, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
                close(client);
                close(server);
                continue;
            }
            const int one = 1;
            setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            m_connections.emplace_back([this, client, server] { pump(client, server); });
        }
    }

    // Requests on one connection follow each other (HTTP/1.1): a header block, then
    // Content-Length bytes of body.
    void parse(std::string &buffer, std::size_t &bodyLeft)
    {
        for (;;) {
            if (bodyLeft > 0) {
                const std::size_t n = std::min(bodyLeft, buffer.size());
                buffer.erase(0, n);
                bodyLeft -= n;
                if (bodyLeft > 0)
                    return;
            }
            const std::size_t end = buffer.find("\r\n\r\n");
            if (end == std::string::npos)
                return;
            const std::string head = buffer.substr(0, end);
            buffer.erase(0, end + 4);
            std::istringstream lines(head);
            std::string line;
            std::getline(lines, line);
            Request r;
            r.time = Clock::now();
            std::istringstream first(line);
            first >> r.method >> r.target;
            while (std::getline(lines, line)) {
                std::string lower = line;
                std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
                if (lower.rfind("content-length:", 0) == 0)
                    bodyLeft = std::strtoull(line.c_str() + 15, nullptr, 10);
            }
            std::lock_guard lock(m_mutex);
            m_requests.push_back(std::move(r));
        }
    }

    void pump(int client, int server)
    {
        std::string pending;
        std::size_t bodyLeft = 0;
        char buf[65536];
        pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
        bool open = true;
        while (open && !m_stop) {
            if (poll(fds, 2, 200) <= 0)
                continue;
            for (int i = 0; i < 2 && open; ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                const ssize_t n = read(fds[i].fd, buf, sizeof buf);
                if (n <= 0) {
                    open = false;
                    break;
                }
                if (i == 0) {
                    pending.append(buf, std::size_t(n));
                    parse(pending, bodyLeft);
                }
                const int to = i == 0 ? server : client;
                for (ssize_t done = 0; done < n;) {
                    const ssize_t w = write(to, buf + done, std::size_t(n - done));
                    if (w <= 0) {
                        open = false;
                        break;
                    }
                    done += w;
                }
            }
        }
        close(client);
        close(server);
    }

    int m_upstream;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_acceptor;
    std::vector<std::thread> m_connections; // the acceptor's only
    mutable std::mutex m_mutex;
    std::vector<Request> m_requests;
};

// ---- /proc ------------------------------------------------------------------------------------

struct ProcSample
{
    double cpuSeconds = 0;  // utime + stime of every thread
    long long switches = 0; // voluntary + involuntary context switches of every thread
    double rssMb = 0;
    double peakMb = 0;
    int threads = 0;
    std::map<std::string, long long> switchesByThread; // "tid name" -> context switches
};

ProcSample sample(pid_t pid)
{
    ProcSample s;
    {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const std::size_t paren = all.rfind(')');
        if (paren != std::string::npos) {
            std::istringstream rest(all.substr(paren + 2));
            std::vector<std::string> f;
            std::string tok;
            while (rest >> tok)
                f.push_back(tok);
            // Fields from 3 on: utime is field 14, stime field 15.
            if (f.size() > 12)
                s.cpuSeconds = double(std::stoll(f[11]) + std::stoll(f[12])) / double(sysconf(_SC_CLK_TCK));
        }
    }
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            s.rssMb = std::atof(line.c_str() + 6) / 1024.0;
        else if (line.rfind("VmHWM:", 0) == 0)
            s.peakMb = std::atof(line.c_str() + 6) / 1024.0;
        else if (line.rfind("Threads:", 0) == 0)
            s.threads = std::atoi(line.c_str() + 8);
    }
    std::error_code ec;
    for (const auto &task :
         std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
        std::ifstream ts(task.path() / "status");
        std::string name;
        long long n = 0;
        while (std::getline(ts, line)) {
            if (line.rfind("Name:", 0) == 0)
                name = line.substr(line.find_first_not_of(" \t", 5));
            else if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
                n += std::atoll(line.c_str() + 24);
            else if (line.rfind("nonvoluntary_ctxt_switches:", 0) == 0)
                n += std::atoll(line.c_str() + 27);
        }
        s.switches += n;
        s.switchesByThread[task.path().filename().string() + " " + name] = n;
    }
    return s;
}

bool alive(pid_t pid)
{
    int status = 0;
    return waitpid(pid, &status, WNOHANG) == 0;
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to)
{
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string valueOf(const std::string &yaml, const std::string &key)
{
    std::istringstream in(yaml);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t at = line.find(key + ": ");
        if (at != std::string::npos)
            return line.substr(at + key.size() + 2);
    }
    return {};
}

struct Result
{
    std::string binary;
    double loadSeconds = -1; // GUI start until every watch is open
    double cpuPercent = 0;
    double wakeupsPerSecond = 0;
    double rssMb = 0;
    double peakMb = 0;
    int threads = 0;
    int watchRequests = 0;
    int otherRequests = 0;
    std::map<std::string, int> others;             // "GET /api/v1/pods" -> count
    std::map<std::string, double> wakeupsByThread; // thread name -> context switches per second
    double windowSeconds = 0;
    bool ok = false;
};

Result measureGui(const std::string &binary, const std::string &dir, const std::string &kubeconfig,
                  const std::string &context, Forwarder &forwarder, int seconds, int settle, int run)
{
    Result r;
    r.binary = binary;
    const std::string home = dir + "/home-" + std::to_string(run);
    std::filesystem::create_directories(home);
    const std::string log = dir + "/gui-" + std::to_string(run) + ".log";
    const std::size_t before = forwarder.requests().size();
    const auto start = Clock::now();
    const pid_t gui = fork();
    if (gui == 0) {
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        setenv("HOME", home.c_str(), 1);
        setenv("XDG_CONFIG_HOME", (home + "/.config").c_str(), 1);
        setenv("XDG_DATA_HOME", (home + "/.local/share").c_str(), 1);
        setenv("XDG_CACHE_HOME", (home + "/.cache").c_str(), 1);
        unsetenv("KUBECONFIG");
        const std::string history = home + "/history.sqlite";
        execl(binary.c_str(), binary.c_str(), "--kubeconfig", kubeconfig.c_str(), "--context",
              context.c_str(), "-A", "--history-db", history.c_str(), static_cast<char *>(nullptr));
        std::perror("exec daemonscope");
        _exit(127);
    }
    // Loaded: the cluster-wide watches and a revision and a pod watch per DaemonSet are open.
    const int expectedWatches = 3 + 2 * kDaemonSets;
    while (alive(gui)) {
        const auto all = forwarder.requests();
        int watches = 0;
        for (std::size_t i = before; i < all.size(); ++i)
            watches += all[i].watch() ? 1 : 0;
        if (watches >= expectedWatches) {
            r.loadSeconds = std::chrono::duration<double>(Clock::now() - start).count();
            break;
        }
        if (Clock::now() - start > std::chrono::minutes(10))
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (r.loadSeconds < 0) {
        std::fprintf(stderr, "the GUI did not open every watch (log: %s)\n", log.c_str());
        if (alive(gui)) {
            kill(gui, SIGTERM);
            waitpid(gui, nullptr, 0);
        }
        return r;
    }
    std::this_thread::sleep_for(std::chrono::seconds(settle));

    const auto t0 = Clock::now();
    const ProcSample s0 = sample(gui);
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const ProcSample s1 = sample(gui);
    const auto t1 = Clock::now();
    r.windowSeconds = std::chrono::duration<double>(t1 - t0).count();
    r.cpuPercent = 100.0 * (s1.cpuSeconds - s0.cpuSeconds) / r.windowSeconds;
    r.wakeupsPerSecond = double(s1.switches - s0.switches) / r.windowSeconds;
    for (const auto &[thread, n] : s1.switchesByThread) {
        const auto before = s0.switchesByThread.find(thread);
        const long long d = n - (before == s0.switchesByThread.end() ? 0 : before->second);
        const std::string name = thread.substr(thread.find(' ') + 1);
        if (d > 0)
            r.wakeupsByThread[name] += double(d) / r.windowSeconds;
    }
    r.rssMb = s1.rssMb;
    r.peakMb = s1.peakMb;
    r.threads = s1.threads;
    for (const Request &q : forwarder.requests()) {
        if (q.time < t0 || q.time > t1)
            continue;
        if (q.watch()) {
            ++r.watchRequests;
        } else {
            ++r.otherRequests;
            ++r.others[q.method + " " + q.target.substr(0, q.target.find('?'))];
        }
    }
    r.ok = alive(gui);
    if (r.ok) {
        kill(gui, SIGTERM);
        int status = 0;
        waitpid(gui, &status, 0);
    } else {
        std::fprintf(stderr, "the GUI ended during the window (log: %s)\n", log.c_str());
    }
    return r;
}

std::string selfDir()
{
    return std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> podCounts = {10000, 50000};
    int seconds = 60;
    int settle = 15;
    std::vector<std::string> binaries = {selfDir() + "/../../app/daemonscope"};
    std::string compare;
    bool scenarioClock = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--pods" && more) {
            podCounts.clear();
            std::istringstream list(argv[++i]);
            std::string item;
            while (std::getline(list, item, ','))
                podCounts.push_back(std::max(kDaemonSets, std::atoi(item.c_str())));
        } else if (a == "--seconds" && more) {
            seconds = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--settle" && more) {
            settle = std::max(0, std::atoi(argv[++i]));
        } else if (a == "--daemonscope" && more) {
            binaries.front() = argv[++i];
        } else if (a == "--compare" && more) {
            compare = argv[++i];
        } else if (a == "--scenario-clock") {
            scenarioClock = true;
        } else {
            std::fprintf(stderr, "usage: bench_idle [--pods 10000,50000] [--seconds 60] [--settle 15] "
                                 "[--daemonscope PATH] [--compare PATH] [--scenario-clock]\n");
            return 2;
        }
    }
    if (!compare.empty())
        binaries.push_back(compare);
    const std::string server = binaries.front();
    std::signal(SIGPIPE, SIG_IGN);

    std::vector<std::pair<int, Result>> results;
    for (const int wanted : podCounts) {
        const int nodes = std::max(1, wanted / kDaemonSets);
        const int pods = nodes * kDaemonSets;
        char dirTemplate[] = "/tmp/bench_idle.XXXXXX";
        const std::string dir = mkdtemp(dirTemplate);
        const std::string scenario = dir + "/cluster.yaml";
        const std::string serveKubeconfig = dir + "/serve.kubeconfig";
        std::ofstream(scenario) << scenarioYaml(nodes);
        std::filesystem::create_directory(dir + "/serve-home");

        int out[2];
        if (pipe(out) != 0)
            return 2;
        const pid_t serve = fork();
        if (serve == 0) {
            dup2(out[1], STDOUT_FILENO);
            close(out[0]);
            setenv("HOME", (dir + "/serve-home").c_str(), 1);
            execl(server.c_str(), server.c_str(), "serve", "--scenario", scenario.c_str(), "--speed", "0",
                  "--listen", "127.0.0.1:0", "--kubeconfig-out", serveKubeconfig.c_str(),
                  scenarioClock ? "--scenario-clock" : static_cast<char *>(nullptr),
                  static_cast<char *>(nullptr));
            std::perror("exec daemonscope serve");
            _exit(127);
        }
        close(out[1]);
        std::string banner;
        char buf[512];
        while (banner.find("kubeconfig: ") == std::string::npos) {
            const ssize_t n = read(out[0], buf, sizeof buf);
            if (n <= 0) {
                std::fprintf(stderr, "daemonscope serve did not start (%s)\n", server.c_str());
                return 2;
            }
            banner.append(buf, std::size_t(n));
        }
        std::ifstream in(serveKubeconfig);
        const std::string config((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string url = valueOf(config, "server");
        const std::string context = valueOf(config, "current-context");
        const std::size_t colon = url.rfind(':');
        if (url.rfind("http://", 0) != 0 || colon == std::string::npos || context.empty()) {
            std::fprintf(stderr, "unexpected kubeconfig from serve: %s\n", serveKubeconfig.c_str());
            return 2;
        }
        Forwarder forwarder(std::atoi(url.c_str() + colon + 1));
        const std::string kubeconfig = dir + "/gui.kubeconfig";
        std::ofstream(kubeconfig) << replaceAll(config, url,
                                                "http://127.0.0.1:" + std::to_string(forwarder.port()));
        std::printf("daemonscope serve --speed 0: %d nodes x %d DaemonSets = %d pods (%s)\n", nodes,
                    kDaemonSets, pods, server.c_str());
        int run = 0;
        for (const std::string &binary : binaries) {
            const ProcSample serveBefore = sample(serve);
            Result r = measureGui(binary, dir, kubeconfig, context, forwarder, seconds, settle, ++run);
            const ProcSample serveAfter = sample(serve);
            std::printf(
                "  GUI %s: watching after %.1f s; idle %.0f s: CPU %.2f %%, %.1f wake-ups/s, RSS %.0f MB "
                "(peak %.0f MB), %d threads; requests %d watch, %d other; serve CPU over the run "
                "%.1f s\n",
                binary.c_str(), r.loadSeconds, r.windowSeconds, r.cpuPercent, r.wakeupsPerSecond, r.rssMb,
                r.peakMb, r.threads, r.watchRequests, r.otherRequests,
                serveAfter.cpuSeconds - serveBefore.cpuSeconds);
            for (const auto &[what, n] : r.others)
                std::printf("    %4d x %s\n", n, what.c_str());
            std::printf("    wake-ups/s by thread:");
            for (const auto &[thread, perSecond] : r.wakeupsByThread)
                std::printf(" %s %.1f;", thread.c_str(), perSecond);
            std::printf("\n");
            std::fflush(stdout);
            results.emplace_back(pods, std::move(r));
        }
        kill(serve, SIGTERM);
        waitpid(serve, nullptr, 0);
        std::filesystem::remove_all(dir);
    }

    std::printf("\n%-7s %-46s %8s %7s %9s %9s %9s %11s %11s\n", "pods", "GUI binary", "load s", "CPU %",
                "wakeup/s", "RSS MB", "peak MB", "watch/min", "other/min");
    for (const auto &[pods, r] : results) {
        const double perMinute = r.windowSeconds > 0 ? 60.0 / r.windowSeconds : 0;
        std::string shown = r.binary.size() > 46 ? "…" + r.binary.substr(r.binary.size() - 45) : r.binary;
        std::printf("%-7d %-46s %8.1f %7.2f %9.1f %9.0f %9.0f %11.2f %11.2f%s\n", pods, shown.c_str(),
                    r.loadSeconds, r.cpuPercent, r.wakeupsPerSecond, r.rssMb, r.peakMb,
                    r.watchRequests * perMinute, r.otherRequests * perMinute, r.ok ? "" : "  (FAILED)");
    }
    return 0;
}
