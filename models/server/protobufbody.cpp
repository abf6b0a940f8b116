#include "models/server/protobufbody.h"
#include "models/kube/timeutil.h"
#include "models/server/protobufwire.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace server {

namespace {

using namespace protowire;

// core/v1 Namespace: spec {finalizers 1}.
kube::Result<Json> namespaceObject(std::string_view message)
{
    return objectWithSpec(message, "Namespace", "v1", [](const Field &x, Json &spec) -> kube::Result<void> {
        return x.number == 1 ? stringList(x, "finalizers", spec["finalizers"]) : kube::Result<void>();
    });
}

// policy/v1 PodDisruptionBudget: spec {minAvailable 1, selector 2, maxUnavailable 3,
// unhealthyPodEvictionPolicy 4}.
kube::Result<Json> podDisruptionBudget(std::string_view message)
{
    return objectWithSpec(
        message, "PodDisruptionBudget", "policy/v1", [](const Field &x, Json &spec) -> kube::Result<void> {
            if (x.number == 4)
                return textField(x, "unhealthyPodEvictionPolicy", spec);
            if (x.number < 1 || x.number > 3)
                return {};
            if (x.wireType != 2)
                return malformed("a PodDisruptionBudget spec field is not a message");
            auto v = x.number == 2 ? labelSelector(x.bytes)
                                   : intOrString(x.bytes, x.number == 1 ? "minAvailable" : "maxUnavailable");
            if (!v)
                return v.error();
            spec[x.number == 1   ? "minAvailable"
                 : x.number == 2 ? "selector"
                                 : "maxUnavailable"] = std::move(*v);
            return {};
        });
}

// core/v1 ServicePort: name 1, protocol 2, port 3, targetPort 4, nodePort 5, appProtocol 6.
kube::Result<Json> servicePort(std::string_view message)
{
    Json port = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 1:
            return textField(f, "name", port);
        case 2:
            return textField(f, "protocol", port);
        case 6:
            return textField(f, "appProtocol", port);
        case 3:
            return int32Field(f, "port", port);
        case 5:
            return int32Field(f, "nodePort", port);
        case 4: {
            if (f.wireType != 2)
                return malformed("targetPort is not a message");
            auto v = intOrString(f.bytes, "targetPort");
            if (!v)
                return v.error();
            port["targetPort"] = std::move(*v);
            return {};
        }
        default:
            return {};
        }
    });
    if (!r)
        return r.error();
    return port;
}

// core/v1 Service: spec {ports 1, selector 2, clusterIP 3, type 4, externalIPs 5,
// sessionAffinity 7, loadBalancerIP 8, loadBalancerSourceRanges 9, externalName 10,
// externalTrafficPolicy 11, publishNotReadyAddresses 13, ipFamilyPolicy 17, clusterIPs 18,
// ipFamilies 19, allocateLoadBalancerNodePorts 20, internalTrafficPolicy 22} (the fields the
// engine keeps; others are dropped as the engine would drop them).
kube::Result<Json> serviceObject(std::string_view message)
{
    return objectWithSpec(message, "Service", "v1", [](const Field &x, Json &spec) -> kube::Result<void> {
        switch (x.number) {
        case 1: {
            if (x.wireType != 2)
                return malformed("ports is not a message");
            auto p = servicePort(x.bytes);
            if (!p)
                return p.error();
            spec["ports"].push_back(std::move(*p));
            return {};
        }
        case 2:
            return mapEntry(x, "selector", spec["selector"]);
        case 3:
            return textField(x, "clusterIP", spec);
        case 4:
            return textField(x, "type", spec);
        case 5:
            return stringList(x, "externalIPs", spec["externalIPs"]);
        case 7:
            return textField(x, "sessionAffinity", spec);
        case 8:
            return textField(x, "loadBalancerIP", spec);
        case 9:
            return stringList(x, "loadBalancerSourceRanges", spec["loadBalancerSourceRanges"]);
        case 10:
            return textField(x, "externalName", spec);
        case 11:
            return textField(x, "externalTrafficPolicy", spec);
        case 13:
            return boolField(x, "publishNotReadyAddresses", spec);
        case 17:
            return textField(x, "ipFamilyPolicy", spec);
        case 18:
            return stringList(x, "clusterIPs", spec["clusterIPs"]);
        case 19:
            return stringList(x, "ipFamilies", spec["ipFamilies"]);
        case 20:
            return boolField(x, "allocateLoadBalancerNodePorts", spec);
        case 22:
            return textField(x, "internalTrafficPolicy", spec);
        default:
            return {};
        }
    });
}

// core/v1 Container, as `kubectl create job|deployment` fills it: name 1, image 2, command 3,
// args 4, workingDir 5, env 7 (name 1, value 2), resources 8 (limits 1, requests 2),
// terminationMessagePath 13, imagePullPolicy 14, stdin 16, stdinOnce 17, tty 18,
// terminationMessagePolicy 20, restartPolicy 24.
kube::Result<Json> container(std::string_view message)
{
    Json c = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 1:
            return textField(f, "name", c);
        case 2:
            return optionalText(f, "image", c);
        case 3:
            return stringList(f, "command", c["command"]);
        case 4:
            return stringList(f, "args", c["args"]);
        case 5:
            return optionalText(f, "workingDir", c);
        case 13:
            return optionalText(f, "terminationMessagePath", c);
        case 14:
            return optionalText(f, "imagePullPolicy", c);
        case 20:
            return optionalText(f, "terminationMessagePolicy", c);
        case 24:
            return textField(f, "restartPolicy", c);
        case 16:
        case 17:
        case 18: {
            const char *name = f.number == 16 ? "stdin" : f.number == 17 ? "stdinOnce" : "tty";
            if (f.wireType != 0)
                return malformed(std::string(name) + " is not a varint");
            if (f.varint)
                c[name] = true;
            return {};
        }
        case 7: {
            if (f.wireType != 2)
                return malformed("env is not a message");
            Json var = Json::object();
            auto e = eachField(f.bytes, [&](const Field &x) -> kube::Result<void> {
                if (x.number == 1)
                    return textField(x, "name", var);
                if (x.number == 2)
                    return optionalText(x, "value", var);
                return x.bytes.empty() && x.wireType == 2 ? kube::Result<void>()
                                                          : notDecoded("EnvVar", x.number, "valueFrom");
            });
            if (!e)
                return e.error();
            c["env"].push_back(std::move(var));
            return {};
        }
        case 8: {
            if (f.wireType != 2)
                return malformed("resources is not a message");
            Json res = Json::object();
            auto e = eachField(f.bytes, [&](const Field &x) -> kube::Result<void> {
                if (x.number == 1)
                    return quantityMap(x, "limits", res["limits"]);
                if (x.number == 2)
                    return quantityMap(x, "requests", res["requests"]);
                return notDecoded("ResourceRequirements", x.number, "claims");
            });
            if (!e)
                return e.error();
            c["resources"] = std::move(res);
            return {};
        }
        default:
            // An empty message or string is the zero value proto always writes.
            if (f.wireType == 2 && f.bytes.empty())
                return {};
            return notDecoded("Container", f.number,
                              "ports, env sources, mounts, probes or security context");
        }
    });
    if (!r)
        return r.error();
    return c;
}

// core/v1 PodSpec: the containers and the scalar fields; anything else set is refused.
kube::Result<Json> podSpec(std::string_view message)
{
    Json spec = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 2:
        case 20: {
            if (f.wireType != 2)
                return malformed("a container is not a message");
            auto c = container(f.bytes);
            if (!c)
                return c.error();
            spec[f.number == 2 ? "containers" : "initContainers"].push_back(std::move(*c));
            return {};
        }
        case 3:
            return optionalText(f, "restartPolicy", spec);
        case 6:
            return optionalText(f, "dnsPolicy", spec);
        case 8:
            return optionalText(f, "serviceAccountName", spec);
        case 9:
            return optionalText(f, "serviceAccount", spec);
        case 10:
            return optionalText(f, "nodeName", spec);
        case 16:
            return optionalText(f, "hostname", spec);
        case 17:
            return optionalText(f, "subdomain", spec);
        case 19:
            return optionalText(f, "schedulerName", spec);
        case 24:
            return optionalText(f, "priorityClassName", spec);
        case 4:
            return int64Field(f, "terminationGracePeriodSeconds", spec);
        case 5:
            return int64Field(f, "activeDeadlineSeconds", spec);
        case 7:
            return mapEntry(f, "nodeSelector", spec["nodeSelector"]);
        case 11:
        case 12:
        case 13: {
            const char *name = f.number == 11 ? "hostNetwork" : f.number == 12 ? "hostPID" : "hostIPC";
            if (f.wireType != 0)
                return malformed(std::string(name) + " is not a varint");
            if (f.varint)
                spec[name] = true;
            return {};
        }
        case 21:
            return boolField(f, "automountServiceAccountToken", spec);
        case 30:
            return boolField(f, "enableServiceLinks", spec);
        default:
            if (f.wireType == 2 && f.bytes.empty())
                return {};
            return notDecoded("PodSpec", f.number, "volumes, tolerations, affinity or another nested field");
        }
    });
    if (!r)
        return r.error();
    return spec;
}

// batch/v1 Job: spec {parallelism 1, completions 2, activeDeadlineSeconds 3, selector 4,
// manualSelector 5, template 6 (metadata 1, spec 2), backoffLimit 7, ttlSecondsAfterFinished 8,
// completionMode 9, suspend 10, backoffLimitPerIndex 12, maxFailedIndexes 13,
// podReplacementPolicy 14, managedBy 15}; podFailurePolicy, successPolicy and scheduling are
// refused.
kube::Result<Json> jobObject(std::string_view message)
{
    return objectWithSpec(message, "Job", "batch/v1", [](const Field &x, Json &spec) -> kube::Result<void> {
        switch (x.number) {
        case 1:
            return int32Field(x, "parallelism", spec);
        case 2:
            return int32Field(x, "completions", spec);
        case 3:
            return int64Field(x, "activeDeadlineSeconds", spec);
        case 7:
            return int32Field(x, "backoffLimit", spec);
        case 8:
            return int32Field(x, "ttlSecondsAfterFinished", spec);
        case 12:
            return int32Field(x, "backoffLimitPerIndex", spec);
        case 13:
            return int32Field(x, "maxFailedIndexes", spec);
        case 5:
            return boolField(x, "manualSelector", spec);
        case 10:
            return boolField(x, "suspend", spec);
        case 9:
            return optionalText(x, "completionMode", spec);
        case 14:
            return optionalText(x, "podReplacementPolicy", spec);
        case 15:
            return optionalText(x, "managedBy", spec);
        case 4: {
            if (x.wireType != 2)
                return malformed("selector is not a message");
            auto s = labelSelector(x.bytes);
            if (!s)
                return s.error();
            spec["selector"] = std::move(*s);
            return {};
        }
        case 6: {
            if (x.wireType != 2)
                return malformed("template is not a message");
            Json tpl = Json::object();
            auto e = eachField(x.bytes, [&](const Field &t) -> kube::Result<void> {
                if (t.wireType != 2)
                    return malformed("a pod template field is not a message");
                auto v = t.number == 1   ? objectMeta(t.bytes)
                         : t.number == 2 ? podSpec(t.bytes)
                                         : kube::Result<Json>(Json());
                if (!v)
                    return v.error();
                if (t.number == 1 || t.number == 2)
                    tpl[t.number == 1 ? "metadata" : "spec"] = std::move(*v);
                return {};
            });
            if (!e)
                return e.error();
            spec["template"] = std::move(tpl);
            return {};
        }
        default:
            return notDecoded("JobSpec", x.number, "podFailurePolicy, successPolicy or scheduling");
        }
    });
}

// coordination.k8s.io/v1 Lease: spec {holderIdentity 1, leaseDurationSeconds 2, acquireTime 3,
// renewTime 4, leaseTransitions 5, strategy 6, preferredHolder 7}.
kube::Result<Json> leaseObject(std::string_view message)
{
    return objectWithSpec(message, "Lease", "coordination.k8s.io/v1",
                          [](const Field &x, Json &spec) -> kube::Result<void> {
                              switch (x.number) {
                              case 1:
                                  return textField(x, "holderIdentity", spec);
                              case 6:
                                  return textField(x, "strategy", spec);
                              case 7:
                                  return textField(x, "preferredHolder", spec);
                              case 2:
                                  return int32Field(x, "leaseDurationSeconds", spec);
                              case 5:
                                  return int32Field(x, "leaseTransitions", spec);
                              case 3:
                              case 4: {
                                  const char *name = x.number == 3 ? "acquireTime" : "renewTime";
                                  if (x.wireType != 2)
                                      return malformed(std::string(name) + " is not a message");
                                  auto t = microTime(x.bytes, name);
                                  if (!t)
                                      return t.error();
                                  spec[name] = std::move(*t);
                                  return {};
                              }
                              default:
                                  return {};
                              }
                          });
}

// The review objects kubectl auth sends: authorization.k8s.io/v1 SelfSubjectAccessReview
// {metadata 1, spec 2 {resourceAttributes 1 {namespace 1, verb 2, group 3, version 4, resource 5,
// subresource 6, name 7}, nonResourceAttributes 2 {path 1, verb 2}}}, SelfSubjectRulesReview
// {metadata 1, spec 2 {namespace 1}}, authentication.k8s.io SelfSubjectReview {metadata 1}.
kube::Result<Json> review(std::string_view message, const std::string &kind, const std::string &apiVersion)
{
    Json out = {
        {"kind", kind}, {"apiVersion", apiVersion}, {"metadata", Json::object()}, {"spec", Json::object()}};
    auto attributes = [](std::string_view bytes,
                         std::initializer_list<const char *> names) -> kube::Result<Json> {
        const std::vector<const char *> byNumber(names);
        Json a = Json::object();
        auto r = eachField(bytes, [&](const Field &f) -> kube::Result<void> {
            if (f.number == 0 || f.number > byNumber.size())
                return {};
            auto t = text(f, byNumber[f.number - 1]);
            if (!t)
                return t.error();
            a[byNumber[f.number - 1]] = *t;
            return {};
        });
        if (!r)
            return r.error();
        return a;
    };
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number != 2 || kind == "SelfSubjectReview")
            return {};
        if (f.wireType != 2)
            return malformed("spec is not a message");
        if (kind == "SelfSubjectRulesReview") {
            auto spec = attributes(f.bytes, {"namespace"});
            if (!spec)
                return spec.error();
            out["spec"] = std::move(*spec);
            return {};
        }
        return eachField(f.bytes, [&](const Field &x) -> kube::Result<void> {
            if (x.number != 1 && x.number != 2)
                return {};
            if (x.wireType != 2)
                return malformed("the review's attributes are not a message");
            auto a = x.number == 1 ? attributes(x.bytes, {"namespace", "verb", "group", "version", "resource",
                                                          "subresource", "name"})
                                   : attributes(x.bytes, {"path", "verb"});
            if (!a)
                return a.error();
            out["spec"][x.number == 1 ? "resourceAttributes" : "nonResourceAttributes"] = std::move(*a);
            return {};
        });
    });
    if (!r)
        return r.error();
    return out;
}

// meta.v1 DeleteOptions: gracePeriodSeconds 1, preconditions 2, orphanDependents 3,
// propagationPolicy 4, dryRun 5 (repeated).
kube::Result<Json> deleteOptions(std::string_view message)
{
    Json out = {{"kind", "DeleteOptions"}, {"apiVersion", "meta.k8s.io/v1"}};
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 1:
            if (f.wireType != 0)
                return malformed("gracePeriodSeconds is not a varint");
            out["gracePeriodSeconds"] = static_cast<std::int64_t>(f.varint);
            return {};
        case 2: {
            if (f.wireType != 2)
                return malformed("preconditions is not a message");
            auto p = preconditions(f.bytes);
            if (!p)
                return p.error();
            out["preconditions"] = std::move(*p);
            return {};
        }
        case 3:
            if (f.wireType != 0)
                return malformed("orphanDependents is not a varint");
            out["orphanDependents"] = f.varint != 0;
            return {};
        case 4: {
            auto s = text(f, "propagationPolicy");
            if (!s)
                return s.error();
            out["propagationPolicy"] = *s;
            return {};
        }
        case 5: {
            auto s = text(f, "dryRun");
            if (!s)
                return s.error();
            if (!out.contains("dryRun"))
                out["dryRun"] = Json::array();
            out["dryRun"].push_back(*s);
            return {};
        }
        default:
            return {}; // fields this server does not read (ignoreStoreReadError…)
        }
    });
    if (!r)
        return r.error();
    return out;
}

// policy/v1 Eviction: metadata 1 (ObjectMeta: name 1, namespace 3, uid 5, resourceVersion 6),
// deleteOptions 2.
kube::Result<Json> eviction(std::string_view message)
{
    Json out = {{"kind", "Eviction"}, {"apiVersion", "policy/v1"}, {"metadata", Json::object()}};
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 1) {
            if (f.wireType != 2)
                return malformed("metadata is not a message");
            return eachField(f.bytes, [&](const Field &m) -> kube::Result<void> {
                const char *name = m.number == 1   ? "name"
                                   : m.number == 3 ? "namespace"
                                   : m.number == 5 ? "uid"
                                   : m.number == 6 ? "resourceVersion"
                                                   : nullptr;
                if (!name)
                    return {};
                auto s = text(m, name);
                if (!s)
                    return s.error();
                out["metadata"][name] = *s;
                return {};
            });
        }
        if (f.number == 2) {
            if (f.wireType != 2)
                return malformed("deleteOptions is not a message");
            auto d = deleteOptions(f.bytes);
            if (!d)
                return d.error();
            out["deleteOptions"] = std::move(*d);
        }
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

} // namespace

bool isProtobufContentType(const std::string &contentType)
{
    std::string type = contentType.substr(0, contentType.find(';'));
    type.erase(std::remove_if(type.begin(), type.end(), [](unsigned char c) { return std::isspace(c); }),
               type.end());
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return type == kProtobufMediaType;
}

kube::Result<Json> decodeProtobufBody(const std::string &body)
{
    static constexpr std::string_view kMagic("k8s\0", 4);
    if (body.size() < kMagic.size() || std::string_view(body).substr(0, kMagic.size()) != kMagic)
        return malformed("it does not start with the \"k8s\\0\" envelope prefix");
    std::string apiVersion, kind, contentEncoding, contentType;
    std::string_view raw;
    auto r =
        eachField(std::string_view(body).substr(kMagic.size()), [&](const Field &f) -> kube::Result<void> {
            switch (f.number) {
            case 1: // typeMeta
                if (f.wireType != 2)
                    return malformed("typeMeta is not a message");
                return eachField(f.bytes, [&](const Field &t) -> kube::Result<void> {
                    if (t.number != 1 && t.number != 2)
                        return {};
                    auto s = text(t, t.number == 1 ? "typeMeta.apiVersion" : "typeMeta.kind");
                    if (!s)
                        return s.error();
                    (t.number == 1 ? apiVersion : kind) = *s;
                    return {};
                });
            case 2:
                if (f.wireType != 2)
                    return malformed("raw is not bytes");
                raw = f.bytes;
                return {};
            case 3:
            case 4: {
                auto s = text(f, f.number == 3 ? "contentEncoding" : "contentType");
                if (!s)
                    return s.error();
                (f.number == 3 ? contentEncoding : contentType) = *s;
                return {};
            }
            default:
                return {};
            }
        });
    if (!r)
        return r.error();
    if (!contentEncoding.empty())
        return malformed("the content encoding \"" + contentEncoding + "\" is not supported");
    if (kind == "DeleteOptions")
        return deleteOptions(raw);
    if (kind == "Namespace" && apiVersion == "v1")
        return namespaceObject(raw);
    if ((kind == "SelfSubjectAccessReview" || kind == "SelfSubjectRulesReview") &&
        apiVersion == "authorization.k8s.io/v1")
        return review(raw, kind, apiVersion);
    if (kind == "SelfSubjectReview" && apiVersion.rfind("authentication.k8s.io/", 0) == 0)
        return review(raw, kind, apiVersion);
    if (kind == "PodDisruptionBudget" && apiVersion == "policy/v1")
        return podDisruptionBudget(raw);
    if (kind == "Service" && apiVersion == "v1")
        return serviceObject(raw);
    if (kind == "Lease" && apiVersion == "coordination.k8s.io/v1")
        return leaseObject(raw);
    if (kind == "Job" && apiVersion == "batch/v1")
        return jobObject(raw);
    if (kind == "Eviction" && (apiVersion == "policy/v1" || apiVersion == "policy/v1beta1")) {
        auto e = eviction(raw);
        if (e)
            (*e)["apiVersion"] = apiVersion;
        return e;
    }
    return ApiStatus{
        415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json, application/yaml (protobuf only for DeleteOptions, Eviction, Namespace, "
        "PodDisruptionBudget, Service, Lease, Job and the self-subject reviews, not " +
            (apiVersion.empty() ? std::string() : apiVersion + ", ") + "Kind=" + kind + ")"};
}

} // namespace server
