// Fuzzes watch-stream decoding (KubeClient::watch in models/client/kubeclient.h): the input is
// the body of a watch response, one JSON event per line, handed to the client by a transport that
// plays it back, and decoded for each watched kind (DaemonSet, ControllerRevision, Pod, Node,
// Event). Checked: decoded events carry their object's resourceVersion, and a stream that ends
// in an error carries a message.

#include "models/client/kubeclient.h"
#include "models/kube/daemonset.h"
#include "models/kube/event.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "tests/fuzz/fuzzcheck.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace {

class PlaybackTransport : public client::Transport
{
public:
    explicit PlaybackTransport(std::string_view body) : m_body(body) {}

    kube::Result<client::HttpResponse> request(const std::string &, const std::string &,
                                               const client::Query &, const std::string &,
                                               const std::string &, const std::string &,
                                               const client::RequestOptions &) override
    {
        return kube::ApiStatus{404, "NotFound", "the fuzz transport only plays back a watch"};
    }

    kube::Result<void> watch(const std::string &, const client::Query &, const LineHandler &onLine,
                             const std::atomic<bool> &, const client::RequestOptions &) override
    {
        std::size_t start = 0;
        while (start < m_body.size()) {
            auto end = m_body.find('\n', start);
            if (end == std::string_view::npos)
                end = m_body.size();
            if (!onLine(m_body.substr(start, end - start)))
                break;
            start = end + 1;
        }
        return {};
    }

    std::string server() const override { return "https://fuzz.invalid"; }

private:
    std::string_view m_body;
};

template <typename T> void watchAs(client::KubeClient &kc)
{
    std::atomic<bool> cancel{false};
    auto r = kc.watch<T>(
        "", client::WatchOptions{},
        [](client::WatchEvent<T> &&event) {
            if (event.type != client::WatchEventType::Bookmark) {
                FUZZ_CHECK(event.resourceVersion == event.object.metadata.resourceVersion);
                (void)event.object.toJson();
            }
            return true;
        },
        cancel);
    if (!r)
        FUZZ_CHECK(!r.error().message.empty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    client::KubeClient kc(
        std::make_shared<PlaybackTransport>(std::string_view(reinterpret_cast<const char *>(data), size)));
    watchAs<kube::DaemonSet>(kc);
    watchAs<kube::ControllerRevision>(kc);
    watchAs<kube::Pod>(kc);
    watchAs<kube::Node>(kc);
    watchAs<kube::Event>(kc);
    return 0;
}
