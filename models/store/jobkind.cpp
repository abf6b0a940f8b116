// Store: the batch/v1 Job as a JSON kind — what kube-apiserver's job strategy decides on
// a create or an update: SetDefaults_Job (parallelism and completions 1, backoffLimit 6,
// completionMode NonIndexed, suspend false, podReplacementPolicy TerminatingOrFailed), the
// generated selector and the labels it stamps on the pod template (batch.kubernetes.io/
// controller-uid and job-name, and their legacy spellings), ValidateJob's checks of the fields
// this engine acts on (a pod template with containers and restartPolicy Never or OnFailure,
// non-negative counts) and the fields an update may not change (selector, template,
// completionMode). The status subresource replaces the status only.

#include "models/api/validation.h"
#include "models/kube/jsonfield.h"
#include "models/store/jsondecode.h"
#include "models/store/store.h"

namespace store {

using kube::ApiStatus;
using kube::Json;

namespace {

constexpr const char *kControllerUidLabel = "batch.kubernetes.io/controller-uid";
constexpr const char *kJobNameLabel = "batch.kubernetes.io/job-name";

void defaultTo(Json &spec, const char *field, Json value)
{
    if (!spec.contains(field) || spec[field].is_null())
        spec[field] = std::move(value);
}

kube::Result<Json> jobStatus(const Json *status)
{
    if (!status || status->is_null())
        return Json::object();
    if (!status->is_object())
        return cannotDecode(api::Kind::Job, "Job.status", *status, "v1.JobStatus");
    Json out = Json::object();
    for (const char *count : {"active", "succeeded", "failed", "terminating", "ready"})
        if (const Json *v = kube::member(*status, count); v && !v->is_null()) {
            if (!v->is_number_integer() || v->get<long long>() < 0)
                return ApiStatus::invalid("Job.batch", "",
                                          std::string("status.") + count + ": Invalid value: " +
                                              kube::goJson(*v) + ": must be greater than or equal to 0");
            out[count] = *v;
        }
    for (const char *field : {"startTime", "completionTime", "completedIndexes", "failedIndexes"})
        if (const Json *v = kube::member(*status, field); v && v->is_string())
            out[field] = *v;
    if (const Json *conditions = kube::member(*status, "conditions"); conditions && conditions->is_array()) {
        Json kept = Json::array();
        for (const auto &c : *conditions)
            if (c.is_object() && c.contains("type") && c["type"].is_string() && c.contains("status") &&
                c["status"].is_string())
                kept.push_back(c);
        if (!kept.empty())
            out["conditions"] = std::move(kept);
    }
    return out;
}

} // namespace

kube::Result<Json> Store::prepareJob(Json out, const Json &m, const Json *old, bool statusOnly)
{
    const std::string name = kube::stringOr(out["metadata"], "name");
    if (statusOnly) {
        Json next = *old;
        auto status = jobStatus(kube::member(m, "status"));
        if (!status)
            return status.error();
        next["status"] = std::move(*status);
        return next;
    }
    const Json *specIn = kube::member(m, "spec");
    if (!specIn || !specIn->is_object())
        return ApiStatus::invalid(api::qualifiedKind(api::Kind::Job), name,
                                  "spec.template.spec.containers: Required value");
    Json spec = *specIn;
    std::vector<std::string> errors;
    defaultTo(spec, "completionMode", "NonIndexed");
    defaultTo(spec, "parallelism", 1);
    defaultTo(spec, "completions", 1);
    defaultTo(spec, "backoffLimit", 6);
    defaultTo(spec, "suspend", false);
    defaultTo(spec, "podReplacementPolicy", "TerminatingOrFailed");
    for (const char *count : {"parallelism", "completions", "backoffLimit"})
        if (!spec[count].is_number_integer() || spec[count].get<long long>() < 0)
            errors.push_back(std::string("spec.") + count + ": Invalid value: " + kube::goJson(spec[count]) +
                             ": must be greater than or equal to 0");
    if (spec["completionMode"] != "NonIndexed" && spec["completionMode"] != "Indexed")
        errors.push_back("spec.completionMode: Unsupported value: " + kube::goJson(spec["completionMode"]) +
                         ": supported values: \"NonIndexed\", \"Indexed\"");

    Json &tpl = spec["template"];
    if (!tpl.is_object())
        tpl = Json::object();
    Json &podSpec = tpl["spec"];
    if (!podSpec.is_object())
        podSpec = Json::object();
    const Json *containers = kube::member(podSpec, "containers");
    if (!containers || !containers->is_array() || containers->empty())
        errors.push_back("spec.template.spec.containers: Required value");
    const Json *policy = kube::member(podSpec, "restartPolicy");
    if (!policy || !policy->is_string() || policy->get<std::string>().empty())
        errors.push_back(
            "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"");
    else if (*policy != "OnFailure" && *policy != "Never")
        errors.push_back("spec.template.spec.restartPolicy: Unsupported value: " + kube::goJson(*policy) +
                         ": supported values: \"OnFailure\", \"Never\"");

    const Json *oldSpec = old ? kube::member(*old, "spec") : nullptr;
    const std::string uid = kube::stringOr(out["metadata"], "uid");
    const bool manual = spec.value("manualSelector", false) == true;
    if (!oldSpec) {
        if (!manual) {
            if (spec.contains("selector") && !spec["selector"].is_null())
                errors.push_back("spec.selector: Invalid value: " + kube::goJson(spec["selector"]) +
                                 ": `selector` will be auto-generated");
            spec["selector"] = {{"matchLabels", {{kControllerUidLabel, uid}}}};
            Json &labels = tpl["metadata"]["labels"];
            if (!labels.is_object())
                labels = Json::object();
            labels[kControllerUidLabel] = uid;
            labels[kJobNameLabel] = name;
            labels["controller-uid"] = uid;
            labels["job-name"] = name;
            // A job without labels takes its pods' (SetDefaults_Job).
            Json &own = out["metadata"]["labels"];
            if (!own.is_object() || own.empty())
                own = labels;
        } else if (!spec.contains("selector") || !spec["selector"].is_object()) {
            errors.push_back("spec.selector: Required value");
        }
    } else {
        // Immutable once the job exists: an update that leaves them out keeps them.
        for (const char *field : {"selector", "template", "completionMode"}) {
            const Json *before = kube::member(*oldSpec, field);
            const Json *given = kube::member(*specIn, field);
            if (!given || given->is_null())
                spec[field] = before ? *before : Json();
            else if (before && spec[field] != *before)
                errors.push_back(std::string("spec.") + field + ": Invalid value: " +
                                 (std::string(field) == "completionMode" ? kube::goJson(spec[field])
                                                                         : std::string("<object>")) +
                                 ": field is immutable");
        }
    }
    if (auto r = api::invalidIfAny(api::qualifiedKind(api::Kind::Job), name, std::move(errors)); !r)
        return r.error();
    out["spec"] = std::move(spec);
    out["status"] = old && old->contains("status") ? (*old)["status"] : Json::object();
    return out;
}

} // namespace store
