// Store: the v1 Service among the JSON kinds (jsonkinds.cpp). SetDefaults_Service (type
// ClusterIP, session affinity None, protocol TCP, targetPort = port, the traffic policies, a
// single IPv4 family), ValidateService's checks of the fields kept, and the allocators:
// cluster IPs from 10.96.0.0/12 and node ports from 30000-32767, each the lowest free one
// (kube-apiserver picks at random; lowest-free keeps the engine deterministic), a requested one
// refused when taken or out of range, both immutable once set (patchAllocatedValues: an update
// that leaves them out keeps the allocated ones).

#include "models/api/validation.h"
#include "models/kube/jsonfield.h"
#include "models/store/jsondecode.h"
#include "models/store/store.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace store {

using kube::ApiStatus;
using kube::goQuote;
using kube::Json;

namespace {

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

constexpr api::Kind kService = api::Kind::Service;

// A status update: only status.loadBalancer is kept.
kube::Result<Json> serviceStatusUpdate(const Json &old, const Json &m)
{
    Json next = old;
    const Json *status = kube::member(m, "status");
    if (status && !status->is_object())
        return cannotDecode(kService, "Service.status", *status, "v1.ServiceStatus");
    Json lb = status ? kube::member(*status, "loadBalancer") ? (*status)["loadBalancer"] : Json::object()
                     : Json::object();
    if (!lb.is_object())
        return cannotDecode(kService, "ServiceStatus.status.loadBalancer", lb, "v1.LoadBalancerStatus");
    next["status"] = {{"loadBalancer", lb}};
    return next;
}

// The spec's fields other than the ports, decoded with their Go types; empty values dropped.
kube::Result<Json> serviceSpecFields(const Json &spec)
{
    Json s = Json::object();
    for (const char *field : {"type", "clusterIP", "externalName", "sessionAffinity", "loadBalancerIP",
                              "externalTrafficPolicy", "internalTrafficPolicy", "ipFamilyPolicy"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_string())
            return cannotDecode(kService, std::string("ServiceSpec.spec.") + field, *v, "string");
        if (!v->get<std::string>().empty())
            s[field] = *v;
    }
    for (const char *field : {"publishNotReadyAddresses", "allocateLoadBalancerNodePorts"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_boolean())
            return cannotDecode(kService, std::string("ServiceSpec.spec.") + field, *v, "bool");
        s[field] = *v;
    }
    for (const char *field : {"externalIPs", "clusterIPs", "ipFamilies", "loadBalancerSourceRanges"}) {
        const Json *v = kube::member(spec, field);
        if (!v || v->is_null())
            continue;
        if (!v->is_array())
            return cannotDecode(kService, std::string("ServiceSpec.spec.") + field, *v, "[]string");
        for (const auto &e : *v)
            if (!e.is_string())
                return cannotDecode(kService, std::string("ServiceSpec.spec.") + field, e, "string");
        if (!v->empty())
            s[field] = *v;
    }
    if (const Json *sel = kube::member(spec, "selector"); sel && !sel->is_null()) {
        auto labels = kube::stringMapFromJson(*sel, "spec.selector");
        if (!labels)
            return cannotDecode(kService, "ServiceSpec.spec.selector", *sel, "map[string]string");
        if (!labels->empty())
            s["selector"] = *sel;
    }
    return s;
}

// The type, its defaults and the fields it rules out.
ServiceShape serviceDefaults(Json &s, std::vector<std::string> &errors)
{
    ServiceShape shape;
    shape.type = kube::stringOr(s, "type", "ClusterIP");
    s["type"] = shape.type;
    static const char *const kTypes[] = {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"};
    if (std::find_if(std::begin(kTypes), std::end(kTypes), [&](const char *t) { return shape.type == t; }) ==
        std::end(kTypes))
        errors.push_back(
            "spec.type: Unsupported value: " + goQuote(shape.type) +
            ": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"");
    shape.external = shape.type == "ExternalName";
    shape.nodePorts = shape.type == "NodePort" || shape.type == "LoadBalancer";
    if (!s.contains("sessionAffinity"))
        s["sessionAffinity"] = "None";
    else if (s["sessionAffinity"] != "None" && s["sessionAffinity"] != "ClientIP")
        errors.push_back(
            "spec.sessionAffinity: Unsupported value: " + goQuote(s["sessionAffinity"].get<std::string>()) +
            ": supported values: \"ClientIP\", \"None\"");
    if (shape.external) {
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
    if (shape.nodePorts) {
        if (!s.contains("externalTrafficPolicy"))
            s["externalTrafficPolicy"] = "Cluster";
        if (shape.type == "LoadBalancer" && !s.contains("allocateLoadBalancerNodePorts"))
            s["allocateLoadBalancerNodePorts"] = true;
    } else {
        s.erase("externalTrafficPolicy");
        s.erase("allocateLoadBalancerNodePorts");
    }
    return shape;
}

// One entry of spec.ports decoded, defaulted and checked, but for its node port. `names`
// holds the names of the ports before it.
kube::Result<Json> servicePort(const Json &p, const std::string &path, std::size_t portCount,
                               std::set<std::string> &names, std::vector<std::string> &errors)
{
    if (!p.is_object())
        return cannotDecode(kService, "ServiceSpec.spec.ports", p, "v1.ServicePort");
    Json port = Json::object();
    for (const char *field : {"name", "protocol", "appProtocol"}) {
        const Json *v = kube::member(p, field);
        if (v && !v->is_null() && !v->is_string())
            return cannotDecode(kService, std::string("ServicePort.spec.ports.") + field, *v, "string");
        if (v && v->is_string() && !v->get<std::string>().empty())
            port[field] = *v;
    }
    for (const char *field : {"port", "nodePort"}) {
        const Json *v = kube::member(p, field);
        if (v && !v->is_null() && !isInt32(*v))
            return cannotDecode(kService, std::string("ServicePort.spec.ports.") + field, *v, "int32");
        if (v && v->is_number_integer() && v->get<long long>() != 0)
            port[field] = *v;
    }
    const std::string portName = kube::stringOr(port, "name");
    if (portCount > 1 && portName.empty())
        errors.push_back(path + ".name: Required value");
    else if (!portName.empty() && !names.insert(portName).second)
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
        return cannotDecode(kService, "ServicePort.spec.ports.targetPort", *target, "intstr.IntOrString");
    }
    return port;
}

} // namespace

kube::Result<Json> Store::prepareService(Json out, const Json &m, const Json *old, bool statusOnly)
{
    if (statusOnly)
        return serviceStatusUpdate(*old, m);
    const std::string name = kube::stringOr(out["metadata"], "name");
    const Json *specIn = kube::member(m, "spec");
    if (specIn && !specIn->is_null() && !specIn->is_object())
        return cannotDecode(kService, "Service.spec", *specIn, "v1.ServiceSpec");
    const Json spec = specIn && specIn->is_object() ? *specIn : Json::object();
    const Json *oldSpec = old ? kube::member(*old, "spec") : nullptr;
    auto s = serviceSpecFields(spec);
    if (!s)
        return s.error();
    std::vector<std::string> errors;
    const ServiceShape shape = serviceDefaults(*s, errors);
    auto ports = servicePorts(spec, oldSpec, shape, errors);
    if (!ports)
        return ports.error();
    if (!ports->empty())
        (*s)["ports"] = std::move(*ports);
    if (!shape.external)
        if (auto ip = serviceClusterIp(*s, oldSpec, old != nullptr, shape, errors); !ip)
            return ip.error();
    if (auto r = api::invalidIfAny(api::qualifiedKind(kService), name, std::move(errors)); !r)
        return r.error();
    out["spec"] = std::move(*s);
    out["status"] =
        old && old->contains("status") ? (*old)["status"] : Json{{"loadBalancer", Json::object()}};
    return out;
}

kube::Result<Json> Store::servicePorts(const Json &spec, const Json *oldSpec, const ServiceShape &shape,
                                       std::vector<std::string> &errors) const
{
    // The node ports the stored object holds are its own to keep.
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
        return cannotDecode(kService, "ServiceSpec.spec.ports", *portsIn, "[]v1.ServicePort");
    const std::size_t portCount = portsIn && portsIn->is_array() ? portsIn->size() : 0;
    for (std::size_t i = 0; i < portCount; ++i) {
        const std::string path = "spec.ports[" + std::to_string(i) + "]";
        auto decoded = servicePort((*portsIn)[i], path, portCount, portNames, errors);
        if (!decoded)
            return decoded.error();
        Json &port = *decoded;
        if (!shape.nodePorts) {
            port.erase("nodePort");
            ports.push_back(std::move(port));
            continue;
        }
        const long long number = port["port"].get<long long>();
        const std::string protocol = port["protocol"];
        // An update that leaves the node port out keeps the allocated one of the same port.
        if (!port.contains("nodePort") && oldPorts)
            for (const auto &o : *oldPorts)
                if (kube::integerOr<long long>(o, "port", 0) == number &&
                    kube::stringOr(o, "protocol") == protocol && o.contains("nodePort"))
                    port["nodePort"] = o["nodePort"];
        if (port.contains("nodePort")) {
            const long long np = port["nodePort"].get<long long>();
            if (np < kNodePortMin || np > kNodePortMax)
                errors.push_back(path + ".nodePort: Invalid value: " + std::to_string(np) +
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
        ports.push_back(std::move(port));
    }
    return ports;
}

kube::Result<void> Store::serviceClusterIp(Json &s, const Json *oldSpec, bool update,
                                           const ServiceShape &shape, std::vector<std::string> &errors) const
{
    std::string ip = kube::stringOr(s, "clusterIP");
    if (ip.empty() && s.contains("clusterIPs"))
        ip = s["clusterIPs"][0].get<std::string>();
    if (ip.empty() && oldSpec)
        ip = kube::stringOr(*oldSpec, "clusterIP");
    const std::string oldIp = oldSpec ? kube::stringOr(*oldSpec, "clusterIP") : std::string();
    if (update && !oldIp.empty() && ip != oldIp)
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
    if (ip == "None" && shape.nodePorts)
        errors.push_back("spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for " +
                         shape.type + " services");
    if (!s.contains("ports") && ip != "None")
        errors.push_back("spec.ports: Required value");
    s["clusterIP"] = ip;
    s["clusterIPs"] = Json::array({ip});
    s["ipFamilies"] = Json::array({"IPv4"});
    if (!s.contains("ipFamilyPolicy"))
        s["ipFamilyPolicy"] = "SingleStack";
    return {};
}

// The allocations of a Service about to be stored, and of one leaving the store (the other JSON
// kinds allocate nothing).
void Store::reserveJsonObject(api::Kind kind, const Json &obj, const Json *old)
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

void Store::releaseJsonObject(api::Kind kind, const Json &gone)
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

} // namespace store
