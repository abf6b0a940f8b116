#include "models/client/incluster.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace client {

namespace {

std::optional<std::string> processEnv(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
}

std::optional<std::string> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trimmed(std::string s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    s.erase(0, first);
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
    return s;
}

kube::ApiStatus configError(const std::string &message)
{
    return kube::ApiStatus{0, "InvalidConfiguration", "in-cluster configuration: " + message};
}

} // namespace

kube::Result<RestConfig> inClusterConfig(const InClusterSource &source)
{
    const auto env = source.env ? source.env : processEnv;
    const auto host = env("KUBERNETES_SERVICE_HOST");
    const auto port = env("KUBERNETES_SERVICE_PORT");
    if (!host || host->empty() || !port || port->empty())
        return configError(
            "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (not running in a pod?)");
    RestConfig rc;
    const bool ipv6 = host->find(':') != std::string::npos;
    rc.server = "https://" + (ipv6 ? "[" + *host + "]" : *host) + ":" + *port;
    const std::string tokenPath = source.secretsDir + "/token";
    const auto token = readFile(tokenPath);
    if (!token)
        return configError("cannot read the service account token " + tokenPath);
    rc.token = trimmed(*token);
    if (rc.token.empty())
        return configError("the service account token " + tokenPath + " is empty");
    rc.tokenFile = tokenPath;
    const std::string caPath = source.secretsDir + "/ca.crt";
    const auto ca = readFile(caPath);
    if (!ca)
        return configError("cannot read the CA bundle " + caPath);
    rc.caPem = *ca;
    if (const auto ns = readFile(source.secretsDir + "/namespace"); ns && !trimmed(*ns).empty())
        rc.namespace_ = trimmed(*ns);
    rc.contextName = "in-cluster";
    rc.clusterName = "in-cluster";
    rc.userName = "service-account";
    return rc;
}

} // namespace client
