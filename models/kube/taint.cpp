#include "models/kube/taint.h"

#include "models/kube/jsonfield.h"

namespace kube {

Json Taint::toJson() const
{
    Json j = {{"key", key}, {"effect", effect}};
    if (!value.empty())
        j["value"] = value;
    return j;
}

Result<Taint> Taint::fromJson(const Json &j)
{
    const Json *key = member(j, "key");
    if (!key || !key->is_string())
        return ApiStatus::badRequest("taint: expected an object with a string key");
    Taint t;
    t.key = key->get<std::string>();
    if (auto it = j.find("value"); it != j.end() && it->is_string())
        t.value = it->get<std::string>();
    if (auto it = j.find("effect"); it != j.end() && it->is_string())
        t.effect = it->get<std::string>();
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute")
        return ApiStatus::badRequest("taint " + t.key +
                                     ": effect must be NoSchedule, PreferNoSchedule or NoExecute");
    return t;
}

Json Toleration::toJson() const
{
    Json j = Json::object();
    if (!key.empty())
        j["key"] = key;
    if (!op.empty())
        j["operator"] = op;
    if (!value.empty())
        j["value"] = value;
    if (!effect.empty())
        j["effect"] = effect;
    if (tolerationSeconds)
        j["tolerationSeconds"] = *tolerationSeconds;
    return j;
}

Result<Toleration> Toleration::fromJson(const Json &j)
{
    if (!j.is_object())
        return ApiStatus::badRequest("toleration: expected an object");
    Toleration t;
    auto str = [&](const char *k, std::string &dst) {
        if (auto it = j.find(k); it != j.end() && it->is_string())
            dst = it->get<std::string>();
    };
    str("key", t.key);
    str("operator", t.op);
    str("value", t.value);
    str("effect", t.effect);
    if (auto it = j.find("tolerationSeconds"); it != j.end() && it->is_number_integer())
        t.tolerationSeconds = it->get<std::int64_t>();
    return t;
}

// ToleratesTaint (k8s.io/api/core/v1/toleration.go): effect matches (or empty), key matches
// (or empty with Exists), and for Equal the values are equal.
bool Toleration::toleratesTaint(const Taint &t) const
{
    if (!effect.empty() && effect != t.effect)
        return false;
    if (!key.empty() && key != t.key)
        return false;
    if (op == "Exists")
        return true;
    if (op.empty() || op == "Equal")
        return value == t.value && !(key.empty());
    return false;
}

bool tolerationsTolerateTaint(const std::vector<Toleration> &tolerations, const Taint &taint)
{
    for (const auto &t : tolerations)
        if (t.toleratesTaint(taint))
            return true;
    return false;
}

Result<std::vector<Toleration>> tolerationsFromJson(const Json &list)
{
    std::vector<Toleration> out;
    if (list.is_null())
        return out;
    if (!list.is_array())
        return ApiStatus::badRequest("tolerations: expected a list");
    for (const auto &e : list) {
        auto t = Toleration::fromJson(e);
        if (!t)
            return t.error();
        out.push_back(std::move(*t));
    }
    return out;
}

} // namespace kube
