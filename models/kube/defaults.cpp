#include "models/kube/defaults.h"

#include "models/kube/jsonfield.h"

namespace kube {

std::string defaultPullPolicy(const std::string &image)
{
    if (image.find('@') != std::string::npos)
        return "IfNotPresent";
    const auto slash = image.rfind('/');
    const auto colon = image.rfind(':');
    const bool hasTag = colon != std::string::npos && (slash == std::string::npos || colon > slash);
    if (!hasTag || image.substr(colon + 1) == "latest")
        return "Always";
    return "IfNotPresent";
}

namespace {

void setIfMissing(Json &obj, const char *key, Json value)
{
    if (!obj.contains(key) || obj[key].is_null())
        obj[key] = std::move(value);
}

void defaultProbe(Json &probe)
{
    if (!probe.is_object())
        return;
    setIfMissing(probe, "timeoutSeconds", 1);
    setIfMissing(probe, "periodSeconds", 10);
    setIfMissing(probe, "successThreshold", 1);
    setIfMissing(probe, "failureThreshold", 3);
    if (auto it = probe.find("httpGet"); it != probe.end() && it->is_object()) {
        setIfMissing(*it, "path", "/");
        setIfMissing(*it, "scheme", "HTTP");
    }
}

void defaultEnv(Json &env)
{
    if (!env.is_array())
        return;
    for (auto &e : env) {
        if (!e.is_object())
            continue;
        auto vf = e.find("valueFrom");
        if (vf == e.end() || !vf->is_object())
            continue;
        if (auto fr = vf->find("fieldRef"); fr != vf->end() && fr->is_object())
            setIfMissing(*fr, "apiVersion", "v1");
    }
}

void defaultContainer(Json &c)
{
    if (!c.is_object())
        return;
    if (c.contains("image") && c["image"].is_string())
        setIfMissing(c, "imagePullPolicy", defaultPullPolicy(c["image"].get<std::string>()));
    setIfMissing(c, "terminationMessagePath", "/dev/termination-log");
    setIfMissing(c, "terminationMessagePolicy", "File");
    setIfMissing(c, "resources", Json::object());
    if (auto it = c.find("ports"); it != c.end() && it->is_array()) {
        for (auto &p : *it) {
            if (!p.is_object())
                continue;
            setIfMissing(p, "protocol", "TCP");
        }
    }
    for (const char *probe : {"livenessProbe", "readinessProbe", "startupProbe"})
        if (auto it = c.find(probe); it != c.end())
            defaultProbe(*it);
    if (auto it = c.find("env"); it != c.end())
        defaultEnv(*it);
}

void defaultVolume(Json &v)
{
    if (!v.is_object())
        return;
    for (const char *src : {"configMap", "secret"}) {
        if (auto it = v.find(src); it != v.end() && it->is_object())
            setIfMissing(*it, "defaultMode", 420);
    }
    if (auto it = v.find("hostPath"); it != v.end() && it->is_object())
        setIfMissing(*it, "type", "");
    if (auto it = v.find("projected"); it != v.end() && it->is_object())
        setIfMissing(*it, "defaultMode", 420);
    if (auto it = v.find("downwardAPI"); it != v.end() && it->is_object())
        setIfMissing(*it, "defaultMode", 420);
}

} // namespace

void applyPodSpecDefaults(Json &spec)
{
    if (!spec.is_object())
        return;
    setIfMissing(spec, "restartPolicy", "Always");
    setIfMissing(spec, "dnsPolicy", "ClusterFirst");
    setIfMissing(spec, "schedulerName", "default-scheduler");
    setIfMissing(spec, "securityContext", Json::object());
    setIfMissing(spec, "terminationGracePeriodSeconds", 30);
    for (const char *list : {"containers", "initContainers"}) {
        if (auto it = spec.find(list); it != spec.end() && it->is_array())
            for (auto &c : *it)
                defaultContainer(c);
    }
    if (auto it = spec.find("volumes"); it != spec.end() && it->is_array())
        for (auto &v : *it)
            defaultVolume(v);
}

bool applyPodDefaults(Json &spec)
{
    if (!spec.is_object())
        return false;
    bool changed = false;
    if (!spec.contains("enableServiceLinks") || spec["enableServiceLinks"].is_null()) {
        spec["enableServiceLinks"] = true;
        changed = true;
    }
    const bool hostNetwork = boolOr(spec, "hostNetwork", false);
    for (const char *list : {"containers", "initContainers"}) {
        auto it = spec.find(list);
        if (it == spec.end() || !it->is_array())
            continue;
        for (auto &c : *it) {
            if (!c.is_object())
                continue;
            // Requests default to the limits given for resources that have no request.
            if (auto res = c.find("resources"); res != c.end() && res->is_object())
                if (auto limits = res->find("limits"); limits != res->end() && limits->is_object())
                    for (const auto &[name, value] : limits->items()) {
                        Json &requests = (*res)["requests"];
                        if (!requests.is_object())
                            requests = Json::object();
                        if (!requests.contains(name)) {
                            requests[name] = value;
                            changed = true;
                        }
                    }
            // defaultHostNetworkPorts: a host-network pod's ports are host ports.
            if (auto ports = c.find("ports"); hostNetwork && ports != c.end() && ports->is_array())
                for (auto &port : *ports)
                    if (port.is_object() && port.contains("containerPort") &&
                        (!port.contains("hostPort") || port["hostPort"].is_null())) {
                        port["hostPort"] = port["containerPort"];
                        changed = true;
                    }
        }
    }
    return changed;
}

void applyPodTemplateDefaults(Json &tpl)
{
    if (!tpl.is_object())
        return;
    if (!tpl.contains("metadata") || !tpl["metadata"].is_object())
        tpl["metadata"] = Json::object();
    // metav1.Time zero value serialises as null (≤ 1.33).
    if (!tpl["metadata"].contains("creationTimestamp"))
        tpl["metadata"]["creationTimestamp"] = nullptr;
    if (!tpl.contains("spec") || !tpl["spec"].is_object())
        tpl["spec"] = Json::object();
    applyPodSpecDefaults(tpl["spec"]);
}

void applyDaemonSetDefaults(Json &ds)
{
    if (!ds.is_object())
        return;
    if (!ds.contains("spec") || !ds["spec"].is_object())
        ds["spec"] = Json::object();
    Json &spec = ds["spec"];
    if (!spec.contains("updateStrategy") || !spec["updateStrategy"].is_object())
        spec["updateStrategy"] = Json::object();
    Json &us = spec["updateStrategy"];
    setIfMissing(us, "type", "RollingUpdate");
    if (us["type"] == "RollingUpdate") {
        setIfMissing(us, "rollingUpdate", Json::object());
        if (us["rollingUpdate"].is_object()) {
            setIfMissing(us["rollingUpdate"], "maxUnavailable", 1);
            setIfMissing(us["rollingUpdate"], "maxSurge", 0);
        }
    }
    setIfMissing(spec, "revisionHistoryLimit", 10);
    if (!spec.contains("template") || !spec["template"].is_object())
        spec["template"] = Json::object();
    applyPodTemplateDefaults(spec["template"]);
}

void applyReplicaSetDefaults(Json &rs)
{
    if (!rs.is_object())
        return;
    if (!rs.contains("spec") || !rs["spec"].is_object())
        rs["spec"] = Json::object();
    setIfMissing(rs["spec"], "replicas", 1);
    if (!rs["spec"].contains("template") || !rs["spec"]["template"].is_object())
        rs["spec"]["template"] = Json::object();
    applyPodTemplateDefaults(rs["spec"]["template"]);
}

} // namespace kube
