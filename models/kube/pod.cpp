#include "models/kube/pod.h"

#include "models/kube/gojson.h"
#include "models/kube/jsonfield.h"
#include "models/kube/simulatedcrash.h"

#include <algorithm>
#include <climits>
#include <utility>

namespace kube {

bool Pod::isAvailable(int minReadySeconds, Timestamp now) const
{
    if (!ready)
        return false;
    if (minReadySeconds == 0)
        return true;
    return readyTransitionTime && *readyTransitionTime + Timestamp{minReadySeconds} * 1000 <= now;
}

namespace {

// The required node affinity that pins a DaemonSet pod to its node (matchFields on
// metadata.name), set inside `affinity` as the DaemonSet controller sets it.
void pinToNode(Json &affinity, const std::string &node)
{
    affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
        {"nodeSelectorTerms",
         Json::array({{{"matchFields", Json::array({{{"key", "metadata.name"},
                                                     {"operator", "In"},
                                                     {"values", Json::array({node})}}})}}})}};
}

// The pin as pinToNode() sets it into an empty affinity, as text before and after the node's
// quoted name: written once from pinToNode itself, so the two forms cannot disagree.
const std::pair<std::string, std::string> &pinText()
{
    static const std::pair<std::string, std::string> parts = [] {
        Json affinity = Json::object();
        pinToNode(affinity, std::string());
        const std::string text = goJson(affinity);
        const auto at = text.find("\"\"");
        return std::pair{text.substr(0, at), text.substr(at + 2)};
    }();
    return parts;
}

} // namespace

Json Pod::toJson() const
{
    Json j = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", metadata.toJson()}};
    Json s = spec ? *spec : Json::object();
    if (!nodeName.empty())
        s["nodeName"] = nodeName;
    if (!targetNode.empty())
        pinToNode(s["affinity"], targetNode);
    j["spec"] = std::move(s);
    j["status"] = statusJson();
    return j;
}

Json Pod::statusJson() const
{
    Json st = {{"phase", phase}};
    Json conds = Json::array();
    if (!nodeName.empty())
        conds.push_back({{"type", "PodScheduled"}, {"status", "True"}});
    Json readyCond = {{"type", "Ready"}, {"status", ready ? "True" : "False"}};
    if (readyTransitionTime)
        readyCond["lastTransitionTime"] = formatRfc3339(*readyTransitionTime);
    if (phase != "Pending" || ready)
        conds.push_back(std::move(readyCond));
    st["conditions"] = std::move(conds);
    if (startTime)
        st["startTime"] = formatRfc3339(*startTime);
    if (spec && spec->contains("containers") && (*spec)["containers"].is_array()) {
        Json cs = Json::array();
        // The record keeps the pod's total; the first container carries it, so that the sum
        // fromJson() takes (and kubectl's RESTARTS column) reads back the same number.
        int restartsLeft = restartCount;
        for (const auto &c : (*spec)["containers"]) {
            Json state = Json::object();
            if (!waitingReason.empty())
                state["waiting"] = {{"reason", waitingReason}};
            else if (phase == "Running")
                state["running"] = Json::object();
            else if (phase == "Succeeded")
                state["terminated"] = {{"exitCode", 0}, {"reason", "Completed"}};
            else if (phase == "Failed")
                state["terminated"] = {{"exitCode", 1}, {"reason", "Error"}};
            Json status = {{"name", stringOr(c, "name")},
                           {"image", stringOr(c, "image")},
                           {"ready", ready},
                           {"restartCount", std::exchange(restartsLeft, 0)},
                           {"state", state}};
            // A crash-looping container: the attempt that ended, as the kubelet reports it.
            if (waitingReason == "CrashLoopBackOff" && restartCount > 0)
                status["lastState"] = {
                    {"terminated",
                     {{"exitCode", 1},
                      {"reason", "Error"},
                      {"message", simulatedCrashMessage(stringOr(c, "name"), stringOr(c, "image"))}}}};
            cs.push_back(std::move(status));
        }
        st["containerStatuses"] = std::move(cs);
    }
    return st;
}

void PodJsonWriter::append(std::string &out, const Pod &pod)
{
    out += R"({"apiVersion":"v1","kind":"Pod","metadata":)";
    appendGoJson(out, pod.metadata.toJson());
    out += R"(,"spec":)";
    appendSpec(out, pod);
    out += R"(,"status":)";
    appendGoJson(out, pod.statusJson());
    out += '}';
}

const PodJsonWriter::EncodedSpec &PodJsonWriter::encoded(const std::shared_ptr<const Json> &spec)
{
    for (const auto &e : m_specs)
        if (e.spec == spec)
            return e;
    EncodedSpec e{spec, {}};
    e.members.reserve(spec->size());
    for (auto it = spec->begin(); it != spec->end(); ++it) {
        Member m{&it.key(), &it.value(), {}};
        appendGoJson(m.text, it.value());
        e.members.push_back(std::move(m));
    }
    m_specs.push_back(std::move(e));
    return m_specs.back();
}

void PodJsonWriter::appendSpec(std::string &out, const Pod &pod)
{
    if (!pod.spec || !pod.spec->is_object()) {
        appendGoJson(out, pod.toJson()["spec"]); // what toJson() makes of it, rare
        return;
    }
    static const std::string kAffinity = "affinity";
    static const std::string kNodeName = "nodeName";
    bool first = true;
    const auto put = [&](const std::string &key) {
        out += first ? '{' : ',';
        first = false;
        appendGoString(out, key);
        out += ':';
    };
    // The pinned affinity: the spec's own (its other terms kept) with the pin set, as toJson().
    const auto putAffinity = [&](const Json *own) {
        put(kAffinity);
        if (own) {
            Json a = *own;
            pinToNode(a, pod.targetNode);
            appendGoJson(out, a);
            return;
        }
        out += pinText().first;
        appendGoString(out, pod.targetNode);
        out += pinText().second;
    };
    const auto putNodeName = [&] {
        put(kNodeName);
        appendGoString(out, pod.nodeName);
    };
    bool affinityLeft = !pod.targetNode.empty();
    bool nodeNameLeft = !pod.nodeName.empty();
    for (const Member &m : encoded(pod.spec).members) {
        if (affinityLeft && *m.key >= kAffinity) {
            affinityLeft = false;
            putAffinity(*m.key == kAffinity ? m.value : nullptr);
            if (*m.key == kAffinity)
                continue;
        }
        if (nodeNameLeft && *m.key >= kNodeName) {
            nodeNameLeft = false;
            putNodeName();
            if (*m.key == kNodeName)
                continue;
        }
        put(*m.key);
        out += m.text;
    }
    if (affinityLeft)
        putAffinity(nullptr);
    if (nodeNameLeft)
        putNodeName();
    if (first)
        out += '{';
    out += '}';
}

std::string simulatedCrashMessage(const std::string &container, const std::string &image)
{
    return "fatal: container " + container + " exited with code 1: image " + image +
           " never becomes ready (a failing image of this simulation)";
}

Result<Pod> Pod::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Pod: expected an object");
    Pod p;
    const Json *metaJson = member(j, "metadata");
    auto meta = ObjectMeta::fromJson(metaJson ? *metaJson : Json());
    if (!meta)
        return meta.error();
    p.metadata = std::move(*meta);
    if (auto it = j.find("spec"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            return ApiStatus::badRequest("Pod field spec: expected an object");
        Json s = *it;
        if (auto nn = s.find("nodeName"); nn != s.end() && nn->is_string())
            p.nodeName = nn->get<std::string>();
        s.erase("nodeName");
        // A DaemonSet pod is pinned by a single matchFields term on metadata.name (and nothing
        // else in its node affinity, which is dropped when the pin is taken out).
        const Json *affinity = member(s, "affinity");
        const Json *na = affinity ? member(*affinity, "nodeAffinity") : nullptr;
        const Json *required = na ? member(*na, "requiredDuringSchedulingIgnoredDuringExecution") : nullptr;
        const Json *terms = required ? member(*required, "nodeSelectorTerms") : nullptr;
        const Json *mf = terms && terms->is_array() && terms->size() == 1
                             ? member(terms->front(), "matchFields")
                             : nullptr;
        if (mf && mf->is_array() && mf->size() == 1 && stringOr(mf->front(), "key") == "metadata.name") {
            const Json *values = member(mf->front(), "values");
            if (values && values->is_array() && values->size() == 1 && values->front().is_string()) {
                p.targetNode = values->front().get<std::string>();
                Json &a = s["affinity"];
                a.erase("nodeAffinity");
                if (a.empty())
                    s.erase("affinity");
            }
        }
        p.spec = std::make_shared<const Json>(std::move(s));
    }
    if (auto it = j.find("status"); it != j.end() && it->is_object()) {
        const Json &st = *it;
        if (auto ph = st.find("phase"); ph != st.end() && ph->is_string())
            p.phase = ph->get<std::string>();
        if (auto c = st.find("conditions"); c != st.end() && c->is_array()) {
            for (const auto &cond : *c) {
                if (stringOr(cond, "type") != "Ready")
                    continue;
                p.ready = stringOr(cond, "status") == "True";
                if (auto lt = cond.find("lastTransitionTime"); lt != cond.end() && lt->is_string()) {
                    auto t = parseRfc3339(lt->get<std::string>());
                    if (t)
                        p.readyTransitionTime = *t;
                }
            }
        }
        if (auto t = st.find("startTime"); t != st.end() && t->is_string()) {
            auto ts = parseRfc3339(t->get<std::string>());
            if (ts)
                p.startTime = *ts;
        }
        if (auto cs = st.find("containerStatuses"); cs != st.end() && cs->is_array()) {
            for (const auto &c : *cs) {
                if (!c.is_object())
                    continue;
                const std::int64_t restarts =
                    std::int64_t{p.restartCount} + std::max(0, integerOr(c, "restartCount", 0));
                p.restartCount = static_cast<int>(std::min<std::int64_t>(restarts, INT_MAX));
                const Json *state = member(c, "state");
                const Json *waiting = state ? member(*state, "waiting") : nullptr;
                if (p.waitingReason.empty() && waiting)
                    p.waitingReason = stringOr(*waiting, "reason");
            }
        }
    }
    return p;
}

} // namespace kube
