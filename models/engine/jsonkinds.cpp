// Cluster::Impl: the JSON kinds — NodeUpgradeRollout, coordination.k8s.io/v1 Lease and v1
// Service. Their objects are decoded, checked and defaulted here and kept in canonical form
// (known fields only, defaults filled in), so two writes of the same object compare equal as
// JSON and a write that changes nothing is not made.
//
// Lease: LeaseSpec's fields with their Go types; acquireTime and renewTime are MicroTime
// (RFC 3339 with six fractional digits, UTC); ValidateLeaseSpec's checks. Service:
// SetDefaults_Service (type ClusterIP, session affinity None, protocol TCP, targetPort = port,
// the traffic policies, a single IPv4 family), ValidateService's checks of the fields kept, and
// the allocators: cluster IPs from 10.96.0.0/12 and node ports from 30000-32767, each the
// lowest free one (kube-apiserver picks at random; lowest-free keeps the engine
// deterministic), a requested one refused when taken or out of range, both immutable once set
// (patchAllocatedValues: an update that leaves them out keeps the allocated ones).

#include "models/api/nodeupgraderollout.h"
#include "models/api/validation.h"
#include "models/engine/clusterimpl.h"
#include "models/kube/jsonfield.h"

#include <algorithm>
#include <cstdio>

namespace engine {

using kube::ApiStatus;
using kube::Json;

namespace {

using kube::goQuote;

const char *goJsonTypeName(const Json &v)
{
    if (v.is_string())
        return "string";
    if (v.is_number())
        return "number";
    if (v.is_boolean())
        return "bool";
    if (v.is_array())
        return "array";
    return "object";
}

// What kube-apiserver's decoder says when a field has the wrong JSON type.
ApiStatus cannotDecode(api::Kind kind, const std::string &goField, const Json &got, const char *goType)
{
    const std::string version = api::apiVersion(kind);
    const auto slash = version.find('/');
    return ApiStatus::badRequest(std::string(api::kindName(kind)) + " in version \"" +
                                 (slash == std::string::npos ? version : version.substr(slash + 1)) +
                                 "\" cannot be handled as a " + api::kindName(kind) +
                                 ": json: cannot unmarshal " + goJsonTypeName(got) +
                                 " into Go struct field " + goField + " of type " + goType);
}

bool isInt32(const Json &v)
{
    if (!v.is_number_integer())
        return false;
    const auto n = v.get<long long>();
    return n >= INT32_MIN && n <= INT32_MAX;
}

// metav1.MicroTime as the API server writes it back: UTC with six fractional digits. The
// fraction is taken from the text (offsets shift whole minutes, never the fraction).
std::optional<std::string> canonicalMicroTime(const std::string &text)
{
    auto t = kube::parseRfc3339(text);
    if (!t)
        return std::nullopt;
    std::int64_t micros = 0;
    std::size_t digits = 0;
    if (auto dot = text.find('.'); dot != std::string::npos)
        for (std::size_t i = dot + 1;
             i < text.size() && digits < 6 && std::isdigit(static_cast<unsigned char>(text[i]));
             ++i, ++digits)
            micros = micros * 10 + (text[i] - '0');
    for (; digits < 6; ++digits)
        micros *= 10;
    const std::int64_t seconds = (*t - (((*t % 1000) + 1000) % 1000)) / 1000;
    return kube::formatMicroTime(seconds, micros);
}

// ---- Lease ----------------------------------------------------------------------------------

kube::Result<Json> leaseSpec(const Json *spec, const std::string &name)
{
    Json out = Json::object();
    if (!spec || spec->is_null())
        return out;
    if (!spec->is_object())
        return cannotDecode(api::Kind::Lease, "Lease.spec", *spec, "v1.LeaseSpec");
    std::vector<std::string> errors;
    for (const char *field : {"holderIdentity", "strategy", "preferredHolder"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "string");
        out[field] = *v;
    }
    for (const char *field : {"leaseDurationSeconds", "leaseTransitions"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!isInt32(*v))
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "int32");
        out[field] = *v;
        const long long n = v->get<long long>();
        if (std::string(field) == "leaseDurationSeconds" && n <= 0)
            errors.push_back("spec.leaseDurationSeconds: Invalid value: " + std::to_string(n) +
                             ": must be greater than 0");
        if (std::string(field) == "leaseTransitions" && n < 0)
            errors.push_back("spec.leaseTransitions: Invalid value: " + std::to_string(n) +
                             ": must be greater than or equal to 0");
    }
    for (const char *field : {"acquireTime", "renewTime"}) {
        const Json *v = kube::member(*spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(api::Kind::Lease, std::string("LeaseSpec.spec.") + field, *v, "v1.MicroTime");
        auto canonical = canonicalMicroTime(v->get<std::string>());
        if (!canonical)
            return ApiStatus::badRequest(
                "Lease in version \"v1\" cannot be handled as a Lease: parsing time \"" +
                v->get<std::string>() + "\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse");
        out[field] = *canonical;
    }
    if (out.contains("preferredHolder") && !out.contains("strategy"))
        errors.push_back("spec.strategy: Required value: must be specified when preferredHolder is set");
    if (auto r = api::invalidIfAny(api::qualifiedKind(api::Kind::Lease), name, std::move(errors)); !r)
        return r.error();
    return out;
}

// ---- Service --------------------------------------------------------------------------------

constexpr std::uint32_t kServiceNet = (10u << 24) | (96u << 16); // 10.96.0.0/12
constexpr std::uint32_t kServiceNetSize = 1u << 20;
constexpr int kNodePortMin = 30000;
constexpr int kNodePortMax = 32767;

std::string ipText(std::uint32_t ip)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
    return buf;
}

std::optional<std::uint32_t> parseIpv4(const std::string &text)
{
    unsigned a, b, c, d;
    char tail;
    if (std::sscanf(text.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 ||
        c > 255 || d > 255)
        return std::nullopt;
    if (ipText((a << 24) | (b << 16) | (c << 8) | d) != text) // no leading zeros or spaces
        return std::nullopt;
    return (a << 24) | (b << 16) | (c << 8) | d;
}

bool isIanaServiceName(const std::string &s)
{
    // IsValidPortName: 1-15 lower-case letters, digits and '-', at least one letter, no "--",
    // not starting or ending with '-'.
    if (s.empty() || s.size() > 15 || s.front() == '-' || s.back() == '-' ||
        s.find("--") != std::string::npos)
        return false;
    bool letter = false;
    for (char c : s) {
        if (c >= 'a' && c <= 'z')
            letter = true;
        else if (!(c >= '0' && c <= '9') && c != '-')
            return false;
    }
    return letter;
}

// A rollout the reader refuses, as kube-apiserver's Invalid with one cause naming the field
// under spec, so kubectl prints "… is invalid: spec.restart.mechanism: must be one of …".
ApiStatus rolloutInvalid(const std::string &kind, const std::string &name, const std::string &message)
{
    api::SpecError e = api::splitSpecError(message);
    if (!e.field.empty() && e.field.rfind("metadata", 0) != 0 && e.field.rfind("status", 0) != 0 &&
        e.field.rfind("spec", 0) != 0)
        e.field = "spec." + e.field;
    ApiStatus st = ApiStatus::invalid(kind, name, e.field.empty() ? e.message : e.field + ": " + e.message);
    st.causes.push_back({"FieldValueInvalid", e.message, e.field});
    return st;
}

} // namespace

kube::Result<Json> Cluster::Impl::prepareJsonObject(api::Kind kind, Json m, const Json *old, bool statusOnly)
{
    const std::string name = kube::stringOr(m["metadata"], "name");
    if (kind == api::Kind::NodeUpgradeRollout) {
        auto parse = [&](const Json &j) -> kube::Result<api::NodeUpgradeRollout> {
            try {
                auto r = api::NodeUpgradeRollout::fromJson(j);
                if (!r)
                    return rolloutInvalid(api::qualifiedKind(kind), name, r.error().message);
                return r;
            } catch (const std::exception &e) {
                return ApiStatus::badRequest(std::string("decoding ") + e.what());
            }
        };
        if (!old) {
            m.erase("status");
            auto r = parse(m);
            if (!r)
                return r.error();
            r->metadata.uid = rng.uuid();
            r->metadata.creationTimestamp = now;
            r->metadata.generation = 1;
            return r->toJson();
        }
        auto before = parse(*old);
        if (!before)
            return before.error();
        api::NodeUpgradeRollout r = *before;
        if (statusOnly) {
            const Json *status = kube::member(m, "status");
            auto parsed = api::NodeUpgradeRolloutStatus::fromJson(status ? *status : Json::object());
            if (!parsed)
                return ApiStatus::invalid(api::qualifiedKind(kind), name, parsed.error().message);
            r.status = std::move(*parsed);
        } else {
            auto parsed = parse(m);
            if (!parsed)
                return parsed.error();
            r = std::move(*parsed);
            r.status = before->status;
            r.metadata.generation = before->metadata.generation + (r.spec == before->spec ? 0 : 1);
        }
        return r.toJson();
    }

    // Lease and Service: the metadata as ObjectMeta writes it, then the kind's own fields.
    if (statusOnly && kind == api::Kind::Lease)
        return *old; // a Lease has no status
    auto meta = kube::ObjectMeta::fromJson(m["metadata"]);
    if (!meta)
        return meta.error();
    if (!old) {
        meta->uid = rng.uuid();
        meta->creationTimestamp = now;
    }
    Json out = {
        {"apiVersion", api::apiVersion(kind)}, {"kind", api::kindName(kind)}, {"metadata", meta->toJson()}};

    if (kind == api::Kind::Job)
        return prepareJob(std::move(out), m, old, statusOnly);
    if (kind == api::Kind::Lease) {
        auto spec = leaseSpec(kube::member(m, "spec"), name);
        if (!spec)
            return spec.error();
        out["spec"] = std::move(*spec);
        return out;
    }

    // Service
    if (statusOnly) {
        Json next = *old;
        const Json *status = kube::member(m, "status");
        if (status && !status->is_object())
            return cannotDecode(kind, "Service.status", *status, "v1.ServiceStatus");
        Json lb = status ? kube::member(*status, "loadBalancer") ? (*status)["loadBalancer"] : Json::object()
                         : Json::object();
        if (!lb.is_object())
            return cannotDecode(kind, "ServiceStatus.status.loadBalancer", lb, "v1.LoadBalancerStatus");
        next["status"] = {{"loadBalancer", lb}};
        return next;
    }
    const Json *specIn = kube::member(m, "spec");
    if (specIn && !specIn->is_null() && !specIn->is_object())
        return cannotDecode(kind, "Service.spec", *specIn, "v1.ServiceSpec");
    const Json spec = specIn && specIn->is_object() ? *specIn : Json::object();
    const Json *oldSpec = old ? kube::member(*old, "spec") : nullptr;
    std::vector<std::string> errors;
    Json s = Json::object();

    for (const char *field : {"type", "clusterIP", "externalName", "sessionAffinity", "loadBalancerIP",
                              "externalTrafficPolicy", "internalTrafficPolicy", "ipFamilyPolicy"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(kind, std::string("ServiceSpec.spec.") + field, *v, "string");
        if (!v->get<std::string>().empty())
            s[field] = *v;
    }
    for (const char *field : {"publishNotReadyAddresses", "allocateLoadBalancerNodePorts"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_boolean())
            return cannotDecode(kind, std::string("ServiceSpec.spec.") + field, *v, "bool");
        s[field] = *v;
    }
    for (const char *field : {"externalIPs", "clusterIPs", "ipFamilies", "loadBalancerSourceRanges"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_array())
            return cannotDecode(kind, std::string("ServiceSpec.spec.") + field, *v, "[]string");
        for (const auto &e : *v)
            if (!e.is_string())
                return cannotDecode(kind, std::string("ServiceSpec.spec.") + field, e, "string");
        if (!v->empty())
            s[field] = *v;
    }
    if (const Json *sel = kube::member(spec, "selector"); sel && !sel->is_null()) {
        auto labels = kube::stringMapFromJson(*sel, "spec.selector");
        if (!labels)
            return cannotDecode(kind, "ServiceSpec.spec.selector", *sel, "map[string]string");
        if (!labels->empty())
            s["selector"] = *sel;
    }

    const std::string type = kube::stringOr(s, "type", "ClusterIP");
    s["type"] = type;
    static const char *const kTypes[] = {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"};
    if (std::find_if(std::begin(kTypes), std::end(kTypes), [&](const char *t) { return type == t; }) ==
        std::end(kTypes))
        errors.push_back(
            "spec.type: Unsupported value: " + goQuote(type) +
            ": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"");
    const bool external = type == "ExternalName";
    const bool nodePorts = type == "NodePort" || type == "LoadBalancer";
    if (!s.contains("sessionAffinity"))
        s["sessionAffinity"] = "None";
    else if (s["sessionAffinity"] != "None" && s["sessionAffinity"] != "ClientIP")
        errors.push_back(
            "spec.sessionAffinity: Unsupported value: " + goQuote(s["sessionAffinity"].get<std::string>()) +
            ": supported values: \"ClientIP\", \"None\"");
    if (external) {
        if (kube::stringOr(s, "externalName").empty())
            errors.push_back("spec.externalName: Required value");
        for (const char *f :
             {"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy", "internalTrafficPolicy"})
            s.erase(f);
    } else {
        s.erase("externalName");
        if (!s.contains("internalTrafficPolicy"))
            s["internalTrafficPolicy"] = "Cluster";
    }
    if (nodePorts) {
        if (!s.contains("externalTrafficPolicy"))
            s["externalTrafficPolicy"] = "Cluster";
        if (type == "LoadBalancer" && !s.contains("allocateLoadBalancerNodePorts"))
            s["allocateLoadBalancerNodePorts"] = true;
    } else {
        s.erase("externalTrafficPolicy");
        s.erase("allocateLoadBalancerNodePorts");
    }

    // Ports. The node ports the stored object holds are its own to keep.
    const Json *oldPorts = oldSpec ? kube::member(*oldSpec, "ports") : nullptr;
    if (oldPorts && !oldPorts->is_array())
        oldPorts = nullptr;
    std::set<long long> ownedNodePorts;
    if (oldPorts)
        for (const auto &o : *oldPorts)
            if (o.contains("nodePort"))
                ownedNodePorts.insert(kube::integerOr<long long>(o, "nodePort", 0));
    Json ports = Json::array();
    std::set<std::string> portNames;
    std::set<int> takenHere;
    const Json *portsIn = kube::member(spec, "ports");
    if (portsIn && !portsIn->is_null() && !portsIn->is_array())
        return cannotDecode(kind, "ServiceSpec.spec.ports", *portsIn, "[]v1.ServicePort");
    const std::size_t portCount = portsIn && portsIn->is_array() ? portsIn->size() : 0;
    for (std::size_t i = 0; i < portCount; ++i) {
        const Json &p = (*portsIn)[i];
        const std::string path = "spec.ports[" + std::to_string(i) + "]";
        if (!p.is_object())
            return cannotDecode(kind, "ServiceSpec.spec.ports", p, "v1.ServicePort");
        Json port = Json::object();
        for (const char *field : {"name", "protocol", "appProtocol"}) {
            const Json *v = kube::member(p, field);
            if (v && !v->is_null() && !v->is_string())
                return cannotDecode(kind, std::string("ServicePort.spec.ports.") + field, *v, "string");
            if (v && v->is_string() && !v->get<std::string>().empty())
                port[field] = *v;
        }
        for (const char *field : {"port", "nodePort"}) {
            const Json *v = kube::member(p, field);
            if (v && !v->is_null() && !isInt32(*v))
                return cannotDecode(kind, std::string("ServicePort.spec.ports.") + field, *v, "int32");
            if (v && v->is_number_integer() && v->get<long long>() != 0)
                port[field] = *v;
        }
        const std::string portName = kube::stringOr(port, "name");
        if (portCount > 1 && portName.empty())
            errors.push_back(path + ".name: Required value");
        else if (!portName.empty() && !portNames.insert(portName).second)
            errors.push_back(path + ".name: Duplicate value: " + goQuote(portName));
        if (!port.contains("protocol"))
            port["protocol"] = "TCP";
        const std::string protocol = port["protocol"];
        if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP")
            errors.push_back(path + ".protocol: Unsupported value: " + goQuote(protocol) +
                             ": supported values: \"SCTP\", \"TCP\", \"UDP\"");
        const long long number = kube::integerOr<long long>(port, "port", 0);
        if (number < 1 || number > 65535)
            errors.push_back(path + ".port: Invalid value: " + std::to_string(number) +
                             ": must be between 1 and 65535, inclusive");
        port["port"] = number;
        const Json *target = kube::member(p, "targetPort");
        if (!target || target->is_null() || (target->is_number_integer() && target->get<long long>() == 0) ||
            (target->is_string() && target->get<std::string>().empty())) {
            port["targetPort"] = number;
        } else if (target->is_number_integer()) {
            const long long t = target->get<long long>();
            if (t < 1 || t > 65535)
                errors.push_back(path + ".targetPort: Invalid value: " + std::to_string(t) +
                                 ": must be between 1 and 65535, inclusive");
            port["targetPort"] = t;
        } else if (target->is_string()) {
            if (!isIanaServiceName(target->get<std::string>()))
                errors.push_back(path + ".targetPort: Invalid value: " + goQuote(target->get<std::string>()) +
                                 ": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
            port["targetPort"] = *target;
        } else {
            return cannotDecode(kind, "ServicePort.spec.ports.targetPort", *target, "intstr.IntOrString");
        }
        if (!nodePorts) {
            port.erase("nodePort");
        } else {
            // An update that leaves the node port out keeps the allocated one of the same port.
            if (!port.contains("nodePort") && oldPorts)
                for (const auto &o : *oldPorts)
                    if (kube::integerOr<long long>(o, "port", 0) == number &&
                        kube::stringOr(o, "protocol") == protocol && o.contains("nodePort"))
                        port["nodePort"] = o["nodePort"];
            if (port.contains("nodePort")) {
                const long long np = port["nodePort"].get<long long>();
                if (np < kNodePortMin || np > kNodePortMax)
                    errors.push_back(
                        path + ".nodePort: Invalid value: " + std::to_string(np) +
                        ": provided port is not in the valid range. The range of valid ports is " +
                        std::to_string(kNodePortMin) + "-" + std::to_string(kNodePortMax));
                else if ((!ownedNodePorts.count(np) && nodePortsInUse.count(static_cast<int>(np))) ||
                         !takenHere.insert(static_cast<int>(np)).second)
                    errors.push_back(path + ".nodePort: Invalid value: " + std::to_string(np) +
                                     ": provided port is already allocated");
            } else {
                int np = kNodePortMin;
                while (np <= kNodePortMax && (nodePortsInUse.count(np) || takenHere.count(np)))
                    ++np;
                if (np > kNodePortMax)
                    return ApiStatus::internal("failed to allocate a nodePort: range is full");
                takenHere.insert(np);
                port["nodePort"] = np;
            }
        }
        ports.push_back(std::move(port));
    }
    if (!ports.empty())
        s["ports"] = std::move(ports);

    // Cluster IPs.
    if (!external) {
        std::string ip = kube::stringOr(s, "clusterIP");
        if (ip.empty() && s.contains("clusterIPs"))
            ip = s["clusterIPs"][0].get<std::string>();
        if (ip.empty() && oldSpec)
            ip = kube::stringOr(*oldSpec, "clusterIP");
        const std::string oldIp = oldSpec ? kube::stringOr(*oldSpec, "clusterIP") : std::string();
        if (old && !oldIp.empty() && ip != oldIp)
            errors.push_back("spec.clusterIPs[0]: Invalid value: []string{" + goQuote(ip) +
                             "}: may not change once set");
        if (ip.empty()) {
            std::uint32_t offset = 1;
            while (offset + 1 < kServiceNetSize && serviceIps.count(ipText(kServiceNet + offset)))
                ++offset;
            if (offset + 1 >= kServiceNetSize)
                return ApiStatus::internal("failed to allocate a serviceIP: range is full");
            ip = ipText(kServiceNet + offset);
        } else if (ip != "None" && ip != oldIp) {
            const auto parsed = parseIpv4(ip);
            if (!parsed)
                errors.push_back("spec.clusterIPs[0]: Invalid value: " + goQuote(ip) +
                                 ": must be a valid IP address");
            else if (*parsed <= kServiceNet || *parsed >= kServiceNet + kServiceNetSize - 1)
                errors.push_back("spec.clusterIPs: Invalid value: []string{" + goQuote(ip) +
                                 "}: failed to allocate IP " + ip + ": the provided IP (" + ip +
                                 ") is not in the valid range. The range of valid IPs is 10.96.0.0/12");
            else if (serviceIps.count(ip))
                errors.push_back("spec.clusterIPs: Invalid value: []string{" + goQuote(ip) +
                                 "}: failed to allocate IP " + ip + ": provided IP is already allocated");
        }
        if (ip == "None" && nodePorts)
            errors.push_back("spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for " +
                             type + " services");
        if (ports.empty() && !s.contains("ports") && ip != "None")
            errors.push_back("spec.ports: Required value");
        s["clusterIP"] = ip;
        s["clusterIPs"] = Json::array({ip});
        s["ipFamilies"] = Json::array({"IPv4"});
        if (!s.contains("ipFamilyPolicy"))
            s["ipFamilyPolicy"] = "SingleStack";
    }
    if (auto r = api::invalidIfAny(api::qualifiedKind(kind), name, std::move(errors)); !r)
        return r.error();
    out["spec"] = std::move(s);
    out["status"] =
        old && old->contains("status") ? (*old)["status"] : Json{{"loadBalancer", Json::object()}};
    return out;
}

void Cluster::Impl::reserveJsonObject(api::Kind kind, const Json &obj, const Json *old)
{
    if (kind != api::Kind::Service)
        return;
    if (old)
        releaseJsonObject(kind, *old);
    const Json *spec = kube::member(obj, "spec");
    if (!spec)
        return;
    if (const std::string ip = kube::stringOr(*spec, "clusterIP"); !ip.empty() && ip != "None")
        serviceIps.insert(ip);
    if (const Json *ports = kube::member(*spec, "ports"); ports && ports->is_array())
        for (const auto &p : *ports)
            if (p.contains("nodePort"))
                nodePortsInUse.insert(kube::integerOr<int>(p, "nodePort", 0));
}

void Cluster::Impl::releaseJsonObject(api::Kind kind, const Json &gone)
{
    if (kind != api::Kind::Service)
        return;
    const Json *spec = kube::member(gone, "spec");
    if (!spec)
        return;
    serviceIps.erase(kube::stringOr(*spec, "clusterIP"));
    if (const Json *ports = kube::member(*spec, "ports"); ports && ports->is_array())
        for (const auto &p : *ports)
            if (p.contains("nodePort"))
                nodePortsInUse.erase(kube::integerOr<int>(p, "nodePort", 0));
}

} // namespace engine
