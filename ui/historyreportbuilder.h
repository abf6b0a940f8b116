#pragma once
// Builds the exported history report of one DaemonSet from what the console knows: the latest
// snapshot (live revisions, rollout timings, actions) and the revision memory (revisions the
// cluster removed). Pure: the result is a plain value the renderers can use on any thread.

#include "models/diff/historyreport.h"
#include "models/revisionmemory.h"
#include "models/snapshot.h"

namespace gui {

diff::HistoryReport buildHistoryReport(const models::ClusterSnapshot &snapshot,
                                       const models::DaemonSetInfo &ds,
                                       const std::vector<models::RememberedRevision> &remembered);

} // namespace gui
