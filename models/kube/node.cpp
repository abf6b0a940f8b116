#include "models/kube/node.h"

#include "models/kube/jsonfield.h"
#include "models/kube/nodeaffinity.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace kube {

bool Node::isReady() const
{
    const NodeCondition *c = condition("Ready");
    return c && c->status == "True";
}

const NodeCondition *Node::condition(const std::string &type) const
{
    for (const auto &c : conditions)
        if (c.type == type)
            return &c;
    return nullptr;
}

void Node::setCondition(NodeCondition c)
{
    for (auto &existing : conditions) {
        if (existing.type != c.type)
            continue;
        if (existing.status == c.status && !c.lastTransitionTime)
            c.lastTransitionTime = existing.lastTransitionTime;
        existing = std::move(c);
        return;
    }
    conditions.push_back(std::move(c));
}

namespace {

// A deterministic id in the form of a UUID from a name (FNV-1a 64, two rounds).
std::string idFromName(const std::string &name, std::uint64_t salt)
{
    const std::uint64_t a = fnv1a64(name, 0xcbf29ce484222325ULL ^ salt);
    const std::uint64_t b = fnv1a64(name, a ^ 0x9e3779b97f4a7c15ULL);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                  static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(0x4000 | (a & 0x0fff)),
                  static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                  static_cast<unsigned long long>(b & 0xffffffffffffULL));
    return buf;
}

} // namespace

void Node::fillSimulatedMachine(std::size_t index)
{
    // resource, capacity, allocatable (capacity less the kubelet's reservations)
    for (const auto &[resource, total, usable] :
         {std::tuple<const char *, const char *, const char *>{"cpu", "4", "3800m"},
          {"memory", "16Gi", "15Gi"},
          {"ephemeral-storage", "100Gi", "95Gi"},
          {"hugepages-1Gi", "0", "0"},
          {"hugepages-2Mi", "0", "0"}}) {
        capacity.emplace(resource, total);
        allocatable.emplace(resource, usable);
    }
    if (addresses.empty()) {
        const std::size_t n = index + 1; // 10.0.0.1, 10.0.0.2, ...
        addresses.push_back({"InternalIP", "10." + std::to_string((n >> 16) & 255) + "." +
                                               std::to_string((n >> 8) & 255) + "." +
                                               std::to_string(n & 255)});
        addresses.push_back({"Hostname", metadata.name});
    }
    if (podCIDR.empty())
        podCIDR = "10.244." + std::to_string(index & 255) + ".0/24";
    auto fill = [](std::string &field, std::string value) {
        if (field.empty())
            field = std::move(value);
    };
    std::string machine = idFromName(metadata.name, 1);
    machine.erase(std::remove(machine.begin(), machine.end(), '-'), machine.end());
    fill(info.machineID, machine);
    fill(info.systemUUID, idFromName(metadata.name, 2));
    fill(info.bootID, idFromName(metadata.name, 3));
    fill(info.kernelVersion, "6.1.0-28-amd64");
    fill(info.osImage, "Debian GNU/Linux 12 (bookworm)");
    fill(info.containerRuntimeVersion, "containerd://1.6.20");
    fill(info.operatingSystem, "linux");
    fill(info.architecture, "amd64");
    if (kubeletPort == 0)
        kubeletPort = 10250;
    // The kubelet's pressure conditions, before Ready as it lists them, from the same instant.
    const NodeCondition *ready = condition("Ready");
    const std::optional<Timestamp> since = ready ? ready->lastTransitionTime : std::nullopt;
    std::vector<NodeCondition> pressure;
    for (const auto &[type, reason, message] :
         {std::tuple<const char *, const char *, const char *>{"MemoryPressure", "KubeletHasSufficientMemory",
                                                               "kubelet has sufficient memory available"},
          {"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
          {"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"}})
        if (!condition(type))
            pressure.push_back({type, "False", reason, message, since});
    conditions.insert(conditions.begin(), pressure.begin(), pressure.end());
}

Json Node::toJson() const
{
    Json spec = Json::object();
    if (!podCIDR.empty()) {
        spec["podCIDR"] = podCIDR;
        spec["podCIDRs"] = Json::array({podCIDR});
    }
    if (unschedulable)
        spec["unschedulable"] = true;
    if (!taints.empty()) {
        Json t = Json::array();
        for (const auto &x : taints)
            t.push_back(x.toJson());
        spec["taints"] = std::move(t);
    }
    Json conds = Json::array();
    for (const auto &c : conditions) {
        Json cj = {{"type", c.type}, {"status", c.status}};
        if (!c.reason.empty())
            cj["reason"] = c.reason;
        if (!c.message.empty())
            cj["message"] = c.message;
        if (c.lastTransitionTime) {
            // The engine keeps no separate heartbeat: the last report is the last transition.
            cj["lastHeartbeatTime"] = formatRfc3339(*c.lastTransitionTime);
            cj["lastTransitionTime"] = formatRfc3339(*c.lastTransitionTime);
        }
        conds.push_back(std::move(cj));
    }
    auto resources = [&](const StringMap &m) {
        Json r = Json::object();
        for (const auto &[k, v] : m)
            r[k] = v;
        r["pods"] = std::to_string(allocatablePods);
        return r;
    };
    Json nodeInfo = Json::object();
    for (const auto &[field, value] :
         {std::pair<const char *, const std::string *>{"machineID", &info.machineID},
          {"systemUUID", &info.systemUUID},
          {"bootID", &info.bootID},
          {"kernelVersion", &info.kernelVersion},
          {"osImage", &info.osImage},
          {"containerRuntimeVersion", &info.containerRuntimeVersion},
          {"kubeletVersion", &kubeletVersion},
          {"kubeProxyVersion", &info.kubeProxyVersion},
          {"operatingSystem", &info.operatingSystem},
          {"architecture", &info.architecture}})
        if (!value->empty() || std::string(field) == "kubeletVersion")
            nodeInfo[field] = *value;
    Json status = {{"conditions", std::move(conds)},
                   {"allocatable", resources(allocatable)},
                   {"capacity", resources(capacity)},
                   {"nodeInfo", std::move(nodeInfo)}};
    if (!addresses.empty()) {
        Json a = Json::array();
        for (const auto &x : addresses)
            a.push_back({{"type", x.type}, {"address", x.address}});
        status["addresses"] = std::move(a);
    }
    if (kubeletPort != 0)
        status["daemonEndpoints"] = {{"kubeletEndpoint", {{"Port", kubeletPort}}}};
    return {{"apiVersion", "v1"},
            {"kind", "Node"},
            {"metadata", metadata.toJson()},
            {"spec", spec},
            {"status", status}};
}

Result<Node> Node::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Node: expected an object");
    Node n;
    const Json *metaJson = member(j, "metadata");
    auto meta = ObjectMeta::fromJson(metaJson ? *metaJson : Json());
    if (!meta)
        return meta.error();
    n.metadata = std::move(*meta);
    if (auto sp = j.find("spec"); sp != j.end() && sp->is_object()) {
        if (const Json *u = member(*sp, "unschedulable"); u && !u->is_boolean())
            return ApiStatus::badRequest("Node field spec.unschedulable: expected a boolean");
        n.unschedulable = boolOr(*sp, "unschedulable", false);
        n.podCIDR = stringOr(*sp, "podCIDR");
        if (auto t = sp->find("taints"); t != sp->end() && t->is_array()) {
            for (const auto &e : *t) {
                auto taint = Taint::fromJson(e);
                if (!taint)
                    return taint.error();
                n.taints.push_back(std::move(*taint));
            }
        }
    }
    if (auto st = j.find("status"); st != j.end() && st->is_object()) {
        if (auto c = st->find("conditions"); c != st->end() && c->is_array()) {
            for (const auto &e : *c) {
                if (!e.is_object())
                    continue;
                NodeCondition nc;
                nc.type = stringOr(e, "type");
                nc.status = stringOr(e, "status");
                nc.reason = stringOr(e, "reason");
                nc.message = stringOr(e, "message");
                if (auto lt = e.find("lastTransitionTime"); lt != e.end() && lt->is_string())
                    if (auto t = parseRfc3339(lt->get<std::string>()))
                        nc.lastTransitionTime = *t;
                n.conditions.push_back(std::move(nc));
            }
        }
        if (auto ni = st->find("nodeInfo"); ni != st->end() && ni->is_object()) {
            n.kubeletVersion = stringOr(*ni, "kubeletVersion");
            n.info.machineID = stringOr(*ni, "machineID");
            n.info.systemUUID = stringOr(*ni, "systemUUID");
            n.info.bootID = stringOr(*ni, "bootID");
            n.info.kernelVersion = stringOr(*ni, "kernelVersion");
            n.info.osImage = stringOr(*ni, "osImage");
            n.info.containerRuntimeVersion = stringOr(*ni, "containerRuntimeVersion");
            n.info.kubeProxyVersion = stringOr(*ni, "kubeProxyVersion");
            n.info.operatingSystem = stringOr(*ni, "operatingSystem");
            n.info.architecture = stringOr(*ni, "architecture");
        }
        if (auto ad = st->find("addresses"); ad != st->end() && ad->is_array())
            for (const auto &a : *ad)
                if (a.is_object())
                    n.addresses.push_back({stringOr(a, "type"), stringOr(a, "address")});
        if (const Json *de = member(*st, "daemonEndpoints"); de && de->is_object())
            if (const Json *ke = member(*de, "kubeletEndpoint"); ke && ke->is_object())
                n.kubeletPort = integerOr<std::int32_t>(*ke, "Port", 0);
        for (const auto &[field, map] : {std::pair<const char *, StringMap *>{"capacity", &n.capacity},
                                         {"allocatable", &n.allocatable}}) {
            const Json *m = member(*st, field);
            if (!m || !m->is_object())
                continue;
            for (const auto &[k, v] : m->items())
                if (k != "pods" && v.is_string())
                    (*map)[k] = v.get<std::string>();
        }
        if (auto al = st->find("allocatable"); al != st->end() && al->is_object()) {
            if (auto p = al->find("pods"); p != al->end()) {
                if (p->is_string()) {
                    try {
                        n.allocatablePods = std::stoi(p->get<std::string>());
                    } catch (...) {
                        return ApiStatus::badRequest("Node field status.allocatable.pods: not a number");
                    }
                } else if (p->is_number_integer()) {
                    n.allocatablePods = integerOr(*al, "pods", n.allocatablePods);
                }
            }
        }
    }
    return n;
}

} // namespace kube
