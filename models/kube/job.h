#pragma once
// Job (batch/v1) as the node-upgrade controller reads it: its identity and the job
// controller's verdict (the counts of its pods and whether it is Complete or Failed). The spec
// is not kept: the controller makes its Jobs from the rollout's template and never reads one back.

#include "models/kube/objectmeta.h"

namespace kube {

struct Job
{
    ObjectMeta metadata;
    int active = 0;
    int ready = 0;
    int succeeded = 0;
    int failed = 0;
    bool complete = false;        // condition Complete=True
    bool failedCondition = false; // condition Failed=True
    std::string failureReason;    // the Failed condition's reason and message
    std::string failureMessage;

    Json toJson() const;
    // Decodes the object; the type of every field read is checked and named in the error.
    static Result<Job> fromJson(const Json &j);
};

} // namespace kube
