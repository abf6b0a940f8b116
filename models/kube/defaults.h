#pragma once
// API-server defaulting (Kubernetes 1.32/1.33) for the objects the engine stores, so that they
// serialise exactly as a real server's would. The template metadata keeps
// "creationTimestamp": null, as metav1.ObjectMeta serialised a zero time up to 1.33.

#include "models/kube/gojson.h"

namespace kube {

// SetDefaults_PodSpec + SetDefaults_Container & friends on a PodTemplateSpec ({metadata, spec}).
void applyPodTemplateDefaults(Json &podTemplate);
// SetDefaults_PodSpec etc. on a PodSpec, a Pod's or a template's. Templates get no more than
// this: since 1.28 a host-network template's ports are no longer given host ports.
void applyPodSpecDefaults(Json &podSpec);
// What SetDefaults_Pod adds for a Pod only (after applyPodSpecDefaults): enableServiceLinks
// true, requests from the limits, and on the host network hostPort = containerPort. Whether
// anything was added.
bool applyPodDefaults(Json &podSpec);
// SetDefaults_DaemonSet: updateStrategy, rollingUpdate, revisionHistoryLimit, template.
void applyDaemonSetDefaults(Json &daemonSet);
// SetDefaults_ReplicaSet: replicas 1, template defaults.
void applyReplicaSetDefaults(Json &replicaSet);

// imagePullPolicy an API server would choose for this image (Always for :latest or no tag).
std::string defaultPullPolicy(const std::string &image);

} // namespace kube
