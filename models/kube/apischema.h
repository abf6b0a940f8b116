#pragma once
// The schemas of the API types the server serves and this app reads: every field of every
// type reachable from the served kinds (Pod, Node, Namespace, Event, Service, DaemonSet,
// ControllerRevision, ReplicaSet, Deployment, StatefulSet, PodTemplate, PodDisruptionBudget,
// Eviction, Lease, the review kinds and the NodeUpgradeRollout custom kind), with its JSON type,
// whether it is required, and its strategic-merge and list markers. One table
// (apitypes.txt, read once) answers:
//   - the Go decoder's type checks (fieldtypes.h: "cannot unmarshal string into … int64"),
//   - which fields are unknown (fieldValidation=Strict / Warn, and pruning on decode),
//   - the OpenAPI v3 documents the server publishes (openapi.h) and so `kubectl explain` and
//     kubectl's strategic-merge patches.
// Field and type descriptions come from apidescriptions.txt.

#include "models/kube/gojson.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kube::schema {

// The JSON forms a field can take.
enum class Scalar {
    String,
    Int32,
    Int64,
    Bool,
    Double,
    Bytes,       // base64 in a string
    Time,        // RFC 3339 seconds, metav1.Time
    MicroTime,   // RFC 3339 microseconds, metav1.MicroTime
    Duration,    // "10m", metav1.Duration (and the custom kind's durations)
    Quantity,    // "500m", "1Gi" or a number
    IntOrString, // 1 or "10%"
    Object,      // a free-form object (runtime.RawExtension, FieldsV1)
    Any          // anything (the custom kind's unions and its status)
};

struct Struct;

// The type of a field: a scalar, a struct, a list of a type or a map from strings to a type.
struct TypeRef
{
    enum class Form { Scalar, Struct, List, Map };
    Form form = Form::Scalar;
    Scalar scalar = Scalar::Any;
    const Struct *type = nullptr;     // Form::Struct
    const TypeRef *element = nullptr; // Form::List, Form::Map
};

struct Field
{
    std::string name;
    TypeRef type;
    bool required = false;
    bool omitEmpty =
        false; // omitempty on a value Go does not point to: "", 0, false, [] and {} are not stored
    std::string patchMergeKey; // x-kubernetes-patch-merge-key
    std::string patchStrategy; // x-kubernetes-patch-strategy: "merge", "retainKeys", "merge,retainKeys"
    std::string listType;      // x-kubernetes-list-type: atomic, set, map
    std::vector<std::string> listMapKeys;
    std::string mapType; // x-kubernetes-map-type: atomic, granular
    std::string description;
};

struct GroupVersionKind
{
    std::string group; // "" for the core group
    std::string version;
    std::string kind;
    bool empty() const { return kind.empty(); }
};

struct Struct
{
    std::string definition; // "io.k8s.api.apps.v1.DaemonSetSpec"
    std::string name;       // "DaemonSetSpec"
    GroupVersionKind gvk;   // set for kinds
    bool atomic = false;    // x-kubernetes-map-type: atomic (+structType=atomic)
    bool builtIn = false;   // a Kubernetes type (io.k8s.*), not the custom kind's
    std::string description;
    std::vector<Field> fields;
    const Field *field(std::string_view name) const;
};

// A reference to a struct type (the root of a walk).
TypeRef refTo(const Struct &type);

// The whole table, read on first use.
const std::vector<const Struct *> &structs();
const Struct *structNamed(std::string_view definition);
// The schema of a kind: ("apps", "v1", "DaemonSet"); null when the kind has none.
const Struct *structForKind(std::string_view group, std::string_view version, std::string_view kind);
// The schema of an object from its apiVersion and kind (null when there is none).
const Struct *structForObject(const Json &object);

// A field the type has no member for: its path as the Go strict decoder writes it
// ("spec.template.spec.containers[0].imagePullPolcy").
struct UnknownField
{
    std::string path;
};
// The unknown fields of `object` against `type`, in document order. Free-form and Any values
// are not looked into.
std::vector<UnknownField> unknownFields(const Json &object, const Struct &type);
// Keys that occur twice in one object of a JSON text, with their paths as the strict decoder
// writes them ("spec.template.spec.containers[0].image"), in document order; the last value is
// the one kept. Free-form values are looked into as well (the decoder reads them as maps).
// Empty for a text that is not valid JSON (the parse reports that).
std::vector<UnknownField> duplicateFields(std::string_view jsonText);
// Removes the unknown fields, as decoding into the Go types does.
void pruneUnknownFields(Json &object, const Struct &type);
// What a decode and re-encode through the Go types does to known fields: quantities in their
// canonical form (kube/quantity.h), and empty values of omitempty fields (nodeSelector: {},
// tolerations: [], hostNetwork: false, annotations: {}) and nulls left out. Invalid quantities
// are left for validation to refuse.
void normalize(Json &object, const Struct &type);

} // namespace kube::schema
