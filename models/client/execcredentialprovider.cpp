#include "models/client/execcredentialprovider.h"
#include "models/kube/jsonfield.h"

#include "models/client/base64.h"
#include "models/kube/gojson.h"
#include "models/kube/jsonlimits.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace client {

using kube::ApiStatus;
using kube::Result;

namespace {

ApiStatus pluginError(const std::string &message)
{
    return {0, "ExecPluginFailed", message};
}

std::string trimmedTail(const std::string &s, std::size_t limit)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    std::string t = s.substr(b, e - b + 1);
    if (t.size() > limit)
        t = "..." + t.substr(t.size() - limit);
    return t;
}

kube::Timestamp systemNow()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Closes both ends of a pipe on scope exit unless released.
struct Pipe
{
    int fd[2] = {-1, -1};
    ~Pipe()
    {
        for (int f : fd)
            if (f >= 0)
                ::close(f);
    }
    bool open() { return ::pipe2(fd, O_CLOEXEC) == 0; }
    void closeEnd(int i)
    {
        if (fd[i] >= 0)
            ::close(fd[i]);
        fd[i] = -1;
    }
};

// Environment: inherited, then the plugin's own variables (replacing same-named ones), then
// KUBERNETES_EXEC_INFO.
std::vector<std::string> pluginEnvironment(const ExecConfig &cfg, bool interactive)
{
    std::vector<std::string> env;
    auto setVar = [&](const std::string &name, const std::string &value) {
        const std::string prefix = name + "=";
        for (auto &e : env)
            if (e.compare(0, prefix.size(), prefix) == 0) {
                e = prefix + value;
                return;
            }
        env.push_back(prefix + value);
    };
    for (char **e = environ; e && *e; ++e)
        env.emplace_back(*e);
    for (const auto &[name, value] : cfg.env)
        setVar(name, value);
    setVar("KUBERNETES_EXEC_INFO", ExecCredentialProvider::execInfo(cfg, interactive));
    return env;
}

// The null-terminated array of C strings posix_spawn takes; points into `strings`.
std::vector<char *> nullTerminated(std::vector<std::string> &strings)
{
    std::vector<char *> out;
    for (auto &s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Starts the plugin with its stdout and stderr on the pipes (whose write ends are closed here
// once it runs), and stdin on /dev/null unless it may be interactive.
Result<pid_t> spawnPlugin(const ExecConfig &cfg, const std::string &who, bool interactive, Pipe &out,
                          Pipe &err, std::vector<char *> &argv, std::vector<char *> &envp)
{
    if (!out.open() || !err.open())
        return pluginError(who + ": cannot create pipes: " + std::strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (!interactive)
        posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out.fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, err.fd[1], STDERR_FILENO);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, cfg.command.c_str(), &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        std::string msg = who + " could not be started: " + std::strerror(rc);
        if (rc == ENOENT && !cfg.installHint.empty())
            msg += ". " + trimmedTail(cfg.installHint, 1000);
        return pluginError(msg);
    }
    out.closeEnd(1);
    err.closeEnd(1);
    return pid;
}

// Reads both pipes until the plugin closes them or `timeout` passes; true when it passed.
bool readOutput(Pipe &out, Pipe &err, std::chrono::milliseconds timeout, std::string &stdoutText,
                std::string &stderrText)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool timedOut = false;
    while (out.fd[0] >= 0 || err.fd[0] >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd fds[2];
        int n = 0;
        if (out.fd[0] >= 0)
            fds[n++] = {out.fd[0], POLLIN, 0};
        if (err.fd[0] >= 0)
            fds[n++] = {err.fd[0], POLLIN, 0};
        const int pr = ::poll(fds, n, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (pr < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[4096];
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            const bool isOut = fds[i].fd == out.fd[0];
            if (got > 0) {
                (isOut ? stdoutText : stderrText).append(buf, static_cast<std::size_t>(got));
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                (isOut ? out : err).closeEnd(0);
            }
        }
    }
    return timedOut;
}

// The tail of the plugin's stderr for a message.
std::string shownStderr(const std::string &stderrText, const ExecConfig &cfg)
{
    // A plugin that fails may print its environment; the kubeconfig's values for it stay out.
    std::string errText = trimmedTail(stderrText, 2000);
    for (const auto &[name, value] : cfg.env) {
        if (value.size() < 4)
            continue;
        for (auto at = errText.find(value); at != std::string::npos; at = errText.find(value, at))
            errText.replace(at, value.size(), "[redacted]");
    }
    return errText;
}

} // namespace

ExecCredentialProvider::ExecCredentialProvider(ExecConfig config, Clock clock,
                                               std::chrono::milliseconds timeout,
                                               std::optional<bool> terminalAvailable)
    : m_config(std::move(config)), m_clock(clock ? std::move(clock) : Clock(systemNow)), m_timeout(timeout),
      m_terminal(terminalAvailable ? *terminalAvailable : ::isatty(STDIN_FILENO) == 1)
{}

Result<ExecCredential> ExecCredentialProvider::credential()
{
    std::lock_guard lock(m_mutex);
    if (m_cached && (!m_cached->expiry || m_clock() < *m_cached->expiry))
        return *m_cached;
    m_cached.reset();
    auto cred = run();
    if (!cred)
        return cred.error();
    m_cached = *cred;
    return cred;
}

void ExecCredentialProvider::invalidate()
{
    std::lock_guard lock(m_mutex);
    m_cached.reset();
}

int ExecCredentialProvider::runCount() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

std::string ExecCredentialProvider::execInfo(const ExecConfig &config, bool interactive)
{
    kube::Json spec = {{"interactive", interactive}};
    if (config.provideClusterInfo) {
        kube::Json cluster = {{"server", config.server}};
        if (!config.caPem.empty())
            cluster["certificate-authority-data"] = encodeBase64(config.caPem);
        if (!config.tlsServerName.empty())
            cluster["tls-server-name"] = config.tlsServerName;
        if (config.insecureSkipTlsVerify)
            cluster["insecure-skip-tls-verify"] = true;
        if (!config.proxyUrl.empty())
            cluster["proxy-url"] = config.proxyUrl;
        if (config.disableCompression)
            cluster["disable-compression"] = true;
        if (!config.clusterConfig.is_null())
            cluster["config"] = config.clusterConfig;
        spec["cluster"] = std::move(cluster);
    }
    return kube::Json{{"kind", "ExecCredential"}, {"apiVersion", config.apiVersion}, {"spec", spec}}.dump();
}

Result<ExecCredential> ExecCredentialProvider::parse(const ExecConfig &config, const std::string &output)
{
    const std::string who = "exec plugin \"" + config.command + "\" (user \"" + config.userName + "\")";
    // The output holds the credential, so neither it nor a parser message quoting it is shown.
    auto parsed = kube::JsonLimits::parse(output);
    if (!parsed || !parsed->is_object())
        return pluginError(who + " did not print an ExecCredential JSON object on stdout");
    const kube::Json &j = *parsed;
    const std::string kind = kube::stringOr(j, "kind");
    if (kind != "ExecCredential")
        return pluginError(who + " printed kind \"" + kind + "\", expected ExecCredential");
    const std::string apiVersion = j.contains("apiVersion") && j["apiVersion"].is_string()
                                       ? j["apiVersion"].get<std::string>()
                                       : std::string();
    if (apiVersion != config.apiVersion)
        return pluginError(who + " answered with apiVersion \"" + apiVersion +
                           "\", but the kubeconfig asks for " + config.apiVersion);
    auto st = j.find("status");
    if (st == j.end() || !st->is_object())
        return pluginError(who + " printed an ExecCredential without status");
    ExecCredential c;
    auto str = [&](const char *key) {
        auto it = st->find(key);
        return it != st->end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    c.token = str("token");
    c.clientCertPem = str("clientCertificateData");
    c.clientKeyPem = str("clientKeyData");
    if (c.clientCertPem.empty() != c.clientKeyPem.empty())
        return pluginError(
            who + " returned only one of clientCertificateData and clientKeyData; both are required");
    if (c.token.empty() && c.clientCertPem.empty())
        return pluginError(who + " returned neither a token nor clientCertificateData/clientKeyData");
    const std::string exp = str("expirationTimestamp");
    if (!exp.empty()) {
        auto t = kube::parseRfc3339(exp);
        if (!t)
            return pluginError(who + " returned an invalid expirationTimestamp \"" + exp + "\"");
        c.expiry = *t;
    }
    return c;
}

Result<ExecCredential> ExecCredentialProvider::run()
{
    const ExecConfig &cfg = m_config;
    const std::string who = "exec plugin \"" + cfg.command + "\" (user \"" + cfg.userName + "\")";
    const bool interactive = m_terminal && cfg.interactiveMode != InteractiveMode::Never;
    if (cfg.interactiveMode == InteractiveMode::Always && !m_terminal)
        return pluginError(who +
                           " requires an interactive terminal (interactiveMode: Always), and none is "
                           "available; log in once from a terminal or set interactiveMode: IfAvailable");
    ++m_runs;

    std::vector<std::string> env = pluginEnvironment(cfg, interactive);
    std::vector<char *> envp = nullTerminated(env);
    std::vector<std::string> argStore;
    argStore.push_back(cfg.command);
    argStore.insert(argStore.end(), cfg.args.begin(), cfg.args.end());
    std::vector<char *> argv = nullTerminated(argStore);

    Pipe out, err;
    const auto pid = spawnPlugin(cfg, who, interactive, out, err, argv, envp);
    if (!pid)
        return pid.error();

    std::string stdoutText, stderrText;
    const bool timedOut = readOutput(out, err, m_timeout, stdoutText, stderrText);
    if (timedOut)
        ::kill(*pid, SIGKILL);
    int status = 0;
    while (::waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string errText = shownStderr(stderrText, cfg);
    if (timedOut)
        return pluginError(who + " did not finish within " + kube::formatDuration(m_timeout.count()) +
                           (errText.empty() ? std::string() : ": " + errText));
    if (WIFSIGNALED(status))
        return pluginError(who + " was killed by signal " + std::to_string(WTERMSIG(status)) +
                           (errText.empty() ? std::string() : ": " + errText));
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code != 0)
        return pluginError(who + " failed with exit code " + std::to_string(code) +
                           (errText.empty() ? std::string() : ": " + errText));
    return parse(cfg, stdoutText);
}

} // namespace client
