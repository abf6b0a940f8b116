#pragma once
// The simulated cluster as its controllers' clients see it (models/controllers/*client.h): each
// implements one controller's interface over the store, the only place that reads the store's
// maps and indexes for that controller.

#include "models/controllers/daemonsetclient.h"
#include "models/controllers/jobclient.h"
#include "models/controllers/replicasetclient.h"
#include "models/engine/cluster.h"

namespace engine {

class EmbeddedReplicaSetClient final : public controllers::ReplicaSetClient
{
public:
    explicit EmbeddedReplicaSetClient(Cluster::Impl &cluster) : m_c(cluster) {}

    kube::Timestamp now() const override;
    bool continuous() const override;
    void deliver(std::function<void()> fn) override;
    controllers::Timers &timers() override;

    const kube::ReplicaSet *replicaSet(const std::string &key) const override;
    const std::string *replicaSetKeyOfUid(const std::string &uid) const override;
    std::vector<const kube::ReplicaSet *> replicaSetsIn(const std::string &ns) const override;
    const Pods *podsControlledBy(const std::string &uid) const override;
    const Pods *orphanPods(const std::string &ns) const override;
    std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) override;

    kube::Result<const kube::Pod *> createPod(kube::Pod pod) override;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) override;
    void updatePodOwners(kube::Pod pod) override;
    void updateReplicaSetStatus(kube::ReplicaSet rs) override;
    void recordEvent(const kube::ReplicaSet &rs, const std::string &type, const std::string &reason,
                     const std::string &message) override;

private:
    Cluster::Impl &m_c;
};

class EmbeddedDaemonSetClient final : public controllers::DaemonSetClient
{
public:
    explicit EmbeddedDaemonSetClient(Cluster::Impl &cluster) : m_c(cluster) {}

    kube::Timestamp now() const override;
    bool continuous() const override;
    void deliver(std::function<void()> fn) override;
    controllers::Timers &timers() override;

    const kube::DaemonSet *daemonSet(const std::string &key) const override;
    const std::string *daemonSetKeyOfUid(const std::string &uid) const override;
    std::vector<const kube::DaemonSet *> daemonSetsIn(const std::string &ns) const override;
    void forEachDaemonSet(
        const std::function<void(const std::string &, const kube::DaemonSet &)> &fn) const override;
    std::vector<const kube::Node *> nodes() const override;
    std::size_t nodeCount() const override;
    std::uint64_t nodeSetVersion() const override;
    const kube::Pod *pod(const std::string &key) const override;
    const Pods *podsControlledBy(const std::string &uid) const override;
    const PodsByNode *podsControlledByPerNode(const std::string &uid) const override;
    const Pods *orphanPods(const std::string &ns) const override;
    std::uint64_t podClaimVersion() const override;
    const kube::ControllerRevision *revision(const std::string &key) const override;
    std::vector<const kube::ControllerRevision *> revisionsIn(const std::string &ns) const override;
    std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) override;

    kube::Result<const kube::Pod *> createPod(kube::Pod pod) override;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) override;
    void updatePod(kube::Pod pod) override;
    const kube::ControllerRevision *createRevision(kube::ControllerRevision cr) override;
    const kube::ControllerRevision *updateRevision(kube::ControllerRevision cr) override;
    void deleteRevision(const std::string &key) override;
    void updateDaemonSetStatus(kube::DaemonSet ds) override;
    void recordEvent(const kube::DaemonSet &ds, const std::string &type, const std::string &reason,
                     const std::string &message) override;
    void syncStarted() override;
    void podWritten(const std::string &dsKey, bool created, const std::string &pod,
                    const std::string &node) override;

private:
    Cluster::Impl &m_c;
};

class EmbeddedJobClient final : public controllers::JobClient
{
public:
    explicit EmbeddedJobClient(Cluster::Impl &cluster) : m_c(cluster) {}

    kube::Timestamp now() const override;
    bool continuous() const override;
    void deliver(std::function<void()> fn) override;
    controllers::Timers &timers() override;

    const kube::Json *job(const std::string &key) const override;
    const Pods *podsControlledBy(const std::string &uid) const override;
    std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) override;

    kube::Result<const kube::Pod *> createPod(kube::Pod pod) override;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) override;
    void updateJobStatus(kube::Json job) override;
    void recordEvent(const std::string &ns, const std::string &name, const std::string &uid,
                     const std::string &type, const std::string &reason, const std::string &message) override;

private:
    Cluster::Impl &m_c;
};

} // namespace engine
