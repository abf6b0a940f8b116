#pragma once
// API-server validation of DaemonSets (pkg/apis/apps/validation), with upstream field paths
// and messages: a single error reads `DaemonSet.apps "web" is invalid: <path>: <detail>`,
// several are joined as `[a, b]`. Invalid values are printed as Go's %#v would print them
// (IntOrString values as intstr.IntOrString{Type:0, IntVal:1, StrVal:""}).

#include "models/kube/daemonset.h"
#include "models/kube/poddisruptionbudget.h"

#include <string>
#include <vector>

namespace api {

inline constexpr std::size_t kDns1123LabelMaxLength = 63;
inline constexpr std::size_t kDns1123SubdomainMaxLength = 253;
inline constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024; // TotalAnnotationSizeLimitB

// An Invalid (422) status for `kind` when there are field errors ("spec.x: Invalid value: ..."),
// one details.cause per error, typed from its wording; success when there are none.
// The BadRequest of a write whose object names another object than its URL does.
kube::ApiStatus nameMismatch(const std::string &objectName, const std::string &urlName);
kube::Result<void> invalidIfAny(const std::string &kind, const std::string &name,
                                std::vector<std::string> errors);

// IsDNS1123Subdomain / IsDNS1123Label (apimachinery/pkg/util/validation): the problems with a
// value, in upstream wording; empty when it is valid.
std::vector<std::string> dns1123SubdomainErrors(const std::string &value);
std::vector<std::string> dns1123LabelErrors(const std::string &value);

// How a kind's names are checked: most kinds (DaemonSets, Pods, Nodes ...) use
// NameIsDNSSubdomain, Namespaces NameIsDNSLabel.
enum class NameRule { Dns1123Subdomain, Dns1123Label };

// ValidateObjectMeta: name or generateName, namespace (a DNS-1123 label, required exactly when
// `namespaced`), generation, total annotation size (256 KiB). Field errors in upstream wording.
std::vector<std::string> objectMetaErrors(const kube::ObjectMeta &meta, bool namespaced, NameRule rule);
// The same as an Invalid (422) status for `qualifiedKind` ("Node", "DaemonSet.apps").
kube::Result<void> validateObjectMeta(const std::string &qualifiedKind, const kube::ObjectMeta &meta,
                                      bool namespaced, NameRule rule);

// Object metadata first, then the spec. A spec field of the wrong JSON type ("containers" given
// as a map, a container name that is a number) is reported as the API server's decoder reports
// it, and nothing else of the spec is checked.
// ValidateRollingUpdateDaemonSet: maxUnavailable and maxSurge each a non-negative int or a
// percentage up to 100%, not both non-zero and not both zero (absent counts as 0). The field
// errors in upstream wording, paths under spec.updateStrategy.rollingUpdate; empty when valid.
std::vector<std::string> rollingUpdateErrors(const kube::Json &rollingUpdate);

kube::Result<void> validateDaemonSet(const kube::DaemonSet &ds, const kube::DaemonSet *old);
kube::Result<void> validateDaemonSetStatus(const kube::DaemonSet &ds, const kube::DaemonSet &old);

// ValidatePodDisruptionBudgetSpec (pkg/apis/policy/validation): at most one of minAvailable and
// maxUnavailable, each a non-negative int or a percentage up to 100%, and a known unhealthy-pod
// eviction policy. The metadata is checked by validateObjectMeta.
kube::Result<void> validatePodDisruptionBudget(const kube::PodDisruptionBudget &pdb);

} // namespace api
