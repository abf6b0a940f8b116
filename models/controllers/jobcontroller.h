#pragma once
// JobController — runs batch/v1 Jobs as kube-controller-manager's job controller does
// (pkg/controller/job, syncJob) for the non-indexed jobs this engine serves: creates the
// job's pods from its template (up to parallelism, never more than the completions still
// missing), counts them into the status (active, ready, succeeded, failed, startTime), and
// finishes the job: Complete (SuccessCriteriaMet, then Complete, reason CompletionsReached) once
// `completions` pods succeeded; Failed (FailureTarget, then Failed) when more than
// `backoffLimit` pods failed (BackoffLimitExceeded) or activeDeadlineSeconds passed
// (DeadlineExceeded), deleting the pods still running. A failed pod is replaced after the
// controller's backoff (10 s, doubling, at most 6 min). Suspended jobs run no pods.
//
// A job is declared finished only once the pods still running are deleted (deleteActivePods):
// when the API server refuses a deletion, the job gets its interim condition (SuccessCriteriaMet
// or FailureTarget) and not the terminal one, a Warning FailedDelete ("Error deleting: <answer>",
// as the pod control records it) goes to the job, and the sync fails: the key is requeued as
// client-go's controller rate limiter requeues it, per key 5 ms doubling to 1000 s (its overall
// token bucket, 10 per second with a burst of 100, is left out), and forgotten after a sync that
// succeeds. The interim condition then decides the next syncs, as upstream's does.
//
// What a pod does is the kubelet's business: the simulated kubelet runs a job's pod until
// something ends it (the node agent finishes the node-upgrade restart Jobs, see
// engine/nodeupgradeagent.h). Continuous mode only, like the ReplicaSet controller. It sees the
// cluster only through JobClient.

#include "models/api/watchevent.h"
#include "models/controllers/jobclient.h"
#include "models/controllers/syncqueue.h"

#include <map>
#include <string>

namespace controllers {

class JobController
{
public:
    static constexpr kube::Duration kSyncInterval = 500;
    static constexpr kube::Duration kBackoffBase = 10 * 1000;
    static constexpr kube::Duration kBackoffMax = 6 * 60 * 1000;

    explicit JobController(JobClient &client);

    // Informer handlers, called for every committed write of the kind.
    void onJob(const api::WatchEvent &ev);
    void onPod(const api::WatchEvent &ev);
    void sync(const std::string &key);

private:
    struct JobPodCounts
    {
        long long active = 0, ready = 0, succeeded = 0, failed = 0;
    };
    JobPodCounts countPods(const std::string &uid) const;
    long long podsToCreate(const std::string &key, long long want, long long failed);
    long long createPods(const std::string &key, const kube::Json &spec, const std::string &ns,
                         const std::string &name, const std::string &uid, long long want);
    void enqueue(const std::string &key, kube::Timestamp at);
    kube::Result<void> syncJob(const std::string &key);
    kube::Result<void> finish(const std::string &key, kube::Json job, const char *type,
                              const std::string &reason, const std::string &message);

    JobClient &m_c;
    SyncQueue m_queue;
    std::map<std::string, std::pair<long long, kube::Timestamp>> m_failures; // key -> count seen, when
};

} // namespace controllers
