#pragma once
// NodeUpgradeRolloutStore — where NodeUpgradeRollout objects live until the engine's object
// store holds the kind itself: create/apply/get/list/remove with a resourceVersion per write,
// generation bumped on spec changes, a status subresource and watch callbacks, the same
// semantics as the API server gives the built-in kinds. It is owned by NodeUpgradeRuntime,
// not by the controller, so a restarted controller reads the rollouts back from here.

#include "models/engine/nodeupgraderollout.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace engine {

class NodeUpgradeRolloutStore
{
public:
    // kubectl apply of a rollout manifest ({metadata:{name}, spec:{...}}) or of a scenario
    // `upgrade` step (name and spec fields side by side). `uid` is used on creation.
    kube::Result<NodeUpgradeRollout> apply(const kube::Json &manifest, kube::Timestamp now,
                                           const std::string &uid);
    const NodeUpgradeRollout *get(const std::string &name) const;
    std::vector<const NodeUpgradeRollout *> list() const; // by name
    // Edits the spec (generation bumps when it changed) or the annotations.
    kube::Result<void> edit(const std::string &name, const std::function<void(NodeUpgradeRollout &)> &fn);
    kube::Result<void> updateStatus(const std::string &name, const NodeUpgradeRolloutStatus &status);
    kube::Result<void> remove(const std::string &name);
    std::uint64_t resourceVersion() const { return m_rv; }

    int watch(std::function<void(const NodeUpgradeRollout &, bool deleted)> callback);
    void unwatch(int id);

private:
    void commit(NodeUpgradeRollout &r, bool deleted = false);

    std::map<std::string, NodeUpgradeRollout> m_rollouts;
    std::uint64_t m_rv = 0;
    std::map<int, std::function<void(const NodeUpgradeRollout &, bool)>> m_watchers;
    int m_nextWatch = 1;
};

} // namespace engine
