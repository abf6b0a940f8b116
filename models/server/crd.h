#pragma once
// The NodeUpgradeRollout CustomResourceDefinition — what a real cluster needs before
// `daemonscope controller` can act there (installer/kubernetes/10-crd.yaml is this, printed by
// `daemonscope controller --print-crd`): apiextensions.k8s.io/v1, cluster-scoped, version
// v1alpha1 served and stored, the status subresource, a structural OpenAPI v3 schema built from
// the same schema table the embedded API server publishes and validates with (kube::schema),
// and the printer columns `kubectl get nur` shows — the same list the embedded server's table
// printer uses, so both print the same columns.

#include "models/kube/gojson.h"

#include <string>
#include <vector>

namespace server {

struct PrinterColumn
{
    std::string name;        // "Up-To-Date"
    std::string type;        // string, integer, date
    std::string jsonPath;    // ".status.upToDate"
    std::string description; // for kubectl explain and the Table's column definitions
    int priority = 0;        // 1: shown with -o wide only
};

// Name comes first implicitly; then these, in order.
const std::vector<PrinterColumn> &nodeUpgradeRolloutColumns();
// The value at a column's simple JSON path (".a.b"), null when absent.
const kube::Json &columnValue(const kube::Json &object, const std::string &jsonPath);

kube::Json nodeUpgradeRolloutCrd();
std::string nodeUpgradeRolloutCrdYaml(); // with a header comment

} // namespace server
