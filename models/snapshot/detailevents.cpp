#include "models/snapshot/detailevents.h"

#include <algorithm>

namespace models {

namespace {

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

EventInfo eventInfo(const kube::Event &e)
{
    EventInfo info;
    info.key = q(e.metadata.key());
    info.firstTime = e.firstTimestamp.value_or(e.metadata.creationTimestamp.value_or(0));
    info.time = e.lastTimestamp.value_or(info.firstTime);
    const auto &o = e.involvedObject;
    const QString kind = q(o.kind).toLower();
    info.object = o.namespace_.empty()
                      ? kind + QLatin1Char('/') + q(o.name)
                      : kind + QLatin1Char('/') + q(o.namespace_) + QLatin1Char('/') + q(o.name);
    info.type = q(e.type);
    info.reason = q(e.reason);
    info.message = q(e.message);
    info.count = e.count;
    if (o.kind == "DaemonSet")
        info.daemonSetKey = q(o.namespace_ + "/" + o.name);
    info.source = q(e.sourceComponent);
    return info;
}

std::vector<EventInfo> eventsAbout(const std::vector<const kube::Event *> &events, const QString &kind,
                                   const QString &ns, const QString &name)
{
    const std::string k = kind.toStdString(), n = name.toStdString();
    const std::string space = kind == QLatin1String("Node") ? std::string() : ns.toStdString();
    std::vector<EventInfo> out;
    for (const kube::Event *e : events) {
        const auto &o = e->involvedObject;
        if (o.kind == k && o.name == n && o.namespace_ == space)
            out.push_back(eventInfo(*e));
    }
    sortNewestFirst(out);
    return out;
}

void sortNewestFirst(std::vector<EventInfo> &events)
{
    std::sort(events.begin(), events.end(), [](const EventInfo &a, const EventInfo &b) {
        return a.time != b.time ? a.time > b.time : a.key < b.key;
    });
}

} // namespace models
