#pragma once
// LabelSelector (metav1.LabelSelector): matchLabels AND matchExpressions, evaluated like
// labels.Selector. An empty selector ({}) selects everything; a null selector selects nothing.

#include "models/kube/objectmeta.h"

namespace kube {

struct LabelSelectorRequirement
{
    std::string key;
    std::string op; // In, NotIn, Exists, DoesNotExist
    std::vector<std::string> values;
    bool operator==(const LabelSelectorRequirement &) const = default;
};

class LabelSelector
{
public:
    StringMap matchLabels;
    std::vector<LabelSelectorRequirement> matchExpressions;

    bool matches(const StringMap &labels) const;
    bool empty() const { return matchLabels.empty() && matchExpressions.empty(); }
    // kubectl/API query form: "app=web,tier in (a,b),!legacy"
    std::string toQueryString() const;

    Json toJson() const;
    static Result<LabelSelector> fromJson(const Json &j);
    bool operator==(const LabelSelector &) const = default;
};

} // namespace kube
