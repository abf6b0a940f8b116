#include "models/kube/job.h"

#include "models/kube/jsonfield.h"

namespace kube {

Json Job::toJson() const
{
    Json status = {{"active", active}, {"ready", ready}, {"succeeded", succeeded}, {"failed", failed}};
    Json conditions = Json::array();
    if (complete)
        conditions.push_back({{"type", "Complete"}, {"status", "True"}});
    if (failedCondition)
        conditions.push_back(
            {{"type", "Failed"}, {"status", "True"}, {"reason", failureReason}, {"message", failureMessage}});
    if (!conditions.empty())
        status["conditions"] = std::move(conditions);
    return {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"metadata", metadata.toJson()}, {"status", status}};
}

Result<Job> Job::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Job: expected an object");
    Job job;
    if (const Json *m = member(j, "metadata")) {
        auto meta = ObjectMeta::fromJson(*m);
        if (!meta)
            return meta.error();
        job.metadata = std::move(*meta);
    }
    const Json *status = member(j, "status");
    if (!status || status->is_null())
        return job;
    if (!status->is_object())
        return ApiStatus::badRequest("Job: status: expected an object");
    for (auto [field, target] : {std::pair{"active", &job.active}, std::pair{"ready", &job.ready},
                                 std::pair{"succeeded", &job.succeeded}, std::pair{"failed", &job.failed}}) {
        const Json *v = member(*status, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_number_integer())
            return ApiStatus::badRequest(std::string("Job: status.") + field + ": expected an integer");
        *target = v->get<int>();
    }
    if (const Json *conditions = member(*status, "conditions"); conditions && conditions->is_array())
        for (const auto &c : *conditions) {
            if (!c.is_object() || stringOr(c, "status") != "True")
                continue;
            const std::string type = stringOr(c, "type");
            if (type == "Complete") {
                job.complete = true;
            } else if (type == "Failed") {
                job.failedCondition = true;
                job.failureReason = stringOr(c, "reason");
                job.failureMessage = stringOr(c, "message");
            }
        }
    return job;
}

} // namespace kube
