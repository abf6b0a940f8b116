// Fuzzes the request handling of `daemonscope serve` (models/server). The handler itself lives
// inside ApiServer::Impl and takes cpp-httplib requests from a socket, so this harness drives the
// pieces it is built from, in process and in the handler's order: ResourcePath::parse of the
// path, Accept negotiation, label and field selectors from the query, then the engine call the
// method maps to (list, get, create, update, updateStatus, patch, remove) on a fresh stepped
// cluster with one node, DaemonSet default/web and its pod, and server-side printing of what
// it returns. Exceptions are not caught: the server turns one into a 500, which is a defect too.
//
// The input is an HTTP request in miniature:
//   METHOD TARGET            e.g. "PATCH /apis/apps/v1/namespaces/default/daemonsets/web"
//   Name: value              headers (Content-Type, Accept) up to an empty line
//   body

#include "models/api/selector.h"
#include "models/kube/jsonlimits.h"
#include "models/server/discovery.h"
#include "models/server/openapi.h"
#include "models/server/resourcepath.h"
#include "models/server/tableprinter.h"
#include "models/sim/cluster.h"
#include "tests/fuzz/fuzzcheck.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

using kube::Json;

namespace {

struct Request
{
    std::string method;
    std::string path;
    std::map<std::string, std::string> query;
    std::map<std::string, std::string> headers; // names in lower case
    std::string body;

    std::string param(const std::string &name) const
    {
        const auto it = query.find(name);
        return it == query.end() ? std::string() : it->second;
    }
    std::string header(const std::string &name) const
    {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Query decoding as cpp-httplib does it: '+' is a space, %XX a byte.
std::string urlDecode(const std::string &s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

Request parseRequest(const std::string &text)
{
    Request r;
    std::size_t pos = 0;
    auto nextLine = [&] {
        const auto end = text.find('\n', pos);
        std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        return line;
    };
    const std::string first = nextLine();
    const auto space = first.find(' ');
    r.method = first.substr(0, space);
    const std::string target = space == std::string::npos ? std::string("/") : first.substr(space + 1);
    const auto question = target.find('?');
    r.path = target.substr(0, question);
    if (question != std::string::npos) {
        const std::string q = target.substr(question + 1);
        std::size_t start = 0;
        while (start <= q.size()) {
            auto amp = q.find('&', start);
            if (amp == std::string::npos)
                amp = q.size();
            const std::string pair = q.substr(start, amp - start);
            const auto eq = pair.find('=');
            if (!pair.empty())
                r.query.emplace(urlDecode(pair.substr(0, eq)),
                                eq == std::string::npos ? std::string() : urlDecode(pair.substr(eq + 1)));
            start = amp + 1;
        }
    }
    while (pos < text.size()) {
        const std::string line = nextLine();
        if (line.empty())
            break;
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        r.headers[lower(line.substr(0, colon))] = value;
    }
    r.body = text.substr(pos);
    return r;
}

std::unique_ptr<sim::Cluster> makeCluster()
{
    sim::ClusterOptions options;
    options.mode = sim::Mode::Stepped;
    options.start = 1767225600000; // 2026-01-01T00:00:00Z
    auto c = std::make_unique<sim::Cluster>(options);
    FUZZ_CHECK(c->create({{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "node-1"}}}}).ok());
    const Json ds = Json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet",
        "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
        "spec":{"selector":{"matchLabels":{"app":"web"}},
                "template":{"metadata":{"labels":{"app":"web"}},
                            "spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}})");
    FUZZ_CHECK(c->create(ds).ok());
    FUZZ_CHECK(c->syncDaemonSet("default", "web").ok);
    return c;
}

void printed(api::Kind kind, const Json &object, kube::Timestamp now, const Request &req)
{
    if (object.is_object())
        (void)server::TablePrinter::row(kind, object, now,
                                        server::TablePrinter::includeObjectFrom(req.param("includeObject")));
}

void handleResource(const Request &req, const server::ResourcePath &path)
{
    const api::Kind kind = *path.kind;
    auto labels = api::Selector::parseLabels(req.param("labelSelector"));
    auto fields = api::Selector::parseFields(req.param("fieldSelector"), kind);
    if (!labels || !fields)
        return;
    auto cluster = makeCluster();
    sim::Cluster &c = *cluster;
    // The server reads every body with JsonLimits::parse; null stands for a body that is not JSON.
    const auto parsedBody = kube::JsonLimits::parse(req.body);
    const Json body = parsedBody ? *parsedBody : Json(Json::value_t::discarded);
    const bool status = path.subresource == "status";
    kube::Result<Json> result = Json();

    if (req.method == "GET" && path.type == server::ResourcePath::Type::Collection) {
        auto list = c.list(kind, path.ns);
        if (!list)
            return;
        std::vector<Json> items;
        for (const Json &item : (*list)["items"]) {
            (void)api::Selector::fieldValue(item, "metadata.name");
            if (labels->matches(item) && fields->matches(item))
                items.push_back(item);
        }
        (void)server::TablePrinter::table(kind, items, c.now(),
                                          server::TablePrinter::includeObjectFrom(req.param("includeObject")),
                                          std::to_string(c.resourceVersion()), req.param("continue"));
        return;
    }
    if (path.type != server::ResourcePath::Type::Object && req.method != "POST")
        return;
    if (req.method == "GET") {
        result = c.get(kind, path.ns, path.name);
    } else if (req.method == "POST" || req.method == "PUT") {
        if (body.is_discarded() || !body.is_object())
            return;
        Json object = body;
        if (!object.contains("metadata") || !object["metadata"].is_object())
            object["metadata"] = Json::object();
        if (api::isNamespaced(kind) && !path.ns.empty())
            object["metadata"]["namespace"] = path.ns;
        if (!object.contains("kind"))
            object["kind"] = api::kindName(kind);
        if (!object.contains("apiVersion"))
            object["apiVersion"] = api::apiVersion(kind);
        result = req.method == "POST" ? c.create(object) : status ? c.updateStatus(object) : c.update(object);
    } else if (req.method == "PATCH") {
        if (body.is_discarded())
            return;
        std::string type = lower(req.header("content-type"));
        type = type.substr(0, type.find(';'));
        if (type == "application/merge-patch+json")
            result = c.patch(kind, path.ns, path.name, api::PatchType::Merge, body);
        else if (type == "application/json-patch+json")
            result = c.patch(kind, path.ns, path.name, api::PatchType::Json, body);
        else if (type == "application/strategic-merge-patch+json")
            result = c.patch(kind, path.ns, path.name, api::PatchType::Strategic, body);
        else
            return;
    } else if (req.method == "DELETE") {
        std::optional<std::int64_t> grace;
        if (body.is_object() && body.contains("gracePeriodSeconds") &&
            body["gracePeriodSeconds"].is_number_integer())
            grace = body["gracePeriodSeconds"].get<std::int64_t>();
        if (auto r = c.remove(kind, path.ns, path.name, grace); !r)
            result = r.error();
        else
            result = c.get(kind, path.ns, path.name);
    } else {
        return;
    }
    if (!result) {
        FUZZ_CHECK(result.error().code >= 400 && result.error().code < 600);
        FUZZ_CHECK(!result.error().reason.empty() && !result.error().message.empty());
        return;
    }
    printed(kind, *result, c.now(), req);
    // Whatever the API accepted can be read back and listed.
    (void)c.list(kind, "");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Request req = parseRequest(std::string(reinterpret_cast<const char *>(data), size));
    const server::ResourcePath path = server::ResourcePath::parse(req.path);
    const auto format = server::Discovery::negotiate(req.header("accept"));
    FUZZ_CHECK(!server::Discovery::contentType(format).empty());
    switch (path.type) {
    case server::ResourcePath::Type::NotFound:
    case server::ResourcePath::Type::Version:
    case server::ResourcePath::Type::Health:
        return 0;
    case server::ResourcePath::Type::OpenApiV2:
        FUZZ_CHECK(!server::Discovery::openApiV2(req.header("accept")).body.empty());
        return 0;
    case server::ResourcePath::Type::OpenApiV3:
        if (path.openApiPath.empty())
            FUZZ_CHECK(!server::OpenApi::index().empty());
        else if (const std::string *doc = server::OpenApi::document(path.openApiPath))
            FUZZ_CHECK(!server::OpenApi::hash(path.openApiPath).empty() && !doc->empty());
        return 0;
    case server::ResourcePath::Type::CoreVersions:
        (void)server::Discovery::core(format, "127.0.0.1:6443");
        return 0;
    case server::ResourcePath::Type::Groups:
        (void)server::Discovery::groups(format);
        return 0;
    case server::ResourcePath::Type::Group:
        (void)server::Discovery::group(path.group);
        return 0;
    case server::ResourcePath::Type::ResourceList:
        (void)server::Discovery::resourceList(path.group);
        return 0;
    case server::ResourcePath::Type::Collection:
    case server::ResourcePath::Type::Object:
        FUZZ_CHECK(path.kind.has_value());
        handleResource(req, path);
        return 0;
    }
    return 0;
}
