#pragma once
// The simulated cluster as its controllers' clients see it (models/controllers/*client.h): each
// implements one controller's interface over the store, the only place that reads the store's
// maps and indexes for that controller.

#include "models/controllers/daemonsetclient.h"
#include "models/controllers/jobclient.h"
#include "models/controllers/replicasetclient.h"
#include "models/sim/cluster.h"

namespace sim {

// What every controller's client shares (controllers::ControllerClient), over the store.
template <typename Client> class EmbeddedClient : public Client
{
public:
    explicit EmbeddedClient(Cluster::Impl &cluster) : m_c(cluster) {}

    kube::Timestamp now() const final;
    bool continuous() const final;
    void deliver(std::function<void()> fn) final;
    controllers::Timers &timers() final;
    const controllers::ControllerClient::Pods *podsControlledBy(const std::string &uid) const final;
    std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) final;
    kube::Result<const kube::Pod *> createPod(kube::Pod pod) final;
    kube::Result<void> deletePod(const std::string &ns, const std::string &name) final;
    const controllers::ControllerClient::Pods *orphanPods(const std::string &ns) const final;
    void updatePod(kube::Pod pod) final;

protected:
    Cluster::Impl &m_c;
};

class EmbeddedReplicaSetClient final : public EmbeddedClient<controllers::ReplicaSetClient>
{
public:
    using EmbeddedClient::EmbeddedClient;

    const kube::ReplicaSet *replicaSet(const std::string &key) const override;
    const std::string *replicaSetKeyOfUid(const std::string &uid) const override;
    std::vector<const kube::ReplicaSet *> replicaSetsIn(const std::string &ns) const override;

    void updateReplicaSetStatus(kube::ReplicaSet rs) override;
    void recordEvent(const kube::ReplicaSet &rs, const std::string &type, const std::string &reason,
                     const std::string &message) override;
};

class EmbeddedDaemonSetClient final : public EmbeddedClient<controllers::DaemonSetClient>
{
public:
    using EmbeddedClient::EmbeddedClient;

    const kube::DaemonSet *daemonSet(const std::string &key) const override;
    const std::string *daemonSetKeyOfUid(const std::string &uid) const override;
    std::vector<const kube::DaemonSet *> daemonSetsIn(const std::string &ns) const override;
    void forEachDaemonSet(
        const std::function<void(const std::string &, const kube::DaemonSet &)> &fn) const override;
    std::vector<const kube::Node *> nodes() const override;
    std::size_t nodeCount() const override;
    std::uint64_t nodeSetVersion() const override;
    const kube::Pod *pod(const std::string &key) const override;
    const PodsByNode *podsControlledByPerNode(const std::string &uid) const override;
    std::uint64_t podClaimVersion() const override;
    const kube::ControllerRevision *revision(const std::string &key) const override;
    std::vector<const kube::ControllerRevision *> revisionsIn(const std::string &ns) const override;

    const kube::ControllerRevision *createRevision(kube::ControllerRevision cr) override;
    const kube::ControllerRevision *updateRevision(kube::ControllerRevision cr) override;
    void deleteRevision(const std::string &key) override;
    void updateDaemonSetStatus(kube::DaemonSet ds) override;
    void recordEvent(const kube::DaemonSet &ds, const std::string &type, const std::string &reason,
                     const std::string &message) override;
    void syncStarted() override;
    void podWritten(const std::string &dsKey, bool created, const std::string &pod,
                    const std::string &node) override;
};

class EmbeddedJobClient final : public EmbeddedClient<controllers::JobClient>
{
public:
    using EmbeddedClient::EmbeddedClient;

    const kube::Json *job(const std::string &key) const override;

    void updateJobStatus(kube::Json job) override;
    void recordEvent(const std::string &ns, const std::string &name, const std::string &uid,
                     const std::string &type, const std::string &reason, const std::string &message) override;
};

} // namespace sim
