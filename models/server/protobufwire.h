#pragma once
// The protobuf wire format as the request-body decoder (protobufbody.cpp) reads it: one field at
// a time (number, wire type, value), the walk over a message's fields, the scalar and map fields
// a message carries, and the meta.v1 and intstr messages every object shares (ObjectMeta,
// OwnerReference, LabelSelector, IntOrString, MicroTime, Preconditions). Private to
// protobufbody.cpp and protobufwire.cpp.

#include "models/kube/apistatus.h"
#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace server::protowire {

using kube::ApiStatus;
using kube::Json;

ApiStatus malformed(const std::string &what);

// One field of a protobuf message: its number and wire type, and its value (varint, fixed, or
// the bytes of a length-delimited field).
struct Field
{
    std::uint32_t number = 0;
    int wireType = 0;
    std::uint64_t varint = 0;
    std::string_view bytes;
};

class Reader
{
public:
    explicit Reader(std::string_view data) : m_data(data) {}

    bool atEnd() const { return m_pos >= m_data.size(); }

    kube::Result<Field> next()
    {
        auto key = varint();
        if (!key)
            return key.error();
        Field f;
        if ((*key >> 3) == 0 || (*key >> 3) > 0x1fffffffU)
            return malformed("field number " + std::to_string(*key >> 3) + " is out of range");
        f.number = static_cast<std::uint32_t>(*key >> 3);
        f.wireType = static_cast<int>(*key & 7);
        switch (f.wireType) {
        case 0: {
            auto v = varint();
            if (!v)
                return v.error();
            f.varint = *v;
            return f;
        }
        case 1:
        case 5: {
            const std::size_t n = f.wireType == 1 ? 8 : 4;
            if (m_data.size() - m_pos < n)
                return malformed("a fixed-size field ends early");
            f.bytes = m_data.substr(m_pos, n);
            m_pos += n;
            return f;
        }
        case 2: {
            auto len = varint();
            if (!len)
                return len.error();
            if (*len > m_data.size() - m_pos)
                return malformed("field " + std::to_string(f.number) + " is longer than the message");
            f.bytes = m_data.substr(m_pos, static_cast<std::size_t>(*len));
            m_pos += static_cast<std::size_t>(*len);
            return f;
        }
        default:
            return malformed("field " + std::to_string(f.number) + " has the unsupported wire type " +
                             std::to_string(f.wireType));
        }
    }

private:
    kube::Result<std::uint64_t> varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_data.size())
                return malformed("a varint ends early");
            const auto byte = static_cast<unsigned char>(m_data[m_pos++]);
            v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return v;
        }
        return malformed("a varint is longer than 10 bytes");
    }

    std::string_view m_data;
    std::size_t m_pos = 0;
};

kube::Result<std::string> text(const Field &f, const char *name);

// Calls fn for every field of the message; the first error ends the walk.
template <typename Fn> kube::Result<void> eachField(std::string_view message, Fn fn)
{
    Reader r(message);
    while (!r.atEnd()) {
        auto f = r.next();
        if (!f)
            return f.error();
        if (auto done = fn(*f); !done)
            return done.error();
    }
    return {};
}

kube::Result<Json> preconditions(std::string_view message);

// A map<string,string> entry: key 1, value 2.
kube::Result<void> mapEntry(const Field &f, const char *what, Json &into);
kube::Result<void> stringList(const Field &f, const char *what, Json &into);

// meta.v1 OwnerReference: kind 1, name 3, uid 4, apiVersion 5, controller 6, blockOwnerDeletion 7.
kube::Result<Json> ownerReference(std::string_view message);

// meta.v1 ObjectMeta, the fields a client sets: name 1, generateName 2, namespace 3, uid 5,
// resourceVersion 6, labels 11, annotations 12, ownerReferences 13, finalizers 14 (timestamps,
// generation and managedFields are the server's).
kube::Result<Json> objectMeta(std::string_view message);

// intstr.IntOrString: type 1 (0 int, 1 string), intVal 2, strVal 3.
kube::Result<Json> intOrString(std::string_view message, const char *what);

// meta.v1 LabelSelector: matchLabels 1 (map), matchExpressions 2 {key 1, operator 2, values 3}.
kube::Result<Json> labelSelector(std::string_view message);

// An object message: metadata 1, spec 2 (decoded by specFn into the "spec" member); the status
// (3) is the server's and ignored.
template <typename SpecFn>

kube::Result<Json> objectWithSpec(std::string_view message, const char *kind, const char *apiVersion,
                                  SpecFn specFn)
{
    Json out = {{"kind", kind}, {"apiVersion", apiVersion}, {"metadata", Json::object()}};
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 1) {
            if (f.wireType != 2)
                return malformed("metadata is not a message");
            auto m = objectMeta(f.bytes);
            if (!m)
                return m.error();
            out["metadata"] = std::move(*m);
            return {};
        }
        if (f.number != 2)
            return {};
        if (f.wireType != 2)
            return malformed("spec is not a message");
        Json spec = Json::object();
        auto e = eachField(f.bytes, [&](const Field &x) { return specFn(x, spec); });
        if (!e)
            return e.error();
        out["spec"] = std::move(spec);
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

kube::Result<void> textField(const Field &f, const char *name, Json &into);
kube::Result<void> int32Field(const Field &f, const char *name, Json &into);
kube::Result<void> boolField(const Field &f, const char *name, Json &into);

// What the protobuf body sets that this server decodes only from JSON or YAML: refused with 415
// rather than dropped.
ApiStatus notDecoded(const char *message, std::uint32_t field, const char *name);

// A string field, kept when not empty (proto writes every string, JSON omits the empty ones).
kube::Result<void> optionalText(const Field &f, const char *name, Json &into);
kube::Result<void> int64Field(const Field &f, const char *name, Json &into);

// resource.Quantity: string 1.
kube::Result<void> quantityMap(const Field &f, const char *what, Json &into);

// meta.v1 MicroTime: seconds 1, nanos 2 -> RFC 3339 with six fractional digits.
kube::Result<Json> microTime(std::string_view message, const char *what);

} // namespace server::protowire
