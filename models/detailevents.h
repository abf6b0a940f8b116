#pragma once
// The events of one object for the drill-down (ObjectDetail::events): those whose
// involvedObject is the object, newest first, as `kubectl describe` lists them.

#include "models/snapshot.h"

#include "models/kube/event.h"

#include <vector>

namespace models {

// As the snapshot builders convert an Event, except for one field: all of a drill-down's events
// are about the one object, so daemonSetKey (meaningless there) carries the reporting component
// instead (source.component: kubelet, daemonset-controller), the "From" of kubectl describe.
EventInfo detailEventInfo(const kube::Event &e);
// kind "Pod" or "Node"; a Node's events have no namespace. Sorted newest first (lastTimestamp,
// then the Event's key).
std::vector<EventInfo> eventsAbout(const std::vector<const kube::Event *> &events, const QString &kind,
                                   const QString &ns, const QString &name);
void sortNewestFirst(std::vector<EventInfo> &events);

} // namespace models
