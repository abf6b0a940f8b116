#include "models/server/openapiv2.h"

#include "models/kube/jsonfield.h"
#include "models/kube/yaml.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace server {

namespace {

using kube::Json;

// The wire format: a key (field number << 3 | wire type), then a varint, eight little-endian
// bytes, or a varint length and that many bytes.
enum Wire : std::uint64_t { Varint = 0, Fixed64 = 1, Delimited = 2 };

void putVarint(std::string &out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void putKey(std::string &out, int field, Wire wire)
{
    putVarint(out, (static_cast<std::uint64_t>(field) << 3) | wire);
}

void putBytes(std::string &out, int field, const std::string &bytes)
{
    putKey(out, field, Delimited);
    putVarint(out, bytes.size());
    out += bytes;
}

// A proto3 string: the empty string is the default and is not written.
void putString(std::string &out, int field, const std::string &text)
{
    if (!text.empty())
        putBytes(out, field, text);
}

using Encoder = std::string (*)(const Json &);

// How a JSON member is written.
enum class Kind {
    String,
    Bool,
    Int64,
    Double,
    Strings,  // repeated string: an array, or one string
    Message,  // the member's value encoded by `encoder`
    Messages, // repeated message: each element of an array (or the one value) by `encoder`
    Any,      // an Any carrying the value as YAML
    Anys,     // repeated Any
};

// One field of a message: the JSON member it comes from and its number.
struct Rule
{
    const char *key;
    int number;
    Kind kind;
    Encoder encoder = nullptr;
};

// Any: value = 1 (a google.protobuf.Any, unused), yaml = 2.
std::string any(const Json &value)
{
    std::string out;
    putBytes(out, 2, kube::toYaml(value));
    return out;
}

const Json &asArray(const Json &value, Json &one)
{
    if (value.is_array())
        return value;
    one = Json::array({value});
    return one;
}

void putMember(std::string &out, const Rule &rule, const Json &v)
{
    Json one;
    switch (rule.kind) {
    case Kind::String:
        if (v.is_string())
            putString(out, rule.number, v.get<std::string>());
        break;
    case Kind::Bool:
        if (v.is_boolean() && v.get<bool>()) {
            putKey(out, rule.number, Varint);
            putVarint(out, 1);
        }
        break;
    case Kind::Int64:
        if (v.is_number_integer() && v.get<std::int64_t>() != 0) {
            putKey(out, rule.number, Varint);
            putVarint(out, static_cast<std::uint64_t>(v.get<std::int64_t>()));
        }
        break;
    case Kind::Double:
        if (v.is_number() && v.get<double>() != 0) {
            const double d = v.get<double>();
            std::uint64_t bits = 0;
            std::memcpy(&bits, &d, sizeof bits);
            putKey(out, rule.number, Fixed64);
            for (int i = 0; i < 8; ++i)
                out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
        }
        break;
    case Kind::Strings:
        for (const Json &s : asArray(v, one))
            if (s.is_string())
                putBytes(out, rule.number, s.get<std::string>());
        break;
    case Kind::Message:
        putBytes(out, rule.number, rule.encoder(v));
        break;
    case Kind::Messages:
        for (const Json &e : asArray(v, one))
            putBytes(out, rule.number, rule.encoder(e));
        break;
    case Kind::Any:
        putBytes(out, rule.number, any(v));
        break;
    case Kind::Anys:
        for (const Json &e : asArray(v, one))
            putBytes(out, rule.number, any(e));
        break;
    }
}

bool isExtension(const std::string &key)
{
    return key.rfind("x-", 0) == 0;
}

// The x- members as repeated NamedAny {name = 1, value = 2}.
void putExtensions(std::string &out, const Json &object, int field)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!isExtension(it.key()))
            continue;
        std::string pair;
        putString(pair, 1, it.key());
        putBytes(pair, 2, any(it.value()));
        putBytes(out, field, pair);
    }
}

// A message from the members `rules` name, and the x- members as field `extensions` (0: the
// message has no vendor extensions).
std::string message(const Json &object, const std::vector<Rule> &rules, int extensions)
{
    std::string out;
    if (!object.is_object())
        return out;
    for (const Rule &r : rules)
        if (const Json *v = kube::member(object, r.key))
            putMember(out, r, *v);
    if (extensions)
        putExtensions(out, object, extensions);
    return out;
}

// A map as repeated Named* pairs {name = 1, value = 2}; x- members are skipped where the
// message carries them as vendor extensions.
void putNamed(std::string &out, int field, const Json &map, Encoder value, bool skipExtensions)
{
    if (!map.is_object())
        return;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (skipExtensions && isExtension(it.key()))
            continue;
        std::string pair;
        putString(pair, 1, it.key());
        putBytes(pair, 2, value(it.value()));
        putBytes(out, field, pair);
    }
}

std::string schema(const Json &j);
std::string primitivesItems(const Json &j);

// StringArray and TypeItem: repeated string value = 1.
std::string strings(const Json &v)
{
    std::string out;
    putMember(out, {"", 1, Kind::Strings}, v);
    return out;
}

// ItemsItem: repeated Schema schema = 1.
std::string itemsItem(const Json &v)
{
    std::string out;
    putMember(out, {"", 1, Kind::Messages, schema}, v);
    return out;
}

// AdditionalPropertiesItem: oneof {Schema schema = 1; bool boolean = 2}.
std::string additionalProperties(const Json &v)
{
    std::string out;
    if (v.is_boolean()) {
        putKey(out, 2, Varint);
        putVarint(out, v.get<bool>() ? 1 : 0);
    } else {
        putBytes(out, 1, schema(v));
    }
    return out;
}

// Definitions and Properties: repeated NamedSchema = 1.
std::string namedSchemas(const Json &map)
{
    std::string out;
    putNamed(out, 1, map, schema, false);
    return out;
}

std::string schema(const Json &j)
{
    static const std::vector<Rule> rules = {
        {"$ref", 1, Kind::String},
        {"format", 2, Kind::String},
        {"title", 3, Kind::String},
        {"description", 4, Kind::String},
        {"default", 5, Kind::Any},
        {"multipleOf", 6, Kind::Double},
        {"maximum", 7, Kind::Double},
        {"exclusiveMaximum", 8, Kind::Bool},
        {"minimum", 9, Kind::Double},
        {"exclusiveMinimum", 10, Kind::Bool},
        {"maxLength", 11, Kind::Int64},
        {"minLength", 12, Kind::Int64},
        {"pattern", 13, Kind::String},
        {"maxItems", 14, Kind::Int64},
        {"minItems", 15, Kind::Int64},
        {"uniqueItems", 16, Kind::Bool},
        {"maxProperties", 17, Kind::Int64},
        {"minProperties", 18, Kind::Int64},
        {"required", 19, Kind::Strings},
        {"enum", 20, Kind::Anys},
        {"additionalProperties", 21, Kind::Message, additionalProperties},
        {"type", 22, Kind::Message, strings},
        {"items", 23, Kind::Message, itemsItem},
        {"allOf", 24, Kind::Messages, schema},
        {"properties", 25, Kind::Message, namedSchemas},
        {"discriminator", 26, Kind::String},
        {"readOnly", 27, Kind::Bool},
        {"example", 30, Kind::Any},
    };
    return message(j, rules, 31);
}

// The members the primitive layouts (PrimitivesItems, Header and the non-body parameters) share,
// in this order from `first` on, after the members of `head`.
std::vector<Rule> primitive(std::vector<Rule> head, int first)
{
    const Rule tail[] = {
        {"type", 0, Kind::String},
        {"format", 0, Kind::String},
        {"items", 0, Kind::Message, primitivesItems},
        {"collectionFormat", 0, Kind::String},
        {"default", 0, Kind::Any},
        {"maximum", 0, Kind::Double},
        {"exclusiveMaximum", 0, Kind::Bool},
        {"minimum", 0, Kind::Double},
        {"exclusiveMinimum", 0, Kind::Bool},
        {"maxLength", 0, Kind::Int64},
        {"minLength", 0, Kind::Int64},
        {"pattern", 0, Kind::String},
        {"maxItems", 0, Kind::Int64},
        {"minItems", 0, Kind::Int64},
        {"uniqueItems", 0, Kind::Bool},
        {"enum", 0, Kind::Anys},
        {"multipleOf", 0, Kind::Double},
    };
    for (Rule r : tail) {
        r.number = first++;
        head.push_back(r);
    }
    return head;
}

std::string primitivesItems(const Json &j)
{
    static const std::vector<Rule> rules = primitive({}, 1);
    return message(j, rules, 18);
}

// Header: the primitive members, then description = 18.
std::string header(const Json &j)
{
    static const std::vector<Rule> rules = [] {
        std::vector<Rule> r = primitive({}, 1);
        r.push_back({"description", 18, Kind::String});
        return r;
    }();
    return message(j, rules, 19);
}

// Headers: repeated NamedHeader = 1.
std::string headers(const Json &map)
{
    std::string out;
    putNamed(out, 1, map, header, false);
    return out;
}

// JsonReference: _ref = 1, description = 2.
std::string jsonReference(const Json &j)
{
    static const std::vector<Rule> rules = {{"$ref", 1, Kind::String}, {"description", 2, Kind::String}};
    return message(j, rules, 0);
}

// Parameter: oneof {BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2},
// NonBodyParameter: oneof {header = 1, formData = 2, query = 3, path = 4}.
std::string parameter(const Json &j)
{
    static const std::vector<Rule> body = {{"description", 1, Kind::String},
                                           {"name", 2, Kind::String},
                                           {"in", 3, Kind::String},
                                           {"required", 4, Kind::Bool},
                                           {"schema", 5, Kind::Message, schema}};
    static const std::vector<Rule> head = {{"required", 1, Kind::Bool},
                                           {"in", 2, Kind::String},
                                           {"description", 3, Kind::String},
                                           {"name", 4, Kind::String}};
    // Header and path parameters: the primitive members from 5 on; query and form parameters:
    // allowEmptyValue = 5, then the primitive members from 6 on.
    static const std::vector<Rule> headerOrPath = primitive(head, 5);
    static const std::vector<Rule> queryOrForm = [] {
        std::vector<Rule> r = head;
        r.push_back({"allowEmptyValue", 5, Kind::Bool});
        return primitive(r, 6);
    }();
    const std::string in = kube::stringOr(j, "in");
    std::string out;
    if (in == "body") {
        putBytes(out, 1, message(j, body, 6));
        return out;
    }
    std::string nonBody;
    if (in == "header")
        putBytes(nonBody, 1, message(j, headerOrPath, 22));
    else if (in == "formData")
        putBytes(nonBody, 2, message(j, queryOrForm, 23));
    else if (in == "query")
        putBytes(nonBody, 3, message(j, queryOrForm, 23));
    else if (in == "path")
        putBytes(nonBody, 4, message(j, headerOrPath, 22));
    putBytes(out, 2, nonBody);
    return out;
}

// ParametersItem and ResponseValue: oneof {the value = 1; JsonReference json_reference = 2}.
std::string orReference(const Json &j, Encoder value)
{
    std::string out;
    if (kube::member(j, "$ref"))
        putBytes(out, 2, jsonReference(j));
    else
        putBytes(out, 1, value(j));
    return out;
}

std::string parametersItem(const Json &j)
{
    return orReference(j, parameter);
}

// Response: description = 1, schema = 2 (a SchemaItem, whose Schema is its field 1), headers = 3.
std::string schemaItem(const Json &j)
{
    std::string out;
    putBytes(out, 1, schema(j));
    return out;
}

std::string response(const Json &j)
{
    static const std::vector<Rule> rules = {{"description", 1, Kind::String},
                                            {"schema", 2, Kind::Message, schemaItem},
                                            {"headers", 3, Kind::Message, headers}};
    return message(j, rules, 5);
}

std::string responseValue(const Json &j)
{
    return orReference(j, response);
}

// Responses: repeated NamedResponseValue response_code = 1, vendor extensions = 2.
std::string responses(const Json &map)
{
    std::string out;
    putNamed(out, 1, map, responseValue, true);
    putExtensions(out, map, 2);
    return out;
}

// SecurityRequirement: repeated NamedStringArray = 1.
std::string securityRequirement(const Json &map)
{
    std::string out;
    putNamed(out, 1, map, strings, false);
    return out;
}

std::string externalDocs(const Json &j)
{
    static const std::vector<Rule> rules = {{"description", 1, Kind::String}, {"url", 2, Kind::String}};
    return message(j, rules, 3);
}

std::string operation(const Json &j)
{
    static const std::vector<Rule> rules = {
        {"tags", 1, Kind::Strings},
        {"summary", 2, Kind::String},
        {"description", 3, Kind::String},
        {"externalDocs", 4, Kind::Message, externalDocs},
        {"operationId", 5, Kind::String},
        {"produces", 6, Kind::Strings},
        {"consumes", 7, Kind::Strings},
        {"parameters", 8, Kind::Messages, parametersItem},
        {"responses", 9, Kind::Message, responses},
        {"schemes", 10, Kind::Strings},
        {"deprecated", 11, Kind::Bool},
        {"security", 12, Kind::Messages, securityRequirement},
    };
    return message(j, rules, 13);
}

std::string pathItem(const Json &j)
{
    static const std::vector<Rule> rules = {
        {"$ref", 1, Kind::String},
        {"get", 2, Kind::Message, operation},
        {"put", 3, Kind::Message, operation},
        {"post", 4, Kind::Message, operation},
        {"delete", 5, Kind::Message, operation},
        {"options", 6, Kind::Message, operation},
        {"head", 7, Kind::Message, operation},
        {"patch", 8, Kind::Message, operation},
        {"parameters", 9, Kind::Messages, parametersItem},
    };
    return message(j, rules, 10);
}

// Paths: vendor extensions = 1, repeated NamedPathItem path = 2.
std::string paths(const Json &map)
{
    std::string out;
    putExtensions(out, map, 1);
    putNamed(out, 2, map, pathItem, true);
    return out;
}

std::string contact(const Json &j)
{
    static const std::vector<Rule> rules = {
        {"name", 1, Kind::String}, {"url", 2, Kind::String}, {"email", 3, Kind::String}};
    return message(j, rules, 4);
}

std::string license(const Json &j)
{
    static const std::vector<Rule> rules = {{"name", 1, Kind::String}, {"url", 2, Kind::String}};
    return message(j, rules, 3);
}

std::string info(const Json &j)
{
    static const std::vector<Rule> rules = {
        {"title", 1, Kind::String},
        {"version", 2, Kind::String},
        {"description", 3, Kind::String},
        {"termsOfService", 4, Kind::String},
        {"contact", 5, Kind::Message, contact},
        {"license", 6, Kind::Message, license},
    };
    return message(j, rules, 7);
}

// SecurityDefinitionsItem: oneof {BasicAuthenticationSecurity = 1; ApiKeySecurity = 2; …}; the
// OAuth2 schemes (3 to 6) are not written.
std::string securityScheme(const Json &j)
{
    static const std::vector<Rule> basic = {{"type", 1, Kind::String}, {"description", 2, Kind::String}};
    static const std::vector<Rule> apiKey = {{"type", 1, Kind::String},
                                             {"name", 2, Kind::String},
                                             {"in", 3, Kind::String},
                                             {"description", 4, Kind::String}};
    const std::string type = kube::stringOr(j, "type");
    std::string out;
    if (type == "basic")
        putBytes(out, 1, message(j, basic, 3));
    else if (type == "apiKey")
        putBytes(out, 2, message(j, apiKey, 5));
    return out;
}

// SecurityDefinitions: repeated NamedSecurityDefinitionsItem = 1.
std::string securityDefinitions(const Json &map)
{
    std::string out;
    putNamed(out, 1, map, securityScheme, false);
    return out;
}

std::string tag(const Json &j)
{
    static const std::vector<Rule> rules = {{"name", 1, Kind::String},
                                            {"description", 2, Kind::String},
                                            {"externalDocs", 3, Kind::Message, externalDocs}};
    return message(j, rules, 4);
}

} // namespace

std::string encodeOpenApiV2(const Json &document)
{
    static const std::vector<Rule> rules = {
        {"swagger", 1, Kind::String},
        {"info", 2, Kind::Message, info},
        {"host", 3, Kind::String},
        {"basePath", 4, Kind::String},
        {"schemes", 5, Kind::Strings},
        {"consumes", 6, Kind::Strings},
        {"produces", 7, Kind::Strings},
        {"paths", 8, Kind::Message, paths},
        {"definitions", 9, Kind::Message, namedSchemas},
        {"security", 12, Kind::Messages, securityRequirement},
        {"securityDefinitions", 13, Kind::Message, securityDefinitions},
        {"tags", 14, Kind::Messages, tag},
        {"externalDocs", 15, Kind::Message, externalDocs},
    };
    return message(document, rules, 16);
}

} // namespace server
