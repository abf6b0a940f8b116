#pragma once
// SnapshotBuilder — the embedded engine's source of ClusterSnapshots: it feeds the engine's watch
// fan-out into the SnapshotAssembler (models/snapshot/snapshotassembler.h), the pipeline both
// backends share, and at each build hands it the engine's DaemonSets, revisions and events; the
// node-agent upgrade part comes from UpgradeSnapshotBuilder, fed from the same watch.
//
// The RolloutTracker (the assembler's) is fed from the same watch callbacks, so rollout timings
// carry the virtual times of the writes themselves.
//
// Single-threaded: the owner of the Cluster (the embedded worker, or a headless command) calls
// it. The Cluster must outlive the builder.

#include "models/embedded/upgradesnapshotbuilder.h"
#include "models/snapshot/snapshotassembler.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace api {
struct WatchEvent;
} // namespace api

namespace sim {
class Cluster;
} // namespace sim

namespace kube {
struct Event;
} // namespace kube

namespace models {

class SnapshotBuilder
{
public:
    explicit SnapshotBuilder(sim::Cluster &cluster);
    ~SnapshotBuilder();
    SnapshotBuilder(const SnapshotBuilder &) = delete;
    SnapshotBuilder &operator=(const SnapshotBuilder &) = delete;

    void setBackendInfo(const BackendInfo &info) { m_backend = info; }
    RolloutTracker &tracker() { return m_assembler.tracker(); }

    // Whether anything changed since the last build (objects or faults); the clock is not
    // considered.
    bool hasChanges() const;
    // A new snapshot (sequence = previous + 1). `clock.now` drives the time-dependent badge.
    std::shared_ptr<const ClusterSnapshot> build(const ClockInfo &clock);

private:
    void onWatch(const api::WatchEvent &event);
    void loadAll();

    sim::Cluster &m_cluster;
    int m_watchId = -1;
    BackendInfo m_backend;
    SnapshotAssembler m_assembler;
    UpgradeSnapshotBuilder m_upgrade; // the node-agent upgrade part, fed from the same watch

    // The Events as last watched, by key, converted at the next build: a large rollout records
    // Events faster than snapshots are built, and most are deleted again before then (the store
    // keeps the newest ten thousand). Each keeps the DaemonSet of the pod it is about as it was
    // when the Event was written.
    struct WatchedEvent
    {
        std::optional<EventInfo> info; // empty until converted
        std::string podDaemonSet;
    };
    std::map<std::string, WatchedEvent> m_events;
    void watchEvent(const kube::Event &event);
    void convertEvents();
    std::map<std::string, std::string> m_faults; // node -> fault kind as last published
    std::set<std::string> m_changedNodes;        // nodes written since the last build
};

} // namespace models
