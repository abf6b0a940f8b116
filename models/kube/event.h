#pragma once
// Event (core/v1). Engine events are emitted as reason codes plus parameters; `message` is the
// upstream-shaped English text a real cluster would show, and the UI may translate by reason.

#include "models/kube/objectmeta.h"

namespace kube {

struct ObjectReference
{
    std::string kind;
    std::string namespace_;
    std::string name;
    std::string uid;
    std::string apiVersion;
    std::string fieldPath; // the part of the object, e.g. spec.containers{web}
    bool operator==(const ObjectReference &) const = default;
};

struct Event
{
    ObjectMeta metadata;
    ObjectReference involvedObject;
    std::string reason;
    std::string message;
    std::string type = "Normal"; // Normal or Warning
    int count = 1;
    std::optional<Timestamp> firstTimestamp;
    std::optional<Timestamp> lastTimestamp;
    std::string sourceComponent;

    Json toJson() const;
    static Result<Event> fromJson(const Json &j);
};

} // namespace kube
