#pragma once
// JobClient — what the Job controller sees of a cluster, as upstream's is handed its informers'
// listers and PodControl: the Jobs (batch/v1, as the JSON objects the API serves), the pods a Job
// controls, PodControl's creates and deletes, the Job's status write, events, the clock, the
// informers' delivery and the work queue's timers. The simulated cluster implements it over its
// store (models/engine/controllerclients.*); the controller sees nothing else of it.

#include "models/controllers/syncqueue.h"
#include "models/kube/gojson.h"
#include "models/kube/pod.h"
#include "models/kube/result.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace controllers {

class JobClient
{
public:
    // Pods by name, in name order.
    using Pods = std::map<std::string_view, const kube::Pod *>;

    // ---- clock, informers, work queue ----
    virtual kube::Timestamp now() const = 0;
    // Whether the cluster runs its controllers (continuous); otherwise nothing syncs.
    virtual bool continuous() const = 0;
    // Runs `fn` as an informer handler would: after the write being observed has committed.
    virtual void deliver(std::function<void()> fn) = 0;
    virtual Timers &timers() = 0;

    // ---- listers ----
    // The Job "namespace/name" as stored, null when none.
    virtual const kube::Json *job(const std::string &key) const = 0;
    // The pods whose controller has this UID, null when none.
    virtual const Pods *podsControlledBy(const std::string &uid) const = 0;
    // The pod template's spec as the cluster shares equal specs between its pods.
    virtual std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) = 0;

    // ---- writes ----
    // PodControl: a new pod (its name generated from metadata.generateName); a deletion as an
    // API client's (a refusal is returned, a pod already gone is NotFound).
    virtual kube::Result<const kube::Pod *> createPod(kube::Pod pod) = 0;
    virtual kube::Result<void> deletePod(const std::string &ns, const std::string &name) = 0;
    // The Job with its status written.
    virtual void updateJobStatus(kube::Json job) = 0;
    // An Event about the Job NS/NAME (UID).
    virtual void recordEvent(const std::string &ns, const std::string &name, const std::string &uid,
                             const std::string &type, const std::string &reason,
                             const std::string &message) = 0;

protected:
    ~JobClient() = default;
};

} // namespace controllers
