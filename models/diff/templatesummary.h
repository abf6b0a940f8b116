#pragma once
// Semantic summary of the difference between two pod templates (PodTemplateSpec objects
// {metadata, spec}): what an operator reviewing a rollout wants to read — "image a → b",
// "env LOG_LEVEL added (=debug)" — one Change per difference, each with its JSON pointer.

#include "models/kube/gojson.h"

#include <optional>
#include <string>
#include <vector>

namespace diff {

struct Change
{
    // image, env, resources, ports, probes, command, args, volumeMounts, containers (a container
    // added or removed), tolerations, nodeSelector, affinity, volumes, serviceAccount,
    // hostNetwork, annotations, labels, other
    std::string category;
    std::string container; // container name; empty for pod-level changes
    std::string path;      // JSON pointer into the template (new side; old side for removals)
    std::string summary;   // one line, e.g. "image nginx:1.26 → nginx:1.27"
    std::optional<kube::Json> before;
    std::optional<kube::Json> after;
};

struct TemplateSummary
{
    std::vector<Change> changes;
    bool identical() const { return changes.empty(); }
};

struct SummaryOptions
{
    // Drop differences that API-server defaulting and controllers produce (see stripServerNoise).
    bool ignoreServerNoise = false;
};

// Containers and initContainers are matched by name, env by name, volumes by name, volume
// mounts by mountPath, ports by containerPort/protocol, tolerations as a set. Every difference
// between the (optionally noise-stripped) templates yields at least one Change, so identical()
// is true exactly when the compared templates are equal.
TemplateSummary summarize(const kube::Json &before, const kube::Json &after,
                          const SummaryOptions &options = {});

// The template without server noise: metadata.creationTimestamp, the controller-revision-hash,
// pod-template-generation and pod-template-hash labels, the
// deprecated.daemonset.template.generation annotation,
// and every field whose value is the API server's default (the inverse of
// kube::applyPodTemplateDefaults: imagePullPolicy, terminationMessagePath/Policy, resources {},
// port protocol TCP, probe timings, restartPolicy, dnsPolicy, schedulerName, securityContext {},
// terminationGracePeriodSeconds 30, volume defaultMode 420, ...). Empty metadata maps go too.
kube::Json stripServerNoise(const kube::Json &podTemplate);

} // namespace diff
