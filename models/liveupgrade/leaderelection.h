#pragma once
// LeaderElector — leader election over a coordination.k8s.io/v1 Lease, as client-go's
// leaderelection package does it, so that of several `daemonscope controller` replicas exactly
// one drives the node-upgrade rollouts.
//
// - tryAcquireOrRenew(): GET the Lease; create it when absent (holder = this identity); when
//   another identity holds it, take it only once the holder has not renewed for
//   leaseDuration, measured on this process's own clock from when this process last saw the
//   record change (so clocks of different machines need not agree); renew it when this
//   identity holds it. Every write is a PUT with the Lease's resourceVersion, so of two
//   candidates racing for an expired lease one wins and the other gets 409 Conflict.
// - acquireTime and leaseTransitions change only when the holder changes.
// - release(): a holder that stops cleanly empties holderIdentity (leaseDurationSeconds 1), so
//   another replica takes over at once instead of after leaseDuration.
// - A leader whose renewals keep failing for renewDeadline must stop leading (the caller
//   stops acting, then exits); renewDeadline < leaseDuration keeps two leaders from acting at
//   the same time as long as clocks run at the same rate.
//
// Not thread-safe: one thread calls it. Messages never carry credentials.

#include "models/api/nodeupgraderollout.h"
#include "models/client/kubeclient.h"
#include "models/kube/result.h"

#include <chrono>
#include <memory>
#include <string>

namespace models {

struct LeaderElectionOptions
{
    std::string namespace_ = "default";
    std::string name = api::kNodeUpgradeLeaseName;
    std::string identity; // unique per replica: host name and process id
    std::chrono::milliseconds leaseDuration{15000};
    std::chrono::milliseconds renewDeadline{10000};
    std::chrono::milliseconds retryPeriod{2000};
};

// Where Leases live (coordination.k8s.io/v1, namespaced).
const client::ResourceType &leaseResource();

class LeaderElector
{
public:
    using Clock = std::chrono::steady_clock;

    LeaderElector(std::shared_ptr<client::KubeClient> client, LeaderElectionOptions options);

    const LeaderElectionOptions &options() const { return m_options; }
    // One attempt: true when this identity holds the Lease afterwards, false when another
    // live holder has it or a candidate won the race; an error for an API failure.
    kube::Result<bool> tryAcquireOrRenew();
    // Empties the holder when this identity holds the Lease (best effort).
    kube::Result<void> release();
    bool leading() const { return m_leading; }
    // The holder last seen ("" when none).
    const std::string &holder() const { return m_observedHolder; }
    // When this identity last renewed successfully (leading only).
    Clock::time_point lastRenew() const { return m_lastRenew; }

private:
    client::RequestOptions requestOptions() const;
    kube::Json leaseBody(const kube::Json &existing) const; // kube::heldLease by this identity

    std::shared_ptr<client::KubeClient> m_client;
    LeaderElectionOptions m_options;
    bool m_leading = false;
    std::string m_observedHolder;
    std::string m_observedRecord; // holder + renewTime as last read, to see changes
    Clock::time_point m_observedAt{};
    Clock::time_point m_lastRenew{};
};

} // namespace models
