#pragma once
// ReplicaSet (apps/v1): ordinary workloads whose pods node drains must keep healthy.

#include "models/kube/labelselector.h"
#include "models/kube/objectmeta.h"

namespace kube {

struct ReplicaSetStatus
{
    int replicas = 0;
    int readyReplicas = 0;
    int availableReplicas = 0;
    std::int64_t observedGeneration = 0;
    bool operator==(const ReplicaSetStatus &) const = default;
};

struct ReplicaSet
{
    ObjectMeta metadata;
    Json spec = Json::object();
    ReplicaSetStatus status;
    Json extra = Json::object();

    int replicas() const;
    Result<LabelSelector> selector() const;

    Json toJson() const;
    static Result<ReplicaSet> fromJson(const Json &j);
};

} // namespace kube
