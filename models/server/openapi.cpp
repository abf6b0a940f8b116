#include "models/server/openapi.h"

#include "models/kube/apischema.h"
#include "models/kube/nodeaffinity.h"
#include "models/server/discovery.h"
#include "models/server/openapiv2.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

namespace server {

namespace {

using kube::Json;
using kube::schema::Field;
using kube::schema::Scalar;
using kube::schema::Struct;
using kube::schema::TypeRef;

constexpr const char *kMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.";

// The two dialects the documents are written in, from the same walk: OpenAPI 3.0 (/openapi/v3,
// one document per group-version) and Swagger 2.0 (/openapi/v2, one document for everything).
// They differ where the formats do: where a reference points (#/components/schemas/ or
// #/definitions/), whether a reference may carry a description (v3 wraps it in allOf), oneOf
// (v2 has none: Quantity and IntOrString are strings there, as kube-apiserver writes them), and
// how parameters, bodies and responses are written.
enum class Spec { V2, V3 };

Json schemaRef(Spec spec, const std::string &definition)
{
    return {
        {"$ref", std::string(spec == Spec::V2 ? "#/definitions/" : "#/components/schemas/") + definition}};
}

} // namespace

Json plainScalarSchema(Scalar s)
{
    switch (s) {
    case Scalar::String:
    case Scalar::Duration:
        return {{"type", "string"}};
    case Scalar::Bytes:
        return {{"type", "string"}, {"format", "byte"}};
    case Scalar::Int32:
        return {{"type", "integer"}, {"format", "int32"}};
    case Scalar::Int64:
        return {{"type", "integer"}, {"format", "int64"}};
    case Scalar::Bool:
        return {{"type", "boolean"}};
    case Scalar::Double:
        return {{"type", "number"}, {"format", "double"}};
    case Scalar::Object:
        return {{"type", "object"}};
    default:
        return {{"x-kubernetes-preserve-unknown-fields", true}};
    }
}

namespace {

// The scalar types that are named components upstream (and so print as <Quantity> in explain).
struct NamedScalar
{
    Scalar scalar;
    const char *definition;
    const char *description;
};
const NamedScalar kNamedScalars[] = {
    {Scalar::Time, "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
     "A point in time, serialised as an RFC 3339 string with seconds, such as 2026-12-03T10:00:00Z."},
    {Scalar::MicroTime, "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
     "A point in time with microseconds, serialised as an RFC 3339 string such as "
     "2026-12-03T10:00:00.000000Z."},
    {Scalar::Quantity, "io.k8s.apimachinery.pkg.api.resource.Quantity",
     "An amount such as 500m (half a CPU), 128Mi or 1Gi: a number with an optional SI or binary "
     "suffix, stored in canonical form."},
    {Scalar::IntOrString, "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
     "Either an integer or a string, such as 1 or \"25%\"."},
};

const NamedScalar *namedScalar(Scalar s)
{
    for (const auto &n : kNamedScalars)
        if (n.scalar == s)
            return &n;
    return nullptr;
}

Json namedScalarSchema(Spec spec, const NamedScalar &n)
{
    Json j = {{"description", n.description}};
    switch (n.scalar) {
    case Scalar::Time:
    case Scalar::MicroTime:
        j["type"] = "string";
        j["format"] = "date-time";
        break;
    case Scalar::Quantity:
        if (spec == Spec::V2)
            j["type"] = "string";
        else
            j["oneOf"] = Json::array({{{"type", "string"}}, {{"type", "number"}}});
        break;
    case Scalar::IntOrString:
        j["format"] = "int-or-string";
        if (spec == Spec::V2)
            j["type"] = "string";
        else
            j["oneOf"] = Json::array({{{"type", "integer"}}, {{"type", "string"}}});
        break;
    default:
        break;
    }
    return j;
}

// The schema of a type, noting the components it refers to.
Json typeSchema(Spec spec, const TypeRef &t, std::set<std::string> &refs)
{
    switch (t.form) {
    case TypeRef::Form::Struct:
        refs.insert(t.type->definition);
        return schemaRef(spec, t.type->definition);
    case TypeRef::Form::List:
        return {{"type", "array"}, {"items", typeSchema(spec, *t.element, refs)}};
    case TypeRef::Form::Map:
        return {{"type", "object"}, {"additionalProperties", typeSchema(spec, *t.element, refs)}};
    case TypeRef::Form::Scalar:
        break;
    }
    if (const NamedScalar *n = namedScalar(t.scalar)) {
        refs.insert(n->definition);
        return schemaRef(spec, n->definition);
    }
    return plainScalarSchema(t.scalar);
}

// A schema with a description. A reference cannot carry siblings in OpenAPI 3.0: it moves into
// allOf; Swagger 2.0 documents keep the description beside it, as kube-apiserver's do.
Json described(Spec spec, Json s, const std::string &description)
{
    if (description.empty())
        return s;
    if (spec == Spec::V3 && s.contains("$ref"))
        s = {{"allOf", Json::array({s})}};
    s["description"] = description;
    return s;
}

Json fieldSchema(Spec spec, const Field &f, std::set<std::string> &refs)
{
    Json s = described(spec, typeSchema(spec, f.type, refs), f.description);
    if (!f.patchMergeKey.empty())
        s["x-kubernetes-patch-merge-key"] = f.patchMergeKey;
    if (!f.patchStrategy.empty())
        s["x-kubernetes-patch-strategy"] = f.patchStrategy;
    if (!f.listType.empty())
        s["x-kubernetes-list-type"] = f.listType;
    if (!f.listMapKeys.empty())
        s["x-kubernetes-list-map-keys"] = f.listMapKeys;
    if (!f.mapType.empty())
        s["x-kubernetes-map-type"] = f.mapType;
    return s;
}

Json gvkJson(const std::string &group, const std::string &version, const std::string &kind)
{
    return {{"group", group}, {"version", version}, {"kind", kind}};
}

Json structSchema(Spec spec, const Struct &s, std::set<std::string> &refs)
{
    Json j = {{"type", "object"}};
    if (!s.description.empty())
        j["description"] = s.description;
    Json properties = Json::object();
    Json required = Json::array();
    for (const auto &f : s.fields) {
        properties[f.name] = fieldSchema(spec, f, refs);
        if (f.required)
            required.push_back(f.name);
    }
    if (!properties.empty())
        j["properties"] = std::move(properties);
    if (!required.empty())
        j["required"] = std::move(required);
    if (!s.gvk.empty())
        j["x-kubernetes-group-version-kind"] = Json::array({gvkJson(s.gvk.group, s.gvk.version, s.gvk.kind)});
    if (s.atomic)
        j["x-kubernetes-map-type"] = "atomic";
    return j;
}

std::string camel(const std::string &text)
{
    // "coordination.k8s.io" -> "Coordination", "upgrade.daemonscope.io" -> "UpgradeDaemonscopeIo"
    std::string head = text;
    if (head.size() > 8 && head.compare(head.size() - 8, 8, ".k8s.io") == 0)
        head = head.substr(0, head.size() - 8);
    std::string out;
    bool up = true;
    for (char c : head) {
        if (c == '.' || c == '-') {
            up = true;
            continue;
        }
        out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
    }
    return out;
}

const Json kString = {{"type", "string"}};

// A query parameter's schema: one value of a type.
Json queryValue(const char *type)
{
    return {{"type", type}, {"uniqueItems", true}};
}

using MediaTypes = std::vector<const char *>;

Json strings(const MediaTypes &types)
{
    Json a = Json::array();
    for (const char *t : types)
        a.push_back(t);
    return a;
}

Json content(const Json &schema, const MediaTypes &types)
{
    Json c = Json::object();
    for (const char *t : types)
        c[t] = {{"schema", schema}};
    return c;
}

const MediaTypes kAnswerTypes = {"application/json", "application/yaml"};

struct Builder
{
    explicit Builder(Spec s) : spec(s) {}

    Spec spec;
    Json paths = Json::object();
    std::set<std::string> refs;

    Json ref(const std::string &definition)
    {
        refs.insert(definition);
        return schemaRef(spec, definition);
    }

    // A parameter: v3 gives its type as a schema, v2 inline.
    Json param(const char *name, const char *in, const char *description, const Json &schema,
               bool required = false) const
    {
        Json p = {{"name", name}, {"in", in}, {"description", description}};
        if (spec == Spec::V3)
            p["schema"] = schema;
        else
            p.update(schema);
        if (required)
            p["required"] = true;
        return p;
    }

    Json writeParams(bool patch) const
    {
        Json p = Json::array(
            {param("dryRun", "query",
                   "When All, the request is checked, defaulted and validated but nothing is stored.",
                   queryValue("string")),
             param("fieldManager", "query",
                   "The name of the actor making the change, recorded with the fields it sets.",
                   queryValue("string")),
             param("fieldValidation", "query",
                   "What to do with unknown fields in the body: Ignore drops them, Warn (the default) drops "
                   "them and sends a warning for each, Strict refuses the request.",
                   queryValue("string"))});
        if (patch)
            p.push_back(param("force", "query",
                              "Takes over fields other managers own; only for apply patches.",
                              queryValue("boolean")));
        return p;
    }

    Json listParams() const
    {
        Json p = Json::array();
        const std::pair<const char *, const char *> strings[] = {
            {"continue", "The continue token of the previous page of a paged list."},
            {"fieldSelector", "Only the objects whose fields match, such as spec.nodeName=node-a-1."},
            {"labelSelector", "Only the objects whose labels match, such as app=web,tier!=cache."},
            {"resourceVersion", "The resourceVersion to list at or watch from."},
            {"resourceVersionMatch", "How resourceVersion is matched: Exact or NotOlderThan."},
        };
        p.push_back(param("allowWatchBookmarks", "query", "Asks for BOOKMARK events in a watch.",
                          queryValue("boolean")));
        for (const auto &[name, text] : strings)
            p.push_back(param(name, "query", text, queryValue("string")));
        p.push_back(param("limit", "query", "The most objects one page may hold.", queryValue("integer")));
        p.push_back(param("sendInitialEvents", "query",
                          "Starts a watch with the current objects as ADDED events.", queryValue("boolean")));
        p.push_back(param("timeoutSeconds", "query", "Ends the list or watch after this many seconds.",
                          queryValue("integer")));
        p.push_back(
            param("watch", "query", "Streams the changes instead of listing.", queryValue("boolean")));
        return p;
    }

    Json deleteParams() const
    {
        return Json::array(
            {param("dryRun", "query", "When All, the deletion is checked but nothing is removed.",
                   queryValue("string")),
             param("gracePeriodSeconds", "query",
                   "Seconds the object is given before it is removed; 0 removes it at once.",
                   queryValue("integer")),
             param("propagationPolicy", "query",
                   "What happens to the objects the deleted one owns: Orphan, Background or Foreground.",
                   queryValue("string"))});
    }

    // The body an operation takes in the given media types: v3's requestBody, v2's body parameter
    // (first, as kube-apiserver lists it) and the types the operation consumes.
    void body(Json &op, const Json &schema, const MediaTypes &types, bool required = true) const
    {
        if (spec == Spec::V3) {
            op["requestBody"] = {{"content", content(schema, types)}};
            if (required)
                op["requestBody"]["required"] = true;
            return;
        }
        Json p = {{"name", "body"}, {"in", "body"}, {"schema", schema}};
        if (required)
            p["required"] = true;
        Json &params = op["parameters"];
        if (!params.is_array())
            params = Json::array();
        params.insert(params.begin(), std::move(p));
        op["consumes"] = strings(types);
    }

    Json answer(const Json &schema, const char *text) const
    {
        if (spec == Spec::V3)
            return {{"description", text}, {"content", content(schema, kAnswerTypes)}};
        return {{"description", text}, {"schema", schema}};
    }

    // The responses of an operation (200, and 201 for a create), and in v2 the types it produces.
    void respond(Json &op, const Json &schema, bool created = false) const
    {
        Json responses = {{"200", answer(schema, "OK")}, {"401", {{"description", "Unauthorized"}}}};
        if (created)
            responses["201"] = answer(schema, "Created");
        op["responses"] = std::move(responses);
        if (spec == Spec::V2)
            op["produces"] = strings(kAnswerTypes);
    }

    Json operation(const std::string &id, const std::string &tag, const std::string &description,
                   const std::string &action, const Json &gvk)
    {
        return {{"operationId", id},
                {"tags", Json::array({tag})},
                {"description", description},
                {"x-kubernetes-action", action},
                {"x-kubernetes-group-version-kind", gvk}};
    }

    // What the paths of one resource share: its tag and operation id parts, its collection path
    // and the parameters of a path that names one object.
    struct ResourceNames
    {
        std::string tag, idPart, scoped, collection;
        bool custom = false;
        Json itemParams;
    };

    void add(const ServedResource &r)
    {
        const Struct *kind = kube::schema::structForKind(r.group, r.version, r.kind);
        if (!kind)
            return;
        ResourceNames n;
        const std::string prefix =
            r.group.empty() ? "/api/" + r.version : "/apis/" + r.group + "/" + r.version;
        n.tag = (r.group.empty() ? std::string("core") : camel(r.group)) + "_" + r.version;
        n.idPart = (r.group.empty() ? std::string("Core") : camel(r.group)) + camel(r.version);
        n.scoped = r.namespaced ? "Namespaced" + r.kind : r.kind;
        n.collection = prefix + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.resource;
        const std::string &tag = n.tag, &idPart = n.idPart, &scoped = n.scoped, &collection = n.collection;
        const Json gvk = gvkJson(r.group, r.version, r.kind);
        const Json object = ref(kind->definition);
        n.custom = !kind->builtIn;
        const Json nsParam = param("namespace", "path", "The object's namespace.", kString, true);
        const Json nameParam = param("name", "path", "The object's name.", kString, true);
        const Json pretty = param("pretty", "query", "Indents the answer.", queryValue("string"));
        auto has = [&](const char *verb) {
            return std::find(r.verbs.begin(), r.verbs.end(), verb) != r.verbs.end();
        };

        Json coll = {{"parameters", r.namespaced ? Json::array({nsParam, pretty}) : Json::array({pretty})}};
        if (has("list")) {
            Json op =
                operation("list" + idPart + scoped, tag, "Lists or watches " + r.resource + ".", "list", gvk);
            op["parameters"] = listParams();
            respond(op, listSchemaRef(*kind));
            coll["get"] = std::move(op);
        }
        if (has("create")) {
            Json op = operation("create" + idPart + scoped, tag, "Creates a " + r.kind + ".", "post", gvk);
            op["parameters"] = writeParams(false);
            body(op, object, {"*/*"});
            respond(op, object, true);
            coll["post"] = std::move(op);
        }
        paths[collection] = std::move(coll);
        if (r.namespaced && has("list")) {
            Json op = operation("list" + idPart + r.kind + "ForAllNamespaces", tag,
                                "Lists or watches " + r.resource + " in every namespace.", "list", gvk);
            respond(op, listSchemaRef(*kind));
            paths[prefix + "/" + r.resource] = {{"get", std::move(op)}, {"parameters", listParams()}};
        }
        if (!has("get"))
            return;
        n.itemParams =
            r.namespaced ? Json::array({nameParam, nsParam, pretty}) : Json::array({nameParam, pretty});
        paths[collection + "/{name}"] = itemPath(n, "", "the " + r.kind, true, object, gvk);
        addSubresources(r, n, object, gvk);
    }

    // The path of one object (or of its status, or of another kind's subresource): read,
    // replace, patch and, for the object itself, delete.
    Json itemPath(const ResourceNames &n, const std::string &suffix, const std::string &what, bool withDelete,
                  const Json &object, const Json &gvk)
    {
        Json p = {{"parameters", n.itemParams}};
        Json get = operation("read" + n.idPart + n.scoped + suffix, n.tag, "Reads " + what + ".", "get", gvk);
        respond(get, object);
        p["get"] = std::move(get);
        Json put =
            operation("replace" + n.idPart + n.scoped + suffix, n.tag, "Replaces " + what + ".", "put", gvk);
        put["parameters"] = writeParams(false);
        body(put, object, {"*/*"});
        respond(put, object);
        p["put"] = std::move(put);
        Json patch = operation("patch" + n.idPart + n.scoped + suffix, n.tag,
                               "Partially updates " + what + ".", "patch", gvk);
        patch["parameters"] = writeParams(true);
        const Json patchSchema = ref(std::string(kMeta) + "Patch");
        if (n.custom)
            body(patch, patchSchema,
                 {"application/apply-patch+yaml", "application/json-patch+json",
                  "application/merge-patch+json"});
        else
            body(patch, patchSchema,
                 {"application/apply-patch+yaml", "application/json-patch+json",
                  "application/merge-patch+json", "application/strategic-merge-patch+json"});
        respond(patch, object);
        p["patch"] = std::move(patch);
        if (withDelete) {
            Json del =
                operation("delete" + n.idPart + n.scoped, n.tag, "Deletes " + what + ".", "delete", gvk);
            del["parameters"] = deleteParams();
            body(del, ref(std::string(kMeta) + "DeleteOptions"), {"*/*"}, false);
            respond(del, ref(std::string(kMeta) + "Status"));
            p["delete"] = std::move(del);
        }
        return p;
    }

    void addSubresources(const ServedResource &r, const ResourceNames &n, const Json &object, const Json &gvk)
    {
        for (const auto &sub : r.subresources) {
            if (sub.name == "status") {
                paths[n.collection + "/{name}/status"] =
                    itemPath(n, "Status", "the status of the " + r.kind, false, object, gvk);
                continue;
            }
            if (sub.name == "log") // text/plain, no object schema of its own
                continue;
            // A subresource of another kind: read and written (replicasets/scale, an
            // autoscaling/v1 Scale) or posted (pods/eviction takes a policy/v1 Eviction).
            const Struct *subKind = kube::schema::structForKind(sub.group, sub.version, sub.kind);
            if (!subKind)
                continue;
            if (std::find(sub.verbs.begin(), sub.verbs.end(), "get") != sub.verbs.end()) {
                paths[n.collection + "/{name}/" + sub.name] =
                    itemPath(n, sub.kind, "the " + sub.name + " of the " + r.kind, false,
                             ref(subKind->definition), gvkJson(sub.group, sub.version, sub.kind));
                continue;
            }
            Json op = operation("create" + n.idPart + n.scoped + sub.kind, n.tag,
                                "Creates the " + sub.name + " of a " + r.kind + ".", "post",
                                gvkJson(sub.group, sub.version, sub.kind));
            op["parameters"] = writeParams(false);
            body(op, ref(subKind->definition), {"*/*"});
            respond(op, ref(subKind->definition));
            paths[n.collection + "/{name}/" + sub.name] = {{"parameters", n.itemParams},
                                                           {"post", std::move(op)}};
        }
    }

    // "<Kind>List": metadata and items, as the list responses carry them.
    std::map<std::string, Json> lists;
    Json listSchemaRef(const Struct &kind)
    {
        const std::string definition = kind.definition + "List";
        if (!lists.count(definition)) {
            refs.insert(std::string(kMeta) + "ListMeta");
            refs.insert(kind.definition);
            lists[definition] = {
                {"type", "object"},
                {"description", "A list of " + kind.name + " objects."},
                {"properties",
                 {{"apiVersion", {{"type", "string"}, {"description", "The list's apiVersion."}}},
                  {"kind", {{"type", "string"}, {"description", "The list's kind, " + kind.name + "List."}}},
                  {"metadata", described(spec, schemaRef(spec, std::string(kMeta) + "ListMeta"),
                                         "The list's resourceVersion and continue token.")},
                  {"items",
                   {{"type", "array"},
                    {"items", schemaRef(spec, kind.definition)},
                    {"description", "The objects."}}}}},
                {"required", Json::array({"items"})},
                {"x-kubernetes-group-version-kind",
                 Json::array({gvkJson(kind.gvk.group, kind.gvk.version, kind.gvk.kind + "List")})}};
        }
        return schemaRef(spec, definition);
    }

    // Every type of the schema table, whether or not a served resource reaches it (the v2
    // document, like kube-apiserver's, defines them all).
    void addEveryType()
    {
        for (const Struct *s : kube::schema::structs())
            refs.insert(s->definition);
    }

    // The components: every referenced definition and what it reaches.
    Json schemas()
    {
        Json out = Json::object();
        std::set<std::string> done;
        std::vector<std::string> todo(refs.begin(), refs.end());
        while (!todo.empty()) {
            const std::string d = todo.back();
            todo.pop_back();
            if (!done.insert(d).second)
                continue;
            std::set<std::string> more;
            if (const Struct *s = kube::schema::structNamed(d)) {
                out[d] = structSchema(spec, *s, more);
            } else if (d == std::string(kMeta) + "Patch") {
                out[d] = {{"type", "object"},
                          {"description",
                           "A patch: a JSON patch, a JSON merge patch or a strategic merge patch, "
                           "by the request's Content-Type."}};
            } else {
                for (const auto &n : kNamedScalars)
                    if (d == n.definition)
                        out[d] = namedScalarSchema(spec, n);
            }
            for (const auto &m : more)
                if (!done.count(m))
                    todo.push_back(m);
        }
        for (auto &[d, s] : lists)
            out[d] = s;
        return out;
    }
};

Json info()
{
    return {{"title", "Kubernetes"}, {"version", Discovery::version()["gitVersion"]}};
}

Json bearerToken()
{
    return {{"BearerToken",
             {{"type", "apiKey"},
              {"description", "A bearer token in the Authorization header."},
              {"name", "authorization"},
              {"in", "header"}}}};
}

Json security()
{
    return Json::array({{{"BearerToken", Json::array()}}});
}

struct Documents
{
    std::map<std::string, std::string> byPath; // "apis/apps/v1" -> document
    std::string index;
};

std::string hexHash(const std::string &text)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(kube::fnv1a64(text)));
    return buf;
}

const Documents &documents()
{
    static const Documents docs = [] {
        Documents d;
        std::map<std::string, Builder> builders;
        for (const auto &r : Discovery::servedResources()) {
            const std::string path =
                r.group.empty() ? "api/" + r.version : "apis/" + r.group + "/" + r.version;
            builders.try_emplace(path, Spec::V3).first->second.add(r);
        }
        Json index = {{"paths", Json::object()}};
        for (auto &[path, b] : builders) {
            Json doc = {{"openapi", "3.0.0"},
                        {"info", info()},
                        {"paths", b.paths},
                        {"components", {{"schemas", b.schemas()}, {"securitySchemes", bearerToken()}}},
                        {"security", security()}};
            std::string text = kube::goJson(doc);
            index["paths"][path] = {{"serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hexHash(text)}};
            d.byPath[path] = std::move(text);
        }
        d.index = kube::goJson(index);
        return d;
    }();
    return docs;
}

struct V2Document
{
    std::string json;
    std::string protobuf;
};

const V2Document &v2Document()
{
    static const V2Document doc = [] {
        Builder b(Spec::V2);
        for (const auto &r : Discovery::servedResources())
            b.add(r);
        b.addEveryType();
        const Json doc = {{"swagger", "2.0"},
                          {"info", info()},
                          {"paths", b.paths},
                          {"definitions", b.schemas()},
                          {"securityDefinitions", bearerToken()},
                          {"security", security()}};
        return V2Document{kube::goJson(doc), encodeOpenApiV2(doc)};
    }();
    return doc;
}

} // namespace

const std::string &OpenApi::v2Json()
{
    return v2Document().json;
}

const std::string &OpenApi::v2Protobuf()
{
    return v2Document().protobuf;
}

const std::string &OpenApi::index()
{
    return documents().index;
}

const std::string *OpenApi::document(const std::string &path)
{
    const auto &docs = documents().byPath;
    const auto it = docs.find(path);
    return it == docs.end() ? nullptr : &it->second;
}

std::string OpenApi::hash(const std::string &path)
{
    const std::string *doc = document(path);
    return doc ? hexHash(*doc) : std::string();
}

} // namespace server
