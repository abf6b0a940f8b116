#include "models/diff/podtemplateof.h"

#include "models/kube/fieldtypes.h"
#include "models/kube/jsonlimits.h"

namespace diff {
namespace {

using kube::Json;

std::string nameOf(const Json &object)
{
    if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object())
        if (auto name = meta->find("name"); name != meta->end() && name->is_string())
            return name->get<std::string>();
    return {};
}

kube::ApiStatus missing(const std::string &kind, const std::string &name, const std::string &what)
{
    return kube::ApiStatus::invalid(kind, name, what);
}

// Follows `keys` from `object`; the result must be an object.
kube::Result<const Json *> objectAt(const Json &object, std::initializer_list<const char *> keys,
                                    const std::string &kind, const std::string &name, std::string path = {})
{
    const Json *at = &object;
    for (const char *key : keys) {
        path += path.empty() ? key : std::string(".") + key;
        if (!at->is_object())
            return missing(kind, name, "has no " + path);
        const auto it = at->find(key);
        if (it == at->end() || it->is_null())
            return missing(kind, name, "has no " + path);
        at = &*it;
    }
    if (!at->is_object())
        return missing(kind, name, path + " must be an object, got " + at->type_name());
    return at;
}

// podTemplateOf; with `take` the caller gives `object` up (it is not const) and the template is
// moved out of it instead of copied.
template <bool take> kube::Result<kube::Json> templateOf(const kube::Json &object, FieldTypes types)
{
    if (!object.is_object())
        return kube::ApiStatus::badRequest(std::string("expected a Kubernetes object, got ") +
                                           object.type_name());
    const auto kindIt = object.find("kind");
    if (kindIt == object.end() || !kindIt->is_string() || kindIt->get<std::string>().empty())
        return kube::ApiStatus::badRequest("object has no kind");
    const std::string kind = kindIt->get<std::string>();
    const std::string name = nameOf(object);
    // What the API server would not decode is not diffed either: a revision of "three" or
    // containers given as a map would otherwise show up as an ordinary difference. Checked once
    // the template has been found, so that a missing one is named as such.
    const auto decodable = [&](kube::Result<const Json *> tpl, bool movable) -> kube::Result<Json> {
        if (!tpl)
            return tpl.error();
        if (types == FieldTypes::Check) {
            if (const auto errors = kube::fieldTypeErrors(object); !errors.empty())
                return kube::ApiStatus::invalid(kind, name, errors.front().text());
        }
        if (movable)
            return std::move(const_cast<Json &>(**tpl));
        return **tpl;
    };

    if (kind == "DaemonSet" || kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet")
        return decodable(objectAt(object, {"spec", "template"}, kind, name), take);
    if (kind == "PodTemplate")
        return decodable(objectAt(object, {"template"}, kind, name), take);
    if (kind == "ControllerRevision") {
        const auto dataIt = object.find("data");
        if (dataIt == object.end() || dataIt->is_null())
            return missing(kind, name, "has no data");
        Json data;
        if (dataIt->is_string()) {
            // A revision read from a file may carry data as the raw JSON text it is stored as.
            auto parsed = kube::JsonLimits::parse(dataIt->get<std::string>());
            if (!parsed)
                return missing(kind, name, "data: " + parsed.error().message);
            data = std::move(parsed).value();
        } else {
            data = *dataIt;
        }
        auto tpl = decodable(objectAt(data, {"spec", "template"}, kind, name, "data"), true);
        if (!tpl)
            return tpl.error();
        Json result = std::move(tpl).value();
        if (const auto errors =
                kube::podTemplateTypeErrors(result, "/data/spec/template", "data.spec.template");
            !errors.empty())
            return kube::ApiStatus::invalid(kind, name, errors.front().text());
        // The controller stores the template as a strategic-merge patch that replaces the whole
        // template; the directive is not part of the template.
        result.erase("$patch");
        return result;
    }
    return kube::ApiStatus::badRequest("kind " + kind + (name.empty() ? std::string() : " \"" + name + "\"") +
                                       " has no pod template (expected DaemonSet, Deployment, ReplicaSet, "
                                       "StatefulSet, ControllerRevision or PodTemplate)");
}

} // namespace

kube::Result<kube::Json> podTemplateOf(const kube::Json &object, FieldTypes types)
{
    return templateOf<false>(object, types);
}

kube::Result<kube::Json> podTemplateOf(kube::Json &&object, FieldTypes types)
{
    return templateOf<true>(object, types);
}

} // namespace diff
