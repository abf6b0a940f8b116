#include "models/kube/event.h"

#include "models/kube/jsonfield.h"

namespace kube {

Json Event::toJson() const
{
    Json io = {{"kind", involvedObject.kind}, {"name", involvedObject.name}};
    if (!involvedObject.namespace_.empty())
        io["namespace"] = involvedObject.namespace_;
    if (!involvedObject.uid.empty())
        io["uid"] = involvedObject.uid;
    if (!involvedObject.apiVersion.empty())
        io["apiVersion"] = involvedObject.apiVersion;
    if (!involvedObject.fieldPath.empty())
        io["fieldPath"] = involvedObject.fieldPath;
    Json j = {{"apiVersion", "v1"},   {"kind", "Event"},  {"metadata", metadata.toJson()},
              {"involvedObject", io}, {"reason", reason}, {"message", message},
              {"type", type},         {"count", count}};
    if (firstTimestamp)
        j["firstTimestamp"] = formatRfc3339(*firstTimestamp);
    if (lastTimestamp)
        j["lastTimestamp"] = formatRfc3339(*lastTimestamp);
    if (!sourceComponent.empty())
        j["source"] = {{"component", sourceComponent}};
    return j;
}

Result<Event> Event::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Event: expected an object");
    Event e;
    const Json *metaJson = member(j, "metadata");
    auto meta = ObjectMeta::fromJson(metaJson ? *metaJson : Json());
    if (!meta)
        return meta.error();
    e.metadata = std::move(*meta);
    if (auto io = j.find("involvedObject"); io != j.end() && io->is_object()) {
        e.involvedObject.kind = stringOr(*io, "kind");
        e.involvedObject.namespace_ = stringOr(*io, "namespace");
        e.involvedObject.name = stringOr(*io, "name");
        e.involvedObject.uid = stringOr(*io, "uid");
        e.involvedObject.apiVersion = stringOr(*io, "apiVersion");
        e.involvedObject.fieldPath = stringOr(*io, "fieldPath");
    }
    e.reason = stringOr(j, "reason");
    e.message = stringOr(j, "message");
    e.type = stringOr(j, "type", "Normal");
    e.count = integerOr(j, "count", 1);
    for (auto [key, dst] :
         {std::pair{"firstTimestamp", &e.firstTimestamp}, {"lastTimestamp", &e.lastTimestamp}}) {
        if (auto it = j.find(key); it != j.end() && it->is_string())
            if (auto t = parseRfc3339(it->get<std::string>()))
                *dst = *t;
    }
    if (!e.lastTimestamp) // events.k8s.io style objects carry eventTime instead
        if (auto it = j.find("eventTime"); it != j.end() && it->is_string())
            if (auto t = parseRfc3339(it->get<std::string>()))
                e.lastTimestamp = *t;
    if (auto s = j.find("source"); s != j.end() && s->is_object())
        e.sourceComponent = stringOr(*s, "component");
    return e;
}

} // namespace kube
