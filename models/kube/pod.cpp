#include "models/kube/pod.h"

namespace kube {

bool Pod::isAvailable(int minReadySeconds, Timestamp now) const
{
    if (!ready)
        return false;
    if (minReadySeconds == 0)
        return true;
    return readyTransitionTime && *readyTransitionTime + Timestamp{minReadySeconds} * 1000 <= now;
}

Json Pod::toJson() const
{
    Json j = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", metadata.toJson()}};
    Json s = spec ? *spec : Json::object();
    if (!nodeName.empty())
        s["nodeName"] = nodeName;
    if (!targetNode.empty()) {
        s["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
            {"nodeSelectorTerms",
             Json::array({{{"matchFields", Json::array({{{"key", "metadata.name"},
                                                         {"operator", "In"},
                                                         {"values", Json::array({targetNode})}}})}}})}};
    }
    j["spec"] = std::move(s);
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
        for (const auto &c : (*spec)["containers"]) {
            Json state = Json::object();
            if (!waitingReason.empty())
                state["waiting"] = {{"reason", waitingReason}};
            else if (phase == "Running")
                state["running"] = Json::object();
            cs.push_back({{"name", c.value("name", "")},
                          {"image", c.value("image", "")},
                          {"ready", ready},
                          {"restartCount", restartCount},
                          {"state", state}});
        }
        st["containerStatuses"] = std::move(cs);
    }
    j["status"] = std::move(st);
    return j;
}

Result<Pod> Pod::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Pod: expected an object");
    Pod p;
    auto meta = ObjectMeta::fromJson(j.contains("metadata") ? j["metadata"] : Json());
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
        // A DaemonSet pod is pinned by a single matchFields term on metadata.name.
        const Json *terms = nullptr;
        if (s.contains("affinity") && s["affinity"].is_object() && s["affinity"].contains("nodeAffinity")) {
            const Json &na = s["affinity"]["nodeAffinity"];
            if (na.is_object() && na.contains("requiredDuringSchedulingIgnoredDuringExecution"))
                terms = &na["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
        }
        if (terms && terms->is_array() && terms->size() == 1 && (*terms)[0].contains("matchFields")) {
            const Json &mf = (*terms)[0]["matchFields"];
            if (mf.is_array() && mf.size() == 1 && mf[0].value("key", "") == "metadata.name" &&
                mf[0].contains("values") && mf[0]["values"].is_array() && mf[0]["values"].size() == 1 &&
                mf[0]["values"][0].is_string()) {
                p.targetNode = mf[0]["values"][0].get<std::string>();
                s["affinity"].erase("nodeAffinity");
                if (s["affinity"].empty())
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
                if (!cond.is_object() || cond.value("type", "") != "Ready")
                    continue;
                p.ready = cond.value("status", "") == "True";
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
                p.restartCount += c.value("restartCount", 0);
                if (p.waitingReason.empty() && c.contains("state") && c["state"].is_object() &&
                    c["state"].contains("waiting") && c["state"]["waiting"].is_object())
                    p.waitingReason = c["state"]["waiting"].value("reason", "");
            }
        }
    }
    return p;
}

} // namespace kube
