#pragma once
// Events as the console shows them: eventInfo converts one Event (both snapshot builders and the
// drill-down use it), eventsAbout picks the events of one object for the drill-down
// (ObjectDetail::events): those whose involvedObject is the object, newest first, as `kubectl
// describe` lists them.

#include "models/snapshot/snapshot.h"

#include "models/kube/event.h"

#include <vector>

namespace models {

// One Event: object "kind/ns/name" (lower-case kind), daemonSetKey when it is about a DaemonSet
// (the builders attribute pod events to their DaemonSet themselves), source = source.component.
EventInfo eventInfo(const kube::Event &e);
// kind "Pod" or "Node"; a Node's events have no namespace. Sorted newest first (lastTimestamp,
// then the Event's key).
std::vector<EventInfo> eventsAbout(const std::vector<const kube::Event *> &events, const QString &kind,
                                   const QString &ns, const QString &name);
void sortNewestFirst(std::vector<EventInfo> &events);

} // namespace models
