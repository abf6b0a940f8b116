#include "models/engine/jobcontroller.h"

#include "models/engine/clusterimpl.h"
#include "models/kube/jsonfield.h"

#include <algorithm>

namespace engine {

using kube::Json;
using kube::Pod;

namespace {

bool conditionTrue(const Json &job, const char *type)
{
    const Json *status = kube::member(job, "status");
    const Json *conditions = status ? kube::member(*status, "conditions") : nullptr;
    if (conditions && conditions->is_array())
        for (const auto &c : *conditions)
            if (kube::stringOr(c, "type") == type && kube::stringOr(c, "status") == "True")
                return true;
    return false;
}

Json condition(const char *type, const char *reason, const std::string &message, kube::Timestamp now)
{
    const std::string at = kube::formatRfc3339(now);
    return {{"type", type},     {"status", "True"},  {"lastProbeTime", at}, {"lastTransitionTime", at},
            {"reason", reason}, {"message", message}};
}

long long specInt(const Json &spec, const char *field, long long fallback)
{
    const Json *v = kube::member(spec, field);
    return v && v->is_number_integer() ? v->get<long long>() : fallback;
}

} // namespace

JobController::JobController(Cluster::Impl &cluster)
    : m_c(cluster), m_queue(cluster.loop, [this](const std::string &key) { sync(key); })
{}

void JobController::onJob(const WatchEvent &ev)
{
    if (ev.type == WatchEvent::Type::Deleted) {
        m_failures.erase(ev.key());
        m_queue.forget(ev.key());
        return;
    }
    m_c.deliver([this, key = ev.key()] { enqueue(key, m_c.now); });
}

void JobController::onPod(const WatchEvent &ev)
{
    const kube::OwnerReference *ref = ev.pod ? ev.pod->metadata.controllerRef() : nullptr;
    if (!ref || ref->kind != "Job")
        return;
    const std::string key = Cluster::Impl::key(ev.pod->metadata.namespace_, ref->name);
    m_c.deliver([this, key] { enqueue(key, m_c.now); });
}

void JobController::enqueue(const std::string &key, kube::Timestamp at)
{
    if (!m_c.continuous())
        return;
    m_queue.scheduleAt(key, m_queue.spaced(key, std::max(at, m_c.now), kSyncInterval));
}

void JobController::finish(const std::string &key, Json job, const char *type, const char *reason,
                           const std::string &message)
{
    Json &status = job["status"];
    Json &conditions = status["conditions"];
    if (!conditions.is_array())
        conditions = Json::array();
    const bool complete = std::string(type) == "Complete";
    conditions.push_back(
        condition(complete ? "SuccessCriteriaMet" : "FailureTarget", reason, message, m_c.now));
    conditions.push_back(condition(type, reason, message, m_c.now));
    if (complete)
        status["completionTime"] = kube::formatRfc3339(m_c.now);
    const std::string ns = kube::stringOr(job["metadata"], "namespace");
    const std::string name = kube::stringOr(job["metadata"], "name");
    const std::string uid = kube::stringOr(job["metadata"], "uid");
    // The pods still running go: a finished job keeps only its finished pods.
    std::vector<std::string> running;
    if (auto o = m_c.podsByOwner.find(uid); o != m_c.podsByOwner.end())
        for (const auto &[podName, pod] : o->second)
            if (!pod->isTerminal() && !pod->isDeleting())
                running.push_back(podName);
    for (const auto &podName : running)
        (void)m_c.deletePod(ns, podName); // gone already is fine: the job is finished either way
    status["active"] = 0;
    status["ready"] = 0;
    m_c.commitJson(api::Kind::Job, std::move(job), false);
    m_c.recordEvent(complete ? "Normal" : "Warning", complete ? "Completed" : reason,
                    complete ? "Job completed" : message, api::Kind::Job, ns, name, uid);
    m_failures.erase(key);
}

void JobController::sync(const std::string &key)
{
    m_queue.synced(key, m_c.now);
    const Json *stored = m_c.jsonObject(api::Kind::Job, key);
    if (!stored || conditionTrue(*stored, "Complete") || conditionTrue(*stored, "Failed"))
        return;
    const Json before = *stored;
    Json job = before;
    const Json &meta = job["metadata"];
    if (meta.contains("deletionTimestamp"))
        return;
    const Json &spec = job["spec"];
    const std::string ns = kube::stringOr(meta, "namespace");
    const std::string name = kube::stringOr(meta, "name");
    const std::string uid = kube::stringOr(meta, "uid");
    const long long completions = specInt(spec, "completions", 1);
    const long long parallelism = specInt(spec, "parallelism", 1);
    const long long backoffLimit = specInt(spec, "backoffLimit", 6);
    const bool suspended = spec.value("suspend", false) == true;

    auto [active, ready, succeeded, failed] = countPods(uid);
    Json &status = job["status"];
    if (!status.is_object())
        status = Json::object();
    if (!suspended && !status.contains("startTime"))
        status["startTime"] = kube::formatRfc3339(m_c.now);
    status["active"] = active;
    status["ready"] = ready;
    status["succeeded"] = succeeded;
    status["failed"] = failed;

    if (succeeded >= completions) {
        finish(key, std::move(job), "Complete", "CompletionsReached",
               "Reached expected number of succeeded pods");
        return;
    }
    if (failed > backoffLimit) {
        finish(key, std::move(job), "Failed", "BackoffLimitExceeded",
               "Job has reached the specified backoff limit");
        return;
    }
    if (const long long deadline = specInt(spec, "activeDeadlineSeconds", 0); deadline > 0 && !suspended) {
        const auto started = kube::parseRfc3339(kube::stringOr(status, "startTime"));
        const kube::Timestamp end = (started ? *started : m_c.now) + deadline * 1000;
        if (m_c.now >= end) {
            finish(key, std::move(job), "Failed", "DeadlineExceeded",
                   "Job was active longer than specified deadline");
            return;
        }
        enqueue(key, end);
    }

    // New pods: after a failure, once the backoff since it has passed.
    const long long want =
        podsToCreate(key, suspended ? 0 : std::min(parallelism, completions - succeeded) - active, failed);
    active += createPods(key, spec, ns, name, uid, want);
    status["active"] = active;
    if (before != job)
        m_c.commitJson(api::Kind::Job, std::move(job), false);
}

JobController::JobPodCounts JobController::countPods(const std::string &uid) const
{
    JobPodCounts n;
    if (auto o = m_c.podsByOwner.find(uid); o != m_c.podsByOwner.end())
        for (const auto &[podName, pod] : o->second) {
            if (pod->phase == "Succeeded")
                ++n.succeeded;
            else if (pod->phase == "Failed")
                ++n.failed;
            else if (!pod->isDeleting()) {
                ++n.active;
                n.ready += pod->ready ? 1 : 0;
            }
        }
    return n;
}

// `want` pods, or none while the backoff after the last failure runs (the sync is queued for
// its end).
long long JobController::podsToCreate(const std::string &key, long long want, long long failed)
{
    if (want > 0 && failed > 0) {
        auto &[seen, at] = m_failures[key];
        if (failed != seen) {
            seen = failed;
            at = m_c.now;
        }
        const kube::Duration backoff =
            std::min(kBackoffBase << std::min<long long>(failed - 1, 10), kBackoffMax);
        if (m_c.now < at + backoff) {
            enqueue(key, at + backoff);
            want = 0;
        }
    }
    return want;
}

// Creates up to `want` pods from the template (at most 500 a sync); the number created. A
// refused create is reported and retried after the first backoff.
long long JobController::createPods(const std::string &key, const Json &spec, const std::string &ns,
                                    const std::string &name, const std::string &uid, long long want)
{
    long long made = 0;
    const Json &tpl = spec.contains("template") ? spec["template"] : Json::object();
    for (long long i = 0; i < std::min<long long>(want, 500); ++i) {
        Json podSpec = tpl.contains("spec") ? tpl["spec"] : Json::object();
        Pod pod;
        if (auto nn = podSpec.find("nodeName"); nn != podSpec.end() && nn->is_string())
            pod.nodeName = nn->get<std::string>();
        podSpec.erase("nodeName");
        pod.spec = m_c.internSpec(std::move(podSpec));
        pod.metadata.generateName = name + "-";
        pod.metadata.namespace_ = ns;
        if (const Json *tmeta = kube::member(tpl, "metadata")) {
            if (auto l = kube::stringMapFromJson(tmeta->value("labels", Json()), "labels"))
                pod.metadata.labels = *l;
            if (auto a = kube::stringMapFromJson(tmeta->value("annotations", Json()), "annotations"))
                pod.metadata.annotations = *a;
        }
        pod.metadata.ownerReferences.push_back({"batch/v1", "Job", name, uid, true, true});
        if (auto created = m_c.createPod(std::move(pod))) {
            ++made;
            m_c.recordEvent("Normal", "SuccessfulCreate", "Created pod: " + (*created)->metadata.name,
                            api::Kind::Job, ns, name, uid);
        } else {
            m_c.recordEvent("Warning", "FailedCreate", "Error creating: " + created.error().message,
                            api::Kind::Job, ns, name, uid);
            enqueue(key, m_c.now + kBackoffBase);
            break;
        }
    }
    return made;
}

} // namespace engine
