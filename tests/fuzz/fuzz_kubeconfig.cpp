// Fuzzes kubeconfig loading, merging and resolution (models/client/kubeconfig.h). The input is
// up to three kubeconfig files separated by a line "#next-file"; they are written to a private
// directory (which also holds ca.pem, client.crt, client.key and token for relative references)
// and merged with Kubeconfig::loadFiles, then every context is resolved. Checked: failures carry
// a message, and no message contains a token or password that occurs once in the input.

#include "models/client/kubeconfig.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// A private directory for the input's files, removed at exit.
struct WorkDir
{
    fs::path path;
    WorkDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "daemonscope-fuzz-kubeconfig-XXXXXX").string();
        FUZZ_CHECK(mkdtemp(tmpl.data()) != nullptr);
        path = tmpl;
        writeFile(path / "ca.pem", "-----BEGIN CERTIFICATE-----\nMIIBfakeCA\n-----END CERTIFICATE-----\n");
        writeFile(path / "client.crt",
                  "-----BEGIN CERTIFICATE-----\nMIIBfakeClient\n-----END CERTIFICATE-----\n");
        writeFile(path / "client.key",
                  "-----BEGIN PRIVATE KEY-----\nMIIBfakeKey\n-----END PRIVATE KEY-----\n");
        writeFile(path / "token", "fuzz-token-from-file\n");
    }
    ~WorkDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path &workDir()
{
    static const WorkDir dir;
    return dir.path;
}

// resolve() reads the files a context names. A device, FIFO or /proc entry could block or never
// end, which would be a property of the machine, not of the code: such inputs are not resolved.
bool safeToRead(const std::string &path)
{
    if (path.empty())
        return true;
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(path, ec);
    if (ec)
        return false;
    const std::string c = canonical.string();
    if (c.rfind("/proc", 0) == 0 || c.rfind("/sys", 0) == 0 || c.rfind("/dev", 0) == 0)
        return false;
    const auto status = fs::status(canonical, ec);
    return !fs::exists(status) || fs::is_regular_file(status);
}

bool safeToResolve(const client::Kubeconfig &config)
{
    for (const auto &[name, cluster] : config.clusters())
        if (!safeToRead(cluster.certificateAuthority))
            return false;
    for (const auto &[name, user] : config.users())
        if (!safeToRead(user.clientCertificate) || !safeToRead(user.clientKey) || !safeToRead(user.tokenFile))
            return false;
    return true;
}

std::size_t occurrences(const std::string &text, const std::string &needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    const std::string separator = "\n#next-file\n";
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (parts.size() < 2) {
        const auto at = text.find(separator, start);
        if (at == std::string::npos)
            break;
        parts.push_back(text.substr(start, at - start));
        start = at + separator.size();
    }
    parts.push_back(text.substr(start));

    std::vector<std::string> files;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const fs::path path = workDir() / ("config-" + std::to_string(i) + ".yaml");
        writeFile(path, parts[i]);
        files.push_back(path.string());
    }

    auto config = client::Kubeconfig::loadFiles(files, true);
    if (!config) {
        // Not checked: that the message names the file. Messages are scrubbed of credentials, and
        // a token that happens to be part of the file's path takes the path with it.
        FUZZ_CHECK(!config.error().message.empty());
        return 0;
    }
    if (!safeToResolve(*config))
        return 0;

    std::vector<std::string> secrets;
    for (const auto &[name, user] : config->users())
        for (const std::string *s : {&user.token, &user.password})
            if (s->size() >= 12 && occurrences(text, *s) == 1)
                secrets.push_back(*s);

    std::vector<std::string> contexts = {"", "no-such-context"};
    for (const auto &[name, context] : config->contexts())
        contexts.push_back(name);
    for (const std::string &context : contexts) {
        auto rest = config->resolve(context, context.empty() ? "" : "fuzz-namespace");
        if (rest)
            continue;
        for (const std::string &secret : secrets) {
            if (rest.error().message.find(secret) != std::string::npos) {
                std::fprintf(stderr, "message: %s\n", rest.error().message.c_str());
                FUZZ_CHECK(!"no message contains a secret");
            }
        }
    }
    return 0;
}
