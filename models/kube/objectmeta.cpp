#include "models/kube/objectmeta.h"

#include <charconv>

namespace kube {

namespace {

ApiStatus wrongType(const std::string &field, const char *expected)
{
    return ApiStatus::badRequest("field " + field + ": expected " + expected);
}

} // namespace

Result<StringMap> stringMapFromJson(const Json &j, const std::string &field)
{
    StringMap out;
    if (j.is_null())
        return out;
    if (!j.is_object())
        return wrongType(field, "a map of strings");
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!it.value().is_string())
            return wrongType(field + "." + it.key(), "a string");
        out.emplace(it.key(), it.value().get<std::string>());
    }
    return out;
}

Json stringMapToJson(const StringMap &m)
{
    Json j = Json::object();
    for (const auto &[k, v] : m)
        j[k] = v;
    return j;
}

Json OwnerReference::toJson() const
{
    Json j = {{"apiVersion", apiVersion}, {"kind", kind}, {"name", name}, {"uid", uid}};
    if (controller)
        j["controller"] = true;
    if (blockOwnerDeletion)
        j["blockOwnerDeletion"] = true;
    return j;
}

Result<OwnerReference> OwnerReference::fromJson(const Json &j)
{
    if (!j.is_object())
        return wrongType("metadata.ownerReferences[]", "an object");
    OwnerReference r;
    auto str = [&](const char *k, std::string &dst) -> bool {
        auto it = j.find(k);
        if (it == j.end() || it->is_null())
            return true;
        if (!it->is_string())
            return false;
        dst = it->get<std::string>();
        return true;
    };
    if (!str("apiVersion", r.apiVersion) || !str("kind", r.kind) || !str("name", r.name) ||
        !str("uid", r.uid))
        return wrongType("metadata.ownerReferences[]", "string apiVersion, kind, name and uid");
    if (auto it = j.find("controller"); it != j.end() && it->is_boolean())
        r.controller = it->get<bool>();
    if (auto it = j.find("blockOwnerDeletion"); it != j.end() && it->is_boolean())
        r.blockOwnerDeletion = it->get<bool>();
    return r;
}

const OwnerReference *ObjectMeta::controllerRef() const
{
    for (const auto &r : ownerReferences)
        if (r.controller)
            return &r;
    return nullptr;
}

namespace {
const std::string kNone;
} // namespace

const std::string &ObjectMeta::label(std::string_view key) const
{
    auto it = labels.find(key);
    return it == labels.end() ? kNone : it->second;
}

const std::string &ObjectMeta::annotation(std::string_view key) const
{
    auto it = annotations.find(key);
    return it == annotations.end() ? kNone : it->second;
}

Json ObjectMeta::toJson() const
{
    Json j = extra.is_object() ? extra : Json::object();
    if (!name.empty())
        j["name"] = name;
    if (!generateName.empty())
        j["generateName"] = generateName;
    if (!namespace_.empty())
        j["namespace"] = namespace_;
    if (!uid.empty())
        j["uid"] = uid;
    if (!resourceVersion.empty())
        j["resourceVersion"] = resourceVersion;
    if (generation)
        j["generation"] = generation;
    if (creationTimestamp)
        j["creationTimestamp"] = formatRfc3339(*creationTimestamp);
    if (deletionTimestamp)
        j["deletionTimestamp"] = formatRfc3339(*deletionTimestamp);
    if (deletionGracePeriodSeconds)
        j["deletionGracePeriodSeconds"] = *deletionGracePeriodSeconds;
    if (!labels.empty())
        j["labels"] = stringMapToJson(labels);
    if (!annotations.empty())
        j["annotations"] = stringMapToJson(annotations);
    if (!ownerReferences.empty()) {
        Json refs = Json::array();
        for (const auto &r : ownerReferences)
            refs.push_back(r.toJson());
        j["ownerReferences"] = std::move(refs);
    }
    if (!finalizers.empty())
        j["finalizers"] = finalizers;
    return j;
}

Result<ObjectMeta> ObjectMeta::fromJson(const Json &j)
{
    ObjectMeta m;
    if (j.is_null())
        return m;
    if (!j.is_object())
        return wrongType("metadata", "an object");
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string &k = it.key();
        const Json &v = it.value();
        auto asString = [&](std::string &dst) -> Result<void> {
            if (v.is_null())
                return {};
            if (!v.is_string())
                return wrongType("metadata." + k, "a string");
            dst = v.get<std::string>();
            return {};
        };
        auto asTime = [&](std::optional<Timestamp> &dst) -> Result<void> {
            if (v.is_null())
                return {};
            if (!v.is_string())
                return wrongType("metadata." + k, "an RFC 3339 time string");
            auto t = parseRfc3339(v.get<std::string>());
            if (!t)
                return ApiStatus::badRequest("field metadata." + k + ": " + t.error().message);
            dst = *t;
            return {};
        };
        Result<void> r;
        if (k == "name")
            r = asString(m.name);
        else if (k == "generateName")
            r = asString(m.generateName);
        else if (k == "namespace")
            r = asString(m.namespace_);
        else if (k == "uid")
            r = asString(m.uid);
        else if (k == "resourceVersion")
            r = asString(m.resourceVersion);
        else if (k == "generation") {
            if (!v.is_number_integer())
                return wrongType("metadata.generation", "an integer");
            m.generation = v.get<std::int64_t>();
        } else if (k == "creationTimestamp")
            r = asTime(m.creationTimestamp);
        else if (k == "deletionTimestamp")
            r = asTime(m.deletionTimestamp);
        else if (k == "deletionGracePeriodSeconds") {
            if (!v.is_null() && !v.is_number_integer())
                return wrongType("metadata.deletionGracePeriodSeconds", "an integer");
            if (v.is_number_integer())
                m.deletionGracePeriodSeconds = v.get<std::int64_t>();
        } else if (k == "labels") {
            auto l = stringMapFromJson(v, "metadata.labels");
            if (!l)
                return l.error();
            m.labels = std::move(*l);
        } else if (k == "annotations") {
            auto a = stringMapFromJson(v, "metadata.annotations");
            if (!a)
                return a.error();
            m.annotations = std::move(*a);
        } else if (k == "ownerReferences") {
            if (v.is_null())
                continue;
            if (!v.is_array())
                return wrongType("metadata.ownerReferences", "a list");
            for (const auto &e : v) {
                auto ref = OwnerReference::fromJson(e);
                if (!ref)
                    return ref.error();
                m.ownerReferences.push_back(std::move(*ref));
            }
        } else if (k == "finalizers") {
            if (v.is_null())
                continue;
            if (!v.is_array())
                return wrongType("metadata.finalizers", "a list of strings");
            for (const auto &e : v) {
                if (!e.is_string())
                    return wrongType("metadata.finalizers[]", "a string");
                m.finalizers.push_back(e.get<std::string>());
            }
        } else {
            m.extra[k] = v;
        }
        if (!r)
            return r.error();
    }
    return m;
}

std::optional<std::uint64_t> numericResourceVersion(const std::string &rv)
{
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), v);
    if (rv.empty() || ec != std::errc() || end != rv.data() + rv.size())
        return std::nullopt;
    return v;
}

} // namespace kube
