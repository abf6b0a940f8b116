#include "models/backend/livenodeactions.h"

#include "models/kube/daemonset.h"
#include "models/kube/node.h"
#include "models/kube/pod.h"

#include <map>

namespace models {

namespace {

constexpr const char *kJson = "application/json";

std::string nsPath(const std::string &ns)
{
    return ns.empty() ? std::string() : "/namespaces/" + ns;
}

} // namespace

kube::Result<bool> LiveNodeActions::setUnschedulable(const std::string &node, bool unschedulable)
{
    auto n = m_client.get<kube::Node>(std::string(), node);
    if (!n)
        return n.error();
    if (n->unschedulable == unschedulable)
        return false;
    const kube::Json patch = {{"spec", {{"unschedulable", unschedulable ? kube::Json(true) : kube::Json()}}}};
    auto r = m_client.patch<kube::Node>(std::string(), node, client::PatchType::Strategic, patch.dump(),
                                        "kubectl-cordon");
    if (!r)
        return r.error();
    return true;
}

kube::Result<LiveDrainStart> LiveNodeActions::startDrain(const std::string &node,
                                                         const api::DrainOptions &options)
{
    LiveDrainStart start;
    auto cordoned = setUnschedulable(node, true);
    if (!cordoned)
        return cordoned.error();
    start.cordoned = *cordoned;
    client::ListOptions lo;
    lo.fieldSelector = "spec.nodeName=" + node;
    auto pods = m_client.list<kube::Pod>(std::string(), lo);
    if (!pods)
        return pods.error();
    std::vector<const kube::Pod *> onNode;
    for (const auto &p : pods->items)
        onNode.push_back(&p);
    std::map<std::string, bool> exists; // ns/name -> the DaemonSet was found
    kube::ApiStatus failure;
    const auto dsExists = [&](const std::string &ns, const std::string &name) {
        const std::string key = ns + "/" + name;
        if (auto it = exists.find(key); it != exists.end())
            return it->second;
        auto ds = m_client.get<kube::DaemonSet>(ns, name);
        if (!ds && ds.error().code != 404 && failure.message.empty())
            failure = ds.error();
        return exists[key] = ds.ok() || ds.error().code != 404;
    };
    start.plan = api::getPodsForDeletion(onNode, options, dsExists);
    if (!failure.message.empty())
        return failure;
    return start;
}

LiveEviction LiveNodeActions::evict(const std::string &ns, const std::string &pod)
{
    const kube::Json body = {
        {"apiVersion", "policy/v1"}, {"kind", "Eviction"}, {"metadata", {{"name", pod}, {"namespace", ns}}}};
    auto r = m_client.transport().request("POST", "/api/v1/namespaces/" + ns + "/pods/" + pod + "/eviction",
                                          {}, body.dump(), kJson, kJson);
    if (r || r.error().code == 404)
        return {api::DrainRun::Eviction::Evicted, {}};
    if (r.error().code != 429)
        return {api::DrainRun::Eviction::Failed, pod + ": " + r.error().message};
    // Name the budget with its numbers: the pod's labels against the namespace's budgets.
    const kube::PodDisruptionBudget *covering = nullptr;
    std::vector<kube::PodDisruptionBudget> budgets;
    auto p = m_client.get<kube::Pod>(ns, pod);
    auto list = m_client.transport().request("GET", "/apis/policy/v1" + nsPath(ns) + "/poddisruptionbudgets",
                                             {}, {}, {}, kJson);
    if (p && list) {
        const auto j = kube::Json::parse(list->body, nullptr, false);
        if (j.is_object() && j.contains("items") && j["items"].is_array())
            for (const auto &item : j["items"])
                if (auto b = kube::PodDisruptionBudget::fromJson(item))
                    budgets.push_back(std::move(*b));
        std::vector<const kube::PodDisruptionBudget *> pointers;
        for (const auto &b : budgets)
            pointers.push_back(&b);
        covering = api::coveringBudget(*p, pointers);
    }
    return {api::DrainRun::Eviction::Blocked, api::budgetBlockText(pod, covering, r.error().message)};
}

kube::Result<bool> LiveNodeActions::canI(const AccessQuestion &question)
{
    kube::Json attributes = {
        {"verb", question.verb}, {"group", question.group}, {"resource", question.resource}};
    if (!question.subresource.empty())
        attributes["subresource"] = question.subresource;
    if (!question.namespace_.empty())
        attributes["namespace"] = question.namespace_;
    const kube::Json body = {{"apiVersion", "authorization.k8s.io/v1"},
                             {"kind", "SelfSubjectAccessReview"},
                             {"spec", {{"resourceAttributes", attributes}}}};
    auto r = m_client.transport().request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                                          {}, body.dump(), kJson, kJson);
    if (!r)
        return r.error();
    const auto j = kube::Json::parse(r->body, nullptr, false);
    if (!j.is_object() || !j.contains("status") || !j["status"].is_object())
        return kube::ApiStatus{0, "DecodeError", "the SelfSubjectAccessReview answer has no status"};
    const auto allowed = j["status"].find("allowed");
    return allowed != j["status"].end() && allowed->is_boolean() && allowed->get<bool>();
}

} // namespace models
