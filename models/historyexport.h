#pragma once
// HistoryExport — collects a DaemonSet's history report (diff::HistoryReport) from a snapshot:
// its live revisions, the removed ones a RevisionMemory still knows, the rollout timings and
// the actions recorded by the backend. The GUI's export dialog and the headless `export`
// command both use it, so both write the same document.

#include "models/revisionmemory.h"
#include "models/snapshot.h"

#include "models/diff/historyreport.h"

namespace models {

class HistoryExport
{
public:
    // Null when the snapshot has no such DaemonSet. `memory` may be null (live revisions only).
    static std::optional<diff::HistoryReport> report(const ClusterSnapshot &snapshot, const QString &dsKey,
                                                     const RevisionMemory *memory = nullptr,
                                                     bool ignoreServerNoise = false);
};

} // namespace models
