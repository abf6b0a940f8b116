#pragma once
// ControllerClient — what every controller of this layer sees of a cluster, as upstream's share
// their informer factory and PodControl: the clock, the informers' delivery, the work queue's
// timers, the pods a controller owns and the orphans, PodControl's creates and deletes, and the
// claims' pod writes. Each controller's own
// client (daemonsetclient.h, replicasetclient.h, jobclient.h) adds its listers and writes.

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

class ControllerClient
{
public:
    // Pods by name, in name order.
    using Pods = std::map<std::string_view, const kube::Pod *>;

    // ---- clock, informers, work queue ----
    virtual kube::Timestamp now() const = 0;
    // Whether the cluster runs its controllers (continuous); otherwise syncs are asked for.
    virtual bool continuous() const = 0;
    // Runs `fn` as an informer handler would: after the write being observed has committed.
    virtual void deliver(std::function<void()> fn) = 0;
    virtual Timers &timers() = 0;

    // ---- pods ----
    // The pods whose controller has this UID; the pods of `ns` without a controller. Null: none.
    virtual const Pods *podsControlledBy(const std::string &uid) const = 0;
    virtual const Pods *orphanPods(const std::string &ns) const = 0;
    // The pod template's spec as the cluster shares equal specs between its pods.
    virtual std::shared_ptr<const kube::Json> sharedSpec(kube::Json spec) = 0;
    // PodControl: a new pod (its name generated from metadata.generateName); a deletion as an
    // API client's (a refusal is returned, a pod already gone is NotFound).
    virtual kube::Result<const kube::Pod *> createPod(kube::Pod pod) = 0;
    virtual kube::Result<void> deletePod(const std::string &ns, const std::string &name) = 0;
    // The pod with its owner references or labels changed (claims, relabelling).
    virtual void updatePod(kube::Pod pod) = 0;

protected:
    ~ControllerClient() = default;
};

} // namespace controllers
