#pragma once
// Node taints and pod tolerations (v1.Taint, v1.Toleration) and ToleratesTaint.

#include "models/kube/gojson.h"
#include "models/kube/result.h"

#include <optional>
#include <string>
#include <vector>

namespace kube {

struct Taint
{
    std::string key;
    std::string value;
    std::string effect; // NoSchedule, PreferNoSchedule, NoExecute
    Json toJson() const;
    static Result<Taint> fromJson(const Json &j);
    bool operator==(const Taint &) const = default;
};

struct Toleration
{
    std::string key; // empty with Exists = tolerate everything
    std::string op;  // Equal (default) or Exists
    std::string value;
    std::string effect; // empty = all effects
    std::optional<std::int64_t> tolerationSeconds;
    Json toJson() const;
    static Result<Toleration> fromJson(const Json &j);
    bool toleratesTaint(const Taint &t) const;
    bool operator==(const Toleration &) const = default;
};

bool tolerationsTolerateTaint(const std::vector<Toleration> &tolerations, const Taint &taint);
Result<std::vector<Toleration>> tolerationsFromJson(const Json &list);

} // namespace kube
