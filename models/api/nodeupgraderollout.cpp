#include "models/api/nodeupgraderollout.h"
#include "models/api/phrasejson.h"
#include "models/api/validation.h"
#include "models/kube/gojson.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace api {

using kube::ApiStatus;
using kube::Json;

namespace {

const char *const kPhaseNames[] = {"Pending",  "Progressing", "Paused",    "Halted",
                                   "Aborting", "Aborted",     "Completed", "CompletedWithExceptions"};

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

kube::Result<kube::Duration> durationField(const Json &j, const std::string &field)
{
    if (j.is_string()) {
        auto d = kube::parseDuration(j.get<std::string>());
        if (!d)
            return ApiStatus::badRequest(field + ": " + d.error().message);
        return *d;
    }
    if (j.is_number_integer()) { // plain numbers are seconds
        // Checked before scaling: the product of a large count and 1000 would overflow.
        constexpr kube::Duration limit = kube::kMaxDuration / 1000;
        const bool inRange = j.is_number_unsigned()
                                 ? j.get<std::uint64_t>() <= static_cast<std::uint64_t>(limit)
                                 : j.get<std::int64_t>() >= -limit && j.get<std::int64_t>() <= limit;
        if (!inRange)
            return ApiStatus::badRequest(field + ": invalid duration " + j.dump() +
                                         "s: out of range (at most 36500d, 100 years)");
        return j.get<kube::Duration>() * 1000;
    }
    return ApiStatus::badRequest(field + " must be a duration such as 10m");
}

template <typename E, std::size_t N>
kube::Result<E> enumField(const Json &j, const std::string &field,
                          const std::pair<const char *, E> (&values)[N])
{
    if (!j.is_string())
        return ApiStatus::badRequest(field + " must be a string");
    const std::string v = lower(j.get<std::string>());
    for (const auto &[name, e] : values)
        if (v == lower(name))
            return e;
    std::string all;
    for (const auto &[name, e] : values)
        all += (all.empty() ? "" : ", ") + std::string(name);
    return ApiStatus::badRequest(field + " must be one of " + all + ", got \"" + j.get<std::string>() + "\"");
}

const std::pair<const char *, SingleReplicaPolicy> kSingle[] = {{"Allow", SingleReplicaPolicy::Allow},
                                                                {"Block", SingleReplicaPolicy::Block}};
const std::pair<const char *, UnreadyPodPolicy> kUnready[] = {
    {"AlwaysDelete", UnreadyPodPolicy::AlwaysDelete},
    {"CountTowardHealth", UnreadyPodPolicy::CountTowardHealth}};
const std::pair<const char *, DrainTimeoutPolicy> kDrain[] = {{"Hold", DrainTimeoutPolicy::Hold},
                                                              {"Skip", DrainTimeoutPolicy::Skip},
                                                              {"Force", DrainTimeoutPolicy::Force}};
const std::pair<const char *, RestartMechanism> kRestart[] = {{"Annotation", RestartMechanism::Annotation},
                                                              {"External", RestartMechanism::External},
                                                              {"Job", RestartMechanism::Job}};
const std::pair<const char *, LocalDataPolicy> kLocalData[] = {{"Block", LocalDataPolicy::Block},
                                                               {"Delete", LocalDataPolicy::Delete}};
const std::pair<const char *, HealthComparison> kCompare[] = {{"GreaterThan", HealthComparison::GreaterThan},
                                                              {"AtLeast", HealthComparison::AtLeast}};

// The keys of spec.timeouts, in the order the documentation lists them: durations, and
// ackRetries a count.
constexpr const char *kTimeoutKeys[] = {"drainStall",        "drainTimeout",     "replacementTimeout",
                                        "terminationMargin", "unmanagedTimeout", "ackTimeout",
                                        "ackRetries",        "returnTimeout",    "soakDuration"};

Json timeJson(const std::optional<kube::Timestamp> &t)
{
    return t ? Json(formatUpgradeTime(*t)) : Json();
}

std::optional<kube::Timestamp> timeFrom(const Json &j, const char *key)
{
    if (!j.contains(key) || !j[key].is_string())
        return std::nullopt;
    return parseUpgradeTime(j[key].get<std::string>());
}

} // namespace

std::string formatUpgradeTime(kube::Timestamp t)
{
    std::string s = kube::formatRfc3339(t);
    const auto ms = ((t % 1000) + 1000) % 1000;
    if (ms != 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%03d", static_cast<int>(ms));
        s.insert(s.size() - 1, buf);
    }
    return s;
}

std::optional<kube::Timestamp> parseUpgradeTime(const std::string &text)
{
    // A controller pass re-reads the same few timestamps on thousands of nodes (nodes marked in
    // one pass share them) and RFC 3339 parsing is costly: remember the last few results.
    struct Memo
    {
        std::string text;
        std::optional<kube::Timestamp> value;
    };
    thread_local std::array<std::optional<Memo>, 4> memo;
    thread_local std::size_t next = 0;
    for (const auto &m : memo)
        if (m && m->text == text)
            return m->value;
    auto t = kube::parseRfc3339(text);
    std::optional<kube::Timestamp> value;
    if (t)
        value = *t;
    memo[next] = Memo{text, value};
    next = (next + 1) % memo.size();
    return value;
}

const char *rolloutPhaseName(RolloutPhase phase)
{
    return kPhaseNames[static_cast<int>(phase)];
}

std::optional<RolloutPhase> rolloutPhaseFromString(const std::string &text)
{
    for (int i = 0; i < 8; ++i)
        if (text == kPhaseNames[i])
            return static_cast<RolloutPhase>(i);
    return std::nullopt;
}

bool isTerminal(RolloutPhase phase)
{
    return phase == RolloutPhase::Aborted;
}

const char *unmanagedPodPolicyName(UnmanagedPodPolicy p)
{
    switch (p) {
    case UnmanagedPodPolicy::Immediate:
        return "Immediate";
    case UnmanagedPodPolicy::AfterTimeout:
        return "AfterTimeout";
    case UnmanagedPodPolicy::Never:
        return "Never";
    }
    return "";
}
const char *drainTimeoutPolicyName(DrainTimeoutPolicy p)
{
    return kDrain[static_cast<int>(p)].first;
}
const char *restartMechanismName(RestartMechanism m)
{
    return kRestart[static_cast<int>(m)].first;
}
const char *localDataPolicyName(LocalDataPolicy p)
{
    return kLocalData[static_cast<int>(p)].first;
}
const char *singleReplicaPolicyName(SingleReplicaPolicy p)
{
    return kSingle[static_cast<int>(p)].first;
}
const char *unreadyPodPolicyName(UnreadyPodPolicy p)
{
    return kUnready[static_cast<int>(p)].first;
}

SpecError splitSpecError(const std::string &message)
{
    const std::string marker = " is invalid: ";
    const auto inner = message.find(marker);
    std::string why = inner == std::string::npos ? message : message.substr(inner + marker.size());
    // kube's field readers say "field spec.nodeSelector.a: expected a string".
    if (why.rfind("field ", 0) == 0)
        why.erase(0, 6);
    const auto end = why.find_first_of(" :");
    std::string field = why.substr(0, end);
    std::string rest = end == std::string::npos ? std::string() : why.substr(end);
    if (rest.rfind(": ", 0) == 0)
        rest.erase(0, 2);
    else if (!rest.empty() && rest[0] == ' ')
        rest.erase(0, 1);
    const bool path =
        !field.empty() && field.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                  "0123456789.[]") == std::string::npos;
    if (!path)
        return {std::string(), why};
    return {field, rest};
}

std::vector<std::string> nodeUpgradeSpecEnum(const std::string &field)
{
    std::vector<std::string> out;
    const auto names = [&out](const auto &table) {
        for (const auto &[name, value] : table)
            out.push_back(name);
    };
    if (field == "healthComparison")
        names(kCompare);
    else if (field == "singleReplicaPolicy")
        names(kSingle);
    else if (field == "unreadyPodPolicy")
        names(kUnready);
    else if (field == "onDrainTimeout")
        names(kDrain);
    else if (field == "restart.mechanism")
        names(kRestart);
    else if (field == "localDataPolicy")
        names(kLocalData);
    return out;
}

// ---- spec --------------------------------------------------------------------------------

// restart.jobNamespace and restart.jobTemplate: only with mechanism Job, which needs a template
// whose pod can run to completion.
static kube::Result<void> restartJobFields(const Json &r, NodeUpgradeRolloutSpec &s)
{
    const bool job = s.restart == RestartMechanism::Job;
    for (const char *field : {"jobNamespace", "jobTemplate"})
        if (r.contains(field) && !job)
            return ApiStatus::badRequest(std::string("restart.") + field + ": only with mechanism Job");
    if (!job)
        return {};
    if (r.contains("jobNamespace")) {
        if (!r["jobNamespace"].is_string())
            return ApiStatus::badRequest("restart.jobNamespace must be a string");
        s.restartJobNamespace = r["jobNamespace"].get<std::string>();
        if (auto errors = dns1123LabelErrors(s.restartJobNamespace); !errors.empty())
            return ApiStatus::badRequest("restart.jobNamespace: Invalid value: " +
                                         kube::goQuote(s.restartJobNamespace) + ": " + errors.front());
    }
    const Json *tpl = kube::member(r, "jobTemplate");
    if (!tpl || !tpl->is_object())
        return ApiStatus::badRequest("restart.jobTemplate: Required value: mechanism Job runs this Job "
                                     "template (metadata and spec) on each node");
    for (const auto &[k, v] : tpl->items())
        if (k != "metadata" && k != "spec")
            return ApiStatus::badRequest("restart.jobTemplate: unknown field \"" + k +
                                         "\" (known: metadata, spec)");
    if (const Json *meta = kube::member(*tpl, "metadata"); meta && !meta->is_object())
        return ApiStatus::badRequest("restart.jobTemplate.metadata must be a map");
    const Json *spec = kube::member(*tpl, "spec");
    const Json *podTemplate = spec && spec->is_object() ? kube::member(*spec, "template") : nullptr;
    const Json *podSpec =
        podTemplate && podTemplate->is_object() ? kube::member(*podTemplate, "spec") : nullptr;
    const Json *containers = podSpec && podSpec->is_object() ? kube::member(*podSpec, "containers") : nullptr;
    if (!containers || !containers->is_array() || containers->empty())
        return ApiStatus::badRequest("restart.jobTemplate.spec.template.spec.containers: Required value: the "
                                     "Job's pod needs at least one container");
    for (const auto &c : *containers)
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("image") ||
            !c["image"].is_string())
            return ApiStatus::badRequest("restart.jobTemplate.spec.template.spec.containers: every container "
                                         "needs a name and an image");
    if (const Json *policy = kube::member(*podSpec, "restartPolicy");
        policy && (!policy->is_string() || (*policy != "Never" && *policy != "OnFailure")))
        return ApiStatus::badRequest(
            "restart.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: " +
            kube::goJson(*policy) + ": supported values: \"Never\", \"OnFailure\"");
    s.restartJobTemplate = *tpl;
    return {};
}

Json NodeUpgradeRolloutSpec::toJson() const
{
    Json j;
    j["targetVersion"] = targetVersion;
    if (!nodeSelector.empty())
        j["nodeSelector"] = kube::stringMapToJson(nodeSelector);
    j["maxUnavailable"] = maxUnavailable.toJson();
    j["maxInflightPerController"] = maxInflightPerController;
    j["controllerHealthThreshold"] = controllerHealthThreshold;
    j["healthComparison"] = kCompare[static_cast<int>(healthComparison)].first;
    j["singleReplicaPolicy"] = singleReplicaPolicyName(singleReplicaPolicy);
    j["unreadyPodPolicy"] = unreadyPodPolicyName(unreadyPodPolicy);
    j["respectPDBs"] = respectPDBs;
    j["localDataPolicy"] = localDataPolicyName(localDataPolicy);
    if (unmanagedPodPolicy == UnmanagedPodPolicy::AfterTimeout)
        j["unmanagedPodPolicy"] = {{"afterTimeout", kube::formatDuration(timeouts.unmanagedTimeout)}};
    else
        j["unmanagedPodPolicy"] = unmanagedPodPolicyName(unmanagedPodPolicy);
    j["onDrainTimeout"] = drainTimeoutPolicyName(onDrainTimeout);
    j["maxFailedNodes"] = maxFailedNodes;
    j["zoneSerial"] = zoneSerial;
    if (!maintenanceWindow.is_null())
        j["maintenanceWindow"] = maintenanceWindow;
    j["postNodeDelay"] = kube::formatDuration(postNodeDelay);
    j["soakDuration"] = kube::formatDuration(soakDuration);
    j["timeouts"] = {{"drainStall", kube::formatDuration(timeouts.drainStall)},
                     {"drainTimeout", kube::formatDuration(timeouts.drainTimeout)},
                     {"replacementTimeout", kube::formatDuration(timeouts.replacementTimeout)},
                     {"terminationMargin", kube::formatDuration(timeouts.terminationMargin)},
                     {"unmanagedTimeout", kube::formatDuration(timeouts.unmanagedTimeout)},
                     {"ackTimeout", kube::formatDuration(timeouts.ackTimeout)},
                     {"ackRetries", timeouts.ackRetries},
                     {"returnTimeout", kube::formatDuration(timeouts.returnTimeout)}};
    j["paused"] = paused;
    if (!pauseReason.empty())
        j["pauseReason"] = pauseReason;
    j["abort"] = abort;
    j["allowSelfRestart"] = allowSelfRestart;
    j["maxStartsPerPass"] = maxStartsPerPass;
    j["minReadyRatio"] = minReadyRatio;
    if (restart != RestartMechanism::Annotation) // the default stays unwritten, as before the field existed
        j["restart"] = {{"mechanism", restartMechanismName(restart)}};
    if (restart == RestartMechanism::Job) {
        j["restart"]["jobNamespace"] = restartJobNamespace;
        j["restart"]["jobTemplate"] = restartJobTemplate;
    }
    return j;
}

std::vector<std::string> NodeUpgradeRolloutSpec::timeoutFieldNames()
{
    return {std::begin(kTimeoutKeys), std::end(kTimeoutKeys)};
}

std::vector<std::string> NodeUpgradeRolloutSpec::fieldNames()
{
    NodeUpgradeRolloutSpec every;
    every.nodeSelector = {{"k", "v"}};
    every.maintenanceWindow = Json::object();
    every.pauseReason = "r";
    every.restart = RestartMechanism::Job;
    const Json fields = every.toJson();
    std::vector<std::string> names;
    for (auto it = fields.begin(); it != fields.end(); ++it)
        names.push_back(it.key());
    return names;
}

namespace {

// spec.targetVersion (required), nodeSelector and maxUnavailable.
kube::Result<void> readTarget(const Json &j, NodeUpgradeRolloutSpec &s)
{
    if (!j.contains("targetVersion") || !j["targetVersion"].is_string() ||
        j["targetVersion"].get<std::string>().empty())
        return ApiStatus::invalid(kNodeUpgradeKind, "", "spec.targetVersion: Required value");
    s.targetVersion = j["targetVersion"].get<std::string>();
    if (j.contains("nodeSelector")) {
        auto m = kube::stringMapFromJson(j["nodeSelector"], "spec.nodeSelector");
        if (!m)
            return m.error();
        s.nodeSelector = *m;
    }
    if (j.contains("maxUnavailable")) {
        // The field's name and value lead, as the API server's field errors do.
        const auto invalid = [&](const ApiStatus &e) {
            return ApiStatus::badRequest("spec.maxUnavailable: Invalid value: " + j["maxUnavailable"].dump() +
                                         ": " + e.message);
        };
        auto v = kube::IntOrString::fromJson(j["maxUnavailable"]);
        if (!v)
            return invalid(v.error());
        if (auto probe = v->scaledValue(100, false); !probe)
            return invalid(probe.error());
        s.maxUnavailable = *v;
    }
    return {};
}

// The counts, switches and ratios.
kube::Result<void> readLimits(const Json &j, NodeUpgradeRolloutSpec &s)
{
    auto intField = [&](const char *k, int &out, int min) -> std::optional<ApiStatus> {
        if (!j.contains(k))
            return std::nullopt;
        if (!j[k].is_number_integer() || j[k].get<long long>() < min)
            return ApiStatus::badRequest(std::string(k) + " must be an integer >= " + std::to_string(min));
        out = j[k].get<int>();
        return std::nullopt;
    };
    auto boolField = [&](const char *k, bool &out) -> std::optional<ApiStatus> {
        if (!j.contains(k))
            return std::nullopt;
        if (!j[k].is_boolean())
            return ApiStatus::badRequest(std::string(k) + " must be true or false");
        out = j[k].get<bool>();
        return std::nullopt;
    };
    auto numField = [&](const char *k, double &out) -> std::optional<ApiStatus> {
        if (!j.contains(k))
            return std::nullopt;
        if (!j[k].is_number() || j[k].get<double>() < 0 || j[k].get<double>() > 1)
            return ApiStatus::badRequest(std::string(k) + " must be a number between 0 and 1");
        out = j[k].get<double>();
        return std::nullopt;
    };
    for (auto e :
         {intField("maxInflightPerController", s.maxInflightPerController, 1),
          intField("maxFailedNodes", s.maxFailedNodes, 1),
          intField("maxStartsPerPass", s.maxStartsPerPass, 1), boolField("respectPDBs", s.respectPDBs),
          boolField("zoneSerial", s.zoneSerial), boolField("paused", s.paused), boolField("abort", s.abort),
          boolField("allowSelfRestart", s.allowSelfRestart),
          numField("controllerHealthThreshold", s.controllerHealthThreshold),
          numField("minReadyRatio", s.minReadyRatio)})
        if (e)
            return *e;
    return {};
}

// The policies: singleReplicaPolicy, localDataPolicy, unreadyPodPolicy, restart, onDrainTimeout
// and healthComparison.
kube::Result<void> readPolicies(const Json &j, NodeUpgradeRolloutSpec &s)
{
    if (j.contains("singleReplicaPolicy")) {
        auto v = enumField(j["singleReplicaPolicy"], "singleReplicaPolicy", kSingle);
        if (!v)
            return v.error();
        s.singleReplicaPolicy = *v;
    }
    if (j.contains("localDataPolicy")) {
        auto v = enumField(j["localDataPolicy"], "localDataPolicy", kLocalData);
        if (!v)
            return v.error();
        s.localDataPolicy = *v;
    }
    if (j.contains("unreadyPodPolicy")) {
        auto v = enumField(j["unreadyPodPolicy"], "unreadyPodPolicy", kUnready);
        if (!v)
            return v.error();
        s.unreadyPodPolicy = *v;
    }
    if (j.contains("restart")) {
        const Json &r = j["restart"];
        if (!r.is_object())
            return ApiStatus::badRequest("restart must be an object such as {mechanism: External}");
        for (const auto &[k, v] : r.items())
            if (k != "mechanism" && k != "jobNamespace" && k != "jobTemplate")
                return ApiStatus::badRequest("restart: unknown field \"" + k +
                                             "\" (known: mechanism, jobNamespace, jobTemplate)");
        if (r.contains("mechanism")) {
            auto v = enumField(r["mechanism"], "restart.mechanism", kRestart);
            if (!v)
                return v.error();
            s.restart = *v;
        }
        if (auto job = restartJobFields(r, s); !job)
            return job.error();
    }
    if (j.contains("onDrainTimeout")) {
        auto v = enumField(j["onDrainTimeout"], "onDrainTimeout", kDrain);
        if (!v)
            return v.error();
        s.onDrainTimeout = *v;
    }
    if (j.contains("healthComparison")) {
        auto v = enumField(j["healthComparison"], "healthComparison", kCompare);
        if (!v)
            return v.error();
        s.healthComparison = *v;
    }
    return {};
}

// timeouts, postNodeDelay, soakDuration and unmanagedPodPolicy.
kube::Result<void> readDurations(const Json &j, NodeUpgradeRolloutSpec &s)
{
    if (j.contains("timeouts")) {
        const Json &t = j["timeouts"];
        if (!t.is_object())
            return ApiStatus::badRequest("timeouts must be a map");
        const std::pair<const char *, kube::Duration *> fields[] = {
            {"drainStall", &s.timeouts.drainStall},
            {"drainTimeout", &s.timeouts.drainTimeout},
            {"replacementTimeout", &s.timeouts.replacementTimeout},
            {"terminationMargin", &s.timeouts.terminationMargin},
            {"unmanagedTimeout", &s.timeouts.unmanagedTimeout},
            {"ackTimeout", &s.timeouts.ackTimeout},
            {"returnTimeout", &s.timeouts.returnTimeout},
            {"soakDuration", &s.soakDuration}};
        static_assert(std::size(fields) + 1 == std::size(kTimeoutKeys),
                      "every duration key of timeouts is read");
        for (const auto &[k, out] : fields)
            if (t.contains(k)) {
                auto d = durationField(t[k], std::string("timeouts.") + k);
                if (!d)
                    return d.error();
                *out = *d;
            }
        if (t.contains("ackRetries")) {
            if (!t["ackRetries"].is_number_integer() || t["ackRetries"].get<int>() < 0)
                return ApiStatus::badRequest("timeouts.ackRetries must be an integer >= 0");
            s.timeouts.ackRetries = t["ackRetries"].get<int>();
        }
    }
    for (auto [k, out] :
         {std::pair{"postNodeDelay", &s.postNodeDelay}, std::pair{"soakDuration", &s.soakDuration}})
        if (j.contains(k)) {
            auto d = durationField(j[k], k);
            if (!d)
                return d.error();
            *out = *d;
        }
    if (j.contains("unmanagedPodPolicy")) {
        const Json &u = j["unmanagedPodPolicy"];
        if (u.is_string()) {
            const std::string v = lower(u.get<std::string>());
            if (v == "immediate")
                s.unmanagedPodPolicy = UnmanagedPodPolicy::Immediate;
            else if (v == "never")
                s.unmanagedPodPolicy = UnmanagedPodPolicy::Never;
            else if (v == "aftertimeout")
                s.unmanagedPodPolicy = UnmanagedPodPolicy::AfterTimeout;
            else
                return ApiStatus::badRequest(
                    "unmanagedPodPolicy must be Immediate, Never or {afterTimeout: D}, got \"" +
                    u.get<std::string>() + "\"");
        } else if (u.is_object() && u.contains("afterTimeout")) {
            auto d = durationField(u["afterTimeout"], "unmanagedPodPolicy.afterTimeout");
            if (!d)
                return d.error();
            s.unmanagedPodPolicy = UnmanagedPodPolicy::AfterTimeout;
            s.timeouts.unmanagedTimeout = *d;
        } else {
            return ApiStatus::badRequest("unmanagedPodPolicy must be Immediate, Never or {afterTimeout: D}");
        }
    }
    return {};
}

// pauseReason and maintenanceWindow.
kube::Result<void> readPause(const Json &j, NodeUpgradeRolloutSpec &s)
{
    if (j.contains("pauseReason")) {
        if (!j["pauseReason"].is_string())
            return ApiStatus::badRequest("pauseReason must be a string");
        s.pauseReason = j["pauseReason"].get<std::string>();
    }
    if (j.contains("maintenanceWindow")) {
        if (!j["maintenanceWindow"].is_object())
            return ApiStatus::badRequest("maintenanceWindow must be a map");
        s.maintenanceWindow = j["maintenanceWindow"];
    }
    return {};
}

} // namespace

kube::Result<NodeUpgradeRolloutSpec> NodeUpgradeRolloutSpec::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("spec must be a map");
    NodeUpgradeRolloutSpec s;
    // In this order: the first field found wrong is the one reported.
    for (auto read : {readTarget, readLimits, readPolicies, readDurations, readPause})
        if (auto r = read(j, s); !r)
            return r.error();
    return s;
}

// ---- status ------------------------------------------------------------------------------

const NodeUpgradeCondition *NodeUpgradeRolloutStatus::condition(const std::string &type) const
{
    for (const auto &c : conditions)
        if (c.type == type)
            return &c;
    return nullptr;
}

void NodeUpgradeRolloutStatus::setCondition(const std::string &type, bool status, const std::string &reason,
                                            const std::string &message, kube::Timestamp now)
{
    const std::string s = status ? "True" : "False";
    for (auto &c : conditions)
        if (c.type == type) {
            if (c.status != s)
                c.lastTransitionTime = now;
            c.status = s;
            c.reason = reason;
            c.message = message;
            return;
        }
    conditions.push_back({type, s, reason, message, now});
}

Json NodeUpgradeRolloutStatus::toJson() const
{
    Json j;
    j["phase"] = rolloutPhaseName(phase);
    j["observedGeneration"] = observedGeneration;
    j["targetVersion"] = targetVersion;
    j["nodes"] = counts.nodes;
    j["upToDate"] = counts.upToDate;
    j["upgraded"] = counts.upgraded;
    j["inFlight"] = counts.inFlight;
    j["pending"] = counts.pending;
    j["held"] = counts.held;
    j["blocked"] = counts.blocked;
    j["failed"] = counts.failed;
    j["skipped"] = counts.skipped;
    j["unavailable"] = unavailable;
    j["maxUnavailableResolved"] = maxUnavailableResolved;
    j["maxUnavailableClamped"] = maxUnavailableClamped;
    j["headline"] = headline;
    if (!headlinePhrase.empty())
        j["headlinePhrase"] = phraseToJson(headlinePhrase);
    j["eta"] = eta ? Json(kube::formatDuration(*eta)) : Json();
    j["conditions"] = Json::array();
    for (const auto &c : conditions)
        j["conditions"].push_back({{"type", c.type},
                                   {"status", c.status},
                                   {"reason", c.reason},
                                   {"message", c.message},
                                   {"lastTransitionTime", formatUpgradeTime(c.lastTransitionTime)}});
    j["inflightDeletions"] = Json::array();
    for (const auto &d : inflight)
        j["inflightDeletions"].push_back({{"controller", d.controller},
                                          {"podUID", d.podUid},
                                          {"pod", d.pod},
                                          {"node", d.node},
                                          {"time", formatUpgradeTime(d.time)},
                                          {"readyBefore", d.readyBefore},
                                          {"slowReported", d.slowReported}});
    j["queue"] = queue;
    j["removedNodes"] = removedNodes;
    j["nodeDurations"] = nodeDurations;
    j["pausedAt"] = timeJson(pausedAt);
    j["lastCompletion"] = timeJson(lastCompletion);
    j["startedAt"] = timeJson(startedAt);
    if (!refusal.empty())
        j["refusal"] = refusal;
    return j;
}

namespace {

// eta and the headline phrase as fromJson(toJson()) gives them back.
std::optional<kube::Duration> storedEta(const std::optional<kube::Duration> &eta)
{
    if (!eta)
        return std::nullopt;
    auto d = kube::parseDuration(kube::formatDuration(*eta));
    return d ? std::optional<kube::Duration>(*d) : std::nullopt;
}

Phrase storedPhrase(const Phrase &phrase)
{
    return phrase.empty() ? Phrase() : phraseFromJson(phraseToJson(phrase)).value_or(Phrase());
}

} // namespace

void NodeUpgradeRolloutStatus::normalize()
{
    eta = storedEta(eta);
    if (!headlinePhrase.empty())
        headlinePhrase = storedPhrase(headlinePhrase);
}

bool NodeUpgradeRolloutStatus::isStored() const
{
    return storedEta(eta) == eta &&
           (headlinePhrase.empty() || storedPhrase(headlinePhrase) == headlinePhrase);
}

kube::Result<NodeUpgradeRolloutStatus> NodeUpgradeRolloutStatus::fromJson(const Json &j)
{
    NodeUpgradeRolloutStatus s;
    if (!j.is_object())
        return s;
    if (auto p = rolloutPhaseFromString(kube::stringOr(j, "phase")))
        s.phase = *p;
    s.observedGeneration = kube::integerOr<std::int64_t>(j, "observedGeneration", 0);
    s.targetVersion = kube::stringOr(j, "targetVersion");
    s.counts = {kube::integerOr<int>(j, "nodes", 0),    kube::integerOr<int>(j, "upToDate", 0),
                kube::integerOr<int>(j, "upgraded", 0), kube::integerOr<int>(j, "inFlight", 0),
                kube::integerOr<int>(j, "pending", 0),  kube::integerOr<int>(j, "held", 0),
                kube::integerOr<int>(j, "blocked", 0),  kube::integerOr<int>(j, "failed", 0),
                kube::integerOr<int>(j, "skipped", 0)};
    s.unavailable = kube::integerOr<int>(j, "unavailable", 0);
    s.maxUnavailableResolved = kube::integerOr<int>(j, "maxUnavailableResolved", 1);
    s.maxUnavailableClamped = kube::boolOr(j, "maxUnavailableClamped", false);
    s.headline = kube::stringOr(j, "headline");
    if (const auto phrase = j.find("headlinePhrase"); phrase != j.end())
        s.headlinePhrase = phraseFromJson(*phrase).value_or(Phrase());
    if (j.contains("eta") && j["eta"].is_string())
        if (auto d = kube::parseDuration(j["eta"].get<std::string>()))
            s.eta = *d;
    for (const auto &c : j.value("conditions", Json::array()))
        s.conditions.push_back({kube::stringOr(c, "type"), kube::stringOr(c, "status", "False"),
                                kube::stringOr(c, "reason"), kube::stringOr(c, "message"),
                                timeFrom(c, "lastTransitionTime").value_or(0)});
    for (const auto &d : j.value("inflightDeletions", Json::array()))
        s.inflight.push_back({kube::stringOr(d, "controller"), kube::stringOr(d, "podUID"),
                              kube::stringOr(d, "pod"), kube::stringOr(d, "node"),
                              timeFrom(d, "time").value_or(0), kube::integerOr<int>(d, "readyBefore", 0),
                              kube::boolOr(d, "slowReported", false)});
    for (const auto &q : j.value("queue", Json::array()))
        if (q.is_string())
            s.queue.push_back(q.get<std::string>());
    for (const auto &q : j.value("removedNodes", Json::array()))
        if (q.is_string())
            s.removedNodes.push_back(q.get<std::string>());
    for (const auto &q : j.value("nodeDurations", Json::array()))
        if (q.is_number_integer())
            s.nodeDurations.push_back(q.get<kube::Duration>());
    s.pausedAt = timeFrom(j, "pausedAt");
    s.lastCompletion = timeFrom(j, "lastCompletion");
    s.startedAt = timeFrom(j, "startedAt");
    s.refusal = kube::stringOr(j, "refusal");
    return s;
}

// ---- object ------------------------------------------------------------------------------

Json nodeUpgradeRolloutManifest(const std::string &name, const Json &spec)
{
    return {{"apiVersion", kNodeUpgradeApiVersion},
            {"kind", kNodeUpgradeKind},
            {"metadata", {{"name", name}}},
            {"spec", spec}};
}

Json NodeUpgradeRollout::toJson() const
{
    return {{"apiVersion", kNodeUpgradeApiVersion},
            {"kind", kNodeUpgradeKind},
            {"metadata", metadata.toJson()},
            {"spec", spec.toJson()},
            {"status", status.toJson()}};
}

kube::Result<NodeUpgradeRollout> NodeUpgradeRollout::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("a NodeUpgradeRollout must be a map");
    NodeUpgradeRollout r;
    auto meta = kube::ObjectMeta::fromJson(j.value("metadata", Json::object()));
    if (!meta)
        return meta.error();
    r.metadata = *meta;
    auto spec = NodeUpgradeRolloutSpec::fromJson(j.value("spec", Json::object()));
    if (!spec)
        return spec.error();
    r.spec = *spec;
    auto status = NodeUpgradeRolloutStatus::fromJson(j.value("status", Json::object()));
    if (!status)
        return status.error();
    r.status = *status;
    return r;
}

} // namespace api
