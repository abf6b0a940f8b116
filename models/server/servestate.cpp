#include "models/server/servestate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace server {

namespace {

using kube::ApiStatus;

std::optional<std::string> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return std::nullopt;
    return ss.str();
}

// Written to a temporary file created 0600 beside the target, synced, then renamed over it.
kube::Result<void> writeFile(const std::string &path, const std::string &text)
{
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return ApiStatus::internal("cannot write " + path + ": " + std::strerror(errno));
    ::fchmod(fd, 0600); // an older leftover keeps its mode through O_TRUNC
    std::size_t done = 0;
    bool ok = true;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ok = false;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    const int err = errno;
    ok = ok && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = ok ? errno : err;
        ::unlink(tmp.c_str());
        return ApiStatus::internal("cannot write " + path + ": " + std::strerror(e));
    }
    return {};
}

bool isToken(const std::string &t)
{
    return t.size() == 64 && t.find_first_not_of("0123456789abcdef") == std::string::npos;
}

} // namespace

kube::Result<ServeState> ServeState::open(const std::string &dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return ApiStatus::internal("cannot create the state folder " + dir + ": " + ec.message());
    if (::chmod(dir.c_str(), 0700) != 0)
        return ApiStatus::internal("cannot restrict the state folder " + dir +
                                   " to its owner: " + std::strerror(errno));
    const std::string caPath = dir + "/ca.crt";
    const std::string certPath = dir + "/server.crt";
    const std::string keyPath = dir + "/server.key";
    const std::string tokenPath = dir + "/token";

    ServeState state;
    const auto ca = readFile(caPath);
    const auto cert = readFile(certPath);
    const auto key = readFile(keyPath);
    if (ca && cert && key) {
        if (auto m = TlsMaterial::fromPem(*ca, *cert, *key)) {
            state.m_tls = std::move(*m);
            state.m_reusedTls = true;
        }
    }
    if (!state.m_reusedTls) {
        auto m = TlsMaterial::generate();
        if (!m)
            return m.error();
        state.m_tls = std::move(*m);
        // The key first: a crash in between leaves a set that fromPem refuses, never a
        // certificate whose key is lost.
        for (const auto &[path, text] : {std::pair{keyPath, state.m_tls.serverKeyPem()},
                                         {certPath, state.m_tls.serverCertificatePem()},
                                         {caPath, state.m_tls.caCertificatePem()}}) {
            if (auto w = writeFile(path, text); !w)
                return w.error();
        }
    } else {
        for (const auto &path : {caPath, certPath, keyPath})
            ::chmod(path.c_str(), 0600);
    }

    if (auto t = readFile(tokenPath)) {
        std::string token = *t;
        while (!token.empty() && (token.back() == '\n' || token.back() == '\r'))
            token.pop_back();
        if (isToken(token)) {
            state.m_token = std::move(token);
            state.m_reusedToken = true;
            ::chmod(tokenPath.c_str(), 0600);
        }
    }
    if (!state.m_reusedToken) {
        auto token = TlsMaterial::randomToken();
        if (!token)
            return token.error();
        state.m_token = std::move(*token);
        if (auto w = writeFile(tokenPath, state.m_token + "\n"); !w)
            return w.error();
    }
    return state;
}

} // namespace server
