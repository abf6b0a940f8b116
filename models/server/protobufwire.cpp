#include "models/server/protobufwire.h"
#include "models/kube/timeutil.h"

#include <algorithm>
#include <cctype>

namespace server::protowire {

ApiStatus malformed(const std::string &what)
{
    return ApiStatus::badRequest("the protobuf request body is malformed: " + what);
}

kube::Result<std::string> text(const Field &f, const char *name)
{
    if (f.wireType != 2)
        return malformed(std::string(name) + " is not a string");
    return std::string(f.bytes);
}

kube::Result<Json> preconditions(std::string_view message)
{
    Json out = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number != 1 && f.number != 2)
            return {};
        auto s = text(f, f.number == 1 ? "preconditions.uid" : "preconditions.resourceVersion");
        if (!s)
            return s.error();
        out[f.number == 1 ? "uid" : "resourceVersion"] = *s;
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

kube::Result<void> mapEntry(const Field &f, const char *what, Json &into)
{
    if (f.wireType != 2)
        return malformed(std::string(what) + " is not a map entry");
    std::string key, value;
    auto r = eachField(f.bytes, [&](const Field &e) -> kube::Result<void> {
        if (e.number != 1 && e.number != 2)
            return {};
        auto t = text(e, what);
        if (!t)
            return t.error();
        (e.number == 1 ? key : value) = *t;
        return {};
    });
    if (!r)
        return r.error();
    into[key] = value;
    return {};
}

kube::Result<void> stringList(const Field &f, const char *what, Json &into)
{
    auto t = text(f, what);
    if (!t)
        return t.error();
    if (!into.is_array())
        into = Json::array();
    into.push_back(*t);
    return {};
}

kube::Result<Json> ownerReference(std::string_view message)
{
    Json out = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 6 || f.number == 7) {
            if (f.wireType != 0)
                return malformed("ownerReferences: a flag is not a varint");
            out[f.number == 6 ? "controller" : "blockOwnerDeletion"] = f.varint != 0;
            return {};
        }
        const char *name = f.number == 1   ? "kind"
                           : f.number == 3 ? "name"
                           : f.number == 4 ? "uid"
                           : f.number == 5 ? "apiVersion"
                                           : nullptr;
        if (!name)
            return {};
        auto t = text(f, name);
        if (!t)
            return t.error();
        out[name] = *t;
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

kube::Result<Json> objectMeta(std::string_view message)
{
    Json out = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 11:
        case 12:
            return mapEntry(f, f.number == 11 ? "labels" : "annotations",
                            out[f.number == 11 ? "labels" : "annotations"]);
        case 13: {
            if (f.wireType != 2)
                return malformed("ownerReferences is not a message");
            auto o = ownerReference(f.bytes);
            if (!o)
                return o.error();
            out["ownerReferences"].push_back(std::move(*o));
            return {};
        }
        case 14:
            return stringList(f, "finalizers", out["finalizers"]);
        default:
            break;
        }
        const char *name = f.number == 1   ? "name"
                           : f.number == 2 ? "generateName"
                           : f.number == 3 ? "namespace"
                           : f.number == 5 ? "uid"
                           : f.number == 6 ? "resourceVersion"
                                           : nullptr;
        if (!name)
            return {};
        auto t = text(f, name);
        if (!t)
            return t.error();
        out[name] = *t;
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

kube::Result<Json> intOrString(std::string_view message, const char *what)
{
    std::uint64_t type = 0;
    std::int64_t intVal = 0;
    std::string strVal;
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 1 || f.number == 2) {
            if (f.wireType != 0)
                return malformed(std::string(what) + " is not a varint");
            if (f.number == 1)
                type = f.varint;
            else
                intVal = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.varint));
            return {};
        }
        if (f.number == 3) {
            auto t = text(f, what);
            if (!t)
                return t.error();
            strVal = *t;
        }
        return {};
    });
    if (!r)
        return r.error();
    if (type == 1)
        return Json(strVal);
    return Json(intVal);
}

kube::Result<Json> labelSelector(std::string_view message)
{
    Json out = Json::object();
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 1)
            return mapEntry(f, "matchLabels", out["matchLabels"]);
        if (f.number != 2)
            return {};
        if (f.wireType != 2)
            return malformed("matchExpressions is not a message");
        Json req = Json::object();
        auto e = eachField(f.bytes, [&](const Field &x) -> kube::Result<void> {
            if (x.number == 3)
                return stringList(x, "values", req["values"]);
            if (x.number != 1 && x.number != 2)
                return {};
            auto t = text(x, x.number == 1 ? "key" : "operator");
            if (!t)
                return t.error();
            req[x.number == 1 ? "key" : "operator"] = *t;
            return {};
        });
        if (!e)
            return e.error();
        out["matchExpressions"].push_back(std::move(req));
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

kube::Result<void> textField(const Field &f, const char *name, Json &into)
{
    auto t = text(f, name);
    if (!t)
        return t.error();
    into[name] = *t;
    return {};
}

kube::Result<void> int32Field(const Field &f, const char *name, Json &into)
{
    if (f.wireType != 0)
        return malformed(std::string(name) + " is not a varint");
    into[name] = static_cast<std::int32_t>(static_cast<std::uint32_t>(f.varint));
    return {};
}

kube::Result<void> boolField(const Field &f, const char *name, Json &into)
{
    if (f.wireType != 0)
        return malformed(std::string(name) + " is not a varint");
    into[name] = f.varint != 0;
    return {};
}

ApiStatus notDecoded(const char *message, std::uint32_t field, const char *name)
{
    return ApiStatus{415, "UnsupportedMediaType",
                     std::string("the protobuf body sets ") + message + " field " + std::to_string(field) +
                         " (" + name +
                         "), which this server decodes only from application/json or application/yaml"};
}

kube::Result<void> optionalText(const Field &f, const char *name, Json &into)
{
    auto t = text(f, name);
    if (!t)
        return t.error();
    if (!t->empty())
        into[name] = *t;
    return {};
}

kube::Result<void> int64Field(const Field &f, const char *name, Json &into)
{
    if (f.wireType != 0)
        return malformed(std::string(name) + " is not a varint");
    into[name] = static_cast<std::int64_t>(f.varint);
    return {};
}

kube::Result<void> quantityMap(const Field &f, const char *what, Json &into)
{
    if (f.wireType != 2)
        return malformed(std::string(what) + " is not a map entry");
    std::string key, value;
    auto r = eachField(f.bytes, [&](const Field &e) -> kube::Result<void> {
        if (e.number == 1) {
            auto t = text(e, what);
            if (!t)
                return t.error();
            key = *t;
        } else if (e.number == 2) {
            if (e.wireType != 2)
                return malformed(std::string(what) + " is not a Quantity");
            return eachField(e.bytes, [&](const Field &q) -> kube::Result<void> {
                if (q.number != 1)
                    return {};
                auto t = text(q, what);
                if (!t)
                    return t.error();
                value = *t;
                return {};
            });
        }
        return {};
    });
    if (!r)
        return r.error();
    if (!into.is_object())
        into = Json::object();
    into[key] = value;
    return {};
}

kube::Result<Json> microTime(std::string_view message, const char *what)
{
    std::int64_t seconds = 0, nanos = 0;
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number != 1 && f.number != 2)
            return {};
        if (f.wireType != 0)
            return malformed(std::string(what) + " is not a varint");
        (f.number == 1 ? seconds : nanos) = static_cast<std::int64_t>(f.varint);
        return {};
    });
    if (!r)
        return r.error();
    if (nanos < 0 || nanos > 999'999'999 || seconds < -62135596800LL || seconds > 253402300799LL)
        return malformed(std::string(what) + " is out of range");
    return Json(kube::formatMicroTime(seconds, nanos / 1000));
}

} // namespace server::protowire
