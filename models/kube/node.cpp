#include "models/kube/node.h"

#include "models/kube/jsonfield.h"

namespace kube {

bool Node::isReady() const
{
    const NodeCondition *c = condition("Ready");
    return c && c->status == "True";
}

const NodeCondition *Node::condition(const std::string &type) const
{
    for (const auto &c : conditions)
        if (c.type == type)
            return &c;
    return nullptr;
}

void Node::setCondition(NodeCondition c)
{
    for (auto &existing : conditions) {
        if (existing.type != c.type)
            continue;
        if (existing.status == c.status && !c.lastTransitionTime)
            c.lastTransitionTime = existing.lastTransitionTime;
        existing = std::move(c);
        return;
    }
    conditions.push_back(std::move(c));
}

Json Node::toJson() const
{
    Json spec = Json::object();
    if (unschedulable)
        spec["unschedulable"] = true;
    if (!taints.empty()) {
        Json t = Json::array();
        for (const auto &x : taints)
            t.push_back(x.toJson());
        spec["taints"] = std::move(t);
    }
    Json conds = Json::array();
    for (const auto &c : conditions) {
        Json cj = {{"type", c.type}, {"status", c.status}};
        if (!c.reason.empty())
            cj["reason"] = c.reason;
        if (!c.message.empty())
            cj["message"] = c.message;
        if (c.lastTransitionTime)
            cj["lastTransitionTime"] = formatRfc3339(*c.lastTransitionTime);
        conds.push_back(std::move(cj));
    }
    Json status = {{"conditions", std::move(conds)},
                   {"allocatable", {{"pods", std::to_string(allocatablePods)}}},
                   {"capacity", {{"pods", std::to_string(allocatablePods)}}},
                   {"nodeInfo", {{"kubeletVersion", kubeletVersion}}}};
    return {{"apiVersion", "v1"},
            {"kind", "Node"},
            {"metadata", metadata.toJson()},
            {"spec", spec},
            {"status", status}};
}

Result<Node> Node::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("Node: expected an object");
    Node n;
    const Json *metaJson = member(j, "metadata");
    auto meta = ObjectMeta::fromJson(metaJson ? *metaJson : Json());
    if (!meta)
        return meta.error();
    n.metadata = std::move(*meta);
    if (auto sp = j.find("spec"); sp != j.end() && sp->is_object()) {
        if (const Json *u = member(*sp, "unschedulable"); u && !u->is_boolean())
            return ApiStatus::badRequest("Node field spec.unschedulable: expected a boolean");
        n.unschedulable = boolOr(*sp, "unschedulable", false);
        if (auto t = sp->find("taints"); t != sp->end() && t->is_array()) {
            for (const auto &e : *t) {
                auto taint = Taint::fromJson(e);
                if (!taint)
                    return taint.error();
                n.taints.push_back(std::move(*taint));
            }
        }
    }
    if (auto st = j.find("status"); st != j.end() && st->is_object()) {
        if (auto c = st->find("conditions"); c != st->end() && c->is_array()) {
            for (const auto &e : *c) {
                if (!e.is_object())
                    continue;
                NodeCondition nc;
                nc.type = stringOr(e, "type");
                nc.status = stringOr(e, "status");
                nc.reason = stringOr(e, "reason");
                nc.message = stringOr(e, "message");
                if (auto lt = e.find("lastTransitionTime"); lt != e.end() && lt->is_string())
                    if (auto t = parseRfc3339(lt->get<std::string>()))
                        nc.lastTransitionTime = *t;
                n.conditions.push_back(std::move(nc));
            }
        }
        if (auto ni = st->find("nodeInfo"); ni != st->end() && ni->is_object())
            n.kubeletVersion = stringOr(*ni, "kubeletVersion");
        if (auto al = st->find("allocatable"); al != st->end() && al->is_object()) {
            if (auto p = al->find("pods"); p != al->end()) {
                if (p->is_string()) {
                    try {
                        n.allocatablePods = std::stoi(p->get<std::string>());
                    } catch (...) {
                        return ApiStatus::badRequest("Node field status.allocatable.pods: not a number");
                    }
                } else if (p->is_number_integer()) {
                    n.allocatablePods = integerOr(*al, "pods", n.allocatablePods);
                }
            }
        }
    }
    return n;
}

} // namespace kube
