#pragma once
// ProbeTransport — a Transport in front of the real one that counts requests and can disturb
// them the way a busy cluster would: a concurrent writer changing a DaemonSet just before the
// next PATCH of it reaches the server (so a conditional write gets a real 409 from the server),
// or a watch of DaemonSets ending with a 410 Expired ERROR event instead of its next line.

#include "models/client/transport.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

class ProbeTransport : public client::Transport
{
public:
    explicit ProbeTransport(std::shared_ptr<client::Transport> inner) : m_inner(std::move(inner)) {}

    kube::Result<client::HttpResponse> request(const std::string &method, const std::string &path,
                                               const client::Query &query, const std::string &body,
                                               const std::string &contentType, const std::string &accept,
                                               const client::RequestOptions &options = {}) override
    {
        count(method + " " + path);
        if (method == "PATCH") {
            std::lock_guard lock(m_mutex);
            m_lastPatch = {body, contentType, Transport::encodeQuery(query)};
        }
        if (method == "PATCH" && path.find("/daemonsets/") != std::string::npos &&
            writeBeforeNextPatch.exchange(false))
            (void)m_inner->request("PATCH", path, {},
                                   R"({"metadata":{"annotations":{"example.com/other-writer":"was here"}}})",
                                   "application/merge-patch+json", "application/json", options);
        return m_inner->request(method, path, query, body, contentType, accept, options);
    }

    kube::Result<void> watch(const std::string &path, const client::Query &query, const LineHandler &onLine,
                             const std::atomic<bool> &cancel,
                             const client::RequestOptions &options = {}) override
    {
        count("WATCH " + path);
        const bool daemonSets = path.find("/daemonsets") != std::string::npos;
        return m_inner->watch(
            path, query,
            [&](std::string_view line) {
                if (daemonSets && goneOnNextDaemonSetLine.exchange(false)) {
                    const std::string gone =
                        R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
                        R"("message":"too old resource version","reason":"Expired","code":410}})";
                    onLine(gone);
                    return false;
                }
                return onLine(line);
            },
            cancel, options);
    }

    void interrupt(const std::atomic<bool> &cancel) override { m_inner->interrupt(cancel); }
    std::string server() const override { return m_inner->server(); }

    int requests(const std::string &methodAndPath) const
    {
        std::lock_guard lock(m_mutex);
        auto it = m_counts.find(methodAndPath);
        return it == m_counts.end() ? 0 : it->second;
    }

    struct Patch
    {
        std::string body;
        std::string contentType;
        std::string query;
    };
    Patch lastPatch() const
    {
        std::lock_guard lock(m_mutex);
        return m_lastPatch;
    }

    std::atomic<bool> writeBeforeNextPatch{false};
    std::atomic<bool> goneOnNextDaemonSetLine{false};

private:
    void count(const std::string &key)
    {
        std::lock_guard lock(m_mutex);
        ++m_counts[key];
    }

    std::shared_ptr<client::Transport> m_inner;
    mutable std::mutex m_mutex;
    std::map<std::string, int> m_counts;
    Patch m_lastPatch;
};
