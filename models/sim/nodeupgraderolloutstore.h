#pragma once
// NodeUpgradeRolloutStore — typed access to the NodeUpgradeRollout objects of a Cluster. The
// objects live in the cluster's object store (Kind::NodeUpgradeRollout: resourceVersion per
// write, generation bumped on spec changes, status subresource, watch events); this adapter
// keeps a typed mirror of them, updated from the cluster's watch, so get()/list() are cheap and
// their pointers stay valid across writes to the same object. It is owned by
// NodeUpgradeRuntime, not by the controller, so a restarted controller reads the rollouts back.

#include "models/api/nodeupgraderollout.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace api {
struct WatchEvent;
}

namespace sim {

class Cluster;

class NodeUpgradeRolloutStore
{
public:
    explicit NodeUpgradeRolloutStore(Cluster &cluster);
    ~NodeUpgradeRolloutStore();
    NodeUpgradeRolloutStore(const NodeUpgradeRolloutStore &) = delete;
    NodeUpgradeRolloutStore &operator=(const NodeUpgradeRolloutStore &) = delete;

    // kubectl apply of a rollout manifest ({metadata:{name}, spec:{...}}) or of a scenario
    // `upgrade` step (name and spec fields side by side). On creation the API server assigns
    // uid and creationTimestamp; `now` and `uid` are accepted for source compatibility only.
    kube::Result<api::NodeUpgradeRollout> apply(const kube::Json &manifest, kube::Timestamp now,
                                                const std::string &uid);
    const api::NodeUpgradeRollout *get(const std::string &name) const;
    std::vector<const api::NodeUpgradeRollout *> list() const; // by name
    // Edits the spec (generation bumps when it changed) or the annotations.
    kube::Result<void> edit(const std::string &name,
                            const std::function<void(api::NodeUpgradeRollout &)> &fn);
    kube::Result<void> updateStatus(const std::string &name, const api::NodeUpgradeRolloutStatus &status);
    kube::Result<void> remove(const std::string &name);
    // The cluster resourceVersion of the latest rollout write (0 before the first one).
    std::uint64_t resourceVersion() const { return m_rv; }

    int watch(std::function<void(const api::NodeUpgradeRollout &, bool deleted)> callback);
    void unwatch(int id);

private:
    void onEvent(const api::WatchEvent &ev);
    void notify(const api::NodeUpgradeRollout &rollout, bool deleted);

    Cluster &m_cluster;
    int m_clusterWatch = 0;
    std::map<std::string, api::NodeUpgradeRollout> m_rollouts;
    std::uint64_t m_rv = 0;
    std::map<int, std::function<void(const api::NodeUpgradeRollout &, bool)>> m_watchers;
    int m_nextWatch = 1;
    // updateStatus's own write, whose watch event is applied from the typed status it wrote
    // instead of being decoded: the rollout's name while the write runs, and the version the
    // event gave it.
    std::string m_ownWrite;
    std::string m_ownWriteVersion;
};

} // namespace sim
