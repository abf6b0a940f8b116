#pragma once
// ExecCredentialProvider — runs a kubeconfig `exec` credential plugin and caches what it
// prints. The credential is reused until its expirationTimestamp has passed or until the
// transport reports a 401 through invalidate(); the next request then runs the plugin again
// (client-go does not retry the failed request either).
//
// The plugin runs with stdin on /dev/null unless a terminal is available and interactiveMode
// allows it; its stdout is parsed, its stderr kept for error messages. Messages name the
// command and exit code and never contain the credential.

#include "models/client/execconfig.h"
#include "models/kube/result.h"
#include "models/kube/timeutil.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace client {

struct ExecCredential
{
    std::string token;
    std::string clientCertPem;
    std::string clientKeyPem;
    std::optional<kube::Timestamp> expiry;
};

class ExecCredentialProvider
{
public:
    using Clock = std::function<kube::Timestamp()>;

    // `terminalAvailable`: nullopt asks isatty(stdin).
    explicit ExecCredentialProvider(ExecConfig config, Clock clock = {},
                                    std::chrono::milliseconds timeout = std::chrono::seconds(60),
                                    std::optional<bool> terminalAvailable = std::nullopt);

    // The cached credential, or a fresh one from running the plugin.
    kube::Result<ExecCredential> credential();
    // Forget the cached credential (after a 401).
    void invalidate();
    int runCount() const;
    const ExecConfig &config() const { return m_config; }

    // The KUBERNETES_EXEC_INFO value for this configuration.
    static std::string execInfo(const ExecConfig &config, bool interactive);
    // Parses the plugin's stdout; `now` decides nothing here, expiry is only recorded.
    static kube::Result<ExecCredential> parse(const ExecConfig &config, const std::string &output);

private:
    kube::Result<ExecCredential> run();

    ExecConfig m_config;
    Clock m_clock;
    std::chrono::milliseconds m_timeout;
    bool m_terminal;
    mutable std::mutex m_mutex;
    std::optional<ExecCredential> m_cached;
    int m_runs = 0;
};

} // namespace client
