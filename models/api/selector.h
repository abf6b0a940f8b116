#pragma once
// Selector — a label selector ("app=web,tier in (a,b),!legacy") or a field selector
// ("metadata.name=web,spec.nodeName!=node-1") from a list or watch query, evaluated against the
// JSON of an object. The same matcher serves lists and watches, so a watch reports exactly the
// objects the matching list returns. Field selectors accept only the fields kube-apiserver
// supports for the kind; anything else is a 400 "field label not supported".

#include "models/api/kind.h"
#include "models/kube/gojson.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"
#include "models/kube/result.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace api {

class Selector
{
public:
    static kube::Result<Selector> parseLabels(const std::string &text);
    static kube::Result<Selector> parseFields(const std::string &text, Kind kind);

    bool matches(const kube::Json &object) const;
    // The same on the engine's record of a pod, without encoding it (unless a field selector
    // names a field the record does not hold apart).
    bool matchesPod(const kube::Pod &pod) const;
    // The same on the engine's record of a node.
    bool matchesNode(const kube::Node &node) const;
    bool empty() const { return m_requirements.empty(); }
    // The value a field selector compares for a field path ("" when absent).
    static std::string fieldValue(const kube::Json &object, const std::string &field);

private:
    // `value(key)`: the label's or field's value, nothing for a label that is not there.
    bool matchesWith(const std::function<std::optional<std::string>(const std::string &)> &value) const;
    enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
    struct Requirement
    {
        std::string key;
        Op op = Op::Equals;
        std::vector<std::string> values;
    };
    std::vector<Requirement> m_requirements;
    bool m_fields = false;
};

} // namespace api
