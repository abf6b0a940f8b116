#pragma once
// DaemonSet (apps/v1). The app writes DaemonSets back (rollback, pause), so the whole spec is
// kept as JSON and unknown fields survive a round trip; status is typed.

#include "models/kube/intorstring.h"
#include "models/kube/labelselector.h"
#include "models/kube/objectmeta.h"

#include <optional>

namespace kube {

inline constexpr const char *kRevisionHashLabel = "controller-revision-hash";
inline constexpr const char *kPodTemplateGenerationLabel = "pod-template-generation";
inline constexpr const char *kTemplateGenerationAnnotation = "deprecated.daemonset.template.generation";
inline constexpr const char *kChangeCauseAnnotation = "kubernetes.io/change-cause";

struct DaemonSetStatus
{
    int currentNumberScheduled = 0;
    int numberMisscheduled = 0;
    int desiredNumberScheduled = 0;
    int numberReady = 0;
    std::int64_t observedGeneration = 0;
    int updatedNumberScheduled = 0;
    int numberAvailable = 0;
    int numberUnavailable = 0;
    std::optional<int> collisionCount;
    Json conditions; // null unless a server sent some

    Json toJson() const;
    static Result<DaemonSetStatus> fromJson(const Json &j);
    bool operator==(const DaemonSetStatus &) const = default;
};

struct DaemonSet
{
    ObjectMeta metadata;
    Json spec = Json::object();
    DaemonSetStatus status;
    Json extra = Json::object(); // unknown top-level fields

    Result<LabelSelector> selector() const;
    const Json &podTemplate() const; // spec.template (null json if absent)
    std::string updateStrategyType() const;
    std::optional<IntOrString> maxUnavailable() const;
    std::optional<IntOrString> maxSurge() const;
    int minReadySeconds() const;
    int revisionHistoryLimit() const;
    std::optional<std::int64_t> templateGeneration() const; // from the annotation

    Json toJson() const;
    static Result<DaemonSet> fromJson(const Json &j);
};

struct ControllerRevision
{
    ObjectMeta metadata;
    std::string data; // raw JSON bytes, compared byte for byte
    std::int64_t revision = 0;
    Json extra = Json::object();

    Json toJson() const;
    static Result<ControllerRevision> fromJson(const Json &j);
};

} // namespace kube
