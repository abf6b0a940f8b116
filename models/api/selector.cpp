#include "models/api/selector.h"
#include "models/kube/labelselector.h"

#include <algorithm>
#include <set>

namespace api {

namespace {

using kube::ApiStatus;
using kube::Json;

std::string trim(const std::string &s)
{
    const auto b = s.find_first_not_of(' ');
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(' ');
    return s.substr(b, e - b + 1);
}

// The fields kube-apiserver's field selectors accept per kind (besides metadata.name and
// metadata.namespace, which every kind accepts).
const std::set<std::string> &extraFields(api::Kind kind)
{
    static const std::set<std::string> none;
    static const std::set<std::string> pod = {
        "spec.nodeName",           "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
        "spec.hostNetwork",        "status.phase",       "status.podIP",       "status.podIPs",
        "status.nominatedNodeName"};
    static const std::set<std::string> node = {"spec.unschedulable"};
    static const std::set<std::string> event = {"involvedObject.kind",
                                                "involvedObject.namespace",
                                                "involvedObject.name",
                                                "involvedObject.uid",
                                                "involvedObject.apiVersion",
                                                "involvedObject.resourceVersion",
                                                "involvedObject.fieldPath",
                                                "reason",
                                                "reportingComponent",
                                                "source",
                                                "type"};
    static const std::set<std::string> ns = {"status.phase"};
    static const std::set<std::string> rs = {"status.replicas"};
    switch (kind) {
    case api::Kind::Pod:
        return pod;
    case api::Kind::Node:
        return node;
    case api::Kind::Event:
        return event;
    case api::Kind::Namespace:
        return ns;
    case api::Kind::ReplicaSet:
        return rs;
    default:
        return none;
    }
}

std::string scalarText(const Json &v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    if (v.is_number_integer())
        return std::to_string(v.get<std::int64_t>());
    if (v.is_null())
        return {};
    return v.dump();
}

} // namespace

std::string Selector::fieldValue(const Json &object, const std::string &field)
{
    if (field == "source") // events: the short form of source.component
        return fieldValue(object, "source.component");
    const Json *cur = &object;
    std::size_t start = 0;
    while (start <= field.size()) {
        const auto dot = field.find('.', start);
        const std::string part =
            field.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!cur->is_object())
            return {};
        auto it = cur->find(part);
        if (it == cur->end())
            return field == "spec.unschedulable" ? "false" : std::string();
        cur = &*it;
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return scalarText(*cur);
}

kube::Result<Selector> Selector::parseLabels(const std::string &text)
{
    auto parsed = kube::LabelSelector::fromQueryString(text);
    if (!parsed)
        return parsed.error();
    Selector sel;
    for (auto &e : parsed->matchExpressions) {
        Requirement r;
        r.key = std::move(e.key);
        r.values = std::move(e.values);
        r.op = e.op == "NotIn"          ? Op::NotIn
               : e.op == "Exists"       ? Op::Exists
               : e.op == "DoesNotExist" ? Op::DoesNotExist
                                        : Op::In;
        sel.m_requirements.push_back(std::move(r));
    }
    return sel;
}

kube::Result<Selector> Selector::parseFields(const std::string &text, api::Kind kind)
{
    Selector sel;
    sel.m_fields = true;
    for (const auto &raw : kube::LabelSelector::splitTerms(text)) {
        const std::string term = trim(raw);
        if (term.empty())
            continue;
        Requirement r;
        std::size_t pos;
        if ((pos = term.find("!=")) != std::string::npos) {
            r.op = Op::NotEquals;
            r.key = trim(term.substr(0, pos));
            r.values = {trim(term.substr(pos + 2))};
        } else if ((pos = term.find("==")) != std::string::npos) {
            r.key = trim(term.substr(0, pos));
            r.values = {trim(term.substr(pos + 2))};
        } else if ((pos = term.find('=')) != std::string::npos) {
            r.key = trim(term.substr(0, pos));
            r.values = {trim(term.substr(pos + 1))};
        } else {
            return ApiStatus::badRequest("invalid selector: '" + text + "'; can't understand '" + term + "'");
        }
        if (r.key != "metadata.name" && r.key != "metadata.namespace" && !extraFields(kind).count(r.key))
            return ApiStatus::badRequest("field label not supported: " + r.key);
        sel.m_requirements.push_back(std::move(r));
    }
    return sel;
}

bool Selector::matches(const Json &object) const
{
    static const Json emptyLabels = Json::object();
    const Json *labels = &emptyLabels;
    if (!m_fields) {
        if (auto m = object.find("metadata"); m != object.end() && m->is_object())
            if (auto l = m->find("labels"); l != m->end() && l->is_object())
                labels = &*l;
    }
    return matchesWith([&](const std::string &key) -> std::optional<std::string> {
        if (m_fields)
            return fieldValue(object, key);
        auto it = labels->find(key);
        if (it == labels->end())
            return std::nullopt;
        return scalarText(*it);
    });
}

namespace {

std::optional<std::string> labelOf(const kube::ObjectMeta &meta, const std::string &key)
{
    auto it = meta.labels.find(key);
    if (it == meta.labels.end())
        return std::nullopt;
    return it->second;
}

} // namespace

bool Selector::matchesPod(const kube::Pod &pod) const
{
    if (m_requirements.empty())
        return true;
    std::optional<Json> encoded; // only for a field the record does not hold apart
    return matchesWith([&](const std::string &key) -> std::optional<std::string> {
        if (!m_fields)
            return labelOf(pod.metadata, key);
        if (key == "metadata.name")
            return pod.metadata.name;
        if (key == "metadata.namespace")
            return pod.metadata.namespace_;
        if (key == "spec.nodeName")
            return pod.nodeName;
        if (key == "status.phase")
            return pod.phase;
        if (!encoded)
            encoded = pod.toJson();
        return fieldValue(*encoded, key);
    });
}

bool Selector::matchesNode(const kube::Node &node) const
{
    if (m_requirements.empty())
        return true;
    return matchesWith([&](const std::string &key) -> std::optional<std::string> {
        if (!m_fields)
            return labelOf(node.metadata, key);
        if (key == "metadata.name")
            return node.metadata.name;
        if (key == "spec.unschedulable")
            return std::string(node.unschedulable ? "true" : "false");
        return fieldValue(node.toJson(), key); // metadata.namespace: empty
    });
}

bool Selector::matchesWith(const std::function<std::optional<std::string>(const std::string &)> &lookup) const
{
    for (const auto &r : m_requirements) {
        const std::optional<std::string> found = lookup(r.key);
        const bool present = found.has_value();
        const std::string value = found.value_or(std::string());
        const bool listed = std::find(r.values.begin(), r.values.end(), value) != r.values.end();
        switch (r.op) {
        case Op::Equals:
        case Op::In:
            if (!present || !listed)
                return false;
            break;
        case Op::NotEquals:
        case Op::NotIn:
            if (present && listed)
                return false;
            break;
        case Op::Exists:
            if (!present)
                return false;
            break;
        case Op::DoesNotExist:
            if (present)
                return false;
            break;
        }
    }
    return true;
}

} // namespace api
