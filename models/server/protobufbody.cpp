#include "models/server/protobufbody.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace server {

namespace {

using kube::ApiStatus;
using kube::Json;

ApiStatus malformed(const std::string &what)
{
    return ApiStatus::badRequest("the protobuf request body is malformed: " + what);
}

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

kube::Result<std::string> text(const Field &f, const char *name)
{
    if (f.wireType != 2)
        return malformed(std::string(name) + " is not a string");
    return std::string(f.bytes);
}

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

// meta.v1 DeleteOptions: gracePeriodSeconds 1, preconditions 2, orphanDependents 3,
// propagationPolicy 4, dryRun 5 (repeated).
kube::Result<Json> deleteOptions(std::string_view message)
{
    Json out = {{"kind", "DeleteOptions"}, {"apiVersion", "meta.k8s.io/v1"}};
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        switch (f.number) {
        case 1:
            if (f.wireType != 0)
                return malformed("gracePeriodSeconds is not a varint");
            out["gracePeriodSeconds"] = static_cast<std::int64_t>(f.varint);
            return {};
        case 2: {
            if (f.wireType != 2)
                return malformed("preconditions is not a message");
            auto p = preconditions(f.bytes);
            if (!p)
                return p.error();
            out["preconditions"] = std::move(*p);
            return {};
        }
        case 3:
            if (f.wireType != 0)
                return malformed("orphanDependents is not a varint");
            out["orphanDependents"] = f.varint != 0;
            return {};
        case 4: {
            auto s = text(f, "propagationPolicy");
            if (!s)
                return s.error();
            out["propagationPolicy"] = *s;
            return {};
        }
        case 5: {
            auto s = text(f, "dryRun");
            if (!s)
                return s.error();
            if (!out.contains("dryRun"))
                out["dryRun"] = Json::array();
            out["dryRun"].push_back(*s);
            return {};
        }
        default:
            return {}; // fields this server does not read (ignoreStoreReadError…)
        }
    });
    if (!r)
        return r.error();
    return out;
}

// policy/v1 Eviction: metadata 1 (ObjectMeta: name 1, namespace 3, uid 5, resourceVersion 6),
// deleteOptions 2.
kube::Result<Json> eviction(std::string_view message)
{
    Json out = {{"kind", "Eviction"}, {"apiVersion", "policy/v1"}, {"metadata", Json::object()}};
    auto r = eachField(message, [&](const Field &f) -> kube::Result<void> {
        if (f.number == 1) {
            if (f.wireType != 2)
                return malformed("metadata is not a message");
            return eachField(f.bytes, [&](const Field &m) -> kube::Result<void> {
                const char *name = m.number == 1   ? "name"
                                   : m.number == 3 ? "namespace"
                                   : m.number == 5 ? "uid"
                                   : m.number == 6 ? "resourceVersion"
                                                   : nullptr;
                if (!name)
                    return {};
                auto s = text(m, name);
                if (!s)
                    return s.error();
                out["metadata"][name] = *s;
                return {};
            });
        }
        if (f.number == 2) {
            if (f.wireType != 2)
                return malformed("deleteOptions is not a message");
            auto d = deleteOptions(f.bytes);
            if (!d)
                return d.error();
            out["deleteOptions"] = std::move(*d);
        }
        return {};
    });
    if (!r)
        return r.error();
    return out;
}

} // namespace

bool isProtobufContentType(const std::string &contentType)
{
    std::string type = contentType.substr(0, contentType.find(';'));
    type.erase(std::remove_if(type.begin(), type.end(), [](unsigned char c) { return std::isspace(c); }),
               type.end());
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return type == kProtobufMediaType;
}

kube::Result<Json> decodeProtobufBody(const std::string &body)
{
    static constexpr std::string_view kMagic("k8s\0", 4);
    if (body.size() < kMagic.size() || std::string_view(body).substr(0, kMagic.size()) != kMagic)
        return malformed("it does not start with the \"k8s\\0\" envelope prefix");
    std::string apiVersion, kind, contentEncoding, contentType;
    std::string_view raw;
    auto r =
        eachField(std::string_view(body).substr(kMagic.size()), [&](const Field &f) -> kube::Result<void> {
            switch (f.number) {
            case 1: // typeMeta
                if (f.wireType != 2)
                    return malformed("typeMeta is not a message");
                return eachField(f.bytes, [&](const Field &t) -> kube::Result<void> {
                    if (t.number != 1 && t.number != 2)
                        return {};
                    auto s = text(t, t.number == 1 ? "typeMeta.apiVersion" : "typeMeta.kind");
                    if (!s)
                        return s.error();
                    (t.number == 1 ? apiVersion : kind) = *s;
                    return {};
                });
            case 2:
                if (f.wireType != 2)
                    return malformed("raw is not bytes");
                raw = f.bytes;
                return {};
            case 3:
            case 4: {
                auto s = text(f, f.number == 3 ? "contentEncoding" : "contentType");
                if (!s)
                    return s.error();
                (f.number == 3 ? contentEncoding : contentType) = *s;
                return {};
            }
            default:
                return {};
            }
        });
    if (!r)
        return r.error();
    if (!contentEncoding.empty())
        return malformed("the content encoding \"" + contentEncoding + "\" is not supported");
    if (kind == "DeleteOptions")
        return deleteOptions(raw);
    if (kind == "Eviction" && (apiVersion == "policy/v1" || apiVersion == "policy/v1beta1")) {
        auto e = eviction(raw);
        if (e)
            (*e)["apiVersion"] = apiVersion;
        return e;
    }
    return ApiStatus{
        415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json, application/yaml (protobuf only for DeleteOptions and Eviction, not " +
            (apiVersion.empty() ? std::string() : apiVersion + ", ") + "Kind=" + kind + ")"};
}

} // namespace server
