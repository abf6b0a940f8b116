#include "models/kube/event.h"

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
    auto meta = ObjectMeta::fromJson(j.contains("metadata") ? j["metadata"] : Json());
    if (!meta)
        return meta.error();
    e.metadata = std::move(*meta);
    if (auto io = j.find("involvedObject"); io != j.end() && io->is_object()) {
        e.involvedObject.kind = io->value("kind", "");
        e.involvedObject.namespace_ = io->value("namespace", "");
        e.involvedObject.name = io->value("name", "");
        e.involvedObject.uid = io->value("uid", "");
        e.involvedObject.apiVersion = io->value("apiVersion", "");
    }
    e.reason = j.value("reason", "");
    e.message = j.value("message", "");
    e.type = j.value("type", "Normal");
    e.count = j.contains("count") && j["count"].is_number_integer() ? j["count"].get<int>() : 1;
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
        e.sourceComponent = s->value("component", "");
    return e;
}

} // namespace kube
