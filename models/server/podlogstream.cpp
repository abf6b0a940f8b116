#include "models/server/podlogstream.h"

#include "models/sim/containerlog.h"

#include <httplib.h>

#include <memory>
#include <optional>
#include <thread>

namespace server {

namespace {

using kube::ApiStatus;

std::string param(const httplib::Request &req, const char *name)
{
    return req.has_param(name) ? req.get_param_value(name) : std::string();
}

bool flag(const httplib::Request &req, const char *name)
{
    const std::string v = param(req, name);
    return v == "true" || v == "1" || v == "True";
}

// An integer query parameter of PodLogOptions; `minimum` is what validation requires.
kube::Result<std::optional<std::int64_t>> integer(const httplib::Request &req, const char *name,
                                                  std::int64_t minimum)
{
    if (!req.has_param(name))
        return std::optional<std::int64_t>();
    const std::string text = param(req, name);
    std::size_t used = 0;
    std::int64_t v = 0;
    try {
        v = std::stoll(text, &used);
    } catch (...) {
        used = 0;
    }
    if (text.empty() || used != text.size())
        return ApiStatus::badRequest("invalid " + std::string(name) + ": " + text);
    if (v < minimum)
        return ApiStatus{422, "Invalid",
                         "PodLogOptions \"\" is invalid: " + std::string(name) + ": Invalid value: " + text +
                             ": must be greater than or equal to " + std::to_string(minimum)};
    return std::optional<std::int64_t>(v);
}

struct Follow
{
    std::string ns;
    std::string name;
    sim::ContainerLogQuery query;
    bool timestamps = false;
    kube::Timestamp readAt = 0; // lines up to this virtual time were read
    std::string pending;
    std::optional<std::int64_t> bytesLeft;
    bool finished = false;
};

// Appends text within the byte limit; true when the limit is reached.
bool take(Follow &f, const std::string &text)
{
    if (!f.bytesLeft) {
        f.pending += text;
        return false;
    }
    const auto n = std::min<std::int64_t>(*f.bytesLeft, static_cast<std::int64_t>(text.size()));
    f.pending.append(text, 0, static_cast<std::size_t>(n));
    *f.bytesLeft -= n;
    return *f.bytesLeft <= 0;
}

} // namespace

kube::Result<void> PodLogStream::serve(EngineHost &engine, const httplib::Request &req,
                                       httplib::Response &res, const std::string &ns, const std::string &name,
                                       std::chrono::milliseconds poll)
{
    auto tail = integer(req, "tailLines", 0);
    if (!tail)
        return tail.error();
    auto limit = integer(req, "limitBytes", 1);
    if (!limit)
        return limit.error();
    auto since = integer(req, "sinceSeconds", 1);
    if (!since)
        return since.error();
    auto f = std::make_shared<Follow>();
    f->ns = ns;
    f->name = name;
    f->query.container = param(req, "container");
    f->query.previous = flag(req, "previous");
    f->query.tailLines = *tail ? static_cast<int>(std::min<std::int64_t>(**tail, 1 << 30)) : -1;
    f->timestamps = flag(req, "timestamps");
    f->bytesLeft = *limit;
    const bool follow = flag(req, "follow");

    struct First
    {
        kube::Result<sim::ContainerLog> log = sim::ContainerLog();
        kube::Timestamp now = 0;
    };
    First first = engine.call([&](sim::Cluster &c) {
        if (*since)
            f->query.since = c.now() - **since * 1000;
        return First{sim::containerLog(c, ns, name, f->query), c.now()};
    });
    if (!first.log)
        return first.log.error();
    f->readAt = first.now;
    f->query.container = first.log->container;
    f->query.tailLines = -1;
    f->query.since.reset();
    const bool full = take(*f, sim::formatLogLines(first.log->lines, f->timestamps));
    res.status = 200;
    if (!follow || !first.log->running || full) {
        res.set_content(f->pending, "text/plain");
        return {};
    }
    // cpp-httplib gzips a text/* stream for a client that accepts it (kubectl's Go transport and
    // libcurl do) without flushing the compressor between chunks, so a follow's few lines would
    // sit in it; kube-apiserver sends the log stream unencoded. The request's Accept-Encoding is
    // only read when the response is written, after this handler.
    const_cast<httplib::Request &>(req).headers.erase("Accept-Encoding");
    res.set_chunked_content_provider("text/plain", [&engine, f, poll](std::size_t, httplib::DataSink &sink) {
        while (true) {
            if (!f->pending.empty()) {
                std::string chunk;
                chunk.swap(f->pending);
                return sink.write(chunk.data(), chunk.size());
            }
            if (f->finished || engine.hub().closed()) {
                sink.done();
                return true;
            }
            std::this_thread::sleep_for(poll);
            if (engine.hub().closed() || (sink.is_writable && !sink.is_writable()))
                return false;
            struct Next
            {
                kube::Result<sim::ContainerLog> log = sim::ContainerLog();
                kube::Timestamp now = 0;
            };
            Next next = engine.call([&](sim::Cluster &c) {
                f->query.after = f->readAt;
                return Next{sim::containerLog(c, f->ns, f->name, f->query), c.now()};
            });
            f->readAt = next.now;
            if (!next.log) { // the pod is gone
                f->finished = true;
                continue;
            }
            if (take(*f, sim::formatLogLines(next.log->lines, f->timestamps)) || !next.log->running)
                f->finished = true;
        }
    });
    return {};
}

} // namespace server
