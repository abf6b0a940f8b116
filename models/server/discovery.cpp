#include "models/server/discovery.h"

#include "models/api/kind.h"
#include "models/server/openapi.h"
#include "models/server/resourcepath.h"
#include "models/server/reviews.h"

#include <vector>

namespace server {

namespace {

using kube::Json;

// A subresource whose objects are of another group's kind (pods/eviction takes a policy/v1
// Eviction).
struct Subresource
{
    const char *name;
    const char *group;
    const char *version;
    const char *kind;
    std::vector<std::string> verbs;
};

struct ResourceInfo
{
    api::Kind kind;
    const char *singular;
    std::vector<std::string> shortNames;
    std::vector<std::string> categories;
    bool status; // has a status subresource
    std::vector<Subresource> more = {};
};

// The served resources, per group, in the order kube-apiserver lists them.
const std::vector<ResourceInfo> &resources()
{
    static const std::vector<ResourceInfo> r = {
        {api::Kind::Event, "event", {"ev"}, {}, false},
        {api::Kind::Namespace, "namespace", {"ns"}, {}, true},
        {api::Kind::Node, "node", {"no"}, {}, true},
        {api::Kind::Pod,
         "pod",
         {"po"},
         {"all"},
         true,
         {{"eviction", "policy", "v1", "Eviction", {"create"}}, {"log", "", "v1", "Pod", {"get"}}}},
        {api::Kind::Service, "service", {"svc"}, {"all"}, true},
        {api::Kind::ControllerRevision, "controllerrevision", {}, {}, false},
        {api::Kind::DaemonSet, "daemonset", {"ds"}, {"all"}, true},
        {api::Kind::ReplicaSet,
         "replicaset",
         {"rs"},
         {"all"},
         true,
         {{"scale", "autoscaling", "v1", "Scale", {"get", "patch", "update"}}}},
        {api::Kind::Lease, "lease", {}, {}, false},
        {api::Kind::Job, "job", {}, {"all"}, true},
        {api::Kind::PodDisruptionBudget, "poddisruptionbudget", {"pdb"}, {}, true},
        {api::Kind::NodeUpgradeRollout, "nodeupgraderollout", {"nur"}, {}, true},
    };
    return r;
}

const std::vector<std::string> kVerbs = {"create", "delete", "get", "list", "patch", "update", "watch"};
const std::vector<std::string> kStatusVerbs = {"get", "patch", "update"};

Json responseKind(api::Kind kind)
{
    return {{"group", ResourcePath::groupOf(kind)},
            {"version", ResourcePath::versionOf(kind)},
            {"kind", api::kindName(kind)}};
}

Json aggregatedResources(const std::string &group)
{
    Json out = Json::array();
    for (const auto &r : resources()) {
        if (ResourcePath::groupOf(r.kind) != group)
            continue;
        Json j = {{"resource", api::resourceName(r.kind)},
                  {"responseKind", responseKind(r.kind)},
                  {"scope", api::isNamespaced(r.kind) ? "Namespaced" : "Cluster"},
                  {"singularResource", r.singular},
                  {"verbs", kVerbs}};
        if (!r.shortNames.empty())
            j["shortNames"] = r.shortNames;
        if (!r.categories.empty())
            j["categories"] = r.categories;
        Json subresources = Json::array();
        if (r.status)
            subresources.push_back(
                {{"subresource", "status"}, {"responseKind", responseKind(r.kind)}, {"verbs", kStatusVerbs}});
        for (const auto &s : r.more)
            subresources.push_back(
                {{"subresource", s.name},
                 {"responseKind", {{"group", s.group}, {"version", s.version}, {"kind", s.kind}}},
                 {"verbs", s.verbs}});
        if (!subresources.empty())
            j["subresources"] = std::move(subresources);
        out.push_back(std::move(j));
    }
    for (const auto &r : Reviews::resources()) {
        if (group != r.group)
            continue;
        std::string singular = r.resource;
        singular.pop_back();
        out.push_back({{"resource", r.resource},
                       {"responseKind", {{"group", r.group}, {"version", r.version}, {"kind", r.kind}}},
                       {"scope", "Cluster"},
                       {"singularResource", singular},
                       {"verbs", Json::array({"create"})}});
    }
    return out;
}

Json aggregatedList(Discovery::Format format, const std::vector<std::string> &groups)
{
    const std::string apiVersion =
        format == Discovery::Format::AggregatedV2 ? "apidiscovery.k8s.io/v2" : "apidiscovery.k8s.io/v2beta1";
    Json items = Json::array();
    for (const auto &group : groups) {
        const std::string version = group.empty() ? std::string("v1") : ResourcePath::versionOfGroup(group);
        items.push_back({{"metadata", {{"name", group}, {"creationTimestamp", nullptr}}},
                         {"versions", Json::array({{{"version", version},
                                                    {"freshness", "Current"},
                                                    {"resources", aggregatedResources(group)}}})}});
    }
    return {{"kind", "APIGroupDiscoveryList"},
            {"apiVersion", apiVersion},
            {"metadata", Json::object()},
            {"items", std::move(items)}};
}

std::string lowerParam(std::string s)
{
    std::string out;
    for (char c : s)
        if (c != ' ')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

Discovery::Format Discovery::negotiate(const std::string &accept)
{
    std::size_t start = 0;
    while (start <= accept.size()) {
        auto comma = accept.find(',', start);
        const std::string range =
            lowerParam(accept.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (range.find("as=apigroupdiscoverylist") != std::string::npos &&
            range.find("g=apidiscovery.k8s.io") != std::string::npos) {
            if (range.find("v=v2beta1") != std::string::npos)
                return Format::AggregatedV2Beta1;
            if (range.find("v=v2;") != std::string::npos ||
                (range.size() >= 5 && range.compare(range.size() - 5, 5, ";v=v2") == 0))
                return Format::AggregatedV2;
        } else if (range.rfind("application/json", 0) == 0 || range.rfind("*/*", 0) == 0) {
            return Format::Legacy;
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return Format::Legacy;
}

std::string Discovery::contentType(Format format)
{
    switch (format) {
    case Format::AggregatedV2:
        return "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    case Format::AggregatedV2Beta1:
        return "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
    case Format::Legacy:
        break;
    }
    return "application/json";
}

Json Discovery::core(Format format, const std::string &serverAddress)
{
    if (format != Format::Legacy)
        return aggregatedList(format, {std::string()});
    return {{"kind", "APIVersions"},
            {"versions", Json::array({"v1"})},
            {"serverAddressByClientCIDRs",
             Json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", serverAddress}}})}};
}

Json Discovery::groups(Format format)
{
    if (format != Format::Legacy)
        return aggregatedList(format, ResourcePath::groups());
    Json list = Json::array();
    for (const auto &name : ResourcePath::groups())
        list.push_back(group(name));
    return {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", std::move(list)}};
}

Json Discovery::group(const std::string &name)
{
    const std::string version = ResourcePath::versionOfGroup(name);
    const Json gv = {{"groupVersion", name + "/" + version}, {"version", version}};
    return {{"kind", "APIGroup"},
            {"apiVersion", "v1"},
            {"name", name},
            {"versions", Json::array({gv})},
            {"preferredVersion", gv}};
}

Json Discovery::resourceList(const std::string &group)
{
    Json list = Json::array();
    for (const auto &r : resources()) {
        if (ResourcePath::groupOf(r.kind) != group)
            continue;
        Json j = {{"name", api::resourceName(r.kind)},
                  {"singularName", r.singular},
                  {"namespaced", api::isNamespaced(r.kind)},
                  {"kind", api::kindName(r.kind)},
                  {"verbs", kVerbs}};
        if (!r.shortNames.empty())
            j["shortNames"] = r.shortNames;
        if (!r.categories.empty())
            j["categories"] = r.categories;
        list.push_back(std::move(j));
        if (r.status)
            list.push_back({{"name", std::string(api::resourceName(r.kind)) + "/status"},
                            {"singularName", ""},
                            {"namespaced", api::isNamespaced(r.kind)},
                            {"kind", api::kindName(r.kind)},
                            {"verbs", kStatusVerbs}});
        for (const auto &s : r.more) {
            Json sub = {{"name", std::string(api::resourceName(r.kind)) + "/" + s.name},
                        {"singularName", ""},
                        {"namespaced", api::isNamespaced(r.kind)},
                        {"kind", s.kind},
                        {"verbs", s.verbs}};
            if (s.group != ResourcePath::groupOf(r.kind)) { // of another group (pods/eviction)
                sub["group"] = s.group;
                sub["version"] = s.version;
            }
            list.push_back(std::move(sub));
        }
    }
    for (const auto &r : Reviews::resources()) {
        if (group != r.group)
            continue;
        std::string singular = r.resource;
        singular.pop_back();
        list.push_back({{"name", r.resource},
                        {"singularName", singular},
                        {"namespaced", false},
                        {"kind", r.kind},
                        {"verbs", Json::array({"create"})}});
    }
    return {{"kind", "APIResourceList"},
            {"apiVersion", "v1"},
            {"groupVersion",
             group.empty() ? std::string("v1") : group + "/" + ResourcePath::versionOfGroup(group)},
            {"resources", std::move(list)}};
}

const std::vector<ServedResource> &Discovery::servedResources()
{
    static const std::vector<ServedResource> all = [] {
        std::vector<ServedResource> out;
        for (const auto &r : resources()) {
            ServedResource s{ResourcePath::groupOf(r.kind),
                             ResourcePath::versionOf(r.kind),
                             api::resourceName(r.kind),
                             r.singular,
                             api::kindName(r.kind),
                             api::isNamespaced(r.kind),
                             kVerbs,
                             {}};
            if (r.status)
                s.subresources.push_back({"status", s.group, s.version, s.kind, kStatusVerbs});
            for (const auto &m : r.more)
                s.subresources.push_back({m.name, m.group, m.version, m.kind, m.verbs});
            out.push_back(std::move(s));
        }
        for (const auto &r : Reviews::resources()) {
            std::string singular = r.resource;
            singular.pop_back();
            out.push_back({r.group, r.version, r.resource, singular, r.kind, false, {"create"}, {}});
        }
        return out;
    }();
    return all;
}

Json Discovery::version()
{
    // The engine models Kubernetes 1.32 (cluster.h); kubectl dispatchers pick their binary
    // from "minor".
    return {{"major", "1"},
            {"minor", "32"},
            {"gitVersion", std::string("v1.32.0+daemonscope-") + DAEMONSCOPE_VERSION},
            {"gitCommit", "0000000000000000000000000000000000000000"},
            {"gitTreeState", "clean"},
            {"buildDate", "2026-01-01T00:00:00Z"},
            {"goVersion", "go1.23.0"},
            {"compiler", "gc"},
            {"platform", "linux/amd64"}};
}

Discovery::OpenApiDocument Discovery::openApiV2(const std::string &accept)
{
    if (accept.find("application/com.github.proto-openapi.spec.v2") != std::string::npos)
        return {OpenApi::v2Protobuf(), kOpenApiV2ProtobufResponse};
    return {OpenApi::v2Json(), "application/json"};
}

} // namespace server
