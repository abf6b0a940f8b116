#include "models/api/admission.h"

#include "models/kube/jsonfield.h"

namespace api {

namespace {

constexpr const char *kNotReady = "node.kubernetes.io/not-ready";
constexpr const char *kUnreachable = "node.kubernetes.io/unreachable";

} // namespace

std::optional<kube::Json> withDefaultTolerationSeconds(const kube::Json &podSpec)
{
    bool notReady = false, unreachable = false;
    const kube::Json *list = kube::member(podSpec, "tolerations");
    if (list && list->is_array())
        for (const auto &t : *list) {
            const std::string effect = kube::stringOr(t, "effect");
            if (!effect.empty() && effect != "NoExecute")
                continue;
            const std::string key = kube::stringOr(t, "key");
            notReady = notReady || key.empty() || key == kNotReady;
            unreachable = unreachable || key.empty() || key == kUnreachable;
        }
    if (notReady && unreachable)
        return std::nullopt;
    kube::Json spec = podSpec;
    kube::Json &out = spec["tolerations"];
    if (!out.is_array())
        out = kube::Json::array();
    for (auto [present, key] : {std::pair{notReady, kNotReady}, {unreachable, kUnreachable}})
        if (!present)
            out.push_back({{"key", key},
                           {"operator", "Exists"},
                           {"effect", "NoExecute"},
                           {"tolerationSeconds", kDefaultTolerationSeconds}});
    return spec;
}

} // namespace api
