#pragma once
// HistoryReport — the exported history of one DaemonSet: its revisions (with those the
// cluster already removed, when the app remembers them), the template diff between each pair
// of consecutive revisions, the rollouts with their timings, and the actions taken. Rendered
// as Markdown, a self-contained HTML page (all text escaped, inline CSS) or JSON. Plain
// values in, a complete UTF-8 document out; no I/O.

#include "models/kube/gojson.h"
#include "models/kube/timeutil.h"

#include <cstdint>
#include <string>
#include <vector>

namespace diff {

struct HistoryRevision
{
    std::int64_t number = 0;
    std::string name;
    std::string hash;
    kube::Timestamp created = 0;
    std::string changeCause;
    std::string imageSummary;
    kube::Json podTemplate; // PodTemplateSpec; null when unknown
    bool current = false;
    bool removed = false; // cleaned up by the cluster, known from the app's history
    std::vector<std::int64_t> previousNumbers;
    int pods = 0;
};

struct HistoryNodeTiming
{
    std::string node;
    kube::Timestamp started = 0;
    kube::Timestamp finished = 0; // 0: not finished
};

struct HistoryRollout
{
    std::int64_t fromRevision = 0;
    std::int64_t toRevision = 0;
    std::string fromHash;
    std::string toHash;
    kube::Timestamp started = 0;
    kube::Timestamp completed = 0; // 0: not completed
    std::string supersededBy;
    std::vector<HistoryNodeTiming> nodes;
};

struct HistoryAction
{
    kube::Timestamp time = 0;
    std::string user;
    std::string action; // rollback, pause, resume
    std::string target;
    std::string parameters;
    bool ok = false;
    std::string outcome;
};

struct HistoryReport
{
    std::string name;
    std::string namespace_;
    kube::Timestamp generatedAt = 0;
    std::string source; // "scenario demo.yaml", "cluster kind-prod"
    bool ignoreServerNoise = false;
    std::vector<HistoryRevision> revisions; // any order; rendered by number
    std::vector<HistoryRollout> rollouts;
    std::vector<HistoryAction> actions;

    std::string markdown() const;
    std::string html() const;
    std::string json() const; // indented by two spaces, newline-terminated
};

} // namespace diff
