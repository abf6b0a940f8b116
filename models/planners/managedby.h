#pragma once
// Who else manages a DaemonSet. A DaemonSet deployed by kubectl apply, Helm, Argo CD or Flux is
// written again by that tool: a later `kubectl apply` of its manifest, a `helm upgrade`, an Argo
// CD sync (at once with self-heal) or a Flux reconciliation puts back what the manifest says, so
// an image set here, a rollback, a pause or a strategy edit is reverted. The console warns before
// such a change, with one wording for every action (managedByWarnings).
//
// Evidence, first match per tool, in this order:
// - kubectl apply: the annotation kubectl.kubernetes.io/last-applied-configuration (client-side
//   apply; kubectl 1.36 itself warns that a later apply reverts an undo).
// - Helm: the label app.kubernetes.io/managed-by=Helm or the annotations
//   meta.helm.sh/release-name / release-namespace; a field manager "helm".
// - Argo CD: an annotation argocd.argoproj.io/* (tracking-id, sync-options, ...), or the label
//   app.kubernetes.io/instance together with argocd.argoproj.io/tracking-id; a field manager
//   starting with "argocd".
// - Flux: the labels kustomize.toolkit.fluxcd.io/name or helm.toolkit.fluxcd.io/name; the field
//   managers "kustomize-controller" and "helm-controller".
// - Any other field manager in metadata.managedFields that writes the object itself (not only
//   its status subresource), except kubectl's own (kubectl, kubectl-*) and this console's
//   (daemonscope): named as it is, e.g. "terraform".

#include "models/snapshot/snapshot.h"

#include "models/kube/objectmeta.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace models {

// The tools found in the object's metadata, in the order above; empty when none.
std::vector<ManagedBy> detectManagedBy(const kube::ObjectMeta &meta);
// detectManagedBy, sharing `previous` when the answer is the same (snapshots are rebuilt often).
std::shared_ptr<const std::vector<ManagedBy>>
managedByOf(const kube::ObjectMeta &meta, const std::shared_ptr<const std::vector<ManagedBy>> &previous);

// What the console is about to do, for the warning's wording.
enum class ManagedChange { SetImage, Restart, Strategy, Rollback, Pause };

// One translated sentence per tool that will revert the change, naming the tool and its
// evidence ("Managed by Helm (release monitoring/node-exporter): the next helm upgrade
// reverts this rollback."); empty when nothing else manages the DaemonSet.
QStringList managedByWarnings(const DaemonSetInfo &ds, ManagedChange change);

} // namespace models
