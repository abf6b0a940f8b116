#pragma once
// WatchHub — the watch cache between the engine and the HTTP watch streams. The engine thread
// records every write the Cluster fans out (watchAll) into a bounded window of recent events,
// one window per kind (kube-apiserver keeps one watch cache per resource, so thousands of node
// Lease renewals do not push a pod watch's resourceVersion out); each watch stream reads its
// kind's window from its own cursor, so a stream that starts at a resourceVersion replays
// exactly the events after it, and one whose resourceVersion (or cursor) fell out of the
// window gets 410 Expired, as kube-apiserver's watch cache does.
//
// Each event carries the object's previous state (from a mirror of the store the hub keeps),
// so a filtered watch can turn "stopped matching the selector" into DELETED and "started
// matching" into ADDED. Objects are shared, immutable JSON: a window entry costs two pointers.

#include "models/sim/cluster.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace server {

struct HubEvent
{
    std::uint64_t seq = 0; // position in its kind's window, dense
    std::uint64_t resourceVersion = 0;
    kube::Timestamp time = 0; // virtual clock at the write (Table ages)
    api::Kind kind = api::Kind::Pod;
    api::WatchEvent::Type type = api::WatchEvent::Type::Added;
    std::shared_ptr<const kube::Json> object;   // for DELETED: the last state
    std::shared_ptr<const kube::Json> previous; // state before this event; null when new
};

class WatchHub
{
public:
    explicit WatchHub(std::size_t window);

    // Engine thread: seeds the mirror from the cluster and subscribes to its writes.
    void attach(sim::Cluster &cluster);
    void record(const api::WatchEvent &event);

    enum class Start { Ok, TooOld, TooNew };
    // The cursor of the first event of `kind` after resourceVersion rv. Call on the engine
    // thread so the answer is consistent with the cluster state read in the same call.
    Start cursorAfter(api::Kind kind, std::uint64_t rv, std::uint64_t &cursor) const;
    std::uint64_t headCursor(api::Kind kind) const;
    std::uint64_t headResourceVersion() const; // of every kind
    // The kind's window holds every event of that kind after this RV.
    std::uint64_t oldestResourceVersion(api::Kind kind) const;

    enum class Wait { Events, Timeout, Expired, Closed };
    // Blocks until events at or after cursor exist, the deadline passes or the hub closes;
    // appends at most maxEvents of them and advances cursor. Expired: the cursor fell out of
    // the window (the stream was too slow). When it returns Events that reach the head of the
    // window, or Timeout, every write up to consideredRv has been seen (for bookmarks): it is
    // raised to the head resourceVersion of all kinds.
    Wait next(api::Kind kind, std::uint64_t &cursor, std::chrono::steady_clock::time_point deadline,
              std::vector<HubEvent> &out, std::uint64_t &consideredRv, std::size_t maxEvents = 256);

    void close(); // wakes every waiting stream; next() answers Closed from now on
    bool closed() const;

private:
    const std::size_t m_window;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    struct Window
    {
        std::deque<HubEvent> events;
        std::uint64_t nextSeq = 0;
        std::uint64_t floorRv = 0; // every event of the kind with a larger RV is still in events
    };
    std::map<api::Kind, Window> m_windows; // one per served kind, made by attach()
    Window &window(api::Kind kind);
    const Window *findWindow(api::Kind kind) const;
    std::uint64_t m_attachRv = 0;
    std::uint64_t m_headRv = 0;
    bool m_closed = false;
    const sim::Cluster *m_cluster = nullptr;
    // Engine thread only: the latest state of every object, by kind and "ns/name".
    std::map<std::pair<api::Kind, std::string>, std::shared_ptr<const kube::Json>> m_mirror;
};

} // namespace server
