#include "models/server/crd.h"

#include "models/kube/apischema.h"
#include "models/kube/yaml.h"
#include "models/server/openapi.h"

#include "models/api/nodeupgraderollout.h"

namespace server {

using kube::Json;
namespace schema = kube::schema;

namespace {

// As the served documents give a scalar, except where a CRD's structural schema needs another
// form: inline date-times, int-or-string instead of oneOf, free-form objects kept whole.
Json scalarSchema(schema::Scalar s)
{
    using schema::Scalar;
    switch (s) {
    case Scalar::Time:
    case Scalar::MicroTime:
        return {{"type", "string"}, {"format", "date-time"}};
    case Scalar::Quantity:
    case Scalar::IntOrString:
        return {{"x-kubernetes-int-or-string", true}};
    case Scalar::Object:
        return {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
    default: // Any: a string or an object (unmanagedPodPolicy: Never | {afterTimeout: 1h})
        return plainScalarSchema(s);
    }
}

Json typeSchema(const schema::TypeRef &t);

Json structSchema(const schema::Struct &s, bool top)
{
    Json out = {{"type", "object"}};
    if (!s.description.empty())
        out["description"] = s.description;
    Json properties = Json::object();
    Json required = Json::array();
    for (const auto &f : s.fields) {
        // apiVersion, kind and metadata of the top level are the API server's (a CRD's schema
        // may only say that metadata is an object).
        if (top && (f.name == "apiVersion" || f.name == "kind" || f.name == "metadata")) {
            Json p = f.name == "metadata" ? Json{{"type", "object"}} : Json{{"type", "string"}};
            if (!f.description.empty())
                p["description"] = f.description;
            properties[f.name] = p;
            continue;
        }
        Json p = typeSchema(f.type);
        if (!f.description.empty())
            p["description"] = f.description;
        const std::string field = s.name == "NodeUpgradeRolloutSpec" ? f.name
                                  : s.name == "NodeUpgradeRestart"   ? "restart." + f.name
                                                                     : std::string();
        if (!field.empty())
            if (const auto values = api::nodeUpgradeSpecEnum(field); !values.empty())
                p["enum"] = values;
        properties[f.name] = p;
        if (f.required)
            required.push_back(f.name);
    }
    out["properties"] = properties;
    if (!required.empty())
        out["required"] = required;
    return out;
}

Json typeSchema(const schema::TypeRef &t)
{
    using Form = schema::TypeRef::Form;
    switch (t.form) {
    case Form::Scalar:
        return scalarSchema(t.scalar);
    case Form::Struct:
        return structSchema(*t.type, false);
    case Form::List:
        return {{"type", "array"}, {"items", typeSchema(*t.element)}};
    case Form::Map:
        return {{"type", "object"}, {"additionalProperties", typeSchema(*t.element)}};
    }
    return Json::object();
}

} // namespace

const std::vector<PrinterColumn> &nodeUpgradeRolloutColumns()
{
    static const std::vector<PrinterColumn> columns = {
        {"Target", "string", ".spec.targetVersion", "The node-agent version the rollout upgrades to.", 0},
        {"Phase", "string", ".status.phase", "The rollout's phase.", 0},
        {"Up-To-Date", "integer", ".status.upToDate", "Nodes that run the target version.", 0},
        {"In-Flight", "integer", ".status.inFlight", "Nodes being drained, upgraded or soaked.", 0},
        {"Nodes", "integer", ".status.nodes", "Nodes the rollout selects.", 0},
        {"Age", "date", ".metadata.creationTimestamp",
         "CreationTimestamp is a timestamp representing the server time when this object was created.", 0},
        {"Headline", "string", ".status.headline", "Why the rollout is or is not moving.", 1},
    };
    return columns;
}

const Json &columnValue(const Json &object, const std::string &jsonPath)
{
    static const Json null;
    const Json *at = &object;
    std::size_t i = 1; // after the leading '.'
    while (i <= jsonPath.size()) {
        const std::size_t dot = jsonPath.find('.', i);
        const std::string key = jsonPath.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
        if (!at->is_object())
            return null;
        auto it = at->find(key);
        if (it == at->end())
            return null;
        at = &*it;
        if (dot == std::string::npos)
            break;
        i = dot + 1;
    }
    return *at;
}

Json nodeUpgradeRolloutCrd()
{
    const schema::Struct *kind =
        schema::structForKind("upgrade.daemonscope.io", "v1alpha1", "NodeUpgradeRollout");
    Json columns = Json::array();
    for (const auto &c : nodeUpgradeRolloutColumns()) {
        Json col = {
            {"name", c.name}, {"type", c.type}, {"jsonPath", c.jsonPath}, {"description", c.description}};
        if (c.priority)
            col["priority"] = c.priority;
        columns.push_back(col);
    }
    Json version = {{"name", "v1alpha1"},
                    {"served", true},
                    {"storage", true},
                    {"subresources", {{"status", Json::object()}}},
                    {"additionalPrinterColumns", columns},
                    {"schema", {{"openAPIV3Schema", kind ? structSchema(*kind, true) : Json::object()}}}};
    Json names = {{"plural", "nodeupgraderollouts"},
                  {"singular", "nodeupgraderollout"},
                  {"kind", "NodeUpgradeRollout"},
                  {"listKind", "NodeUpgradeRolloutList"},
                  {"shortNames", Json::array({"nur"})}};
    Json spec = {{"group", "upgrade.daemonscope.io"},
                 {"scope", "Cluster"},
                 {"names", names},
                 {"versions", Json::array({version})}};
    return {{"apiVersion", "apiextensions.k8s.io/v1"},
            {"kind", "CustomResourceDefinition"},
            {"metadata", {{"name", "nodeupgraderollouts.upgrade.daemonscope.io"}}},
            {"spec", spec}};
}

std::string nodeUpgradeRolloutCrdYaml()
{
    return "# The NodeUpgradeRollout custom resource, for `daemonscope controller` on a real cluster.\n"
           "# Generated by `daemonscope controller --print-crd`; do not edit.\n" +
           kube::toYaml(nodeUpgradeRolloutCrd());
}

} // namespace server
