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
    // The query form read as labels.Parse reads it: terms split on commas outside parentheses;
    // "k=v" and "k==v" (In with one value, so "a=1,a=2" selects nothing), "k!=v" (NotIn with one
    // value), "k in (a,b)", "k notin (a,b)", "k" (Exists), "!k" (DoesNotExist). A term it cannot
    // read, or whose key holds a space, parenthesis, '!' or '=', is a 400 BadRequest "unable to
    // parse requirement". Empty text is the empty selector (everything).
    static Result<LabelSelector> fromQueryString(const std::string &text);
    // Splits a selector's text on commas outside parentheses ("a in (x,y),b" -> "a in (x,y)",
    // "b"), as label and field selectors both are.
    static std::vector<std::string> splitTerms(const std::string &text);

    Json toJson() const;
    static Result<LabelSelector> fromJson(const Json &j);
    bool operator==(const LabelSelector &) const = default;
};

} // namespace kube
