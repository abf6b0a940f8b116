#pragma once
// ObjectMeta and OwnerReference. Fields the app reasons about are typed; everything else a
// server sent is kept in `extra` so that an object read and written back loses nothing.

#include "models/kube/gojson.h"
#include "models/kube/result.h"
#include "models/kube/timeutil.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kube {

// Labels, annotations and the like: ordered by key, looked up by any string (a literal key
// needs no std::string of its own).
using StringMap = std::map<std::string, std::string, std::less<>>;

struct OwnerReference
{
    std::string apiVersion;
    std::string kind;
    std::string name;
    std::string uid;
    bool controller = false;
    bool blockOwnerDeletion = false;

    Json toJson() const;
    static Result<OwnerReference> fromJson(const Json &j);
    bool operator==(const OwnerReference &) const = default;
};

struct ObjectMeta
{
    std::string name;
    std::string generateName;
    std::string namespace_;
    std::string uid;
    std::string resourceVersion;
    std::int64_t generation = 0;
    std::optional<Timestamp> creationTimestamp;
    std::optional<Timestamp> deletionTimestamp;
    std::optional<std::int64_t> deletionGracePeriodSeconds;
    StringMap labels;
    StringMap annotations;
    std::vector<OwnerReference> ownerReferences;
    std::vector<std::string> finalizers;
    Json extra; // unknown metadata fields (managedFields, ...), kept verbatim; null when none

    const OwnerReference *controllerRef() const;
    // A label's or annotation's value, empty when absent: a reference into the map (or to one
    // shared empty string), valid while the map is not changed.
    const std::string &label(std::string_view key) const;
    const std::string &annotation(std::string_view key) const;
    std::string key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }

    Json toJson() const;
    static Result<ObjectMeta> fromJson(const Json &j);
    bool operator==(const ObjectMeta &) const = default;
};

// Reads a string map ({"a":"b"}), rejecting non-string values with a message naming `field`.
Result<StringMap> stringMapFromJson(const Json &j, const std::string &field);
// resourceVersions are opaque to clients, but every server this app talks to counts them up: the
// number, or nothing when the text is not a plain unsigned decimal that fits in 64 bits.
std::optional<std::uint64_t> numericResourceVersion(const std::string &rv);
Json stringMapToJson(const StringMap &m);

} // namespace kube
