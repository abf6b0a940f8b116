#pragma once
// Pod as a compact typed record. The spec is shared: every pod created from one template
// revision points at the same immutable JSON, so 50,000 pods cost little more than their
// metadata. Pods are never written back by the app, so unknown status fields are not kept.

#include "models/kube/objectmeta.h"

#include <memory>
#include <string>
#include <vector>

namespace kube {

struct Pod
{
    ObjectMeta metadata;
    std::shared_ptr<const Json> spec; // PodSpec without per-pod fields (nodeName, affinity pin)
    std::string nodeName;             // spec.nodeName once bound
    std::string targetNode;           // DaemonSet pods: the node pinned by matchFields metadata.name
    std::string phase = "Pending";    // Pending, Running, Succeeded, Failed
    bool ready = false;
    std::optional<Timestamp> readyTransitionTime; // Ready condition's lastTransitionTime
    std::optional<Timestamp> startTime;
    std::string waitingReason; // e.g. ContainerCreating, CrashLoopBackOff, ImagePullBackOff
    int restartCount = 0;

    // The node the pod runs on or is pinned to.
    const std::string &node() const { return nodeName.empty() ? targetNode : nodeName; }
    bool isTerminal() const
    {
        // Lengths first: this runs for every pod of every node in each controller pass.
        return (phase.size() == 9 && phase == "Succeeded") || (phase.size() == 6 && phase == "Failed");
    }
    bool isDeleting() const { return metadata.deletionTimestamp.has_value(); }
    // IsPodAvailable: Ready, and Ready for at least minReadySeconds at `now`.
    bool isAvailable(int minReadySeconds, Timestamp now) const;

    Json toJson() const;
    static Result<Pod> fromJson(const Json &j);
    // The pod's status as toJson() writes it.
    Json statusJson() const;
};

// PodJsonWriter — a pod's JSON, byte for byte what goJson(pod.toJson()) prints, written without
// building the pod's tree: the shared spec (one per template revision) is encoded once per
// writer, member by member, and each pod's own spec fields (nodeName, the DaemonSet's node pin
// in spec.affinity) are merged in at their sorted places. A list page of 500 pods then encodes
// its one to a few specs once instead of copying and encoding 500 trees. Keeps the specs it has
// seen (and so their addresses valid) for its lifetime: one writer per response.
class PodJsonWriter
{
public:
    void append(std::string &out, const Pod &pod);

private:
    struct Member
    {
        const std::string *key;
        const Json *value;
        std::string text; // the value, encoded
    };
    struct EncodedSpec
    {
        std::shared_ptr<const Json> spec;
        std::vector<Member> members; // in key order
    };
    const EncodedSpec &encoded(const std::shared_ptr<const Json> &spec);
    void appendSpec(std::string &out, const Pod &pod);

    std::vector<EncodedSpec> m_specs; // a page has one to a few: a linear search is the fastest
};

} // namespace kube
