#include "models/kube/fieldtypes.h"

#include "models/kube/apischema.h"
#include "models/kube/yamldocument.h"

#include <cmath>
#include <cstdint>
#include <utility>

namespace kube {

namespace {

constexpr std::size_t kMaxErrors = 20; // the API server also stops listing at some point
constexpr std::size_t kMaxValueText = 80;

using schema::Scalar;
using schema::TypeRef;

// Go's encoding/json fills an integer field from a JSON number without a fraction; YAML's 1.0
// reaches it as 1 through sigs.k8s.io/yaml, so integral doubles count as integers.
bool integerIn(const Json &v, std::int64_t lo, std::int64_t hi)
{
    if (v.is_number_unsigned())
        return hi >= 0 && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi);
    if (v.is_number_integer())
        return v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
    if (v.is_number_float()) {
        const double d = v.get<double>();
        return std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) &&
               d <= static_cast<double>(hi);
    }
    return false;
}

const char *mismatch(const Json &v, const TypeRef &t)
{
    switch (t.form) {
    case TypeRef::Form::Struct:
        return v.is_object() ? nullptr : "must be an object";
    case TypeRef::Form::Map:
        return v.is_object() ? nullptr : "must be a map";
    case TypeRef::Form::List:
        return v.is_array() ? nullptr : "must be a list";
    case TypeRef::Form::Scalar:
        break;
    }
    switch (t.scalar) {
    case Scalar::Any:
    case Scalar::Object: // runtime.RawExtension, FieldsV1: any JSON the type itself decodes
        return nullptr;
    case Scalar::String:
    case Scalar::Bytes:
    case Scalar::Time:
    case Scalar::MicroTime:
    case Scalar::Duration:
        return v.is_string() ? nullptr : "must be a string";
    case Scalar::Bool:
        return v.is_boolean() ? nullptr : "must be a boolean";
    case Scalar::Double:
        return v.is_number() ? nullptr : "must be a number";
    case Scalar::Int32:
        return integerIn(v, INT32_MIN, INT32_MAX) ? nullptr : "must be a 32-bit integer";
    case Scalar::Int64:
        return integerIn(v, INT64_MIN, INT64_MAX) ? nullptr : "must be a 64-bit integer";
    case Scalar::IntOrString:
        return v.is_string() || integerIn(v, INT32_MIN, INT32_MAX) ? nullptr
                                                                   : "must be a 32-bit integer or a string";
    case Scalar::Quantity:
        return v.is_string() || v.is_number() ? nullptr : "must be a quantity such as 500m or 1Gi";
    }
    return nullptr;
}

std::string valueText(const Json &v)
{
    std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() > kMaxValueText) {
        text.resize(kMaxValueText);
        text += "...";
    }
    return text;
}

// Where a value sits, as a chain up to the value checked first: its JSON pointer and the path
// the API server names ("spec.containers[0].ports") are spelled out only for a value in error.
struct Location
{
    enum class Step { Root, Field, Index, Key };
    const Location *parent = nullptr;
    Step step = Step::Root;
    const std::string *name = nullptr; // Field and Key; for Root the pointer
    const std::string *rootPath = nullptr;
    std::size_t index = 0;
};

void spell(const Location &at, std::string &pointer, std::string &path)
{
    if (at.step == Location::Step::Root) {
        pointer = *at.name;
        path = *at.rootPath;
        return;
    }
    spell(*at.parent, pointer, path);
    switch (at.step) {
    case Location::Step::Field:
        pointer = appendPointer(pointer, *at.name);
        path = path.empty() ? *at.name : path + "." + *at.name;
        break;
    case Location::Step::Index:
        pointer += "/" + std::to_string(at.index);
        path += "[" + std::to_string(at.index) + "]";
        break;
    case Location::Step::Key:
        pointer = appendPointer(pointer, *at.name);
        path += "[" + *at.name + "]";
        break;
    case Location::Step::Root:
        break;
    }
}

void check(const Json &v, const TypeRef &t, const Location &at, std::vector<FieldTypeError> &out)
{
    if (v.is_null() || out.size() >= kMaxErrors)
        return;
    if (const char *detail = mismatch(v, t)) {
        std::string pointer, path;
        spell(at, pointer, path);
        out.push_back({std::move(pointer), std::move(path), valueText(v), detail});
        return;
    }
    switch (t.form) {
    case TypeRef::Form::Struct:
        for (const auto &field : t.type->fields)
            if (const auto it = v.find(field.name); it != v.end())
                check(*it, field.type, {&at, Location::Step::Field, &field.name}, out);
        break;
    case TypeRef::Form::List:
        for (std::size_t i = 0; i < v.size(); ++i)
            check(v[i], *t.element, {&at, Location::Step::Index, nullptr, nullptr, i}, out);
        break;
    case TypeRef::Form::Map:
        for (auto it = v.begin(); it != v.end(); ++it)
            check(it.value(), *t.element, {&at, Location::Step::Key, &it.key()}, out);
        break;
    case TypeRef::Form::Scalar:
        break;
    }
}

void check(const Json &v, const TypeRef &t, const std::string &pointer, const std::string &path,
           std::vector<FieldTypeError> &out)
{
    check(v, t, Location{nullptr, Location::Step::Root, &pointer, &path}, out);
}

TypeRef refTo(const char *definition)
{
    return schema::refTo(*schema::structNamed(definition));
}

// The schema of an object by its kind, whichever group the apiVersion names (manifests of
// kinds this app reads are checked even when their apiVersion is wrong); an unknown kind has
// its apiVersion, kind and metadata checked (the custom kind checks its own spec).
TypeRef kindRef(const Json &object, const std::string &kind)
{
    if (const schema::Struct *s = schema::structForObject(object); s && s->builtIn)
        return schema::refTo(*s);
    for (const schema::Struct *s : schema::structs())
        if (s->builtIn && !s->gvk.empty() && s->gvk.kind == kind)
            return schema::refTo(*s);
    static const schema::Struct other = [] {
        schema::Struct o;
        o.name = "Object";
        const schema::Struct *pod = schema::structNamed("io.k8s.api.core.v1.Pod");
        for (const char *name : {"apiVersion", "kind", "metadata"})
            o.fields.push_back(*pod->field(name));
        return o;
    }();
    return schema::refTo(other);
}

} // namespace

std::string FieldTypeError::text() const
{
    return path + ": Invalid value: " + value + ": " + detail;
}

std::vector<FieldTypeError> fieldTypeErrors(const Json &object)
{
    std::vector<FieldTypeError> out;
    if (!object.is_object()) {
        out.push_back({"", "", valueText(object), "must be an object"});
        return out;
    }
    const auto kind = object.find("kind");
    const std::string kindText = kind != object.end() && kind->is_string() ? kind->get<std::string>() : "";
    static const std::string empty;
    check(object, kindRef(object, kindText), empty, empty, out);
    return out;
}

std::vector<FieldTypeError> daemonSetSpecTypeErrors(const Json &spec)
{
    std::vector<FieldTypeError> out;
    static const std::string pointer = "/spec", path = "spec";
    check(spec, refTo("io.k8s.api.apps.v1.DaemonSetSpec"), pointer, path, out);
    return out;
}

std::vector<FieldTypeError> podTemplateTypeErrors(const Json &tpl, const std::string &pointer,
                                                  const std::string &path)
{
    std::vector<FieldTypeError> out;
    check(tpl, refTo("io.k8s.api.core.v1.PodTemplateSpec"), pointer, path, out);
    return out;
}

} // namespace kube
