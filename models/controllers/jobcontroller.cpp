#include "models/controllers/jobcontroller.h"
#include "models/controllers/podtemplate.h"

#include "models/kube/jsonfield.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <optional>

namespace controllers {

using api::WatchEvent;
using kube::Json;
using kube::Pod;

namespace {

const Json *trueCondition(const Json &job, const char *type)
{
    const Json *status = kube::member(job, "status");
    const Json *conditions = status ? kube::member(*status, "conditions") : nullptr;
    if (conditions && conditions->is_array())
        for (const auto &c : *conditions)
            if (kube::stringOr(c, "type") == type && kube::stringOr(c, "status") == "True")
                return &c;
    return nullptr;
}

bool conditionTrue(const Json &job, const char *type)
{
    return trueCondition(job, type) != nullptr;
}

Json condition(const char *type, const std::string &reason, const std::string &message, kube::Timestamp now)
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

JobController::JobController(JobClient &client)
    : m_c(client), m_queue(client.timers(), [this](const std::string &key) { sync(key); })
{}

void JobController::onJob(const WatchEvent &ev)
{
    if (ev.type == WatchEvent::Type::Deleted) {
        m_failures.erase(ev.key());
        m_queue.forget(ev.key());
        return;
    }
    m_c.deliver([this, key = ev.key()] { enqueue(key, m_c.now()); });
}

void JobController::onPod(const WatchEvent &ev)
{
    const kube::OwnerReference *ref = ev.pod ? ev.pod->metadata.controllerRef() : nullptr;
    if (!ref || ref->kind != "Job")
        return;
    const std::string key = ev.pod->metadata.namespace_ + "/" + ref->name;
    m_c.deliver([this, key] { enqueue(key, m_c.now()); });
}

void JobController::enqueue(const std::string &key, kube::Timestamp at)
{
    if (!m_c.continuous())
        return;
    m_queue.scheduleAt(key, m_queue.spaced(key, std::max(at, m_c.now()), kSyncInterval));
}

// Declares the job finished (`type` Complete or Failed) once the pods still running are deleted;
// while a deletion is refused, only the interim condition is written and the refusal is the
// answer, so that the sync is retried.
kube::Result<void> JobController::finish(const std::string &key, Json job, const char *type,
                                         const std::string &reason, const std::string &message)
{
    const bool complete = std::string(type) == "Complete";
    const std::string ns = kube::stringOr(job["metadata"], "namespace");
    const std::string name = kube::stringOr(job["metadata"], "name");
    const std::string uid = kube::stringOr(job["metadata"], "uid");
    // The pods still running go: a finished job keeps only its finished pods.
    std::vector<std::pair<std::string, bool>> running; // name, ready
    if (const auto *owned = m_c.podsControlledBy(uid))
        for (const auto &[podName, pod] : *owned)
            if (!pod->isTerminal() && !pod->isDeleting())
                running.emplace_back(podName, pod->ready);
    std::optional<kube::ApiStatus> refused;
    long long leftActive = 0, leftReady = 0;
    for (const auto &[podName, ready] : running) {
        auto deleted = m_c.deletePod(ns, podName);
        if (deleted || deleted.error().reason == "NotFound")
            continue; // gone already is fine
        ++leftActive;
        leftReady += ready ? 1 : 0;
        m_c.recordEvent(ns, name, uid, "Warning", "FailedDelete",
                        "Error deleting: " + deleted.error().message);
        if (!refused)
            refused = deleted.error();
    }

    Json &status = job["status"];
    Json &conditions = status["conditions"];
    if (!conditions.is_array())
        conditions = Json::array();
    const char *interim = complete ? "SuccessCriteriaMet" : "FailureTarget";
    if (!conditionTrue(job, interim))
        conditions.push_back(condition(interim, reason, message, m_c.now()));
    if (refused) {
        status["active"] = leftActive;
        status["ready"] = leftReady;
        if (const Json *stored = m_c.job(key); !stored || *stored != job)
            m_c.updateJobStatus(std::move(job));
        return *refused;
    }
    conditions.push_back(condition(type, reason, message, m_c.now()));
    if (complete)
        status["completionTime"] = kube::formatRfc3339(m_c.now());
    status["active"] = 0;
    status["ready"] = 0;
    m_c.updateJobStatus(std::move(job));
    m_c.recordEvent(ns, name, uid, complete ? "Normal" : "Warning", complete ? "Completed" : reason,
                    complete ? "Job completed" : message);
    m_failures.erase(key);
    return {};
}

// processNextWorkItem: a sync that fails is requeued with the key's rate limit, one that
// succeeds forgets it.
void JobController::sync(const std::string &key)
{
    m_queue.synced(key, m_c.now());
    if (syncJob(key)) {
        m_queue.succeeded(key);
    } else {
        const kube::Duration delay = m_queue.retryDelay(key);
        if (m_c.continuous())
            m_queue.scheduleAt(key, m_c.now() + delay);
    }
}

kube::Result<void> JobController::syncJob(const std::string &key)
{
    const Json *stored = m_c.job(key);
    if (!stored || conditionTrue(*stored, "Complete") || conditionTrue(*stored, "Failed"))
        return {};
    const Json before = *stored;
    Json job = before;
    const Json &meta = job["metadata"];
    if (meta.contains("deletionTimestamp"))
        return {};
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
        status["startTime"] = kube::formatRfc3339(m_c.now());
    status["active"] = active;
    status["ready"] = ready;
    status["succeeded"] = succeeded;
    status["failed"] = failed;

    // A finish whose deletions were refused left its interim condition: that decides.
    for (const auto &[interim, type] :
         {std::pair{"FailureTarget", "Failed"}, std::pair{"SuccessCriteriaMet", "Complete"}})
        if (const Json *c = trueCondition(job, interim)) {
            const std::string reason = kube::stringOr(*c, "reason"), message = kube::stringOr(*c, "message");
            return finish(key, std::move(job), type, reason, message);
        }
    if (succeeded >= completions)
        return finish(key, std::move(job), "Complete", "CompletionsReached",
                      "Reached expected number of succeeded pods");
    if (failed > backoffLimit)
        return finish(key, std::move(job), "Failed", "BackoffLimitExceeded",
                      "Job has reached the specified backoff limit");
    if (const long long deadline = specInt(spec, "activeDeadlineSeconds", 0); deadline > 0 && !suspended) {
        const auto started = kube::parseRfc3339(kube::stringOr(status, "startTime"));
        const kube::Timestamp end = (started ? *started : m_c.now()) + deadline * 1000;
        if (m_c.now() >= end)
            return finish(key, std::move(job), "Failed", "DeadlineExceeded",
                          "Job was active longer than specified deadline");
        enqueue(key, end);
    }

    // New pods: after a failure, once the backoff since it has passed.
    const long long want =
        podsToCreate(key, suspended ? 0 : std::min(parallelism, completions - succeeded) - active, failed);
    active += createPods(key, spec, ns, name, uid, want);
    status["active"] = active;
    if (before != job)
        m_c.updateJobStatus(std::move(job));
    return {};
}

JobController::JobPodCounts JobController::countPods(const std::string &uid) const
{
    JobPodCounts n;
    if (const auto *owned = m_c.podsControlledBy(uid))
        for (const auto &[podName, pod] : *owned) {
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
            at = m_c.now();
        }
        const kube::Duration backoff =
            kube::doubledDelay(kBackoffBase, kBackoffMax, int(std::min<long long>(failed - 1, 30)));
        if (m_c.now() < at + backoff) {
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
        std::string nodeName;
        if (auto nn = podSpec.find("nodeName"); nn != podSpec.end() && nn->is_string())
            nodeName = nn->get<std::string>();
        podSpec.erase("nodeName");
        Pod pod =
            podFromTemplate(tpl, m_c.sharedSpec(std::move(podSpec)), ns, {"batch/v1", "Job", name, uid});
        pod.nodeName = std::move(nodeName);
        if (auto created = m_c.createPod(std::move(pod))) {
            ++made;
            m_c.recordEvent(ns, name, uid, "Normal", "SuccessfulCreate",
                            "Created pod: " + (*created)->metadata.name);
        } else {
            m_c.recordEvent(ns, name, uid, "Warning", "FailedCreate",
                            "Error creating: " + created.error().message);
            enqueue(key, m_c.now() + kBackoffBase);
            break;
        }
    }
    return made;
}

} // namespace controllers
