#pragma once
// HistoryExport — collects a DaemonSet's history report (diff::HistoryReport) from a snapshot:
// its live revisions, the removed ones a RevisionMemory still knows, the rollout timings and
// the actions recorded by the backend. The GUI's export dialog and the headless `export`
// command both use it, so both write the same document.

#include "models/history/revisionmemory.h"
#include "models/snapshot/snapshot.h"

#include "models/diff/historyreport.h"

namespace models {

class HistoryExport
{
public:
    // Null when the snapshot has no such DaemonSet. `memory` may be null (live revisions only).
    // `actions`, when given, is the action log to report instead of the snapshot's (the stored
    // history merged with it, HistoryRecorder::actions), so actions taken before a restart are
    // in the export too.
    static std::optional<diff::HistoryReport> report(const ClusterSnapshot &snapshot, const QString &dsKey,
                                                     const RevisionMemory *memory = nullptr,
                                                     bool ignoreServerNoise = false,
                                                     const std::vector<ActionRecord> *actions = nullptr);
};

} // namespace models
